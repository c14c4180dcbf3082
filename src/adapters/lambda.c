/* lambda.c - Lambda Cloud: GET /api/v1/instance-types (Bearer key).
 *
 * `data` is an object keyed by instance type; each has `instance_type`
 * (name, description "8x H100 (80 GB SXM5)", gpu_description,
 * price_cents_per_hour, specs{vcpus, memory_gib, storage_gib, gpus}) and
 * `regions_with_capacity_available` (empty when sold out).  Prices are the
 * same in every region; one offer per region with capacity, or one offer
 * in region "unknown" marked unavailable when there is none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"
#include "gpucmp/strutil.h"

/* "8x H100 (80 GB SXM5)" -> count 8, name "H100", memory 80. */
static void parse_description(const char *d, double *count, char *name, size_t n, double *mem)
{
	*count = NAN;
	*mem = NAN;
	name[0] = '\0';
	if (!d)
		return;
	const char *end;
	double c;
	/* a plain decimal only (str_decimal_prefix): strtod read "0x8x" as 8 */
	if (str_decimal_prefix(d, &c, &end) == 0 && *end == 'x' && end[1] == ' ') {
		*count = c;
		d = end + 2;
	}
	const char *paren = strchr(d, '(');
	size_t len = paren ? (size_t)(paren - d) : strlen(d);
	while (len && d[len - 1] == ' ')
		len--;
	snprintf(name, n, "%.*s", (int)len, d);
	if (strncmp(name, "Tesla ", 6) == 0)
		memmove(name, name + 6, strlen(name + 6) + 1);
	if (paren && str_decimal_prefix(paren + 1, mem, &end) != 0)
		*mem = NAN;
	if (!(*mem > 0))
		*mem = NAN;
}

static enum gc_status one_type(struct adapter_run *run, json_t *entry, char **err)
{
	json_t *it = json_object_get(entry, "instance_type");
	json_t *specs = json_object_get(it, "specs");
	const char *sku = aj_str(it, "name");
	if (!json_is_object(it) || !sku)
		return GC_OK;
	char name[128];
	double count, mem;
	const char *desc = aj_str(it, "gpu_description");
	parse_description(aj_str(it, "description"), &count, name, sizeof name, &mem);
	if (desc) {
		double c2, m2;
		char n2[128];
		parse_description(desc, &c2, n2, sizeof n2, &m2);
		if (*n2)
			snprintf(name, sizeof name, "%s", n2);
		if (!isnan(m2))
			mem = m2;
	}
	double gpus = aj_num(specs, "gpus");
	struct offer o;
	offer_init(&o);
	o.sku = sku;
	o.gpu_name = name;
	o.gpu_count = gpus > 0 ? gpus : count;
	o.gpu_mem_gb = mem;
	o.vcpus = aj_num(specs, "vcpus");
	o.ram_gb = aj_num(specs, "memory_gib");
	o.disk_gb = aj_num(specs, "storage_gib");
	o.price_hr = aj_num(it, "price_cents_per_hour") / 100.0;
	json_t *regions = json_object_get(entry, "regions_with_capacity_available");
	size_t i, n = json_array_size(regions);
	json_t *r;
	if (n == 0) {
		o.available = 0;
		o.region = "unknown";
		return adapter_emit(run, &o, err);
	}
	json_array_foreach(regions, i, r) {
		struct offer copy = o;
		copy.available = 1;
		copy.region = aj_str(r, "name");
		enum gc_status st = adapter_emit(run, &copy, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, NULL, NULL, err, "%s/api/v1/instance-types", run->base);
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	(void)req;
	return adapter_parse_list(run, body, len, JSON_OBJECT, "data", one_type, NULL, err);
}

static const char *const key_envs[] = {"LAMBDA_API_KEY", NULL};

const struct adapter adapter_lambda = {
	.id = "lambda",
	.base_url = "https://cloud.lambda.ai",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "GET /api/v1/instance-types (https://docs.lambda.ai/api/cloud)",
	.stock = "lambda: /api/v1/instance-types regions_with_capacity_available",
	.conditional = 1,
	.start = start,
	.parse = parse,
};
