/* azure.c - Azure Retail Prices API: GPU virtual machine meters.
 *
 * https://learn.microsoft.com/en-us/rest/api/cost-management/retail-prices/azure-retail-prices
 * GET /api/retail/prices?api-version=2023-01-01-preview&$filter=...  No key.
 * The filter keeps pay-as-you-go meters of N-series VM sizes (every GPU
 * family is NC / ND / NG / NV) and drops Windows, Dedicated Host, Cloud
 * Services and Low Priority ones server-side; the same rules, and more,
 * are applied again to each row.  The answer is {BillingCurrency, Items[],
 * NextPageLink, Count}; NextPageLink (absolute, on the API host) is
 * followed until it is empty.
 *
 * A row: `armSkuName` (the VM size), `armRegionName`, `retailPrice` per
 * `unitOfMeasure` ("1 Hour"), `currencyCode`, `type` ("Consumption"),
 * `skuName` / `meterName` ("NC24ads A100 v4 Spot" for spot), `productName`,
 * `effectiveStartDate`, `isPrimaryMeterRegion`.  A row is a Linux
 * pay-as-you-go price only when its productName names no Windows licence
 * ("... Windows", and the short "... Srs Win": "Virtual Machines NCCadsv5
 * Srs Win" is 8.82 where the Linux meter is 6.98, and the OData filter's
 * contains(productName, 'Windows') misses it), no Cloud Services and no
 * Dedicated Host, and no name says Low Priority.  A "Spot" meter is the
 * size's spot price, never a second on-demand row.  The API knows nothing
 * of GPUs: the GPU model and count come from data/instance-types.yaml by
 * VM size, and sizes that table does not count are dropped by
 * adapter_emit.  The on-demand and spot rows of a size and region become
 * one offer (price_hr, spot_price_hr), joined in finish().
 *
 * Two Linux rows left for one (size, region, on-demand or spot): the
 * choice must not depend on the order the pages list them, so it is, in
 * turn, (1) a primary meter region over a secondary one, (2) the later
 * effectiveStartDate (the newer price), (3) the higher price (never
 * understate what a size costs), else the first read (the rows are then
 * equal in price).  docs/REFRESH.md says the same.  vCPUs, memory and
 * stock are not in the API.
 *
 * Reservations: a second request, the same filter with priceType eq
 * 'Reservation', lists each size's reservation meters: `type`
 * "Reservation", `reservationTerm` "1 Year" or "3 Years", and a
 * `retailPrice` / `unitPrice` that is the price of the whole term although
 * `unitOfMeasure` still says "1 Hour" (a recorded Standard_M8ms eastus
 * answer: 7740 for 1 year, 11297 for 3, where the size costs dollars per
 * hour; tests/fixtures/http/azure/README.md).  Each becomes a committed
 * price of the size's offer (offer_commit "reserved", 12 or 36 months),
 * the total spread over the term's hours (offer_term_hourly: 730 a
 * month); the door refuses one at or above the on-demand price.  The same
 * choice of two rows as above; a term in another currency than USD, or
 * another term, is left out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"

#define FILTER_OF(type)                                                                        \
	"serviceName eq 'Virtual Machines' and priceType eq '" type "' and "                    \
	"contains(armSkuName, 'Standard_N') and contains(productName, 'Windows') eq false and " \
	"contains(productName, 'Dedicated') eq false and "                                      \
	"contains(productName, 'Cloud Services') eq false and "                                 \
	"contains(meterName, 'Low Priority') eq false"
#define FILTER FILTER_OF("Consumption")
#define RESERVATION_FILTER FILTER_OF("Reservation")
#define PRICES "/api/retail/prices?api-version=2023-01-01-preview&$filter=%s"

struct row {
	char *sku, *region, *currency;
	double price;
	char start[32]; /* effectiveStartDate, ISO 8601: compares as text */
	int spot, primary;
	int term; /* a reservation's term in months; 0: pay as you go */
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

static enum gc_status start(struct adapter_run *run, char **err)
{
	char filter[1024];
	adapter_urlencode(filter, sizeof filter, FILTER);
	enum gc_status st = adapter_queue(run, 0, NULL, NULL, err, "%s" PRICES, run->base, filter);
	adapter_urlencode(filter, sizeof filter, RESERVATION_FILTER);
	if (st == GC_OK)
		st = adapter_queue(run, 0, NULL, NULL, err, "%s" PRICES, run->base, filter);
	return st;
}

/* A reservation row's term in months (12, 36), 0 for a pay-as-you-go
 * row, -1 for a row that is neither. */
static int term_of(const char *type, const char *term)
{
	if (!type || strcmp(type, "Consumption") == 0)
		return 0;
	if (strcmp(type, "Reservation") != 0 || !term)
		return -1;
	if (strcmp(term, "1 Year") == 0)
		return 12;
	if (strcmp(term, "3 Years") == 0)
		return 36;
	return -1;
}

static int has(const char *s, const char *word)
{
	return s && strstr(s, word) != NULL;
}

/* `word` in `s` as a whole word ("Srs Win", not "Wind"). */
static int has_word(const char *s, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = s; p && (p = strstr(p, word)) != NULL; p++) {
		int before = p == s || p[-1] == ' ' || p[-1] == '(' || p[-1] == '-';
		int after = p[n] == '\0' || p[n] == ' ' || p[n] == ')' || p[n] == '-';
		if (before && after)
			return 1;
	}
	return 0;
}

/* A row that is not a Linux pay-as-you-go VM meter. */
static int not_linux_payg(const char *product, const char *meter, const char *skuname)
{
	return has(product, "Windows") || has_word(product, "Win") ||
	       has(product, "Cloud Services") || has(product, "Dedicated") ||
	       has(meter, "Dedicated") || has(meter, "Low Priority") ||
	       has(skuname, "Low Priority");
}

/* Keep one row of the answer, or skip it. */
static enum gc_status one_item(struct adapter_run *run, json_t *it, char **err)
{
	struct state *s = run->state;
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
	int term = term_of(type, aj_str(it, "reservationTerm"));
	if (term < 0 || (unit && strcmp(unit, "1 Hour") != 0) ||
	    not_linux_payg(product, meter, skuname))
		return GC_OK;
	if (!(price >= 0) || isinf(price))
		return GC_OK;
	if (buf_grow_array(&s->rows, &s->cap, s->n, sizeof *s->rows, 256))
		return err_set(err, GC_ENOMEM, "out of memory");
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
	const char *start = aj_str(it, "effectiveStartDate");
	snprintf(r->start, sizeof r->start, "%s", start ? start : "");
	r->term = term;
	r->spot = !term && (has(skuname, "Spot") || has(meter, "Spot"));
	r->primary = !json_is_false(json_object_get(it, "isPrimaryMeterRegion"));
	r->seq = s->n++;
	return GC_OK;
}

/* {"Items": [...], "NextPageLink": URL} or {"Error": {"Message": ...}}; an
 * empty page ends the crawl even if a link is given (gpuhunt's rule) */
static const struct adapter_list items = {
	.path = "Items",
	.type = JSON_ARRAY,
	.each = one_item,
	.error = "Error.Message",
	.pager = {.style = ADAPTER_PAGE_LINK, .next = "NextPageLink"},
	.stop_empty = 1,
};

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	if (!run->state && !(run->state = calloc(1, sizeof(struct state))))
		return err_set(err, GC_ENOMEM, "out of memory");
	return adapter_parse_page(run, req, body, len, &items, err);
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

/* The row to use of two for one size, region and kind, whatever the order
 * read: a primary meter region, then the later effectiveStartDate, then the
 * higher price (see the comment at the top). */
static const struct row *pick(const struct row *cur, const struct row *r)
{
	if (!cur)
		return r;
	if (r->primary != cur->primary)
		return r->primary ? r : cur;
	int c = strcmp(r->start, cur->start);
	if (c)
		return c > 0 ? r : cur;
	return r->price > cur->price ? r : cur;
}

/* The rows of one size and region: on-demand, spot, 1- and 3-year terms. */
struct picked {
	const struct row *od, *spot, *term[2];
};

/* A committed price for each term picked, in USD (see the top). */
static size_t commits_of(const struct picked *p, struct offer_commit *c)
{
	size_t n = 0;
	for (int k = 0; k < 2; k++) {
		const struct row *r = p->term[k];
		if (!r || strcmp(r->currency, "USD") != 0)
			continue;
		c[n] = (struct offer_commit){"reserved", r->term,
					     offer_term_hourly(r->price, r->term), NULL, NULL};
		n++;
	}
	return n;
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
		struct picked pk = {NULL, NULL, {NULL, NULL}};
		while (j < s->n && strcmp(s->rows[j].sku, s->rows[i].sku) == 0 &&
		       strcmp(s->rows[j].region, s->rows[i].region) == 0) {
			const struct row *r = &s->rows[j++];
			if (r->term)
				pk.term[r->term == 36] = pick(pk.term[r->term == 36], r);
			else if (r->spot)
				pk.spot = pick(pk.spot, r);
			else
				pk.od = pick(pk.od, r);
		}
		const struct row *od = pk.od, *spot = pk.spot;
		const struct row *first = od ? od : spot;
		i = j;
		if (!first)
			continue; /* reservations alone: nothing to rent by the hour */
		struct offer_commit commits[2];
		struct offer o;
		offer_init(&o);
		o.sku = first->sku;
		o.region = first->region;
		/* GPU model and count (a partition's fraction too) come from
		 * data/instance-types.yaml, through adapter_emit */
		double p = od ? od->price : NAN;
		/* a spot row in another currency than the on-demand one is not comparable */
		double sp = spot && strcmp(spot->currency, first->currency) == 0 ? spot->price
										 : NAN;
		adapter_set_prices(&o, first->currency, p, sp);
		o.commits = commits;
		o.ncommits = commits_of(&pk, commits);
		st = adapter_emit(run, &o, err);
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
