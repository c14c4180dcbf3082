/* hyperstack.c - Hyperstack (NexGen Cloud): flavors joined with the pricebook.
 *
 * https://docs.hyperstack.cloud/docs/api-reference/
 * GET /v1/core/flavors  {status, message, data: [{gpu, region_name,
 *     flavors: [{id, name, display_name, region_name, cpu, ram (GB), disk
 *     (GB root), ephemeral (GB), gpu, gpu_count, stock_available, ...}]}]}
 * GET /v1/pricebook     a bare array [{id, name, value, original_value,
 *     discount_applied, start_time, end_time}]: hourly USD prices of every
 *     resource, the GPU models among them under the same name a flavor
 *     group's `gpu` carries ("A100-80G-PCIe").
 * Auth: header `api_key: KEY`, required.  No pagination.
 *
 * An offer is one flavor in one region; its price is the pricebook `value`
 * (the price charged to the key's organization; `original_value` when
 * absent) of its GPU model times gpu_count, the join SkyPilot's
 * fetch_hyperstack.py also makes.  Storage and public IP, billed separately
 * in the pricebook, are not added.  disk_gb is root disk plus ephemeral
 * disk.  Both documents are kept in run->state and joined in finish();
 * flavors whose GPU has no price (or no GPU) yield no offer.
 *
 * Unverified: no recorded response of either endpoint was found; the
 * shapes follow the documented schemas (Flavor_Item_Get_Response,
 * PricebookModel) and the two known consumers above.
 */
#include <math.h>
#include <string.h>

#include "gpucmp/adapter.h"

enum { KIND_FLAVORS = 0, KIND_PRICEBOOK = 1 };

static enum gc_status start(struct adapter_run *run, char **err)
{
	enum gc_status st =
		adapter_queue(run, KIND_FLAVORS, NULL, NULL, err, "%s/v1/core/flavors", run->base);
	if (st == GC_OK)
		st = adapter_queue(run, KIND_PRICEBOOK, NULL, NULL, err, "%s/v1/pricebook",
				   run->base);
	return st;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	if (req->kind != KIND_FLAVORS && req->kind != KIND_PRICEBOOK)
		return err_set(err, GC_EUSAGE, "unknown request kind %d", req->kind);
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	enum gc_status st = GC_OK;
	json_t *status = json_object_get(root, "status");
	const char *msg = aj_str(root, "message");
	if (json_is_false(status))
		st = adapter_api_error(err, "API error", msg ? msg : "status false");
	else if (req->kind == KIND_FLAVORS) {
		json_t *data = json_object_get(root, "data");
		if (!json_is_array(data))
			st = err_set(err, GC_EDATA, "no 'data' array in the flavors response");
		else
			st = adapter_keep(run, KIND_FLAVORS, data, err); /* the flavor groups */
	} else {
		if (!json_is_array(root))
			st = msg ? adapter_api_error(err, "API error", msg)
				 : err_set(err, GC_EDATA, "the pricebook is not an array");
		else
			st = adapter_keep(run, KIND_PRICEBOOK, root, err);
	}
	json_decref(root);
	return st;
}

/* Hourly price of the pricebook entry `name`, NAN if none. */
static double price_of(json_t *pricebook, const char *name)
{
	size_t i;
	json_t *e;
	if (!name || !*name)
		return NAN;
	json_array_foreach(pricebook, i, e) {
		const char *n = aj_str(e, "name");
		if (!n || strcmp(n, name) != 0)
			continue;
		double v = aj_num(e, "value");
		return isnan(v) ? aj_num(e, "original_value") : v;
	}
	return NAN;
}

static enum gc_status one_flavor(struct adapter_run *run, json_t *group, json_t *f, char **err)
{
	const char *name = aj_str(f, "name");
	if (!json_is_object(f) || !name)
		return GC_OK;
	const char *gpu = aj_str(f, "gpu");
	if (!gpu || !*gpu)
		gpu = aj_str(group, "gpu");
	const char *region = aj_str(f, "region_name");
	if (!region || !*region)
		region = aj_str(group, "region_name");
	double disk = aj_num(f, "disk"), eph = aj_num(f, "ephemeral");
	double gpus = aj_num(f, "gpu_count");
	json_t *stock = json_object_get(f, "stock_available");
	struct offer o;
	offer_init(&o);
	o.sku = name;
	o.gpu_name = gpu;
	o.region = region;
	o.gpu_count = gpus > 0 && gpus <= 1024 ? gpus : NAN; /* never trust sizes */
	o.vcpus = aj_num(f, "cpu");
	o.ram_gb = aj_num(f, "ram");
	o.disk_gb = disk >= 0 ? disk + (eph > 0 ? eph : 0) : NAN;
	o.available = json_is_boolean(stock) ? json_is_true(stock) : -1;
	double unit = price_of(adapter_kept(run, KIND_PRICEBOOK), gpu);
	o.price_hr = o.gpu_count > 0 ? unit * o.gpu_count : NAN;
	return adapter_emit(run, &o, err);
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	size_t i, j;
	json_t *g, *f;
	enum gc_status st = GC_OK;
	json_array_foreach(adapter_kept(run, KIND_FLAVORS), i, g) {
		json_array_foreach(json_object_get(g, "flavors"), j, f) {
			if ((st = one_flavor(run, g, f, err)) != GC_OK)
				return st;
		}
	}
	return st;
}

static const char *const key_envs[] = {"HYPERSTACK_API_KEY", NULL};

const struct adapter adapter_hyperstack = {
	.id = "hyperstack",
	.base_url = "https://infrahub-api.nexgencloud.com",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_HEADER,
	.key_name = "api_key",
	.key_envs = key_envs,
	.endpoint = "GET /v1/core/flavors + /v1/pricebook "
		    "(https://docs.hyperstack.cloud/docs/api-reference/)",
	.conditional = 0,
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = adapter_kept_free,
};
