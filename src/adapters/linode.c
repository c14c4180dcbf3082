/* linode.c - Akamai Cloud (Linode): GET /v4/linode/types (key optional,
 * Bearer).
 *
 * Paginated as {"data": [...], "page": N, "pages": M, "results": R}; the
 * next page is ?page=N+1 while N < M.  A type with GPUs has class "gpu" and
 * `gpus` (count); the GPU model is only in the label ("Dedicated 32GB +
 * RTX6000 GPU x1": the words after '+', without "GPU" and "xN") or the id
 * ("g1-gpu-rtx6000-1").  vcpus, memory (MB), disk (MB), price.hourly (USD).
 * price applies everywhere except the regions in region_prices[] ({id,
 * hourly}), which get an offer each; the base price is one offer in region
 * "unknown".  This endpoint says nothing about stock: available unknown.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/adapter.h"

enum { MAX_PAGES = 1000 };

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
	enum gc_status st = adapter_emit(run, &o, err);
	json_t *rp = json_object_get(t, "region_prices");
	size_t i;
	json_t *r;
	json_array_foreach(rp, i, r) {
		if (st != GC_OK)
			break;
		const char *region = aj_str(r, "id");
		if (!region || !*region)
			continue;
		struct offer copy;
		offer_init(&copy);
		copy.sku = id;
		copy.gpu_name = name;
		copy.gpu_count = o.gpu_count;
		copy.vcpus = o.vcpus;
		copy.ram_gb = o.ram_gb;
		copy.disk_gb = o.disk_gb;
		copy.region = region;
		copy.price_hr = aj_num(r, "hourly");
		st = adapter_emit(run, &copy, err);
	}
	return st;
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, NULL, NULL, err, "%s/v4/linode/types", run->base);
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	json_t *data = json_object_get(root, "data");
	enum gc_status st;
	if (json_is_array(data)) {
		st = adapter_each(run, data, one_type, err);
	} else {
		/* {"errors": [{"reason": "..."}]} */
		json_t *first = json_array_get(json_object_get(root, "errors"), 0);
		const char *msg = aj_str(first, "reason");
		st = msg ? adapter_api_error(err, "Linode error", msg)
			 : err_set(err, GC_EDATA, "no 'data' array in the response");
	}
	long page = aj_int(root, "page", 0), pages = aj_int(root, "pages", 0);
	if (st == GC_OK && page >= 1 && page < pages && page < MAX_PAGES)
		st = adapter_queue(run, req->kind, NULL, NULL, err, "%s/v4/linode/types?page=%ld",
				   run->base, page + 1);
	json_decref(root);
	return st;
}

static const char *const key_envs[] = {"LINODE_TOKEN", NULL};

const struct adapter adapter_linode = {
	.id = "linode",
	.base_url = "https://api.linode.com",
	.auth = ADAPTER_AUTH_OPTIONAL,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "GET /v4/linode/types "
		    "(https://techdocs.akamai.com/linode-api/reference/get-linode-types)",
	.conditional = 0,
	.start = start,
	.parse = parse,
};
