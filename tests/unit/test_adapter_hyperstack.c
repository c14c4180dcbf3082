/* test_adapter_hyperstack.c - the Hyperstack adapter: flavors joined with
 * the pricebook.  The fixtures follow the documented schemas; no recorded
 * response exists (tests/fixtures/http/hyperstack/README.md). */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_hyperstack;
#define AD adapter_hyperstack
#define FIX "tests/fixtures/http/hyperstack"

#include "adapter_testutil.h"

enum { K_FLAVORS, K_PRICEBOOK }; /* the adapter's request kinds */

/* Both documents through one run, as refresh.c does; either may be NULL.
 * The offers are in h->store. */
static enum gc_status join(struct harness *h, const char *flavors, const char *pricebook,
			   char **err)
{
	enum gc_status st = GC_OK;
	if (pricebook)
		st = h_parse(h, K_PRICEBOOK, pricebook, strlen(pricebook), err);
	if (st == GC_OK && flavors)
		st = h_parse(h, K_FLAVORS, flavors, strlen(flavors), err);
	if (st == GC_OK)
		st = AD.finish(&h->run, err);
	return st;
}

/* The plan is the two requests; each document alone yields no offer. */
static void test_alone(void **state)
{
	(void)state;
	struct harness h;
	drop_request(h_start(&h, "http://h", "k", "http://h/v1/core/flavors"));
	drop_request(next_request(&h.run, "http://h/v1/pricebook"));
	assert_null(adapter_next(&h.run));
	h_free(&h);
	assert_int_equal(AD.auth, ADAPTER_AUTH_REQUIRED);
	assert_string_equal(AD.key_name, "api_key");

	const char *files[] = {FIX "/flavors.json", FIX "/pricebook.json"};
	for (int k = K_FLAVORS; k <= K_PRICEBOOK; k++) {
		struct offer_store s;
		/* no price without the pricebook, nothing to price */
		expect_parsed_file(k, files[k], &s, 0, 0);
		offer_store_free(&s);
	}
}

/* The whole plan from the routes: GPU price times count per flavor. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	/* the CPU-only flavor is not an offer; n3-A100x1-spot is n3-A100x1's
	 * spot price, n3-RTX-A6000x1-spot an offer with a spot price only */
	expect_replay(FIX, &s, 2, 3);
	const struct offer *o = must_find(&s, "n3-A100x1", "CANADA-1");
	assert_string_equal(o->provider, "hyperstack");
	assert_string_equal(o->gpu, "a100-pcie-80gb");
	assert_string_equal(o->gpu_name, "A100-80G-PCIe");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 80, 1e-9);
	assert_float_equal(o->price_hr, 1.35, 1e-12);
	assert_float_equal(o->spot_price_hr, 0.95, 1e-12);
	assert_float_equal(o->vcpus, 28, 0);
	assert_float_equal(o->ram_gb, 120, 0);
	assert_float_equal(o->disk_gb, 850, 0);
	assert_int_equal(o->available, 1);
	o = must_find(&s, "n1-RTX-A6000x2", "CANADA-1");
	assert_string_equal(o->gpu, "rtx-a6000");
	assert_float_equal(o->gpu_count, 2, 0);
	assert_float_equal(o->price_hr, 1.0, 1e-12); /* "0.5" per GPU, as a string */
	assert_int_equal(o->available, 0);
	assert_true(isnan(o->spot_price_hr));
	o = must_find(&s, "n3-RTX-A6000x1", "CANADA-1");
	assert_string_equal(o->gpu, "rtx-a6000");
	assert_string_equal(o->gpu_name, "RTX-A6000");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_true(isnan(o->price_hr));
	assert_float_equal(o->spot_price_hr, 0.35, 1e-12);
	assert_int_equal(o->available, 1);
	for (size_t i = 0; i < s.n; i++) {
		assert_null(strstr(s.items[i].sku, "spot"));
		assert_non_null(s.items[i].gpu);
	}
	offer_store_free(&s);
}

/* One flavor in a group of its own. */
static void flavor(char *out, size_t n, const char *name, const char *gpu, int count,
		   const char *region)
{
	snprintf(out, n,
		 "{\"gpu\":\"%s\",\"region_name\":\"%s\",\"flavors\":[{\"name\":\"%s\","
		 "\"region_name\":\"%s\",\"gpu\":\"%s\",\"gpu_count\":%d,\"cpu\":8}]}",
		 gpu, region, name, region, gpu, count);
}

/* A -spot flavor is its base flavor's spot price only when the GPU, count
 * and region are the same; in any order; never an on-demand price. */
static void test_spot_merge(void **state)
{
	(void)state;
	const char *pricebook = "[{\"name\":\"H100-80G-PCIe\",\"value\":1.9},"
				"{\"name\":\"H100-80G-PCIe-spot\",\"value\":1.2},"
				"{\"name\":\"L40\",\"value\":1.0}]";
	char f[7][512], flavors[4096];
	flavor(f[0], sizeof f[0], "n3-H100x2-spot", "H100-80G-PCIe-spot", 2, "NORWAY-1");
	flavor(f[1], sizeof f[1], "n3-H100x2", "H100-80G-PCIe", 2, "NORWAY-1");
	/* another region: its base has no spot flavor there */
	flavor(f[2], sizeof f[2], "n3-H100x2", "H100-80G-PCIe", 2, "CANADA-1");
	/* the same name, another count: not this base's spot price, dropped */
	flavor(f[3], sizeof f[3], "n3-H100x1-spot", "H100-80G-PCIe-spot", 2, "CANADA-1");
	flavor(f[4], sizeof f[4], "n3-H100x1", "H100-80G-PCIe", 1, "CANADA-1");
	/* a -spot flavor whose spot price the pricebook lacks */
	flavor(f[5], sizeof f[5], "n3-L40x1-spot", "L40-spot", 1, "CANADA-1");
	/* a "-spot" GPU under a plain name: a spot price, not an on-demand one */
	flavor(f[6], sizeof f[6], "n3-H100x4", "H100-80G-PCIe-spot", 4, "US-1");
	snprintf(flavors, sizeof flavors, "{\"status\":true,\"data\":[%s,%s,%s,%s,%s,%s,%s]}",
		 f[0], f[1], f[2], f[3], f[4], f[5], f[6]);
	struct harness h;
	h_init(&h, NULL, "k");
	char *err = NULL;
	assert_int_equal(join(&h, flavors, pricebook, &err), GC_OK);
	assert_int_equal(h.store.n, 4);
	const struct offer *o = must_find(&h.store, "n3-H100x4", "US-1");
	assert_true(isnan(o->price_hr));
	assert_float_equal(o->spot_price_hr, 4 * 1.2, 1e-12);
	o = must_find(&h.store, "n3-H100x2", "NORWAY-1");
	assert_string_equal(o->gpu, "h100-pcie");
	assert_float_equal(o->price_hr, 3.8, 1e-12);
	assert_float_equal(o->spot_price_hr, 2.4, 1e-12);
	o = must_find(&h.store, "n3-H100x2", "CANADA-1");
	assert_float_equal(o->price_hr, 3.8, 1e-12);
	assert_true(isnan(o->spot_price_hr));
	o = must_find(&h.store, "n3-H100x1", "CANADA-1");
	assert_float_equal(o->price_hr, 1.9, 1e-12);
	assert_true(isnan(o->spot_price_hr));
	assert_null(find(&h.store, "n3-L40x1", NULL)); /* no price at all */
	h_free(&h);
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA. */
static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	for (int k = K_FLAVORS; k <= K_PRICEBOOK; k++)
		expect_refused(k, "<html><body>502 Bad Gateway</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/flavors.json", &len);
	expect_refused_len(K_FLAVORS, body, len / 3, "not valid JSON");
	free(body);
	for (int k = K_FLAVORS; k <= K_PRICEBOOK; k++)
		expect_refused(k, "{\"status\":false,\"message\":\"Invalid API key\"}",
			       "Invalid API key");
	expect_refused(K_FLAVORS, "{\"status\":true,\"data\":{}}", "data");
	expect_refused(K_PRICEBOOK, "{\"status\":true}", "not an array");
	assert_int_equal(parse_str(7, "[]", NULL, NULL, &err), GC_EUSAGE);
	free(err);
	err = NULL;
	struct harness h;
	h_init(&h, NULL, "k");
	assert_int_equal(join(&h, "{\"status\":true,\"data\":[]}", "[]", &err), GC_OK);
	assert_int_equal(h.store.n, 0);
	h_free(&h);
}

/* Hostile values: no crash and no bogus offer. */
static void test_hostile(void **state)
{
	(void)state;
	const char *pricebook =
		"[{\"name\":\"H100-80G-PCIe\",\"value\":\"abc\",\"original_value\":1.9},"
		"{\"name\":\"L40\",\"value\":-5},{\"name\":\"RTX-A4000\",\"value\":\"1e999\"},"
		"{\"name\":\"A100-80G-PCIe\",\"value\":1.4},{\"name\":\"A100-80G-PCIe\",\"value\":"
		"9},"
		"{\"name\":7},null,\"x\",[]]";
	const char *flavors =
		"{\"status\":true,\"message\":\"ok\",\"data\":["
		"{\"gpu\":\"H100-80G-PCIe\",\"region_name\":\"NORWAY-1\",\"flavors\":["
		"{\"name\":\"n3-H100x1\",\"gpu_count\":1,\"cpu\":\"many\",\"ram\":null,"
		"\"disk\":-1,\"stock_available\":\"yes\"}]},"
		"{\"gpu\":\"L40\",\"region_name\":\"US-1\",\"flavors\":[{\"name\":\"n3-L40x1\","
		"\"gpu\":\"L40\",\"gpu_count\":1}]},"
		"{\"gpu\":\"RTX-A4000\",\"flavors\":[{\"name\":\"n3-RTX-A4000x1\",\"gpu_count\":"
		"1}]},"
		"{\"gpu\":\"A100-80G-PCIe\",\"flavors\":[{\"name\":\"big\",\"gpu_count\":1e12},"
		"{\"name\":\"word\",\"gpu_count\":\"two\"},{\"name\":\"n3-A100x2\",\"gpu_count\":"
		"2}]},"
		"{\"gpu\":\"A100-80G-PCIe\",\"flavors\":{\"name\":\"not-an-array\"}},"
		"{\"flavors\":[{\"gpu_count\":1}]},7,null]}";
	struct harness h;
	h_init(&h, NULL, "k");
	char *err = NULL;
	assert_int_equal(join(&h, flavors, pricebook, &err), GC_OK);
	assert_int_equal(h.store.n, 2);
	const struct offer *o = must_find(&h.store, "n3-H100x1", "NORWAY-1");
	assert_float_equal(o->price_hr, 1.9, 1e-12); /* original_value when value is junk */
	assert_true(isnan(o->vcpus) && isnan(o->ram_gb) && isnan(o->disk_gb));
	assert_int_equal(o->available, -1);
	o = must_find(&h.store, "n3-A100x2", NULL);
	assert_string_equal(o->region, "unknown");
	assert_float_equal(o->price_hr, 2.8, 1e-12); /* the first of two entries */
	h_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_spot_merge),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
