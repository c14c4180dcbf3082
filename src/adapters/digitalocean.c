/* digitalocean.c - DigitalOcean Droplet sizes: GET /v2/sizes (Bearer key).
 *
 * https://docs.digitalocean.com/reference/api/digitalocean/#tag/Sizes
 * `sizes[]` lists every Droplet plan: `slug` ("gpu-h100x8-640gb"), `vcpus`,
 * `memory` (MiB), `disk` (GB), `price_hourly` (USD for the whole Droplet),
 * `available` (bool), `regions[]` (slugs where the plan can be created) and,
 * for GPU plans only, `gpu_info{count, model ("nvidia_h100"), vram{amount,
 * unit}}` where vram is the total over all GPUs.  One offer per region, or
 * one offer in region "unknown" marked unavailable when the list is empty.
 * Plans without gpu_info are not GPU offers and are left to adapter_emit to
 * drop.  Pagination: `links.pages.next`, an absolute URL on the API host,
 * followed until absent (per_page=200, the documented maximum).
 */
#include <math.h>
#include <strings.h>

#include "gpucmp/adapter.h"

/* vram{amount, unit} in GB (GiB counted as GB, like every other source). */
static double vram_gb(const json_t *vram)
{
	double amount = aj_num(vram, "amount");
	const char *unit = aj_str(vram, "unit");
	if (!(amount > 0) || isinf(amount) || !unit)
		return NAN;
	if (strcasecmp(unit, "gib") == 0 || strcasecmp(unit, "gb") == 0)
		return amount;
	if (strcasecmp(unit, "mib") == 0 || strcasecmp(unit, "mb") == 0)
		return amount / 1024.0;
	if (strcasecmp(unit, "tib") == 0 || strcasecmp(unit, "tb") == 0)
		return amount * 1024.0;
	return NAN;
}

static enum gc_status one_size(struct adapter_run *run, json_t *size, char **err)
{
	const char *slug = aj_str(size, "slug");
	if (!json_is_object(size) || !slug)
		return GC_OK;
	json_t *gi = json_object_get(size, "gpu_info");
	double count = json_is_object(gi) ? aj_num(gi, "count") : NAN;
	double total = json_is_object(gi) ? vram_gb(json_object_get(gi, "vram")) : NAN;
	double mem_mib = aj_num(size, "memory");
	json_t *avail = json_object_get(size, "available");
	struct offer o;
	offer_init(&o);
	o.sku = slug;
	o.gpu_name = json_is_object(gi) ? aj_str(gi, "model") : NULL;
	o.gpu_count = count > 0 && count <= 1024 ? count : NAN; /* never trust sizes */
	o.gpu_mem_gb = o.gpu_count > 0 && total > 0 ? total / o.gpu_count : NAN;
	o.vcpus = aj_num(size, "vcpus");
	o.ram_gb = mem_mib > 0 ? mem_mib / 1024.0 : NAN;
	o.disk_gb = aj_num(size, "disk");
	o.price_hr = aj_num(size, "price_hourly");
	o.available = json_is_boolean(avail) ? json_is_true(avail) : -1;
	return adapter_emit_regions(run, &o, json_object_get(size, "regions"), err);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, NULL, NULL, err, "%s/v2/sizes?per_page=200", run->base);
}

/* {"sizes": [...], "links": {"pages": {"next": URL}}} or {"message": ...} */
static const struct adapter_list sizes = {
	.path = "sizes",
	.type = JSON_ARRAY,
	.each = one_size,
	.error = "message",
	.pager = {.style = ADAPTER_PAGE_LINK, .next = "links.pages.next"},
};

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	return adapter_parse_page(run, req, body, len, &sizes, err);
}

static const char *const key_envs[] = {"DIGITALOCEAN_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN", NULL};

const struct adapter adapter_digitalocean = {
	.id = "digitalocean",
	.base_url = "https://api.digitalocean.com",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "GET /v2/sizes "
		    "(https://docs.digitalocean.com/reference/api/digitalocean/#tag/Sizes)",
	.stock = "digitalocean: /v2/sizes available, regions",
	.conditional = 0,
	.start = start,
	.parse = parse,
};
