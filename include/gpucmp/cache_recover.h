/* cache_recover.h - what to do with a cache a query found damaged.
 *
 * Opening moves a file that is not a database aside by itself (cache_open);
 * a damaged page deep inside a file that opens cleanly is found only by
 * the query that reads it (cache_corrupt).  Then the file is moved aside
 * the same way, kept for a post mortem, and the next cache_open rebuilds
 * it from the built-in snapshot (docs/RELIABILITY.md).
 */
#ifndef GPUCMP_CACHE_RECOVER_H
#define GPUCMP_CACHE_RECOVER_H

#include "gpucmp/cache.h"

struct cache_recovery {
	char *path;  /* the cache's path (new string) */
	char *moved; /* where the damaged file went (new string), or NULL */
	int busy;    /* another gpucmp held the writer lock: nothing moved */
};

/* Move the damaged cache *c aside (cache_set_aside) under the writer lock,
 * taken here without waiting unless the caller holds it (`locked`).  *c
 * is closed and NULL whatever happens.  GC_ETEMPFAIL with r->busy when
 * another gpucmp is writing the file.  Release r whatever the result. */
enum gc_status cache_recover(struct cache **c, int locked, struct cache_recovery *r,
			     char **err);
void cache_recovery_release(struct cache_recovery *r);

/* SQLite's words for the damage c met ("database disk image is
 * malformed"); borrowed, valid until the next operation on c. */
const char *cache_problem(struct cache *c);

#endif
