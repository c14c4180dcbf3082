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

#include "gpucmp/buf.h"
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

enum { ADAPTER_MAX_HEADERS = 4, ADAPTER_MAX_REQUESTS = 2000, ADAPTER_MAX_KEPT = 4 };
/* A price above this (USD per hour, whole offer) is treated as garbage. */
#define ADAPTER_MAX_PRICE_HR OFFER_MAX_PRICE_HR

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
	const char *origin;                 /* URL of the response being parsed (never
					       holds a key) */
	const char *last_modified;          /* its Last-Modified header, or NULL */
	offer_cb emit;
	void *emit_ctx;
	size_t max_offers;   /* the crawl's offer cap, for a parser that must count
				rows before it emits (0: none; emit enforces it) */
	void *state;         /* the adapter's own, freed with ad->free_state */
	char *secret2;       /* a token obtained at run time; redacted like the key */
	/* requests not yet made, in order */
	struct adapter_request *queue;
	size_t nqueue, qhead, qcap;
	size_t requests;     /* made so far (a runaway pagination stops at the cap) */
	/* counters */
	size_t offers, unknown_gpu, skipped;
	/* why offers were skipped (they add up to `skipped`), and how many had
	 * control characters in their text replaced (for --verbose) */
	size_t drop_no_gpu, drop_bad_number, drop_no_price, drop_bad_price, drop_currency;
	size_t drop_retired; /* retired sizes and SKU aliases (data/retired.yaml) */
	size_t cleaned;
	size_t spot_dropped; /* spot prices at or above on-demand, made unknown */
	/* zone catalogs (src/skypilot.c): rows folded into their region's
	 * offer, rows of Local/Wavelength Zones left out, and GPU rows whose
	 * host VM is priced $0 or not at all, left out */
	size_t zone_folded, zone_outlying, host_unpriced;
};

struct adapter {
	const char *id;         /* provider id (providers/<id>.yaml) */
	const char *base_url;   /* default, overridden by GPUCMP_<ID>_BASE_URL */
	enum adapter_auth auth;
	enum adapter_key_style key_style;
	const char *key_name;   /* header or query parameter for HEADER/QUERY */
	const char *const *key_envs; /* conventional variables besides GPUCMP_<ID>_API_KEY */
	const char *endpoint;   /* documentation of what is fetched (one line) */
	/* The stock signal `available` is read from, as the offer's
	 * available_source names it ("vast: rentable, rented"; offer_v, in
	 * cache_schema.c); NULL when the adapter leaves stock unknown.
	 * stock_unplaced: the one of its offers in region "unknown", when that
	 * is another field (RunPod's lowestPrice); NULL: stock. */
	const char *stock;
	const char *stock_unplaced;
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

/* The registered adapters, sorted by id, and the one of an id (NULL if
 * none): src/adapters/registry.c. */
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
 * NAN) is converted to USD.  Unknown GPUs are kept with gpu NULL.
 * The network is not trusted: control characters (C0, C1, DEL: terminal
 * escape sequences) in the offer's text become '?' and a text longer than
 * STR_FIELD_MAX bytes is cut (str_field, offer_clean); sizes that are
 * negative, not finite or absurd become unknown; a price outside
 * [OFFER_MIN_PRICE_HR, OFFER_MAX_PRICE_HR] (offer_price_ok, offer.h), or
 * not finite, counts as absent; an offer
 * without a sane GPU count or without any price is skipped (counted in
 * run->drop_*), never stored. */
enum gc_status adapter_emit(struct adapter_run *run, struct offer *o, char **err);

/* Set o's on-demand and spot prices (NAN: none) in `currency`: as price_hr /
 * spot_price_hr when it is USD (or NULL or ""), else as the native prices
 * adapter_emit converts.  `currency` is borrowed until the offer is emitted. */
void adapter_set_prices(struct offer *o, const char *currency, double price, double spot);

/* Emit a copy of `o` for each region `regions` names (a JSON array of
 * strings; other and empty elements are skipped), with o->available as the
 * caller set it; when it names none, `o` itself in region "unknown", marked
 * unavailable.  `regions` is borrowed. */
enum gc_status adapter_emit_regions(struct adapter_run *run, struct offer *o,
				    const json_t *regions, char **err);

/* Call fn on each element of `list` (an array) or each value (an object),
 * in order, stopping at the first status that is not GC_OK; a NULL or a
 * scalar `list` has no elements.  The loop of every parser: one element,
 * one offer (or one row kept for finish()).  `list` and each `item` are
 * borrowed: valid while the document they belong to lives. */
typedef enum gc_status (*adapter_item_fn)(struct adapter_run *run, json_t *item, char **err);
enum gc_status adapter_each(struct adapter_run *run, json_t *list, adapter_item_fn fn,
			    char **err);

/* An adapter that joins documents of several requests in finish() keeps
 * them with adapter_keep: one per request kind (0 .. ADAPTER_MAX_KEPT - 1),
 * a later one of a kind replacing the earlier, held in run->state (the
 * adapter's free_state is then adapter_kept_free, and it keeps nothing else
 * there).  adapter_keep takes a reference of its own (the caller keeps
 * and still releases `doc`); adapter_kept is the document of a kind,
 * borrowed from the run, or NULL. */
enum gc_status adapter_keep(struct adapter_run *run, int kind, json_t *doc, char **err);
json_t *adapter_kept(const struct adapter_run *run, int kind);
/* The usual finish() of such an adapter: fn on each element of the
 * document kept of `kind`, as adapter_each (none when nothing is kept). */
enum gc_status adapter_each_kept(struct adapter_run *run, int kind, adapter_item_fn fn,
				 char **err);
void adapter_kept_free(void *state);

/* How a list says where its next page is (adapter_next_page). */
enum adapter_paging {
	ADAPTER_PAGE_NONE,   /* one page */
	ADAPTER_PAGE_LINK,   /* `next` is the next page's URL, followed by adapter_follow */
	ADAPTER_PAGE_TOKEN,  /* `next` is an opaque token or cursor, empty or absent on
				the last page: run->base + url + "?" or "&" +
				param=token (URL-encoded) */
	ADAPTER_PAGE_NUMBER, /* `next` is this page's number N, `pages` the number of
				pages M: run->base + url + "?" or "&" + param=N+1
				while N < M */
};

struct adapter_pager {
	enum adapter_paging style;
	const char *next;  /* path (aj_path) of the link, token or page number */
	const char *pages; /* NUMBER: path of the number of pages */
	const char *url;   /* TOKEN, NUMBER: the list's path and query after run->base */
	const char *param; /* TOKEN, NUMBER: the query parameter */
	size_t max_token;  /* TOKEN: the longest one sent back, in bytes (0:
			      ADAPTER_MAX_TOKEN) */
};

/* The caps of a paginated list, besides the run's ADAPTER_MAX_REQUESTS
 * (and the refresh's bytes and deadline, refresh.c): a page number is
 * followed up to ADAPTER_MAX_PAGES, a token up to max_token bytes, at
 * most ADAPTER_MAX_TOKEN (what fits a 4 KiB query, URL-encoded). */
enum { ADAPTER_MAX_PAGES = 1000, ADAPTER_MAX_TOKEN = 1362 };

/* Queue the page after the one `root` answers to `req` (of req->kind) as
 * `p` finds it; *more (may be NULL) says whether one was queued.  Nothing
 * is queued when the page names none.  A link is adapter_follow's (a link
 * back to req->url ends the list; one to another host is GC_EDATA).  A
 * token longer than ADAPTER_MAX_TOKEN is GC_EDATA "<next> is too long";
 * one that leads back to req->url is GC_EDATA "<next> repeats: pagination
 * does not end".  A page number out of range (missing, not a number,
 * beyond 2e9) ends the list.  `req` may be NULL (nothing is followed but
 * tokens and numbers, as kind 0).  `root` is borrowed. */
enum gc_status adapter_next_page(struct adapter_run *run, const struct adapter_request *req,
				 json_t *root, const struct adapter_pager *p, int *more,
				 char **err);

/* One page of a list, as adapter_parse_page reads it. */
struct adapter_list {
	const char *path;     /* the list in the body, as aj_path ("sizes", "data") */
	json_type type;       /* JSON_ARRAY or JSON_OBJECT */
	adapter_item_fn each; /* called on each element (adapter_each); NULL: the
				 pages' arrays are joined in adapter_kept(run,
				 req->kind), for finish() (free_state is then
				 adapter_kept_free) */
	const char *error;    /* path of the API's message when the list is missing */
	const char *what;     /* its prefix in the error ("API error" when NULL) */
	enum gc_status (*why)(json_t *root, char **err); /* else this explains it */
	struct adapter_pager pager;
	int stop_empty;       /* an empty list ends the pages, whatever `next` says */
	/* after the list's last page (no next one queued), or NULL */
	enum gc_status (*last)(struct adapter_run *run, int kind, char **err);
};

/* Parse a page of a paginated list: a body that is not JSON is GC_EDATA
 * (adapter_json); without the list at l->path (of l->type) it is GC_EDATA
 * with the API's message at l->error (as adapter_api_error), or why's, or
 * "no '<path>' array (object) in the response".  Then, when all went well,
 * the next page is queued (adapter_next_page) and, when there is none,
 * l->last is called. */
enum gc_status adapter_parse_page(struct adapter_run *run, const struct adapter_request *req,
				  const char *body, size_t len, const struct adapter_list *l,
				  char **err);

/* The whole parse of a response that is one list and nothing else (no
 * pagination; adapter_parse_page with a pager of ADAPTER_PAGE_NONE): the
 * body is JSON with a `type` (JSON_ARRAY or JSON_OBJECT) at `path` (as
 * aj_path), whose elements go to fn as in adapter_each.  A
 * body that is not JSON is GC_EDATA; so is one without the list, with the
 * message why(root) sets (the API's own, where the API sends one), or
 * "no '<path>' array (object) in the response" when why is NULL. */
enum gc_status adapter_parse_list(struct adapter_run *run, const char *body, size_t len,
				  json_type type, const char *path, adapter_item_fn fn,
				  enum gc_status (*why)(json_t *root, char **err), char **err);

/* Parse a JSON body; a body that is not JSON (an HTML error page, a
 * truncated document) is GC_EDATA with a message that says so: what kind
 * of error and where (line, column, byte), never quoting the body (it may
 * echo the API key).  A pre-scan first weighs the body's values without
 * allocating, by what jansson would spend on them (an object counts 8, an
 * array 4, a string 3, keys included, a number or literal 1: about 27
 * bytes of memory a unit): over the budget is GC_EDATA "too many JSON
 * values", refused before jansson builds the tree (an empty object costs
 * it ~215 bytes, 70 times its 3 bytes of text).  A parse during which
 * jansson met a failed allocation of its own is GC_ENOMEM (jansson may
 * drop a byte silently then).  Returns a new reference: the caller
 * json_decrefs it. */
json_t *adapter_json(const char *body, size_t len, char **err);

/* The values adapter_json accepts in one document: process-wide, set once
 * before a refresh (0: ADAPTER_JSON_MAX_VALUES, the default). */
#define ADAPTER_JSON_MAX_VALUES ((size_t)8000000)
void adapter_json_budget(size_t max_values);

/* The same pre-scan and parse for a JSON text that is not a provider's
 * response (a team snapshot's manifest and payload lines, team.h), under
 * a cap of its own: at most max_values weighted values (counted as above;
 * over it GC_EDATA "more than N JSON values", before jansson allocates),
 * parsed with jansson's `flags`.  Not JSON: GC_EDATA "not valid JSON:
 * <kind> at line L, column C (byte B)", quoting nothing of the text;
 * GC_ENOMEM as above.  GC_OK with a new reference in *out (else NULL). */
enum gc_status adapter_json_capped(const char *text, size_t len, size_t max_values, size_t flags,
				   json_t **out, char **err);

/* GC_EDATA with the error message an API answered with, as "<what>: <msg>":
 * control characters (and broken UTF-8) as '?' by str_sanitize, cut to 200
 * bytes at a blank (then " ..." follows; never inside a word, which could
 * be a key the API quotes back) since the text came from the network and
 * ends up on a terminal; a NULL msg reads as "". */
enum gc_status adapter_api_error(char **err, const char *what, const char *msg);

/* Small JSON readers: a number (also from a numeric string) or NAN; a
 * string or NULL; an integer or `dflt`. */
double aj_num(const json_t *obj, const char *key);
const char *aj_str(const json_t *obj, const char *key);
long aj_int(const json_t *obj, const char *key, long dflt);
/* Value at a dotted path ("meta.links"; a number indexes an array,
 * "errors.0.reason"), or NULL; borrowed from `obj`, like the values
 * aj_str returns. */
json_t *aj_path(json_t *obj, const char *path);

/* Pagination: queue the next-page link `next` found in the response to
 * `req`, as another request of req->kind.  Nothing is queued when `next` is
 * NULL or empty, or when it leads back to req->url (a page that links to
 * itself would never end).  The link is re-rooted on run->base, so that an
 * overridden base URL (a proxy, the test server) also serves later pages:
 *   "https://HOST[:PORT]/path?q"  run->base + "/path?q", and only when HOST
 *                                 is the host of the adapter's base_url or
 *                                 of run->base (any case); a link to another
 *                                 host is refused with GC_EDATA, since the
 *                                 API key would follow it there;
 *   "/path?q"                     run->base + "/path?q";
 *   "path?q"                      run->base + "/path?q".
 * Bytes a URL may not hold raw (spaces, as in an OData filter, controls,
 * non-ASCII, and " < > \ ^ ` { | }) are percent-encoded; '%' is kept, so
 * a link that is already encoded stays as it is. */
enum gc_status adapter_follow(struct adapter_run *run, const struct adapter_request *req,
			      const char *next, char **err);

/* Percent-encode `s` for a query string into out (always terminated). */
void adapter_urlencode(char *out, size_t n, const char *s);

#endif
