/* gpu_spec.h - a --gpu value as SkyPilot and dstack users write it
 * ("H100:8", "A100:80GB", "a100-80gb", "h100 80gb", "4090", "24GB..80GB",
 * "h100,a100:8"), resolved to the GPU models it names and a GPU count.
 * The grammar is in docs/GPUS.md ("Asking for a GPU") and `gpucmp help gpu`.
 */
#ifndef GPUCMP_GPU_SPEC_H
#define GPUCMP_GPU_SPEC_H

#include <stddef.h>

#include "gpucmp/err.h"
#include "gpucmp/gpu.h"

#define GPU_SPEC_MAX 128

struct gpu_spec {
	const char *ids[GPU_SPEC_MAX]; /* the models asked for (borrowed from the table) */
	size_t nids;
	double min_count, max_count;   /* GPUs in the offer; NAN: no bound */
};

void gpu_spec_init(struct gpu_spec *s);

/* Add one --gpu value (call once per --gpu): a comma list of names, and
 * ':'-separated qualifiers (a vendor, a memory size or range with its unit,
 * a count or range of counts) that apply to every name of the value.  The
 * models of the values add up; the count is one for all of them.  A name
 * selects every model its words fit (gpu_match).  GC_EUSAGE with a
 * one-line message (an unknown name with the nearest names, a bad
 * qualifier, two counts) when the value says nothing sensible. */
enum gc_status gpu_spec_add(const struct gpu_table *t, const char *text, struct gpu_spec *s,
			    char **err);

#endif
