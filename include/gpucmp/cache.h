/* cache.h - the SQLite offer cache.
 *
 * One file (WAL mode) holds the offers, each provider's refresh state, and
 * copies of the catalog tables (provider, gpu) plus the view offer_v that
 * joins them, so that every query is plain SQL over one database.  The
 * schema is versioned with PRAGMA user_version; docs/CACHE.md describes it.
 *
 * Writers replace one provider's offers in one transaction, so readers see
 * either the old or the new offers, never a mix.
 *
 * The code is src/cache_*.c, one file per job; src/cache_int.h lists them.
 */
#ifndef GPUCMP_CACHE_H
#define GPUCMP_CACHE_H

#include <stddef.h>

#include "gpucmp/catalog.h"
#include "gpucmp/err.h"
#include "gpucmp/ingest.h"
#include "gpucmp/offer.h"

#define CACHE_SCHEMA_VERSION 10

struct cache; /* opaque */

struct cache_open_info {
	int created;            /* the file did not exist or was empty */
	int seeded;             /* snapshot rows were inserted for the first time */
	int snapshot_updated;   /* a newer built-in snapshot replaced older snapshot rows */
	size_t snapshot_rows;   /* rows inserted from the snapshot */
	size_t list_rows;       /* and from data/list-prices.yaml */
	char snapshot_date[11]; /* newest as-of date of the snapshot */
	char *moved_aside;      /* a corrupt cache was renamed to this path (new string) */
	int unusable;           /* the path holds a link, directory, FIFO or device:
				 * refused (GC_EIO), never opened */
	char *open_dir;         /* the cache's directory, which any user may write
				 * (new string), for a warning; NULL when it is not */
	int refused;            /* failed: a newer cache or another program's
				 * database, refused for what it holds (no other
				 * way of reading it will do) */
	int readonly;           /* failed because the file or its directory may not
				 * be written (permissions, a read-only medium),
				 * not because a write failed (a full disk) */
};

/* Resolve the cache path: `override` (--cache) if given, else $GPUCMP_CACHE,
 * else $XDG_CACHE_HOME/gpucmp/cache.db, else $HOME/.cache/gpucmp/cache.db.
 * Returns a new string, or NULL with *err set. */
char *cache_default_path(const char *override, char **err);
/* The same, telling why it failed: GC_EUSAGE (no location: HOME and the
 * rest unset) or GC_ENOMEM.  *path is a new string on success. */
enum gc_status cache_locate(const char *override, char **path, char **err);

/* Open (creating parent directories, mode 0700, and the file, 0600, as
 * needed), migrate, sync the catalog tables (parsing the catalog parts
 * that needs) and seed the snapshot.  `path` NULL opens a private
 * in-memory cache seeded from the snapshot.  A file that is not a SQLite
 * database (or is corrupt) is renamed aside and rebuilt; info->moved_aside
 * says where it went.  Only damage a second read on a fresh read-only
 * connection finds moves a file: an I/O error, a full disk or a lock
 * never does.  A symbolic link, directory, FIFO or device at `path` is
 * refused without being opened (info->unusable).  Errors: GC_EIO (cannot
 * create/read/write, newer schema or foreign: info->refused, unusable
 * path), GC_EDATA (bad snapshot).  Release info with
 * cache_open_info_release, whatever the result. */
enum gc_status cache_open(struct cache **out, const char *path,
			  struct catalog *cat, struct cache_open_info *info,
			  char **err);
/* Open an existing cache for reading only, changing nothing: for a reader
 * that cannot write the file or its directory, or whose disk is full.
 * Without a -wal beside it the file is read immutable; with one, shared
 * through the -shm, then with the -shm read-only (SQLite rebuilds the WAL
 * index in memory, for a -shm that cannot grow), then immutable if the
 * -wal is empty.  The file must be a gpucmp cache seeded by this build
 * (same catalog and snapshot).  Errors: GC_EIO, GC_ENOMEM. */
enum gc_status cache_open_readonly(struct cache **out, const char *path,
				   struct catalog *cat, char **err);
void cache_close(struct cache *c);

/* Did the last operation on `c` find the file corrupt (a damaged page that
 * opening did not touch)? */
int cache_corrupt(const struct cache *c);
/* Close `c` and rename its file (and -wal, -shm) aside as
 * PATH.corrupt-<UTC stamp>, kept for a post mortem; *moved_to gets the new
 * name (the caller frees it).  The next cache_open rebuilds the cache.
 * GC_ETEMPFAIL, nothing moved, when the file was replaced meanwhile or a
 * second read on a fresh connection finds no damage (what failed was an
 * I/O error, a full disk or a lock, not the file). */
enum gc_status cache_set_aside(struct cache *c, char **moved_to, char **err);
void cache_open_info_release(struct cache_open_info *info);

/* cache_db, cache_col_num, cache_col_tri: src/sqlite_int.h. */
const char *cache_path(const struct cache *c); /* ":memory:" for in-memory */

/* Replace every offer of `provider` whose source is `source` (NULL: every
 * source) with the offers produced by `fill`, in one transaction.  `fill`
 * gets an offer_cb/ctx pair to feed; if it fails nothing changes. */
typedef enum gc_status (*cache_fill_fn)(void *arg, offer_cb cb, void *cb_ctx, char **err);
enum gc_status cache_replace(struct cache *c, const char *provider, const char *source,
			     cache_fill_fn fill, void *arg, size_t *inserted, char **err);

/* A provider's refresh record (table provider_state). */
struct cache_meta {
	const char *source;        /* "live" | "catalog" | "import" | "snapshot" */
	const char *fetched_at;    /* RFC 3339 UTC */
	const char *etag;          /* of the last response, for conditional requests */
	const char *last_modified;
	const char *last_error;    /* set by cache_mark_failed; cache_store records it */
	int stale;                 /* cache_store: 1 keeps the new offers marked stale
				    * (a pulled provider that failed at its publisher) */
	int new_provider;          /* cache_store: the writer confirmed an id without a
				    * built-in profile (--new-provider; ingest.h) */
};

/* Say how many offers the next cache_store/cache_replace will insert
 * (roughly).  A load large next to the rest of the table rebuilds the
 * indexes after it instead of updating them row by row. */
void cache_expect_rows(struct cache *c, size_t n);

/* The plausible-answer rule, one for every way data comes in (refresh,
 * import, and whatever else calls cache_store): a provider's new offers
 * replace the old only when
 *   - there is at least one (an answer with no usable offer is a failure,
 *     even for a provider that had none), and
 *   - when it had at least CACHE_GUARD_MIN_PREVIOUS offers of the same
 *     kind (live, or catalog-like: snapshot, import, catalog), the new
 *     count is at least min_keep_percent (default CACHE_MIN_KEEP_PERCENT)
 *     of that; 0 turns this half off.  A provider's live API lists fewer
 *     rows than a catalog of it, so a first live answer is measured by the
 *     first half alone.
 * Otherwise cache_store changes nothing and fails with GC_EDATA and a
 * message that names the counts; the caller records it as a failure of
 * that provider.  `force` stores any answer.  Set per connection: the CLI
 * sets it from --force and the config file. */
#define CACHE_MIN_KEEP_PERCENT 10
#define CACHE_GUARD_MIN_PREVIOUS 10
void cache_set_guard(struct cache *c, int force, int min_keep_percent);

/* The door's settings for this connection's stores (ingest.h): whether a
 * provider id without a built-in profile may be stored (--new-provider)
 * and the cap of rows per provider (0: INGEST_MAX_OFFERS).  Every store
 * (cache_store, cache_replace, the seed) runs each row through the door. */
void cache_set_ingest(struct cache *c, int new_provider, size_t max_offers);
/* What the door did in the last store on c (rows handed in, stored,
 * dropped by reason), for a summary. */
void cache_ingest_stats(const struct cache *c, struct ingest_stats *out);

/* Price history (docs/HISTORY.md): every cache_store records, in its
 * transaction, what changed per offer key (provider, sku, region) against
 * the last load of that provider: one event per changed offer, its kind a
 * set of these bits, the state before and after.  A provider's first load
 * is its baseline (no events). */
enum cache_history_kind {
	CACHE_HIST_APPEARED = 1, /* new, or back after it was gone */
	CACHE_HIST_GONE = 2,
	CACHE_HIST_PRICE = 4,
	CACHE_HIST_SPOT = 8,
	CACHE_HIST_AVAILABLE = 16
};
#define CACHE_HISTORY_DAYS 90
/* Keep `days` days of events (< 0: CACHE_HISTORY_DAYS; 0: record none). */
void cache_set_history(struct cache *c, int days);
/* Drop the events older than the retention before `now` (RFC 3339 UTC),
 * and the offers gone with no event left; the state before the oldest
 * kept event stays in that event's was_* columns.  cache_store runs it. */
enum gc_status cache_history_compact(struct cache *c, const char *now, char **err);

/* The id of the last event recorded (0: none), for what a run changes. */
enum gc_status cache_history_last(struct cache *c, long long *id, char **err);

/* Replace every offer of `provider` (whatever their source) with the
 * offers `fill` produces and record `meta` (stale cleared), in one
 * transaction: readers see the old or the new offers, never a mix.
 * Obeys the plausible-answer rule above (GC_EDATA, nothing changed). */
enum gc_status cache_store(struct cache *c, const char *provider, const struct cache_meta *meta,
			   cache_fill_fn fill, void *arg, size_t *inserted, char **err);
/* A refresh failed: keep the offers, mark them stale, record the error. */
enum gc_status cache_mark_failed(struct cache *c, const char *provider, const char *error,
				 char **err);
/* A provider was skipped: record why (last_error), offers and staleness
 * untouched; the next successful refresh clears it. */
enum gc_status cache_note(struct cache *c, const char *provider, const char *note, char **err);
/* The source answered "not modified": the live (or catalog) offers are
 * current again. */
enum gc_status cache_mark_fresh(struct cache *c, const char *provider, const char *fetched_at,
				char **err);
/* Read a provider's record (new strings: cache_meta_release); GC_ENOTFOUND if none. */
enum gc_status cache_get_meta(struct cache *c, const char *provider, struct cache_meta *m,
			      char **err);
void cache_meta_release(struct cache_meta *m);
/* Does the cache hold offers or a refresh record of `provider`? */
int cache_has_provider(struct cache *c, const char *provider);

struct cache_status_row {
	const char *provider;
	long long offers;
	const char *sources;    /* "live", "snapshot", "list", "import" (comma list) or NULL */
	const char *fetched_at; /* newest, or NULL */
	const char *as_of;      /* the date of its data, the oldest of its offers';
				 * NULL when any names none (or it has no offers) */
	long long undated;      /* its offers that name no date */
	int stale;
	const char *last_error; /* or NULL */
};
typedef enum gc_status (*cache_status_fn)(void *arg, const struct cache_status_row *r,
					  char **err);
/* One row per provider that has offers or a refresh record, by id. */
enum gc_status cache_status(struct cache *c, cache_status_fn fn, void *arg, char **err);

/* Drop the offers and refresh records of `provider` (NULL: all) and put
 * that provider's built-in snapshot rows back, in one transaction. */
enum gc_status cache_clear(struct cache *c, const struct catalog *cat, const char *provider,
			   size_t *removed, size_t *restored, char **err);

/* Number of offers (all providers). */
enum gc_status cache_count(struct cache *c, long long *n, char **err);

/* For the rest of this connection, the view offer_v every query reads is
 * the offers at one type of price (docs/OUTPUT.md, "Price types"): "spot"
 * (the offers with a spot price, price_hr the spot price) or a committed
 * type, "reserved" or "capacity_block", with its term in months (0: none
 * said): each offer with such a price, price_hr that price, spot_price_hr
 * null.  The columns computed from the price (per GPU, per GB, the value
 * per dollar) follow it; price_type and term_months say which it is.  A
 * temporary view of the same name; the file is not changed.  GC_EUSAGE
 * for another type. */
enum gc_status cache_price_view(struct cache *c, const char *type, int term_months, char **err);

/* --- team snapshots (cache_dump.c) --- */

/* Make the writes until cache_end one transaction (BEGIN IMMEDIATE): each
 * cache_store inside it is a savepoint, so a failure of one undoes only
 * that one, and cache_end with a status other than GC_OK undoes them all.
 * cache_end commits when st is GC_OK; returns the outcome. */
enum gc_status cache_begin(struct cache *c, char **err);
enum gc_status cache_end(struct cache *c, enum gc_status st, char **err);

/* One read transaction around several reads (an export's records and
 * offers), so that a refresh committing meanwhile is not half seen:
 * cache_read_begin, then cache_read_end whatever happened. */
enum gc_status cache_read_begin(struct cache *c, char **err);
void cache_read_end(struct cache *c);

/* A provider the cache stored at least once (provider_state.source set):
 * its record, how many offers it holds and the newest date they describe
 * (COALESCE(as_of, fetched_at); NULL without offers).  Borrowed for the
 * call. */
struct cache_dump_state {
	const char *provider;
	struct cache_meta meta;
	long long offers;
	const char *as_of;
};
typedef enum gc_status (*cache_dump_state_fn)(void *arg, const struct cache_dump_state *s,
					      char **err);
/* Each such provider, by id. */
enum gc_status cache_dump_states(struct cache *c, cache_dump_state_fn fn, void *arg, char **err);

/* The stored offers of those providers, as stored (every column an insert
 * binds) with their stale flag, in a fixed order: provider, sku, region,
 * source, prices, GPU count, then insertion.  The offer is borrowed for
 * the call. */
typedef enum gc_status (*cache_dump_offer_fn)(void *arg, const struct offer *o, int stale,
					      char **err);
enum gc_status cache_dump_offers(struct cache *c, cache_dump_offer_fn fn, void *arg, char **err);

/* The newest date provider's offers describe (COALESCE(as_of, fetched_at))
 * into out (n bytes; "" without offers). */
/* How many offers of `provider` the cache holds (*n), how many of them
 * carry a date of their own (*dated) and the oldest of those dates (into
 * oldest, "" when none): a load never replaces a dated one with an undated
 * or older one (refresh). */
enum gc_status cache_provider_dated(struct cache *c, const char *provider, long long *n,
				    long long *dated, char *oldest, size_t size, char **err);
/* The newest date of provider's data into out; "" when it has no offers or any
 * of them names no date (team pull: undated data never replaces dated). */
enum gc_status cache_provider_as_of(struct cache *c, const char *provider, char *out, size_t n,
				    char **err);

/* A named value of the meta table, for the pull's validators per source:
 * a new string, or NULL when absent; set one (in the open transaction, if
 * any). */
char *cache_value_get(struct cache *c, const char *key);
enum gc_status cache_value_set(struct cache *c, const char *key, const char *value, char **err);

#endif
