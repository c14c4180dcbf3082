/* gcp.c - Google Cloud: Cloud Billing Catalog API, Compute Engine SKUs.
 *
 * GET /v1/services/6F81-5844-456A/skus?pageSize=5000 (6F81-5844-456A is
 * Compute Engine) with the API key as the query parameter `key` (required;
 * the Cloud Billing API must be enabled on the key's project).  Pagination:
 * a non-empty `nextPageToken` in the body is sent back as `pageToken`.
 *
 * What is priced: the catalog prices a GPU separately from the machine it
 * is attached to (per GPU-hour, plus vCPU-hours and GiB-hours of the machine
 * type), and knows nothing of machine types.  So this adapter emits one
 * offer per GPU type and region FOR THE ACCELERATOR ALONE: sku = the Compute
 * Engine accelerator type ("nvidia-tesla-a100", "nvidia-h100-80gb"),
 * gpu_count 1, price_hr = the on-demand price of one GPU-hour, spot_price_hr
 * = the Spot (Preemptible) price; vCPUs, RAM and the host VM's cost are NOT
 * included (unknown), and availability is unknown.  The accelerator type is
 * built from the SKU description: "[Spot Preemptible ]Nvidia Tesla A100 GPU
 * running in Americas" -> "Nvidia Tesla A100" (gpu_name) -> lowercased,
 * spaces as '-' -> "nvidia-tesla-a100", with the spellings that differ from
 * the accelerator type mapped ("... A100 80GB" -> nvidia-a100-80gb,
 * "... H100 80GB Mega|Plus" -> nvidia-h100-mega-80gb, "RTX 6000 96GB" ->
 * nvidia-rtx-pro-6000), as gpuhunt's gcp.py does.
 *
 * A SKU counts when: the last resource word of its description is "GPU"
 * (not "Ram" or "Core", which price a machine's memory and vCPUs; gpuhunt
 * reads descriptions the same way); category.resourceGroup is not CPU or
 * RAM; category.usageType is "OnDemand" (price_hr) or "Preemptible"
 * (spot_price_hr) -- commitments (Commit1Yr, ...) are skipped; and the
 * description names none of: Sole Tenancy, Reserved, Premium, Custom,
 * suspended, DWS / Calendar Mode, Virtual Workstation (a licence add-on),
 * "gpu slice" (A4 per-GPU VM slices, a machine price), Commitment.
 * Price: pricingInfo[0].pricingExpression with usageUnit "h", the tier of
 * tieredRates starting at 0: unitPrice.units + nanos / 1e9 in
 * unitPrice.currencyCode.  Regions: serviceRegions[] (one offer each).  The
 * prices of all pages are joined per (accelerator type, region) in
 * run->state and emitted in finish().
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"

#define SKUS_PATH "/v1/services/6F81-5844-456A/skus?pageSize=5000"

struct gcp_entry {
	char *sku;      /* accelerator type */
	char *gpu_name; /* as the description writes it */
	char *region;
	char currency[8];
	double price, spot; /* in currency, NAN if none */
};

struct gcp_state {
	struct gcp_entry *items;
	size_t n, cap;
	char *last_token; /* the page token last followed */
};

static void free_state(void *p)
{
	struct gcp_state *s = p;
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->items[i].sku);
		free(s->items[i].gpu_name);
		free(s->items[i].region);
	}
	free(s->items);
	free(s->last_token);
	free(s);
}

/* Case-insensitive strstr. */
static const char *ci_find(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return hay;
	}
	return NULL;
}

static const char *const skip_words[] = {
	"Sole Tenancy", "Reserved", "Premium", "Custom", "suspended", "DWS",
	"Calendar Mode", "Virtual Workstation", "gpu slice", "Commitment", NULL,
};

/* Offset of the last word `w` in `s` (after a space, before a space or the
 * end), or -1. */
static long last_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	long best = -1;
	for (const char *p = s; (p = ci_find(p, w)) != NULL; p++)
		if (p > s && p[-1] == ' ' && (p[n] == ' ' || p[n] == '\0'))
			best = (long)(p - s);
	return best;
}

/* The GPU part of a description and its accelerator type; 0 if none.  The
 * description's last resource word decides what it prices ("... GPU
 * Instance Ram" is memory). */
static int accelerator(const char *desc, char *name, size_t nn, char *type, size_t tn)
{
	const char *d = desc;
	if (ci_find(d, "Spot Preemptible ") == d)
		d += strlen("Spot Preemptible ");
	long gpu = last_word(d, "GPU"), ram = last_word(d, "Ram"), core = last_word(d, "Core");
	if (ram > gpu || core > gpu)
		return 0;
	if (ci_find(d, "RTX 6000 96GB")) {
		snprintf(name, nn, "RTX PRO 6000");
		snprintf(type, tn, "nvidia-rtx-pro-6000");
		return 1;
	}
	if (gpu <= 0 || (size_t)gpu >= nn)
		return 0;
	const char *end = d + gpu - 1; /* the space before "GPU" */
	snprintf(name, nn, "%.*s", (int)(end - d), d);
	size_t j = 0;
	for (const char *p = name; *p && j + 1 < tn; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c))
			type[j++] = (char)tolower(c);
		else if (j && type[j - 1] != '-')
			type[j++] = '-';
	}
	while (j && type[j - 1] == '-')
		j--;
	type[j] = '\0';
	static const char *const renames[][2] = {
		{"nvidia-tesla-a100-80gb", "nvidia-a100-80gb"},
		{"nvidia-h100-80gb-mega", "nvidia-h100-mega-80gb"},
		{"nvidia-h100-80gb-plus", "nvidia-h100-mega-80gb"},
	};
	for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++)
		if (strcmp(type, renames[i][0]) == 0)
			snprintf(type, tn, "%s", renames[i][1]);
	return j > 0;
}

/* Price of one usage unit from pricingInfo[0]; NAN when unusable. */
static double unit_price(json_t *sku, const char **currency)
{
	json_t *info = json_array_get(json_object_get(sku, "pricingInfo"), 0);
	json_t *expr = json_object_get(info, "pricingExpression");
	const char *unit = aj_str(expr, "usageUnit");
	if (!json_is_object(expr) || (unit && strcmp(unit, "h") != 0))
		return NAN;
	json_t *rates = json_object_get(expr, "tieredRates");
	json_t *best = NULL, *r;
	size_t i;
	json_array_foreach(rates, i, r) {
		double start = aj_num(r, "startUsageAmount");
		if (isnan(start))
			start = 0; /* proto3 JSON leaves zero values out */
		if (start == 0) {
			best = r;
			break;
		}
	}
	json_t *up = json_object_get(best, "unitPrice");
	if (!json_is_object(up))
		return NAN;
	json_t *u = json_object_get(up, "units"), *n = json_object_get(up, "nanos");
	double units = u ? aj_num(up, "units") : 0;
	double nanos = n ? aj_num(up, "nanos") : 0;
	if (isnan(units) || isnan(nanos) || fabs(nanos) >= 1e9)
		return NAN;
	*currency = aj_str(up, "currencyCode");
	return units + nanos / 1e9;
}

static struct gcp_entry *entry(struct gcp_state *s, const char *sku, const char *region)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].sku, sku) == 0 && strcmp(s->items[i].region, region) == 0)
			return &s->items[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct gcp_entry *p = realloc(s->items, cap * sizeof *p);
		if (!p)
			return NULL;
		s->items = p;
		s->cap = cap;
	}
	struct gcp_entry *e = &s->items[s->n];
	memset(e, 0, sizeof *e);
	e->sku = strdup(sku);
	e->region = strdup(region);
	e->price = e->spot = NAN;
	if (!e->sku || !e->region) {
		free(e->sku);
		free(e->region);
		return NULL;
	}
	s->n++;
	return e;
}

static enum gc_status one_sku(struct adapter_run *run, json_t *sku, char **err)
{
	struct gcp_state *s = run->state;
	json_t *cat = json_object_get(sku, "category");
	const char *desc = aj_str(sku, "description");
	const char *usage = aj_str(cat, "usageType");
	const char *group = aj_str(cat, "resourceGroup");
	if (!desc || !usage)
		return GC_OK;
	int spot = strcmp(usage, "Preemptible") == 0;
	if (!spot && strcmp(usage, "OnDemand") != 0)
		return GC_OK;
	if (group && (strcmp(group, "CPU") == 0 || strcmp(group, "RAM") == 0))
		return GC_OK;
	for (size_t i = 0; skip_words[i]; i++)
		if (ci_find(desc, skip_words[i]))
			return GC_OK;
	char name[128], type[128];
	if (!accelerator(desc, name, sizeof name, type, sizeof type))
		return GC_OK;
	const char *currency = NULL;
	double price = unit_price(sku, &currency);
	if (isnan(price))
		return GC_OK;
	if (!currency || !*currency || strlen(currency) >= sizeof s->items[0].currency)
		currency = "USD";
	json_t *regions = json_object_get(sku, "serviceRegions");
	size_t i;
	json_t *r;
	json_array_foreach(regions, i, r) {
		const char *region = json_string_value(r);
		if (!region || !*region || strlen(region) > 64)
			continue;
		struct gcp_entry *e = entry(s, type, region);
		if (!e)
			return err_set(err, GC_ENOMEM, "out of memory");
		if (!e->gpu_name || (!spot && isnan(e->price))) {
			free(e->gpu_name);
			e->gpu_name = strdup(name);
			if (!e->gpu_name)
				return err_set(err, GC_ENOMEM, "out of memory");
		}
		if (!e->currency[0])
			snprintf(e->currency, sizeof e->currency, "%s", currency);
		else if (strcmp(e->currency, currency) != 0)
			continue; /* never mix currencies in one offer */
		double *slot = spot ? &e->spot : &e->price;
		if (isnan(*slot))
			*slot = price; /* the first SKU of a kind wins */
	}
	return GC_OK;
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, NULL, NULL, err, "%s" SKUS_PATH, run->base);
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	enum gc_status st = GC_OK;
	json_t *skus = json_object_get(root, "skus");
	struct gcp_state *s = run->state;
	if (!json_is_object(root)) {
		st = err_set(err, GC_EDATA, "expected a JSON object with 'skus'");
	} else if (json_is_object(json_object_get(root, "error"))) {
		const char *m = aj_str(json_object_get(root, "error"), "message");
		st = adapter_api_error(err, "API error", m ? m : "(no message)");
	} else if (skus && !json_is_array(skus)) {
		st = err_set(err, GC_EDATA, "'skus' is not a list");
	} else if (!s && !(s = run->state = calloc(1, sizeof *s))) {
		st = err_set(err, GC_ENOMEM, "out of memory");
	}
	if (st == GC_OK)
		st = adapter_each(run, skus, one_sku, err);
	const char *next = aj_str(root, "nextPageToken");
	if (st == GC_OK && next && *next) {
		char enc[4096];
		if (strlen(next) * 3 + 8 > sizeof enc)
			st = err_set(err, GC_EDATA, "nextPageToken is too long");
		else if (s->last_token && strcmp(s->last_token, next) == 0)
			st = err_set(err, GC_EDATA, "nextPageToken repeats: pagination does not end");
		if (st == GC_OK) {
			adapter_urlencode(enc, sizeof enc, next);
			free(s->last_token);
			s->last_token = strdup(next);
			st = s->last_token ? adapter_queue(run, req->kind, NULL, NULL, err,
							   "%s" SKUS_PATH "&pageToken=%s",
							   run->base, enc)
					   : err_set(err, GC_ENOMEM, "out of memory");
		}
	}
	json_decref(root);
	return st;
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	struct gcp_state *s = run->state;
	for (size_t i = 0; s && i < s->n; i++) {
		struct gcp_entry *e = &s->items[i];
		struct offer o;
		offer_init(&o);
		o.sku = e->sku;
		o.gpu_name = e->gpu_name;
		o.region = e->region;
		o.gpu_count = 1;
		/* the accelerator type is the spelling gpus.yaml lists for GCP */
		const struct gpu_model *m =
			run->gpus ? gpu_normalize(run->gpus, e->sku, 0, e->sku) : NULL;
		if (m) {
			o.gpu = m->id;
			o.gpu_mem_gb = m->memory_gb;
		}
		adapter_set_prices(&o, e->currency, e->price, e->spot);
		enum gc_status st = adapter_emit(run, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

const struct adapter adapter_gcp = {
	.id = "gcp",
	.base_url = "https://cloudbilling.googleapis.com",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_QUERY,
	.key_name = "key",
	.endpoint = "GET /v1/services/6F81-5844-456A/skus, per-GPU-hour accelerator prices "
		    "(https://cloud.google.com/billing/docs/reference/rest/v1/services.skus/list)",
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = free_state,
};
