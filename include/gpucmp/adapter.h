/* adapter.h - one provider's live price API: a request plan and pure parsers.
 *
 * An adapter (src/adapters/<id>.c) says which requests to make and turns
 * each response body into normalized offers.  It never does I/O: the
 * refresh driver (src/refresh.c) runs the requests over http.c, attaches the
 * API key, and hands each body to parse().  A parser may queue follow-up
 * requests (the next page, or a second endpoint) with adapter_queue(), and
 * may keep what it needs to join two endpoints in run->state, emitting the
 * joined offers in finish().
 *
 * Tests call the same parse functions on recorded responses, and run the
 * whole plan against a loopback server by overriding the base URL
 * (GPUCMP_<ID>_BASE_URL); adapters have no test-only paths.
 */
#ifndef GPUCMP_ADAPTER_H
#define GPUCMP_ADAPTER_H

#include <jansson.h>
#include <stddef.h>

#include "gpucmp/err.h"
#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"
#include "gpucmp/offer.h"
#include "gpucmp/rates.h"

enum adapter_auth {
	ADAPTER_AUTH_NONE,     /* public endpoint; a key is ignored */
	ADAPTER_AUTH_OPTIONAL, /* works without a key, sends one if given */
	ADAPTER_AUTH_REQUIRED  /* skipped (with a note) when no key is set */
};

enum adapter_key_style {
	ADAPTER_KEY_BEARER, /* Authorization: Bearer KEY */
	ADAPTER_KEY_HEADER, /* KEY_NAME: KEY */
	ADAPTER_KEY_QUERY,  /* ?KEY_NAME=KEY appended to every URL */
	ADAPTER_KEY_CUSTOM  /* the adapter uses run->key itself (e.g. OAuth) */
};

enum { ADAPTER_MAX_HEADERS = 4, ADAPTER_MAX_REQUESTS = 2000 };
/* A price above this (USD per hour, whole offer) is treated as garbage. */
#define ADAPTER_MAX_PRICE_HR 10000.0

struct adapter_request {
	int kind;           /* the adapter's tag for this response */
	char *url;          /* absolute URL (owned) */
	const char *method; /* NULL = GET */
	char *body;         /* owned, NULL = none */
	char *headers[ADAPTER_MAX_HEADERS]; /* owned "Name: value" */
	int no_key;         /* do not attach the API key to this request */
};

struct adapter;

struct adapter_run {
	const struct adapter *ad;
	const char *base;    /* base URL without a trailing '/' */
	const char *key;     /* API key, NULL when none */
	const struct gpu_table *gpus;
	const struct insttype_table *types; /* may be NULL */
	const struct rate_table *rates;     /* may be NULL: non-USD prices stay unconverted */
	const char *fetched_at;             /* RFC 3339 UTC, the same for the whole run */
	const char *origin;                 /* URL of the response being parsed, no query */
	offer_cb emit;
	void *emit_ctx;
	void *state;         /* the adapter's own, freed with ad->free_state */
	char *secret2;       /* a token obtained at run time; redacted like the key */
	/* requests not yet made, in order */
	struct adapter_request *queue;
	size_t nqueue, qhead, qcap;
	size_t requests;     /* made so far (a runaway pagination stops at the cap) */
	/* counters */
	size_t offers, unknown_gpu, skipped;
};

struct adapter {
	const char *id;         /* provider id (providers/<id>.yaml) */
	const char *base_url;   /* default, overridden by GPUCMP_<ID>_BASE_URL */
	enum adapter_auth auth;
	enum adapter_key_style key_style;
	const char *key_name;   /* header or query parameter for HEADER/QUERY */
	const char *const *key_envs; /* conventional variables besides GPUCMP_<ID>_API_KEY */
	const char *endpoint;   /* documentation of what is fetched (one line) */
	int conditional;        /* one request per refresh: send ETag / Last-Modified */
	/* Queue the first request(s). */
	enum gc_status (*start)(struct adapter_run *run, char **err);
	/* Parse the body of `req`: emit offers, keep state, queue more. */
	enum gc_status (*parse)(struct adapter_run *run, const struct adapter_request *req,
				const char *body, size_t len, char **err);
	/* After the last response (NULL if nothing to do). */
	enum gc_status (*finish)(struct adapter_run *run, char **err);
	void (*free_state)(void *state);
};

/* The registered adapters, sorted by id. */
extern const struct adapter *const adapters[];
extern const size_t adapter_count;
const struct adapter *adapter_find(const char *id);

/* Set up and tear down a run (queue, state). */
void adapter_run_init(struct adapter_run *run, const struct adapter *ad, const char *base,
		      const char *key);
void adapter_run_release(struct adapter_run *run);

/* Queue a request; the URL is formatted (printf-style).  `body` is copied. */
enum gc_status adapter_queue(struct adapter_run *run, int kind, const char *method,
			     const char *body, char **err, const char *url_fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* Add a header ("Name: value") to the request queued last. */
enum gc_status adapter_queue_header(struct adapter_run *run, const char *header, char **err);
/* Pop the next request (NULL when none); the caller releases it. */
struct adapter_request *adapter_next(struct adapter_run *run);
void adapter_request_release(struct adapter_request *r);

/* Complete and emit one offer: provider, source "live", origin and
 * fetched_at are filled in; the GPU is normalized from o->gpu_name (and the
 * instance-type table, by o->sku) when o->gpu is NULL; a price in another
 * currency (o->currency, o->price_native / o->spot_native set, price_hr
 * NAN) is converted to USD.  Unknown GPUs are kept with gpu NULL. */
enum gc_status adapter_emit(struct adapter_run *run, struct offer *o, char **err);

/* Parse a JSON body; a body that is not JSON (an HTML error page, a
 * truncated document) is GC_EDATA with a message that says so. */
json_t *adapter_json(const char *body, size_t len, char **err);

/* Small JSON readers: a number (also from a numeric string) or NAN; a
 * string or NULL; an integer or `dflt`. */
double aj_num(const json_t *obj, const char *key);
const char *aj_str(const json_t *obj, const char *key);
long aj_int(const json_t *obj, const char *key, long dflt);
/* Object at a dotted path ("meta.links"), or NULL. */
json_t *aj_path(json_t *obj, const char *path);

/* Pagination: queue `next` (absolute, or relative to run->base) as another
 * request of `kind`, unless it is empty or NULL. */
enum gc_status adapter_follow(struct adapter_run *run, int kind, const char *next, char **err);

/* Percent-encode `s` for a query string into out (always terminated). */
void adapter_urlencode(char *out, size_t n, const char *s);

#endif
