/* test_adapter_hyperstack.c - the Hyperstack adapter: flavors joined with
 * the pricebook.  The fixtures follow the documented schemas; no recorded
 * response exists (tests/fixtures/http/hyperstack/README.md). */
#include <math.h>

#include "gpucmp/catalog.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/rates.h"
#include "gpucmp/refresh.h"
#include "testutil.h"

extern const struct adapter adapter_hyperstack;
#define AD adapter_hyperstack
#define FIX "tests/fixtures/http/hyperstack"

enum { K_FLAVORS, K_PRICEBOOK }; /* the adapter's request kinds */

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

static enum gc_status parse_str(int kind, const char *body, struct offer_store *s,
				size_t *queued, char **err)
{
	return refresh_parse_one(&AD, &cat, kind, body, strlen(body), offer_store_cb, s, queued,
				 err);
}

/* Both documents through one run, as refresh.c does; either may be NULL. */
static enum gc_status join(const char *flavors, const char *pricebook, struct offer_store *s,
			   char **err)
{
	struct adapter_run run;
	struct rate_table rates;
	assert_int_equal(rates_load_embedded(&rates, err), GC_OK);
	adapter_run_init(&run, &AD, AD.base_url, "k");
	run.gpus = cat.gpus;
	run.types = cat.types;
	run.rates = &rates;
	run.fetched_at = "2026-01-01T00:00:00Z";
	run.origin = AD.base_url;
	run.emit = offer_store_cb;
	run.emit_ctx = s;
	struct adapter_request req = {.kind = K_PRICEBOOK};
	enum gc_status st = GC_OK;
	if (pricebook)
		st = AD.parse(&run, &req, pricebook, strlen(pricebook), err);
	req.kind = K_FLAVORS;
	if (st == GC_OK && flavors)
		st = AD.parse(&run, &req, flavors, strlen(flavors), err);
	if (st == GC_OK)
		st = AD.finish(&run, err);
	adapter_run_release(&run);
	rates_free(&rates);
	return st;
}

/* The plan is the two requests; each document alone yields no offer. */
static void test_alone(void **state)
{
	(void)state;
	struct adapter_run run;
	char *err = NULL;
	adapter_run_init(&run, &AD, "http://h", "k");
	assert_int_equal(AD.start(&run, &err), GC_OK);
	struct adapter_request *r = adapter_next(&run);
	assert_string_equal(r->url, "http://h/v1/core/flavors");
	adapter_request_release(r);
	free(r);
	r = adapter_next(&run);
	assert_string_equal(r->url, "http://h/v1/pricebook");
	adapter_request_release(r);
	free(r);
	assert_null(adapter_next(&run));
	adapter_run_release(&run);
	assert_int_equal(AD.auth, ADAPTER_AUTH_REQUIRED);
	assert_string_equal(AD.key_name, "api_key");

	const char *files[] = {FIX "/flavors.json", FIX "/pricebook.json"};
	for (int k = K_FLAVORS; k <= K_PRICEBOOK; k++) {
		size_t len, queued = 9;
		char *body = read_source_file(files[k], &len);
		struct offer_store s;
		offer_store_init(&s);
		assert_int_equal(refresh_parse_one(&AD, &cat, k, body, len, offer_store_cb, &s,
						   &queued, &err),
				 GC_OK);
		assert_int_equal(queued, 0);
		assert_int_equal(s.n, 0); /* no price without the pricebook, nothing to price */
		offer_store_free(&s);
		free(body);
	}
}

/* The whole plan from the routes: GPU price times count per flavor. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	offer_store_init(&s);
	size_t nreq = 0;
	char *err = NULL;
	assert_int_equal(replay(&s, &nreq, &err), GC_OK);
	assert_int_equal(nreq, 2);
	assert_int_equal(s.n, 2); /* the CPU-only flavor is not an offer */
	const struct offer *o = find(&s, "n3-A100x1", "CANADA-1");
	assert_non_null(o);
	assert_string_equal(o->provider, "hyperstack");
	assert_string_equal(o->gpu, "a100-pcie-80gb");
	assert_string_equal(o->gpu_name, "A100-80G-PCIe");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 80, 1e-9);
	assert_float_equal(o->price_hr, 1.35, 1e-12);
	assert_float_equal(o->vcpus, 28, 0);
	assert_float_equal(o->ram_gb, 120, 0);
	assert_float_equal(o->disk_gb, 850, 0);
	assert_int_equal(o->available, 1);
	o = find(&s, "n1-RTX-A6000x2", "CANADA-1");
	assert_non_null(o);
	assert_string_equal(o->gpu, "rtx-a6000");
	assert_float_equal(o->gpu_count, 2, 0);
	assert_float_equal(o->price_hr, 1.0, 1e-12); /* "0.5" per GPU, as a string */
	assert_int_equal(o->available, 0);
	offer_store_free(&s);
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA. */
static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	const char *html = "<html><body>502 Bad Gateway</body></html>";
	for (int k = K_FLAVORS; k <= K_PRICEBOOK; k++) {
		assert_int_equal(parse_str(k, html, NULL, NULL, &err), GC_EDATA);
		assert_non_null(strstr(err, "HTML"));
		free(err);
		err = NULL;
	}
	size_t len;
	char *body = read_source_file(FIX "/flavors.json", &len);
	assert_int_equal(refresh_parse_one(&AD, &cat, K_FLAVORS, body, len / 3, NULL, NULL, NULL,
					   &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "not valid JSON"));
	free(err);
	free(body);
	err = NULL;
	const char *denied = "{\"status\":false,\"message\":\"Invalid API key\"}";
	for (int k = K_FLAVORS; k <= K_PRICEBOOK; k++) {
		assert_int_equal(parse_str(k, denied, NULL, NULL, &err), GC_EDATA);
		assert_non_null(strstr(err, "Invalid API key"));
		free(err);
		err = NULL;
	}
	assert_int_equal(parse_str(K_FLAVORS, "{\"status\":true,\"data\":{}}", NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "data"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str(K_PRICEBOOK, "{\"status\":true}", NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "not an array"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str(7, "[]", NULL, NULL, &err), GC_EUSAGE);
	free(err);
	err = NULL;
	struct offer_store s;
	offer_store_init(&s);
	assert_int_equal(join("{\"status\":true,\"data\":[]}", "[]", &s, &err), GC_OK);
	assert_int_equal(s.n, 0);
	offer_store_free(&s);
}

/* Hostile values: no crash and no bogus offer. */
static void test_hostile(void **state)
{
	(void)state;
	const char *pricebook =
		"[{\"name\":\"H100-80G-PCIe\",\"value\":\"abc\",\"original_value\":1.9},"
		"{\"name\":\"L40\",\"value\":-5},{\"name\":\"RTX-A4000\",\"value\":\"1e999\"},"
		"{\"name\":\"A100-80G-PCIe\",\"value\":1.4},{\"name\":\"A100-80G-PCIe\",\"value\":9},"
		"{\"name\":7},null,\"x\",[]]";
	const char *flavors =
		"{\"status\":true,\"message\":\"ok\",\"data\":["
		"{\"gpu\":\"H100-80G-PCIe\",\"region_name\":\"NORWAY-1\",\"flavors\":["
		"{\"name\":\"n3-H100x1\",\"gpu_count\":1,\"cpu\":\"many\",\"ram\":null,"
		"\"disk\":-1,\"stock_available\":\"yes\"}]},"
		"{\"gpu\":\"L40\",\"region_name\":\"US-1\",\"flavors\":[{\"name\":\"n3-L40x1\","
		"\"gpu\":\"L40\",\"gpu_count\":1}]},"
		"{\"gpu\":\"RTX-A4000\",\"flavors\":[{\"name\":\"n3-RTX-A4000x1\",\"gpu_count\":1}]},"
		"{\"gpu\":\"A100-80G-PCIe\",\"flavors\":[{\"name\":\"big\",\"gpu_count\":1e12},"
		"{\"name\":\"word\",\"gpu_count\":\"two\"},{\"name\":\"n3-A100x2\",\"gpu_count\":2}]},"
		"{\"gpu\":\"A100-80G-PCIe\",\"flavors\":{\"name\":\"not-an-array\"}},"
		"{\"flavors\":[{\"gpu_count\":1}]},7,null]}";
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(join(flavors, pricebook, &s, &err), GC_OK);
	assert_int_equal(s.n, 2);
	const struct offer *o = find(&s, "n3-H100x1", "NORWAY-1");
	assert_non_null(o);
	assert_float_equal(o->price_hr, 1.9, 1e-12); /* original_value when value is junk */
	assert_true(isnan(o->vcpus) && isnan(o->ram_gb) && isnan(o->disk_gb));
	assert_int_equal(o->available, -1);
	o = find(&s, "n3-A100x2", NULL);
	assert_non_null(o);
	assert_string_equal(o->region, "unknown");
	assert_float_equal(o->price_hr, 2.8, 1e-12); /* the first of two entries */
	offer_store_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
