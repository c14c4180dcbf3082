/* cache_open.c - open the cache (read-write: the path made ready, SQLite
 * connected in WAL mode, the schema migrated, the catalog tables and the
 * built-in rows brought up to date; or read-only, changing nothing), close
 * it, and set a damaged file aside.  Calls cache_path.c, cache_schema.c,
 * cache_mirror.c, cache_seed.c and cache_db.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache_int.h"
#include "gpucmp/buf.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

/* SQLITE_OPEN_NOFOLLOW: the cache file is never reached through a link */
#if SQLITE_VERSION_NUMBER < 3031000
#error "gpucmp needs SQLite 3.31 or newer (SQLITE_OPEN_NOFOLLOW)"
#endif

/* A new handle for `path` with the default guard; NULL when out of memory. */
static struct cache *handle_new(const char *path)
{
	struct cache *c = calloc(1, sizeof *c);
	if (c && !(c->path = strdup(path))) {
		free(c);
		return NULL;
	}
	if (c) {
		c->min_keep = CACHE_MIN_KEEP_PERCENT;
		c->history_days = CACHE_HISTORY_DAYS;
	}
	return c;
}

void cache_close(struct cache *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->insert);
	sqlite3_finalize(c->insert_commit);
	sqlite3_close(c->db);
	if (c->rates_loaded)
		rates_free(&c->rates);
	free(c->path);
	free(c);
}

void cache_open_info_release(struct cache_open_info *info)
{
	free(info->moved_aside);
	info->moved_aside = NULL;
	free(info->open_dir);
	info->open_dir = NULL;
}

/* Which file was opened (cache_set_aside tells it from a replacement). */
static void remember_file(struct cache *c)
{
	struct stat sb;
	if (stat(c->path, &sb) == 0) {
		c->dev = sb.st_dev;
		c->ino = sb.st_ino;
	}
}

/* Switch to WAL.  The switch reads the header under a shared lock and then
 * wants an exclusive one; when another process holds a lock meanwhile (ten
 * first runs creating one cache at once), SQLite answers SQLITE_BUSY at
 * once instead of calling the busy handler, since waiting while holding a
 * shared lock could deadlock.  The statement is reset, which drops that
 * lock, and tried again for as long as the busy timeout would have waited. */
static int wal_switch(struct cache *c)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(c->db, "PRAGMA journal_mode=WAL", -1, &s, NULL);
	if (rc != SQLITE_OK)
		return rc;
	for (int waited = 0;;) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
			rc = SQLITE_OK;
			break;
		}
		sqlite3_reset(s);
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || waited >= 10000)
			break;
		waited += sqlite3_sleep(20);
	}
	sqlite3_finalize(s);
	return rc;
}

static enum gc_status connect(struct cache *c, int memory, struct cache_open_info *info,
			      char **err)
{
	/* one connection per thread: no need for SQLite's own mutexes; a
	 * link put at the path after cache_ready_path looked is still not followed */
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
		    SQLITE_OPEN_NOFOLLOW;
	if (sqlite3_open_v2(c->path, &c->db, flags, NULL) != SQLITE_OK) {
		int nomem = !c->db || sqlite3_errcode(c->db) == SQLITE_NOMEM;
		c->code = c->db ? sqlite3_errcode(c->db) & 0xff : SQLITE_NOMEM;
		enum gc_status st = err_set(err, nomem ? GC_ENOMEM : GC_EIO,
					    "cannot open cache %s: %s", c->path,
					    c->db ? sqlite3_errmsg(c->db) : "out of memory");
		sqlite3_close(c->db);
		c->db = NULL;
		return st;
	}
	remember_file(c);
	sqlite3_busy_timeout(c->db, 10000);
	sqlite3_extended_result_codes(c->db, 0);
	if (memory)
		return GC_OK;
	/* switching to WAL rewrites the header: not in a file we must not touch */
	int v = -1;
	enum gc_status st = cache_check_ours(c, &v, err);
	if (st != GC_OK) {
		info->refused = v >= 0; /* read, and refused for what it holds */
		return st;
	}
	/* a new file (no schema yet) gets 16 KiB pages, before WAL mode fixes
	 * its size: an import of 10^6 offers takes 0.86 of the CPU time of 4
	 * KiB pages (a quarter of the page reads and writes through the WAL;
	 * PERFORMANCE.md, "Ingest: the rest of the import target").  A cache
	 * made before keeps its own; a failure here leaves SQLite's default. */
	if (v == 0)
		sqlite3_exec(c->db, "PRAGMA page_size=16384", NULL, NULL, NULL);
	if (wal_switch(c) != SQLITE_OK)
		return cache_db_error(c, err, "cannot open");
	return cache_exec(c, "PRAGMA synchronous=NORMAL", err);
}

static enum gc_status prepare(struct cache *c, struct catalog *cat,
			      struct cache_open_info *info, char **err)
{
	int memory = strcmp(c->path, ":memory:") == 0;
	enum gc_status st = connect(c, memory, info, err);
	if (st == GC_OK)
		st = cache_migrate(c, &info->created, err);
	if (st == GC_OK)
		st = cache_sync_catalog(c, cat, err);
	if (st == GC_OK)
		st = cache_sync_snapshot(c, cat, info, err);
	return st;
}

/* Rename a corrupt cache (and its -wal/-shm) aside, keeping it for a post mortem. */
static enum gc_status move_aside(const char *path, struct cache_open_info *info,
				 char **err)
{
	char stamp[32], *dst;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	size_t len = strftime(stamp, sizeof stamp, ".corrupt-%Y%m%dT%H%M%SZ", &tm);
	if (!(dst = str_concat(path, stamp)))
		return err_set(err, GC_ENOMEM, "out of memory");
	/* never over an earlier one (two runs in the same second): each is
	 * evidence.  link() refuses an existing name, atomically; rename() is
	 * the fallback where the file system has no hard links. */
	int r, n = 2;
	while ((r = link(path, dst)) != 0 && errno == EEXIST && n < 100) {
		snprintf(stamp + len, sizeof stamp - len, "-%d", n++);
		free(dst);
		if (!(dst = str_concat(path, stamp)))
			return err_set(err, GC_ENOMEM, "out of memory");
	}
	if (r == 0)
		r = unlink(path);
	else if (errno != EEXIST && access(dst, F_OK) != 0)
		r = rename(path, dst);
	if (r != 0) {
		enum gc_status st = err_set(err, GC_EIO,
					    "cache %s is corrupt and cannot be moved aside: %s",
					    path, strerror(errno));
		free(dst);
		return st;
	}
	static const char *const sides[] = {"-wal", "-shm"};
	for (size_t i = 0; i < 2; i++) {
		char *a = str_concat(path, sides[i]), *b = str_concat(dst, sides[i]);
		if (a && b)
			rename(a, b); /* absent is fine */
		free(a);
		free(b);
	}
	free(info->moved_aside);
	info->moved_aside = dst;
	return GC_OK;
}

/* The ways to read a cache without writing it, tried in this order by
 * ro_ways. */
enum ro_way {
	RO_SHARED,   /* read-only, through the -shm as any reader */
	RO_HEAP_SHM, /* the -shm opened read-only: SQLite builds the WAL index in
		      * memory (a -shm that cannot grow on a full disk) */
	RO_IMMUTABLE /* no locks, no -shm, the -wal ignored */
};

/* Which ways suit `path` now: without a -wal, immutable only (nothing is
 * created beside a read-only file, and it is the only way into a
 * directory we cannot write); with one, the shared and in-memory ways,
 * then immutable only when the -wal is empty: with frames in it, the file
 * alone may be older than the cache, or a checkpoint cut short. */
static size_t ro_ways(const char *path, enum ro_way ways[3])
{
	char *wal = str_concat(path, "-wal");
	struct stat sb;
	int have = wal && stat(wal, &sb) == 0;
	free(wal);
	if (!have) {
		ways[0] = RO_IMMUTABLE;
		return 1;
	}
	ways[0] = RO_SHARED;
	ways[1] = RO_HEAP_SHM;
	ways[2] = RO_IMMUTABLE;
	return sb.st_size == 0 ? 3 : 2;
}

/* "file:" URI for `path` read the way `way`. */
static enum gc_status readonly_uri(const char *path, enum ro_way way, struct buf *b)
{
	static const char *const query[] = {
		[RO_SHARED] = "?mode=ro",
		[RO_HEAP_SHM] = "?mode=ro&readonly_shm=1",
		[RO_IMMUTABLE] = "?mode=ro&immutable=1",
	};
	enum gc_status st = buf_addstr(b, "file:");
	for (const char *p = path; *p && st == GC_OK; p++)
		st = *p == '%' || *p == '?' || *p == '#'
			     ? buf_printf(b, "%%%02X", (unsigned char)*p)
			     : buf_addc(b, *p);
	return st == GC_OK ? buf_addstr(b, query[way]) : st;
}

/* A read-only connection to `path` the way `way` in *db (which the caller
 * closes, also on failure); SQLite's result code. */
static int ro_connect(const char *path, enum ro_way way, sqlite3 **db)
{
	struct buf uri;
	buf_init(&uri, 0);
	*db = NULL;
	if (readonly_uri(path, way, &uri) != GC_OK) {
		buf_free(&uri);
		return SQLITE_NOMEM;
	}
	int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX |
		    SQLITE_OPEN_NOFOLLOW;
	int rc = sqlite3_open_v2(uri.ptr, db, flags, NULL);
	buf_free(&uri);
	if (rc == SQLITE_OK)
		sqlite3_busy_timeout(*db, 10000);
	return rc;
}

/* 1: the file behind `db` is damaged (SQLite says corrupt or not a
 * database, or quick_check names a problem); 0: quick_check read every
 * page and found none; -1: it could not tell (an I/O error, a full disk,
 * a lock, out of memory). */
static int pages_damaged(sqlite3 *db)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &s, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(s);
	int found = cache_corrupt_code(rc) ? 1 : -1;
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		found = t ? strcmp(t, "ok") != 0 : -1;
	}
	sqlite3_finalize(s);
	return found;
}

/* Does a read on a fresh read-only connection find `path` damaged?  Only
 * damage a read shows sets a cache aside: an I/O error, a full disk or a
 * lock that made an operation fail, or an error code SQLite left from an
 * earlier call, proves nothing about the file. */
static int damage_found(const char *path)
{
	enum ro_way ways[3];
	size_t n = ro_ways(path, ways);
	int found = -1;
	for (size_t i = 0; i < n && found < 0; i++) {
		sqlite3 *db;
		int rc = ro_connect(path, ways[i], &db);
		found = rc == SQLITE_OK ? pages_damaged(db) : cache_corrupt_code(rc) ? 1 : -1;
		sqlite3_close(db);
	}
	return found == 1;
}

int cache_corrupt(const struct cache *c)
{
	return c && (c->corrupt || (c->db && cache_corrupt_code(sqlite3_errcode(c->db))));
}

enum gc_status cache_set_aside(struct cache *c, char **moved_to, char **err)
{
	struct cache_open_info info;
	memset(&info, 0, sizeof info);
	char *path = c->path;
	c->path = NULL;
	dev_t dev = c->dev;
	ino_t ino = c->ino;
	cache_close(c);
	struct stat now;
	enum gc_status st;
	if (strcmp(path, ":memory:") == 0)
		st = err_set(err, GC_EIO, "the in-memory cache is corrupt");
	else if (stat(path, &now) == 0 && (now.st_dev != dev || now.st_ino != ino))
		/* another gpucmp already set it aside and built a new one */
		st = err_set(err, GC_ETEMPFAIL, "cache %s was damaged and has been rebuilt by "
			     "another gpucmp meanwhile; run the command again", path);
	else if (!damage_found(path))
		st = err_set(err, GC_ETEMPFAIL, "cache %s could not be read, but a second "
			     "read found no damage, so it is kept as it is; run the command again",
			     path);
	else
		st = move_aside(path, &info, err);
	free(path);
	*moved_to = info.moved_aside;
	return st;
}

/* Damage met while opening: set the file aside and build a new cache,
 * once a second read has confirmed it; otherwise the file stays and the
 * open fails with the first error. */
static enum gc_status reopen_damaged(struct cache *c, struct catalog *cat,
				     struct cache_open_info *info, char **err)
{
	sqlite3_finalize(c->insert);
	c->insert = NULL;
	sqlite3_finalize(c->insert_commit);
	c->insert_commit = NULL;
	sqlite3_close(c->db);
	c->db = NULL;
	c->corrupt = 0;
	if (!damage_found(c->path)) {
		char *first = err ? *err : NULL;
		if (err)
			*err = NULL;
		err_set(err, GC_EIO, "%s; a second read found no damage, so the file is kept as "
			"it is", first ? first : "cannot open cache");
		free(first);
		return GC_EIO;
	}
	enum gc_status st = move_aside(c->path, info, err);
	if (st != GC_OK)
		return st;
	if (err) {
		free(*err);
		*err = NULL;
	}
	c->code = 0;
	return prepare(c, cat, info, err);
}

/* Result codes that mean "this file or its directory may not be written"
 * (permissions, a read-only medium), as opposed to a write that failed. */
static int readonly_code(int code)
{
	return code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM ||
	       code == SQLITE_AUTH;
}

enum gc_status cache_open(struct cache **out, const char *path,
			  struct catalog *cat, struct cache_open_info *info,
			  char **err)
{
	struct cache *c = handle_new(path ? path : ":memory:");
	*out = NULL;
	memset(info, 0, sizeof *info);
	if (!c)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum gc_status st = path ? cache_ready_path(path, info, err) : GC_OK;
	if (st == GC_OK)
		st = prepare(c, cat, info, err);
	/* cache_corrupt: also damage met inside a transaction whose rollback
	 * cleared SQLite's error code (a re-seed, a migration) */
	if (st != GC_OK && path && c->db && cache_corrupt(c))
		st = reopen_damaged(c, cat, info, err);
	if (st != GC_OK) {
		info->readonly = readonly_code(c->code);
		cache_close(c);
		return st;
	}
	*out = c;
	return GC_OK;
}

/* One way of cache_open_readonly: connected and checked (*v the schema
 * version, -1 when it could not be read). */
static enum gc_status ro_attempt(struct cache *c, enum ro_way way, int *v, char **err)
{
	sqlite3_close(c->db);
	c->code = 0;
	*v = -1;
	int rc = ro_connect(c->path, way, &c->db);
	if (rc != SQLITE_OK) {
		c->code = rc & 0xff;
		return err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			       "cannot open cache %s: %s", c->path,
			       c->db ? sqlite3_errmsg(c->db) : sqlite3_errstr(rc));
	}
	remember_file(c);
	return cache_check_ours(c, v, err);
}

enum gc_status cache_open_readonly(struct cache **out, const char *path,
				   struct catalog *cat, char **err)
{
	struct cache *c = handle_new(path);
	*out = NULL;
	if (!c)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum ro_way ways[3];
	size_t n = ro_ways(path, ways);
	enum gc_status st = GC_EIO;
	int v = -1;
	char *first = NULL;
	for (size_t i = 0; i < n; i++) {
		char *e = NULL;
		st = ro_attempt(c, ways[i], &v, &e);
		if (!first)
			first = e;
		else
			free(e);
		/* refused for what it holds, damaged or out of memory: another
		 * way reads the same */
		if (st == GC_OK || v >= 0 || st == GC_ENOMEM || cache_corrupt_code(c->code))
			break;
	}
	if (st != GC_OK)
		err_set(err, st, "%s", first ? first : "out of memory");
	free(first);
	/* seeded, by this build: the stored view is the one it queries */
	if (st == GC_OK && !cache_is_current(c, cat, v))
		st = err_set(err, GC_EIO, "cache %s is read-only and was written by another "
			     "version of gpucmp", path);
	if (st != GC_OK) {
		cache_close(c);
		return st;
	}
	*out = c;
	return GC_OK;
}

sqlite3 *cache_db(struct cache *c)
{
	return c->db;
}

const char *cache_path(const struct cache *c)
{
	return c->path;
}
