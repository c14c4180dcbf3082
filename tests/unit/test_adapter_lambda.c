/* test_adapter_lambda.c - the Lambda adapter on its recorded response. */
#include <math.h>

#include "gpucmp/catalog.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/refresh.h"
#include "testutil.h"

extern const struct adapter adapter_lambda;

static struct catalog cat;

static int setup(void **state)
{
	(void)state;
	return load_embedded_catalog(&cat);
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

static const struct offer *find(const struct offer_store *s, const char *sku)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].sku, sku) == 0)
			return &s->items[i];
	return NULL;
}

static void test_instance_types(void **state)
{
	(void)state;
	size_t len, queued = 1;
	char *body = read_source_file("tests/fixtures/http/lambda/instance-types.json", &len);
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(refresh_parse_one(&adapter_lambda, &cat, 0, body, len, offer_store_cb, &s,
					   &queued, &err),
			 GC_OK);
	assert_int_equal(queued, 0);
	assert_int_equal(s.n, 2);
	const struct offer *a = find(&s, "gpu_1x_a100");
	assert_non_null(a);
	assert_string_equal(a->provider, "lambda");
	assert_string_equal(a->source, "live");
	assert_string_equal(a->region, "us-tx-1");
	assert_float_equal(a->price_hr, 0.80, 1e-9);
	assert_float_equal(a->gpu_count, 1, 0);
	assert_float_equal(a->vcpus, 24, 0);
	assert_float_equal(a->ram_gb, 800, 0);
	assert_int_equal(a->available, 1);
	const struct offer *b = find(&s, "gpu_4x_a6000");
	assert_non_null(b);
	assert_float_equal(b->gpu_count, 4, 0);
	assert_float_equal(b->price_hr, 1.10, 1e-9);
	assert_string_equal(b->region, "us-az-1");
	offer_store_free(&s);
	free(body);
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
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(refresh_parse_one(&adapter_lambda, &cat, 0, sold_out, strlen(sold_out),
					   offer_store_cb, &s, NULL, &err),
			 GC_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.items[0].available, 0);
	assert_string_equal(s.items[0].gpu, "h100-sxm");
	assert_float_equal(s.items[0].price_hr, 23.92, 1e-9);
	offer_store_free(&s);

	const char *html = "<html><body>502 Bad Gateway</body></html>";
	assert_int_equal(refresh_parse_one(&adapter_lambda, &cat, 0, html, strlen(html), NULL, NULL,
					   NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "HTML"));
	free(err);
	err = NULL;
	assert_int_equal(refresh_parse_one(&adapter_lambda, &cat, 0, sold_out, 40, NULL, NULL, NULL,
					   &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "not valid JSON"));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_instance_types),
		cmocka_unit_test(test_sold_out_and_bad_bodies),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
