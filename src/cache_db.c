/* cache_db.c - the SQLite helpers every cache file uses: errors (with the
 * damaged-page and file-size-limit cases), statements, transactions, the
 * meta table, NULL-aware binding.  Calls nothing else of the cache. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "cache_int.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

/* Whether the cache file or its WAL has grown to the file-size limit
 * (ulimit -f): a write past it fails with EFBIG, which SQLite reports as
 * a plain "disk I/O error". */
static int at_size_limit(const struct cache *c)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	static const char *const sides[] = {"", "-wal"};
	for (size_t i = 0; i < 2; i++) {
		char *f = str_concat(c->path, sides[i]);
		struct stat sb;
		int hit = f && stat(f, &sb) == 0 && (rlim_t)sb.st_size + 65536 > rl.rlim_cur;
		free(f);
		if (hit)
			return 1;
	}
	return 0;
}

/* KiB free for us on the file system holding the cache, or -1 when
 * unknown: a write or a -shm that cannot grow there fails with an I/O
 * error SQLite words as a plain "disk I/O error". */
static long long free_kib(const struct cache *c)
{
	if (strcmp(c->path, ":memory:") == 0)
		return -1;
	char *dir = strdup(c->path);
	if (!dir)
		return -1;
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0'; /* "/cache.db": the root */
	struct statvfs v;
	int ok = statvfs(slash ? dir : ".", &v) == 0;
	free(dir);
	return ok ? (long long)(v.f_bavail * (unsigned long long)v.f_frsize / 1024) : -1;
}

int cache_corrupt_code(int code)
{
	code &= 0xff;
	return code == SQLITE_NOTADB || code == SQLITE_CORRUPT;
}

enum gc_status cache_db_error(struct cache *c, char **err, const char *what)
{
	int code = sqlite3_errcode(c->db);
	if (cache_corrupt_code(code))
		c->corrupt = 1; /* a rollback will reset the code */
	c->code = code & 0xff;
	enum gc_status st = code == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO;
	if (code == SQLITE_IOERR && at_size_limit(c))
		return err_set(err, st, "cache %s: %s: %s (the file-size limit, ulimit -f, "
			       "is reached)", c->path, what, sqlite3_errmsg(c->db));
	long long kib = code == SQLITE_IOERR ? free_kib(c) : -1;
	if (kib >= 0 && kib < 1024)
		return err_set(err, st, "cache %s: %s: %s (the file system holding it is full: "
			       "%lld KiB free)", c->path, what, sqlite3_errmsg(c->db), kib);
	return err_set(err, st, "cache %s: %s: %s", c->path, what, sqlite3_errmsg(c->db));
}

enum gc_status cache_exec(struct cache *c, const char *sql, char **err)
{
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot update");
	return GC_OK;
}

void cache_rollback(struct cache *c)
{
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
}

enum gc_status cache_commit(struct cache *c, enum gc_status st, char **err)
{
	if (st == GC_OK)
		st = cache_exec(c, "COMMIT", err);
	if (st != GC_OK)
		cache_rollback(c);
	return st;
}

enum gc_status cache_tx_begin(struct cache *c, char **err)
{
	return cache_exec(c, c->batch ? "SAVEPOINT cache_tx" : "BEGIN IMMEDIATE", err);
}

enum gc_status cache_tx_end(struct cache *c, enum gc_status st, char **err)
{
	if (!c->batch)
		return cache_commit(c, st, err);
	if (st == GC_OK)
		st = cache_exec(c, "RELEASE cache_tx", err);
	if (st != GC_OK) {
		sqlite3_exec(c->db, "ROLLBACK TO cache_tx", NULL, NULL, NULL);
		sqlite3_exec(c->db, "RELEASE cache_tx", NULL, NULL, NULL);
	}
	return st;
}

enum gc_status cache_run(struct cache *c, const char *sql, const char *what, char **err,
			 int nparams, const char *const *params)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, what);
	for (int i = 0; i < nparams; i++)
		cache_bind_text(s, i + 1, params[i]);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) != SQLITE_DONE)
		st = cache_db_error(c, err, what);
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_scalar(struct cache *c, const char *sql, long long *v, const char *what,
			    char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, what);
	int rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? GC_OK : cache_db_error(c, err, what);
}

char *cache_meta_get(struct cache *c, const char *key)
{
	sqlite3_stmt *s;
	char *v = NULL;
	if (sqlite3_prepare_v2(c->db, "SELECT value FROM meta WHERE key = ?1", -1, &s,
			       NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		v = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return v;
}

enum gc_status cache_meta_set(struct cache *c, const char *key, const char *value, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "INSERT INTO meta(key, value) VALUES(?1, ?2)"
			       " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
			       -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot write metadata");
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, value, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? GC_OK : cache_db_error(c, err, "cannot write metadata");
}

int cache_meta_matches(struct cache *c, const char *key, uint64_t hash)
{
	char want[24];
	snprintf(want, sizeof want, "%016" PRIx64, hash);
	char *have = cache_meta_get(c, key);
	int same = have && strcmp(have, want) == 0;
	free(have);
	return same;
}

enum gc_status cache_meta_set_hash(struct cache *c, const char *key, uint64_t hash, char **err)
{
	char v[24];
	snprintf(v, sizeof v, "%016" PRIx64, hash);
	return cache_meta_set(c, key, v, err);
}

void cache_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

double cache_col_num(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

int cache_col_tri(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? -1 : sqlite3_column_int(s, i) != 0;
}

void cache_bind_num(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

void cache_bind_tri(sqlite3_stmt *s, int i, int v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int(s, i, v ? 1 : 0);
}
