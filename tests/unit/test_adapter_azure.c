/* test_adapter_azure.c - the Azure Retail Prices adapter: GPU VM meters,
 * on-demand and spot joined per size and region, GPUs from the shipped
 * instance-type table. */
#include <math.h>

#include "gpucmp/catalog.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/rates.h"
#include "gpucmp/refresh.h"
#include "testutil.h"

extern const struct adapter adapter_azure;
#define AD adapter_azure
#define FIX "tests/fixtures/http/azure"

static struct catalog cat;
static double eur_usd;

static int setup(void **state)
{
	(void)state;
	struct rate_table rates;
	char *err = NULL;
	if (rates_load_embedded(&rates, &err) != GC_OK)
		return -1;
	eur_usd = rates_usd(&rates, "EUR");
	rates_free(&rates);
	return isnan(eur_usd) ? -1 : load_embedded_catalog(&cat);
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

static const struct offer *find(const struct offer_store *s, const char *sku, const char *region)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].sku, sku) == 0 &&
		    (!region || strcmp(s->items[i].region, region) == 0))
			return &s->items[i];
	return NULL;
}

/* The file the routes file (tests/fixtures/http/<id>.routes) serves for a
 * GET of `target`, matched as gpucmp-fixtured does: the first route whose
 * path is equal and whose query, when it has one, is equal too.  Caller
 * frees; NULL when no route matches. */
static char *route_file(const char *routes, const char *target)
{
	const char *q = strchr(target, '?');
	size_t plen = q ? (size_t)(q - target) : strlen(target);
	char line[2048];
	for (const char *p = routes; *p;) {
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		char *save, *method = strtok_r(line, " \t", &save);
		char *path = method ? strtok_r(NULL, " \t", &save) : NULL;
		if (!path || method[0] == '#' || strcmp(method, "GET") != 0)
			continue;
		char *rq = strchr(path, '?');
		if (rq)
			*rq++ = '\0';
		if (strlen(path) != plen || strncmp(path, target, plen) != 0 ||
		    (rq && strcmp(rq, q ? q + 1 : "") != 0))
			continue;
		for (char *opt; (opt = strtok_r(NULL, " \t", &save)) && opt[0] != '#';)
			if (strncmp(opt, "file=", 5) == 0)
				return strdup(opt + 5);
		return NULL;
	}
	return NULL;
}

/* Run the adapter's whole plan in process, each request answered from the
 * routes file; the base URL is a stand-in, like GPUCMP_<ID>_BASE_URL. */
static enum gc_status replay(struct offer_store *s, size_t *nreq, char **err)
{
	static const char base[] = "http://fixture.test";
	static char origin[1024];
	size_t rlen;
	char *routes = read_source_file(FIX ".routes", &rlen);
	struct rate_table rates;
	assert_int_equal(rates_load_embedded(&rates, err), GC_OK);
	struct adapter_run run;
	adapter_run_init(&run, &AD, base, NULL);
	run.gpus = cat.gpus;
	run.types = cat.types;
	run.rates = &rates;
	run.fetched_at = "2026-01-01T00:00:00Z";
	run.emit = offer_store_cb;
	run.emit_ctx = s;
	*nreq = 0;
	enum gc_status st = AD.start(&run, err);
	struct adapter_request *r;
	while (st == GC_OK && (r = adapter_next(&run))) {
		(*nreq)++;
		assert_int_equal(strncmp(r->url, base, strlen(base)), 0);
		char *file = route_file(routes, r->url + strlen(base));
		if (!file)
			fail_msg("no route for %s", r->url);
		char rel[512];
		snprintf(rel, sizeof rel, FIX "/%s", file);
		size_t len;
		char *body = read_source_file(rel, &len);
		snprintf(origin, sizeof origin, "%s", r->url);
		run.origin = origin;
		st = AD.parse(&run, r, body, len, err);
		free(body);
		free(file);
		adapter_request_release(r);
		free(r);
	}
	if (st == GC_OK && AD.finish)
		st = AD.finish(&run, err);
	adapter_run_release(&run);
	rates_free(&rates);
	free(routes);
	return st;
}

static enum gc_status parse_str(const char *body, struct offer_store *s, size_t *queued,
				char **err)
{
	return refresh_parse_one(&AD, &cat, 0, body, strlen(body), offer_store_cb, s, queued, err);
}

/* One item in the documented shape, for the tests below. */
static void item(char *out, size_t n, const char *sku, const char *meter, const char *product,
		 const char *price, const char *cur)
{
	snprintf(out, n,
		 "{\"currencyCode\":\"%s\",\"retailPrice\":%s,\"unitPrice\":%s,"
		 "\"armRegionName\":\"eastus\",\"location\":\"US East\",\"meterName\":\"%s\","
		 "\"productName\":\"%s\",\"skuName\":\"%s\",\"serviceName\":\"Virtual Machines\","
		 "\"unitOfMeasure\":\"1 Hour\",\"type\":\"Consumption\","
		 "\"isPrimaryMeterRegion\":true,\"armSkuName\":\"%s\"}",
		 cur, price, price, meter, product, meter, sku);
}

/* Page 1: the A100 size's on-demand and spot meters make one offer; the
 * Windows, Low Priority, DevTest and reservation meters are dropped; the
 * next page is queued. */
static void test_first_page(void **state)
{
	(void)state;
	size_t len, queued = 0;
	char *body = read_source_file(FIX "/prices.json", &len);
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(refresh_parse_one(&AD, &cat, 0, body, len, offer_store_cb, &s, &queued,
					   &err),
			 GC_OK);
	assert_int_equal(queued, 1);
	assert_int_equal(s.n, 1);
	const struct offer *o = find(&s, "Standard_NC24ads_A100_v4", "eastus");
	assert_non_null(o);
	assert_string_equal(o->provider, "azure");
	assert_string_equal(o->source, "live");
	assert_string_equal(o->gpu, "a100-pcie-80gb");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 80, 1e-9);
	assert_float_equal(o->price_hr, 3.673, 1e-12);
	assert_float_equal(o->spot_price_hr, 0.7346, 1e-12);
	assert_string_equal(o->currency, "USD");
	assert_int_equal(o->infiniband, 0);
	assert_int_equal(o->available, -1);
	assert_true(isnan(o->vcpus) && isnan(o->ram_gb));
	offer_store_free(&s);
	free(body);
}

/* The whole plan: page 2 through the re-rooted NextPageLink. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	offer_store_init(&s);
	size_t nreq = 0;
	char *err = NULL;
	assert_int_equal(replay(&s, &nreq, &err), GC_OK);
	assert_int_equal(nreq, 2);
	assert_int_equal(s.n, 3); /* Standard_NC8ads_A10_v4 has no GPU count in the table */
	const struct offer *o = find(&s, "Standard_NC24ads_A100_v4", "eastus");
	assert_non_null(o);
	assert_float_equal(o->price_hr, 3.673, 1e-12); /* not the secondary 9.99 */
	assert_float_equal(o->spot_price_hr, 0.7346, 1e-12);
	o = find(&s, "Standard_ND96isr_H100_v5", "westeurope");
	assert_non_null(o);
	assert_string_equal(o->gpu, "h100-sxm");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->price_hr, 98.32, 1e-12);
	assert_true(isnan(o->spot_price_hr));
	assert_int_equal(o->infiniband, 1);
	assert_string_equal(o->rdma, "ib");
	o = find(&s, "Standard_NV6ads_A10_v5", "eastus");
	assert_non_null(o);
	assert_string_equal(o->gpu, "a10");
	assert_float_equal(o->gpu_count, 0.167, 1e-12);
	assert_float_equal(o->gpu_mem_gb, 24 * 0.167, 1e-9); /* a sixth of an A10 */
	assert_float_equal(o->price_hr, 0.454, 1e-12);
	offer_store_free(&s);
}

/* The first request carries the filter; every Azure size the table names
 * exactly resolves to an entry with a GPU count (a glob listed before it
 * would shadow it, and the live adapter would drop the size). */
static void test_request(void **state)
{
	(void)state;
	size_t named = 0;
	for (size_t i = 0; i < insttype_count(cat.types); i++) {
		const struct insttype *t = insttype_at(cat.types, i);
		if (strcmp(t->provider, "azure") != 0 || strpbrk(t->match, "*?["))
			continue;
		const struct insttype *hit = insttype_lookup(cat.types, "azure", t->match);
		if (!hit || !(hit->gpu_count > 0))
			fail_msg("azure %s has no GPU count", t->match);
		named++;
	}
	assert_true(named >= 30);
	struct adapter_run run;
	char *err = NULL;
	adapter_run_init(&run, &AD, "http://a", NULL);
	assert_int_equal(AD.start(&run, &err), GC_OK);
	struct adapter_request *r = adapter_next(&run);
	assert_non_null(r);
	assert_non_null(strstr(r->url, "http://a/api/retail/prices?api-version=2023-01-01-preview"
					"&$filter=serviceName%20eq%20%27Virtual%20Machines%27"));
	assert_non_null(strstr(r->url, "%27Low%20Priority%27%29%20eq%20false"));
	assert_null(strchr(r->url, ' '));
	adapter_request_release(r);
	free(r);
	adapter_run_release(&run);
	assert_int_equal(AD.auth, ADAPTER_AUTH_NONE);
}

/* Non-USD rows are converted; a spot-only size keeps its spot price. */
static void test_currency_and_spot_only(void **state)
{
	(void)state;
	char a[1024], b[1024], c[1024], body[4096];
	item(a, sizeof a, "Standard_NC40ads_H100_v5", "NC40ads H100 v5",
	     "Virtual Machines NCadsH100v5 Series", "6.5", "EUR");
	item(b, sizeof b, "Standard_NC40ads_H100_v5", "NC40ads H100 v5 Spot",
	     "Virtual Machines NCadsH100v5 Series", "2", "EUR");
	item(c, sizeof c, "Standard_NC64as_T4_v3", "NC64as T4 v3 Spot",
	     "Virtual Machines NCasT4_v3 Series", "1.25", "USD");
	snprintf(body, sizeof body,
		 "{\"BillingCurrency\":\"EUR\",\"Items\":[%s,%s,%s],\"NextPageLink\":null}", a, b, c);
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(parse_str(body, &s, NULL, &err), GC_OK);
	assert_int_equal(s.n, 2);
	const struct offer *o = find(&s, "Standard_NC40ads_H100_v5", "eastus");
	assert_non_null(o);
	assert_string_equal(o->gpu, "h100-nvl");
	assert_string_equal(o->currency, "EUR");
	assert_float_equal(o->price_native, 6.5, 1e-12);
	assert_float_equal(o->price_hr, 6.5 * eur_usd, 1e-12);
	assert_float_equal(o->spot_price_hr, 2 * eur_usd, 1e-12);
	o = find(&s, "Standard_NC64as_T4_v3", "eastus");
	assert_non_null(o);
	assert_string_equal(o->gpu, "t4");
	assert_float_equal(o->gpu_count, 4, 0);
	assert_true(isnan(o->price_hr));
	assert_float_equal(o->spot_price_hr, 1.25, 1e-12);
	offer_store_free(&s);
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA; an empty page ends. */
static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	const char *html = "<html><body>502 Bad Gateway</body></html>";
	assert_int_equal(parse_str(html, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "HTML"));
	free(err);
	err = NULL;
	size_t len;
	char *body = read_source_file(FIX "/prices.json", &len);
	assert_int_equal(refresh_parse_one(&AD, &cat, 0, body, len - 100, NULL, NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "not valid JSON"));
	free(err);
	free(body);
	err = NULL;
	assert_int_equal(parse_str("{}", NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "Items"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str("{\"Error\":{\"Code\":\"BadRequest\",\"Message\":\"Invalid "
				   "OData parameters supplied\"}}",
				   NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "Invalid OData"));
	free(err);
	err = NULL;
	size_t queued = 9;
	struct offer_store s;
	offer_store_init(&s);
	assert_int_equal(parse_str("{\"Items\":[],\"NextPageLink\":\"https://prices.azure.com/api/"
				   "retail/prices?$skip=1000\",\"Count\":0}",
				   &s, &queued, &err),
			 GC_OK);
	assert_int_equal(queued, 0);
	assert_int_equal(s.n, 0);
	offer_store_free(&s);
}

/* Hostile values: no crash, no bogus offer, no request to another host. */
static void test_hostile(void **state)
{
	(void)state;
	char a[1024], b[1024], c[1024], d[1024], body[8192];
	item(a, sizeof a, "Standard_NC4as_T4_v3", "NC4as T4 v3", "Virtual Machines", "-1", "USD");
	item(b, sizeof b, "Standard_NC8as_T4_v3", "NC8as T4 v3", "Virtual Machines", "\"free\"",
	     "USD");
	item(c, sizeof c, "Standard_NC16as_T4_v3", "NC16as T4 v3", "Virtual Machines",
	     "\"1e999\"", "USD");
	item(d, sizeof d, "Standard_NV12s_v3", "NV12s v3", "Virtual Machines", "\"1.14\"", "USD");
	snprintf(body, sizeof body,
		 "{\"Items\":[%s,%s,%s,%s,{\"armSkuName\":7,\"retailPrice\":1},"
		 "{\"armSkuName\":\"Standard_NC6s_v3\",\"retailPrice\":1},"
		 "{\"armSkuName\":\"Standard_NC6s_v3\",\"armRegionName\":\"eastus\","
		 "\"retailPrice\":1,\"unitOfMeasure\":\"1/Month\"},"
		 "\"text\",null,[],42],\"NextPageLink\":[]}",
		 a, b, c, d);
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	size_t queued = 9;
	assert_int_equal(parse_str(body, &s, &queued, &err), GC_OK);
	assert_int_equal(queued, 0);
	assert_int_equal(s.n, 1);
	const struct offer *o = find(&s, "Standard_NV12s_v3", "eastus");
	assert_non_null(o);
	assert_string_equal(o->gpu, "m60");
	assert_float_equal(o->price_hr, 1.14, 1e-12);
	offer_store_free(&s);

	const char *evil = "{\"Items\":[{}],\"NextPageLink\":\"http://evil.example/api/retail/"
			   "prices?$skip=100\"}";
	assert_int_equal(parse_str(evil, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "another host"));
	free(err);
	err = NULL;

	/* an OData link with raw spaces is re-rooted and percent-encoded */
	const char *spaced = "{\"Items\":[{}],\"NextPageLink\":\"https://prices.azure.com:443/api/"
			     "retail/prices?$filter=serviceName eq 'Virtual Machines'&$skip=1000\"}";
	struct adapter_run run;
	adapter_run_init(&run, &AD, "http://127.0.0.1:9", NULL);
	struct adapter_request req = {.kind = 0, .url = "http://127.0.0.1:9/api/retail/prices"};
	assert_int_equal(AD.parse(&run, &req, spaced, strlen(spaced), &err), GC_OK);
	struct adapter_request *r = adapter_next(&run);
	assert_non_null(r);
	assert_string_equal(r->url, "http://127.0.0.1:9/api/retail/prices?$filter=serviceName%20eq"
				    "%20'Virtual%20Machines'&$skip=1000");
	adapter_request_release(r);
	free(r);
	adapter_run_release(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_page),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_currency_and_spot_only),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
