/* query_run.c - run list's query and read the age of the data, so the
 * command line only formats. */
#include "gpucmp/query.h"

#include <stdio.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

enum gc_status query_list(struct cache *c, const struct query_sql *qs,
			  const struct render_spec *spec, size_t *rows, char **err)
{
	sqlite3 *db = cache_db(c);
	sqlite3_stmt *stmt = NULL;
	struct renderer *r = NULL;
	*rows = 0;
	enum gc_status st = query_prepare(db, qs, &stmt, err);
	if (st == GC_OK)
		st = render_begin(&r, spec, err);
	int rc = SQLITE_DONE;
	while (st == GC_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
		st = render_row(r, stmt, err);
	if (st == GC_OK && rc != SQLITE_DONE)
		st = err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			     "cannot read the cache: %s", sqlite3_errmsg(db));
	if (r && st == GC_OK)
		st = render_end(r, rows, err);
	else
		render_abort(r);
	sqlite3_finalize(stmt);
	return st;
}

enum gc_status query_run(struct cache *c, const struct query *q,
			 const struct field *const *cols, size_t ncols,
			 const struct render_spec *spec, size_t *rows,
			 struct query_counts *counts, struct query_omitted *omitted,
			 char **err)
{
	if (counts)
		*counts = (struct query_counts){-1, -1, -1, 0, ""};
	if (omitted)
		omitted->counted = 0;
	/* the answer at one type of price reads offer_v over it; so do the
	 * counts and notes asked after it */
	if (query_price_view(q)) {
		enum gc_status st = cache_price_view(c, query_price_type_names[q->price_type],
						     q->term_months, err);
		if (st != GC_OK)
			return st;
	}
	if (q->group > QG_NONE && q->group < QG_COUNT)
		return query_group_list(c, q, cols, ncols, spec, rows, counts, omitted, err);
	struct query_sql qs;
	enum gc_status st = query_build(q, cols, ncols, &qs, err);
	if (st == GC_OK)
		st = query_list(c, &qs, spec, rows, err);
	query_sql_release(&qs);
	return st;
}

/* Providers refreshed without a failure: how many, oldest and newest. */
static int age_fresh(sqlite3 *db, struct query_age *a)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*), min(fetched_at), max(fetched_at)"
				    " FROM provider_state"
				    " WHERE stale = 0 AND fetched_at IS NOT NULL", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) {
		a->refreshed = sqlite3_column_int(st, 0);
		a->oldest = str_time_epoch((const char *)sqlite3_column_text(st, 1));
		a->newest = str_time_epoch((const char *)sqlite3_column_text(st, 2));
	}
	return sqlite3_finalize(st);
}

/* The snapshot's date, if snapshot rows exist: per profiled provider
 * through the (provider, source) index, since a plain scan for source
 * would read every offer. */
static int age_snapshot(sqlite3 *db, struct query_age *a)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'snapshot_date'"
				    " AND EXISTS (SELECT 1 FROM provider p WHERE EXISTS"
				    " (SELECT 1 FROM offer o WHERE o.provider = p.id"
				    " AND o.source = 'snapshot'))", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(st, 0);
		a->snapshot_days = d ? str_date_days(d) : -1;
		if (a->snapshot_days >= 0)
			snprintf(a->snapshot_date, sizeof a->snapshot_date, "%s", d);
	}
	return sqlite3_finalize(st);
}

static int age_stale(sqlite3 *db, struct query_age *a)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT provider FROM provider_state WHERE stale = 1"
				    " ORDER BY provider", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	while (a->nstale < QUERY_MAX_STALE && sqlite3_step(st) == SQLITE_ROW)
		str_sanitize(a->stale[a->nstale++], sizeof a->stale[0],
			     (const char *)sqlite3_column_text(st, 0));
	return sqlite3_finalize(st);
}

enum gc_status query_age(struct cache *c, struct query_age *a, char **err)
{
	sqlite3 *db = cache_db(c);
	memset(a, 0, sizeof *a);
	a->oldest = a->newest = -1;
	a->snapshot_days = -1;
	int rc = age_fresh(db, a);
	if (rc == SQLITE_OK)
		rc = age_snapshot(db, a);
	if (rc == SQLITE_OK)
		rc = age_stale(db, a);
	if (rc != SQLITE_OK)
		return err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			       "cannot read the cache: %s", sqlite3_errstr(rc));
	return GC_OK;
}

/* "; 3 providers refreshed 2 h to 5 h ago" into out. */
static void fresh_text(const struct query_age *age, long long now, char *out, size_t n)
{
	char a[32], b[32];
	int k = age->refreshed;
	str_age(now - age->newest, a, sizeof a);
	str_age(now - age->oldest, b, sizeof b);
	if (strcmp(a, b) == 0)
		snprintf(out, n, "; %d provider%s refreshed %s ago", k, k == 1 ? "" : "s", a);
	else
		snprintf(out, n, "; %d providers refreshed %s to %s ago", k, a, b);
}

/* "; stale (last refresh failed): a, b" into out (n bytes), as many as fit. */
static void stale_text(const struct query_age *age, char *out, size_t n)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < age->nstale && len + 40 < n; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%s",
					len ? ", " : "; stale (last refresh failed): ",
					age->stale[i]);
}

void query_age_brief(const struct query_age *age, const struct query_counts *answer,
		     long long now, long long stale_after, char *out, size_t n)
{
	long long oldest = now, t = answer && *answer->oldest ? str_time_epoch(answer->oldest) : -1;
	if (age->refreshed > 0 && age->oldest >= 0 && age->oldest < oldest)
		oldest = age->oldest;
	if (age->snapshot_days >= 0 && age->snapshot_days * 86400LL < oldest)
		oldest = age->snapshot_days * 86400LL;
	if (t >= 0 && t < oldest)
		oldest = t;
	long long undated = answer ? answer->undated : 0;
	char day[32], more[64] = "";
	str_time_format(oldest, day, sizeof day);
	day[10] = '\0';
	int len = 0;
	if (undated > 0)
		len = snprintf(more, sizeof more, ", %lld undated", undated);
	if (age->nstale > 0 && len >= 0 && (size_t)len < sizeof more)
		snprintf(more + len, sizeof more - (size_t)len, ", %zu failed", age->nstale);
	if (now - oldest > stale_after || undated > 0 || age->nstale > 0)
		snprintf(out, n, "; stale (%s%s): gpucmp refresh", day, more);
	else
		snprintf(out, n, "; data of %s", day);
}

void query_age_note(const struct query_age *age, long long now, long today,
		    long long stale_after, char *out, size_t n)
{
	query_age_note_answer(age, NULL, now, today, stale_after, out, n);
}

void query_age_note_answer(const struct query_age *age, const struct query_counts *answer,
			   long long now, long today, long long stale_after, char *out, size_t n)
{
	char undated[80] = "";
	long long t = answer && *answer->oldest ? str_time_epoch(answer->oldest) : -1;
	char fresh[160] = "", snap[120] = "", stale[200] = "", hint[120] = "";
	long long oldest_data = now;
	if (age->refreshed > 0) {
		if (age->oldest >= 0 && age->oldest < oldest_data)
			oldest_data = age->oldest;
		fresh_text(age, now, fresh, sizeof fresh);
	}
	if (age->snapshot_days >= 0) {
		snprintf(snap, sizeof snap, "; built-in snapshot prices are from %s (%ld days ago)",
			 age->snapshot_date, today - age->snapshot_days);
		if (age->snapshot_days * 86400LL < oldest_data)
			oldest_data = age->snapshot_days * 86400LL;
	}
	stale_text(age, stale, sizeof stale);
	if (t >= 0 && t < oldest_data)
		oldest_data = t; /* the answer's oldest price: a catalog's date */
	if (answer && answer->undated > 0)
		snprintf(undated, sizeof undated, "; %lld offer%s of unknown date", answer->undated,
			 answer->undated == 1 ? "" : "s");
	if (now - oldest_data > stale_after || *undated) {
		char a[32];
		str_age(stale_after, a, sizeof a);
		snprintf(hint, sizeof hint, "; data older than %s is stale: run 'gpucmp refresh'",
			 a);
	}
	snprintf(out, n, "%s%s%s%s%s", fresh, snap, undated, stale, hint);
}
