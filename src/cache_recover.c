/* cache_recover.c - a cache whose damaged page a query met: set aside
 * under the writer lock, for the caller to rebuild or report. */
#include <stdlib.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "gpucmp/cache_recover.h"
#include "gpucmp/lock.h"
#include "sqlite_int.h"

enum gc_status cache_recover(struct cache **c, int locked, struct cache_recovery *r,
			     char **err)
{
	memset(r, 0, sizeof *r);
	r->path = strdup(cache_path(*c));
	if (!r->path) {
		cache_close(*c);
		*c = NULL;
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	/* a reader takes the writer lock for the move, never from under a
	 * refresh that is writing the file */
	int fd = -1;
	enum gc_status st = locked ? GC_OK : lock_acquire(r->path, 0, &fd, err);
	r->busy = st == GC_ETEMPFAIL;
	if (st == GC_OK)
		st = cache_set_aside(*c, &r->moved, err);
	else
		cache_close(*c);
	*c = NULL;
	lock_release(fd); /* -1 when the caller holds it */
	return st;
}

void cache_recovery_release(struct cache_recovery *r)
{
	free(r->path);
	free(r->moved);
	memset(r, 0, sizeof *r);
}

const char *cache_problem(struct cache *c)
{
	sqlite3 *db = cache_db(c);
	int code = sqlite3_errcode(db) & 0xff;
	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		return sqlite3_errmsg(db);
	return sqlite3_errstr(SQLITE_CORRUPT); /* a rollback cleared the code */
}
