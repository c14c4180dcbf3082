/* linode.c - Akamai Cloud (Linode): GET /v4/linode/types, then GET
 * /v4/regions/availability (key optional, Bearer).
 *
 * Both lists are paginated as {"data": [...], "page": N, "pages": M,
 * "results": R}; the next page is ?page=N+1 while N < M.  The availability
 * list is asked for after the last page of types; the pages of each list are
 * gathered in run->state (adapter_keep) and joined in finish().
 *
 * Types: a type with GPUs has class "gpu" and `gpus` (count); the GPU model
 * is only in the label ("Dedicated 32GB + RTX6000 GPU x1": the words after
 * '+', without "GPU" and "xN") or the id ("g1-gpu-rtx6000-1").  vcpus,
 * memory (MB), disk (MB), price.hourly (USD).  price applies everywhere
 * except the regions in region_prices[] ({id, hourly}).
 *
 * Availability (https://techdocs.akamai.com/linode-api/reference/get-regions-availability;
 * recorded in linodego test/integration/fixtures/TestRegionsAvailability_List.yaml):
 * rows {"region": "us-southeast", "plan": "g1-gpu-rtx6000-1", "available":
 * true}, one per region for each plan of limited availability (GPU and
 * premium plans).  A type gets one offer per region a row names, available
 * as the row says, at that region's region_prices price or else the base
 * price; a region_prices region no row names gets an offer of unknown
 * availability.  A type no row names (or every type, when the availability
 * list did not come) is one offer in region "unknown" at the base price,
 * availability unknown, plus its region_prices regions.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/adapter.h"

static int is_count_word(const char *w, size_t len)
{
	if (len < 2 || (w[0] != 'x' && w[0] != 'X'))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (w[i] < '0' || w[i] > '9')
			return 0;
	return 1;
}

/* The GPU in a label: the words after the last '+', up to an "xN" word,
 * without a trailing "GPU".  "Dedicated 32GB + RTX6000 GPU x1" -> "RTX6000",
 * "RTX4000 Ada x1 Small" -> "RTX4000 Ada". */
static void gpu_from_label(const char *label, char *out, size_t n)
{
	if (n == 0)
		return;
	out[0] = '\0';
	if (!label)
		return;
	const char *plus = strrchr(label, '+');
	const char *s = plus ? plus + 1 : label;
	size_t j = 0;
	while (*s) {
		while (*s == ' ')
			s++;
		size_t len = strcspn(s, " ");
		if (len == 0 || is_count_word(s, len))
			break;
		if (j + len + 2 > n)
			break;
		if (j)
			out[j++] = ' ';
		memcpy(out + j, s, len);
		j += len;
		out[j] = '\0';
		s += len;
	}
	size_t len = strlen(out);
	if (len >= 4 && strcmp(out + len - 4, " GPU") == 0)
		out[len - 4] = '\0';
	else if (len >= 5 && strcmp(out + len - 5, " GPUs") == 0)
		out[len - 5] = '\0';
}

enum { KIND_TYPES, KIND_AVAIL };

/* The hourly price of type `t` in `region`: its region_prices entry, else
 * the base price. */
static double price_in(json_t *t, const char *region)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(t, "region_prices"), i, r) {
		const char *id = aj_str(r, "id");
		if (id && strcmp(id, region) == 0)
			return aj_num(r, "hourly");
	}
	return aj_num(json_object_get(t, "price"), "hourly");
}

/* 1 if an availability row names `plan` in `region`. */
static int row_names(json_t *avail, const char *plan, const char *region)
{
	size_t i;
	json_t *a;
	json_array_foreach(avail, i, a) {
		const char *p = aj_str(a, "plan"), *r = aj_str(a, "region");
		if (p && r && strcmp(p, plan) == 0 && strcmp(r, region) == 0)
			return 1;
	}
	return 0;
}

static enum gc_status emit_in(struct adapter_run *run, const struct offer *base, json_t *t,
			      const char *region, int available, char **err)
{
	struct offer o = *base;
	o.region = region;
	o.available = available;
	o.price_hr = price_in(t, region);
	return adapter_emit(run, &o, err);
}

static enum gc_status one_type(struct adapter_run *run, json_t *t, char **err)
{
	const char *id = aj_str(t, "id");
	if (!json_is_object(t) || !id)
		return GC_OK;
	double gpus = aj_num(t, "gpus");
	char name[128];
	gpu_from_label(aj_str(t, "label"), name, sizeof name);
	struct offer o;
	offer_init(&o);
	o.sku = id;
	o.gpu_name = name;
	o.gpu_count = gpus > 0 && gpus < 1e4 ? gpus : 0;
	double v = aj_num(t, "vcpus"), mem = aj_num(t, "memory"), disk = aj_num(t, "disk");
	o.vcpus = v > 0 && v < 1e5 ? v : NAN;
	o.ram_gb = mem > 0 && mem < 1e10 ? mem / 1024.0 : NAN;
	o.disk_gb = disk >= 0 && disk < 1e12 ? disk / 1024.0 : NAN;
	o.price_hr = aj_num(json_object_get(t, "price"), "hourly");
	if (!(o.gpu_count > 0))
		return adapter_emit(run, &o, err); /* dropped: no GPU */
	enum gc_status st = GC_OK;
	json_t *avail = adapter_kept(run, KIND_AVAIL);
	size_t i, named = 0;
	json_t *a;
	json_array_foreach(avail, i, a) {
		const char *plan = aj_str(a, "plan"), *region = aj_str(a, "region");
		json_t *yes = json_object_get(a, "available");
		if (!plan || strcmp(plan, id) != 0 || !region || !*region || !json_is_boolean(yes))
			continue;
		named++;
		st = emit_in(run, &o, t, region, json_is_true(yes), err);
		if (st != GC_OK)
			return st;
	}
	if (!named)
		st = adapter_emit(run, &o, err);
	json_array_foreach(json_object_get(t, "region_prices"), i, a) {
		const char *region = aj_str(a, "id");
		if (st != GC_OK)
			break;
		if (!region || !*region || row_names(avail, id, region))
			continue;
		st = emit_in(run, &o, t, region, -1, err);
	}
	return st;
}

static enum gc_status after_last(struct adapter_run *run, int kind, char **err);

/* {"data": [...], "page": N, "pages": M} or {"errors": [{"reason": ...}]};
 * the pages of each list are joined for finish() */
static const struct adapter_list lists[] = {
	[KIND_TYPES] = {.path = "data", .type = JSON_ARRAY, .error = "errors.0.reason",
			.what = "Linode error", .last = after_last,
			.pager = {.style = ADAPTER_PAGE_NUMBER, .next = "page", .pages = "pages",
				  .url = "/v4/linode/types", .param = "page"}},
	[KIND_AVAIL] = {.path = "data", .type = JSON_ARRAY, .error = "errors.0.reason",
			.what = "Linode error", .last = after_last,
			.pager = {.style = ADAPTER_PAGE_NUMBER, .next = "page", .pages = "pages",
				  .url = "/v4/regions/availability", .param = "page"}},
};

/* After the last page of types, the availability list. */
static enum gc_status after_last(struct adapter_run *run, int kind, char **err)
{
	if (kind != KIND_TYPES)
		return GC_OK;
	return adapter_queue(run, KIND_AVAIL, NULL, NULL, err, "%s%s", run->base,
			     lists[KIND_AVAIL].pager.url);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, KIND_TYPES, NULL, NULL, err, "%s%s", run->base,
			     lists[KIND_TYPES].pager.url);
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	struct adapter_request r = *req;
	r.kind = req->kind == KIND_AVAIL ? KIND_AVAIL : KIND_TYPES;
	return adapter_parse_page(run, &r, body, len, &lists[r.kind], err);
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	return adapter_each_kept(run, KIND_TYPES, one_type, err);
}

static const char *const key_envs[] = {"LINODE_TOKEN", NULL};

const struct adapter adapter_linode = {
	.id = "linode",
	.base_url = "https://api.linode.com",
	.auth = ADAPTER_AUTH_OPTIONAL,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "GET /v4/linode/types and /v4/regions/availability "
		    "(https://techdocs.akamai.com/linode-api/reference/get-linode-types, "
		    "https://techdocs.akamai.com/linode-api/reference/get-regions-availability)",
	.stock = "linode: /v4/regions/availability",
	.conditional = 0,
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = adapter_kept_free,
};
