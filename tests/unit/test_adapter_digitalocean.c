/* test_adapter_digitalocean.c - the DigitalOcean adapter on its recorded
 * sizes, one page at a time and through its whole plan. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_digitalocean;
#define AD adapter_digitalocean
#define FIX "tests/fixtures/http/digitalocean"

#include "adapter_testutil.h"

/* Page 1: the H100 plan in its one region; the CPU plan is not an offer;
 * the next-page link is queued. */
static void test_first_page(void **state)
{
	(void)state;
	struct offer_store s;
	expect_parsed_file(0, FIX "/sizes.json", &s, 1, 1);
	const struct offer *o = must_find(&s, "gpu-h100x8-640gb", "nyc1");
	assert_string_equal(o->provider, "digitalocean");
	assert_string_equal(o->source, "live");
	assert_string_equal(o->gpu, "h100-sxm");
	assert_string_equal(o->gpu_name, "nvidia_h100");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->gpu_mem_gb, 80, 1e-9);
	assert_float_equal(o->price_hr, 23.92, 1e-9);
	assert_true(isnan(o->spot_price_hr));
	assert_float_equal(o->vcpus, 160, 0);
	assert_float_equal(o->ram_gb, 1920, 1e-9);
	assert_float_equal(o->disk_gb, 2046, 0);
	assert_int_equal(o->available, 1);
	offer_store_free(&s);
}

/* The whole plan: page 1, then page 2 through the re-rooted next link. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	expect_replay(FIX, &s, 2, 2);
	const struct offer *o = must_find(&s, "gpu-mi300x8-1536gb", "nyc1");
	assert_string_equal(o->gpu, "mi300x");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->gpu_mem_gb, 192, 1e-9);
	assert_float_equal(o->price_hr, 15.92, 1e-9);
	assert_int_equal(o->available, 1);
	must_find(&s, "gpu-h100x8-640gb", "nyc1");
	offer_store_free(&s);
}

/* A plan that is not available, or has no region, is kept as unavailable. */
static void test_availability(void **state)
{
	(void)state;
	const char *body =
		"{\"sizes\":[{\"slug\":\"gpu-l40sx1-48gb\",\"memory\":65536,\"vcpus\":8,"
		"\"disk\":500,\"price_hourly\":1.57,\"regions\":[\"tor1\",\"ams3\"],"
		"\"available\":false,\"gpu_info\":{\"count\":1,\"model\":\"nvidia_l40s\","
		"\"vram\":{\"amount\":48,\"unit\":\"gib\"}}},"
		"{\"slug\":\"gpu-4000adax1-20gb\",\"memory\":32768,\"vcpus\":8,\"disk\":500,"
		"\"price_hourly\":0.76,\"regions\":[],\"available\":true,\"gpu_info\":{"
		"\"count\":1,\"model\":\"nvidia_rtx_4000_ada_generation\"}}],\"links\":{}}";
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 3);
	const struct offer *o = must_find(&s, "gpu-l40sx1-48gb", "ams3");
	assert_int_equal(o->available, 0);
	assert_string_equal(o->gpu, "l40s");
	o = must_find(&s, "gpu-4000adax1-20gb", NULL);
	assert_string_equal(o->region, "unknown");
	assert_int_equal(o->available, 0);
	assert_string_equal(o->gpu, "rtx-4000-ada");
	offer_store_free(&s);
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA; an empty list is fine. */
static void test_bad_bodies(void **state)
{
	(void)state;
	expect_refused(0, "<html><body>502 Bad Gateway</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/sizes.json", &len);
	expect_refused_len(0, body, len / 2, "not valid JSON");
	free(body);
	expect_refused(0, "{}", "sizes");
	expect_refused(0, "{\"id\":\"unauthorized\",\"message\":\"Unable to authenticate you\"}",
		       "Unable to authenticate");
	expect_refused(0, "[1,2]", NULL);
	expect_empty(0, "{\"sizes\":[],\"links\":{},\"meta\":{\"total\":0}}");
}

/* Hostile values: no crash, no bogus offer, no key sent to another host. */
static void test_hostile(void **state)
{
	(void)state;
	const char *body =
		"{\"sizes\":["
		"{\"slug\":\"neg\",\"price_hourly\":-1,\"regions\":[\"nyc1\"],"
		"\"gpu_info\":{\"count\":1,\"model\":\"nvidia_h100\"}},"
		"{\"slug\":\"text\",\"price_hourly\":\"cheap\",\"regions\":[\"nyc1\"],"
		"\"gpu_info\":{\"count\":1,\"model\":\"nvidia_h100\"}},"
		"{\"slug\":\"huge\",\"price_hourly\":1,\"regions\":[\"nyc1\"],"
		"\"gpu_info\":{\"count\":1e300,\"model\":\"nvidia_h100\"}},"
		"{\"slug\":\"strnum\",\"price_hourly\":\"2.5\",\"memory\":\"x\",\"regions\":[7,"
		"\"\","
		"null,\"sfo3\"],\"available\":\"yes\",\"gpu_info\":{\"count\":\"2\",\"model\":5,"
		"\"vram\":{\"amount\":-80,\"unit\":\"parsecs\"}}},"
		"{\"slug\":\"noarr\",\"price_hourly\":1,\"regions\":\"nyc1\",\"gpu_info\":[]},"
		"{\"price_hourly\":1},\"oops\",null,42],"
		"\"links\":{\"pages\":{\"next\":7}}}";
	char *err = NULL;
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 1);
	const struct offer *o = must_find(&s, "strnum", "sfo3");
	assert_float_equal(o->price_hr, 2.5, 1e-9);
	assert_float_equal(o->gpu_count, 2, 0);
	assert_null(o->gpu); /* no GPU name at all */
	assert_true(isnan(o->ram_gb));
	assert_int_equal(o->available, -1);
	offer_store_free(&s);

	/* a next link to another host is refused, not followed with the key */
	const char *evil = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			   "\"https://evil.example/v2/sizes?page=2\"}}}";
	expect_refused(0, evil, "another host");
	const char *userinfo = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			       "\"https://api.digitalocean.com@evil.example/v2/sizes\"}}}";
	expect_refused(0, userinfo, NULL);
	/* a link on the API host, with a space, is queued (re-rooted, encoded) */
	const char *spaced = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			     "\"https://API.digitalocean.com:443/v2/sizes?page=2&x=a b\"}}}";
	assert_int_equal(queued_by(0, spaced), 1);
	struct adapter_run run;
	adapter_run_init(&run, &AD, "http://127.0.0.1:9", NULL);
	struct adapter_request req = {.kind = 0, .url = "http://127.0.0.1:9/v2/sizes?per_page=200"};
	assert_int_equal(AD.parse(&run, &req, spaced, strlen(spaced), &err), GC_OK);
	drop_request(next_request(&run, "http://127.0.0.1:9/v2/sizes?page=2&x=a%20b"));
	/* a link back to the page just read is not followed again */
	const char *loop = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			   "\"https://api.digitalocean.com/v2/sizes?per_page=200\"}}}";
	assert_int_equal(AD.parse(&run, &req, loop, strlen(loop), &err), GC_OK);
	assert_null(adapter_next(&run));
	adapter_run_release(&run);

	/* the other forms of a link, on a base URL with a path (a proxy) */
	adapter_run_init(&run, &AD, "http://127.0.0.1:9/do", NULL);
	const char *links[][2] = {
		{"/v2/sizes?page=3", "http://127.0.0.1:9/do/v2/sizes?page=3"},
		{"v2/sizes?page=4", "http://127.0.0.1:9/do/v2/sizes?page=4"},
		{"https://api.digitalocean.com:443/v2/sizes?page=5",
		 "http://127.0.0.1:9/do/v2/sizes?page=5"},
		{"http://127.0.0.1:9/v2/sizes?page=6", "http://127.0.0.1:9/do/v2/sizes?page=6"},
		/* a relative link that names a URL in its query stays relative */
		{"v2/sizes?next=https://evil.example/",
		 "http://127.0.0.1:9/do/v2/sizes?next=https://evil.example/"},
	};
	for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
		assert_int_equal(adapter_follow(&run, &req, links[i][0], &err), GC_OK);
		drop_request(next_request(&run, links[i][1]));
	}
	assert_int_equal(adapter_follow(&run, &req, "", &err), GC_OK);
	assert_int_equal(adapter_follow(&run, &req, NULL, &err), GC_OK);
	assert_null(adapter_next(&run));
	adapter_run_release(&run);
}

/* Numbers are plain decimals (hex strings are not numbers) and a price
 * below OFFER_MIN_PRICE_HR is no price; text is cleaned and cut at the
 * cache's door (str_field) as for every source. */
#define DO_SIZE(slug, price, extra)                                                        \
	"{\"slug\":\"" slug "\",\"price_hourly\":" price ",\"regions\":[\"nyc1\"]," extra      \
	"\"gpu_info\":{\"count\":1,\"model\":\"nvidia_h100\"}}"
static void test_numbers_and_text(void **state)
{
	(void)state;
	char region[700];
	memset(region, 'r', 600);
	region[600] = '\0';
	char body[4096];
	snprintf(body, sizeof body,
		 "{\"sizes\":"
		 "[" DO_SIZE("hex", "\"0x50\"", "") "," DO_SIZE("hexfloat", "\"0x1p3\"", "")
		 "," DO_SIZE("tiny", "1e-300", "") "," DO_SIZE("tinystr", "\"1e-300\"", "")
		 "," DO_SIZE("below", "0.0009", "") "," DO_SIZE("inf", "\"inf\"", "")
		 "," DO_SIZE("floor", "0.001", "\"memory\":\"0x400\",")
		 ",{\"slug\":\"c1\\u009b[2J\",\"price_hourly\":2,\"regions\":"
		 "[\"ams\\u0085\\u001b3\","
		 "\"%s\"],\"gpu_info\":{\"count\":1,\"model\":\"nvidia_h100\\u009f\"}}"
		 "]}",
		 region);
	struct offer_store s;
	expect_parsed(0, body, &s, 0, 3);
	const struct offer *o = must_find(&s, "floor", "nyc1");
	assert_float_equal(o->price_hr, OFFER_MIN_PRICE_HR, 0);
	assert_true(isnan(o->ram_gb)); /* "0x400" MiB is not a number */
	o = must_find(&s, "c1?[2J", "ams??3");
	assert_string_equal(o->gpu_name, "nvidia_h100?");
	o = &s.items[2];
	assert_int_equal(strlen(o->region), STR_FIELD_MAX);
	assert_int_equal(strspn(o->region, "r"), STR_FIELD_MAX);
	for (size_t i = 0; i < s.n; i++)
		if (!offer_price_ok(s.items[i].price_hr))
			fail_msg("%s stored with price %g", s.items[i].sku, s.items[i].price_hr);
	offer_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_page),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_availability),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_numbers_and_text),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
