/* refresh.h - fetch live offers from provider APIs into the cache.
 *
 * Providers are crawled concurrently (at most `jobs` at once) over one
 * http_client.  Each provider's offers are collected in memory and written
 * in one transaction when its crawl is complete, so a failure anywhere in
 * the crawl (a timeout, a broken page in the middle of a pagination) leaves
 * its previous offers in place, marked stale, with the error recorded.
 */
#ifndef GPUCMP_REFRESH_H
#define GPUCMP_REFRESH_H

#include <stddef.h>

#include "gpucmp/adapter.h"
#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/hosted.h"
#include "gpucmp/http.h"
#include "gpucmp/profile.h"

struct config;
struct json_t;

enum refresh_outcome {
	REFRESH_UPDATED,   /* new offers stored */
	REFRESH_UNCHANGED, /* 304 Not Modified: the offers are current */
	REFRESH_KEPT,      /* a catalog that names no date: the cache's dated
			      offers are kept (an undated load never replaces them) */
	REFRESH_RECENT,    /* skipped: refreshed less than max_age ago */
	REFRESH_NO_KEY,    /* skipped: the API needs a key, none is set and no
			      hosted catalog covers the provider (or the tier is off) */
	REFRESH_FAILED,    /* previous offers kept and marked stale */
	REFRESH_NO_SOURCE  /* skipped: no live adapter and no hosted catalog */
};

struct refresh_result {
	const char *id;
	enum refresh_outcome outcome;
	enum gc_status status;   /* of a failure */
	char *message;           /* failure or skip reason (no secrets), or NULL */
	size_t offers, unknown_gpu, skipped, requests;
	double seconds;
	long long age;           /* REFRESH_RECENT: seconds since the last refresh */
	const char *tier;        /* where the offers came from: "live", "skypilot",
				    "gpuhunt"; NULL when skipped before choosing */
	char *live_error;        /* the live API failed and a hosted catalog was tried
				    after it: why it failed (no secrets), else NULL */
	int keyed;               /* the live API ran with a key the user set: its failure
				    counts for the exit code even when a catalog stood in */
	int named;               /* named by the run (its IDs, or the config's providers):
				    REFRESH_NO_KEY is then a failure (refresh_verdict) */
};

struct refresh_opts {
	const struct adapter *const *only; /* NULL: see ids */
	size_t nonly;
	/* Provider ids (any profile id; NULL and `only` NULL: every provider
	 * with a live adapter, or a hosted catalog when that tier is on). */
	const char *const *ids;
	size_t nids;
	int no_catalog;          /* the hosted catalog tier off (also config catalog: false) */
	int catalog_only;        /* every provider from its hosted catalog, never live (no
				    IDs: every provider a catalog covers) */
	int jobs;                /* providers fetched at once, >= 1 */
	long long max_age;       /* seconds; < 0: refresh regardless */
	struct http_opts http;
	/* Called when a provider is done (for progress output), may be NULL. */
	void (*progress)(void *arg, const struct refresh_result *r, size_t done, size_t total);
	void *progress_arg;
	/* The config file: keys and base URLs below the environment's; may be NULL. */
	const struct config *config;
	/* Bounds of one provider's refresh (0: the REFRESH_DEFAULT_* value).
	 * Exceeding one fails that provider (previous offers kept, stale) with
	 * a message naming the cap and how to raise it. */
	double deadline_s;       /* seconds from the start of refresh_run: no request
				  * (attempt, retry, page) of any provider runs past it */
	size_t max_offers;       /* offers one provider's crawl may emit */
	size_t max_bytes;        /* body bytes one provider's crawl may receive, retries included */
	size_t max_json_values;  /* weighted JSON values of one response (adapter_json_budget) */
};

#define REFRESH_DEFAULT_DEADLINE_S 300.0
#define REFRESH_DEFAULT_MAX_OFFERS ((size_t)100000)
#define REFRESH_DEFAULT_MAX_BYTES ((size_t)256 << 20)

/* The one place that decides the API key and base URL a provider uses,
 * the first set of: GPUCMP_<ID>_API_KEY, the adapter's conventional
 * variables, provider.<id>.api_key of `cfg`; GPUCMP_<ID>_BASE_URL,
 * provider.<id>.base_url of `cfg` (the adapter's default is the caller's).
 * `cfg` may be NULL.  Borrowed from the environment or `cfg`; NULL when
 * unset.  `from` (NULL or n bytes) receives where the value came from: the
 * variable's name or "config". */
const char *refresh_key(const struct adapter *ad, const struct config *cfg, char *from,
			size_t n);
const char *refresh_base_url(const struct adapter *ad, const struct config *cfg, char *from,
			     size_t n);
/* "GPUCMP_<ID>_<SUFFIX>" (id upper-cased, '-' as '_') into out. */
void refresh_env_name(const struct adapter *ad, const char *suffix, char *out, size_t n);

/* Tiers (docs/REFRESH.md): a provider is taken from its live adapter when
 * that can run (keyless, or its key set), else from the hosted catalog
 * that covers it (hosted.h: SkyPilot, else gpuhunt), else skipped with
 * the reason in its result, in --verbose and in its cache record
 * (last_error, offers not touched).  The tiers fall through in one run:
 * a live API that fails (HTTP, transfer, body, the door refusing its
 * answer) is followed by its hosted catalog (the tier on), a SkyPilot
 * file that fails by gpuhunt's; when every tier failed the provider keeps
 * its previous offers, marked stale, each tier's reason recorded.
 *
 * Refresh.  `cat` must have CATALOG_GPUS and CATALOG_TYPES loaded.  Fills
 * *results (one per provider, in id order; free with refresh_results_free).
 * Returns GC_OK when the run happened, whatever the providers' outcomes. */
enum gc_status refresh_run(struct cache *c, const struct catalog *cat,
			   const struct refresh_opts *opts, struct refresh_result **results,
			   size_t *nresults, char **err);
void refresh_results_free(struct refresh_result *r, size_t n);

/* --- before a run: which providers, from which tier (refresh_plan.c) --- */

/* What the IDs of a refresh come to. */
enum refresh_pick {
	REFRESH_PICK_OK,
	REFRESH_PICK_NO_SOURCE, /* args[*bad] has a profile, but no live adapter and no
				 * hosted catalog covers it ('gpucmp import' can) */
	REFRESH_PICK_UNKNOWN    /* args[*bad] names no provider; *best: the nearest id
				 * of an adapter or a hosted catalog, or NULL */
};

/* The providers a refresh names: args[0..nargs) (any id with a live
 * adapter or a hosted catalog, each once, in the order given), else the
 * ids among the first `max` of cfg's `providers` (may be NULL) that have
 * either; at most `max` into out (borrowed from args, the adapters, the
 * hosted catalogs or cfg), *nout of them (0: refresh_run's default, every
 * provider).  `ps` tells a provider without a source from an unknown name. */
enum refresh_pick refresh_pick(const char *const *args, size_t nargs,
			       const struct profile_set *ps, const struct config *cfg,
			       const char **out, size_t max, size_t *nout, size_t *bad,
			       const char **best);

/* Why --catalog-only cannot run. */
enum refresh_tiers {
	REFRESH_TIERS_OK,
	REFRESH_TIERS_FLAG_OFF,  /* --no-catalog turned the hosted catalog tier off */
	REFRESH_TIERS_CONFIG_OFF /* the config file did (catalog: false) */
};

/* The tiers a run may use, into o->no_catalog and o->catalog_only, from
 * the flags --no-catalog and --catalog-only and cfg's `catalog` (cfg may
 * be NULL). */
enum refresh_tiers refresh_tiers(struct refresh_opts *o, int no_catalog, int catalog_only,
				 const struct config *cfg);

/* The caps GPUCMP_REFRESH_MAX_OFFERS, _MAX_BYTES and _MAX_JSON_VALUES
 * from the environment into o (each left alone when unset or empty);
 * GC_EUSAGE with the message when one is not a whole number at least its
 * floor. */
enum gc_status refresh_env_caps(struct refresh_opts *o, char **err);

/* Where one provider of a run is taken from, decided before any I/O. */
struct refresh_plan {
	const char *id;             /* borrowed from the run's ids */
	const struct adapter *live; /* its live adapter, when that tier runs, else NULL */
	enum hosted_kind catalog;   /* not live: the hosted catalog it comes from;
				     * HOSTED_NONE with live NULL: skipped */
	enum hosted_kind fallback;  /* live: the hosted catalog tried when the live API
				     * fails (the tier on), else HOSTED_NONE */
	const char *key;            /* live: its API key (refresh_key, borrowed), or NULL */
	enum refresh_outcome skip;  /* skipped: REFRESH_NO_KEY or REFRESH_NO_SOURCE */
	int named;                  /* o->ids named it (the command line or the config's
				     * providers), not "every provider" */
	char note[512];             /* the --verbose line: why a catalog, or why skipped
				     * (also the skip's message); "" when live.  No key:
				     * named, "needs an API key: set GPUCMP_<ID>_API_KEY (or
				     * <usual variable>, or api_key in the config file)";
				     * else "skipped: no key: set ...; <why no catalog>" */
	char hint[256];             /* REFRESH_NO_KEY: "set GPUCMP_<ID>_API_KEY (or ...)";
				     * the cache records "skipped: no key: <hint>" when named */
};

/* The plan of provider `id` under o's tiers, keys and config; named when
 * o->ids is set. */
void refresh_plan_one(const struct refresh_opts *o, const char *id, struct refresh_plan *p);

/* The plan of a run: o's ids (or `only`), else every provider with a live
 * adapter or (the tier on) a hosted catalog, sorted, once each; a new
 * array in *plan (free it), *n entries. */
enum gc_status refresh_plan(const struct refresh_opts *o, struct refresh_plan **plan, size_t *n,
			    char **err);

/* --- after a run: what it came to (refresh_result.c) --- */

/* "updated", "unchanged", "recent", "no-key", "failed", "no-source"
 * (docs/refresh-result.schema.json; static). */
const char *refresh_outcome_name(enum refresh_outcome o);

/* The JSON of one result (docs/refresh-result.schema.json): a new
 * reference, or NULL when memory ran out (never an object missing a key). */
struct json_t *refresh_result_json(const struct refresh_result *r);
/* The array of n results: a new reference, or NULL when memory ran out. */
struct json_t *refresh_results_json(const struct refresh_result *r, size_t n);

/* What a run's exit code is made of: a provider skipped (no source,
 * refreshed recently, no key when not named) was not tried; a named
 * provider skipped for want of a key failed (a cron job that lost its key
 * must not pass in silence).  One taken from a hosted catalog instead is
 * judged by that catalog's outcome.  A live API that ran with the user's
 * key and failed, its catalog standing in, makes the run SOME_FAILED
 * (never ALL_FAILED: its offers are current); a keyless one's failure
 * does not count when the catalog came through. */
enum refresh_verdict {
	REFRESH_ALL_CURRENT, /* every provider tried is current (or none was tried) */
	REFRESH_SOME_FAILED,
	REFRESH_ALL_FAILED   /* at least one was tried, and every one failed */
};
enum refresh_verdict refresh_verdict(const struct refresh_result *r, size_t n);

/* Parse one recorded response with an adapter, outside any crawl (tests,
 * fuzzing): offers go to `cb`; follow-up requests are counted, not made. */
enum gc_status refresh_parse_one(const struct adapter *ad, const struct catalog *cat, int kind,
				 const char *body, size_t len, offer_cb cb, void *ctx,
				 size_t *queued, char **err);

#endif
