/* vast.c - Vast.ai: POST /api/v0/bundles/ with a JSON filter (key optional).
 *
 * The body asks for every rentable, unrented machine with at least one GPU,
 * best score first, up to VAST_LIMIT offers: there is no pagination, `limit`
 * and `order` in the body are all there is (gpuhunt vastai.py, vast-cli
 * `search offers`).  The answer is {"offers": [...]}, one record per machine
 * offer:
 *
 *   gpu_name "RTX 4090", num_gpus, gpu_ram (MiB per GPU), cpu_cores (host) /
 *   cpu_cores_effective (the share that comes with the GPUs), cpu_ram (MiB,
 *   host: scaled by effective/total cores, as gpuhunt does), disk_space (GB),
 *   dph_total ($/h on demand, storage included), min_bid ($/h, the lowest
 *   interruptible bid), geolocation ("Guangxi, CN"), rentable / rented,
 *   driver_version ("535.183.01"), cuda_max_good (12.2).
 *
 * The sku follows the SkyPilot vast catalog the built-in snapshot comes from
 * (sky/catalog/data_fetchers/fetch_vast.py): "<num_gpus>x-<gpu_name with
 * blanks as '_'>-<cpu_cores>-<cpu_ram>", so data/instance-types.yaml rules
 * ("*x-H100_SXM-*") apply to live offers too.  The machine's offer id is
 * not kept: it changes with every listing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/adapter.h"

#define VAST_LIMIT 3000

/* Copy `s` with runs of blanks as one '_' (at most n-1 bytes). */
static void stubify(char *out, size_t n, const char *s)
{
	size_t j = 0;
	int blank = 0;
	for (; s && *s && j + 1 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			blank = 1;
			continue;
		}
		if (blank && j > 0 && j + 2 < n)
			out[j++] = '_';
		blank = 0;
		out[j++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (n)
		out[j] = '\0';
}

static long nonneg(long v)
{
	return v > 0 ? v : 0;
}

static int is_true(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return json_is_true(v) ? 1 : json_is_false(v) ? 0 : -1;
}

static enum gc_status one_offer(struct adapter_run *run, json_t *r, char **err)
{
	if (!json_is_object(r))
		return GC_OK;
	const char *gpu = aj_str(r, "gpu_name");
	double count = aj_num(r, "num_gpus");
	double gpu_ram = aj_num(r, "gpu_ram");
	double cores = aj_num(r, "cpu_cores");
	double eff = aj_num(r, "cpu_cores_effective");
	double ram = aj_num(r, "cpu_ram");

	char stub[96], sku[160];
	stubify(stub, sizeof stub, gpu ? gpu : "unknown");
	snprintf(sku, sizeof sku, "%ldx-%s-%ld-%ld", nonneg(aj_int(r, "num_gpus", 0)), stub,
		 nonneg(aj_int(r, "cpu_cores", 0)), nonneg(aj_int(r, "cpu_ram", 0)));

	struct offer o;
	offer_init(&o);
	o.sku = sku;
	o.gpu_name = gpu;
	o.gpu_count = count > 0 && count < 1e4 ? count : NAN;
	o.gpu_mem_gb = gpu_ram > 0 && gpu_ram < 1e7 ? gpu_ram / 1024.0 : NAN;
	o.vcpus = eff > 0 && eff < 1e5 ? eff : NAN;
	/* the host's RAM is shared like its cores */
	if (ram > 0 && ram < 1e10)
		o.ram_gb = (eff > 0 && cores >= eff) ? ram * eff / cores / 1024.0 : ram / 1024.0;
	double disk = aj_num(r, "disk_space");
	o.disk_gb = disk >= 0 && disk < 1e9 ? disk : NAN;
	o.price_hr = aj_num(r, "dph_total");
	o.spot_price_hr = aj_num(r, "min_bid");
	o.region = aj_str(r, "geolocation");
	int rentable = is_true(r, "rentable"), rented = is_true(r, "rented");
	o.available = rentable == 0 || rented == 1 ? 0 : rentable == 1 ? 1 : -1;
	o.driver_version = aj_str(r, "driver_version");
	char cuda[32];
	json_t *cv = json_object_get(r, "cuda_max_good");
	double c = json_number_value(cv);
	if (json_is_number(cv) && c > 0 && c < 1000) {
		snprintf(cuda, sizeof cuda, "%.1f", c);
		o.max_cuda = cuda;
	} else if (json_is_string(cv) && *json_string_value(cv)) {
		snprintf(cuda, sizeof cuda, "%s", json_string_value(cv));
		o.max_cuda = cuda;
	}
	return adapter_emit(run, &o, err);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	char body[256];
	snprintf(body, sizeof body,
		 "{\"rentable\":{\"eq\":true},\"rented\":{\"eq\":false},"
		 "\"num_gpus\":{\"gte\":1},\"order\":[[\"score\",\"desc\"]],\"limit\":%d}",
		 VAST_LIMIT);
	return adapter_queue(run, 0, "POST", body, err, "%s/api/v0/bundles/", run->base);
}

/* An API error body ({"success": false, "error": ..., "msg": ...}) as text. */
static enum gc_status api_error(json_t *root, char **err)
{
	const char *msg = aj_str(root, "msg");
	if (!msg)
		msg = aj_str(root, "error");
	if (!msg)
		return err_set(err, GC_EDATA, "no 'offers' array in the response");
	return adapter_api_error(err, "vast.ai error", msg);
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	(void)req;
	return adapter_parse_list(run, body, len, JSON_ARRAY, "offers", one_offer, api_error, err);
}

static const char *const key_envs[] = {"VAST_API_KEY", NULL};

const struct adapter adapter_vast = {
	.id = "vast",
	.base_url = "https://console.vast.ai",
	.auth = ADAPTER_AUTH_OPTIONAL,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "POST /api/v0/bundles/ (https://docs.vast.ai/cli/reference/search-offers)",
	.stock = "vast: rentable, rented",
	/* one request, but a POST: If-None-Match on it would only earn a 412 */
	.conditional = 0,
	.start = start,
	.parse = parse,
};
