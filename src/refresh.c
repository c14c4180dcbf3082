/* refresh.c - run adapters over HTTP and store their offers. */
#include "gpucmp/refresh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gpucmp/config.h"
#include "gpucmp/hosted.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/strutil.h"

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct job {
	struct refresh *rf;
	const struct adapter *ad;    /* the live adapter, or &hosted */
	struct adapter hosted;       /* the catalog tier's plan for this provider */
	enum hosted_kind tier;       /* HOSTED_NONE: live */
	enum hosted_kind fallback;   /* live: the catalog tried when it fails (the plan's) */
	const char *source;          /* "live" | "catalog" */
	struct refresh_result *res;
	struct adapter_run run;
	struct offer_store store;
	struct cache_meta prev;      /* previous refresh record (conditional requests) */
	char *etag, *last_modified;  /* of this response */
	const char *key;
	int first;                   /* the next request is the first of the run */
	int started, finished;
	int inflight;                /* requests sent, not yet answered */
	int unchanged;               /* a 304 answered the (only) request */
	int failing;                 /* failed: wait for the requests in flight, then end */
	enum gc_status fail_status;
	char *fail_msg;
	char *tried;                 /* the tiers that failed before this one, "live:
					<why>; skypilot: <why>" (shown with its own) */
	double t0;
	size_t budget;               /* body bytes the crawl may still receive */
};

/* One request in flight: what its answer is parsed as. */
struct flight {
	struct job *j;
	struct adapter_request *req;
	char origin[1024];           /* its URL as the adapter wrote it (no key) */
	int validated;               /* it carried If-None-Match or If-Modified-Since */
	int first;                   /* the first request of the run (its validators are kept) */
};

/* Requests one provider may have in flight at once: its independent
 * endpoints (zones, a second list to join) overlap; pages still follow one
 * another because each is known only from the one before. */
enum { PER_PROVIDER_REQUESTS = 4 };

struct refresh {
	struct cache *cache;
	const struct catalog *cat;
	const struct refresh_opts *opts;
	struct rate_table rates;
	struct http_client *http;
	struct job *jobs;
	size_t njobs, next, running, done;
	char fetched_at[32];
	double deadline_s, deadline; /* the run's bound: seconds, and when (http_now) */
	size_t max_offers;
};

static char *dup_base(const char *s)
{
	char *b = strdup(s);
	if (b) {
		size_t n = strlen(b);
		while (n && b[n - 1] == '/')
			b[--n] = '\0';
	}
	return b;
}

static void start_next_jobs(struct refresh *rf);

/* What a started job holds, freed. */
static void job_release(struct job *j)
{
	free(j->fail_msg);
	j->fail_msg = NULL;
	adapter_run_release(&j->run);
	offer_store_free(&j->store);
	cache_meta_release(&j->prev);
	free(j->etag);
	free(j->last_modified);
	j->etag = j->last_modified = NULL;
	free((char *)j->run.base);
	j->run.base = NULL;
}

/* --verbose: one line about a provider. */
static void job_note(const struct refresh *rf, const char *id, const char *what)
{
	const struct http_opts *h = &rf->opts->http;
	char line[1024];
	if (!h->log)
		return;
	snprintf(line, sizeof line, "%.64s: %.900s", id, what);
	h->log(h->log_arg, line);
}

/* --verbose: what the crawl of a provider came to. */
static void job_log(const struct job *j, size_t dups)
{
	const struct http_opts *h = &j->rf->opts->http;
	const struct adapter_run *u = &j->run;
	if (!h->log)
		return;
	char line[512];
	size_t emitted = u->offers + u->skipped;
	int n = snprintf(
		line, sizeof line,
		"%s: %zu offers parsed, %zu kept, %zu dropped (%zu not a GPU offer, "
		"%zu bad number, %zu no price, %zu bad price, %zu unknown currency, "
		"%zu retired size, %zu duplicate); %zu with an unknown GPU, %zu with "
		"control characters replaced, %zu spot prices at or above on-demand dropped",
		j->ad->id, emitted, u->offers - dups, u->skipped + dups, u->drop_no_gpu,
		u->drop_bad_number, u->drop_no_price, u->drop_bad_price, u->drop_currency,
		u->drop_retired, dups, u->unknown_gpu, u->cleaned, u->spot_dropped);
	if (n > 0)
		h->log(h->log_arg, line);
	if (!u->zone_folded && !u->zone_outlying && !u->host_unpriced)
		return;
	n = snprintf(line, sizeof line,
		     "%s: %zu zone rows folded into their region's offer (lowest price of its "
		     "regular zones), %zu Local or Wavelength Zone rows left out, %zu GPU rows "
		     "left out whose host VM is priced $0 or not at all",
		     j->ad->id, u->zone_folded, u->zone_outlying, u->host_unpriced);
	if (n > 0)
		h->log(h->log_arg, line);
}

/* --verbose: the committed prices (reservations) the door stored and
 * refused, with the last refusal's reason (ingest.h). */
static void commits_log(const struct job *j)
{
	struct ingest_stats s;
	cache_ingest_stats(j->rf->cache, &s);
	if (!s.commits && !s.commits_refused)
		return;
	char what[160];
	snprintf(what, sizeof what, "%zu committed prices stored, %zu refused%s%s%s", s.commits,
		 s.commits_refused, s.commit_why ? " (the last: " : "",
		 s.commit_why ? s.commit_why : "", s.commit_why ? ")" : "");
	job_note(j->rf, j->ad->id, what);
}

/* A failure message as it may be shown and stored: the key (and a run-time
 * token) masked, control characters and broken UTF-8 as '?' (it quotes the
 * network: an API's error text, a URL). */
static char *clean_message(const struct job *j, const char *msg)
{
	char *m = strdup(msg ? msg : "failed");
	if (!m)
		return NULL;
	http_redact(m, j->key);
	http_redact(m, j->run.secret2);
	size_t n = strlen(m) + 1;
	char *c = malloc(n);
	if (c)
		str_sanitize(c, n, m);
	memset(m, 0, n - 1);
	free(m);
	return c;
}

static void job_start(struct job *j);

/* The tier tried after j's failed one: a live API's hosted catalog (the
 * plan's), SkyPilot's gpuhunt; HOSTED_NONE when none is left. */
static enum hosted_kind job_next_tier(const struct job *j)
{
	const struct hosted_map *m = hosted_find(j->res->id);
	if (j->tier == HOSTED_NONE)
		return j->fallback;
	return j->tier == HOSTED_SKYPILOT && m && m->gpuhunt ? HOSTED_GPUHUNT : HOSTED_NONE;
}

/* The failed tier's reason appended to j->tried ("live: <msg>"); left as
 * it was when memory ran out. */
static void job_tried(struct job *j, const char *msg)
{
	const char *kn = j->tier == HOSTED_NONE ? "live" : hosted_kind_name(j->tier);
	size_t n = (j->tried ? strlen(j->tried) : 0) + strlen(kn) + strlen(msg) + 8;
	char *t = malloc(n);
	if (!t)
		return;
	snprintf(t, n, "%s%s%s: %s", j->tried ? j->tried : "", j->tried ? "; " : "", kn, msg);
	free(j->tried);
	j->tried = t;
}

/* A tier failed for a reason of its own (an HTTP error, a transfer, a
 * body, the door refusing the answer): the next tier, when there is one
 * and the deadline has not come, is tried in the same run (docs/REFRESH.md,
 * "Tiers"); 1 when it is.  A live API's key never goes to a catalog. */
static int job_fallback(struct job *j, enum gc_status st, const char *msg)
{
	struct refresh *rf = j->rf;
	enum hosted_kind next = job_next_tier(j);
	if (next == HOSTED_NONE || st == GC_ENOMEM || st == GC_EIO || http_now() >= rf->deadline)
		return 0;
	char *m = clean_message(j, msg); /* the key and a run-time token masked */
	if (!m)
		return 0;
	char line[1024];
	snprintf(line, sizeof line, "the %s%s failed (%.800s); trying the %s catalog",
		 j->tier == HOSTED_NONE ? "live API" : hosted_kind_name(j->tier),
		 j->tier == HOSTED_NONE ? "" : " catalog", m, hosted_kind_name(next));
	job_note(rf, j->res->id, line);
	if (j->tier == HOSTED_NONE && !j->res->live_error)
		j->res->live_error = strdup(m);
	job_tried(j, m);
	free(m);
	size_t requests = j->run.requests;
	job_release(j);
	j->failing = j->unchanged = 0;
	j->inflight = 0;
	j->key = NULL;
	hosted_adapter(&j->hosted, j->res->id, next,
		       config_catalog_url(rf->opts->config, next, NULL, 0));
	j->ad = &j->hosted;
	j->tier = next;
	j->source = "catalog";
	j->res->tier = hosted_kind_name(next);
	rf->running--;
	job_start(j);
	if (!j->finished)
		j->run.requests += requests;
	return 1;
}

/* After a fallback that came through, what the provider's record says
 * (cache status LAST ERROR): "live: <why>; took the skypilot catalog";
 * NULL when no tier failed before this one. */
static const char *job_fallback_note(const struct job *j, char *out, size_t n)
{
	if (!j->tried)
		return NULL;
	snprintf(out, n, "%.900s; took the %s catalog", j->tried, hosted_kind_name(j->tier));
	return out;
}

/* A catalog's validators are its own: its ETag tagged with its kind
 * ("skypilot|<etag>"), so that one catalog's are never sent to another;
 * a new string, or NULL for a live API (or when memory ran out). */
static char *job_tagged_etag(const struct job *j)
{
	if (j->tier == HOSTED_NONE)
		return NULL;
	const char *kn = hosted_kind_name(j->tier);
	size_t n = strlen(kn) + (j->etag ? strlen(j->etag) : 0) + 2;
	char *tagged = malloc(n);
	if (tagged)
		snprintf(tagged, n, "%s|%s", kn, j->etag ? j->etag : "");
	return tagged;
}

/* Store a finished crawl's offers in one transaction; fills the result. */
static enum gc_status job_store(struct job *j, char **err)
{
	struct refresh *rf = j->rf;
	struct refresh_result *r = j->res;
	/* the same offer twice in one crawl (a list repeating a row,
	 * overlapping pages) is stored once */
	size_t dups = offer_store_dedupe(&j->store);
	j->run.unknown_gpu = 0;
	for (size_t i = 0; i < j->store.n; i++)
		j->run.unknown_gpu += !j->store.items[i].gpu;
	job_log(j, dups);
	char *tagged = job_tagged_etag(j), note[1024];
	struct cache_meta m = {j->source, rf->fetched_at, tagged ? tagged : j->etag,
			       tagged ? j->last_modified : NULL,
			       job_fallback_note(j, note, sizeof note), 0, 0};
	if (j->tier == HOSTED_NONE)
		m.last_modified = j->last_modified;
	size_t inserted = 0;
	cache_expect_rows(rf->cache, j->store.n);
	enum gc_status st = cache_store(rf->cache, j->ad->id, &m, offer_store_fill, &j->store,
					&inserted, err);
	if (st == GC_OK) {
		r->offers = inserted;
		r->unknown_gpu = j->run.unknown_gpu;
		r->skipped = j->run.skipped + dups;
		commits_log(j);
	}
	free(tagged);
	return st;
}

/* A provider's failure: its message cleaned, and recorded in the cache. */
static void job_failed(struct job *j, enum gc_status st, const char *msg)
{
	struct refresh_result *r = j->res;
	r->outcome = REFRESH_FAILED;
	r->status = st;
	r->message = clean_message(j, msg);
	char *e2 = NULL;
	/* the cache being unwritable is reported once, as the failure itself */
	if (cache_mark_failed(j->rf->cache, j->ad->id, r->message, &e2) != GC_OK && !r->message)
		r->message = e2, e2 = NULL;
	free(e2);
}

/* A failure's message; after a fallback, every tier's ("live: ...;
 * skypilot: ...; gpuhunt: ..."), a new string in *both (NULL: msg alone). */
static const char *job_both(struct job *j, const char *msg, char **both)
{
	*both = NULL;
	if (!j->tried)
		return msg;
	const char *kn = hosted_kind_name(j->tier), *last = msg ? msg : "failed";
	size_t n = strlen(j->tried) + strlen(kn) + strlen(last) + 8;
	if ((*both = malloc(n)))
		snprintf(*both, n, "%s; %s: %s", j->tried, kn, last);
	return *both ? *both : msg;
}

/* A catalog load whose offers name no date (no Last-Modified), or an
 * older one than the provider's offers in the cache, when every one of
 * those is dated (the snapshot, list prices, an import, a newer catalog):
 * keep them (*kept, their count).  A newer date replaces an older one; no
 * date never replaces a date.  A live answer is dated now: never kept. */
static enum gc_status job_keeps_dated(struct job *j, size_t *kept, char **err)
{
	*kept = 0;
	const char *load = NULL; /* the load's oldest date; NULL: one is undated */
	int undated = 0;
	for (size_t i = 0; i < j->store.n && !undated; i++) {
		const char *a = j->store.items[i].as_of;
		undated = !a;
		if (a && (!load || strcmp(a, load) < 0))
			load = a;
	}
	if (j->tier == HOSTED_NONE || !j->store.n)
		return GC_OK;
	long long n, dated;
	char oldest[32];
	enum gc_status st = cache_provider_dated(j->rf->cache, j->ad->id, &n, &dated, oldest,
						 sizeof oldest, err);
	/* RFC 3339 UTC: text order is time order */
	if (st == GC_OK && n > 0 && dated == n && (undated || strcmp(load, oldest) < 0))
		*kept = (size_t)n;
	return st;
}

/* A 304 answered: the offers are current again; after a fallback, the
 * record still says which tiers failed. */
static enum gc_status job_fresh(struct job *j, char **err)
{
	char note[1024];
	enum gc_status st = cache_mark_fresh(j->rf->cache, j->ad->id, j->rf->fetched_at, err);
	if (st == GC_OK && job_fallback_note(j, note, sizeof note))
		st = cache_note(j->rf->cache, j->ad->id, note, err);
	return st;
}

/* Settle a job: store its offers (or its failure) and free its run. */
static void job_end(struct job *j, enum refresh_outcome out, enum gc_status st, const char *msg)
{
	struct refresh *rf = j->rf;
	struct refresh_result *r = j->res;
	char *err = NULL, *both = NULL;
	if (out == REFRESH_FAILED && job_fallback(j, st, msg))
		return;
	size_t kept = 0;
	if (out == REFRESH_UPDATED && (st = job_keeps_dated(j, &kept, &err)) == GC_OK && kept) {
		out = REFRESH_KEPT;
		r->offers = kept;
	}
	r->outcome = out;
	r->seconds = mono_s() - j->t0;
	r->requests = j->run.requests;
	if (out == REFRESH_UPDATED && st == GC_OK)
		st = job_store(j, &err);
	else if ((out == REFRESH_UNCHANGED || out == REFRESH_KEPT) && st == GC_OK)
		st = job_fresh(j, &err);
	/* the door refused the answer: the next tier may have one it takes */
	if (out == REFRESH_UPDATED && st != GC_OK && job_fallback(j, st, err)) {
		free(err);
		return;
	}
	if (out == REFRESH_FAILED || st != GC_OK)
		job_failed(j, st, job_both(j, st != GC_OK && out != REFRESH_FAILED ? err : msg,
					   &both));
	free(both);
	free(err);
	free(j->tried);
	j->tried = NULL;
	job_release(j);
	j->finished = 1;
	rf->running--;
	rf->done++;
	if (rf->opts->progress)
		rf->opts->progress(rf->opts->progress_arg, r, rf->done, rf->njobs);
	start_next_jobs(rf);
}

static void on_response(void *user, struct http_response *resp);

/* Remember the first failure; the job ends once nothing is in flight. */
static void job_fail(struct job *j, enum gc_status st, const char *msg)
{
	if (j->failing)
		return;
	j->failing = 1;
	j->fail_status = st;
	j->fail_msg = strdup(msg ? msg : "failed");
}

/* The key where the adapter wants it: an Authorization or named header
 * (into auth, n bytes, then hr's headers), or a query parameter (the
 * returned URL, new; NULL also when memory ran out: *oom). */
static char *job_auth(const struct job *j, const struct adapter_request *q,
		      struct http_request *hr, size_t *nh, char *auth, size_t n, int *oom)
{
	const struct adapter *ad = j->ad;
	*oom = 0;
	if (!j->key || q->no_key || ad->auth == ADAPTER_AUTH_NONE)
		return NULL;
	if (ad->key_style == ADAPTER_KEY_BEARER) {
		snprintf(auth, n, "Authorization: Bearer %s", j->key);
		hr->headers[(*nh)++] = auth;
	} else if (ad->key_style == ADAPTER_KEY_HEADER) {
		snprintf(auth, n, "%s: %s", ad->key_name, j->key);
		hr->headers[(*nh)++] = auth;
	} else if (ad->key_style == ADAPTER_KEY_QUERY) {
		char enc[512];
		adapter_urlencode(enc, sizeof enc, j->key);
		size_t len = strlen(q->url) + strlen(ad->key_name) + strlen(enc) + 3;
		char *url = malloc(len);
		if (url)
			snprintf(url, len, "%s%c%s=%s", q->url, strchr(q->url, '?') ? '&' : '?',
				 ad->key_name, enc);
		*oom = !url;
		return url;
	}
	return NULL;
}

/* The adapter's own headers after the first nh, and a JSON body's
 * Content-Type unless it set one. */
static void job_headers(const struct adapter_request *q, struct http_request *hr, size_t nh)
{
	for (size_t i = 0; i < ADAPTER_MAX_HEADERS && q->headers[i] && nh < HTTP_MAX_HEADERS; i++)
		hr->headers[nh++] = q->headers[i];
	if (q->body && nh < HTTP_MAX_HEADERS) {
		int has_ct = 0;
		for (size_t i = 0; i < nh; i++)
			has_ct |= strncasecmp(hr->headers[i], "Content-Type:", 13) == 0;
		if (!has_ct)
			hr->headers[nh++] = "Content-Type: application/json";
	}
}

/* Does v hold the key, or a run-time token (as http_redact masks them)? */
static int job_secret_in(const struct job *j, const char *v)
{
	return http_mentions(v, j->key) || http_mentions(v, j->run.secret2);
}

/* A received validator as it may be stored and sent back: a new string, or
 * NULL for none.  One that echoes the key is dropped, not stored masked (a
 * masked ETag matches nothing): the cache never holds the key, and the
 * next refresh simply asks without it. */
static char *job_validator(const struct job *j, const char *v)
{
	return v && !job_secret_in(j, v) ? strdup(v) : NULL;
}

/* The first request of a conditional adapter carries the previous
 * refresh's validators (of the same source and tier); 1 when it does. */
static int job_validators(const struct job *j, struct http_request *hr)
{
	if (!j->first || !j->ad->conditional || !j->prev.source || j->prev.stale ||
	    strcmp(j->prev.source, j->source) != 0)
		return 0;
	/* only validators http_add will send: a 304 counts only as the
	 * answer to one of them */
	const char *inm = j->prev.etag, *ims = j->prev.last_modified;
	if (j->tier != HOSTED_NONE) {
		const char *kn = hosted_kind_name(j->tier);
		size_t kl = strlen(kn);
		if (inm && strncmp(inm, kn, kl) == 0 && inm[kl] == '|')
			inm = inm[kl + 1] ? inm + kl + 1 : NULL;
		else
			inm = ims = NULL; /* another catalog's, or a live API's */
	}
	/* nor one holding the key, from a cache an older gpucmp wrote: not
	 * sent, so the answer's validators replace it */
	if (http_validator_ok(inm) && !job_secret_in(j, inm))
		hr->if_none_match = inm;
	if (http_validator_ok(ims) && !job_secret_in(j, ims))
		hr->if_modified_since = ims;
	return hr->if_none_match || hr->if_modified_since;
}

/* A request that could not be sent: freed, and the job failing. */
static int job_unsent(struct job *j, struct adapter_request *q, struct flight *f,
		      enum gc_status st, const char *msg)
{
	adapter_request_release(q);
	free(q);
	free(f);
	job_fail(j, st, msg);
	return -1;
}

/* Send one request; returns 0, or -1 after job_fail. */
static int job_send(struct job *j, struct adapter_request *q)
{
	char *err = NULL, auth[1024] = "";
	struct flight *f = calloc(1, sizeof *f);
	if (!f)
		return job_unsent(j, q, NULL, GC_ENOMEM, "out of memory");
	f->j = j;
	f->req = q;
	struct http_request hr;
	memset(&hr, 0, sizeof hr);
	hr.method = q->method ? q->method : (q->body ? "POST" : "GET");
	hr.body = q->body;
	size_t nh = 0;
	int oom;
	char *url = job_auth(j, q, &hr, &nh, auth, sizeof auth, &oom);
	job_headers(q, &hr, nh);
	hr.url = url ? url : q->url;
	hr.label = j->ad->id;
	hr.deadline = j->rf->deadline;
	hr.budget = &j->budget;
	f->first = j->first;
	f->validated = job_validators(j, &hr);
	j->first = 0;
	/* the adapter's URL, query included (which page broke matters); the key
	 * is only ever added to the copy sent, never to q->url; userinfo of a
	 * GPUCMP_<ID>_BASE_URL and credential-like parameters are masked */
	http_url_redact(f->origin, sizeof f->origin, q->url, j->key);
	enum gc_status st = oom ? err_set(&err, GC_ENOMEM, "out of memory")
				: http_add(j->rf->http, &hr, j->key, on_response, f, &err);
	memset(auth, 0, sizeof auth);
	if (url) {
		memset(url, 0, strlen(url));
		free(url);
	}
	if (st != GC_OK) {
		job_unsent(j, q, f, st, err);
		free(err);
		return -1;
	}
	j->inflight++;
	return 0;
}

/* Send what the queue holds (up to the per-provider limit); once nothing
 * is in flight, finish the job. */
static void job_pump(struct job *j)
{
	while (!j->failing && !j->unchanged && j->inflight < PER_PROVIDER_REQUESTS) {
		struct adapter_request *q = adapter_next(&j->run);
		if (!q) {
			if (j->run.qhead < j->run.nqueue)
				job_fail(j, GC_ENOMEM, "out of memory");
			break;
		}
		if (job_send(j, q) != 0)
			break;
	}
	if (j->inflight)
		return;
	if (j->failing) {
		job_end(j, REFRESH_FAILED, j->fail_status, j->fail_msg);
		return;
	}
	if (j->unchanged) {
		job_end(j, REFRESH_UNCHANGED, GC_OK, NULL);
		return;
	}
	char *err = NULL;
	enum gc_status st = j->ad->finish ? j->ad->finish(&j->run, &err) : GC_OK;
	if (st == GC_OK)
		job_end(j, REFRESH_UPDATED, GC_OK, NULL);
	else
		job_end(j, REFRESH_FAILED, st, err);
	free(err);
}

static int is_json_type(const char *ct)
{
	return !ct || strstr(ct, "json") != NULL || strstr(ct, "text/plain") != NULL ||
	       strstr(ct, "octet-stream") != NULL;
}

/* A transfer that failed: why, in words that say which cap or deadline
 * to raise.  Returns -1 after job_fail. */
static int job_transfer_failed(struct job *j, const struct flight *f,
			       const struct http_response *resp)
{
	const struct refresh *rf = j->rf;
	char msg[1200];
	if (resp->over_budget) {
		snprintf(
			msg, sizeof msg,
			"%s: more than %zu bytes received in one refresh of this provider (the cap "
			"of a crawl; raise it with GPUCMP_REFRESH_MAX_BYTES)",
			f->origin,
			rf->opts->max_bytes ? rf->opts->max_bytes : REFRESH_DEFAULT_MAX_BYTES);
		job_fail(j, resp->error, msg);
	} else if (resp->past_deadline) {
		snprintf(msg, sizeof msg,
			 "%s (the refresh's deadline of %g s; raise it with --deadline)",
			 resp->message ? resp->message : f->origin, rf->deadline_s);
		job_fail(j, resp->error, msg);
	} else {
		job_fail(j, resp->error, resp->message);
	}
	return -1;
}

/* Is this answer one to parse?  0 when it is, 1 for a 304 that says the
 * stored offers are current, -1 after job_fail. */
static int job_check(struct job *j, const struct flight *f, const struct http_response *resp)
{
	char msg[1200];
	if (resp->error != GC_OK)
		return job_transfer_failed(j, f, resp);
	if (resp->status == 304 && j->ad->conditional) {
		if (f->validated)
			return 1;
		/* nothing was asked: a 304 cannot say the stored offers are current */
		snprintf(msg, sizeof msg,
			 "%s: HTTP 304 Not Modified to a request without a validator (a broken "
			 "server or proxy?)",
			 f->origin);
	} else if (resp->status < 200 || resp->status > 299) {
		snprintf(msg, sizeof msg, "%s: HTTP %ld", f->origin, resp->status);
	} else if (!is_json_type(resp->content_type) && resp->body.len &&
		   resp->body.ptr[0] == '<') {
		snprintf(msg, sizeof msg, "%s: got %s, not JSON (an error page?)", f->origin,
			 resp->content_type);
	} else {
		return 0;
	}
	job_fail(j, GC_EDATA, msg);
	return -1;
}

/* Check and parse one answer; returns 0, or -1 after job_fail. */
static int job_answer(struct job *j, struct flight *f, const struct http_response *resp)
{
	char *err = NULL;
	int c = job_check(j, f, resp);
	if (c > 0)
		j->unchanged = 1;
	if (c)
		return c > 0 ? 0 : -1;
	if (j->ad->conditional && f->first) {
		/* the first answer's validators: the one request of a live
		 * conditional adapter, a catalog's file or version */
		free(j->etag);
		free(j->last_modified);
		j->etag = job_validator(j, resp->etag);
		j->last_modified = job_validator(j, resp->last_modified);
	}
	/* offers record the URL without its query: Azure's filter alone is
	 * longer than the rest of a row, and the page is in the messages */
	char origin[sizeof f->origin];
	snprintf(origin, sizeof origin, "%s", f->origin);
	origin[strcspn(origin, "?")] = '\0';
	j->run.origin = origin;
	j->run.last_modified = resp->last_modified;
	enum gc_status st = j->ad->parse(&j->run, f->req, resp->body.ptr ? resp->body.ptr : "",
					 resp->body.len, &err);
	j->run.origin = NULL;
	j->run.last_modified = NULL;
	if (st != GC_OK) {
		err_prefix(&err, "%s", f->origin);
		job_fail(j, st, err);
		free(err);
		return -1;
	}
	return 0;
}

static void on_response(void *user, struct http_response *resp)
{
	struct flight *f = user;
	struct job *j = f->j;
	j->inflight--;
	if (!j->failing)
		job_answer(j, f, resp);
	adapter_request_release(f->req);
	free(f->req);
	free(f);
	job_pump(j);
}

/* The emit callback of a crawl: the offer store, up to the cap. */
static enum gc_status job_emit(void *ctx, const struct offer *o, char **err)
{
	struct job *j = ctx;
	if (j->store.n >= j->rf->max_offers)
		return err_set(err, GC_EDATA,
			       "more than %zu offers (the cap per provider; raise it with "
			       "GPUCMP_REFRESH_MAX_OFFERS)",
			       j->rf->max_offers);
	return offer_store_cb(&j->store, o, err);
}

static void job_start(struct job *j)
{
	struct refresh *rf = j->rf;
	char *err = NULL;
	if (!j->started)
		j->t0 = mono_s(); /* a fallback's time counts with the tier before */
	j->started = 1;
	rf->running++;
	/* a catalog job's base is its catalog's (hosted_adapter), never the
	 * live API's GPUCMP_<ID>_BASE_URL */
	const char *base =
		j->tier == HOSTED_NONE ? refresh_base_url(j->ad, rf->opts->config, NULL, 0) : NULL;
	char *b = dup_base(base ? base : j->ad->base_url);
	offer_store_init(&j->store);
	adapter_run_init(&j->run, j->ad, b, j->key);
	j->run.gpus = rf->cat->gpus;
	j->run.types = rf->cat->types;
	j->run.rates = &rf->rates;
	j->run.fetched_at = rf->fetched_at;
	j->run.emit = job_emit;
	j->run.emit_ctx = j;
	j->run.max_offers = rf->max_offers;
	j->first = 1;
	j->budget = rf->opts->max_bytes ? rf->opts->max_bytes : REFRESH_DEFAULT_MAX_BYTES;
	if (!b) {
		/* adapter_run_init put the adapter's built-in URL there: not ours to free */
		j->run.base = NULL;
		job_end(j, REFRESH_FAILED, GC_ENOMEM, "out of memory");
		return;
	}
	cache_get_meta(rf->cache, j->ad->id, &j->prev, NULL);
	enum gc_status st = j->ad->start(&j->run, &err);
	if (st != GC_OK) {
		job_end(j, REFRESH_FAILED, st, err);
		free(err);
		return;
	}
	job_pump(j);
}

static void start_next_jobs(struct refresh *rf)
{
	int limit = rf->opts->jobs > 0 ? rf->opts->jobs : 1;
	while (rf->next < rf->njobs && rf->running < (size_t)limit)
		job_start(&rf->jobs[rf->next++]);
}

/* A provider that refreshed from the same tier less than max_age ago
 * (not since failed): its age in seconds, else -1. */
static long long recent_age(struct refresh *rf, const char *id, const char *source)
{
	struct cache_meta m;
	if (rf->opts->max_age < 0 || cache_get_meta(rf->cache, id, &m, NULL) != GC_OK)
		return -1;
	long long t = m.fetched_at ? str_time_epoch(m.fetched_at) : -1;
	long long age = catalog_now() - t;
	int fresh = t >= 0 && !m.stale && m.source && strcmp(m.source, source) == 0 &&
		    age < rf->opts->max_age;
	cache_meta_release(&m);
	return fresh ? age : -1;
}

/* A provider skipped before any I/O keeps what it has; its record says
 * why (cache status), even when it has no offers: "skipped: no key: ..."
 * for want of a key. */
static void skip_record(struct refresh *rf, const struct refresh_plan *p)
{
	char rec[sizeof p->hint + 32] = "", *e = NULL;
	if (p->named && p->skip == REFRESH_NO_KEY)
		snprintf(rec, sizeof rec, "skipped: no key: %s", p->hint);
	cache_note(rf->cache, p->id, rec[0] ? rec : p->note, &e);
	free(e);
}

/* Set a job up from its plan, or settle a provider skipped before any
 * I/O (the plan's, or refreshed recently); 1 when skipped. */
static int pre_skip(struct refresh *rf, struct job *j, const struct refresh_plan *p)
{
	struct refresh_result *r = j->res;
	if (p->live) {
		j->ad = p->live;
		j->key = p->key;
		j->tier = HOSTED_NONE;
		j->fallback = p->fallback;
		j->source = "live";
		r->tier = "live";
		r->keyed = p->key && p->live->auth != ADAPTER_AUTH_NONE;
	} else if (p->catalog != HOSTED_NONE) {
		hosted_adapter(&j->hosted, r->id, p->catalog,
			       config_catalog_url(rf->opts->config, p->catalog, NULL, 0));
		j->ad = &j->hosted;
		j->tier = p->catalog;
		j->source = "catalog";
		r->tier = hosted_kind_name(p->catalog);
		job_note(rf, r->id, p->note);
	} else {
		r->outcome = p->skip;
		r->named = p->named;
		r->message = strdup(p->note);
		job_note(rf, r->id, p->note);
		skip_record(rf, p);
		return 1;
	}
	long long age = recent_age(rf, r->id, j->source);
	if (age < 0)
		return 0;
	r->outcome = REFRESH_RECENT;
	r->age = age;
	return 1;
}

static void refresh_init(struct refresh *rf, struct cache *c, const struct catalog *cat,
			 const struct refresh_opts *opts)
{
	memset(rf, 0, sizeof *rf);
	rf->cache = c;
	rf->cat = cat;
	rf->opts = opts;
	str_time_format(catalog_now(), rf->fetched_at, sizeof rf->fetched_at);
	rf->deadline_s = opts->deadline_s > 0 ? opts->deadline_s : REFRESH_DEFAULT_DEADLINE_S;
	rf->deadline = http_now() + rf->deadline_s;
	rf->max_offers = opts->max_offers ? opts->max_offers : REFRESH_DEFAULT_MAX_OFFERS;
	adapter_json_budget(opts->max_json_values);
}

/* A job for each provider of the plan; one skipped before any I/O
 * leaves only its result. */
static void refresh_jobs(struct refresh *rf, const struct refresh_plan *plan, size_t n,
			 struct refresh_result *res)
{
	for (size_t i = 0; i < n; i++) {
		struct job *j = &rf->jobs[rf->njobs];
		memset(j, 0, sizeof *j);
		j->rf = rf;
		j->res = &res[i];
		res[i].id = plan[i].id;
		if (!pre_skip(rf, j, &plan[i]))
			rf->njobs++;
	}
}

/* Run the jobs to the end; frees what the run holds, not the results. */
static enum gc_status refresh_crawl(struct refresh *rf, const struct refresh_plan *plan,
				    size_t n, struct refresh_result *res, char **err)
{
	enum gc_status st = rates_load_embedded(&rf->rates, err);
	if (st == GC_OK)
		st = http_client_new(&rf->http, &rf->opts->http, err);
	if (st == GC_OK) {
		refresh_jobs(rf, plan, n, res);
		start_next_jobs(rf);
		st = http_client_run(rf->http, err);
	}
	http_client_free(rf->http);
	for (size_t i = 0; i < rf->njobs; i++) {
		if (rf->jobs[i].started && !rf->jobs[i].finished)
			/* only after libcurl's multi interface itself failed; the
			 * flight records of its unfinished transfers are lost with it */
			job_release(&rf->jobs[i]);
		free(rf->jobs[i].tried);
	}
	rates_free(&rf->rates);
	return st;
}

enum gc_status refresh_run(struct cache *c, const struct catalog *cat,
			   const struct refresh_opts *opts, struct refresh_result **results,
			   size_t *nresults, char **err)
{
	*results = NULL;
	*nresults = 0;
	struct refresh rf;
	refresh_init(&rf, c, cat, opts);
	struct refresh_plan *plan = NULL;
	size_t n = 0;
	enum gc_status st = refresh_plan(opts, &plan, &n, err);
	if (st != GC_OK)
		return st;
	struct refresh_result *res = calloc(n ? n : 1, sizeof *res);
	rf.jobs = calloc(n ? n : 1, sizeof *rf.jobs);
	if (!res || !rf.jobs)
		st = err_set(err, GC_ENOMEM, "out of memory");
	else
		st = refresh_crawl(&rf, plan, n, res, err);
	free(plan);
	free(rf.jobs);
	if (st != GC_OK) {
		refresh_results_free(res, n);
		return st;
	}
	*results = res;
	*nresults = n;
	return GC_OK;
}

void refresh_results_free(struct refresh_result *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++) {
		free(r[i].message);
		free(r[i].live_error);
	}
	free(r);
}

enum gc_status refresh_parse_one(const struct adapter *ad, const struct catalog *cat, int kind,
				 const char *body, size_t len, offer_cb cb, void *ctx,
				 size_t *queued, char **err)
{
	struct adapter_run run;
	struct rate_table rates;
	enum gc_status st = rates_load_embedded(&rates, err);
	if (st != GC_OK)
		return st;
	adapter_run_init(&run, ad, ad->base_url, NULL);
	run.gpus = cat->gpus;
	run.types = cat->types;
	run.rates = &rates;
	run.fetched_at = "2026-01-01T00:00:00Z";
	run.origin = ad->base_url;
	run.emit = cb;
	run.emit_ctx = ctx;
	struct adapter_request req;
	memset(&req, 0, sizeof req);
	req.kind = kind;
	req.url = (char *)ad->base_url;
	st = ad->parse(&run, &req, body, len, err);
	if (st == GC_OK && ad->finish)
		st = ad->finish(&run, err);
	if (queued)
		*queued = run.nqueue - run.qhead;
	adapter_run_release(&run);
	rates_free(&rates);
	return st;
}
