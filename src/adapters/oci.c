/* oci.c - Oracle Cloud (OCI): the public Cost Estimator data, no key.
 *
 * GET https://www.oracle.com/a/ocom/docs/cloudestimator2/data/shapes.json
 * and .../products.json (the data behind Oracle's Cost Estimator page; what
 * gpuhunt's oci.py reads).  This pair is used rather than the price list API
 * (apex.oracle.com/pls/apex/cetools/api/v1/products/) because only the
 * shapes file says which shape has how many GPUs, OCPUs and how much
 * memory; the price list alone has per-part prices without shapes.  Two
 * documents, no pagination; both are kept in run->state and joined in
 * finish().
 *
 * shapes.json: {"items": [{name ("BM.GPU.H100.8"; some carry a display
 * suffix, "BM.GPU.GB200.4 (NVL72)", which is dropped), hidden, status,
 * allowPreemptible, bundleMemoryQty, gpuQty, gpuMemoryQty (total, but per
 * GPU for some shapes), processorType.value, products: [{partNumber, qty,
 * type.value: ocpu | memory | ...}]}]}.
 * products.json: {"items": [{partNumber, billingModel ("UCM"), pricetype
 * ("HOUR"), currencyCodeLocalizations: [{currencyCode, prices: [{model
 * ("PAY_AS_YOU_GO"), value}]}]}]}.
 *
 * One offer per active, visible shape with gpuQty > 0: sku = shape name;
 * gpu_count = gpuQty; gpu_name from the name ("BM.GPU.H100.8" -> "H100",
 * GPU2/GPU3/GPU4 -> P100/V100/A100, "A100-v2" -> "A100", "RTXPRO" ->
 * "RTX PRO 6000"); gpu_mem_gb = gpuMemoryQty / gpuQty, or gpuMemoryQty when
 * that is the per-GPU figure (closer to the model's memory); price_hr = the
 * USD pay-as-you-go hourly price of the shape's parts: for a GPU shape the
 * "ocpu" part is priced per GPU (x gpuQty; its qty is the OCPU count),
 * "memory" parts per GB (x qty); a part of another type, a missing part or
 * a non-hourly price leaves the shape out.  vcpus = 2 x OCPUs (x86) or the
 * OCPUs on Arm: processorType "arm" (except the GPU4, A10 and A100 shapes,
 * x86 machines the data mislabels) and the Grace GB200/GB300 shapes.
 * ram_gb = bundleMemoryQty or the memory part's qty.  spot_price_hr = half
 * of price_hr when allowPreemptible ("Preemptible capacity costs 50% less
 * than on-demand",
 * docs.oracle.com/en-us/iaas/Content/Compute/Concepts/preemptible.htm) --
 * computed, not reported.  List prices are the same in every commercial
 * region and neither file names regions: region "unknown", availability
 * unknown.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/adapter.h"

enum { OCI_SHAPES, OCI_PRODUCTS };

#define DATA_PATH "/a/ocom/docs/cloudestimator2/data/"

static enum gc_status start(struct adapter_run *run, char **err)
{
	enum gc_status st = adapter_queue(run, OCI_SHAPES, NULL, NULL, err,
					  "%s" DATA_PATH "shapes.json", run->base);
	if (st == GC_OK)
		st = adapter_queue(run, OCI_PRODUCTS, NULL, NULL, err,
				   "%s" DATA_PATH "products.json", run->base);
	return st;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	/* one page each; the "items" arrays are kept for finish() */
	static const struct adapter_list items = {.path = "items", .type = JSON_ARRAY};
	return adapter_parse_page(run, req, body, len, &items, err);
}

/* USD pay-as-you-go price per hour of one part; NAN if unknown. */
static double part_price(json_t *products, const char *part)
{
	size_t i;
	json_t *p;
	json_array_foreach(products, i, p) {
		const char *pn = aj_str(p, "partNumber");
		if (!pn || strcmp(pn, part) != 0)
			continue;
		const char *type = aj_str(p, "pricetype");
		const char *model = aj_str(p, "billingModel");
		if (!type || strcmp(type, "HOUR") != 0 || (model && strcmp(model, "UCM") != 0))
			return NAN;
		size_t j, k;
		json_t *l, *pr;
		json_array_foreach(json_object_get(p, "currencyCodeLocalizations"), j, l) {
			const char *cur = aj_str(l, "currencyCode");
			if (!cur || strcmp(cur, "USD") != 0)
				continue;
			json_array_foreach(json_object_get(l, "prices"), k, pr) {
				const char *m = aj_str(pr, "model");
				if (m && strcmp(m, "PAY_AS_YOU_GO") == 0)
					return aj_num(pr, "value");
			}
		}
		return NAN;
	}
	return NAN;
}

/* "BM.GPU.H100.8" -> "H100"; "" when the name does not say. */
static void gpu_from_shape(const char *shape, char *out, size_t n)
{
	static const char *const old[][2] = {
		{"GPU2", "P100"}, {"GPU3", "V100"}, {"GPU4", "A100"},
	};
	out[0] = '\0';
	const char *p = shape;
	while (p && *p) {
		size_t len = strcspn(p, ".");
		for (size_t i = 0; i < sizeof old / sizeof old[0]; i++)
			if (len == 4 && strncmp(p, old[i][0], 4) == 0) {
				snprintf(out, n, "%s", old[i][1]);
				return;
			}
		if (len == 3 && strncmp(p, "GPU", 3) == 0 && p[3] == '.') {
			const char *m = p + 4;
			size_t mlen = strcspn(m, ".-");
			if (mlen == 0 || strspn(m, "0123456789") >= mlen)
				return;
			if (mlen == 6 && strncmp(m, "RTXPRO", 6) == 0)
				snprintf(out, n, "RTX PRO 6000");
			else
				snprintf(out, n, "%.*s", (int)(mlen < n ? mlen : n - 1), m);
			return;
		}
		p = p[len] ? p + len + 1 : NULL;
	}
}

static int is_arm(const char *shape, const char *proc)
{
	if (strstr(shape, "GB200") || strstr(shape, "GB300") || strstr(shape, "GH200"))
		return 1; /* Grace */
	return proc && strcmp(proc, "arm") == 0 && !strstr(shape, "GPU4") &&
	       !strstr(shape, "GPU.A10"); /* A10 and A100 shapes */
}

static enum gc_status one_shape(struct adapter_run *run, json_t *sh, char **err)
{
	json_t *products = adapter_kept(run, OCI_PRODUCTS);
	const char *full = aj_str(sh, "name");
	const char *status = aj_str(sh, "status");
	double gpus = aj_num(sh, "gpuQty");
	if (!json_is_object(sh) || !full || json_is_true(json_object_get(sh, "hidden")) ||
	    (status && strcmp(status, "ACTIVE") != 0) || !(gpus > 0 && gpus <= 1024))
		return GC_OK;
	char shape[128];
	size_t len = strcspn(full, " ");
	if (len == 0 || len >= sizeof shape)
		return GC_OK;
	snprintf(shape, sizeof shape, "%.*s", (int)len, full);

	double price = 0, ocpus = NAN, ram = aj_num(sh, "bundleMemoryQty");
	size_t nocpu = 0, i;
	json_t *parts = json_object_get(sh, "products"), *p;
	if (json_array_size(parts) == 0)
		return GC_OK;
	json_array_foreach(parts, i, p) {
		const char *pn = aj_str(p, "partNumber");
		const char *type = aj_str(json_object_get(p, "type"), "value");
		double qty = aj_num(p, "qty");
		double unit = pn ? part_price(products, pn) : NAN;
		if (!type || isnan(unit))
			return GC_OK;
		if (strcmp(type, "ocpu") == 0 && nocpu++ == 0) {
			ocpus = qty;
			price += unit * gpus;
		} else if (strcmp(type, "memory") == 0 && qty >= 0) {
			ram = qty;
			price += unit * qty;
		} else {
			return GC_OK; /* a part we cannot price */
		}
	}

	char name[64];
	gpu_from_shape(shape, name, sizeof name);
	double total = aj_num(sh, "gpuMemoryQty");
	double per = total > 0 ? total / gpus : NAN;
	const struct gpu_model *m = NULL;
	if (run->gpus && *name)
		m = gpu_normalize(run->gpus, name, isnan(per) ? 0 : per, shape);
	if (m && fabs(total - m->memory_gb) < fabs(per - m->memory_gb))
		per = total; /* the file gives this shape's memory per GPU */

	struct offer o;
	offer_init(&o);
	o.sku = shape;
	o.gpu_name = *name ? name : shape;
	o.gpu_count = gpus;
	o.gpu_mem_gb = per;
	if (ocpus > 0)
		o.vcpus = is_arm(shape, aj_str(json_object_get(sh, "processorType"), "value"))
				  ? ocpus
				  : 2 * ocpus;
	o.ram_gb = ram > 0 ? ram : NAN;
	o.price_hr = price;
	if (json_is_true(json_object_get(sh, "allowPreemptible")))
		o.spot_price_hr = price / 2;
	return adapter_emit(run, &o, err);
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	if (!adapter_kept(run, OCI_PRODUCTS))
		return GC_OK; /* prices need both documents */
	return adapter_each_kept(run, OCI_SHAPES, one_shape, err);
}

const struct adapter adapter_oci = {
	.id = "oci",
	.base_url = "https://www.oracle.com",
	.auth = ADAPTER_AUTH_NONE,
	.key_style = ADAPTER_KEY_BEARER,
	.endpoint = "GET /a/ocom/docs/cloudestimator2/data/{shapes,products}.json, the Cost "
		    "Estimator data (https://www.oracle.com/cloud/costestimator.html)",
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = adapter_kept_free,
};
