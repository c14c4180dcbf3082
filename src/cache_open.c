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

static enum gc_status connect(struct cache *c, int memory, char **err)
{
	/* one connection per thread: no need for SQLite's own mutexes; a
	 * link put at the path after cache_ready_path looked is still not followed */
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
		    SQLITE_OPEN_NOFOLLOW;
	if (sqlite3_open_v2(c->path, &c->db, flags, NULL) != SQLITE_OK) {
		int nomem = !c->db || sqlite3_errcode(c->db) == SQLITE_NOMEM;
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
	int v;
	enum gc_status st = cache_check_ours(c, &v, err);
	if (st != GC_OK)
		return st;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "PRAGMA journal_mode=WAL", -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot open");
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return cache_db_error(c, err, "cannot open");
	return cache_exec(c, "PRAGMA synchronous=NORMAL", err);
}

static enum gc_status prepare(struct cache *c, struct catalog *cat,
			      struct cache_open_info *info, char **err)
{
	int memory = strcmp(c->path, ":memory:") == 0;
	enum gc_status st = connect(c, memory, err);
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
	else
		st = move_aside(path, &info, err);
	free(path);
	*moved_to = info.moved_aside;
	return st;
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
	if (st != GC_OK && path && c->db && cache_corrupt(c)) {
		sqlite3_finalize(c->insert);
		c->insert = NULL;
		sqlite3_close(c->db);
		c->db = NULL;
		c->corrupt = 0;
		st = move_aside(path, info, err);
		if (st == GC_OK) {
			free(*err);
			*err = NULL;
			st = prepare(c, cat, info, err);
		}
	}
	if (st != GC_OK) {
		cache_close(c);
		return st;
	}
	*out = c;
	return GC_OK;
}

/* "file:" URI for `path`: read-only, and immutable (no locks, no -shm)
 * when no -wal file is beside it, which is the only way SQLite reads a
 * WAL database in a directory where it cannot create the -shm. */
static enum gc_status readonly_uri(const char *path, struct buf *b)
{
	char *wal = str_concat(path, "-wal");
	if (!wal)
		return GC_ENOMEM;
	int immutable = access(wal, F_OK) != 0;
	free(wal);
	enum gc_status st = buf_addstr(b, "file:");
	for (const char *p = path; *p && st == GC_OK; p++)
		st = *p == '%' || *p == '?' || *p == '#'
			     ? buf_printf(b, "%%%02X", (unsigned char)*p)
			     : buf_addc(b, *p);
	if (st == GC_OK)
		st = buf_addstr(b, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
	return st;
}

enum gc_status cache_open_readonly(struct cache **out, const char *path,
				   struct catalog *cat, char **err)
{
	struct cache *c = handle_new(path);
	struct buf uri;
	buf_init(&uri, 0);
	*out = NULL;
	if (!c || readonly_uri(path, &uri) != GC_OK) {
		buf_free(&uri);
		cache_close(c);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX |
		    SQLITE_OPEN_NOFOLLOW;
	enum gc_status st = GC_OK;
	int v = 0;
	if (sqlite3_open_v2(uri.ptr, &c->db, flags, NULL) != SQLITE_OK)
		st = err_set(err, GC_EIO, "cannot open cache %s: %s", path,
			     c->db ? sqlite3_errmsg(c->db) : "out of memory");
	buf_free(&uri);
	if (st == GC_OK) {
		remember_file(c);
		sqlite3_busy_timeout(c->db, 10000);
		st = cache_check_ours(c, &v, err);
	}
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
