/* sqlite_int.h - the library's calls that take SQLite's own types: private
 * to src/ (and to the unit tests and tools/mksnapshot, which look inside).
 * The public headers in include/gpucmp name no SQLite type, so the CLI,
 * which makes no SQLite call (HACKING.md, "The house"), cannot. */
#ifndef GPUCMP_SQLITE_INT_H
#define GPUCMP_SQLITE_INT_H

#include <sqlite3.h>

#include "gpucmp/cache.h"
#include "gpucmp/err.h"
#include "gpucmp/query.h"
#include "gpucmp/render.h"

/* The underlying connection (borrowed), for the query module. */
sqlite3 *cache_db(struct cache *c);
/* A column of a row as the offer model holds it: a number or NAN for
 * NULL; a yes/no as 1, 0 or -1 for NULL (offer.h's tri-state). */
double cache_col_num(sqlite3_stmt *s, int i);
int cache_col_tri(sqlite3_stmt *s, int i);

/* Prepare and bind; the caller steps and finalizes the statement. */
enum gc_status query_prepare(sqlite3 *db, const struct query_sql *qs,
			     sqlite3_stmt **stmt, char **err);

/* The scan's verdict on its current row (query.h, "The same counts taken
 * on the way of a scan"): 1 q's, 0 left out as unknown (counted when
 * `count`), -1 out of memory. */
int query_unknown_row(struct query_unknown *u, sqlite3_stmt *s, int col, int provider_col,
		      int count);

/* Render the current row of `stmt`. */
enum gc_status render_row(struct renderer *r, sqlite3_stmt *stmt, char **err);

#endif
