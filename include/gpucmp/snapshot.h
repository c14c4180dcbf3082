/* snapshot.h - the built-in offer snapshot (data/snapshot.csv).
 *
 * A CSV with a fixed header (SNAPSHOT_HEADER), one normalized offer per row,
 * each row naming its origin and as-of date.  tools/mksnapshot.c writes it
 * from the SkyPilot catalogs; the binary embeds it and seeds the cache from
 * it on first run.
 */
#ifndef GPUCMP_SNAPSHOT_H
#define GPUCMP_SNAPSHOT_H

#include <stddef.h>

#include "gpucmp/buf.h"
#include "gpucmp/offer.h"

#define SNAPSHOT_HEADER                                                        \
	"provider,sku,gpu,gpu_name,gpu_count,gpu_mem_gb,vcpus,ram_gb,disk_gb,"     \
	"region,price_hr,spot_price_hr,currency,infiniband,rdma,nvlink,"           \
	"node_bandwidth_gbps,origin,as_of"

struct snapshot_info {
	size_t rows;
	size_t retired;  /* rows dropped: retired sizes, SKU aliases (data/retired.yaml) */
	char oldest[11]; /* YYYY-MM-DD of the oldest row */
	char newest[11];
};

/* Parse `data` and call `cb` for every row (source "snapshot", fetched_at
 * the row's as-of date at 00:00Z).  Fills *info if not NULL.  A malformed
 * row is GC_EDATA naming its line. */
enum gc_status snapshot_parse(const char *data, size_t len, offer_cb cb, void *ctx,
			      struct snapshot_info *info, char **err);

/* Parse only to count rows and find the dates. */
enum gc_status snapshot_scan(const char *data, size_t len, struct snapshot_info *info,
			     char **err);

/* Append one row for `o` (as_of = the date part of o->fetched_at). */
enum gc_status snapshot_write_row(struct buf *out, const struct offer *o);

/* The embedded snapshot bytes. */
const char *snapshot_embedded(size_t *len);

#endif
