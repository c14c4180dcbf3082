/* insttype.h - per-SKU facts (data/instance-types.yaml).
 *
 * Catalogs name GPUs loosely ("H100" for both a PCIe and an SXM instance)
 * and never say which instance types have InfiniBand.  This table maps a
 * provider's SKU glob to the canonical GPU and to interconnect facts, each
 * entry with its source.  First match in file order wins.
 */
#ifndef GPUCMP_INSTTYPE_H
#define GPUCMP_INSTTYPE_H

#include <stddef.h>

#include "gpucmp/err.h"

struct insttype {
	char *provider;
	char *match;       /* fnmatch glob, case-insensitive */
	char *gpu;         /* canonical GPU id or NULL */
	double gpu_count;  /* > 0 when the table fixes the count */
	int infiniband;    /* -1 unknown, 0 no, 1 yes */
	char *rdma;        /* "ib" | "roce" | "efa" | "no" | NULL */
	int nvlink;        /* -1, 0, 1 */
	double node_bandwidth_gbps; /* <= 0 unknown */
	/* Kubernetes for this type where it differs from the provider's:
	 * "managed" | "join" | "both" | "none" | "unknown" (an explicit
	 * "not known for this type", which hides the provider's value), or
	 * NULL: the provider profile answers. */
	char *k8s;
	int mig;           /* 0: the provider forbids MIG on this type; -1 unset */
	char *source;
	char *k8s_source;  /* the page behind k8s; NULL without k8s */
};

struct insttype_table; /* opaque */

enum gc_status insttype_load(struct insttype_table **out, const char *file,
			     const char *data, size_t len, char **err);
void insttype_free(struct insttype_table *t);

/* First entry for (provider, sku), borrowed; NULL if none. */
const struct insttype *insttype_lookup(const struct insttype_table *t,
				       const char *provider, const char *sku);

size_t insttype_count(const struct insttype_table *t);
const struct insttype *insttype_at(const struct insttype_table *t, size_t i);

#endif
