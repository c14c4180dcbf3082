/* page.h - the cache as one self-contained web page (docs/TEAM.md, "The
 * page"): `gpucmp export DIR --html` writes it as DIR/index.html beside
 * the snapshot.
 *
 * The rows are list's grouped answer (query_group_list, one row per
 * provider and SKU, cheapest region first, in list's default order)
 * rendered through the output door (RF_HTML: every text escaped by
 * render_html), so the page says what `list --group-by sku --json` says
 * on the same cache.  Around them: the snapshot the page was built from
 * and its signing key, the page's age, the legend (field_values), a
 * filter form and a sorter (a small inline script; without JavaScript the
 * page is the plain sorted table), and inline SVG plots drawn here: the
 * cheapest price per day per provider for each GPU (query_daily) and, per
 * GPU architecture, each provider's BF16 TFLOP/s per dollar against its
 * price.  Nothing is fetched: no script, font or style sheet from
 * elsewhere, so the file opens from a bucket, a share or file:// offline.
 */
#ifndef GPUCMP_PAGE_H
#define GPUCMP_PAGE_H

#include <stdio.h>

#include "gpucmp/cache.h"
#include "gpucmp/err.h"
#include "gpucmp/gpu.h"

struct page_opts {
	const struct gpu_table *gpus; /* names the search box knows; the plots' classes */
	long long now;                /* Unix seconds: stale rows, the history's last day */
	long long stale_after;        /* seconds: older data is stale */
	int history_days;             /* days of price history plotted (>= 2) */
	/* the snapshot the page is built beside (team_export_result) */
	const char *created_at;       /* RFC 3339 */
	const char *sha256;           /* of its payload */
	const char *key;              /* its signer's public key; "" unsigned */
	size_t snapshot_offers;
};

struct page_result {
	size_t rows;                  /* table rows (groups) */
	long long offers, providers;  /* the offers and providers behind them */
	size_t history_plots, scatter_plots;
};

/* Write the page for cache c to f (whose errors the caller checks) in one
 * read transaction.  GC_ENOMEM, GC_EIO (f), or the cache's errors. */
enum gc_status page_write(FILE *f, struct cache *c, const struct page_opts *o,
			  struct page_result *r, char **err);

#endif
