/* team_merge.c - a team snapshot's payload into the cache (team.h,
 * docs/TEAM.md): its lines read one at a time, inflated from gzip as they
 * are needed, so a pull holds at most two lines' worth of text whatever
 * the payload inflates to; each line parsed under a cap on its JSON
 * values; each provider record and its offers merged through cache_store
 * in the caller's transaction, matched against the manifest as it goes. */
#include "gpucmp/ingest.h"
#include "gpucmp/team.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gpucmp/adapter.h"
#include "gpucmp/import.h"

struct team_lines {
	const unsigned char *in; /* the payload, borrowed */
	size_t in_len, in_at;    /* plain text: how much is consumed */
	int gzip, zlive;         /* gzip: z is initialised */
	z_stream z;
	char *buf;               /* 2 * TEAM_MAX_LINE bytes */
	size_t start, end;       /* the bytes not yet read: buf[start, end) */
	size_t scanned;          /* buf[start, scanned) holds no newline */
	int eof;                 /* no more input: the stream ended */
	size_t line;             /* of the last one read, from 1 */
	size_t inflated, max_inflated;
};

enum { BUF_SIZE = 2 * TEAM_MAX_LINE };

enum gc_status team_lines_open(struct team_lines **out, const void *data, size_t len, int gzip,
			       char **err)
{
	struct team_lines *l = calloc(1, sizeof *l);
	*out = NULL;
	if (!l || !(l->buf = malloc(BUF_SIZE))) {
		free(l);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	l->in = data;
	l->in_len = data ? len : 0;
	l->gzip = gzip;
	l->max_inflated = TEAM_MAX_INFLATED;
	if (gzip && inflateInit2(&l->z, 16 + MAX_WBITS) != Z_OK) {
		free(l->buf);
		free(l);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	l->zlive = gzip;
	if (gzip)
		l->z.next_in = (Bytef *)(uintptr_t)l->in;
	*out = l;
	return GC_OK;
}

void team_lines_cap(struct team_lines *l, size_t max_inflated)
{
	if (max_inflated < l->max_inflated)
		l->max_inflated = max_inflated;
}

void team_lines_close(struct team_lines *l)
{
	if (!l)
		return;
	if (l->zlive)
		inflateEnd(&l->z);
	free(l->buf);
	free(l);
}

/* Inflate into buf[end, BUF_SIZE): the stream's next bytes. */
static enum gc_status inflate_more(struct team_lines *l, char **err)
{
	size_t left = l->in_len - (size_t)(l->z.next_in - l->in);
	l->z.avail_in = left > (1u << 30) ? (1u << 30) : (uInt)left;
	l->z.next_out = (Bytef *)l->buf + l->end;
	l->z.avail_out = (uInt)(BUF_SIZE - l->end);
	int zr = inflate(&l->z, Z_NO_FLUSH);
	size_t got = (size_t)(BUF_SIZE - l->end) - l->z.avail_out;
	l->end += got;
	l->inflated += got;
	if (zr == Z_MEM_ERROR)
		return err_set(err, GC_ENOMEM, "out of memory");
	if (zr == Z_STREAM_END)
		l->eof = 1;
	else if (zr == Z_BUF_ERROR && l->z.avail_in == 0)
		return err_set(err, GC_EDATA, "the payload is cut short (its gzip stream ends "
			       "early)");
	else if (zr != Z_OK)
		return err_set(err, GC_EDATA, "the payload is not gzip, or is damaged");
	if (l->inflated > l->max_inflated)
		return err_set(err, GC_EDATA, "the payload inflates past %zu bytes",
			       l->max_inflated);
	return GC_OK;
}

/* More bytes into buf, after moving the unread ones to its start. */
static enum gc_status fill(struct team_lines *l, char **err)
{
	if (l->start) {
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->scanned -= l->start;
		l->start = 0;
	}
	if (l->gzip)
		return inflate_more(l, err);
	size_t n = l->in_len - l->in_at;
	if (n > BUF_SIZE - l->end)
		n = BUF_SIZE - l->end;
	if (n)
		memcpy(l->buf + l->end, l->in + l->in_at, n);
	l->end += n;
	l->in_at += n;
	l->eof = l->in_at == l->in_len;
	return GC_OK;
}

/* The next line's bytes, buf[*at, *at + *n); *n SIZE_MAX at the end. */
static enum gc_status next_text(struct team_lines *l, size_t *at, size_t *n, char **err)
{
	for (;;) {
		char *nl = memchr(l->buf + l->scanned, '\n', l->end - l->scanned);
		size_t len = nl ? (size_t)(nl - (l->buf + l->start)) : l->end - l->start;
		if (nl || (l->eof && len)) {
			if (len > TEAM_MAX_LINE)
				break;
			*at = l->start;
			*n = len;
			l->start += len + (nl != NULL);
			l->scanned = l->start;
			l->line++;
			return GC_OK;
		}
		if (l->eof) {
			*n = SIZE_MAX;
			return GC_OK;
		}
		if (len > TEAM_MAX_LINE)
			break;
		l->scanned = l->end;
		enum gc_status st = fill(l, err);
		if (st != GC_OK)
			return st;
	}
	return err_set(err, GC_EDATA, "payload line %zu is longer than %zu bytes (an offer's line "
		       "is about 600)", l->line + 1, TEAM_MAX_LINE);
}

enum gc_status team_lines_next(struct team_lines *l, json_t **out, char **err)
{
	size_t at, n;
	*out = NULL;
	enum gc_status st = next_text(l, &at, &n, err);
	if (st != GC_OK || n == SIZE_MAX)
		return st;
	st = adapter_json_capped(l->buf + at, n, TEAM_LINE_MAX_VALUES, JSON_REJECT_DUPLICATES, out,
				 err);
	if (st != GC_OK)
		err_prefix(err, "payload line %zu", l->line);
	return st;
}

/* One provider's group of lines: its record, then `offers` offer lines. */
struct group {
	struct team_lines *l;
	const char *provider;
	size_t offers;
};

/* The next line of g, which must be there. */
static enum gc_status group_line(struct group *g, json_t **j, char **err)
{
	enum gc_status st = team_lines_next(g->l, j, err);
	if (st == GC_OK && !*j)
		st = err_set(err, GC_EDATA, "the payload ends inside %s's offers", g->provider);
	return st;
}

/* cache_fill_fn: the group's offers through the door into the cache. */
static enum gc_status fill_offers(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct group *g = arg;
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < g->offers; i++) {
		json_t *j = NULL;
		struct offer o;
		int stale;
		st = group_line(g, &j, err);
		if (st == GC_OK)
			st = team_offer_read(j, &o, &stale, err);
		if (st == GC_OK && strcmp(o.provider, g->provider) != 0)
			st = err_set(err, GC_EDATA, "payload line %zu: an offer of '%s' among %s's",
				     g->l->line, o.provider, g->provider);
		if (st == GC_OK)
			st = offer_deliver(cb, ctx, &o, NULL, err);
		json_decref(j);
	}
	return st;
}

static enum gc_status skip(struct group *g, char **err)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < g->offers; i++) {
		json_t *j = NULL;
		st = group_line(g, &j, err);
		json_decref(j);
	}
	return st;
}

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The provider record `rec` (a payload line) into t and *g. */
static enum gc_status read_record(json_t *rec, struct team_lines *l, struct team_provider *t,
				  struct group *g, char **err)
{
	const char *id = jstr(rec, "provider"), *type = jstr(rec, "type");
	json_t *n = json_object_get(rec, "offers");
	if (!type || strcmp(type, "provider") != 0 || !id || !import_valid_id(id) ||
	    !json_is_integer(n) || json_integer_value(n) < 0 || !jstr(rec, "source") ||
	    !jstr(rec, "fetched_at"))
		return err_set(err, GC_EDATA, "payload line %zu is not a provider record", l->line);
	memset(t, 0, sizeof *t);
	snprintf(t->id, sizeof t->id, "%s", id);
	/* none: for live and snapshot data its fetched_at (the cache's rule,
	 * OFFER_DATA_DATE), for any other source no date (an undated catalog),
	 * never its fetched_at in its place */
	const char *as_of = jstr(rec, "as_of"), *src = jstr(rec, "source");
	if (!as_of && (strcmp(src, "live") == 0 || strcmp(src, "snapshot") == 0))
		as_of = jstr(rec, "fetched_at");
	/* the dates decide what is newer, as strings: only real ones, never
	 * one after now (a record of 9999 froze the provider for good) */
	char what[96];
	snprintf(what, sizeof what, "payload line %zu: %s's as_of", l->line, id);
	enum gc_status st = as_of ? ingest_check_date(what, as_of, 0, err) : GC_OK;
	snprintf(what, sizeof what, "payload line %zu: %s's fetched_at", l->line, id);
	if (st == GC_OK)
		st = ingest_check_date(what, jstr(rec, "fetched_at"), 0, err);
	if (st != GC_OK)
		return st;
	snprintf(t->as_of, sizeof t->as_of, "%s", as_of ? as_of : "");
	t->offers = (size_t)json_integer_value(n);
	*g = (struct group){l, t->id, t->offers};
	return GC_OK;
}

/* The record t (the r->nproviders'th) against those before it and the
 * manifest m (NULL: none). */
static enum gc_status check_record(const struct team_pull_result *r, const struct team_provider *t,
				   const struct team_manifest *m, size_t line, char **err)
{
	for (size_t i = 0; i < r->nproviders; i++)
		if (strcmp(r->providers[i].id, t->id) == 0)
			return err_set(err, GC_EDATA, "payload line %zu: provider '%s' a second "
				       "time", line, t->id);
	if (!m)
		return GC_OK;
	const struct team_manifest_provider *e =
		r->nproviders < m->nproviders ? &m->providers[r->nproviders] : NULL;
	if (!e)
		return err_set(err, GC_EDATA, "payload line %zu: provider '%s' is not in the "
			       "manifest (it lists %zu providers)", line, t->id, m->nproviders);
	if (strcmp(e->id, t->id) != 0 || e->offers != t->offers)
		return err_set(err, GC_EDATA, "payload line %zu: provider '%s' with %zu offers "
			       "where the manifest lists '%s' with %zu", line, t->id, t->offers,
			       e->id, e->offers);
	return GC_OK;
}

/* Store or keep one provider as its dates and `force` say. */
static enum gc_status merge_one(struct cache *c, int force, json_t *rec, struct team_provider *t,
				struct group *g, char **err)
{
	enum gc_status st = cache_provider_as_of(c, t->id, t->local_as_of, sizeof t->local_as_of,
						 err);
	/* a local date that is none (no offers, or one of unknown age), or in
	 * the future (stored before the door checked dates), is older than any
	 * real one; snapshot data without a date never replaces dated data */
	int local = ingest_date(t->local_as_of, 0) >= 0;
	int cmp = !local ? -1 : !t->as_of[0] ? 1 : strcmp(t->local_as_of, t->as_of);
	t->outcome = force || cmp < 0 ? TEAM_STORED : cmp > 0 ? TEAM_KEPT_NEWER
								    : TEAM_CURRENT;
	if (st != GC_OK || t->outcome != TEAM_STORED)
		return st == GC_OK ? skip(g, err) : st;
	int stale = json_is_true(json_object_get(rec, "stale"));
	struct cache_meta meta = {jstr(rec, "source"), jstr(rec, "fetched_at"), NULL, NULL,
				  jstr(rec, "last_error"), stale, 0};
	cache_expect_rows(c, t->offers);
	st = cache_store(c, t->id, &meta, fill_offers, g, NULL, err);
	if (st != GC_OK)
		err_prefix(err, "%s", t->id);
	return st;
}

/* Every group of the payload (in the caller's transaction).  A pull
 * mirrors the publisher, whose own refresh ran the plausible-answer guard
 * against its previous data: here the dates decide, so min_keep_percent is
 * not applied again (a client still on the built-in snapshot's 391 lambda
 * rows took no team snapshot of lambda's real 20). */
enum gc_status team_merge_lines(struct cache *c, struct team_lines *l,
				const struct team_manifest *m, int force,
				struct team_pull_result *r, char **err)
{
	cache_set_guard(c, force, 0);
	size_t cap = 0;
	json_t *rec = NULL;
	enum gc_status st;
	while ((st = team_lines_next(l, &rec, err)) == GC_OK && rec) {
		struct group g;
		if (buf_grow_array(&r->providers, &cap, r->nproviders, sizeof *r->providers,
				   16) != GC_OK)
			st = err_set(err, GC_ENOMEM, "out of memory");
		struct team_provider *t = &r->providers[r->nproviders];
		if (st == GC_OK)
			st = read_record(rec, l, t, &g, err);
		if (st == GC_OK)
			st = check_record(r, t, m, l->line, err);
		if (st == GC_OK && (st = merge_one(c, force, rec, t, &g, err)) == GC_OK)
			r->nproviders++;
		json_decref(rec);
		if (st != GC_OK)
			return st;
	}
	if (st == GC_OK && m && r->nproviders != m->nproviders)
		st = err_set(err, GC_EDATA, "the payload holds %zu providers, the manifest lists "
			     "%zu", r->nproviders, m->nproviders);
	return st;
}

enum gc_status team_merge(struct cache *c, const char *data, size_t len, int force,
			  struct team_pull_result *r, char **err)
{
	memset(r, 0, sizeof *r);
	struct team_lines *l = NULL;
	enum gc_status st = team_lines_open(&l, data, len, 0, err);
	if (st == GC_OK)
		st = cache_begin(c, err);
	if (st == GC_OK)
		st = cache_end(c, team_merge_lines(c, l, NULL, force, r, err), err);
	team_lines_close(l);
	if (st != GC_OK)
		team_pull_result_release(r);
	return st;
}

/* Here, not in team_pull.c: the merge fills a result too, and a pull
 * merges (one way, team_pull.c -> team_merge.c). */
void team_pull_result_release(struct team_pull_result *r)
{
	free(r->providers);
	r->providers = NULL;
	r->nproviders = 0;
}
