/* test_adapter_azure.c - the Azure Retail Prices adapter: GPU VM meters,
 * on-demand and spot joined per size and region, GPUs from the shipped
 * instance-type table. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_azure;
#define AD adapter_azure
#define FIX "tests/fixtures/http/azure"

#include "adapter_testutil.h"

static double eur_usd;

static int setup(void **state)
{
	eur_usd = embedded_usd_rate("EUR");
	return isnan(eur_usd) ? -1 : catalog_setup(state);
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
	struct offer_store s;
	expect_parsed_file(0, FIX "/prices.json", &s, 1, 1);
	const struct offer *o = must_find(&s, "Standard_NC24ads_A100_v4", "eastus");
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
}

/* The whole plan: page 2 through the re-rooted NextPageLink. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	/* two pages and the reservations; Standard_NC8ads_A10_v4 has no GPU
	 * count in the table */
	expect_replay(FIX, &s, 3, 4);
	const struct offer *o = must_find(&s, "Standard_NC24ads_A100_v4", "eastus");
	assert_float_equal(o->price_hr, 3.673, 1e-12); /* not the secondary 9.99 */
	assert_float_equal(o->spot_price_hr, 0.7346, 1e-12);
	/* a term's total over its hours (730 a month), the primary meter's */
	assert_int_equal(o->ncommits, 2);
	assert_string_equal(o->commits[0].type, "reserved");
	assert_int_equal(o->commits[0].term_months, 12);
	assert_float_equal(o->commits[0].price_hr, 2.203881, 1e-12); /* 19306 / 8760 */
	assert_int_equal(o->commits[1].term_months, 36);
	assert_float_equal(o->commits[1].price_hr, 1.469178, 1e-12); /* 38610 / 26280 */
	o = must_find(&s, "Standard_ND96isr_H100_v5", "westeurope");
	assert_string_equal(o->gpu, "h100-sxm");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->price_hr, 98.32, 1e-12);
	assert_true(isnan(o->spot_price_hr));
	assert_int_equal(o->infiniband, 1);
	assert_string_equal(o->rdma, "ib");
	o = must_find(&s, "Standard_NV6ads_A10_v5", "eastus");
	assert_string_equal(o->gpu, "a10");
	assert_float_equal(o->gpu_count, 1, 0); /* one GPU, a sixth of it */
	assert_float_equal(o->gpu_fraction, 0.167, 1e-12);
	assert_float_equal(o->gpu_mem_gb, 24 * 0.167, 1e-9); /* a sixth of an A10 */
	assert_float_equal(o->price_hr, 0.454, 1e-12);
	/* the Linux meter, not the "... Srs Win" one (8.82) that the filter's
	 * "Windows" misses; the Spot meter is the spot price */
	o = must_find(&s, "Standard_NCC40ads_H100_v5", "eastus2");
	assert_float_equal(o->price_hr, 6.98, 1e-12);
	assert_float_equal(o->spot_price_hr, 1.419034, 1e-12);
	assert_int_equal(o->ncommits, 0); /* a "5 Years" term is none this knows */
	o = must_find(&s, "Standard_ND96isr_H100_v5", "westeurope");
	assert_int_equal(o->ncommits, 2);
	assert_float_equal(o->commits[1].price_hr, 41.29376, 1e-12); /* 1085200 / 26280 */
	/* handed on as read: the door refuses it (above on-demand 0.454) */
	o = must_find(&s, "Standard_NV6ads_A10_v5", "eastus");
	assert_int_equal(o->ncommits, 1);
	assert_float_equal(o->commits[0].price_hr, 0.570776, 1e-12); /* 5000 / 8760 */
	offer_store_free(&s);
}

/* An item with every documented field given. */
static void item_full(char *out, size_t n, const char *meter, const char *product,
		      const char *price, const char *start, int primary)
{
	snprintf(
		out, n,
		"{\"currencyCode\":\"USD\",\"retailPrice\":%s,\"unitPrice\":%s,"
		"\"armRegionName\":\"eastus2\",\"location\":\"US East 2\",\"meterName\":\"%s\","
		"\"productName\":\"%s\",\"skuName\":\"%s\",\"serviceName\":\"Virtual Machines\","
		"\"unitOfMeasure\":\"1 Hour\",\"type\":\"Consumption\",\"effectiveStartDate\":"
		"\"%s\","
		"\"isPrimaryMeterRegion\":%s,\"armSkuName\":\"Standard_NCC40ads_H100_v5\"}",
		price, price, meter, product, meter, start, primary ? "true" : "false");
}

/* The on-demand price of the one offer `items` (a JSON list's inside) make. */
static double od_price(const char *items)
{
	char body[16384];
	snprintf(body, sizeof body, "{\"Items\":[%s],\"NextPageLink\":null}", items);
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 1);
	double p = s.items[0].price_hr;
	offer_store_free(&s);
	return p;
}

/* Windows ("... Windows", "... Srs Win"), Cloud Services, Dedicated Host
 * and Low Priority meters are never a Linux price; of two Linux meters
 * left for one size, region and kind, the choice does not depend on the
 * order read: a primary meter region, then the later effectiveStartDate,
 * then the higher price. */
static void test_linux_meter(void **state)
{
	(void)state;
	const char *t0 = "2024-11-01T00:00:00Z", *t1 = "2025-06-01T00:00:00Z";
	const char *series = "Virtual Machines NCCadsv5 Srs";
	char lin[1024], win[1024], wins[1024], cs[1024], dh[1024], lp[1024], two[16384];
	item_full(lin, sizeof lin, "NCC40adsH100v5", series, "6.98", t0, 1);
	item_full(win, sizeof win, "NCC40adsH100v5", "Virtual Machines NCCadsv5 Srs Win", "8.82",
		  t0, 1);
	item_full(wins, sizeof wins, "NCC40adsH100v5", "Virtual Machines NCCadsv5 Series Windows",
		  "8.83", t0, 1);
	item_full(cs, sizeof cs, "NCC40adsH100v5", "Cloud Services NCCadsv5 Srs", "7.5", t0, 1);
	item_full(dh, sizeof dh, "NCC40adsH100v5", "Virtual Machines Dedicated Host NCCadsv5",
		  "9.1", t0, 1);
	item_full(lp, sizeof lp, "NCC40adsH100v5 Low Priority", series, "1.396", t0, 1);
	/* the Linux row first or last: the same price */
	snprintf(two, sizeof two, "%s,%s,%s,%s,%s,%s", win, wins, cs, dh, lp, lin);
	assert_float_equal(od_price(two), 6.98, 1e-12);
	snprintf(two, sizeof two, "%s,%s,%s,%s,%s,%s", lin, win, wins, cs, dh, lp);
	assert_float_equal(od_price(two), 6.98, 1e-12);
	/* only non-Linux rows: no offer */
	char body[16384];
	snprintf(body, sizeof body, "{\"Items\":[%s,%s,%s,%s],\"NextPageLink\":null}", win, wins,
		 cs, dh);
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 0);
	offer_store_free(&s);

	/* two Linux rows: either order gives the same one */
	char a[1024], b[1024];
	item_full(a, sizeof a, "NCC40adsH100v5", series, "6.98", t0, 1);
	item_full(b, sizeof b, "NCC40adsH100v5", series, "7.2", t1, 1);
	snprintf(two, sizeof two, "%s,%s", a, b);
	assert_float_equal(od_price(two), 7.2, 1e-12); /* the later start */
	snprintf(two, sizeof two, "%s,%s", b, a);
	assert_float_equal(od_price(two), 7.2, 1e-12);
	item_full(b, sizeof b, "NCC40adsH100v5", series, "6.5", t0, 1);
	snprintf(two, sizeof two, "%s,%s", a, b);
	assert_float_equal(od_price(two), 6.98, 1e-12); /* same start: the higher */
	snprintf(two, sizeof two, "%s,%s", b, a);
	assert_float_equal(od_price(two), 6.98, 1e-12);
	item_full(b, sizeof b, "NCC40adsH100v5", series, "9.5", t1, 0);
	snprintf(two, sizeof two, "%s,%s", b, a);
	assert_float_equal(od_price(two), 6.98, 1e-12); /* a primary meter region first */
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
	struct harness h;
	struct adapter_request *r = h_start(&h, "http://a", NULL, NULL);
	assert_non_null(strstr(r->url, "http://a/api/retail/prices?api-version=2023-01-01-preview"
					"&$filter=serviceName%20eq%20%27Virtual%20Machines%27"));
	assert_non_null(strstr(r->url, "%27Low%20Priority%27%29%20eq%20false"));
	assert_null(strchr(r->url, ' '));
	drop_request(r);
	h_free(&h);
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
		 "{\"BillingCurrency\":\"EUR\",\"Items\":[%s,%s,%s],\"NextPageLink\":null}", a, b,
		 c);
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 2);
	const struct offer *o = must_find(&s, "Standard_NC40ads_H100_v5", "eastus");
	assert_string_equal(o->gpu, "h100-nvl");
	assert_string_equal(o->currency, "EUR");
	assert_float_equal(o->price_native, 6.5, 1e-12);
	assert_float_equal(o->price_hr, 6.5 * eur_usd, 1e-12);
	assert_float_equal(o->spot_price_hr, 2 * eur_usd, 1e-12);
	o = must_find(&s, "Standard_NC64as_T4_v3", "eastus");
	assert_string_equal(o->gpu, "t4");
	assert_float_equal(o->gpu_count, 4, 0);
	assert_true(isnan(o->price_hr));
	assert_float_equal(o->spot_price_hr, 1.25, 1e-12);
	offer_store_free(&s);
}

/* A retired size (NCv3, gone 2025-09-30) and the second name of the MI300X
 * size are not offers; the T4 and the isr MI300X are (data/retired.yaml). */
static void test_retired_dropped(void **state)
{
	(void)state;
	char a[1024], b[1024], c[1024], d[1024], body[8192];
	item(a, sizeof a, "Standard_NC6s_v3", "NC6s v3", "Virtual Machines NCSv3 Series", "3.06",
	     "USD");
	item(b, sizeof b, "Standard_NC4as_T4_v3", "NC4as T4 v3",
	     "Virtual Machines NCasT4_v3 Series", "0.526", "USD");
	item(c, sizeof c, "Standard_ND96is_MI300X_v5", "ND96is MI300X v5",
	     "Virtual Machines NDis MI300X v5 Series", "67.2", "USD");
	item(d, sizeof d, "Standard_ND96isr_MI300X_v5", "ND96isr MI300X v5",
	     "Virtual Machines NDisr MI300X v5 Series", "67.2", "USD");
	snprintf(body, sizeof body, "{\"Items\":[%s,%s,%s,%s],\"NextPageLink\":null}", a, b, c, d);
	struct offer_store s;
	setenv("GPUCMP_TODAY", "2026-12-02", 1);
	expect_parsed(0, body, &s, 0, 2);
	must_find(&s, "Standard_NC4as_T4_v3", "eastus");
	must_find(&s, "Standard_ND96isr_MI300X_v5", "eastus");
	offer_store_free(&s);
	/* before the retirement date NCv3 was an offer */
	setenv("GPUCMP_TODAY", "2025-09-29", 1);
	expect_parsed(0, body, &s, 0, 3);
	must_find(&s, "Standard_NC6s_v3", "eastus");
	offer_store_free(&s);
	unsetenv("GPUCMP_TODAY");
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA; an empty page ends. */
static void test_bad_bodies(void **state)
{
	(void)state;
	expect_refused(0, "<html><body>502 Bad Gateway</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/prices.json", &len);
	expect_refused_len(0, body, len - 100, "not valid JSON");
	free(body);
	expect_refused(0, "{}", "Items");
	expect_refused(0,
		       "{\"Error\":{\"Code\":\"BadRequest\",\"Message\":\"Invalid OData parameters "
		       "supplied\"}}",
		       "Invalid OData");
	expect_empty(0, "{\"Items\":[],\"NextPageLink\":\"https://prices.azure.com/api/retail/"
			"prices?$skip=1000\",\"Count\":0}");
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
	char *err = NULL;
	struct offer_store s;
	/* a day NVv3 was still sold (it retired 2026-09-30, data/retired.yaml) */
	setenv("GPUCMP_TODAY", "2026-09-29", 1);
	expect_parsed(0, body, &s, 0, 1);
	unsetenv("GPUCMP_TODAY");
	const struct offer *o = must_find(&s, "Standard_NV12s_v3", "eastus");
	assert_string_equal(o->gpu, "m60");
	assert_float_equal(o->price_hr, 1.14, 1e-12);
	offer_store_free(&s);

	const char *evil = "{\"Items\":[{}],\"NextPageLink\":\"http://evil.example/api/retail/"
			   "prices?$skip=100\"}";
	expect_refused(0, evil, "another host");

	/* an OData link with raw spaces is re-rooted and percent-encoded */
	const char *spaced =
		"{\"Items\":[{}],\"NextPageLink\":\"https://prices.azure.com:443/api/"
		"retail/prices?$filter=serviceName eq 'Virtual Machines'&$skip=1000\"}";
	struct adapter_run run;
	adapter_run_init(&run, &AD, "http://127.0.0.1:9", NULL);
	struct adapter_request req = {.kind = 0, .url = "http://127.0.0.1:9/api/retail/prices"};
	assert_int_equal(AD.parse(&run, &req, spaced, strlen(spaced), &err), GC_OK);
	drop_request(next_request(&run, "http://127.0.0.1:9/api/retail/prices?$filter=serviceName"
					"%20eq%20'Virtual%20Machines'&$skip=1000"));
	adapter_run_release(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_page),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_linux_meter),
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_currency_and_spot_only),
		cmocka_unit_test(test_retired_dropped),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, setup, catalog_teardown);
}
