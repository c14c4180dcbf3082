/* gpu.h - the GPU model table (data/gpus.yaml) and name normalization.
 *
 * gpu_normalize() is the one place where a provider's spelling of a GPU
 * ("NVIDIA A100-SXM4-80GB", "A100_80G", "H100-MEGA") becomes a canonical
 * id.  The rules are in docs/GPUS.md.
 */
#ifndef GPUCMP_GPU_H
#define GPUCMP_GPU_H

#include <stddef.h>

#include "gpucmp/err.h"

struct gpu_model {
	char *id;          /* "h100-sxm" */
	char *family;      /* "h100" */
	char *vendor;      /* "nvidia" */
	char *name;        /* "NVIDIA H100 SXM5 80GB" */
	char *architecture;
	char *form_factor; /* sxm | pcie | superchip | oam | other */
	char *nvlink;      /* yes | bridge | no */
	char *source;
	double memory_gb;
	double bf16_tflops; /* NAN when not published */
	int mig;            /* max MIG instances, 0 = not MIG capable */
	int is_default;     /* the family's default model */
	char **aliases;
	size_t naliases;
};

struct gpu_table; /* opaque */

/* Parse a gpus.yaml document.  `file` names it in messages.  On success
 * *out is a new table the caller frees with gpu_table_free(). */
enum gc_status gpu_table_load(struct gpu_table **out, const char *file,
			      const char *data, size_t len, char **err);
void gpu_table_free(struct gpu_table *t);

size_t gpu_table_count(const struct gpu_table *t);
/* Borrowed model i (0 <= i < count), in file order. */
const struct gpu_model *gpu_table_at(const struct gpu_table *t, size_t i);

/* Exact canonical id lookup; NULL if absent. */
const struct gpu_model *gpu_find(const struct gpu_table *t, const char *id);

/* Canonical model for a provider's GPU name.  `mem_gb` is the memory per GPU
 * the source reports (<= 0 if unknown); `sku` is the instance type name or
 * NULL; both only refine a family name or an alias that several memory sizes
 * share.  Returns NULL for a name the table does not know. */
const struct gpu_model *gpu_normalize(const struct gpu_table *t, const char *name,
				      double mem_gb, const char *sku);

/* Resolve a user's --gpu word: a family name selects every model of the
 * family, anything else one model through gpu_normalize().  Fills `ids`
 * (borrowed strings, at most `max`) and returns how many, or 0 if unknown. */
size_t gpu_match(const struct gpu_table *t, const char *word, const char **ids,
		 size_t max);

/* Closest id, family or alias to `word` for a "did you mean" hint; NULL if
 * none is close. */
const char *gpu_suggest(const struct gpu_table *t, const char *word);

#endif
