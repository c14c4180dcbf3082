/* cache_write.c - a provider's offers replaced in one transaction
 * (cache_store, cache_replace): the insert statement, the plausible-answer
 * guard, the indexes dropped and rebuilt around a large load, the page
 * cache sized for it.  Calls cache_schema.c (sku_type) and cache_db.c;
 * cache_seed.c inserts through cache_batch_add. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_int.h"
#include "gpucmp/cuda.h"

static const char insert_sql[] =
	"INSERT INTO offer(provider, sku, gpu, gpu_name, gpu_count, gpu_mem_gb, vcpus,"
	" ram_gb, disk_gb, region, price_hr, spot_price_hr, currency, price_native,"
	" spot_native, available, infiniband, rdma, nvlink, node_bandwidth_gbps,"
	" driver_version, max_cuda, source, origin, fetched_at, driver_num, max_cuda_num,"
	" as_of, price_kind, gpu_fraction)"
	" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
	" ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)";

/* Page cache and sorter settings for a replacement.  BULK_KEEP: rows go
 * into tables whose indexes are kept, so each index insert lands somewhere
 * random: a 32 MiB cache keeps the hot index pages (reads keep SQLite's
 * default, since every page of a bigger cache is fresh memory to fault in).
 * BULK_REBUILD: the indexes are dropped and built after the load; then a
 * small cache is faster (10^6 rows, same run, alternating: 8.5 s with
 * 128 MiB, 6.8 s with the default 2 MB), because the sorter spills sorted
 * runs that a second thread sorts and merges at the same time. */
enum bulk_mode { BULK_OFF, BULK_KEEP, BULK_REBUILD };

static void bulk_cache(struct cache *c, enum bulk_mode m)
{
	static const char *const sql[] = {
		"PRAGMA cache_size=-2000; PRAGMA threads=0",
		"PRAGMA cache_size=-32768; PRAGMA threads=0",
		"PRAGMA cache_size=-2000; PRAGMA threads=2",
	};
	sqlite3_exec(c->db, sql[m], NULL, NULL, NULL);
}

static enum gc_status insert_offer(struct cache *c, const struct offer *o, char **err)
{
	sqlite3_stmt *s = c->insert;
	sqlite3_reset(s);
	cache_bind_text(s, 1, o->provider);
	cache_bind_text(s, 2, o->sku);
	cache_bind_text(s, 3, o->gpu);
	cache_bind_text(s, 4, o->gpu_name);
	cache_bind_num(s, 5, o->gpu_count);
	cache_bind_num(s, 6, o->gpu_mem_gb);
	cache_bind_num(s, 7, o->vcpus);
	cache_bind_num(s, 8, o->ram_gb);
	cache_bind_num(s, 9, o->disk_gb);
	cache_bind_text(s, 10, o->region);
	cache_bind_num(s, 11, o->price_hr);
	cache_bind_num(s, 12, o->spot_price_hr);
	cache_bind_text(s, 13, o->currency ? o->currency : "USD");
	cache_bind_num(s, 14, o->price_native);
	cache_bind_num(s, 15, o->spot_native);
	cache_bind_tri(s, 16, o->available);
	cache_bind_tri(s, 17, o->infiniband);
	cache_bind_text(s, 18, o->rdma);
	cache_bind_tri(s, 19, o->nvlink);
	cache_bind_num(s, 20, o->node_bandwidth_gbps);
	cache_bind_text(s, 21, o->driver_version);
	cache_bind_text(s, 22, o->max_cuda);
	cache_bind_text(s, 23, o->source);
	cache_bind_text(s, 24, o->origin);
	cache_bind_text(s, 25, o->fetched_at);
	long long dn = o->driver_version ? cuda_version_num(o->driver_version) : -1;
	long long cn = o->max_cuda ? cuda_version_num(o->max_cuda) : -1;
	if (dn >= 0)
		sqlite3_bind_int64(s, 26, dn);
	else
		sqlite3_bind_null(s, 26);
	if (cn >= 0)
		sqlite3_bind_int64(s, 27, cn);
	else
		sqlite3_bind_null(s, 27);
	cache_bind_text(s, 28, o->as_of);
	cache_bind_text(s, 29, o->price_kind);
	sqlite3_bind_double(s, 30,
			    o->gpu_fraction > 0 && o->gpu_fraction <= 1 ? o->gpu_fraction : 1);
	if (sqlite3_step(s) != SQLITE_DONE)
		return cache_db_error(c, err, "cannot insert an offer");
	return GC_OK;
}

enum gc_status cache_prepare_insert(struct cache *c, char **err)
{
	if (c->insert)
		return GC_OK;
	if (sqlite3_prepare_v2(c->db, insert_sql, -1, &c->insert, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot prepare insert");
	return GC_OK;
}

enum gc_status cache_batch_add(void *arg, const struct offer *o, char **err)
{
	struct cache_batch *sc = arg;
	if (sc->only && strcmp(sc->only, o->provider) != 0)
		return GC_OK;
	for (size_t i = 0; i < sc->nskip; i++)
		if (strcmp(sc->skip[i], o->provider) == 0)
			return GC_OK;
	enum gc_status st = insert_offer(sc->c, o, err);
	if (st == GC_OK) {
		sc->inserted++;
		sc->list_rows += o->source && strcmp(o->source, "list") == 0;
	}
	return st;
}

static enum gc_status upsert_state(struct cache *c, const char *provider,
				   const struct cache_meta *m, char **err)
{
	const char *p[] = {provider, m->source, m->fetched_at, m->etag, m->last_modified,
			   m->last_error, m->stale ? "1" : "0"};
	enum gc_status st = cache_run(c,
			 "INSERT INTO provider_state(provider, source, fetched_at, stale,"
			 " last_error, etag, last_modified) VALUES(?1, ?2, ?3, ?7, ?6, ?4, ?5)"
			 " ON CONFLICT(provider) DO UPDATE SET source = ?2, fetched_at = ?3,"
			 " stale = ?7, last_error = ?6, etag = ?4, last_modified = ?5",
			 "cannot record the refresh", err, 7, p);
	/* a pulled provider that failed at the publisher's stays stale here */
	if (st == GC_OK && m->stale)
		st = cache_run(c, "UPDATE offer SET stale = 1 WHERE provider = ?1",
			       "cannot mark offers stale", err, 1, p);
	return st;
}

void cache_expect_rows(struct cache *c, size_t n)
{
	c->expect_rows = n;
}

void cache_set_guard(struct cache *c, int force, int min_keep_percent)
{
	c->force = force;
	c->min_keep = min_keep_percent < 0 ? 0 : min_keep_percent > 100 ? 100 : min_keep_percent;
}

/* The provider's offers of the same kind as `source`: live (one row per
 * instance type and region a provider's API lists) or catalog-like (the
 * snapshot, an import, a published catalog: one row per catalog line).
 * The kinds differ in granularity, so one is no yardstick for the other. */
static enum gc_status count_provider(struct cache *c, const char *provider, const char *source,
				     long long *n, char **err)
{
	sqlite3_stmt *q;
	*n = 0;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT count(*) FROM offer WHERE provider = ?1"
			       " AND (source = 'live') = ?2",
			       -1, &q, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot count offers");
	sqlite3_bind_text(q, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 2, source && strcmp(source, "live") == 0);
	enum gc_status st = GC_OK;
	if (sqlite3_step(q) == SQLITE_ROW)
		*n = sqlite3_column_int64(q, 0);
	else
		st = cache_db_error(c, err, "cannot count offers");
	sqlite3_finalize(q);
	return st;
}

/* The plausible-answer rule (cache.h): `prev` offers of the same kind
 * were there, `n` came. */
static enum gc_status guard(const struct cache *c, long long prev, size_t n, char **err)
{
	if (c->force)
		return GC_OK;
	if (n == 0)
		return err_set(err, GC_EDATA,
			       "no usable offer in the new data; kept the previous offers "
			       "(--force stores an empty answer)");
	if (prev >= CACHE_GUARD_MIN_PREVIOUS && c->min_keep > 0 &&
	    (long long)n * 100 < prev * c->min_keep)
		return err_set(err, GC_EDATA,
			       "the new data has %zu offers, under %d%% of the previous %lld; kept "
			       "them (--force stores it, min_keep_percent in the config sets the "
			       "threshold)",
			       n, c->min_keep, prev);
	return GC_OK;
}

struct index_sql {
	char **sql;
	size_t n;
};

static void index_sql_release(struct index_sql *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->sql[i]);
	free(x->sql);
	x->sql = NULL;
	x->n = 0;
}

/* The rows that stay: all but the provider's (which the caller deletes). */
static enum gc_status rows_staying(struct cache *c, const char *provider, long long *rows,
				   char **err)
{
	sqlite3_stmt *q;
	*rows = 0;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT (SELECT count(*) FROM offer)"
			       " - (SELECT count(*) FROM offer WHERE provider = ?1)",
			       -1, &q, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot count offers");
	sqlite3_bind_text(q, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		*rows = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return GC_OK;
}

/* The offer indexes: their names into *names (new, saved->n of them) and
 * the SQL that makes them into saved. */
static enum gc_status list_indexes(struct cache *c, struct index_sql *saved, char ***names,
				   char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT name, sql FROM sqlite_master WHERE type = 'index'"
			       " AND tbl_name = 'offer' AND sql IS NOT NULL",
			       -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot list indexes");
	enum gc_status st = GC_OK;
	while (st == GC_OK && sqlite3_step(s) == SQLITE_ROW) {
		char **grown = realloc(saved->sql, (saved->n + 1) * sizeof *grown);
		char **ngrown = realloc(*names, (saved->n + 1) * sizeof *ngrown);
		if (grown)
			saved->sql = grown;
		if (ngrown)
			*names = ngrown;
		char *name = strdup((const char *)sqlite3_column_text(s, 0));
		char *sql = strdup((const char *)sqlite3_column_text(s, 1));
		if (!grown || !ngrown || !name || !sql) {
			free(name);
			free(sql);
			st = err_set(err, GC_ENOMEM, "out of memory");
			break;
		}
		(*names)[saved->n] = name;
		saved->sql[saved->n++] = sql;
	}
	sqlite3_finalize(s);
	return st;
}

/* A load that is large next to what stays in the table is faster with the
 * offer indexes dropped and built again after it (a sort instead of a
 * random B-tree insert per row and index).  Inside the caller's
 * transaction, so readers never see the table without them. */
static enum gc_status drop_indexes(struct cache *c, const char *provider,
				   struct index_sql *saved, char **err)
{
	saved->sql = NULL;
	saved->n = 0;
	if (c->expect_rows < 20000)
		return GC_OK;
	long long rows;
	enum gc_status st = rows_staying(c, provider, &rows, err);
	if (st != GC_OK || (long long)c->expect_rows * 2 < rows)
		return st;
	char **names = NULL;
	st = list_indexes(c, saved, &names, err);
	for (size_t i = 0; st == GC_OK && i < saved->n; i++) {
		char drop[256];
		snprintf(drop, sizeof drop, "DROP INDEX \"%s\"", names[i]);
		st = cache_exec(c, drop, err);
	}
	for (size_t i = 0; i < saved->n; i++)
		free(names[i]);
	free(names);
	if (st != GC_OK)
		index_sql_release(saved);
	return st;
}

static enum gc_status restore_indexes(struct cache *c, struct index_sql *saved, char **err)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < saved->n; i++)
		st = cache_exec(c, saved->sql[i], err);
	return st;
}

static enum gc_status replace(struct cache *c, const char *provider, const char *source,
			      const struct cache_meta *meta, cache_fill_fn fill, void *arg,
			      size_t *inserted, char **err)
{
	struct index_sql saved = {NULL, 0};
	enum gc_status st = cache_prepare_insert(c, err);
	struct cache_batch sc = {c, NULL, 0, NULL, 0, 0};
	if (st == GC_OK)
		st = cache_tx_begin(c, err);
	if (st != GC_OK)
		return st;
	long long prev = 0;
	if (meta)
		st = count_provider(c, provider, meta->source, &prev, err);
	if (st == GC_OK)
		st = drop_indexes(c, provider, &saved, err);
	bulk_cache(c, saved.n ? BULK_REBUILD : BULK_KEEP);
	const char *del[] = {provider, source};
	if (st == GC_OK)
		st = cache_run(c, source ? "DELETE FROM offer WHERE provider = ?1 AND source = ?2"
					 : "DELETE FROM offer WHERE provider = ?1",
			       "cannot replace offers", err, source ? 2 : 1, del);
	if (st == GC_OK && saved.n) {
		/* the insert statement was compiled against the indexes */
		sqlite3_finalize(c->insert);
		c->insert = NULL;
		st = cache_prepare_insert(c, err);
	}
	if (st == GC_OK)
		st = fill(arg, cache_batch_add, &sc, err);
	if (st == GC_OK && meta)
		st = guard(c, prev, sc.inserted, err);
	if (st == GC_OK)
		st = restore_indexes(c, &saved, err);
	if (st == GC_OK)
		st = cache_map_skus(c, provider, err);
	if (st == GC_OK && meta)
		st = cache_history_record(c, provider, meta->fetched_at, err);
	if (st == GC_OK && meta)
		st = upsert_state(c, provider, meta, err);
	if ((st = cache_tx_end(c, st, err)) == GC_OK && inserted)
		*inserted = sc.inserted;
	if (saved.n) {
		/* compiled without the indexes (or they were rolled back): recompile */
		sqlite3_finalize(c->insert);
		c->insert = NULL;
	}
	index_sql_release(&saved);
	c->expect_rows = 0;
	bulk_cache(c, BULK_OFF);
	return st;
}

enum gc_status cache_replace(struct cache *c, const char *provider, const char *source,
			     cache_fill_fn fill, void *arg, size_t *inserted, char **err)
{
	return replace(c, provider, source, NULL, fill, arg, inserted, err);
}

enum gc_status cache_store(struct cache *c, const char *provider, const struct cache_meta *meta,
			   cache_fill_fn fill, void *arg, size_t *inserted, char **err)
{
	return replace(c, provider, NULL, meta, fill, arg, inserted, err);
}
