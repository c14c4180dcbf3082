/* cache_seed.c - the built-in rows (data/snapshot.csv, then the list
 * prices of data/list-prices.yaml): seeded when the cache is created,
 * replaced when a newer build brings others, put back by cache_clear.
 * Providers with live or imported offers keep them.  Calls cache_write.c
 * (the insert), cache_schema.c (sku_type) and cache_db.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_int.h"
#include "gpucmp/listprice.h"
#include "gpucmp/snapshot.h"
#include "sqlite_int.h"

static enum gc_status load_skip_list(struct cache *c, struct cache_batch *sc, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT DISTINCT provider FROM offer"
			       " WHERE source NOT IN ('snapshot', 'list')",
			       -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read providers");
	enum gc_status st = GC_OK;
	while (st == GC_OK && sqlite3_step(s) == SQLITE_ROW) {
		char **v = realloc(sc->skip, (sc->nskip + 1) * sizeof *v);
		char *p = strdup((const char *)sqlite3_column_text(s, 0));
		if (!v || !p) {
			free(p);
			if (v)
				sc->skip = v;
			st = err_set(err, GC_ENOMEM, "out of memory");
			break;
		}
		sc->skip = v;
		sc->skip[sc->nskip++] = p;
	}
	sqlite3_finalize(s);
	return st;
}

/* The built-in rows: the snapshot, then the published list prices. */
static enum gc_status parse_seed(const struct catalog *cat, offer_cb cb, void *arg,
				 struct snapshot_info *si, char **err)
{
	enum gc_status st = snapshot_parse(cat->snapshot, cat->snapshot_len, cb, arg, si, err);
	if (st == GC_OK)
		st = listprice_parse("data/list-prices.yaml", cat->list_prices,
				     cat->list_prices_len, NULL, cb, arg, NULL, err);
	return st;
}

/* The built-in rows in place of the old ones, for the providers without
 * offers of their own; inside the caller's transaction. */
static enum gc_status reseed(struct cache *c, const struct catalog *cat, struct cache_batch *sc,
			     struct snapshot_info *si, char **err)
{
	enum gc_status st = cache_prepare_insert(c, err);
	if (st == GC_OK)
		st = load_skip_list(c, sc, err);
	if (st == GC_OK)
		st = cache_history_detach(c, NULL, 1, err);
	if (st == GC_OK)
		st = cache_exec(c, "DELETE FROM offer WHERE source IN ('snapshot', 'list')", err);
	if (st == GC_OK)
		st = cache_commits_sweep(c, err);
	if (st == GC_OK)
		st = parse_seed(cat, cache_batch_add, sc, si, err);
	if (st == GC_OK)
		st = cache_map_skus(c, NULL, err);
	if (st == GC_OK)
		st = cache_meta_set_hash(c, "snapshot_hash", cat->seed_hash, err);
	if (st == GC_OK)
		st = cache_meta_set(c, "snapshot_date", si->newest, err);
	return st;
}

/* Insert (or, for a newer build, replace) the built-in rows (snapshot and
 * list prices).  Providers that already have live or imported offers keep
 * them. */
enum gc_status cache_sync_snapshot(struct cache *c, const struct catalog *cat,
				   struct cache_open_info *info, char **err)
{
	if (cache_meta_matches(c, "snapshot_hash", cat->seed_hash))
		return GC_OK;
	struct cache_batch sc;
	struct snapshot_info si;
	enum gc_status st = cache_batch_begin(c, &sc, NULL, 0, err);
	if (st == GC_OK)
		st = cache_exec(c, "BEGIN IMMEDIATE", err);
	if (st != GC_OK)
		return st;
	if (!cache_meta_matches(c, "snapshot_hash", cat->seed_hash)) {
		char *old = cache_meta_get(c, "snapshot_hash");
		int had = old != NULL;
		free(old);
		st = reseed(c, cat, &sc, &si, err);
		if (st == GC_OK) {
			info->seeded = !had;
			info->snapshot_updated = had;
			info->snapshot_rows = sc.inserted - sc.list_rows;
			info->list_rows = sc.list_rows;
			snprintf(info->snapshot_date, sizeof info->snapshot_date, "%s", si.newest);
		}
	}
	if ((st = cache_commit(c, st, err)) != GC_OK)
		info->seeded = info->snapshot_updated = 0;
	for (size_t i = 0; i < sc.nskip; i++)
		free(sc.skip[i]);
	free(sc.skip);
	return st;
}

enum gc_status cache_clear(struct cache *c, const struct catalog *cat, const char *provider,
			   size_t *removed, size_t *restored, char **err)
{
	const char *p[] = {provider};
	struct cache_batch rc;
	enum gc_status st = cache_batch_begin(c, &rc, NULL, 0, err);
	rc.only = provider;
	if (st == GC_OK)
		st = cache_prepare_insert(c, err);
	if (st == GC_OK)
		st = cache_exec(c, "BEGIN IMMEDIATE", err);
	if (st != GC_OK)
		return st;
	st = cache_history_detach(c, provider, 0, err);
	if (st == GC_OK)
		st = cache_run(c, provider ? "DELETE FROM offer WHERE provider = ?1"
					   : "DELETE FROM offer",
			       "cannot clear offers", err, provider ? 1 : 0, p);
	if (removed)
		*removed = (size_t)sqlite3_changes(c->db);
	if (st == GC_OK)
		st = cache_commits_sweep(c, err);
	if (st == GC_OK)
		st = cache_run(c,
			       provider ? "DELETE FROM provider_state WHERE provider = ?1"
					: "DELETE FROM provider_state",
			       "cannot clear the refresh state", err, provider ? 1 : 0, p);
	/* the built-in rows of that provider (NULL: all) */
	struct snapshot_info si;
	if (st == GC_OK)
		st = parse_seed(cat, cache_batch_add, &rc, &si, err);
	if (st == GC_OK)
		st = cache_map_skus(c, provider, err);
	if ((st = cache_commit(c, st, err)) == GC_OK && restored)
		*restored = rc.inserted;
	return st;
}
