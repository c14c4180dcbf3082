/* toy.c - a made-up provider that tests/recipe/provider.sh adds, by the
 * "Add a provider" recipe of HACKING.md, to a copy of the tree: GET
 * /v1/instances answers {"instances": [{"name", "gpu", "gpus", "vram_gb",
 * "usd_hr", "region"}]} or {"message": ...}.  Not built into gpucmp.
 */
#include "gpucmp/adapter.h"

static enum gc_status one_instance(struct adapter_run *run, json_t *it, char **err)
{
	const char *name = aj_str(it, "name");
	if (!json_is_object(it) || !name)
		return GC_OK;
	struct offer o;
	offer_init(&o);
	o.sku = name;
	o.gpu_name = aj_str(it, "gpu");
	o.gpu_count = aj_num(it, "gpus");
	o.gpu_mem_gb = aj_num(it, "vram_gb");
	o.price_hr = aj_num(it, "usd_hr");
	o.region = aj_str(it, "region");
	return adapter_emit(run, &o, err);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, NULL, NULL, err, "%s/v1/instances", run->base);
}

static const struct adapter_list instances = {
	.path = "instances",
	.type = JSON_ARRAY,
	.each = one_instance,
	.error = "message",
	.pager = {.style = ADAPTER_PAGE_NONE},
};

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	return adapter_parse_page(run, req, body, len, &instances, err);
}

const struct adapter adapter_toy = {
	.id = "toy",
	.base_url = "https://api.toy.invalid",
	.auth = ADAPTER_AUTH_NONE,
	.endpoint = "GET /v1/instances (made up: tests/recipe/toy)",
	.start = start,
	.parse = parse,
};
