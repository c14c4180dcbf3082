/* cache.h - the SQLite offer cache.
 *
 * One file (WAL mode) holds the offers, each provider's refresh state, and
 * copies of the catalog tables (provider, gpu) plus the view offer_v that
 * joins them, so that every query is plain SQL over one database.  The
 * schema is versioned with PRAGMA user_version; docs/CACHE.md describes it.
 *
 * Writers replace one provider's offers in one transaction, so readers see
 * either the old or the new offers, never a mix.
 */
#ifndef GPUCMP_CACHE_H
#define GPUCMP_CACHE_H

#include <sqlite3.h>
#include <stddef.h>

#include "gpucmp/catalog.h"
#include "gpucmp/err.h"
#include "gpucmp/offer.h"

#define CACHE_SCHEMA_VERSION 1

struct cache; /* opaque */

struct cache_open_info {
	int created;            /* the file did not exist or was empty */
	int seeded;             /* snapshot rows were inserted for the first time */
	int snapshot_updated;   /* a newer built-in snapshot replaced older snapshot rows */
	size_t snapshot_rows;   /* rows inserted from the snapshot */
	char snapshot_date[11]; /* newest as-of date of the snapshot */
	char *moved_aside;      /* a corrupt cache was renamed to this path (new string) */
};

/* Resolve the cache path: `override` (--cache) if given, else $GPUCMP_CACHE,
 * else $XDG_CACHE_HOME/gpucmp/cache.db, else $HOME/.cache/gpucmp/cache.db.
 * Returns a new string, or NULL with *err set. */
char *cache_default_path(const char *override, char **err);

/* Open (creating parent directories and the file as needed), migrate, sync
 * the catalog tables (parsing the catalog parts that needs) and seed the
 * snapshot.  `path` NULL opens a private
 * in-memory cache seeded from the snapshot.  A file that is not a SQLite
 * database (or is corrupt) is renamed aside and rebuilt; info->moved_aside
 * says where it went.  Errors: GC_EIO (cannot create/read/write, newer
 * schema), GC_EDATA (bad snapshot). */
enum gc_status cache_open(struct cache **out, const char *path,
			  struct catalog *cat, struct cache_open_info *info,
			  char **err);
void cache_close(struct cache *c);
void cache_open_info_release(struct cache_open_info *info);

/* The underlying connection (borrowed), for the query module. */
sqlite3 *cache_db(struct cache *c);
const char *cache_path(const struct cache *c); /* ":memory:" for in-memory */

/* Replace every offer of `provider` whose source is `source` (NULL: every
 * source) with the offers produced by `fill`, in one transaction.  `fill`
 * gets an offer_cb/ctx pair to feed; if it fails nothing changes. */
typedef enum gc_status (*cache_fill_fn)(void *arg, offer_cb cb, void *cb_ctx, char **err);
enum gc_status cache_replace(struct cache *c, const char *provider, const char *source,
			     cache_fill_fn fill, void *arg, size_t *inserted, char **err);

/* Number of offers (all providers). */
enum gc_status cache_count(struct cache *c, long long *n, char **err);

#endif
