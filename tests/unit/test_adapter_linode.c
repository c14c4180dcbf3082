/* test_adapter_linode.c - the Linode adapter on the recorded types list
 * (split in two pages), region prices, bad bodies and hostile values. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_linode;
#define AD adapter_linode
#define FIX "tests/fixtures/http/linode"

#include "adapter_testutil.h"

/* The first request, and page 2 queued from page 1. */
static void test_requests(void **state)
{
	(void)state;
	struct harness h;
	char *err = NULL;
	struct adapter_request *r =
		h_start(&h, "http://127.0.0.1:1", NULL, "http://127.0.0.1:1/v4/linode/types");
	assert_int_equal(h_answer(&h, r, FIX "/types.json", &err), GC_OK);
	drop_request(r);
	drop_request(next_request(&h.run, "http://127.0.0.1:1/v4/linode/types?page=2"));
	assert_null(adapter_next(&h.run));
	h_free(&h);
	assert_int_equal(AD.auth, ADAPTER_AUTH_OPTIONAL);
	assert_int_equal(AD.key_style, ADAPTER_KEY_BEARER);
}

static void test_recorded_pages(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(0, FIX "/types.json", &s, 1, 1); /* the Nanode has no GPU */
	const struct offer *o = must_find(&s, "g1-gpu-rtx6000-1", "unknown");
	assert_string_equal(o->provider, "linode");
	assert_string_equal(o->gpu_name, "RTX6000");
	assert_string_equal(o->gpu, "quadro-rtx-6000");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 24, 0); /* from the table */
	assert_float_equal(o->price_hr, 1.5, 1e-12);
	assert_true(isnan(o->spot_price_hr));
	assert_float_equal(o->vcpus, 8, 0);
	assert_float_equal(o->ram_gb, 32, 0);
	assert_float_equal(o->disk_gb, 640, 0);
	assert_int_equal(o->available, -1);
	offer_store_free(&s);

	expect_parsed_file(0, FIX "/types-page2.json", &s, 0, 1); /* page 2 of 2 */
	o = must_find(&s, "g1-gpu-rtx6000-2", "unknown");
	assert_string_equal(o->gpu, "quadro-rtx-6000");
	assert_float_equal(o->gpu_count, 2, 0);
	assert_float_equal(o->price_hr, 3.0, 1e-12);
	assert_float_equal(o->vcpus, 16, 0);
	offer_store_free(&s);
}

/* Region prices override the base price; newer labels ("RTX4000 Ada x1
 * Small", as in a public record of /v4/linode/types). */
static void test_region_prices_and_labels(void **state)
{
	(void)state;
	const char *body =
		"{\"data\":[{\"id\":\"g2-gpu-rtx4000a1-s\",\"label\":\"RTX4000 Ada x1 Small\","
		"\"class\":\"gpu\",\"vcpus\":8,\"memory\":16384,\"disk\":524288,\"gpus\":1,"
		"\"price\":{\"hourly\":0.52,\"monthly\":350.0},"
		"\"region_prices\":[{\"id\":\"id-cgk\",\"hourly\":0.62,\"monthly\":420.0},"
		"{\"id\":\"br-gru\",\"hourly\":\"x\"},{\"hourly\":1},7]},"
		"{\"id\":\"g9-gpu-new-1\",\"label\":\"Dedicated 64GB + Brand New GPU x1\","
		"\"class\":\"gpu\",\"gpus\":1,\"price\":{\"hourly\":2.0}}"
		"],\"page\":1,\"pages\":1,\"results\":2}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 3);
	const struct offer *base = must_find(&s, "g2-gpu-rtx4000a1-s", "unknown");
	assert_string_equal(base->gpu_name, "RTX4000 Ada");
	assert_string_equal(base->gpu, "rtx-4000-ada");
	assert_float_equal(base->price_hr, 0.52, 1e-12);
	const struct offer *cgk = must_find(&s, "g2-gpu-rtx4000a1-s", "id-cgk");
	assert_float_equal(cgk->price_hr, 0.62, 1e-12);
	assert_float_equal(cgk->vcpus, 8, 0);
	assert_null(find(&s, "g2-gpu-rtx4000a1-s", "br-gru")); /* no price */
	const struct offer *nu = must_find(&s, "g9-gpu-new-1", "unknown");
	assert_null(nu->gpu);
	assert_string_equal(nu->gpu_name, "Brand New");
	offer_store_free(&s);
}

static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	expect_refused(0, "<html><body>504 Gateway Time-out</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/types.json", &len);
	expect_refused_len(0, body, 300, "not valid JSON");
	free(body);
	assert_int_equal(parse_str(0, "{\"errors\":[{\"reason\":\"Invalid Token\\r\\n\"}]}", NULL,
				   NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "Linode error: Invalid Token"));
	assert_null(strchr(err, '\n'));
	free(err);
	const char *shapes[] = {"{}", "[]", "{\"data\":{}}", "{\"errors\":[]}", "true"};
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		expect_refused(0, shapes[i], NULL);
	expect_empty(0, "{\"data\":[],\"page\":1,\"pages\":1,\"results\":0}");
}

static void test_hostile_values(void **state)
{
	(void)state;
	const char *body =
		"{\"data\":[1,null,{},{\"id\":3},"
		"{\"id\":\"g1-gpu-rtx6000-1\",\"label\":\"Dedicated 32GB + RTX6000 GPU x1\","
		"\"gpus\":\"many\",\"price\":{\"hourly\":1.5}},"
		"{\"id\":\"g1-gpu-rtx6000-2\",\"label\":\"Dedicated 64GB + RTX6000 GPU x2\","
		"\"gpus\":1e300,\"price\":{\"hourly\":3}},"
		"{\"id\":\"g1-gpu-rtx6000-3\",\"label\":\"Dedicated 96GB + RTX6000 GPU x3\","
		"\"gpus\":3,\"price\":{\"hourly\":-4.5}},"
		"{\"id\":\"g1-gpu-rtx6000-4\",\"label\":42,\"gpus\":4,\"vcpus\":-1,\"memory\":\"x\","
		"\"disk\":1e300,\"price\":[6],\"region_prices\":{\"id\":\"x\"}},"
		"{\"id\":\"g1-gpu-rtx6000-5\",\"label\":\"+ + x1\",\"gpus\":1,"
		"\"price\":{\"hourly\":\"2.5\"},\"region_prices\":\"none\"}"
		"],\"page\":1,\"pages\":1e12}";
	struct offer_store s;
	/* "pages" out of range reads as unknown: no runaway pagination */
	expect_parsed(0, body, &s, 0, 1);
	const struct offer *o = must_find(&s, "g1-gpu-rtx6000-5", "unknown");
	assert_string_equal(o->gpu_name, "");
	assert_null(o->gpu);
	assert_float_equal(o->price_hr, 2.5, 1e-12);
	offer_store_free(&s);

	/* a page past the last, or a negative page: nothing queued */
	assert_int_equal(queued_by(0, "{\"data\":[],\"page\":5,\"pages\":2}"), 0);
	assert_int_equal(queued_by(0, "{\"data\":[],\"page\":-1,\"pages\":2}"), 0);
	assert_int_equal(queued_by(0, "{\"data\":[],\"page\":\"1\",\"pages\":\"3\"}"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_recorded_pages),
		cmocka_unit_test(test_region_prices_and_labels),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_values),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
