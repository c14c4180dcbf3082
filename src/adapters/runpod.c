/* runpod.c - RunPod: POST /graphql, the gpuTypes and dataCenters queries
 * (key optional, Authorization: Bearer, as RunPod's own SDK and CLI send it:
 * runpod-python runpod/api/graphql.py, runpodctl internal/api/client.go).
 *
 * One GraphQL document, no pagination:
 *
 *   gpuTypes { id displayName memoryInGb secureCloud communityCloud
 *              securePrice secureSpotPrice
 *              lowestPrice(input: {gpuCount: 1}) { minimumBidPrice
 *                uninterruptablePrice minVcpu minMemory stockStatus } }
 *   dataCenters { id gpuAvailability { gpuTypeId stockStatus } }
 *
 * (the gpuTypes fields as runpod-python runpod/api/queries/gpus.py asks
 * them; dataCenters as runpodctl internal/api/gpu.go ListDataCenters does,
 * without the name, location and displayName this adapter does not use).
 * Every offer is of one GPU: sku and gpu_name = the type's `id` ("NVIDIA
 * GeForce RTX 3090", the spelling data/gpus.yaml lists; `displayName` "RTX
 * 3090" is tried when the id is not known), gpu_mem_gb = memoryInGb.
 *
 * Per data center (Secure Cloud; gpuhunt's runpod.py prices a data center's
 * pods at securePrice): one offer in region = the data center's id
 * ("US-IL-1") for each gpuAvailability row naming the type, available when
 * its stockStatus is a non-empty string (High / Medium / Low), not when it
 * is "" or null (runpodctl counts only a non-empty status as available);
 * price_hr = securePrice, spot_price_hr = secureSpotPrice.
 *
 * Cheapest anywhere: lowestPrice (over Secure and Community Cloud) is one
 * offer in region "unknown", kept when no data center names the type or
 * when the type is on Community Cloud (communityCloud true; its hosts are
 * in no data center of this list): price_hr = uninterruptablePrice (on
 * demand), spot_price_hr = minimumBidPrice, vcpus / ram_gb = minVcpu /
 * minMemory, available from stockStatus (a non-empty string: 1, "" or
 * null: 0, absent: unknown).  A price of 0 or null is no price (gpuhunt
 * skips falsy prices).  A GraphQL error with no data ({"errors": [...],
 * "data": null}) fails the refresh with its message; without dataCenters
 * (an older answer, or an error on that part only) every type is its
 * lowestPrice offer.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/adapter.h"

static const char query_body[] =
	"{\"query\":\"query GpuTypes { gpuTypes { id displayName memoryInGb secureCloud "
	"communityCloud securePrice secureSpotPrice lowestPrice(input: {gpuCount: 1}) { "
	"minimumBidPrice uninterruptablePrice minVcpu minMemory stockStatus } } "
	"dataCenters { id gpuAvailability { gpuTypeId stockStatus } } }\"}";

/* The dataCenters list of the response being parsed (borrowed; NULL when
 * the answer has none). */
struct state {
	json_t *dcs;
};

static double sane(double v, double max)
{
	return v >= 0 && v <= max ? v : NAN;
}

/* A price field: 0 or null is not offered. */
static double price(json_t *obj, const char *key)
{
	double v = aj_num(obj, key);
	return v == 0 ? NAN : v;
}

/* 1 for a non-empty stockStatus string, 0 for "" or null, -1 otherwise. */
static int stock(json_t *obj)
{
	json_t *s = json_object_get(obj, "stockStatus");
	if (json_is_string(s))
		return *json_string_value(s) ? 1 : 0;
	return json_is_null(s) ? 0 : -1;
}

/* One offer per data center that names the type; *named counts them. */
static enum gc_status per_dc(struct adapter_run *run, json_t *t, const struct offer *o,
			     size_t *named, char **err)
{
	const struct state *st = run->state;
	size_t i, j;
	json_t *dc, *row;
	json_array_foreach(st ? st->dcs : NULL, i, dc) {
		const char *region = aj_str(dc, "id");
		if (!region || !*region)
			continue;
		json_array_foreach(json_object_get(dc, "gpuAvailability"), j, row) {
			const char *gid = aj_str(row, "gpuTypeId");
			if (!gid || strcmp(gid, o->sku) != 0)
				continue;
			struct offer c = *o;
			c.region = region;
			c.available = stock(row);
			c.price_hr = price(t, "securePrice");
			c.spot_price_hr = price(t, "secureSpotPrice");
			(*named)++;
			enum gc_status s = adapter_emit(run, &c, err);
			if (s != GC_OK)
				return s;
		}
	}
	return GC_OK;
}

static enum gc_status one_type(struct adapter_run *run, json_t *t, char **err)
{
	const char *id = aj_str(t, "id");
	const char *display = aj_str(t, "displayName");
	json_t *lp = json_object_get(t, "lowestPrice");
	if (!json_is_object(t) || !(id || display) || !json_is_object(lp))
		return GC_OK; /* no price asked or none given */
	struct offer o;
	offer_init(&o);
	o.sku = id ? id : display;
	o.gpu_name = o.sku;
	o.gpu_count = 1;
	double mem = aj_num(t, "memoryInGb");
	o.gpu_mem_gb = mem > 0 && mem < 1e5 ? mem : NAN;
	if (run->gpus) {
		const struct gpu_model *m =
			gpu_normalize(run->gpus, o.gpu_name, o.gpu_mem_gb, o.sku);
		if (!m && display)
			m = gpu_normalize(run->gpus, display, o.gpu_mem_gb, o.sku);
		o.gpu = m ? m->id : NULL;
	}
	size_t named = 0;
	enum gc_status st = per_dc(run, t, &o, &named, err);
	if (st != GC_OK || (named && !json_is_true(json_object_get(t, "communityCloud"))))
		return st;
	o.price_hr = price(lp, "uninterruptablePrice");
	o.spot_price_hr = price(lp, "minimumBidPrice");
	o.vcpus = sane(aj_num(lp, "minVcpu"), 1e5);
	o.ram_gb = sane(aj_num(lp, "minMemory"), 1e7);
	o.available = stock(lp);
	return adapter_emit(run, &o, err);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, "POST", query_body, err, "%s/graphql", run->base);
}

/* A GraphQL error ({"errors": [{"message": ...}], "data": null}) as text. */
static enum gc_status graphql_error(json_t *root, char **err)
{
	const char *msg = aj_str(json_array_get(json_object_get(root, "errors"), 0), "message");
	if (!msg)
		return err_set(err, GC_EDATA, "no 'data.gpuTypes' array in the response");
	return adapter_api_error(err, "RunPod GraphQL error", msg);
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	(void)req;
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	json_t *types = aj_path(root, "data.gpuTypes");
	enum gc_status st;
	if (!json_is_array(types)) {
		st = graphql_error(root, err);
	} else {
		struct state state = {.dcs = aj_path(root, "data.dataCenters")};
		if (!json_is_array(state.dcs))
			state.dcs = NULL;
		run->state = &state; /* only for this loop: no free_state */
		st = adapter_each(run, types, one_type, err);
		run->state = NULL;
	}
	json_decref(root);
	return st;
}

static const char *const key_envs[] = {"RUNPOD_API_KEY", NULL};

const struct adapter adapter_runpod = {
	.id = "runpod",
	.base_url = "https://api.runpod.io",
	.auth = ADAPTER_AUTH_OPTIONAL,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "POST /graphql gpuTypes { securePrice lowestPrice } dataCenters "
		    "{ gpuAvailability } (https://graphql-spec.runpod.io/)",
	.stock = "runpod: dataCenters.gpuAvailability.stockStatus",
	.stock_unplaced = "runpod: gpuTypes.lowestPrice.stockStatus",
	/* one request, but a POST: If-None-Match on it would only earn a 412 */
	.conditional = 0,
	.start = start,
	.parse = parse,
};
