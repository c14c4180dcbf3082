/* test_adapter_verda.c - the Verda adapter: OAuth token, then instance types
 * joined with availability, on the recorded responses. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_verda;
#define AD adapter_verda
#define FIX "tests/fixtures/http/verda"

#include "adapter_testutil.h"

enum { K_TOKEN, K_TYPES, K_AVAIL }; /* the adapter's request kinds */

/* The token request: a POST with the split key in a JSON body, no key attached. */
static void test_start_token_request(void **state)
{
	(void)state;
	struct harness h;
	char *err = NULL;
	h_init(&h, NULL, "my-id:sec:ret\"x");
	assert_int_equal(AD.start(&h.run, &err), GC_OK);
	assert_int_equal(h.run.nqueue, 1);
	struct adapter_request *r = &h.run.queue[0];
	assert_string_equal(r->url, "https://api.verda.com/v1/oauth2/token");
	assert_string_equal(r->method, "POST");
	assert_int_equal(r->no_key, 1);
	json_t *b = json_loads(r->body, 0, NULL);
	assert_non_null(b);
	assert_string_equal(json_string_value(json_object_get(b, "grant_type")),
			    "client_credentials");
	assert_string_equal(json_string_value(json_object_get(b, "client_id")), "my-id");
	assert_string_equal(json_string_value(json_object_get(b, "client_secret")), "sec:ret\"x");
	json_decref(b);
	h_free(&h);

	/* a key without the ':' is a usage error that does not echo the key */
	const char *bad[] = {"just-a-token", ":secret", "id:", NULL};
	for (size_t i = 0; bad[i]; i++) {
		h_init(&h, NULL, bad[i]);
		assert_int_equal(AD.start(&h.run, &err), GC_EUSAGE);
		assert_null(strstr(err, bad[i]));
		free(err);
		err = NULL;
		assert_int_equal(h.run.nqueue, 0);
		h_free(&h);
	}
}

/* The token answer queues both listings with the Bearer token, kept in secret2. */
static void test_token_response(void **state)
{
	(void)state;
	struct harness h;
	char *err = NULL;
	h_init(&h, NULL, "id:secret");
	assert_int_equal(h_file(&h, K_TOKEN, FIX "/token.json", &err), GC_OK);
	assert_string_equal(h.run.secret2, "access");
	assert_int_equal(h.run.nqueue, 2);
	assert_string_equal(h.run.queue[0].url, "https://api.verda.com/v1/instance-types");
	assert_int_equal(h.run.queue[0].kind, K_TYPES);
	assert_string_equal(h.run.queue[0].headers[0], "Authorization: Bearer access");
	assert_string_equal(h.run.queue[1].url,
			    "https://api.verda.com/v1/instance-availability?isSpot=false");
	assert_int_equal(h.run.queue[1].kind, K_AVAIL);
	assert_string_equal(h.run.queue[1].headers[0], "Authorization: Bearer access");
	assert_int_equal(h.store.n, 0);
	h_free(&h);

	/* no token, or one that would break the header */
	const char *bad[] = {"{\"error\":\"invalid_client\"}", "{\"access_token\":42}",
			     "{\"access_token\":\"\"}", "{\"access_token\":\"a\\r\\nX-Evil: 1\"}",
			     "[]", NULL};
	for (size_t i = 0; bad[i]; i++) {
		h_init(&h, NULL, "id:secret");
		assert_int_equal(h_parse(&h, K_TOKEN, bad[i], strlen(bad[i]), &err), GC_EDATA);
		assert_non_null(err);
		free(err);
		err = NULL;
		assert_int_equal(h.run.nqueue, 0);
		assert_null(h.run.secret2);
		h_free(&h);
	}
}

/* Instance types joined with availability: the recorded responses. */
static void test_joined(void **state)
{
	(void)state;
	struct harness h;
	char *err = NULL;
	h_init(&h, NULL, "id:secret");
	assert_int_equal(h_file(&h, K_TYPES, FIX "/instance-types.json", &err), GC_OK);
	assert_int_equal(h_file(&h, K_AVAIL, FIX "/instance-availability.json", &err), GC_OK);
	assert_int_equal(h.store.n, 0); /* nothing before finish() */
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	assert_int_equal(h.store.n, 3);

	/* listed nowhere: one unavailable offer */
	const struct offer *a = must_find(&h.store, "1H100.80S.30V", "unknown");
	assert_string_equal(a->provider, "verda");
	assert_string_equal(a->source, "live");
	assert_int_equal(a->available, 0);
	assert_string_equal(a->gpu, "h100-sxm");
	assert_string_equal(a->gpu_name, "H100 SXM5 80GB");
	assert_float_equal(a->gpu_count, 1, 0);
	assert_float_equal(a->gpu_mem_gb, 80, 0);
	assert_float_equal(a->price_hr, 3.95, 1e-9);
	assert_float_equal(a->spot_price_hr, 1.70, 1e-9);
	assert_float_equal(a->vcpus, 30, 0);
	assert_float_equal(a->ram_gb, 120, 0);
	assert_true(isnan(a->disk_gb)); /* "dynamic" storage */

	const struct offer *b = must_find(&h.store, "2A6000.20V", "FIN-01");
	assert_int_equal(b->available, 1);
	assert_string_equal(b->gpu, "rtx-a6000");
	assert_float_equal(b->gpu_count, 2, 0);
	assert_float_equal(b->gpu_mem_gb, 48, 0);
	assert_float_equal(b->price_hr, 1.98, 1e-9);
	assert_float_equal(b->spot_price_hr, 0.70, 1e-9);

	const struct offer *c = must_find(&h.store, "1V100.6V", "FIN-01");
	assert_int_equal(c->available, 1);
	assert_string_equal(c->gpu, "v100-sxm2-16gb");
	assert_float_equal(c->price_hr, 0.89, 1e-9);
	assert_float_equal(c->disk_gb, 225, 0);
	assert_int_equal(h.run.unknown_gpu, 0);
	h_free(&h);
}

/* Without an availability answer (refresh_parse_one): availability unknown. */
static void test_types_only(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(K_TYPES, FIX "/instance-types.json", &s, 0, 3);
	for (size_t i = 0; i < s.n; i++) {
		assert_int_equal(s.items[i].available, -1);
		assert_string_equal(s.items[i].region, "unknown");
	}
	offer_store_free(&s);
}

/* CPU types, another currency, hostile values. */
static void test_odd_values(void **state)
{
	(void)state;
	const char *types =
		"[{\"instance_type\":\"CPU.4V.16G\",\"gpu\":{\"description\":\"\","
		"\"number_of_gpus\":0},"
		"\"price_per_hour\":\"0.03\",\"spot_price\":\"0.01\",\"currency\":\"usd\"},"
		" {\"instance_type\":\"1A100.40S.22V\",\"currency\":\"eur\",\"price_per_hour\":"
		"\"1.00\","
		"\"spot_price\":\"0.50\",\"gpu\":{\"description\":\"1x A100 SXM4 40GB\","
		"\"number_of_gpus\":1},\"gpu_memory\":{\"size_in_gigabytes\":40}},"
		" {\"instance_type\":\"X.NEG\",\"price_per_hour\":\"-5\",\"spot_price\":\"NaN\","
		"\"gpu\":{\"description\":\"1x H100 SXM5 80GB\",\"number_of_gpus\":1}},"
		" {\"instance_type\":\"X.STR\",\"price_per_hour\":\"lots\",\"spot_price\":\"0.2\","
		"\"gpu\":{\"description\":7,\"number_of_gpus\":\"many\"},\"cpu\":\"x\"},"
		" {\"instance_type\":\"X.HUGE\",\"price_per_hour\":1e308,\"spot_price\":\"1e999\","
		"\"gpu\":{\"description\":\"99999999999999999999x H100\",\"number_of_gpus\":"
		"1e300}},"
		" {\"instance_type\":\"1AMD.7900.8V\",\"price_per_hour\":\"0.5\","
		"\"gpu\":{\"description\":\"1x AMD 7900XTX\",\"number_of_gpus\":1}},"
		" 17, null, {\"instance_type\":{}}, {}]";
	const char *avail =
		"[{\"location_code\":\"FIN-02\",\"availabilities\":[\"1A100.40S.22V\",3]},"
		" {\"location_code\":5,\"availabilities\":[\"1A100.40S.22V\"]},"
		" {\"availabilities\":\"1A100.40S.22V\"}, 9]";
	struct harness h;
	char *err = NULL;
	h_init(&h, NULL, "id:secret");
	assert_int_equal(h_parse(&h, K_TYPES, types, strlen(types), &err), GC_OK);
	assert_int_equal(h_parse(&h, K_AVAIL, avail, strlen(avail), &err), GC_OK);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);

	assert_null(find(&h.store, "CPU.4V.16G", "unknown")); /* no GPU */
	const struct offer *e = must_find(&h.store, "1A100.40S.22V", "FIN-02");
	assert_string_equal(e->currency, "EUR");
	assert_float_equal(e->price_native, 1.00, 1e-9);
	assert_float_equal(e->price_hr, 1.0411, 1e-9);
	assert_float_equal(e->spot_price_hr, 0.50 * 1.0411, 1e-9);
	assert_string_equal(e->gpu, "a100-sxm-40gb");
	assert_int_equal(e->available, 1);
	/* negative and NaN prices: nothing left to compare, dropped */
	assert_null(find(&h.store, "X.NEG", "unknown"));
	/* "many" GPUs: not a GPU offer we can count */
	assert_null(find(&h.store, "X.STR", "unknown"));
	/* a GPU count beyond reason is not trusted */
	assert_null(find(&h.store, "X.HUGE", "unknown"));
	/* an AMD 7900XTX: kept, GPU unknown to the table */
	const struct offer *amd = must_find(&h.store, "1AMD.7900.8V", "unknown");
	assert_null(amd->gpu);
	assert_string_equal(amd->gpu_name, "AMD 7900XTX");
	assert_int_equal(h.store.n, 2);
	h_free(&h);
}

/* HTML, truncated and wrong-shaped bodies. */
static void test_bad_bodies(void **state)
{
	(void)state;
	for (int kind = K_TOKEN; kind <= K_AVAIL; kind++)
		expect_refused(kind, "<html><body>502 Bad Gateway</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/instance-types.json", &len);
	expect_refused_len(K_TYPES, body, len / 2, "not valid JSON");
	free(body);
	expect_refused(K_TYPES, "{\"data\":[]}", NULL);
	expect_refused(K_AVAIL, "{\"data\":[]}", NULL);
	expect_empty(K_TYPES, "[]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_token_request),
		cmocka_unit_test(test_token_response),
		cmocka_unit_test(test_joined),
		cmocka_unit_test(test_types_only),
		cmocka_unit_test(test_odd_values),
		cmocka_unit_test(test_bad_bodies),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
