/* cache_state.c - each provider's refresh record (table provider_state:
 * failed, skipped, fresh again, read back), the per-provider status and
 * the offer count.  Calls cache_db.c only. */
#include <stdlib.h>
#include <string.h>

#include "cache_int.h"
#include "sqlite_int.h"

/* One statement of a two-step update: its SQL, the words of its error and
 * how many of the parameters it takes. */
struct step {
	const char *sql, *what;
	int nparams;
};

/* Both steps in one transaction, with the parameters `p`. */
static enum gc_status run_steps(struct cache *c, const struct step steps[2], const char *const *p,
				char **err)
{
	enum gc_status st = cache_tx_begin(c, err);
	for (int i = 0; i < 2 && st == GC_OK; i++)
		st = cache_run(c, steps[i].sql, steps[i].what, err, steps[i].nparams, p);
	return cache_tx_end(c, st, err);
}

enum gc_status cache_mark_failed(struct cache *c, const char *provider, const char *error,
				 char **err)
{
	static const struct step steps[2] = {
		{"UPDATE offer SET stale = 1 WHERE provider = ?1", "cannot mark offers stale", 1},
		{"INSERT INTO provider_state(provider, stale, last_error)"
		 " VALUES(?1, 1, ?2) ON CONFLICT(provider) DO UPDATE SET stale = 1,"
		 " last_error = ?2",
		 "cannot record the error", 2},
	};
	const char *p[] = {provider, error};
	return run_steps(c, steps, p, err);
}

enum gc_status cache_note(struct cache *c, const char *provider, const char *note, char **err)
{
	const char *p[] = {provider, note};
	return cache_run(c,
			 "INSERT INTO provider_state(provider, last_error) VALUES(?1, ?2)"
			 " ON CONFLICT(provider) DO UPDATE SET last_error = ?2",
			 "cannot record the note", err, 2, p);
}

enum gc_status cache_mark_fresh(struct cache *c, const char *provider, const char *fetched_at,
				char **err)
{
	static const struct step steps[2] = {
		{"UPDATE offer SET stale = 0, fetched_at = ?2 WHERE provider = ?1"
		 " AND source IN ('live', 'catalog')",
		 "cannot update offers", 2},
		{"UPDATE provider_state SET stale = 0, last_error = NULL,"
		 " fetched_at = ?2 WHERE provider = ?1",
		 "cannot record the refresh", 2},
	};
	const char *p[] = {provider, fetched_at};
	return run_steps(c, steps, p, err);
}

static char *col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? strdup((const char *)t) : NULL;
}

void cache_meta_release(struct cache_meta *m)
{
	free((char *)m->source);
	free((char *)m->fetched_at);
	free((char *)m->etag);
	free((char *)m->last_modified);
	free((char *)m->last_error);
	memset(m, 0, sizeof *m);
}

int cache_has_provider(struct cache *c, const char *provider)
{
	sqlite3_stmt *s;
	int has = 0;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT EXISTS (SELECT 1 FROM offer WHERE provider = ?1)"
			       " OR EXISTS (SELECT 1 FROM provider_state WHERE provider = ?1)",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	cache_bind_text(s, 1, provider);
	if (sqlite3_step(s) == SQLITE_ROW)
		has = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return has;
}

enum gc_status cache_get_meta(struct cache *c, const char *provider, struct cache_meta *m,
			      char **err)
{
	memset(m, 0, sizeof *m);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT source, fetched_at, etag, last_modified, last_error, stale"
			       " FROM provider_state WHERE provider = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read the refresh state");
	cache_bind_text(s, 1, provider);
	enum gc_status st = GC_ENOTFOUND;
	if (sqlite3_step(s) == SQLITE_ROW) {
		m->source = col_dup(s, 0);
		m->fetched_at = col_dup(s, 1);
		m->etag = col_dup(s, 2);
		m->last_modified = col_dup(s, 3);
		m->last_error = col_dup(s, 4);
		m->stale = sqlite3_column_int(s, 5);
		st = GC_OK;
	}
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_status(struct cache *c, cache_status_fn fn, void *arg, char **err)
{
	/* one row per provider that has offers or a refresh record */
	static const char sql[] =
		"WITH o AS (SELECT provider, count(*) AS n, group_concat(DISTINCT source) AS src,"
		"  max(fetched_at) AS fetched, max(stale) AS stale,"
		"  CASE WHEN count(as_of) = count(*) THEN min(as_of) END AS as_of,"
		"  count(*) - count(as_of) AS undated FROM offer GROUP BY provider)"
		" SELECT p.provider, COALESCE(o.n, 0), o.src, COALESCE(s.fetched_at, o.fetched),"
		"  COALESCE(s.stale, o.stale, 0), s.last_error, o.as_of, COALESCE(o.undated, 0)"
		" FROM (SELECT provider FROM o UNION SELECT provider FROM provider_state) p"
		" LEFT JOIN o ON o.provider = p.provider"
		" LEFT JOIN provider_state s ON s.provider = p.provider ORDER BY p.provider";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read the cache status");
	enum gc_status st = GC_OK;
	int rc;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct cache_status_row r = {
			(const char *)sqlite3_column_text(s, 0), sqlite3_column_int64(s, 1),
			(const char *)sqlite3_column_text(s, 2),
			(const char *)sqlite3_column_text(s, 3),
			(const char *)sqlite3_column_text(s, 6), sqlite3_column_int64(s, 7),
			sqlite3_column_int(s, 4), (const char *)sqlite3_column_text(s, 5)};
		st = fn(arg, &r, err);
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = cache_db_error(c, err, "cannot read the cache status");
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_count(struct cache *c, long long *n, char **err)
{
	return cache_scalar(c, "SELECT count(*) FROM offer", n, "cannot count offers", err);
}
