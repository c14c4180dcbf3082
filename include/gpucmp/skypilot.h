/* skypilot.h - reader for SkyPilot-format price catalogs (vms.csv).
 *
 * The format's quirks (columns in any order, GpuInfo as a Python literal or
 * JSON, GCP accelerators priced apart from their host VMs, fractional vGPU
 * counts, memory given per GPU in some catalogs and per instance in others)
 * are handled here; see docs/SNAPSHOT.md.  Offers go to a callback, so the
 * same code builds the snapshot and imports catalogs into the cache.
 */
#ifndef GPUCMP_SKYPILOT_H
#define GPUCMP_SKYPILOT_H

#include <stddef.h>

#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"
#include "gpucmp/offer.h"

/* The host figures every vast row of a SkyPilot-format catalog carries
 * (docs/SNAPSHOT.md): read as unknown. */
#define SKYPILOT_VAST_VCPUS 32.0
#define SKYPILOT_VAST_RAM_GB 64.0

struct skypilot_opts {
	const char *provider;               /* provider id given to every offer */
	const struct gpu_table *gpus;       /* required */
	const struct insttype_table *types; /* may be NULL */
	const char *source;                 /* "import" or "snapshot" */
	const char *origin;                 /* recorded in every offer */
	const char *fetched_at;             /* RFC 3339 UTC */
	const char *as_of; /* RFC 3339 UTC the catalog describes; NULL: fetched_at */
};

struct skypilot_stats {
	size_t rows;          /* data rows read */
	size_t offers;        /* offers emitted */
	size_t cpu_only;      /* rows without a GPU */
	size_t tpu;           /* TPU accelerator rows (not GPUs) */
	size_t no_price;      /* GPU rows with neither price nor spot price */
	size_t bad_price;     /* of those, rows whose price was written but is none:
				 not a plain decimal, negative, or outside
				 [OFFER_MIN_PRICE_HR, OFFER_MAX_PRICE_HR] */
	size_t unpaired;      /* GCP accelerator rows with no host VM in the zone */
	size_t duplicates;    /* zone rows folded into their region's offer: the
				 same sku and region seen again (another zone) */
	size_t outlying_zone; /* rows of an AWS Local or Wavelength Zone, left out
				 (skypilot_zone_regular) */
	size_t host_unpriced; /* GCP accelerator rows whose host VM is priced $0
				 or not at all: no offer (docs/CATALOGS.md) */
	size_t unknown_gpu;   /* offers whose GPU the model table does not know */
	size_t spot_dropped;  /* spot prices at or above on-demand (offer_spot_sane) */
	size_t retired;       /* retired sizes and SKU aliases (data/retired.yaml) */
	size_t placeholder;   /* vast rows whose 32 vCPUs / 64 GiB became unknown */
	size_t cleaned;       /* offers whose text had control characters or was
				 longer than STR_FIELD_MAX (cleaned, cut) */
};

/* 1 if `zone` is a regular availability zone of `region` (or no zone is
 * named), 0 for an AWS Local Zone or Wavelength Zone, by name or zone ID.
 * A zone catalog's offer of a region takes the lowest on-demand and the
 * lowest spot price over its regular zones; other zones are left out. */
int skypilot_zone_regular(const char *region, const char *zone);

enum gc_status skypilot_parse(const char *data, size_t len,
			      const struct skypilot_opts *opts, offer_cb cb, void *ctx,
			      struct skypilot_stats *stats, char **err);

#endif
