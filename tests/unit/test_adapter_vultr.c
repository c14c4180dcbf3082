/* test_adapter_vultr.c - the Vultr adapter: Cloud GPU and bare-metal plans
 * on the recorded responses, cursor pagination, bad bodies and hostile
 * values. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_vultr;
#define AD adapter_vultr
#define FIX "tests/fixtures/http/vultr"

#include "adapter_testutil.h"

enum { K_PLANS, K_METAL }; /* the adapter's request kinds */

/* Both lists are asked for; page 1's cursor is sent back URL-encoded. */
static void test_requests_and_cursor(void **state)
{
	(void)state;
	struct harness h;
	char *err = NULL;
	struct adapter_request *r =
		h_start(&h, "http://127.0.0.1:1/base", NULL,
			"http://127.0.0.1:1/base/v2/plans?type=all&per_page=500");
	assert_int_equal(r->kind, K_PLANS);
	assert_null(r->body);
	assert_int_equal(h_answer(&h, r, FIX "/plans.json", &err), GC_OK);
	drop_request(r);
	r = next_request(&h.run, "http://127.0.0.1:1/base/v2/plans-metal?per_page=500");
	assert_int_equal(r->kind, K_METAL);
	drop_request(r);
	r = next_request(&h.run, "http://127.0.0.1:1/base/v2/plans?type=all&per_page=500"
				 "&cursor=bmV4dF9fdmNnLWExMDAtNmMtNjBnLTQwdnJhbQ%3D%3D");
	assert_int_equal(r->kind, K_PLANS);
	drop_request(r);
	assert_null(adapter_next(&h.run));
	h_free(&h);
	assert_int_equal(AD.auth, ADAPTER_AUTH_NONE);
}

static void test_cloud_gpu_pages(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(K_PLANS, FIX "/plans.json", &s, 1, 2); /* page 2 */
	/* 4 GB of an 80 GB A100: a 1/20 slice */
	const struct offer *slice = must_find(&s, "vcg-a100-1c-6g-4vram", "ewr");
	assert_string_equal(slice->provider, "vultr");
	assert_string_equal(slice->gpu_name, "NVIDIA_A100");
	assert_string_equal(slice->gpu, "a100-sxm-80gb");
	assert_float_equal(slice->gpu_count, 1, 0);
	assert_float_equal(slice->gpu_fraction, 0.05, 1e-12);
	assert_float_equal(slice->gpu_mem_gb, 4, 0);
	assert_float_equal(slice->price_hr, 0.123, 1e-12);
	assert_true(isnan(slice->spot_price_hr));
	assert_float_equal(slice->vcpus, 1, 0);
	assert_float_equal(slice->ram_gb, 6, 0);
	assert_float_equal(slice->disk_gb, 70, 0);
	assert_int_equal(slice->available, 1);
	const struct offer *full = must_find(&s, "vcg-a100-12c-120g-80vram", "ewr");
	assert_string_equal(full->gpu, "a100-sxm-80gb");
	assert_float_equal(full->gpu_count, 1, 0);
	assert_float_equal(full->gpu_mem_gb, 80, 0);
	assert_float_equal(full->price_hr, 2.397, 1e-12);
	assert_float_equal(full->ram_gb, 120, 0);
	offer_store_free(&s);

	expect_parsed_file(K_PLANS, FIX "/plans-page2.json", &s, 0, 1); /* next "" ends it */
	const struct offer *half = must_find(&s, "vcg-a100-6c-60g-40vram", "ewr");
	/* half of an 80 GB A100 (Vultr slices the 80 GB card), not one A100 40GB */
	assert_string_equal(half->gpu, "a100-sxm-80gb");
	assert_float_equal(half->gpu_count, 1, 0); /* one GPU, half of it */
	assert_float_equal(half->gpu_fraction, 0.5, 0);
	assert_float_equal(half->gpu_mem_gb, 40, 0);
	assert_float_equal(half->price_hr, 1.397, 1e-12);
	offer_store_free(&s);
}

static void test_bare_metal(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(K_METAL, FIX "/plans-metal.json", &s, 0, 2);
	const struct offer *mi = must_find(&s, "vbm-256c-2048gb-8-mi300x-gpu", "ord");
	assert_string_equal(mi->gpu_name, "mi300x");
	assert_string_equal(mi->gpu, "mi300x");
	assert_float_equal(mi->gpu_count, 8, 0);
	assert_float_equal(mi->price_hr, 17.52, 1e-12);
	assert_float_equal(mi->spot_price_hr, 14.72, 1e-12);
	assert_float_equal(mi->vcpus, 256, 0);
	assert_float_equal(mi->ram_gb, 2321924 / 1024.0, 1e-9);
	assert_float_equal(mi->disk_gb, 3576 * 8, 0);
	assert_int_equal(mi->available, 1);
	const struct offer *h = must_find(&s, "vbm-112c-2048gb-8-h100-gpu", "sea");
	assert_string_equal(h->gpu, "h100-sxm");
	assert_float_equal(h->gpu_count, 8, 0);
	assert_float_equal(h->price_hr, 23.92, 1e-12);
	assert_float_equal(h->spot_price_hr, 18.4, 1e-12);
	assert_float_equal(h->vcpus, 224, 0);
	offer_store_free(&s);
}

/* Shapes seen in gpuhunt's newer Vultr tests: GPU plans without gpu_type
 * ("vdm"), gpu_count / gpu_vram_gb on metal, deploy flags, locations. */
static void test_other_shapes(void **state)
{
	(void)state;
	const char *plans =
		"{\"plans\":["
		"{\"id\":\"vcg-a40-24c-120g-48vram\",\"vcpu_count\":24,\"ram\":122880,\"disk\":"
		"1400,"
		"\"disk_type\":\"DEDICATEDMETAL\",\"monthly_cost\":1250,\"hourly_cost\":1.712,"
		"\"type\":\"vdm\",\"locations\":[\"blr\",\"\",\"ord\"],\"deploy_ondemand\":true,"
		"\"deploy_preemptible\":false,\"gpu_brand\":\"NVIDIA\"},"
		"{\"id\":\"vcg-a100-24c-240g-160vram\",\"vcpu_count\":24,\"ram\":245760,\"disk\":"
		"1400,"
		"\"hourly_cost\":4.8,\"type\":\"vcg\",\"locations\":[],\"gpu_vram_gb\":160,"
		"\"gpu_type\":\"NVIDIA_A100\"},"
		"{\"id\":\"vcg-mi325x-252c-2872g-1536vram\",\"vcpu_count\":252,\"ram\":2940928,"
		"\"disk\":14336,\"hourly_cost\":36.92,\"type\":\"vdm\",\"locations\":[\"ord\"],"
		"\"deploy_ondemand\":false,\"deploy_preemptible\":true,\"gpu_brand\":\"AMD\"},"
		"{\"id\":\"vcg-zz9-8c-32g-24vram\",\"vcpu_count\":8,\"hourly_cost\":0.9,"
		"\"type\":\"vcg\",\"locations\":[\"fra\"],\"gpu_vram_gb\":24,\"gpu_type\":"
		"\"NVIDIA_ZZ9\"},"
		"{\"id\":\"vc2-2c-4gb\",\"type\":\"vc2\",\"vcpu_count\":2,\"ram\":4096,\"disk\":80,"
		"\"hourly_cost\":0.027,\"locations\":[\"fra\"]}"
		"],\"meta\":{\"total\":5,\"links\":{\"next\":\"\",\"prev\":\"\"}}}";
	struct offer_store s;
	expect_parsed(K_PLANS, plans, &s, 0, 4);
	const struct offer *a40 = must_find(&s, "vcg-a40-24c-120g-48vram", "blr");
	assert_string_equal(a40->gpu_name, "a40");
	assert_string_equal(a40->gpu, "a40");
	assert_float_equal(a40->gpu_count, 1, 0);
	assert_float_equal(a40->gpu_mem_gb, 48, 0);
	must_find(&s, "vcg-a40-24c-120g-48vram", "ord");
	/* 160 GB of A100: two 80 GB GPUs; no location: one unavailable offer */
	const struct offer *two = must_find(&s, "vcg-a100-24c-240g-160vram", "unknown");
	assert_string_equal(two->gpu, "a100-sxm-80gb");
	assert_float_equal(two->gpu_count, 2, 0);
	assert_float_equal(two->gpu_mem_gb, 80, 0);
	assert_int_equal(two->available, 0);
	/* a GPU the table does not know: kept, one GPU */
	const struct offer *zz = must_find(&s, "vcg-zz9-8c-32g-24vram", "fra");
	assert_null(zz->gpu);
	assert_string_equal(zz->gpu_name, "NVIDIA_ZZ9");
	assert_float_equal(zz->gpu_count, 1, 0);
	/* not on demand and no preemptible price: dropped; vc2 has no GPU */
	assert_null(find(&s, "vcg-mi325x-252c-2872g-1536vram", "ord"));
	assert_null(find(&s, "vc2-2c-4gb", "fra"));
	offer_store_free(&s);

	const char *metal =
		"{\"plans_metal\":["
		"{\"id\":\"vbm-256c-3072gb-8-mi325x-gpu\",\"cpu_threads\":256,\"ram\":3145728,"
		"\"disk\":3576,\"hourly_cost\":36.92,\"gpu_count\":8,\"gpu_vram_gb\":2048,"
		"\"locations\":[\"ord\"]},"
		"{\"id\":\"vbm-64c-2048gb-l40-gpu\",\"cpu_count\":64,\"hourly_cost\":5,"
		"\"locations\":[\"ewr\"]},"
		"{\"id\":\"vbm-4c-32gb\",\"cpu_count\":4,\"cpu_threads\":8,\"ram\":32768,\"disk\":"
		"240,"
		"\"disk_count\":1,\"monthly_cost\":300,\"type\":\"SSD\",\"locations\":[\"dwf\"]}"
		"],\"meta\":{\"total\":3,\"links\":{\"next\":\"\",\"prev\":\"\"}}}";
	/* the l40 plan has no count in its id: unknown, so not an offer */
	expect_parsed(K_METAL, metal, &s, 0, 1);
	const struct offer *mi = must_find(&s, "vbm-256c-3072gb-8-mi325x-gpu", "ord");
	assert_string_equal(mi->gpu, "mi325x");
	assert_float_equal(mi->gpu_count, 8, 0);
	assert_float_equal(mi->gpu_mem_gb, 256, 0);
	assert_float_equal(mi->vcpus, 256, 0);
	offer_store_free(&s);
}

static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	expect_refused(K_PLANS, "<html><body>Bad Gateway</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/plans-metal.json", &len);
	expect_refused_len(K_METAL, body, len - 20, "not valid JSON");
	/* a metal body on the plans request (and the reverse) is the wrong shape */
	expect_refused_len(K_PLANS, body, len, "'plans'");
	free(body);
	assert_int_equal(parse_str(K_PLANS, "{\"error\":\"Invalid API token.\\u001b[0m\","
					    "\"status\":401}",
				   NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "Vultr error: Invalid API token."));
	assert_null(strchr(err, '\x1b'));
	free(err);
	const char *shapes[] = {"{}", "[]", "{\"plans\":{}}", "{\"plans\":null}", "\"plans\""};
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		expect_refused(K_PLANS, shapes[i], NULL);
	expect_empty(K_METAL, "{\"plans_metal\":[]}");
}

static void test_hostile_values(void **state)
{
	(void)state;
	const char *plans =
		"{\"plans\":[1,null,[],{},{\"id\":5},"
		"{\"id\":\"vcg-a100-1c-6g-4vram\",\"hourly_cost\":\"abc\",\"gpu_type\":"
		"\"NVIDIA_A100\","
		"\"gpu_vram_gb\":4,\"locations\":[\"ewr\"]},"
		"{\"id\":\"vcg-a100-1c-6g-4vram\",\"hourly_cost\":-1,\"gpu_type\":\"NVIDIA_A100\","
		"\"gpu_vram_gb\":4,\"locations\":[\"ewr\"]},"
		"{\"id\":\"vcg-\",\"hourly_cost\":0.5,\"gpu_vram_gb\":-5,\"locations\":\"ewr\","
		"\"ram\":-1,\"disk\":1e300,\"disk_count\":1e300,\"vcpu_count\":\"many\"},"
		"{\"id\":\"vcg-l40s-1-2-99999999999999999999vram\",\"hourly_cost\":1.2,"
		"\"gpu_type\":\"NVIDIA_L40S\",\"gpu_vram_gb\":1e300,\"gpu_count\":1e300,"
		"\"locations\":[1,null,\"fra\"]},"
		"{\"id\":\"vcg-a16-1c-2g-2vram\",\"hourly_cost\":0.05,\"gpu_type\":\"NVIDIA_A16\","
		"\"gpu_vram_gb\":\"2\",\"locations\":[\"ams\"]}"
		"],\"meta\":{\"links\":{\"next\":42}}}";
	struct offer_store s;
	expect_parsed(K_PLANS, plans, &s, 0, 2); /* a non-string cursor is no cursor */
	s.n = 0;
	offer_store_free(&s);
	const char *huge =
		"{\"plans\":[{\"id\":\"vcg-l40s-1-2-48vram\",\"hourly_cost\":1e308,"
		"\"gpu_type\":\"NVIDIA_L40S\",\"gpu_vram_gb\":48,\"locations\":[\"fra\"]}]}";
	expect_parsed(K_PLANS, huge, &s, 0, 0); /* 1e308 $/h is garbage, not a price */
	offer_store_free(&s);
	expect_parsed(K_PLANS, plans, &s, 0, 2);
	const struct offer *l = must_find(&s, "vcg-l40s-1-2-99999999999999999999vram", "fra");
	assert_string_equal(l->gpu, "l40s");
	assert_float_equal(l->gpu_count, 1, 0);
	const struct offer *a = must_find(&s, "vcg-a16-1c-2g-2vram", "ams");
	assert_string_equal(a->gpu, "a16");
	assert_float_equal(a->gpu_count, 1, 0);
	assert_float_equal(a->gpu_fraction, 2.0 / 16, 1e-12);
	offer_store_free(&s);

	/* the "vcg-" plan with no GPU name is not a GPU plan: skipped */
	const char *metal =
		"{\"plans_metal\":[{\"id\":\"vbm-gpu\",\"hourly_cost\":1,\"locations\":[\"x\"]},"
		"{\"id\":\"gpu\",\"hourly_cost\":1},{\"id\":\"-\",\"hourly_cost\":1},"
		"{\"id\":\"vbm-1c-1gb-99999999999-h100-gpu\",\"hourly_cost\":1,\"locations\":"
		"[\"x\"]},"
		"{\"id\":\"vbm-1c-1gb-8-h100-gpu\",\"hourly_cost\":1,\"gpu_count\":-2,"
		"\"gpu_vram_gb\":\"x\",\"cpu_threads\":1e300,\"locations\":[\"x\"]}]}";
	expect_parsed(K_METAL, metal, &s, 0, 1);
	assert_string_equal(s.items[0].sku, "vbm-1c-1gb-8-h100-gpu");
	assert_float_equal(s.items[0].gpu_count, 8, 0);
	assert_true(isnan(s.items[0].vcpus));
	offer_store_free(&s);

	/* a cursor longer than any real one fails instead of being cut */
	char *err = NULL;
	char big[2048];
	int n = snprintf(big, sizeof big, "{\"plans\":[],\"meta\":{\"links\":{\"next\":\"");
	memset(big + n, 'A', 600);
	snprintf(big + n + 600, sizeof big - (size_t)n - 600, "\"}}}");
	assert_int_equal(parse_str(K_PLANS, big, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "cursor"));
	free(err);
}

/* The "<N>vram" of a plan id is a plain decimal: strtod read "0x18vram"
 * as 24 GB. */
static void test_vram_in_id(void **state)
{
	(void)state;
	const char *plans =
		"{\"plans\":["
		"{\"id\":\"vcg-zz9-8c-32g-0x18vram\",\"vcpu_count\":8,\"hourly_cost\":0.9,"
		"\"type\":\"vcg\",\"locations\":[\"fra\"],\"gpu_type\":\"NVIDIA_ZZ9\"},"
		"{\"id\":\"vcg-zz9-8c-32g-24vram\",\"vcpu_count\":8,\"hourly_cost\":0.9,"
		"\"type\":\"vcg\",\"locations\":[\"fra\"],\"gpu_type\":\"NVIDIA_ZZ9\"}"
		"],\"meta\":{\"total\":2,\"links\":{\"next\":\"\",\"prev\":\"\"}}}";
	struct offer_store s;
	expect_parsed(K_PLANS, plans, &s, 0, 2);
	assert_true(isnan(must_find(&s, "vcg-zz9-8c-32g-0x18vram", "fra")->gpu_mem_gb));
	assert_float_equal(must_find(&s, "vcg-zz9-8c-32g-24vram", "fra")->gpu_mem_gb, 24, 0);
	offer_store_free(&s);
}

/* Every A100 size Vultr lists ("vcg-a100-*", as in public plan lists):
 * slices of one 80 GB A100 below 80 GB, whole 80 GB cards above; the GPU
 * id is the full card's every time, and the memory the slice's. */
static void test_a100_slices(void **state)
{
	(void)state;
	static const struct {
		const char *id;
		double vram, count;
	} want[] = {
		{"vcg-a100-1c-6g-4vram", 4, 0.05},     {"vcg-a100-1c-12g-8vram", 8, 0.1},
		{"vcg-a100-2c-15g-10vram", 10, 0.125}, {"vcg-a100-3c-30g-20vram", 20, 0.25},
		{"vcg-a100-6c-60g-40vram", 40, 0.5},   {"vcg-a100-12c-120g-80vram", 80, 1},
		{"vcg-a100-24c-240g-160vram", 160, 2}, {"vcg-a100-48c-480g-320vram", 320, 4},
		{"vcg-a100-96c-960g-640vram", 640, 8},
	};
	char body[4096];
	size_t n = (size_t)snprintf(body, sizeof body, "{\"plans\":[");
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		n += (size_t)snprintf(body + n, sizeof body - n,
				      "%s{\"id\":\"%s\",\"hourly_cost\":1,\"type\":\"vcg\","
				      "\"gpu_type\":\"NVIDIA_A100\",\"gpu_vram_gb\":%g,"
				      "\"locations\":[\"ewr\"]}",
				      i ? "," : "", want[i].id, want[i].vram);
	snprintf(body + n, sizeof body - n, "]}");
	struct offer_store s;
	expect_parsed(K_PLANS, body, &s, 0, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct offer *o = must_find(&s, want[i].id, "ewr");
		assert_string_equal(o->gpu, "a100-sxm-80gb");
		/* a slice is one GPU of its fraction (offer_clean) */
		assert_float_equal(o->gpu_count * o->gpu_fraction, want[i].count, 1e-12);
		assert_float_equal(o->gpu_mem_gb, want[i].count < 1 ? want[i].vram : 80, 1e-12);
	}
	offer_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vram_in_id),
		cmocka_unit_test(test_requests_and_cursor),
		cmocka_unit_test(test_cloud_gpu_pages),
		cmocka_unit_test(test_a100_slices),
		cmocka_unit_test(test_bare_metal),
		cmocka_unit_test(test_other_shapes),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile_values),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
