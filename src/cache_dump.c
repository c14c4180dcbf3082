/* cache_dump.c - what a team snapshot carries (docs/TEAM.md): every
 * offer of the providers the cache stored, as stored, in a fixed order,
 * and their refresh records (export); several writes in one transaction
 * and the named values that keep a source's validators (pull).  Calls
 * cache_db.c only. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cache_int.h"
#include "gpucmp/buf.h"
#include "sqlite_int.h"

enum gc_status cache_begin(struct cache *c, char **err)
{
	enum gc_status st = cache_exec(c, "BEGIN IMMEDIATE", err);
	c->batch = st == GC_OK;
	return st;
}

enum gc_status cache_end(struct cache *c, enum gc_status st, char **err)
{
	c->batch = 0;
	return cache_commit(c, st, err);
}

enum gc_status cache_read_begin(struct cache *c, char **err)
{
	if (sqlite3_exec(c->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read");
	return GC_OK;
}

void cache_read_end(struct cache *c)
{
	cache_rollback(c); /* nothing was written: ending it is all */
}

char *cache_value_get(struct cache *c, const char *key)
{
	return cache_meta_get(c, key);
}

enum gc_status cache_value_set(struct cache *c, const char *key, const char *value, char **err)
{
	return cache_meta_set(c, key, value, err);
}

/* The providers a snapshot carries: stored at least once. */
#define STORED "SELECT provider FROM provider_state WHERE source IS NOT NULL"

enum gc_status cache_dump_states(struct cache *c, cache_dump_state_fn fn, void *arg, char **err)
{
	static const char sql[] =
		"SELECT s.provider, s.source, s.fetched_at, s.stale, s.last_error,"
		" (SELECT count(*) FROM offer o WHERE o.provider = s.provider),"
		/* the data's date; none (NULL) when any offer names none: an
		 * undated catalog's record says so, never its fetch */
		" (SELECT CASE WHEN count(*) = count(o.as_of) THEN max(o.as_of) END"
		"  FROM offer o WHERE o.provider = s.provider)"
		" FROM provider_state s WHERE s.source IS NOT NULL ORDER BY s.provider";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read the refresh records");
	enum gc_status st = GC_OK;
	int rc;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct cache_dump_state d;
		memset(&d, 0, sizeof d);
		d.provider = (const char *)sqlite3_column_text(s, 0);
		d.meta.source = (const char *)sqlite3_column_text(s, 1);
		d.meta.fetched_at = (const char *)sqlite3_column_text(s, 2);
		d.meta.stale = sqlite3_column_int(s, 3);
		d.meta.last_error = (const char *)sqlite3_column_text(s, 4);
		d.offers = sqlite3_column_int64(s, 5);
		d.as_of = (const char *)sqlite3_column_text(s, 6);
		st = fn(arg, &d, err);
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = cache_db_error(c, err, "cannot read the refresh records");
	sqlite3_finalize(s);
	return st;
}

static const char *col_text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

/* Row r of the dump query as an offer, its columns in offer_cols[]'s
 * order (text borrowed from the statement). */
static void row_offer(sqlite3_stmt *r, struct offer *o)
{
	offer_init(o);
	for (size_t i = 0; i < offer_ncols; i++) {
		const struct offer_col *c = &offer_cols[i];
		if (c->kind == OFFER_TEXT)
			offer_col_set_text(o, c, col_text(r, (int)i));
		else if (c->kind == OFFER_NUM)
			offer_col_set_num(o, c, cache_col_num(r, (int)i));
		else
			offer_col_set_tri(o, c, cache_col_tri(r, (int)i));
	}
}

/* SELECT <the stored columns>, stale FROM offer ...: the dump's query. */
static enum gc_status dump_sql(struct buf *b)
{
	enum gc_status st = buf_printf(b, "SELECT ");
	for (size_t i = 0; st == GC_OK && i < offer_ncols; i++)
		st = buf_printf(b, "%s, ", offer_cols[i].name);
	if (st == GC_OK)
		st = buf_printf(b, "stale FROM offer WHERE provider IN (" STORED ") ORDER BY"
				" provider, sku, region, source, price_hr, spot_price_hr,"
				" gpu_count, id");
	return st;
}

enum gc_status cache_dump_offers(struct cache *c, cache_dump_offer_fn fn, void *arg, char **err)
{
	struct buf sql;
	buf_init(&sql, 4096);
	sqlite3_stmt *s = NULL;
	enum gc_status st = dump_sql(&sql);
	if (st != GC_OK)
		st = err_set(err, GC_ENOMEM, "out of memory");
	else if (sqlite3_prepare_v2(c->db, sql.ptr, -1, &s, NULL) != SQLITE_OK)
		st = cache_db_error(c, err, "cannot read the offers");
	buf_free(&sql);
	int rc = SQLITE_DONE;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct offer o;
		row_offer(s, &o);
		st = fn(arg, &o, sqlite3_column_int(s, (int)offer_ncols), err);
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = cache_db_error(c, err, "cannot read the offers");
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_provider_dated(struct cache *c, const char *provider, long long *n,
				    long long *dated, char *oldest, size_t size, char **err)
{
	sqlite3_stmt *s;
	*n = *dated = 0;
	oldest[0] = '\0';
	/* the (provider, source) index: this provider's rows only */
	if (sqlite3_prepare_v2(c->db,
			       "SELECT count(*), count(as_of), min(as_of) FROM offer"
			       " WHERE provider = ?1",
			       -1,
			       &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read the offers");
	cache_bind_text(s, 1, provider);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) != SQLITE_ROW) {
		st = cache_db_error(c, err, "cannot read the offers");
	} else {
		*n = sqlite3_column_int64(s, 0);
		*dated = sqlite3_column_int64(s, 1);
		if (sqlite3_column_text(s, 2))
			snprintf(oldest, size, "%s", col_text(s, 2));
	}
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_provider_as_of(struct cache *c, const char *provider, char *out, size_t n,
				    char **err)
{
	sqlite3_stmt *s;
	out[0] = '\0';
	if (sqlite3_prepare_v2(c->db,
			       "SELECT CASE WHEN count(*) = count(as_of) THEN max(as_of) END"
			       " FROM offer WHERE provider = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read the offers");
	cache_bind_text(s, 1, provider);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) != SQLITE_ROW)
		st = cache_db_error(c, err, "cannot read the offers");
	else if (sqlite3_column_text(s, 0))
		snprintf(out, n, "%s", col_text(s, 0));
	sqlite3_finalize(s);
	return st;
}
