/* fuzz_adapter.c - libFuzzer target for one live adapter's parse() and
 * finish(); CMake builds it once per adapter with FUZZ_ADAPTER="<id>".
 *
 * An input is a run's responses, in order: each is a kind byte (the
 * adapter's request kind, as req->kind) and the body, the responses split
 * by 0xff (a byte no JSON text holds), at most MAX_DOCS of them:
 *
 *   <kind> <body> [0xff <kind> <body>]...
 *
 * so a target reaches the joins that adapters do in finish() (flavors with
 * the pricebook, shapes with products, types with availability).  A
 * response answers the request the previous one queued, when there is
 * one, so that a next-page link is checked against the right URL.
 *
 * Besides the sanitizers, it checks what refresh.c relies on: a failure
 * comes with a message, every offer can go into the cache (fuzz_common.h),
 * and a queued request never leaves the base URL (the API key would
 * follow it).
 */
#include "fuzz_common.h"

#ifndef FUZZ_ADAPTER
#error "define FUZZ_ADAPTER, the id of the adapter under test"
#endif

enum { MAX_DOCS = 8 };

static const struct adapter *ad;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_load_catalog();
	ad = adapter_find(FUZZ_ADAPTER);
	if (!ad)
		fuzz_fail("no adapter '%s'", FUZZ_ADAPTER);
	return 0;
}

static enum gc_status check_offer_cb(void *ctx, const struct offer *o, char **err)
{
	if (strcmp(o->provider, FUZZ_ADAPTER) != 0)
		fuzz_fail("offer of provider '%s'", o->provider);
	return fuzz_offer_cb_common(ctx, o, err);
}

/* The next queued request, checked to stay on the base URL; NULL if none. */
static struct adapter_request *next_request(struct adapter_run *run)
{
	struct adapter_request *r = adapter_next(run);
	size_t n = strlen(run->base);
	if (r && (strncmp(r->url, run->base, n) != 0 || !strchr("/?", r->url[n])))
		fuzz_fail("request for '%s' off the base URL %s", r->url, run->base);
	return r;
}

static void drop(struct adapter_request *r)
{
	if (r) {
		adapter_request_release(r);
		free(r);
	}
}

/* Parse the responses in data[0..size) in one run, then finish it. */
static enum gc_status run_inputs(struct adapter_run *run, const uint8_t *data, size_t size,
				 char **err)
{
	enum gc_status st = GC_OK;
	struct adapter_request *prev = NULL;
	size_t at = 0;
	for (int d = 0; d < MAX_DOCS && at < size && st == GC_OK; d++) {
		const uint8_t *end = memchr(data + at, 0xff, size - at);
		size_t n = end ? (size_t)(end - data) - at : size - at;
		struct adapter_request req;
		memset(&req, 0, sizeof req);
		req.kind = data[at];
		req.url = prev ? prev->url : (char *)run->base;
		char *body = fuzz_copy(data + at + 1, n ? n - 1 : 0);
		st = ad->parse(run, &req, body, n ? n - 1 : 0, err);
		free(body);
		drop(prev);
		prev = next_request(run);
		at += n + 1;
	}
	drop(prev);
	for (struct adapter_request *r; (r = next_request(run));)
		drop(r);
	if (st == GC_OK && ad->finish)
		st = ad->finish(run, err);
	return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct adapter_run run;
	struct offer_store store;
	char *err = NULL;
	adapter_run_init(&run, ad, ad->base_url, NULL);
	offer_store_init(&store);
	run.gpus = fuzz_cat.gpus;
	run.types = fuzz_cat.types;
	run.rates = &fuzz_rates;
	run.fetched_at = "2026-01-01T00:00:00Z";
	run.origin = ad->base_url;
	run.emit = check_offer_cb;
	run.emit_ctx = &store;
	enum gc_status st = run_inputs(&run, data, size, &err);
	fuzz_check_err(st, err);
	if (st == GC_OK && store.n != run.offers)
		fuzz_fail("%zu offers stored, %zu counted", store.n, run.offers);
	free(err);
	offer_store_free(&store);
	adapter_run_release(&run);
	return 0;
}
