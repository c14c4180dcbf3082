/* test_adapter_vast.c - the Vast.ai adapter on its recorded offer, bad
 * bodies and hostile values. */
#include <math.h>

#include "gpucmp/catalog.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/refresh.h"
#include "testutil.h"

extern const struct adapter adapter_vast;

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

static enum gc_status parse_str(const char *body, struct offer_store *s, size_t *queued,
				char **err)
{
	return refresh_parse_one(&adapter_vast, &cat, 0, body, strlen(body), s ? offer_store_cb : NULL,
				 s, queued, err);
}

static const struct offer *find_region(const struct offer_store *s, const char *region)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].region, region) == 0)
			return &s->items[i];
	return NULL;
}

/* The request: one POST with the filter, no pagination. */
static void test_request(void **state)
{
	(void)state;
	struct adapter_run run;
	char *err = NULL;
	adapter_run_init(&run, &adapter_vast, "http://127.0.0.1:1", NULL);
	assert_int_equal(adapter_vast.start(&run, &err), GC_OK);
	struct adapter_request *r = adapter_next(&run);
	assert_non_null(r);
	assert_string_equal(r->url, "http://127.0.0.1:1/api/v0/bundles/");
	assert_string_equal(r->method, "POST");
	assert_non_null(strstr(r->body, "\"rentable\":{\"eq\":true}"));
	assert_non_null(strstr(r->body, "\"limit\":3000"));
	assert_null(adapter_next(&run));
	adapter_request_release(r);
	free(r);
	adapter_run_release(&run);
	assert_int_equal(adapter_vast.auth, ADAPTER_AUTH_OPTIONAL);
	assert_int_equal(adapter_vast.conditional, 0);
}

static void test_recorded_offer(void **state)
{
	(void)state;
	size_t len, queued = 9;
	char *body = read_source_file("tests/fixtures/http/vast/bundles.json", &len);
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(refresh_parse_one(&adapter_vast, &cat, 0, body, len, offer_store_cb, &s,
					   &queued, &err),
			 GC_OK);
	assert_int_equal(queued, 0);
	assert_int_equal(s.n, 1);
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
	free(body);
}

/* Rented or unrentable machines are unavailable; an unknown GPU is kept. */
static void test_availability_and_unknown_gpu(void **state)
{
	(void)state;
	const char *body =
		"{\"offers\":["
		"{\"gpu_name\":\"H100 SXM\",\"num_gpus\":8,\"gpu_ram\":81559,\"cpu_cores\":224,"
		"\"cpu_cores_effective\":224,\"cpu_ram\":2064000,\"dph_total\":16.5,\"min_bid\":9.1,"
		"\"geolocation\":\"Texas, US\",\"rentable\":true,\"rented\":true,\"cuda_max_good\":\"12.8\"},"
		"{\"gpu_name\":\"Titan V\",\"num_gpus\":2,\"gpu_ram\":12288,\"dph_total\":0.3,"
		"\"geolocation\":\"Quebec, CA\",\"rentable\":false,\"rented\":false},"
		"{\"gpu_name\":\"RTX 3090\",\"num_gpus\":1,\"dph_total\":0.2}"
		"]}";
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(parse_str(body, &s, NULL, &err), GC_OK);
	assert_int_equal(s.n, 3);
	const struct offer *h = find_region(&s, "Texas, US");
	assert_non_null(h);
	assert_string_equal(h->gpu, "h100-sxm");
	assert_string_equal(h->sku, "8x-H100_SXM-224-2064000");
	assert_float_equal(h->gpu_count, 8, 0);
	assert_int_equal(h->available, 0);
	assert_string_equal(h->max_cuda, "12.8");
	const struct offer *t = find_region(&s, "Quebec, CA");
	assert_non_null(t);
	assert_null(t->gpu);
	assert_string_equal(t->gpu_name, "Titan V");
	assert_int_equal(t->available, 0);
	assert_true(isnan(t->spot_price_hr));
	assert_null(t->driver_version);
	const struct offer *u = find_region(&s, "unknown");
	assert_non_null(u);
	assert_string_equal(u->gpu, "rtx-3090");
	assert_int_equal(u->available, -1);
	assert_string_equal(u->sku, "1x-RTX_3090-0-0");
	offer_store_free(&s);
}

static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	const char *html = "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>";
	assert_int_equal(parse_str(html, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "HTML"));
	free(err);
	err = NULL;

	size_t len;
	char *body = read_source_file("tests/fixtures/http/vast/bundles.json", &len);
	assert_int_equal(refresh_parse_one(&adapter_vast, &cat, 0, body, len / 2, NULL, NULL, NULL,
					   &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "not valid JSON"));
	free(err);
	err = NULL;
	free(body);

	assert_int_equal(parse_str("", NULL, NULL, &err), GC_EDATA);
	free(err);
	err = NULL;
	assert_int_equal(parse_str("{}", NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "offers"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str("[{\"gpu_name\":\"RTX 4090\"}]", NULL, NULL, &err), GC_EDATA);
	free(err);
	err = NULL;
	assert_int_equal(parse_str("{\"offers\":{\"gpu_name\":\"RTX 4090\"}}", NULL, NULL, &err),
			 GC_EDATA);
	free(err);
	err = NULL;
	/* an API error: its message, without the terminal escape */
	assert_int_equal(parse_str("{\"success\":false,\"error\":\"invalid_args\","
				   "\"msg\":\"bad \\u001b[31mquery\"}",
				   NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "vast.ai error: bad  [31mquery"));
	free(err);
	err = NULL;

	struct offer_store s;
	offer_store_init(&s);
	assert_int_equal(parse_str("{\"offers\":[]}", &s, NULL, &err), GC_OK);
	assert_int_equal(s.n, 0);
	offer_store_free(&s);
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
		"\"gpu_ram\":1e300,\"cpu_cores\":-4,\"cpu_cores_effective\":\"x\",\"cpu_ram\":1e300,"
		"\"disk_space\":-1,\"geolocation\":7,\"rentable\":\"yes\",\"cuda_max_good\":1e300,"
		"\"driver_version\":[1]},"
		"{\"gpu_name\":\"RTX\\t4090  \\n x\",\"num_gpus\":2,\"dph_total\":1.5},"
		"{\"gpu_name\":\"RTX 4090\",\"num_gpus\":2,\"dph_total\":1e308}"
		"]}";
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(parse_str(body, &s, NULL, &err), GC_OK);
	assert_int_equal(s.n, 2);
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
	return cmocka_run_group_tests(tests, setup, teardown);
}
