/* adapter_testutil.h - what the live-adapter suites (test_adapter_<id>.c)
 * share: the catalog the adapters normalize against, parsing a body or a
 * recorded response the way refresh.c does, the bodies every adapter must
 * refuse, a run to feed several responses in turn, and the whole plan
 * replayed from a routes file.
 *
 * A suite names the adapter under test before including this file, and runs
 * its tests between catalog_setup and catalog_teardown:
 *
 *   extern const struct adapter adapter_azure;
 *   #define AD adapter_azure
 *   #include "adapter_testutil.h"
 */
#ifndef GPUCMP_ADAPTER_TESTUTIL_H
#define GPUCMP_ADAPTER_TESTUTIL_H

#include <math.h>

#include "gpucmp/adapter.h"
#include "gpucmp/catalog.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/rates.h"
#include "gpucmp/refresh.h"
#include "testutil.h"

#ifndef AD
#error "define AD, the adapter under test, before including adapter_testutil.h"
#endif

/* The embedded catalog (GPU models, instance types), loaded once per suite. */
static struct catalog cat;

static inline int catalog_setup(void **state)
{
	(void)state;
	return load_embedded_catalog(&cat);
}

static inline int catalog_teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

/* USD per unit of `currency` in the embedded rates (what adapter_emit
 * converts with), NAN when it has none. */
static inline double embedded_usd_rate(const char *currency)
{
	struct rate_table rates;
	char *err = NULL;
	if (rates_load_embedded(&rates, &err) != GC_OK) {
		free(err);
		return NAN;
	}
	double r = rates_usd(&rates, currency);
	rates_free(&rates);
	return r;
}

/* The first offer of `sku` in `region`; NULL matches any sku, any region. */
static inline const struct offer *find(const struct offer_store *s, const char *sku,
				       const char *region)
{
	for (size_t i = 0; i < s->n; i++)
		if ((!sku || strcmp(s->items[i].sku, sku) == 0) &&
		    (!region || strcmp(s->items[i].region, region) == 0))
			return &s->items[i];
	return NULL;
}

/* find(), failing the test when there is no such offer. */
static inline const struct offer *must_find(const struct offer_store *s, const char *sku,
					    const char *region)
{
	const struct offer *o = find(s, sku, region);
	if (!o)
		fail_msg("no offer of %s in %s", sku ? sku : "any sku",
			 region ? region : "any region");
	return o;
}

/* Parse one response to a request of `kind` with refresh_parse_one (a run
 * of its own, finish() included): offers go to `s` unless it is NULL, the
 * requests it queues are counted in *queued. */
static inline enum gc_status parse_str(int kind, const char *body, struct offer_store *s,
				       size_t *queued, char **err)
{
	return refresh_parse_one(&AD, &cat, kind, body, strlen(body), s ? offer_store_cb : NULL, s,
				 queued, err);
}

/* Parse the first `len` bytes of `body` as parse_str does, into *s, which
 * this initializes and the caller frees: the parse must succeed, queue
 * `queued` more requests and give `n` offers. */
static inline void expect_parsed_len(int kind, const char *body, size_t len,
				     struct offer_store *s, size_t queued, size_t n)
{
	size_t got = 9999;
	char *err = NULL;
	offer_store_init(s);
	if (refresh_parse_one(&AD, &cat, kind, body, len, offer_store_cb, s, &got, &err) != GC_OK)
		fail_msg("parse failed: %s", err ? err : "no message");
	assert_int_equal(got, queued);
	assert_int_equal(s->n, n);
}

static inline void expect_parsed(int kind, const char *body, struct offer_store *s,
				 size_t queued, size_t n)
{
	expect_parsed_len(kind, body, strlen(body), s, queued, n);
}

/* The same with a recorded response, a file under the source tree. */
static inline void expect_parsed_file(int kind, const char *rel, struct offer_store *s,
				      size_t queued, size_t n)
{
	size_t len;
	char *body = read_source_file(rel, &len);
	expect_parsed_len(kind, body, len, s, queued, n);
	free(body);
}

/* The number of requests parsing `body` queues; the parse must succeed. */
static inline size_t queued_by(int kind, const char *body)
{
	size_t queued = 9999;
	char *err = NULL;
	if (parse_str(kind, body, NULL, &queued, &err) != GC_OK)
		fail_msg("parse failed: %s", err ? err : "no message");
	return queued;
}

/* The first `len` bytes of `body` are refused: GC_EDATA with `msg` in the
 * message (any message when NULL).  A len short of the body's is a response
 * cut short. */
static inline void expect_refused_len(int kind, const char *body, size_t len, const char *msg)
{
	char *err = NULL;
	assert_int_equal(refresh_parse_one(&AD, &cat, kind, body, len, NULL, NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(err);
	if (msg && !strstr(err, msg))
		fail_msg("\"%s\" is not in the error: %s", msg, err);
	free(err);
}

static inline void expect_refused(int kind, const char *body, const char *msg)
{
	expect_refused_len(kind, body, strlen(body), msg);
}

/* A body with nothing in it (an empty list): no error, no offer and no
 * further request. */
static inline void expect_empty(int kind, const char *body)
{
	struct offer_store s;
	expect_parsed(kind, body, &s, 0, 0);
	offer_store_free(&s);
}

/* Pop the next queued request, which must be for `url` (any URL when NULL);
 * drop_request() releases it. */
static inline struct adapter_request *next_request(struct adapter_run *run, const char *url)
{
	struct adapter_request *r = adapter_next(run);
	assert_non_null(r);
	if (url)
		assert_string_equal(r->url, url);
	return r;
}

static inline void drop_request(struct adapter_request *r)
{
	adapter_request_release(r);
	free(r);
}

/* A run like refresh.c sets up, for feeding several responses in turn;
 * its offers go to `store`. */
struct harness {
	struct adapter_run run;
	struct rate_table rates;
	struct offer_store store;
};

/* base NULL: the adapter's own base URL. */
static inline void h_init(struct harness *h, const char *base, const char *key)
{
	char *err = NULL;
	assert_int_equal(rates_load_embedded(&h->rates, &err), GC_OK);
	adapter_run_init(&h->run, &AD, base, key);
	offer_store_init(&h->store);
	h->run.gpus = cat.gpus;
	h->run.types = cat.types;
	h->run.rates = &h->rates;
	h->run.fetched_at = "2026-01-01T00:00:00Z";
	h->run.origin = h->run.base;
	h->run.emit = offer_store_cb;
	h->run.emit_ctx = &h->store;
}

/* A request of `kind` for the base URL, to parse a response to. */
static inline struct adapter_request h_request(const struct harness *h, int kind)
{
	struct adapter_request req;
	memset(&req, 0, sizeof req);
	req.kind = kind;
	req.url = (char *)h->run.base;
	return req;
}

/* Parse `body` as the response to a request of `kind`. */
static inline enum gc_status h_parse(struct harness *h, int kind, const char *body, size_t len,
				     char **err)
{
	struct adapter_request req = h_request(h, kind);
	return AD.parse(&h->run, &req, body, len, err);
}

/* Parse the recorded response `rel` as the answer to `req`. */
static inline enum gc_status h_answer(struct harness *h, const struct adapter_request *req,
				      const char *rel, char **err)
{
	size_t len;
	char *body = read_source_file(rel, &len);
	enum gc_status st = AD.parse(&h->run, req, body, len, err);
	free(body);
	return st;
}

static inline enum gc_status h_file(struct harness *h, int kind, const char *rel, char **err)
{
	struct adapter_request req = h_request(h, kind);
	return h_answer(h, &req, rel, err);
}

static inline void h_free(struct harness *h)
{
	adapter_run_release(&h->run);
	rates_free(&h->rates);
	offer_store_free(&h->store);
}

/* h_init, start the plan, and pop its first request, which must be for
 * `url` (any URL when NULL); drop_request() releases it. */
static inline struct adapter_request *h_start(struct harness *h, const char *base,
					      const char *key, const char *url)
{
	char *err = NULL;
	h_init(h, base, key);
	if (AD.start(&h->run, &err) != GC_OK)
		fail_msg("start failed: %s", err ? err : "no message");
	return next_request(&h->run, url);
}

/* The file the routes file (tests/fixtures/http/<id>.routes) serves for a
 * GET of `target`, matched as gpucmp-fixtured does: the first route whose
 * path is equal and whose query, when it has one, is equal too.  Caller
 * frees; NULL when no route matches. */
static inline char *route_file(const char *routes, const char *target)
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
 * routes file `fix`.routes with the files under `fix`; the base URL is a
 * stand-in, like GPUCMP_<ID>_BASE_URL.  Offers go to `s`; *nreq counts the
 * requests made. */
static inline enum gc_status replay(const char *fix, struct offer_store *s, size_t *nreq,
				    char **err)
{
	static const char base[] = "http://fixture.test";
	static char origin[1024];
	char rel[512];
	size_t rlen;
	snprintf(rel, sizeof rel, "%s.routes", fix);
	char *routes = read_source_file(rel, &rlen);
	struct harness h;
	h_init(&h, base, NULL);
	h.run.emit_ctx = s;
	*nreq = 0;
	enum gc_status st = AD.start(&h.run, err);
	struct adapter_request *r;
	while (st == GC_OK && (r = adapter_next(&h.run))) {
		(*nreq)++;
		assert_int_equal(strncmp(r->url, base, strlen(base)), 0);
		char *file = route_file(routes, r->url + strlen(base));
		if (!file)
			fail_msg("no route for %s", r->url);
		snprintf(rel, sizeof rel, "%s/%s", fix, file);
		snprintf(origin, sizeof origin, "%s", r->url);
		h.run.origin = origin;
		st = h_answer(&h, r, rel, err);
		free(file);
		drop_request(r);
	}
	if (st == GC_OK && AD.finish)
		st = AD.finish(&h.run, err);
	h_free(&h);
	free(routes);
	return st;
}

/* The whole plan (replay) must succeed in `nreq` requests and give `n`
 * offers, into *s, which this initializes and the caller frees. */
static inline void expect_replay(const char *fix, struct offer_store *s, size_t nreq, size_t n)
{
	size_t got = 0;
	char *err = NULL;
	offer_store_init(s);
	if (replay(fix, s, &got, &err) != GC_OK)
		fail_msg("replay failed: %s", err ? err : "no message");
	assert_int_equal(got, nreq);
	assert_int_equal(s->n, n);
}

#endif
