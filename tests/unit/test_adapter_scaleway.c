/* test_adapter_scaleway.c - the Scaleway adapter: products joined with
 * availability per zone, page by page, on the recorded catalog. */
#include <math.h>

#include "gpucmp/catalog.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/rates.h"
#include "gpucmp/refresh.h"
#include "testutil.h"

extern const struct adapter adapter_scaleway;
#define AD adapter_scaleway
#define FIX "tests/fixtures/http/scaleway"

/* The adapter's request kinds: ((page - 1) * 3 + zone) * 2 + endpoint, the
 * zones being fr-par-1, fr-par-2, pl-waw-2 and the endpoints products (0)
 * and availability (1). */
enum { K_PAR2_PRODUCTS = 2, K_PAR2_AVAIL = 3, K_PAR2_PRODUCTS_P2 = 8 };

static struct catalog cat;
static double eur_usd;

static int setup(void **state)
{
	(void)state;
	struct rate_table rates;
	char *err = NULL;
	if (rates_load_embedded(&rates, &err) != GC_OK)
		return -1;
	eur_usd = rates_usd(&rates, "EUR");
	rates_free(&rates);
	return isnan(eur_usd) ? -1 : load_embedded_catalog(&cat);
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

/* Products page 1 of fr-par-2 alone: the two GPU types, priced in EUR and
 * converted, availability unknown; page 2 is asked for. */
static void test_products_page(void **state)
{
	(void)state;
	size_t len, queued = 0;
	char *body = read_source_file(FIX "/servers.json", &len);
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	assert_int_equal(refresh_parse_one(&AD, &cat, K_PAR2_PRODUCTS, body, len, offer_store_cb,
					   &s, &queued, &err),
			 GC_OK);
	assert_int_equal(queued, 1);
	assert_int_equal(s.n, 2);
	const struct offer *o = find(&s, "L4-1-24G", "fr-par-2");
	assert_non_null(o);
	assert_string_equal(o->provider, "scaleway");
	assert_string_equal(o->gpu, "l4");
	assert_string_equal(o->gpu_name, "L4");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 24, 1e-9);
	assert_float_equal(o->vcpus, 8, 0);
	assert_float_equal(o->ram_gb, 48, 1e-9);
	assert_true(isnan(o->disk_gb));
	assert_string_equal(o->currency, "EUR");
	assert_float_equal(o->price_native, 0.7875, 1e-12);
	assert_float_equal(o->price_hr, 0.7875 * eur_usd, 1e-12);
	assert_int_equal(o->available, -1);
	o = find(&s, "H100-1-80G", "fr-par-2");
	assert_non_null(o);
	assert_string_equal(o->gpu, "h100-pcie");
	assert_float_equal(o->gpu_mem_gb, 80, 1e-9);
	assert_float_equal(o->ram_gb, 240, 1e-9);
	assert_float_equal(o->disk_gb, 3000, 1e-9);
	assert_float_equal(o->price_hr, 2.8665 * eur_usd, 1e-12);
	offer_store_free(&s);
	free(body);
}

/* The whole plan: three zones, two endpoints, pages until an empty one. */
static void test_replay(void **state)
{
	(void)state;
	struct offer_store s;
	offer_store_init(&s);
	size_t nreq = 0;
	char *err = NULL;
	assert_int_equal(replay(&s, &nreq, &err), GC_OK);
	/* 3 zones x 2 endpoints, + products pages 2 and 3, + availability page 2 */
	assert_int_equal(nreq, 9);
	assert_int_equal(s.n, 2); /* DEV1-S has no GPU */
	const struct offer *o = find(&s, "L4-1-24G", "fr-par-2");
	assert_non_null(o);
	assert_int_equal(o->available, 1);
	o = find(&s, "H100-1-80G", "fr-par-2");
	assert_non_null(o);
	assert_int_equal(o->available, 0); /* "shortage" */
	offer_store_free(&s);
}

/* A page of availability alone: nothing to offer, the next page queued;
 * "scarce" counts as available. */
static void test_availability(void **state)
{
	(void)state;
	struct adapter_run run;
	struct rate_table rates;
	struct offer_store s;
	char *err = NULL;
	offer_store_init(&s);
	assert_int_equal(rates_load_embedded(&rates, &err), GC_OK);
	adapter_run_init(&run, &AD, AD.base_url, NULL);
	run.gpus = cat.gpus;
	run.types = cat.types;
	run.rates = &rates;
	run.emit = offer_store_cb;
	run.emit_ctx = &s;
	const char *avail = "{\"servers\":{\"L40S-1-48G\":{\"availability\":\"scarce\"},"
			    "\"GPU-3070-S\":{\"availability\":\"unheard-of\"}}}";
	const char *prod =
		"{\"servers\":{\"L40S-1-48G\":{\"ncpus\":8,\"ram\":103079215104,\"gpu\":1,"
		"\"gpu_info\":{\"gpu_manufacturer\":\"NVIDIA\",\"gpu_name\":\"L40S\","
		"\"gpu_memory\":51539607552},\"hourly_price\":1.4,\"end_of_service\":false},"
		"\"GPU-3070-S\":{\"ncpus\":8,\"ram\":17179869184,\"gpu\":1,\"gpu_info\":{"
		"\"gpu_name\":\"RTX 3070\"},\"hourly_price\":0.98},"
		"\"RENDER-S\":{\"ncpus\":10,\"gpu\":1,\"hourly_price\":1.24,"
		"\"end_of_service\":true}}}";
	struct adapter_request req = {.kind = K_PAR2_AVAIL};
	assert_int_equal(AD.parse(&run, &req, avail, strlen(avail), &err), GC_OK);
	assert_int_equal(s.n, 0);
	assert_int_equal(run.nqueue - run.qhead, 1);
	req.kind = K_PAR2_PRODUCTS_P2; /* a second products page is merged in */
	assert_int_equal(AD.parse(&run, &req, prod, strlen(prod), &err), GC_OK);
	assert_int_equal(AD.finish(&run, &err), GC_OK);
	assert_int_equal(s.n, 2); /* RENDER-S is at end of service */
	const struct offer *o = find(&s, "L40S-1-48G", "fr-par-2");
	assert_non_null(o);
	assert_int_equal(o->available, 1);
	assert_string_equal(o->gpu, "l40s");
	o = find(&s, "GPU-3070-S", "fr-par-2");
	assert_non_null(o);
	assert_int_equal(o->available, -1);
	assert_string_equal(o->gpu, "rtx-3070");
	struct adapter_request *r;
	const char *want[] = {
		"https://api.scaleway.com/instance/v1/zones/fr-par-2/products/servers/availability"
		"?page=2&per_page=100",
		"https://api.scaleway.com/instance/v1/zones/fr-par-2/products/servers"
		"?page=3&per_page=100"};
	for (size_t i = 0; i < 2; i++) {
		r = adapter_next(&run);
		assert_non_null(r);
		assert_string_equal(r->url, want[i]);
		adapter_request_release(r);
		free(r);
	}
	adapter_run_release(&run);
	rates_free(&rates);
	offer_store_free(&s);
}

/* HTML, a cut-off body and wrong shapes are GC_EDATA; an empty map is fine. */
static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	const char *html = "<html><body>502 Bad Gateway</body></html>";
	assert_int_equal(parse_str(0, html, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "HTML"));
	free(err);
	err = NULL;
	size_t len;
	char *body = read_source_file(FIX "/servers.json", &len);
	assert_int_equal(refresh_parse_one(&AD, &cat, 0, body, len - 40, NULL, NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "not valid JSON"));
	free(err);
	free(body);
	err = NULL;
	assert_int_equal(parse_str(0, "{\"servers\":[]}", NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "servers"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str(1, "{\"message\":\"zone not found\",\"type\":\"not_found\"}",
				   NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "zone not found"));
	free(err);
	err = NULL;
	assert_int_equal(parse_str(-1, "{\"servers\":{}}", NULL, NULL, &err), GC_EUSAGE);
	free(err);
	err = NULL;
	struct offer_store s;
	offer_store_init(&s);
	size_t queued = 9;
	assert_int_equal(parse_str(0, "{\"servers\":{}}", &s, &queued, &err), GC_OK);
	assert_int_equal(queued, 0); /* an empty page ends the zone's pages */
	assert_int_equal(s.n, 0);
	offer_store_free(&s);
}

/* Hostile values: no crash and no bogus offer. */
static void test_hostile(void **state)
{
	(void)state;
	const char *body =
		"{\"servers\":{"
		"\"NEG\":{\"gpu\":1,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":-1},"
		"\"TEXT\":{\"gpu\":1,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":\"free\"},"
		"\"INF\":{\"gpu\":1,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":\"1e999\"},"
		"\"MANY\":{\"gpu\":1e300,\"gpu_info\":{\"gpu_name\":\"L4\"},\"hourly_price\":1},"
		"\"WORD\":{\"gpu\":\"two\",\"hourly_price\":1},"
		"\"ODD\":{\"gpu\":\"2\",\"ncpus\":[],\"ram\":-5,\"gpu_info\":\"L4\","
		"\"scratch_storage_max_size\":null,\"hourly_price\":\"1.5\"},"
		"\"NULL\":null,\"NUM\":42},\"total_count\":\"lots\"}";
	struct offer_store s;
	offer_store_init(&s);
	char *err = NULL;
	size_t queued = 0;
	assert_int_equal(parse_str(K_PAR2_PRODUCTS, body, &s, &queued, &err), GC_OK);
	assert_int_equal(queued, 1);
	assert_int_equal(s.n, 1);
	const struct offer *o = find(&s, "ODD", "fr-par-2");
	assert_non_null(o);
	assert_float_equal(o->gpu_count, 2, 0);
	assert_null(o->gpu);
	assert_true(isnan(o->vcpus) && isnan(o->ram_gb) && isnan(o->disk_gb));
	assert_float_equal(o->price_native, 1.5, 1e-12);
	offer_store_free(&s);
	/* a total_count that is reached stops the pages even on a full page */
	queued = 9;
	assert_int_equal(parse_str(0, "{\"servers\":{\"X\":{}},\"total_count\":1}", NULL, &queued,
				   &err),
			 GC_OK);
	assert_int_equal(queued, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_products_page),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_availability),
		cmocka_unit_test(test_bad_bodies),
		cmocka_unit_test(test_hostile),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
