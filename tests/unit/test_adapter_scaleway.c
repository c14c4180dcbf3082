/* test_adapter_scaleway.c - the Scaleway adapter: products joined with
 * availability per zone, page by page, on the recorded catalog. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_scaleway;
#define AD adapter_scaleway
#define FIX "tests/fixtures/http/scaleway"

#include "adapter_testutil.h"

/* The adapter's request kinds: ((page - 1) * 3 + zone) * 2 + endpoint, the
 * zones being fr-par-1, fr-par-2, pl-waw-2 and the endpoints products (0)
 * and availability (1). */
enum { K_PAR2_PRODUCTS = 2, K_PAR2_AVAIL = 3, K_PAR2_PRODUCTS_P2 = 8 };

static double eur_usd;

static int setup(void **state)
{
	eur_usd = embedded_usd_rate("EUR");
	return isnan(eur_usd) ? -1 : catalog_setup(state);
}

/* Products page 1 of fr-par-2 alone: the two GPU types, priced in EUR and
 * converted, availability unknown; page 2 is asked for. */
static void test_products_page(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(K_PAR2_PRODUCTS, FIX "/servers.json", &s, 1, 2);
	const struct offer *o = must_find(&s, "L4-1-24G", "fr-par-2");
	assert_string_equal(o->provider, "scaleway");
	assert_string_equal(o->gpu, "l4");
	assert_string_equal(o->gpu_name, "L4");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 24, 1e-9);
	assert_float_equal(o->vcpus, 8, 0);
	assert_float_equal(o->ram_gb, 48, 1e-9);
	assert_true(isnan(o->disk_gb));
	assert_string_equal(o->currency, "EUR");
	assert_float_equal(o->price_native, 0.7875, 1e-12);
	assert_float_equal(o->price_hr, 0.7875 * eur_usd, 1e-12);
	assert_int_equal(o->available, -1);
	o = must_find(&s, "H100-1-80G", "fr-par-2");
	assert_string_equal(o->gpu, "h100-pcie");
	assert_float_equal(o->gpu_mem_gb, 80, 1e-9);
	assert_float_equal(o->ram_gb, 240, 1e-9);
	assert_float_equal(o->disk_gb, 3000, 1e-9);
	assert_float_equal(o->price_hr, 2.8665 * eur_usd, 1e-12);
	offer_store_free(&s);
}

/* The whole plan: three zones, two endpoints, pages until an empty one. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	/* 3 zones x 2 endpoints, + products pages 2 and 3, + availability page
	 * 2; DEV1-S has no GPU */
	expect_replay(FIX, &s, 9, 2);
	const struct offer *o = must_find(&s, "L4-1-24G", "fr-par-2");
	assert_int_equal(o->available, 1);
	o = must_find(&s, "H100-1-80G", "fr-par-2");
	assert_int_equal(o->available, 0); /* "shortage" */
	offer_store_free(&s);
}

/* A page of availability alone: nothing to offer, the next page queued;
 * "scarce" counts as available. */
static void test_availability(void **state)
{
	(void)state;
	struct harness h;
	char *err = NULL;
	h_init(&h, NULL, NULL);
	const char *avail = "{\"servers\":{\"L40S-1-48G\":{\"availability\":\"scarce\"},"
			    "\"GPU-3070-S\":{\"availability\":\"unheard-of\"}}}";
	const char *prod =
		"{\"servers\":{\"L40S-1-48G\":{\"ncpus\":8,\"ram\":103079215104,\"gpu\":1,"
		"\"gpu_info\":{\"gpu_manufacturer\":\"NVIDIA\",\"gpu_name\":\"L40S\","
		"\"gpu_memory\":51539607552},\"hourly_price\":1.4,\"end_of_service\":false},"
		"\"GPU-3070-S\":{\"ncpus\":8,\"ram\":17179869184,\"gpu\":1,\"gpu_info\":{"
		"\"gpu_name\":\"RTX 3070\"},\"hourly_price\":0.98},"
		"\"RENDER-S\":{\"ncpus\":10,\"gpu\":1,\"hourly_price\":1.24,"
		"\"end_of_service\":true}}}";
	assert_int_equal(h_parse(&h, K_PAR2_AVAIL, avail, strlen(avail), &err), GC_OK);
	assert_int_equal(h.store.n, 0);
	assert_int_equal(h.run.nqueue - h.run.qhead, 1);
	/* a second products page is merged in */
	assert_int_equal(h_parse(&h, K_PAR2_PRODUCTS_P2, prod, strlen(prod), &err), GC_OK);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	assert_int_equal(h.store.n, 2); /* RENDER-S is at end of service */
	const struct offer *o = must_find(&h.store, "L40S-1-48G", "fr-par-2");
	assert_int_equal(o->available, 1);
	assert_string_equal(o->gpu, "l40s");
	o = must_find(&h.store, "GPU-3070-S", "fr-par-2");
	assert_int_equal(o->available, -1);
	assert_string_equal(o->gpu, "rtx-3070");
	drop_request(next_request(&h.run, "https://api.scaleway.com/instance/v1/zones/fr-par-2/"
					  "products/servers/availability?page=2&per_page=100"));
	drop_request(next_request(&h.run, "https://api.scaleway.com/instance/v1/zones/fr-par-2/"
					  "products/servers?page=3&per_page=100"));
	h_free(&h);
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA; an empty map is fine. */
static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	expect_refused(0, "<html><body>502 Bad Gateway</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/servers.json", &len);
	expect_refused_len(0, body, len - 40, "not valid JSON");
	free(body);
	expect_refused(0, "{\"servers\":[]}", "servers");
	expect_refused(1, "{\"message\":\"zone not found\",\"type\":\"not_found\"}",
		       "zone not found");
	assert_int_equal(parse_str(-1, "{\"servers\":{}}", NULL, NULL, &err), GC_EUSAGE);
	free(err);
	expect_empty(0, "{\"servers\":{}}"); /* an empty page ends the zone's pages */
}

/* Hostile values: no crash and no bogus offer. */
static void test_hostile(void **state)
{
	(void)state;
	const char *body =
		"{\"servers\":{"
		"\"NEG\":{\"gpu\":1,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":-1},"
		"\"TEXT\":{\"gpu\":1,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":\"free\"},"
		"\"INF\":{\"gpu\":1,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":\"1e999\"},"
		"\"MANY\":{\"gpu\":1e300,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":1},"
		"\"WORD\":{\"gpu\":\"two\",\"hourly_price\":1},"
		"\"ODD\":{\"gpu\":\"2\",\"ncpus\":[],\"ram\":-5,\"gpu_info\":\"L4\","
		"\"scratch_storage_max_size\":null,\"hourly_price\":\"1.5\"},"
		"\"NULL\":null,\"NUM\":42},\"total_count\":\"lots\"}";
	struct offer_store s;
	expect_parsed(K_PAR2_PRODUCTS, body, &s, 1, 1);
	const struct offer *o = must_find(&s, "ODD", "fr-par-2");
	assert_float_equal(o->gpu_count, 2, 0);
	assert_null(o->gpu);
	assert_true(isnan(o->vcpus) && isnan(o->ram_gb) && isnan(o->disk_gb));
	assert_float_equal(o->price_native, 1.5, 1e-12);
	offer_store_free(&s);
	/* a total_count that is reached stops the pages even on a full page */
	expect_empty(0, "{\"servers\":{\"X\":{}},\"total_count\":1}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_products_page),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_availability),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, setup, catalog_teardown);
}
