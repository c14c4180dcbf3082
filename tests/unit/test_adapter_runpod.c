/* test_adapter_runpod.c - the RunPod adapter on RunPod's documented
 * gpuTypes answers, per-data-center offers, the Bearer key, GraphQL errors
 * and hostile values. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_runpod;
#define AD adapter_runpod
#define FIX "tests/fixtures/http/runpod"

#include "adapter_testutil.h"

/* One POST of the gpuTypes and dataCenters query; the key goes in
 * "Authorization: Bearer", as RunPod's SDK and CLI send it. */
static void test_request(void **state)
{
	(void)state;
	struct harness h;
	struct adapter_request *r =
		h_start(&h, "http://127.0.0.1:1", NULL, "http://127.0.0.1:1/graphql");
	assert_string_equal(r->method, "POST");
	assert_non_null(strstr(r->body, "lowestPrice(input: {gpuCount: 1})"));
	assert_non_null(strstr(r->body, "uninterruptablePrice"));
	assert_non_null(strstr(r->body, "securePrice secureSpotPrice"));
	assert_non_null(
		strstr(r->body, "dataCenters { id gpuAvailability { gpuTypeId stockStatus } }"));
	assert_null(strstr(r->url, "api_key"));
	/* the body is JSON */
	json_t *j = json_loads(r->body, 0, NULL);
	assert_non_null(j);
	assert_true(json_is_string(json_object_get(j, "query")));
	json_decref(j);
	assert_null(adapter_next(&h.run));
	drop_request(r);
	h_free(&h);
	assert_int_equal(AD.auth, ADAPTER_AUTH_OPTIONAL);
	assert_int_equal(AD.key_style, ADAPTER_KEY_BEARER);
}

static void test_documented_answers(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(0, FIX "/gpu-types.json", &s, 0, 1);
	const struct offer *o = &s.items[0];
	assert_string_equal(o->provider, "runpod");
	assert_string_equal(o->sku, "NVIDIA GeForce RTX 3090");
	assert_string_equal(o->gpu_name, "NVIDIA GeForce RTX 3090");
	assert_string_equal(o->gpu, "rtx-3090");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 24, 0);
	assert_float_equal(o->price_hr, 0.3, 1e-12);
	assert_float_equal(o->spot_price_hr, 0.163, 1e-12);
	assert_string_equal(o->region, "unknown");
	assert_int_equal(o->available, -1);
	assert_true(isnan(o->vcpus));
	offer_store_free(&s);

	/* the GPU type list has no prices: no offers, no error */
	expect_parsed_file(0, FIX "/gpu-types-list.json", &s, 0, 0);
	offer_store_free(&s);
}

/* stockStatus, minVcpu / minMemory; the display name when the id is unknown. */
static void test_stock_and_names(void **state)
{
	(void)state;
	const char *body =
		"{\"data\":{\"gpuTypes\":["
		"{\"id\":\"NVIDIA H100 80GB HBM3\",\"displayName\":\"H100 SXM\",\"memoryInGb\":80,"
		"\"lowestPrice\":{\"minimumBidPrice\":null,\"uninterruptablePrice\":2.69,"
		"\"minVcpu\":16,\"minMemory\":125,\"stockStatus\":\"High\"}},"
		"{\"id\":\"NVIDIA A40\",\"displayName\":\"A40\",\"memoryInGb\":48,"
		"\"lowestPrice\":{\"minimumBidPrice\":0.2,\"uninterruptablePrice\":0.4,"
		"\"stockStatus\":null}},"
		"{\"id\":\"NVIDIA GeForce RTX 3090 Special\",\"displayName\":\"RTX 3090\","
		"\"memoryInGb\":24,\"lowestPrice\":{\"uninterruptablePrice\":0.22,"
		"\"minimumBidPrice\":0,\"stockStatus\":\"Low\"}},"
		"{\"id\":\"Mystery GPU\",\"displayName\":\"Mystery\",\"memoryInGb\":7,"
		"\"lowestPrice\":{\"uninterruptablePrice\":0.1}}"
		"]}}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 4);
	const struct offer *h = must_find(&s, "NVIDIA H100 80GB HBM3", NULL);
	assert_string_equal(h->gpu, "h100-sxm");
	assert_int_equal(h->available, 1);
	assert_float_equal(h->vcpus, 16, 0);
	assert_float_equal(h->ram_gb, 125, 0);
	assert_float_equal(h->price_hr, 2.69, 1e-12);
	assert_true(isnan(h->spot_price_hr));
	const struct offer *a = must_find(&s, "NVIDIA A40", NULL);
	assert_string_equal(a->gpu, "a40");
	assert_int_equal(a->available, 0);
	const struct offer *r = must_find(&s, "NVIDIA GeForce RTX 3090 Special", NULL);
	assert_string_equal(r->gpu, "rtx-3090"); /* from displayName */
	assert_int_equal(r->available, 1);
	assert_true(isnan(r->spot_price_hr)); /* 0 = not offered */
	const struct offer *m = must_find(&s, "Mystery GPU", NULL);
	assert_null(m->gpu);
	assert_string_equal(m->gpu_name, "Mystery GPU");
	offer_store_free(&s);
}

static void test_errors_and_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	assert_int_equal(parse_str(0,
				   "{\"errors\":[{\"message\":\"Cannot query field \\\"x\\\" on "
				   "type \\\"GpuType\\\".\\n\"}],\"data\":null}",
				   NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "RunPod GraphQL error: Cannot query field \"x\""));
	assert_null(strchr(err, '\n'));
	free(err);
	expect_refused(0, "<html><head><title>403 Forbidden</title></head></html>", "HTML");
	expect_refused(0, "{\"data\":{\"gpuTypes\":[{\"id\":\"NVIDIA A40\",\"lowestPr",
		       "not valid JSON");
	const char *shapes[] = {"{}", "[]", "null", "{\"data\":{}}", "{\"data\":{\"gpuTypes\":{}}}",
				"{\"errors\":\"boom\"}", "{\"errors\":[{\"message\":5}]}"};
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		expect_refused(0, shapes[i], NULL);
	expect_empty(0, "{\"data\":{\"gpuTypes\":[]}}");
}

static void test_hostile_values(void **state)
{
	(void)state;
	const char *body =
		"{\"data\":{\"gpuTypes\":[1,null,\"x\",{},{\"id\":7},"
		"{\"id\":\"NVIDIA A40\",\"lowestPrice\":[]},"
		"{\"id\":\"NVIDIA A40\",\"lowestPrice\":{\"uninterruptablePrice\":\"abc\"}},"
		"{\"id\":\"NVIDIA A40\",\"lowestPrice\":{\"uninterruptablePrice\":-5,"
		"\"minimumBidPrice\":-1}},"
		"{\"id\":\"NVIDIA L4\",\"memoryInGb\":\"lots\",\"lowestPrice\":{"
		"\"uninterruptablePrice\":0.44,\"minVcpu\":-3,\"minMemory\":1e300,"
		"\"stockStatus\":42}},"
		"{\"id\":\"NVIDIA A40\",\"lowestPrice\":{\"uninterruptablePrice\":1e308}},"
		"{\"displayName\":\"RTX 3090\",\"memoryInGb\":-24,\"lowestPrice\":{"
		"\"uninterruptablePrice\":\"0.25\",\"stockStatus\":\"\"}}"
		"]}}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 2);
	const struct offer *l = must_find(&s, "NVIDIA L4", NULL);
	assert_string_equal(l->gpu, "l4");
	assert_true(isnan(l->vcpus));
	assert_true(isnan(l->ram_gb));
	assert_int_equal(l->available, -1);
	assert_float_equal(l->gpu_mem_gb, 24, 0); /* from the table, not "lots" */
	assert_null(find(&s, "NVIDIA A40", NULL)); /* 1e308 $/h is garbage, not a price */
	const struct offer *r = must_find(&s, "RTX 3090", NULL);
	assert_string_equal(r->gpu, "rtx-3090");
	assert_float_equal(r->price_hr, 0.25, 1e-12);
	assert_int_equal(r->available, 0);
	offer_store_free(&s);
}

/* The constructed answer with data centers (runpod.routes serves it): one offer
 * per data center naming the type, at the Secure Cloud price, available as
 * its stockStatus says; the cheapest-anywhere offer in region "unknown"
 * stays only for a type on Community Cloud. */
static void test_data_centers(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(0, FIX "/gpu-types-dc.json", &s, 0, 4);
	const struct offer *h = must_find(&s, "NVIDIA H100 80GB HBM3", "US-IL-1");
	assert_string_equal(h->gpu, "h100-sxm");
	assert_int_equal(h->available, 1);
	assert_float_equal(h->price_hr, 2.99, 1e-12);
	assert_true(isnan(h->spot_price_hr)); /* secureSpotPrice null */
	assert_float_equal(h->gpu_count, 1, 0);
	assert_float_equal(h->gpu_mem_gb, 80, 0);
	assert_true(isnan(h->vcpus)); /* minVcpu is the cheapest machine's */
	const struct offer *ro = must_find(&s, "NVIDIA H100 80GB HBM3", "EU-RO-1");
	assert_int_equal(ro->available, 0); /* stockStatus null */
	assert_null(find(&s, "NVIDIA H100 80GB HBM3", "unknown")); /* Secure Cloud only */
	assert_null(find(&s, NULL, "AP-JP-1"));
	const struct offer *r = must_find(&s, "NVIDIA GeForce RTX 3090", "US-IL-1");
	assert_int_equal(r->available, 1);
	assert_float_equal(r->price_hr, 0.43, 1e-12);
	assert_float_equal(r->spot_price_hr, 0.22, 1e-12);
	const struct offer *c = must_find(&s, "NVIDIA GeForce RTX 3090", "unknown");
	assert_float_equal(c->price_hr, 0.3, 1e-12); /* lowestPrice, Community Cloud too */
	assert_float_equal(c->spot_price_hr, 0.163, 1e-12);
	assert_float_equal(c->vcpus, 4, 0);
	assert_int_equal(c->available, 1);
	offer_store_free(&s);
}

/* Hostile data centers: rows without an id or a type id are skipped, a
 * stockStatus of "" is unavailable, a non-string one unknown, a data center
 * list that is not an array counts as none. */
static void test_hostile_data_centers(void **state)
{
	(void)state;
	const char *body =
		"{\"data\":{\"gpuTypes\":[{\"id\":\"NVIDIA A40\",\"memoryInGb\":48,"
		"\"securePrice\":0.4,\"lowestPrice\":{\"uninterruptablePrice\":0.35}}],"
		"\"dataCenters\":[1,null,{},{\"id\":7},{\"id\":\"\",\"gpuAvailability\":"
		"[{\"gpuTypeId\":\"NVIDIA A40\",\"stockStatus\":\"High\"}]},"
		"{\"id\":\"CA-MTL-1\",\"gpuAvailability\":[1,{},{\"gpuTypeId\":5},"
		"{\"gpuTypeId\":\"NVIDIA A40\",\"stockStatus\":\"\"}]},"
		"{\"id\":\"US-TX-3\",\"gpuAvailability\":{\"gpuTypeId\":\"NVIDIA A40\"}},"
		"{\"id\":\"EU-SE-1\",\"gpuAvailability\":[{\"gpuTypeId\":\"NVIDIA A40\","
		"\"stockStatus\":3}]}]}}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 2);
	assert_int_equal(must_find(&s, "NVIDIA A40", "CA-MTL-1")->available, 0);
	assert_int_equal(must_find(&s, "NVIDIA A40", "EU-SE-1")->available, -1);
	assert_float_equal(must_find(&s, "NVIDIA A40", "EU-SE-1")->price_hr, 0.4, 1e-12);
	offer_store_free(&s);
	body = "{\"data\":{\"gpuTypes\":[{\"id\":\"NVIDIA A40\",\"lowestPrice\":"
	       "{\"uninterruptablePrice\":0.35}}],\"dataCenters\":{\"id\":\"US-TX-3\"}},"
	       "\"errors\":[{\"message\":\"x\"}]}";
	expect_parsed(0, body, &s, 0, 1);
	assert_float_equal(must_find(&s, "NVIDIA A40", "unknown")->price_hr, 0.35, 1e-12);
	offer_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request),
		cmocka_unit_test(test_documented_answers),
		cmocka_unit_test(test_stock_and_names),
		cmocka_unit_test(test_data_centers),
		cmocka_unit_test(test_hostile_data_centers),
		cmocka_unit_test(test_errors_and_bad_bodies),
		cmocka_unit_test(test_hostile_values),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
