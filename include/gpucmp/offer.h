/* offer.h - one rentable configuration, normalized.
 *
 * Producers (snapshot, importers, adapters) fill a struct offer with
 * borrowed strings and hand it to a callback; nothing is allocated per
 * offer, which keeps an ingest of millions of rows cheap.  Unknown numbers
 * are NAN, unknown tri-states -1.
 */
#ifndef GPUCMP_OFFER_H
#define GPUCMP_OFFER_H

#include "gpucmp/err.h"

struct offer {
	const char *provider;   /* profile id */
	const char *sku;        /* provider's instance type / plan id */
	const char *gpu;        /* canonical GPU id, NULL when the table does not know it */
	const char *gpu_name;   /* the GPU name as the source wrote it */
	const char *region;
	const char *currency;   /* ISO 4217 of the source's prices ("USD") */
	const char *source;     /* "snapshot" | "list" | "live" | "import" */
	const char *origin;     /* where the row came from (file, URL) */
	const char *fetched_at; /* RFC 3339 UTC */
	const char *rdma;       /* per-offer override: "ib" | "roce" | "no" | NULL */
	const char *driver_version; /* host driver, NULL if unknown */
	const char *max_cuda;   /* highest CUDA the host driver runs, NULL if unknown */
	double gpu_count;       /* may be fractional: a vGPU slice */
	double gpu_mem_gb;      /* per GPU (per slice for fractional counts) */
	double vcpus, ram_gb, disk_gb;
	double price_hr;        /* USD per hour, whole offer */
	double spot_price_hr;   /* USD per hour, NAN if no spot */
	double price_native;    /* in `currency`, NAN when currency is USD */
	double spot_native;
	double node_bandwidth_gbps;
	int available;          /* 1, 0, -1 unknown */
	int infiniband;         /* per-offer override: 1, 0, -1 unknown */
	int nvlink;             /* per-offer override: 1, 0, -1 unknown */
};

void offer_init(struct offer *o);

/* Receives one offer; the pointers inside are valid only during the call. */
typedef enum gc_status (*offer_cb)(void *ctx, const struct offer *o, char **err);

#endif
