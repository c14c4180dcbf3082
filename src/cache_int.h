/* cache_int.h - private to src/cache_*.c: struct cache and what the cache
 * files share.  The public face is include/gpucmp/cache.h; nothing outside
 * src/cache_*.c includes this.
 *
 * The files, by job:
 *   cache_path.c    where the cache lives, and what may sit at that path
 *   cache_open.c    open (read-write, read-only), close, set a damaged file aside
 *   cache_schema.c  migrations, the view offer_v and its sku_type table
 *   cache_caps.c    offer_v's capability columns, from one table of layers
 *   cache_mirror.c  the catalog's tables (provider, gpu, insttype) in the file
 *   cache_seed.c    the built-in rows (snapshot, list prices), cache_clear
 *   cache_write.c   a provider's offers replaced in one go, the guard, indexes
 *   cache_history.c what a load changed (price history), its retention
 *   cache_state.c   each provider's refresh record, the status, counts
 *   cache_dump.c    every stored offer and record in a fixed order (export),
 *                   several writes in one transaction, named values (pull)
 *   cache_db.c      the SQLite helpers all of them use
 */
#ifndef GPUCMP_CACHE_INT_H
#define GPUCMP_CACHE_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "gpucmp/cache.h"
#include "gpucmp/ingest.h"
#include "gpucmp/rates.h"
#include "sqlite_int.h"

struct buf;

struct cache {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *insert;
	sqlite3_stmt *insert_commit; /* an offer's committed price (offer_commit) */
	size_t expect_rows; /* hint for the next replace (cache_expect_rows) */
	int force;          /* cache_set_guard: store any answer */
	int min_keep;       /* cache_set_guard: percent of the previous count */
	int history_days;   /* cache_set_history: retention; 0 records nothing */
	int corrupt;        /* an operation met a damaged page (cache_corrupt) */
	int code;           /* SQLite's primary code of the last failure cache_db_error
			     * reported, kept past a rollback (0: none) */
	int batch;          /* inside cache_begin: each write is a savepoint of it */
	struct ingest_policy ingest;     /* cache_set_ingest: the door's settings */
	struct ingest_stats last_ingest; /* what the door did in the last store */
	struct rate_table rates;         /* the currencies the door knows, loaded by the
					  * first store (rates_loaded) */
	int rates_loaded;
	dev_t dev;          /* the file opened, to tell it from a replacement */
	ino_t ino;
};

/* --- cache_db.c: errors, statements, transactions, meta, binding --- */

/* Is a SQLite result code a damaged or foreign file? */
int cache_corrupt_code(int code);
/* "cache PATH: WHAT: SQLite's message" from the connection's last error
 * (GC_ENOMEM or GC_EIO); notes a damaged page in c->corrupt and the code
 * in c->code; an I/O error on a full file system says so. */
enum gc_status cache_db_error(struct cache *c, char **err, const char *what);
/* Run SQL text (no parameters); errors say "cannot update". */
enum gc_status cache_exec(struct cache *c, const char *sql, char **err);
/* Roll back the open transaction, if any. */
void cache_rollback(struct cache *c);
/* End the open transaction: COMMIT when `st` is GC_OK, otherwise (or when
 * COMMIT fails) roll back; returns the outcome. */
enum gc_status cache_commit(struct cache *c, enum gc_status st, char **err);
/* A write's own transaction: BEGIN IMMEDIATE, or inside cache_begin a
 * savepoint of the caller's; cache_tx_end commits (releases) it when `st`
 * is GC_OK, else rolls it back; returns the outcome. */
enum gc_status cache_tx_begin(struct cache *c, char **err);
enum gc_status cache_tx_end(struct cache *c, enum gc_status st, char **err);
/* Run one statement with text parameters (NULL binds NULL). */
enum gc_status cache_run(struct cache *c, const char *sql, const char *what, char **err,
			 int nparams, const char *const *params);
/* Run a one-value query; `what` names it in the error message. */
enum gc_status cache_scalar(struct cache *c, const char *sql, long long *v, const char *what,
			    char **err);
/* The meta table: a value (new string, NULL when absent), or a 64-bit hash
 * stored as 16 hex digits. */
char *cache_meta_get(struct cache *c, const char *key);
enum gc_status cache_meta_set(struct cache *c, const char *key, const char *value, char **err);
int cache_meta_matches(struct cache *c, const char *key, uint64_t hash);
enum gc_status cache_meta_set_hash(struct cache *c, const char *key, uint64_t hash, char **err);
/* Bind a text (NULL), a number (NAN) or a tri-state (< 0) as NULL when
 * unknown; text is borrowed until the statement steps. */
void cache_bind_text(sqlite3_stmt *s, int i, const char *v);
void cache_bind_num(sqlite3_stmt *s, int i, double v);
void cache_bind_tri(sqlite3_stmt *s, int i, int v);

/* --- cache_path.c --- */

/* Make `path`'s parent directories, create an empty file there if none,
 * refuse a link or a non-file (info->unusable) and note a directory any
 * user may write (info->open_dir). */
enum gc_status cache_ready_path(const char *path, struct cache_open_info *info, char **err);

/* --- cache_schema.c --- */

/* Refuse a file from a newer gpucmp or from another program; *v is its
 * schema version.  Runs before anything is written. */
enum gc_status cache_check_ours(struct cache *c, int *v, char **err);
/* Bring the schema to the current version; *created when it was empty. */
enum gc_status cache_migrate(struct cache *c, int *created, char **err);
/* The catalog hash the stored tables and view must match (the view's
 * text is part of it). */
uint64_t cache_view_hash(const struct catalog *cat);
/* Was the file written by this build: schema version `v` (from
 * cache_check_ours) current, the same catalog tables and view, the same
 * built-in rows? */
int cache_is_current(struct cache *c, const struct catalog *cat, int v);
/* (Re)create the view offer_v and its sku_type table. */
enum gc_status cache_create_view(struct cache *c, char **err);
/* Record the instance-type entry of each (provider, sku) just stored (all
 * providers when provider is NULL), inside the load's transaction. */
enum gc_status cache_map_skus(struct cache *c, const char *provider, char **err);

/* --- cache_mirror.c --- */

/* Rebuild provider, gpu, insttype and offer_v when the catalog changed. */
enum gc_status cache_sync_catalog(struct cache *c, struct catalog *cat, char **err);

/* --- cache_seed.c --- */

/* Insert (or, for a newer build, replace) the built-in rows. */
enum gc_status cache_sync_snapshot(struct cache *c, const struct catalog *cat,
				   struct cache_open_info *info, char **err);

/* --- cache_write.c --- */

/* Compile c->insert once (again after the indexes changed). */
enum gc_status cache_prepare_insert(struct cache *c, char **err);
/* An offer_cb that inserts into c, skipping the providers in `skip` and,
 * with `only` set, every other provider; each row through the door
 * (ingest.h) first; counts what it inserted. */
struct cache_batch {
	struct cache *c;
	char **skip; /* providers with live or imported offers */
	size_t nskip;
	const char *only;
	size_t inserted;
	size_t list_rows; /* of those, list prices */
	struct ingest door;
};
/* Start a batch: *sc emptied, its door opened for `provider` (NULL: the
 * built-in rows of every provider; `new_provider`: an id without a
 * profile confirmed); GC_EUSAGE when the door refuses the provider
 * (ingest_begin). */
enum gc_status cache_batch_begin(struct cache *c, struct cache_batch *sc, const char *provider,
				 int new_provider, char **err);
enum gc_status cache_batch_add(void *arg, const struct offer *o, char **err);
/* Drop the committed prices whose offer is gone: run after every delete
 * of offers, before new offers can take their row ids. */
enum gc_status cache_commits_sweep(struct cache *c, char **err);

/* --- cache_history.c --- */

/* Is history recorded (history_days > 0)? */
int cache_history_on(const struct cache *c);
/* Record what the load of `provider` just stored changed against what
 * history knew (docs/HISTORY.md), at time `at` (RFC 3339 UTC), inside the
 * load's transaction, then drop what the retention no longer keeps.  The
 * load's rows are those after offer id `before`; the provider's rows up to
 * it are the previous load's, still there (the caller deletes them after),
 * so that an offer that went keeps what it was in history_detail. */
enum gc_status cache_history_record(struct cache *c, const char *provider, const char *at,
				    long long before, char **err);
/* Before offers of `provider` (NULL: all; `builtin`: only the snapshot and
 * list rows) are deleted without a record: the known offers among them
 * keep their detail in history_detail. */
enum gc_status cache_history_detach(struct cache *c, const char *provider, int builtin,
				    char **err);
/* history_v's source: a subquery with offer's columns for every offer
 * history knows, and `touched` (1: an event touched it, a history_offer
 * row), appended to b. */
enum gc_status cache_history_wide(struct buf *b);
/* offer_v's capability columns (" COALESCE(...) AS k8s," ...), each the
 * first of its layers that answers: offer, instance type, GPU model,
 * provider profile (src/cache_caps.c), appended to b. */
enum gc_status cache_caps_sql(struct buf *b);
/* h folded with everything cache_caps_sql() makes its text from. */
uint64_t cache_caps_hash(uint64_t h);

#endif
