/* runpod.c - RunPod: POST /graphql, the gpuTypes query (key optional, as
 * ?api_key=).
 *
 * One GraphQL query, no pagination:
 *
 *   gpuTypes { id displayName memoryInGb secureCloud communityCloud
 *              lowestPrice(input: {gpuCount: 1}) { minimumBidPrice
 *                uninterruptablePrice minVcpu minMemory stockStatus } }
 *
 * The catalog queries answer without a key (gpuhunt runpod.py sends none);
 * RunPod's docs pass one as ?api_key=.  Every gpuType becomes one offer of
 * one GPU: sku and gpu_name = `id` ("NVIDIA GeForce RTX 3090", the spelling
 * data/gpus.yaml lists; `displayName` "RTX 3090" is tried when the id is not
 * known), gpu_mem_gb = memoryInGb, price_hr = lowestPrice.uninterruptablePrice
 * (on demand, the lowest over Secure and Community Cloud), spot_price_hr =
 * lowestPrice.minimumBidPrice, vcpus / ram_gb = lowestPrice.minVcpu /
 * minMemory, available from lowestPrice.stockStatus (High / Medium / Low: 1,
 * null: 0, absent: unknown).  `lowestPrice` is the cheapest place anywhere,
 * so the region is "unknown".  A GraphQL error ({"errors": [...]}, no data)
 * fails the refresh with its message.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/adapter.h"

static const char query_body[] =
	"{\"query\":\"query GpuTypes { gpuTypes { id displayName memoryInGb secureCloud "
	"communityCloud lowestPrice(input: {gpuCount: 1}) { minimumBidPrice "
	"uninterruptablePrice minVcpu minMemory stockStatus } } }\"}";

static double sane(double v, double max)
{
	return v >= 0 && v <= max ? v : NAN;
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
	o.price_hr = aj_num(lp, "uninterruptablePrice");
	o.spot_price_hr = aj_num(lp, "minimumBidPrice");
	/* 0 or null: not offered (gpuhunt runpod.py skips falsy prices) */
	if (o.price_hr == 0)
		o.price_hr = NAN;
	if (o.spot_price_hr == 0)
		o.spot_price_hr = NAN;
	o.vcpus = sane(aj_num(lp, "minVcpu"), 1e5);
	o.ram_gb = sane(aj_num(lp, "minMemory"), 1e7);
	json_t *stock = json_object_get(lp, "stockStatus");
	if (json_is_string(stock))
		o.available = *json_string_value(stock) ? 1 : 0;
	else if (json_is_null(stock))
		o.available = 0;
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
	return adapter_parse_list(run, body, len, JSON_ARRAY, "data.gpuTypes", one_type,
				  graphql_error, err);
}

static const char *const key_envs[] = {"RUNPOD_API_KEY", NULL};

const struct adapter adapter_runpod = {
	.id = "runpod",
	.base_url = "https://api.runpod.io",
	.auth = ADAPTER_AUTH_OPTIONAL,
	.key_style = ADAPTER_KEY_QUERY,
	.key_name = "api_key",
	.key_envs = key_envs,
	.endpoint = "POST /graphql gpuTypes { lowestPrice } (https://graphql-spec.runpod.io/)",
	/* one request, but a POST: If-None-Match on it would only earn a 412 */
	.conditional = 0,
	.start = start,
	.parse = parse,
};
