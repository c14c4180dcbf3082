/* azure.c - Azure Retail Prices API: GPU virtual machine meters.
 *
 * https://learn.microsoft.com/en-us/rest/api/cost-management/retail-prices/azure-retail-prices
 * GET /api/retail/prices?api-version=2023-01-01-preview&$filter=...  No key.
 * The filter keeps pay-as-you-go meters of N-series VM sizes (every GPU
 * family is NC / ND / NG / NV) and drops Windows and Low Priority ones
 * server-side; the same rules are applied again to each row.  The answer is
 * {BillingCurrency, Items[], NextPageLink, Count}; NextPageLink (absolute,
 * on the API host) is followed until it is empty.
 *
 * A row: `armSkuName` (the VM size), `armRegionName`, `retailPrice` per
 * `unitOfMeasure` ("1 Hour"), `currencyCode`, `type` ("Consumption"),
 * `skuName` / `meterName` ("NC24ads A100 v4 Spot" for spot), `productName`
 * ("... Windows" for Windows licences), `isPrimaryMeterRegion`.  The API
 * knows nothing of GPUs: the GPU model and count come from
 * data/instance-types.yaml by VM size, and sizes that table does not count
 * are dropped by adapter_emit.  The on-demand and spot rows of a size and
 * region become one offer (price_hr, spot_price_hr), joined in finish();
 * where a meter appears twice, a primary-region row wins over a secondary
 * one, else the first row read.  vCPUs, memory and stock are not in the API.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/adapter.h"

#define FILTER                                                                                 \
	"serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and "                 \
	"contains(armSkuName, 'Standard_N') and contains(productName, 'Windows') eq false and " \
	"contains(meterName, 'Low Priority') eq false"

struct row {
	char *sku, *region, *currency;
	double price;
	int spot, primary;
	size_t seq; /* order read, for a stable choice */
};

struct state {
	struct row *rows;
	size_t n, cap;
};

static void free_state(void *p)
{
	struct state *s = p;
	for (size_t i = 0; i < s->n; i++) {
		free(s->rows[i].sku);
		free(s->rows[i].region);
		free(s->rows[i].currency);
	}
	free(s->rows);
	free(s);
}

static int url_host(const char *url, const char **host, size_t *len)
{
	const char *p = strstr(url, "://");
	if (!p)
		return -1;
	*host = p + 3;
	*len = strcspn(*host, ":/?#");
	return 0;
}

/* Queue a next-page link.  The API answers with absolute links on its own
 * host ("https://prices.azure.com:443/api/retail/prices?...&$skip=1000");
 * they are re-rooted on run->base, so an overridden base URL (a proxy, the
 * test server) also serves the later pages.  A link to any other host is
 * refused.  Bytes a URL may not hold raw (spaces in an OData filter,
 * controls) are percent-encoded.  A link back to the page just read ends
 * the crawl instead of looping. */
static enum gc_status follow_next(struct adapter_run *run, const struct adapter_request *req,
				  const char *next, char **err)
{
	if (!next || !*next)
		return GC_OK;
	const char *rest = next;
	const char *h1, *h2;
	size_t n1, n2;
	if (url_host(next, &h1, &n1) == 0) {
		int same = url_host(run->ad->base_url, &h2, &n2) == 0 && n1 == n2 &&
			   strncasecmp(h1, h2, n1) == 0;
		if (!same && url_host(run->base, &h2, &n2) == 0 && n1 == n2 &&
		    strncasecmp(h1, h2, n1) == 0)
			same = 1;
		if (!same)
			return err_set(err, GC_EDATA, "next-page link to another host refused: %.100s",
				       next);
		rest = h1 + n1;
		rest += strcspn(rest, "/?#");
	} else if (next[0] != '/') {
		return adapter_follow(run, req->kind, next, err);
	}
	char url[8192];
	size_t j = (size_t)snprintf(url, sizeof url, "%s%s", run->base, rest[0] == '/' ? "" : "/");
	if (j >= sizeof url)
		return err_set(err, GC_EDATA, "next-page link too long");
	for (const unsigned char *s = (const unsigned char *)rest; *s; s++) {
		if (j + 4 >= sizeof url)
			return err_set(err, GC_EDATA, "next-page link too long");
		if (*s <= ' ' || *s >= 0x7f || *s == '"' || *s == '<' || *s == '>' || *s == '\\' ||
		    *s == '^' || *s == '`' || *s == '{' || *s == '|' || *s == '}')
			j += (size_t)snprintf(url + j, 4, "%%%02X", *s);
		else
			url[j++] = (char)*s;
	}
	url[j] = '\0';
	if (req->url && strcmp(url, req->url) == 0)
		return GC_OK;
	return adapter_queue(run, req->kind, NULL, NULL, err, "%s", url);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	char filter[1024];
	adapter_urlencode(filter, sizeof filter, FILTER);
	return adapter_queue(run, 0, NULL, NULL, err,
			     "%s/api/retail/prices?api-version=2023-01-01-preview&$filter=%s",
			     run->base, filter);
}

static int has(const char *s, const char *word)
{
	return s && strstr(s, word) != NULL;
}

/* Keep one row of the answer, or skip it. */
static enum gc_status one_item(struct state *s, json_t *it, char **err)
{
	const char *sku = aj_str(it, "armSkuName");
	const char *region = aj_str(it, "armRegionName");
	const char *type = aj_str(it, "type");
	const char *unit = aj_str(it, "unitOfMeasure");
	const char *product = aj_str(it, "productName");
	const char *meter = aj_str(it, "meterName"), *skuname = aj_str(it, "skuName");
	const char *cur = aj_str(it, "currencyCode");
	double price = aj_num(it, "retailPrice");
	if (isnan(price))
		price = aj_num(it, "unitPrice");
	if (!json_is_object(it) || !sku || !*sku || !region || !*region)
		return GC_OK;
	if ((type && strcmp(type, "Consumption") != 0) || (unit && strcmp(unit, "1 Hour") != 0) ||
	    has(product, "Windows") || has(meter, "Low Priority") || has(skuname, "Low Priority"))
		return GC_OK;
	if (!(price >= 0) || isinf(price))
		return GC_OK;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct row *r = realloc(s->rows, cap * sizeof *r);
		if (!r)
			return err_set(err, GC_ENOMEM, "out of memory");
		s->rows = r;
		s->cap = cap;
	}
	struct row *r = &s->rows[s->n];
	memset(r, 0, sizeof *r);
	r->sku = strdup(sku);
	r->region = strdup(region);
	r->currency = strdup(cur && *cur ? cur : "USD");
	if (!r->sku || !r->region || !r->currency) {
		free(r->sku);
		free(r->region);
		free(r->currency);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	r->price = price;
	r->spot = has(skuname, "Spot") || has(meter, "Spot");
	r->primary = !json_is_false(json_object_get(it, "isPrimaryMeterRegion"));
	r->seq = s->n++;
	return GC_OK;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	if (!run->state && !(run->state = calloc(1, sizeof(struct state))))
		return err_set(err, GC_ENOMEM, "out of memory");
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	json_t *items = json_object_get(root, "Items");
	enum gc_status st = GC_OK;
	if (!json_is_array(items)) {
		json_t *e = json_object_get(root, "Error");
		const char *msg = aj_str(e, "Message");
		st = msg ? err_set(err, GC_EDATA, "API error: %.200s", msg)
			 : err_set(err, GC_EDATA, "no 'Items' array in the response");
	}
	size_t i;
	json_t *it;
	json_array_foreach(items, i, it) {
		if (st != GC_OK)
			break;
		st = one_item(run->state, it, err);
	}
	/* an empty page ends the crawl even if a link is given (gpuhunt's rule) */
	if (st == GC_OK && json_array_size(items) > 0) {
		json_t *next = json_object_get(root, "NextPageLink");
		if (json_is_string(next))
			st = follow_next(run, req, json_string_value(next), err);
	}
	json_decref(root);
	return st;
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->sku, y->sku);
	if (!c)
		c = strcmp(x->region, y->region);
	if (!c)
		c = (x->seq > y->seq) - (x->seq < y->seq);
	return c;
}

/* The row to use among a meter's duplicates: a primary one, else the first. */
static const struct row *pick(const struct row *cur, const struct row *r)
{
	if (!cur || (r->primary && !cur->primary))
		return r;
	return cur;
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	struct state *s = run->state;
	if (!s || s->n == 0)
		return GC_OK;
	qsort(s->rows, s->n, sizeof *s->rows, row_cmp);
	enum gc_status st = GC_OK;
	for (size_t i = 0; i < s->n && st == GC_OK;) {
		size_t j = i;
		const struct row *od = NULL, *spot = NULL;
		while (j < s->n && strcmp(s->rows[j].sku, s->rows[i].sku) == 0 &&
		       strcmp(s->rows[j].region, s->rows[i].region) == 0) {
			if (s->rows[j].spot)
				spot = pick(spot, &s->rows[j]);
			else
				od = pick(od, &s->rows[j]);
			j++;
		}
		const struct row *first = od ? od : spot;
		struct offer o;
		offer_init(&o);
		o.sku = first->sku;
		o.region = first->region;
		const struct insttype *it = insttype_lookup(run->types, run->ad->id, o.sku);
		o.gpu_name = it && it->gpu ? it->gpu : NULL;
		/* set here, not left to adapter_emit, so that a partition's memory
		 * is scaled by its fraction */
		o.gpu_count = it && it->gpu_count > 0 ? it->gpu_count : NAN;
		double p = od ? od->price : NAN;
		/* a spot row in another currency than the on-demand one is not comparable */
		double sp = spot && strcmp(spot->currency, first->currency) == 0 ? spot->price : NAN;
		if (strcmp(first->currency, "USD") == 0) {
			o.price_hr = p;
			o.spot_price_hr = sp;
		} else {
			o.currency = first->currency;
			o.price_native = p;
			o.spot_native = sp;
		}
		st = adapter_emit(run, &o, err);
		i = j;
	}
	return st;
}

const struct adapter adapter_azure = {
	.id = "azure",
	.base_url = "https://prices.azure.com",
	.auth = ADAPTER_AUTH_NONE,
	.key_style = ADAPTER_KEY_BEARER,
	.endpoint = "GET /api/retail/prices, GPU VM sizes "
		    "(https://learn.microsoft.com/en-us/rest/api/cost-management/retail-prices/"
		    "azure-retail-prices)",
	.conditional = 0,
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = free_state,
};
