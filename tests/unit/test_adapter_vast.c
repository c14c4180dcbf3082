/* test_adapter_vast.c - the Vast.ai adapter on its recorded offer, bad
 * bodies and hostile values. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_vast;
#define AD adapter_vast
#define FIX "tests/fixtures/http/vast"

#include "adapter_testutil.h"

/* The request: one POST with the filter, no pagination. */
static void test_request(void **state)
{
	(void)state;
	struct harness h;
	struct adapter_request *r =
		h_start(&h, "http://127.0.0.1:1", NULL, "http://127.0.0.1:1/api/v0/bundles/");
	assert_string_equal(r->method, "POST");
	assert_non_null(strstr(r->body, "\"rentable\":{\"eq\":true}"));
	assert_non_null(strstr(r->body, "\"limit\":3000"));
	assert_null(adapter_next(&h.run));
	drop_request(r);
	h_free(&h);
	assert_int_equal(AD.auth, ADAPTER_AUTH_OPTIONAL);
	assert_int_equal(AD.conditional, 0);
}

static void test_recorded_offer(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(0, FIX "/bundles.json", &s, 0, 1);
	const struct offer *o = &s.items[0];
	assert_string_equal(o->provider, "vast");
	assert_string_equal(o->source, "live");
	assert_string_equal(o->sku, "1x-RTX_4090-96-64393");
	assert_string_equal(o->gpu_name, "RTX 4090");
	assert_string_equal(o->gpu, "rtx-4090");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 24564 / 1024.0, 1e-9);
	assert_float_equal(o->price_hr, 0.2466759259259259, 1e-12);
	assert_float_equal(o->spot_price_hr, 0.2, 1e-12);
	assert_string_equal(o->region, "Guangxi, CN");
	assert_int_equal(o->available, 1);
	assert_float_equal(o->vcpus, 24, 0);
	assert_float_equal(o->ram_gb, 64393.0 * 24 / 96 / 1024, 1e-9);
	assert_float_equal(o->disk_gb, 1607.875, 1e-9);
	assert_string_equal(o->driver_version, "535.183.01");
	assert_string_equal(o->max_cuda, "12.2");
	assert_string_equal(o->currency, "USD");
	offer_store_free(&s);
}

/* Rented or unrentable machines are unavailable; an unknown GPU is kept. */
static void test_availability_and_unknown_gpu(void **state)
{
	(void)state;
	const char *body =
		"{\"offers\":["
		"{\"gpu_name\":\"H100 SXM\",\"num_gpus\":8,\"gpu_ram\":81559,\"cpu_cores\":224,"
		"\"cpu_cores_effective\":224,\"cpu_ram\":2064000,\"dph_total\":16.5,\"min_bid\":"
		"9.1,"
		"\"geolocation\":\"Texas, US\",\"rentable\":true,\"rented\":true,\"cuda_max_good\":"
		"\"12.8\"},"
		"{\"gpu_name\":\"Titan V\",\"num_gpus\":2,\"gpu_ram\":12288,\"dph_total\":0.3,"
		"\"geolocation\":\"Quebec, CA\",\"rentable\":false,\"rented\":false},"
		"{\"gpu_name\":\"RTX 3090\",\"num_gpus\":1,\"dph_total\":0.2}"
		"]}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 3);
	const struct offer *h = must_find(&s, NULL, "Texas, US");
	assert_string_equal(h->gpu, "h100-sxm");
	assert_string_equal(h->sku, "8x-H100_SXM-224-2064000");
	assert_float_equal(h->gpu_count, 8, 0);
	assert_int_equal(h->available, 0);
	assert_string_equal(h->max_cuda, "12.8");
	const struct offer *t = must_find(&s, NULL, "Quebec, CA");
	assert_null(t->gpu);
	assert_string_equal(t->gpu_name, "Titan V");
	assert_int_equal(t->available, 0);
	assert_true(isnan(t->spot_price_hr));
	assert_null(t->driver_version);
	const struct offer *u = must_find(&s, NULL, "unknown");
	assert_string_equal(u->gpu, "rtx-3090");
	assert_int_equal(u->available, -1);
	assert_string_equal(u->sku, "1x-RTX_3090-0-0");
	offer_store_free(&s);
}

static void test_bad_bodies(void **state)
{
	(void)state;
	expect_refused(0, "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", "HTML");

	size_t len;
	char *body = read_source_file(FIX "/bundles.json", &len);
	expect_refused_len(0, body, len / 2, "not valid JSON");
	free(body);

	expect_refused(0, "", NULL);
	expect_refused(0, "{}", "offers");
	expect_refused(0, "[{\"gpu_name\":\"RTX 4090\"}]", NULL);
	expect_refused(0, "{\"offers\":{\"gpu_name\":\"RTX 4090\"}}", NULL);
	/* an API error: its message, without the terminal escape */
	expect_refused(0,
		       "{\"success\":false,\"error\":\"invalid_args\",\"msg\":\"bad "
		       "\\u001b[31mquery\"}",
		       "vast.ai error: bad ?[31mquery");

	expect_empty(0, "{\"offers\":[]}");
}

/* Wrong types, negative and huge numbers: dropped or NAN, never a crash. */
static void test_hostile_values(void **state)
{
	(void)state;
	const char *body =
		"{\"offers\":[42,null,\"x\",[],{},"
		"{\"gpu_name\":\"RTX 4090\",\"num_gpus\":\"many\",\"dph_total\":0.3},"
		"{\"gpu_name\":\"RTX 4090\",\"num_gpus\":1,\"dph_total\":-1,\"min_bid\":-0.5},"
		"{\"gpu_name\":\"RTX 4090\",\"num_gpus\":1e300,\"dph_total\":0.3},"
		"{\"gpu_name\":12,\"num_gpus\":1,\"dph_total\":\"0.35\",\"min_bid\":\"cheap\","
		"\"gpu_ram\":1e300,\"cpu_cores\":-4,\"cpu_cores_effective\":\"x\",\"cpu_ram\":"
		"1e300,"
		"\"disk_space\":-1,\"geolocation\":7,\"rentable\":\"yes\",\"cuda_max_good\":1e300,"
		"\"driver_version\":[1]},"
		"{\"gpu_name\":\"RTX\\t4090  \\n x\",\"num_gpus\":2,\"dph_total\":1.5},"
		"{\"gpu_name\":\"RTX 4090\",\"num_gpus\":2,\"dph_total\":1e308}"
		"]}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 2);
	const struct offer *a = &s.items[0];
	assert_float_equal(a->price_hr, 0.35, 1e-12); /* a numeric string is a number */
	assert_true(isnan(a->spot_price_hr));
	assert_null(a->gpu);
	assert_string_equal(a->gpu_name, "");
	assert_string_equal(a->sku, "1x-unknown-0-0");
	assert_true(isnan(a->gpu_mem_gb));
	assert_true(isnan(a->vcpus));
	assert_true(isnan(a->ram_gb));
	assert_true(isnan(a->disk_gb));
	assert_string_equal(a->region, "unknown");
	assert_int_equal(a->available, -1);
	assert_null(a->max_cuda);
	assert_null(a->driver_version);
	const struct offer *b = &s.items[1];
	assert_string_equal(b->sku, "2x-RTX_4090_x-0-0");
	assert_float_equal(b->price_hr, 1.5, 1e-12); /* the 1e308 offer was dropped */
	offer_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_recorded_offer),
		cmocka_unit_test(test_availability_and_unknown_gpu),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_values),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
