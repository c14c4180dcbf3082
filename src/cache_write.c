/* cache_write.c - a provider's offers replaced in one transaction
 * (cache_store, cache_replace): the insert statement, the plausible-answer
 * guard, the indexes dropped and rebuilt around a large load, the page
 * cache sized for it.  Calls cache_schema.c (sku_type) and cache_db.c;
 * cache_seed.c inserts through cache_batch_add. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_int.h"
#include "gpucmp/buf.h"
#include "gpucmp/catalog.h"
#include "gpucmp/cuda.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

/* The insert: the stored columns of offer_cols[] in their order (?1 ...
 * ?N), then the two the cache derives (driver_num, max_cuda_num). */
static enum gc_status insert_sql(struct buf *b)
{
	enum gc_status st = buf_printf(b, "INSERT INTO offer(");
	for (size_t i = 0; st == GC_OK && i < offer_ncols; i++)
		st = buf_printf(b, "%s, ", offer_cols[i].name);
	if (st == GC_OK)
		st = buf_printf(b, "driver_num, max_cuda_num) VALUES(");
	for (size_t i = 1; st == GC_OK && i <= offer_ncols + 2; i++)
		st = buf_printf(b, "?%zu%s", i, i <= offer_ncols + 1 ? ", " : ")");
	return st;
}

/* Page cache and sorter settings for a replacement.  BULK_KEEP: rows go
 * into tables whose indexes are kept, so each index insert lands somewhere
 * random: a 32 MiB cache keeps the hot index pages (reads keep SQLite's
 * default, since every page of a bigger cache is fresh memory to fault in).
 * BULK_REBUILD: the indexes are dropped and built after the load; then a
 * small cache is faster (10^6 rows, same run, alternating: 8.5 s with
 * 128 MiB, 6.8 s with the default 2 MB), because the sorter spills sorted
 * runs that a second thread sorts and merges at the same time.  Measured
 * again once the history stopped inserting a copy of each offer into a
 * random-order index (schema 6; 10^6 rows, alternating, CPU time): 7.6 to
 * 7.7 s for 2 MB, 64 MiB, 64 MiB with a 1 GiB mmap, one thread or two:
 * what is left is sequential, and the page cache no longer matters. */
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

static void bind_version(sqlite3_stmt *s, int i, const char *v)
{
	long long n = v ? cuda_version_num(v) : -1;
	if (n >= 0)
		sqlite3_bind_int64(s, i, n);
	else
		sqlite3_bind_null(s, i);
}

/* One offer that passed the door: every column by the table. */
static enum gc_status insert_offer(struct cache *c, const struct offer *o, char **err)
{
	sqlite3_stmt *s = c->insert;
	sqlite3_reset(s);
	for (size_t i = 0; i < offer_ncols; i++) {
		const struct offer_col *col = &offer_cols[i];
		int at = (int)i + 1;
		if (col->kind == OFFER_TEXT)
			cache_bind_text(s, at, offer_col_text(o, col));
		else if (col->kind == OFFER_NUM)
			cache_bind_num(s, at, offer_col_num(o, col));
		else
			cache_bind_tri(s, at, offer_col_tri(o, col));
	}
	bind_version(s, (int)offer_ncols + 1, o->driver_version);
	bind_version(s, (int)offer_ncols + 2, o->max_cuda);
	if (sqlite3_step(s) != SQLITE_DONE)
		return cache_db_error(c, err, "cannot insert an offer");
	return GC_OK;
}

enum gc_status cache_prepare_insert(struct cache *c, char **err)
{
	if (c->insert)
		return GC_OK;
	struct buf b;
	buf_init(&b, 4096);
	enum gc_status st = insert_sql(&b);
	if (st != GC_OK)
		st = err_set(err, GC_ENOMEM, "out of memory");
	else if (sqlite3_prepare_v2(c->db, b.ptr, -1, &c->insert, NULL) != SQLITE_OK)
		st = cache_db_error(c, err, "cannot prepare insert");
	buf_free(&b);
	return st;
}

void cache_set_ingest(struct cache *c, int new_provider, size_t max_offers)
{
	c->ingest.new_provider = new_provider;
	c->ingest.max_offers = max_offers;
}

void cache_ingest_stats(const struct cache *c, struct ingest_stats *out)
{
	*out = c->last_ingest;
}

enum gc_status cache_batch_begin(struct cache *c, struct cache_batch *sc, const char *provider,
				 int new_provider, char **err)
{
	memset(sc, 0, sizeof *sc);
	sc->c = c;
	char *why = NULL;
	if (!c->rates_loaded && rates_load_embedded(&c->rates, &why) == GC_OK)
		c->rates_loaded = 1;
	free(why); /* without the table, USD alone is a currency */
	struct ingest_policy p = c->ingest;
	p.rates = c->rates_loaded ? &c->rates : NULL;
	p.new_provider |= new_provider;
	return ingest_begin(&sc->door, &p, provider, !provider || catalog_has_profile(provider),
			    err);
}

/* The committed prices of the offer just inserted (row id `id`), each
 * through the door; a refused one is counted, never fails the store. */
static enum gc_status insert_commits(struct cache_batch *sc, const struct offer *o,
				     long long id, char **err)
{
	struct cache *c = sc->c;
	if (!c->insert_commit &&
	    sqlite3_prepare_v2(c->db, "INSERT INTO offer_commit(offer, price_type, term_months,"
			       " price_hr, origin, as_of) VALUES(?1, ?2, ?3, ?4, ?5, ?6)", -1,
			       &c->insert_commit, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot prepare insert");
	/* one per type and term: 6 terms of a reservation, capacity blocks
	 * with or without one; past that a price is a duplicate anyway */
	struct offer_commit kept[16];
	size_t n = 0;
	for (size_t i = 0; i < o->ncommits && n < sizeof kept / sizeof *kept; i++) {
		struct offer_text t;
		if (!ingest_commit(&sc->door, o, &o->commits[i], kept, n, &kept[n], &t, NULL))
			continue;
		sqlite3_stmt *s = c->insert_commit;
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, id);
		cache_bind_text(s, 2, kept[n].type);
		sqlite3_bind_int(s, 3, kept[n].term_months);
		cache_bind_num(s, 4, kept[n].price_hr);
		cache_bind_text(s, 5, kept[n].origin);
		cache_bind_text(s, 6, kept[n].as_of);
		if (sqlite3_step(s) != SQLITE_DONE)
			return cache_db_error(c, err, "cannot insert a committed price");
		/* its texts live in t, gone at the next turn: the duplicate check
		 * reads only type and term */
		kept[n].origin = kept[n].as_of = NULL;
		n++;
	}
	return GC_OK;
}

enum gc_status cache_commits_sweep(struct cache *c, char **err)
{
	/* by the offer's row id, one lookup per committed price (NOT IN over
	 * the offers would read all of them) */
	return cache_exec(c, "DELETE FROM offer_commit WHERE NOT EXISTS"
			  " (SELECT 1 FROM offer WHERE offer.id = offer_commit.offer)", err);
}

enum gc_status cache_batch_add(void *arg, const struct offer *raw, char **err)
{
	struct cache_batch *sc = arg;
	const char *p = raw->provider ? raw->provider : "";
	if (sc->only && strcmp(sc->only, p) != 0)
		return GC_OK;
	for (size_t i = 0; i < sc->nskip; i++)
		if (strcmp(sc->skip[i], p) == 0)
			return GC_OK;
	struct offer_text t;
	struct offer o;
	int keep;
	enum gc_status st = ingest_offer(&sc->door, raw, &o, &t, &keep, err);
	if (st == GC_OK && keep)
		st = insert_offer(sc->c, &o, err);
	if (st == GC_OK && keep && o.ncommits)
		st = insert_commits(sc, &o, sqlite3_last_insert_rowid(sc->c->db), err);
	if (st == GC_OK && keep) {
		sc->inserted++;
		sc->list_rows += strcmp(o.source, "list") == 0;
	}
	sc->c->last_ingest = sc->door.s;
	return st;
}

/* A provider's record through the door too: a source of its set and a
 * date that is one (ingest.h); its texts are cleaned when stored. */
static enum gc_status cache_meta_check(const struct cache_meta *m, long long now, char **err)
{
	char safe[64];
	if (!ingest_source_ok(m->source))
		return err_set(err, GC_EDATA, "the record's source '%s' is none of live, catalog, "
			       "import, snapshot, list",
			       str_sanitize(safe, sizeof safe, m->source ? m->source : ""));
	return ingest_check_date("the record's fetched_at", m->fetched_at, now, err);
}

/* A record's text as stored: control characters out, one field's length. */
static const char *clean(char *dst, const char *s)
{
	int changed = 0;
	return str_field(dst, s, &changed);
}

static enum gc_status upsert_state(struct cache *c, const char *provider,
				   const struct cache_meta *m, char **err)
{
	char b[3][STR_FIELD_MAX + 1];
	const char *p[] = {provider, m->source, m->fetched_at, clean(b[0], m->etag),
			   clean(b[1], m->last_modified), clean(b[2], m->last_error),
			   m->stale ? "1" : "0"};
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

/* The provider's rows a replacement removes: up to offer id `before` when
 * the load is recorded in the history (which reads them first), else all
 * of them (of `source` when given), before the load. */
static enum gc_status delete_old(struct cache *c, const char *provider, const char *source,
				 long long before, char **err)
{
	char id[32];
	snprintf(id, sizeof id, "%lld", before);
	const char *p[] = {provider, source ? source : id};
	enum gc_status st = GC_OK;
	if (before >= 0)
		st = cache_run(c, "DELETE FROM offer WHERE provider = ?1 AND id <= ?2",
			       "cannot replace offers", err, 2, p);
	else
		st = cache_history_detach(c, provider, 0, err);
	if (st == GC_OK && before < 0)
		st = cache_run(c, source ? "DELETE FROM offer WHERE provider = ?1 AND source = ?2"
					 : "DELETE FROM offer WHERE provider = ?1",
			       "cannot replace offers", err, source ? 2 : 1, p);
	if (st == GC_OK)
		st = cache_commits_sweep(c, err);
	return st;
}

/* The load into an open transaction: the old rows out (now, or after the
 * history read them: *before), the new ones in, the guard. */
static enum gc_status load(struct cache *c, const char *provider, const char *source,
			   const struct cache_meta *meta, cache_fill_fn fill, void *arg,
			   struct cache_batch *sc, struct index_sql *saved, long long *before,
			   char **err)
{
	long long prev = 0;
	enum gc_status st = GC_OK;
	if (meta)
		st = count_provider(c, provider, meta->source, &prev, err);
	if (st == GC_OK)
		st = drop_indexes(c, provider, saved, err);
	bulk_cache(c, saved->n ? BULK_REBUILD : BULK_KEEP);
	*before = -1;
	if (st == GC_OK && meta && cache_history_on(c))
		st = cache_scalar(c, "SELECT COALESCE(max(id), 0) FROM offer", before,
				  "cannot replace offers", err);
	else if (st == GC_OK)
		st = delete_old(c, provider, source, -1, err);
	if (st == GC_OK && saved->n) {
		/* the insert statement was compiled against the indexes */
		sqlite3_finalize(c->insert);
		c->insert = NULL;
		st = cache_prepare_insert(c, err);
	}
	if (st == GC_OK)
		st = fill(arg, cache_batch_add, sc, err);
	if (st == GC_OK && meta)
		st = guard(c, prev, sc->inserted, err);
	return st;
}

static enum gc_status replace(struct cache *c, const char *provider, const char *source,
			      const struct cache_meta *meta, cache_fill_fn fill, void *arg,
			      size_t *inserted, char **err)
{
	struct index_sql saved = {NULL, 0};
	struct cache_batch sc;
	enum gc_status st = cache_batch_begin(c, &sc, provider, meta && meta->new_provider, err);
	memset(&c->last_ingest, 0, sizeof c->last_ingest);
	if (st == GC_OK)
		st = cache_prepare_insert(c, err);
	if (st == GC_OK && meta)
		st = cache_meta_check(meta, c->ingest.now, err);
	if (st == GC_OK)
		st = cache_tx_begin(c, err);
	if (st != GC_OK)
		return st;
	long long before = -1;
	st = load(c, provider, source, meta, fill, arg, &sc, &saved, &before, err);
	/* the history reads the old rows and the new without the indexes (a
	 * scan of the new rows' ids, the old by id), then the old go, before
	 * the indexes are built again */
	if (st == GC_OK && before >= 0)
		st = cache_history_record(c, provider, meta->fetched_at, before, err);
	if (st == GC_OK && before >= 0)
		st = delete_old(c, provider, source, before, err);
	if (st == GC_OK)
		st = restore_indexes(c, &saved, err);
	if (st == GC_OK)
		st = cache_map_skus(c, provider, err);
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
