/* test_adapter_digitalocean.c - the DigitalOcean adapter on its recorded
 * sizes, one page at a time and through its whole plan. */
#include <math.h>

#include "gpucmp/catalog.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/rates.h"
#include "gpucmp/refresh.h"
#include "testutil.h"

extern const struct adapter adapter_digitalocean;
#define AD adapter_digitalocean
#define FIX "tests/fixtures/http/digitalocean"

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

static const struct offer *find(const struct offer_store *s, const char *sku, const char *region)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].sku, sku) == 0 &&
		    (!region || strcmp(s->items[i].region, region) == 0))
			return &s->items[i];
	return NULL;
}

/* The file the routes file (tests/fixtures/http/<id>.routes) serves for a
 * GET of `target`, matched as gpucmp-fixtured does: the first route whose
 * path is equal and whose query, when it has one, is equal too.  Caller
 * frees; NULL when no route matches. */
static char *route_file(const char *routes, const char *target)
{
	const char *q = strchr(target, '?');
	size_t plen = q ? (size_t)(q - target) : strlen(target);
	char line[2048];
	for (const char *p = routes; *p;) {
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		char *save, *method = strtok_r(line, " \t", &save);
		char *path = method ? strtok_r(NULL, " \t", &save) : NULL;
		if (!path || method[0] == '#' || strcmp(method, "GET") != 0)
			continue;
		char *rq = strchr(path, '?');
		if (rq)
			*rq++ = '\0';
		if (strlen(path) != plen || strncmp(path, target, plen) != 0 ||
		    (rq && strcmp(rq, q ? q + 1 : "") != 0))
			continue;
		for (char *opt; (opt = strtok_r(NULL, " \t", &save)) && opt[0] != '#';)
			if (strncmp(opt, "file=", 5) == 0)
				return strdup(opt + 5);
		return NULL;
	}
	return NULL;
}

/* Run the adapter's whole plan in process, each request answered from the
 * routes file; the base URL is a stand-in, like GPUCMP_<ID>_BASE_URL. */
static enum gc_status replay(struct offer_store *s, size_t *nreq, char **err)
{
	static const char base[] = "http://fixture.test";
	static char origin[1024];
	size_t rlen;
	char *routes = read_source_file(FIX ".routes", &rlen);
	struct rate_table rates;
	assert_int_equal(rates_load_embedded(&rates, err), GC_OK);
	struct adapter_run run;
	adapter_run_init(&run, &AD, base, NULL);
	run.gpus = cat.gpus;
	run.types = cat.types;
	run.rates = &rates;
	run.fetched_at = "2026-01-01T00:00:00Z";
	run.emit = offer_store_cb;
	run.emit_ctx = s;
	*nreq = 0;
	enum gc_status st = AD.start(&run, err);
	struct adapter_request *r;
	while (st == GC_OK && (r = adapter_next(&run))) {
		(*nreq)++;
		assert_int_equal(strncmp(r->url, base, strlen(base)), 0);
		char *file = route_file(routes, r->url + strlen(base));
		if (!file)
			fail_msg("no route for %s", r->url);
		char rel[512];
		snprintf(rel, sizeof rel, FIX "/%s", file);
		size_t len;
		char *body = read_source_file(rel, &len);
		snprintf(origin, sizeof origin, "%s", r->url);
		run.origin = origin;
		st = AD.parse(&run, r, body, len, err);
		free(body);
		free(file);
		adapter_request_release(r);
		free(r);
	}
	if (st == GC_OK && AD.finish)
		st = AD.finish(&run, err);
	adapter_run_release(&run);
	rates_free(&rates);
	free(routes);
	return st;
}

static enum gc_status parse_str(const char *body, struct offer_store *s, size_t *queued,
				char **err)
{
	return refresh_parse_one(&AD, &cat, 0, body, strlen(body), offer_store_cb, s, queued, err);
}

/* Page 1: the H100 plan in its one region; the CPU plan is not an offer;
 * the next-page link is queued. */
static void test_first_page(void **state)
{
	(void)state;
	size_t len, queued = 0;
	char *body = read_source_file(FIX "/sizes.json", &len);
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(refresh_parse_one(&AD, &cat, 0, body, len, offer_store_cb, &s, &queued,
					   &err),
			 GC_OK);
	assert_int_equal(queued, 1);
	assert_int_equal(s.n, 1);
	const struct offer *o = find(&s, "gpu-h100x8-640gb", "nyc1");
	assert_non_null(o);
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
	free(body);
}

/* The whole plan: page 1, then page 2 through the re-rooted next link. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	offer_store_init(&s);
	size_t nreq = 0;
	char *err = NULL;
	assert_int_equal(replay(&s, &nreq, &err), GC_OK);
	assert_int_equal(nreq, 2);
	assert_int_equal(s.n, 2);
	const struct offer *o = find(&s, "gpu-mi300x8-1536gb", "nyc1");
	assert_non_null(o);
	assert_string_equal(o->gpu, "mi300x");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->gpu_mem_gb, 192, 1e-9);
	assert_float_equal(o->price_hr, 15.92, 1e-9);
	assert_int_equal(o->available, 1);
	assert_non_null(find(&s, "gpu-h100x8-640gb", "nyc1"));
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
	offer_store_init(&s);
	char *err = NULL;
	size_t queued = 9;
	assert_int_equal(parse_str(body, &s, &queued, &err), GC_OK);
	assert_int_equal(queued, 0);
	assert_int_equal(s.n, 3);
	const struct offer *o = find(&s, "gpu-l40sx1-48gb", "ams3");
	assert_non_null(o);
	assert_int_equal(o->available, 0);
	assert_string_equal(o->gpu, "l40s");
	o = find(&s, "gpu-4000adax1-20gb", NULL);
	assert_non_null(o);
	assert_string_equal(o->region, "unknown");
	assert_int_equal(o->available, 0);
	assert_string_equal(o->gpu, "rtx-4000-ada");
	offer_store_free(&s);
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA; an empty list is fine. */
static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	const char *html = "<html><body>502 Bad Gateway</body></html>";
	assert_int_equal(parse_str(html, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "HTML"));
	free(err);
	err = NULL;
	size_t len;
	char *body = read_source_file(FIX "/sizes.json", &len);
	assert_int_equal(refresh_parse_one(&AD, &cat, 0, body, len / 2, NULL, NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "not valid JSON"));
	free(err);
	free(body);
	err = NULL;
	assert_int_equal(parse_str("{}", NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "sizes"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str("{\"id\":\"unauthorized\",\"message\":\"Unable to authenticate "
				   "you\"}",
				   NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "Unable to authenticate"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str("[1,2]", NULL, NULL, &err), GC_EDATA);
	free(err);
	err = NULL;
	struct offer_store s;
	offer_store_init(&s);
	size_t queued = 9;
	assert_int_equal(parse_str("{\"sizes\":[],\"links\":{},\"meta\":{\"total\":0}}", &s,
				   &queued, &err),
			 GC_OK);
	assert_int_equal(s.n, 0);
	assert_int_equal(queued, 0);
	offer_store_free(&s);
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
		"{\"slug\":\"strnum\",\"price_hourly\":\"2.5\",\"memory\":\"x\",\"regions\":[7,\"\","
		"null,\"sfo3\"],\"available\":\"yes\",\"gpu_info\":{\"count\":\"2\",\"model\":5,"
		"\"vram\":{\"amount\":-80,\"unit\":\"parsecs\"}}},"
		"{\"slug\":\"noarr\",\"price_hourly\":1,\"regions\":\"nyc1\",\"gpu_info\":[]},"
		"{\"price_hourly\":1},\"oops\",null,42],"
		"\"links\":{\"pages\":{\"next\":7}}}";
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	size_t queued = 9;
	assert_int_equal(parse_str(body, &s, &queued, &err), GC_OK);
	assert_int_equal(queued, 0);
	assert_int_equal(s.n, 1);
	const struct offer *o = find(&s, "strnum", "sfo3");
	assert_non_null(o);
	assert_float_equal(o->price_hr, 2.5, 1e-9);
	assert_float_equal(o->gpu_count, 2, 0);
	assert_null(o->gpu); /* no GPU name at all */
	assert_true(isnan(o->ram_gb));
	assert_int_equal(o->available, -1);
	offer_store_free(&s);

	/* a next link to another host is refused, not followed with the key */
	const char *evil = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			   "\"https://evil.example/v2/sizes?page=2\"}}}";
	assert_int_equal(parse_str(evil, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "another host"));
	free(err);
	err = NULL;
	const char *userinfo = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			       "\"https://api.digitalocean.com@evil.example/v2/sizes\"}}}";
	assert_int_equal(parse_str(userinfo, NULL, NULL, &err), GC_EDATA);
	free(err);
	err = NULL;
	/* a link on the API host, with a space, is queued (re-rooted, encoded) */
	const char *spaced = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			     "\"https://API.digitalocean.com:443/v2/sizes?page=2&x=a b\"}}}";
	queued = 0;
	assert_int_equal(parse_str(spaced, NULL, &queued, &err), GC_OK);
	assert_int_equal(queued, 1);
	struct adapter_run run;
	adapter_run_init(&run, &AD, "http://127.0.0.1:9", NULL);
	struct adapter_request req = {.kind = 0, .url = "http://127.0.0.1:9/v2/sizes?per_page=200"};
	assert_int_equal(AD.parse(&run, &req, spaced, strlen(spaced), &err), GC_OK);
	struct adapter_request *r = adapter_next(&run);
	assert_non_null(r);
	assert_string_equal(r->url, "http://127.0.0.1:9/v2/sizes?page=2&x=a%20b");
	adapter_request_release(r);
	free(r);
	/* a link back to the page just read is not followed again */
	const char *loop = "{\"sizes\":[],\"links\":{\"pages\":{\"next\":"
			   "\"https://api.digitalocean.com/v2/sizes?per_page=200\"}}}";
	assert_int_equal(AD.parse(&run, &req, loop, strlen(loop), &err), GC_OK);
	assert_null(adapter_next(&run));
	adapter_run_release(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_page),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_availability),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
