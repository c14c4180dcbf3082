/* listprice.h - published list prices (data/list-prices.yaml).
 *
 * Providers without a pricing API gpucmp can read (CoreWeave, Crusoe, ...)
 * publish prices on a web page.  The file holds those prices, one offer per
 * row, each naming its page and the date it was read; the binary embeds it
 * and seeds the cache from it with the snapshot (source "list").
 * Rules: docs/LIST-PRICES.md.
 */
#ifndef GPUCMP_LISTPRICE_H
#define GPUCMP_LISTPRICE_H

#include <stddef.h>

#include "gpucmp/gpu.h"
#include "gpucmp/offer.h"

struct listprice_info {
	size_t rows;
	char newest[11]; /* YYYY-MM-DD of the most recently checked row */
};

/* Validate the whole document, then call `cb` (may be NULL) for every row
 * (source "list", origin the pricing page, fetched_at the checked date at
 * 00:00Z).  Nothing reaches `cb` unless every row is valid: a bad row is
 * GC_EDATA "FILE:LINE: ..." and no row is delivered.  `gpus` (borrowed, may
 * be NULL) checks that each gpu id is in the model table and that
 * gpu_mem_gb, when given, matches it; without it only the id's form is
 * checked.  Providers must have an embedded profile.  Fills *info if not
 * NULL. */
enum gc_status listprice_parse(const char *file, const char *data, size_t len,
			       const struct gpu_table *gpus, offer_cb cb, void *ctx,
			       struct listprice_info *info, char **err);

#endif
