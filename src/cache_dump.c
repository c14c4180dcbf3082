/* cache_dump.c - what a team snapshot carries (docs/TEAM.md): every
 * offer of the providers the cache stored, as stored, in a fixed order,
 * and their refresh records (export); several writes in one transaction
 * and the named values that keep a source's validators (pull).  Calls
 * cache_db.c only. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cache_int.h"

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
		" (SELECT max(COALESCE(o.as_of, o.fetched_at)) FROM offer o"
		"  WHERE o.provider = s.provider)"
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

/* Row r of the dump query as an offer (text borrowed from the statement). */
static void row_offer(sqlite3_stmt *r, struct offer *o)
{
	offer_init(o);
	o->provider = col_text(r, 0);
	o->sku = col_text(r, 1);
	o->gpu = col_text(r, 2);
	o->gpu_name = col_text(r, 3);
	o->gpu_count = cache_col_num(r, 4);
	o->gpu_mem_gb = cache_col_num(r, 5);
	o->vcpus = cache_col_num(r, 6);
	o->ram_gb = cache_col_num(r, 7);
	o->disk_gb = cache_col_num(r, 8);
	o->region = col_text(r, 9);
	o->price_hr = cache_col_num(r, 10);
	o->spot_price_hr = cache_col_num(r, 11);
	o->currency = col_text(r, 12);
	o->price_native = cache_col_num(r, 13);
	o->spot_native = cache_col_num(r, 14);
	o->available = cache_col_tri(r, 15);
	o->infiniband = cache_col_tri(r, 16);
	o->rdma = col_text(r, 17);
	o->nvlink = cache_col_tri(r, 18);
	o->node_bandwidth_gbps = cache_col_num(r, 19);
	o->driver_version = col_text(r, 20);
	o->max_cuda = col_text(r, 21);
	o->source = col_text(r, 22);
	o->origin = col_text(r, 23);
	o->fetched_at = col_text(r, 24);
	o->as_of = col_text(r, 25);
	o->price_kind = col_text(r, 26);
	o->gpu_fraction = cache_col_num(r, 27);
}

enum gc_status cache_dump_offers(struct cache *c, cache_dump_offer_fn fn, void *arg, char **err)
{
	static const char sql[] =
		"SELECT provider, sku, gpu, gpu_name, gpu_count, gpu_mem_gb, vcpus, ram_gb,"
		" disk_gb, region, price_hr, spot_price_hr, currency, price_native, spot_native,"
		" available, infiniband, rdma, nvlink, node_bandwidth_gbps, driver_version,"
		" max_cuda, source, origin, fetched_at, as_of, price_kind, gpu_fraction, stale"
		" FROM offer WHERE provider IN (" STORED ")"
		" ORDER BY provider, sku, region, source, price_hr, spot_price_hr, gpu_count, id";
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read the offers");
	enum gc_status st = GC_OK;
	int rc;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct offer o;
		row_offer(s, &o);
		st = fn(arg, &o, sqlite3_column_int(s, 28), err);
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = cache_db_error(c, err, "cannot read the offers");
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_provider_as_of(struct cache *c, const char *provider, char *out, size_t n,
				    char **err)
{
	sqlite3_stmt *s;
	out[0] = '\0';
	if (sqlite3_prepare_v2(c->db,
			       "SELECT max(COALESCE(as_of, fetched_at)) FROM offer"
			       " WHERE provider = ?1",
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
