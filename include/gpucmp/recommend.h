/* recommend.h - the workload checklists of DESIGN.md, applied to offers.
 *
 * Each workload has a checklist; every item scores an offer (with its
 * provider's profile) as a plus, a minus or unknown, with a reason a person
 * can read ("+ InfiniBand", "- no gang scheduling", "? scale-to-zero
 * unknown").  Some items are required (multi-node training needs RDMA
 * between nodes): an offer failing one is not recommended at all, and one
 * where it is unknown is listed apart as unverified.  The score adds
 * price-performance and memory fit to the checklist (docs/RECOMMEND.md).
 */
#ifndef GPUCMP_RECOMMEND_H
#define GPUCMP_RECOMMEND_H

#include <stddef.h>

#include "gpucmp/err.h"
#include "gpucmp/profile.h"

enum workload { WL_INFERENCE, WL_TRAINING, WL_BATCH, WL_NOTEBOOK };

/* "inference" -> WL_INFERENCE; -1 if unknown. */
int workload_parse(const char *s);
const char *workload_name(enum workload w);

/* What recommend needs to know of one offer (from offer_v). */
struct rec_offer {
	double gpu_count;
	double price_hr, spot_price_hr; /* NAN when unknown */
	int available;                  /* 1, 0, -1 */
	int infiniband;                 /* 1, 0, -1 */
	const char *rdma;               /* "ib" | "roce" | "efa" | "no" | "unknown" */
	int nvlink;                     /* 1, 0, -1 */
	const char *mig;                /* this offer's MIG mode (GPU-aware) */
	double gpu_mem_gb;              /* per GPU; NAN when unknown */
	double usd_per_pflop_hr;        /* what this workload pays per dense BF16
					 * PFLOP/s-hour (batch: at the spot price);
					 * NAN when the GPU has no BF16 figure */
	int auction_floor;              /* the price is an auction's floor */
	const char *k8s;                /* the offer view's merged k8s mode (instance
					 * type, then profile: what list and show
					 * print); NULL: the profile's kubernetes.mode */
};

enum { REC_MAX_REASONS = 12 };
enum { REC_PART_VALUE = 1, REC_PART_MEMORY = 2 };

struct rec_reason {
	char sign;       /* '+', '-' or '?' */
	char text[96];
};

struct rec_verdict {
	int excluded;    /* a required item failed */
	int unverified;  /* a required item is unknown (multi-node training,
			  * fabric unknown): listed apart, never ranked */
	double score;    /* checklist + value + memory */
	double value, memory; /* the score's price-performance and memory parts */
	unsigned parts;  /* REC_PART_*: which of those the workload weighs */
	int unknowns;
	struct rec_reason reasons[REC_MAX_REASONS];
	size_t nreasons;
};

/* The numeric precision of --precision (bytes per parameter: 2, 2, 4, 1,
 * 1, 0.5). */
enum precision { PREC_BF16, PREC_FP16, PREC_FP32, PREC_FP8, PREC_INT8, PREC_INT4, PREC_N };
/* "bf16" -> PREC_BF16; -1 if unknown. */
int precision_parse(const char *s);
const char *precision_name(enum precision p);

/* A model size, "70B", "7b", "1.5B", "500M", "1T" (a number and its unit,
 * B for billions), into *params (parameters).  GC_EUSAGE with a one-line
 * message for anything else: no unit, another unit, zero or negative, more
 * than 100T. */
enum gc_status recommend_model_parse(const char *s, double *params, char **err);

/* Where the memory item's want comes from. */
enum rec_mem_from { REC_MEM_WORKLOAD, REC_MEM_MODEL, REC_MEM_VRAM, REC_MEM_NONE };

/* The memory a run needs (docs/RECOMMEND.md, "Memory from --model"). */
struct rec_mem {
	enum rec_mem_from from;
	double per_gpu_gb;      /* what the memory item wants; <= 0 or NAN: none */
	double params;          /* --model: parameters; NAN without it */
	enum precision prec;    /* --model's precision */
	double bytes_per_param; /* --model's rule: 16 (training), or the precision's */
	double factor;          /* 1 (training: model states alone), 1.2 (serving) */
	double total_gb;        /* params x bytes x factor / 1e9, the whole run */
};

/* The memory need of workload w on `gpus` GPUs in all (per node times
 * nodes): an explicit `vram` (GB per GPU, not NAN) wins; else a model of
 * `params` parameters (not NAN) at precision `prec`, spread over every GPU
 * of the run (training: params x 16 bytes, mixed-precision Adam; serving,
 * batch and notebook: params x its bytes x 1.2); else the workload's own
 * want (none for batch and notebook).  GC_EUSAGE for training at int8 or
 * int4 (not full training: the rule does not cover adapter fine-tunes). */
enum gc_status recommend_memory(enum workload w, double params, enum precision prec,
				double vram, double gpus, struct rec_mem *out, char **err);

/* Apply workload w's checklist for `nodes` nodes, and its memory-fit item
 * against m (NULL or from REC_MEM_WORKLOAD: the workload's own want;
 * docs/RECOMMEND.md).  p may be NULL (a provider without a profile: every
 * profile item unknown). */
void recommend_judge(enum workload w, int nodes, const struct rec_offer *o,
		     const struct profile *p, const struct rec_mem *m, struct rec_verdict *v);

/* Add workload w's price-performance item to v: D x log2(16 x best /
 * o->usd_per_pflop_hr), to one decimal, where D is the workload's points
 * per halving of the price (the best among the candidates gets 4 D, one at
 * 16 times its price 0, dearer ones less than 0); '?' and 0 without a BF16
 * figure or for an auction's floor price (not what a run can count on
 * paying). */
void recommend_value(enum workload w, const struct rec_offer *o, double best,
		     struct rec_verdict *v);

/* Workload w's points per halving of the price-performance (0: no value
 * item) and per memory fit (the item is +M or -M). */
double recommend_value_weight(enum workload w);
double recommend_memory_weight(enum workload w);

/* Where a provider ended up, in the order a provider's candidates are
 * preferred (its best offer is the first one in the lowest status). */
enum rec_status {
	REC_RANKED,      /* in the ranked list */
	REC_UNVERIFIED,  /* listed apart: a required item unknown */
	REC_BELOW_LIMIT, /* ranked or unverified, but after --limit */
	REC_OVER_BUDGET, /* every fitting offer costs more than --budget */
	REC_NO_FABRIC,   /* no fitting offer has RDMA between nodes */
	REC_NO_PRICE,    /* no fitting offer has a price */
	REC_NO_FIT,      /* offers in the cache, none of the GPUs asked for */
	REC_NO_DATA,     /* no offers in the cache */
	REC_NSTATUS
};
/* "ranked", "unverified", "below_limit", "over_budget", "no_fabric",
 * "no_price", "no_offer_fits", "no_data" (the JSON `reason` values). */
const char *rec_status_name(enum rec_status s);

/* An estimate's parts (query_job_cost; docs/OUTPUT.md, "The job's cost"):
 * NAN for a part whose fact is unknown; total adds the known parts. */
struct job_cost {
	double gpu, k8s_fee, disk, egress, total;
	int complete; /* every part known: total is not a floor */
};

/* One candidate: an offer (its provider's cheapest region of the SKU), or
 * after recommend_rank one provider's best candidate, judged. */
struct rec_pick {
	char provider[64], sku[128], gpu[64], region[96]; /* sanitized */
	char rdma[16], mig[16], k8s[16]; /* the offer's, which o points at while judged */
	char as_of[32];          /* the date of its price; "" when unknown */
	int stale;               /* its data is old, of unknown date, or its
				  * provider's last refresh failed (as list says) */
	struct rec_offer o;      /* its rdma, mig and k8s are NULL outside the judging */
	const struct profile *p; /* borrowed; NULL without a profile */
	double cost;   /* est. cost with hours (job.total), else the hourly price used */
	struct job_cost job; /* with hours: the estimate's parts */
	double hourly; /* the price this workload pays per hour, whole cluster */
	struct rec_verdict v;
	enum rec_status status;  /* set by recommend_rank */
};

/* The lowest usd_per_pflop_hr of n priced picks, auction floors aside;
 * NAN when none has one. */
double recommend_best_value(const struct rec_pick *picks, size_t n);

/* Keep each provider's best candidate (by status, then score, cost and
 * SKU) and give it its status: over the budget (not NAN), without a price,
 * excluded or unverified by a required item; ranked or unverified ones
 * after the first `limit` of their list are below the limit.  The kept
 * picks are moved to the front, sorted by status, then score (highest
 * first), cost and provider.  Returns how many are kept (one per
 * provider). */
size_t recommend_rank(struct rec_pick *picks, size_t n, double budget, size_t limit);

#endif
