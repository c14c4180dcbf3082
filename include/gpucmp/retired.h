/* retired.h - data/retired.yaml: sizes a provider has retired, and SKU
 * names that are a second name for another size (docs/RETIRED.md).
 *
 * Every way an offer comes in (live adapters, `gpucmp import`, the built-in
 * snapshot) asks offer_retired() and drops the offer when it says so. */
#ifndef GPUCMP_RETIRED_H
#define GPUCMP_RETIRED_H

#include <stddef.h>

#include "gpucmp/err.h"

enum retired_verdict {
	RETIRED_KEEP = 0,  /* not listed, or retiring after today */
	RETIRED_GONE = 1,  /* retired on or before today: drop */
	RETIRED_ALIAS = 2, /* a second name of another size: drop */
	RETIRED_ERROR = -1 /* offer_retired: the table could not be loaded (out of
			    * memory): the caller fails, it neither keeps nor drops */
};

struct retired_table;

/* Parse and validate a retirement file strictly: unknown keys, a missing
 * source or date, a date not YYYY-MM-DD, a glob with '[' or a space, an
 * unknown provider are errors ("file:line: message"). */
enum gc_status retired_load(struct retired_table **out, const char *file, const char *data,
			    size_t len, char **err);
void retired_free(struct retired_table *t);
size_t retired_count(const struct retired_table *t); /* retired entries + aliases */

/* The verdict for one offer; `today` in days since 1970-01-01.  An entry
 * with `regions` applies only there, one with `except_regions` everywhere
 * else (a provider's regional extension); aliases apply in every region. */
enum retired_verdict retired_check(const struct retired_table *t, const char *provider,
				   const char *sku, const char *region, long today);

/* The same against the embedded data/retired.yaml (loaded once, thread-safe)
 * and catalog_today() (GPUCMP_TODAY in tests); RETIRED_ERROR when loading
 * it ran out of memory (the next call tries again). */
enum retired_verdict offer_retired(const char *provider, const char *sku, const char *region);

/* Case-insensitive glob: '*' any run, '?' one character. */
int retired_glob(const char *pat, const char *s);

#endif
