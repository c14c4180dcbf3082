/* recommend.h - the workload checklists of DESIGN.md, applied to offers.
 *
 * Each workload has a checklist; every item scores an offer (with its
 * provider's profile) as a plus, a minus or unknown, with a reason a person
 * can read ("+ InfiniBand", "- no gang scheduling", "? scale-to-zero
 * unknown").  Some items are required (multi-node training without RDMA
 * between nodes): an offer failing one is not recommended at all.
 */
#ifndef GPUCMP_RECOMMEND_H
#define GPUCMP_RECOMMEND_H

#include <stddef.h>

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
};

enum { REC_MAX_REASONS = 12 };

struct rec_reason {
	char sign;       /* '+', '-' or '?' */
	char text[96];
};

struct rec_verdict {
	int excluded;    /* a required item failed */
	int score;       /* pluses minus minuses (weighted) */
	int unknowns;
	struct rec_reason reasons[REC_MAX_REASONS];
	size_t nreasons;
};

/* Apply workload w's checklist for `nodes` nodes.  p may be NULL (a
 * provider without a profile: every profile item unknown). */
void recommend_judge(enum workload w, int nodes, const struct rec_offer *o,
		     const struct profile *p, struct rec_verdict *v);

/* One candidate: a provider's cheapest matching offer, judged. */
struct rec_pick {
	char provider[64], sku[128], gpu[64], region[96]; /* sanitized */
	struct rec_offer o; /* its rdma and mig are NULL once judged */
	const struct profile *p; /* borrowed; NULL without a profile */
	double cost;   /* est. cost with hours, else the hourly price used */
	double hourly; /* the price this workload pays per hour, whole cluster */
	struct rec_verdict v;
};

/* Rank picks in place: drop the excluded, those without a price and
 * (budget not NAN) those costing more; sort the rest by score, then
 * cost, then provider; keep at most `limit`.  Returns how many are kept;
 * *excluded and *over count the drops for a required item and the budget. */
size_t recommend_rank(struct rec_pick *picks, size_t n, double budget, size_t limit,
		      size_t *excluded, size_t *over);

#endif
