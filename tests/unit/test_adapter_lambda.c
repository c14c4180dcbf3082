/* test_adapter_lambda.c - the Lambda adapter on its recorded response. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_lambda;
#define AD adapter_lambda
#define FIX "tests/fixtures/http/lambda"

#include "adapter_testutil.h"

static void test_instance_types(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(0, FIX "/instance-types.json", &s, 0, 2);
	const struct offer *a = must_find(&s, "gpu_1x_a100", NULL);
	assert_string_equal(a->provider, "lambda");
	assert_string_equal(a->source, "live");
	assert_string_equal(a->region, "us-tx-1");
	assert_float_equal(a->price_hr, 0.80, 1e-9);
	assert_float_equal(a->gpu_count, 1, 0);
	assert_float_equal(a->vcpus, 24, 0);
	assert_float_equal(a->ram_gb, 800, 0);
	assert_int_equal(a->available, 1);
	const struct offer *b = must_find(&s, "gpu_4x_a6000", NULL);
	assert_float_equal(b->gpu_count, 4, 0);
	assert_float_equal(b->price_hr, 1.10, 1e-9);
	assert_string_equal(b->region, "us-az-1");
	offer_store_free(&s);
}

/* Sold out everywhere: one offer, unavailable; HTML and truncated bodies fail. */
static void test_sold_out_and_bad_bodies(void **state)
{
	(void)state;
	const char *sold_out =
		"{\"data\":{\"gpu_8x_h100_sxm5\":{\"instance_type\":{\"name\":\"gpu_8x_h100_sxm5\","
		"\"description\":\"8x H100 (80 GB SXM5)\",\"price_cents_per_hour\":2392,"
		"\"specs\":{\"vcpus\":208,\"memory_gib\":1800,\"storage_gib\":24780,\"gpus\":8}},"
		"\"regions_with_capacity_available\":[]}}}";
	struct offer_store s;
	expect_parsed(0, sold_out, &s, 0, 1);
	assert_int_equal(s.items[0].available, 0);
	assert_string_equal(s.items[0].gpu, "h100-sxm");
	assert_float_equal(s.items[0].price_hr, 23.92, 1e-9);
	offer_store_free(&s);

	expect_refused(0, "<html><body>502 Bad Gateway</body></html>", "HTML");
	expect_refused_len(0, sold_out, 40, "not valid JSON");
}

/* Counts and sizes in the description are plain decimals: strtod read
 * "0x8x" as 8 GPUs and "(0x50 GB" as 80 GB. */
static void test_description_numbers(void **state)
{
	(void)state;
	const char *body =
		"{\"data\":{"
		"\"a\":{\"instance_type\":{\"name\":\"gpu_hex_a\",\"description\":\"0x8x ZZ9 (0x50 "
		"GB)\","
		"\"price_cents_per_hour\":100,\"specs\":{\"vcpus\":8}},"
		"\"regions_with_capacity_available\":[]},"
		"\"b\":{\"instance_type\":{\"name\":\"gpu_hex_b\",\"description\":\"2x ZZ9 (0x50 "
		"GB)\","
		"\"price_cents_per_hour\":100,\"specs\":{\"vcpus\":8}},"
		"\"regions_with_capacity_available\":[]},"
		"\"c\":{\"instance_type\":{\"name\":\"gpu_dec_c\",\"description\":\"2x ZZ9 (48 "
		"GB)\","
		"\"price_cents_per_hour\":100,\"specs\":{\"vcpus\":8}},"
		"\"regions_with_capacity_available\":[]}}}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 2); /* gpu_hex_a has no GPU count */
	const struct offer *b = must_find(&s, "gpu_hex_b", NULL);
	assert_float_equal(b->gpu_count, 2, 0);
	assert_true(isnan(b->gpu_mem_gb));
	const struct offer *c = must_find(&s, "gpu_dec_c", NULL);
	assert_float_equal(c->gpu_count, 2, 0);
	assert_float_equal(c->gpu_mem_gb, 48, 0);
	offer_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instance_types),
		cmocka_unit_test(test_sold_out_and_bad_bodies),
		cmocka_unit_test(test_description_numbers),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
