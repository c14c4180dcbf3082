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
	double fp8_tflops;  /* dense FP8 TFLOP/s; NAN when not published (no FP8) */
	double memory_bandwidth_tbs; /* peak GPU memory bandwidth, TB/s; NAN: unknown */
	char *specs_source; /* URL for fp8_tflops and memory_bandwidth_tbs; NULL: none */
	int mig;            /* max MIG instances, 0 = not MIG capable */
	int nvswitch_board; /* GPUs of the NVSwitch baseboard NVIDIA lists the part on
			     * (8: HGX 8-GPU); 0: none listed */
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

/* What a source says of an offer's GPUs, for gpu_infer. */
struct gpu_hint {
	const char *name; /* the provider's spelling ("NVIDIA_A100", "nvidia-l4"), or NULL */
	const char *sku;  /* the instance type, or NULL: refines a family name */
	const char *id;   /* a canonical id known for the sku (the instance-type
			     table's), or NULL: it wins over the name */
	double count;     /* GPUs, a fraction for a slice; NAN when not given */
	double mem_gb;    /* memory per GPU (per slice); NAN when not given */
	int by_total;     /* total_gb is all the GPU memory, the count unknown */
	double total_gb;  /* with by_total: NAN when not given either */
};

/* What gpu_infer decides: the model (NULL: a GPU the table does not
 * know), the count and the memory per GPU (per slice), NAN if unknown. */
struct gpu_guess {
	const struct gpu_model *model;
	double count, mem_gb;
};

/* The one place an offer's GPU is worked out from what its source says.
 * By default the model is h->id's, else gpu_normalize of the name (with
 * the memory and sku as hints); the count is the hint's, and an unknown
 * memory is the model's (a slice's share of it for a count below 1).
 * With by_total (a plan that gives only the memory of all its GPUs, as
 * Vultr's), the count is the hint's when given (memory = total / count),
 * else the number k (1, 2, 4, 8, 16) of whole GPUs of which the table
 * knows a model with total / k GB; a family cut from one card size (A100:
 * the 80 GB card) is k of that card or a slice of it, and below one GPU a
 * plan is a slice of the family's largest model; the count is 1 when
 * nothing decides it, the memory then the total.  `t` may be NULL (no
 * model). */
void gpu_infer(const struct gpu_table *t, const struct gpu_hint *h, struct gpu_guess *g);

/* Resolve a user's GPU name to every model its words fit: a family name
 * selects the whole family ("a100"), an id its model ("h100-pcie"), a
 * family with form-factor and memory words every model of the family they
 * fit ("a100-pcie": both PCIe cards; "h100 80gb": SXM and PCIe), else a
 * provider's spelling one model (gpu_normalize), else a bare model number
 * the model of the one family that has it ("4090": rtx-4090).  Fills `ids`
 * (borrowed strings, at most `max`) and returns how many, or 0 if unknown. */
size_t gpu_match(const struct gpu_table *t, const char *word, const char **ids,
		 size_t max);

/* The names nearest `word` for a "did you mean" hint, best first, at most
 * `max` (borrowed): the families a bare model number names ("6000"), else
 * the closest family names and ids.  Returns how many (0: none is close). */
size_t gpu_nearest(const struct gpu_table *t, const char *word, const char **out, size_t max);
/* The nearest one, or NULL. */
const char *gpu_suggest(const struct gpu_table *t, const char *word);

/* Is a model's memory `gb`, give or take what sources round (8%, 2 GB)? */
int gpu_mem_matches(const struct gpu_model *m, double gb);

#endif
