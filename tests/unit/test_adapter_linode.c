/* test_adapter_linode.c - the Linode adapter on the recorded types and
 * region availability lists (each split in two pages), the join of the two,
 * region prices, bad bodies and hostile values. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_linode;
#define AD adapter_linode
#define FIX "tests/fixtures/http/linode"

#include "adapter_testutil.h"

enum { K_TYPES, K_AVAIL }; /* the adapter's request kinds */

/* The first request, page 2 queued from page 1, then after the last page of
 * types the availability list and its page 2. */
static void test_requests(void **state)
{
	(void)state;
	struct harness h;
	char *err = NULL;
	struct adapter_request *r =
		h_start(&h, "http://127.0.0.1:1", NULL, "http://127.0.0.1:1/v4/linode/types");
	assert_int_equal(h_answer(&h, r, FIX "/types.json", &err), GC_OK);
	drop_request(r);
	r = next_request(&h.run, "http://127.0.0.1:1/v4/linode/types?page=2");
	assert_null(adapter_next(&h.run));
	assert_int_equal(h_answer(&h, r, FIX "/types-page2.json", &err), GC_OK);
	drop_request(r);
	r = next_request(&h.run, "http://127.0.0.1:1/v4/regions/availability");
	assert_int_equal(r->kind, K_AVAIL);
	assert_int_equal(h_answer(&h, r, FIX "/availability.json", &err), GC_OK);
	drop_request(r);
	r = next_request(&h.run, "http://127.0.0.1:1/v4/regions/availability?page=2");
	assert_int_equal(r->kind, K_AVAIL);
	assert_int_equal(h_answer(&h, r, FIX "/availability-page2.json", &err), GC_OK);
	drop_request(r);
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

	/* page 2 of 2: the availability list comes next */
	expect_parsed_file(0, FIX "/types-page2.json", &s, 1, 1);
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
	expect_parsed(0, body, &s, 1, 3);
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
	expect_empty(K_AVAIL, "{\"data\":[],\"page\":1,\"pages\":1,\"results\":0}");
	/* the availability list's own shape errors */
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		expect_refused(K_AVAIL, shapes[i], NULL);
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
		"{\"id\":\"g1-gpu-rtx6000-4\",\"label\":42,\"gpus\":4,\"vcpus\":-1,\"memory\":"
		"\"x\","
		"\"disk\":1e300,\"price\":[6],\"region_prices\":{\"id\":\"x\"}},"
		"{\"id\":\"g1-gpu-rtx6000-5\",\"label\":\"+ + x1\",\"gpus\":1,"
		"\"price\":{\"hourly\":\"2.5\"},\"region_prices\":\"none\"}"
		"],\"page\":1,\"pages\":1e12}";
	struct offer_store s;
	/* "pages" out of range reads as unknown: no runaway pagination */
	expect_parsed(0, body, &s, 1, 1); /* the one queued: the availability list */
	const struct offer *o = must_find(&s, "g1-gpu-rtx6000-5", "unknown");
	assert_string_equal(o->gpu_name, "");
	assert_null(o->gpu);
	assert_float_equal(o->price_hr, 2.5, 1e-12);
	offer_store_free(&s);

	/* a page past the last, or a negative page: no next page (of types,
	 * the availability list; of availability, nothing) */
	assert_int_equal(queued_by(0, "{\"data\":[],\"page\":5,\"pages\":2}"), 1);
	assert_int_equal(queued_by(0, "{\"data\":[],\"page\":-1,\"pages\":2}"), 1);
	assert_int_equal(queued_by(0, "{\"data\":[],\"page\":\"1\",\"pages\":\"3\"}"), 1);
	assert_int_equal(queued_by(K_AVAIL, "{\"data\":[],\"page\":5,\"pages\":2}"), 0);
	assert_int_equal(queued_by(K_AVAIL, "{\"data\":[],\"page\":1,\"pages\":1e12}"), 0);
	assert_int_equal(queued_by(K_AVAIL, "{\"data\":[],\"page\":1,\"pages\":2}"), 1);
}

/* The whole plan on the recordings: each RTX 6000 type in the 12 regions
 * the availability pages name, available where Linode says so (us-southeast,
 * ap-south, ap-west), not elsewhere; no offer in region "unknown" is left. */
static void test_availability_join(void **state)
{
	(void)state;
	struct offer_store s;
	expect_replay(FIX, &s, 4, 24);
	assert_null(find(&s, NULL, "unknown"));
	static const char *const yes[] = {"us-southeast", "ap-south", "ap-west"};
	static const char *const no[] = {"us-central", "us-west", "us-east", "eu-west",
					 "eu-central", "ap-northeast", "ca-central",
					 "ap-southeast", "us-iad"};
	static const char *const skus[] = {"g1-gpu-rtx6000-1", "g1-gpu-rtx6000-2"};
	for (size_t k = 0; k < 2; k++) {
		for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
			assert_int_equal(must_find(&s, skus[k], yes[i])->available, 1);
		for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
			assert_int_equal(must_find(&s, skus[k], no[i])->available, 0);
	}
	const struct offer *o = must_find(&s, "g1-gpu-rtx6000-2", "ap-west"); /* page 2 of each */
	assert_string_equal(o->gpu, "quadro-rtx-6000");
	assert_float_equal(o->gpu_count, 2, 0);
	assert_float_equal(o->price_hr, 3.0, 1e-12); /* no region price: the base price */
	assert_float_equal(o->vcpus, 16, 0);
	assert_null(find(&s, "g6-nanode-1", NULL)); /* no GPU */
	offer_store_free(&s);
}

/* Region prices meet availability rows: a named region takes its region
 * price, a region price no row names is an offer of unknown availability,
 * a type no row names stays in region "unknown"; rows that are not
 * {region, plan, available: bool} are ignored. */
static void test_availability_and_region_prices(void **state)
{
	(void)state;
	const char *types =
		"{\"data\":[{\"id\":\"g2-gpu-rtx4000a1-s\",\"label\":\"RTX4000 Ada x1 Small\","
		"\"gpus\":1,\"vcpus\":8,\"price\":{\"hourly\":0.52},"
		"\"region_prices\":[{\"id\":\"id-cgk\",\"hourly\":0.62},"
		"{\"id\":\"br-gru\",\"hourly\":0.72}]},"
		"{\"id\":\"g1-gpu-rtx6000-1\",\"label\":\"Dedicated 32GB + RTX6000 GPU x1\","
		"\"gpus\":1,\"price\":{\"hourly\":1.5}}],\"page\":1,\"pages\":1}";
	const char *avail =
		"{\"data\":[{\"region\":\"id-cgk\",\"plan\":\"g2-gpu-rtx4000a1-s\",\"available\":"
		"true},"
		"{\"region\":\"us-east\",\"plan\":\"g2-gpu-rtx4000a1-s\",\"available\":false},"
		"{\"region\":\"us-ord\",\"plan\":\"g2-gpu-rtx4000a1-s\",\"available\":\"yes\"},"
		"{\"region\":\"\",\"plan\":\"g2-gpu-rtx4000a1-s\",\"available\":true},"
		"{\"plan\":\"g2-gpu-rtx4000a1-s\",\"available\":true},1,null,"
		"{\"region\":\"us-east\",\"plan\":\"g6-nanode-1\",\"available\":true}],"
		"\"page\":1,\"pages\":1}";
	struct harness h;
	char *err = NULL;
	h_init(&h, "http://127.0.0.1:1", NULL);
	assert_int_equal(h_parse(&h, K_TYPES, types, strlen(types), &err), GC_OK);
	assert_int_equal(h_parse(&h, K_AVAIL, avail, strlen(avail), &err), GC_OK);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	struct offer_store *s = &h.store;
	assert_int_equal(s->n, 4);
	const struct offer *cgk = must_find(s, "g2-gpu-rtx4000a1-s", "id-cgk");
	assert_int_equal(cgk->available, 1);
	assert_float_equal(cgk->price_hr, 0.62, 1e-12);
	const struct offer *east = must_find(s, "g2-gpu-rtx4000a1-s", "us-east");
	assert_int_equal(east->available, 0);
	assert_float_equal(east->price_hr, 0.52, 1e-12);
	assert_float_equal(east->vcpus, 8, 0);
	const struct offer *gru = must_find(s, "g2-gpu-rtx4000a1-s", "br-gru");
	assert_int_equal(gru->available, -1);
	assert_float_equal(gru->price_hr, 0.72, 1e-12);
	assert_null(find(s, "g2-gpu-rtx4000a1-s", "unknown"));
	assert_null(find(s, "g2-gpu-rtx4000a1-s", "us-ord"));
	const struct offer *rtx = must_find(s, "g1-gpu-rtx6000-1", "unknown");
	assert_int_equal(rtx->available, -1);
	h_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_recorded_pages),
		cmocka_unit_test(test_availability_join),
		cmocka_unit_test(test_availability_and_region_prices),
		cmocka_unit_test(test_region_prices_and_labels),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_values),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
