/* query_count.c - how many offers, providers and groups a query matches,
 * whatever its limit: list's footer ("N of M") and query_empty.c's
 * narrowing ask it.  A room of its own so that query_run.c (which hands a
 * grouped answer to query_group.c, which asks query_empty.c what was left
 * out) and query_empty.c do not call each other round a circle. */
#include "gpucmp/query.h"

#include <stdio.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "sqlite_int.h"

enum gc_status query_count(struct cache *c, const struct query *q, int groups,
			   struct query_counts *out, char **err)
{
	struct query_sql qs;
	sqlite3_stmt *stmt = NULL;
	memset(out, 0, sizeof *out);
	enum gc_status st = query_build_count(q, groups, &qs, err);
	if (st == GC_OK)
		st = query_prepare(cache_db(c), &qs, &stmt, err);
	query_sql_release(&qs);
	if (st != GC_OK)
		return st;
	int rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		out->offers = sqlite3_column_int64(stmt, 0);
		out->providers = sqlite3_column_int64(stmt, 1);
		out->groups = groups ? sqlite3_column_int64(stmt, 2) : -1;
		out->undated = sqlite3_column_int64(stmt, 4);
		if (sqlite3_column_text(stmt, 3))
			snprintf(out->oldest, sizeof out->oldest, "%s",
				 (const char *)sqlite3_column_text(stmt, 3));
	} else {
		st = err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			     "cannot read the cache: %s", sqlite3_errmsg(cache_db(c)));
	}
	sqlite3_finalize(stmt);
	return st;
}
