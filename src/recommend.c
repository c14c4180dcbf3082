/* recommend.c - workload checklists (DESIGN.md, "The domain in one page"). */
#include "gpucmp/recommend.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"inference", "training", "batch", "notebook"};

int workload_parse(const char *s)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

const char *workload_name(enum workload w)
{
	return names[w];
}

static void reason(struct rec_verdict *v, char sign, int weight, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void reason(struct rec_verdict *v, char sign, int weight, const char *fmt, ...)
{
	if (sign == '+')
		v->score += weight;
	else if (sign == '-')
		v->score -= weight;
	else
		v->unknowns++;
	if (v->nreasons >= REC_MAX_REASONS)
		return;
	struct rec_reason *r = &v->reasons[v->nreasons++];
	r->sign = sign;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof r->text, fmt, ap);
	va_end(ap);
}

/* A profile value's text, "unknown" without a profile. */
static const char *pt(const struct profile *p, const char *path)
{
	return p ? profile_text(p, path) : "unknown";
}

/* A yes/no profile fact as a checklist item. */
static void yes_no(struct rec_verdict *v, const struct profile *p, const char *path, int weight,
		   const char *what)
{
	const char *t = pt(p, path);
	if (strcmp(t, "yes") == 0)
		reason(v, '+', weight, "%s", what);
	else if (strcmp(t, "no") == 0)
		reason(v, '-', weight, "no %s", what);
	else
		reason(v, '?', 0, "%s unknown", what);
}

static int is(const char *t, const char *a)
{
	return strcmp(t, a) == 0;
}

static void k8s_item(struct rec_verdict *v, const struct profile *p, int weight, int want_managed)
{
	const char *m = pt(p, "kubernetes.mode");
	if (is(m, "managed") || is(m, "both"))
		reason(v, '+', weight, "managed Kubernetes with GPU nodes");
	else if (is(m, "join"))
		reason(v, want_managed ? '?' : '+', want_managed ? 0 : weight,
		       "GPU machines to join to your own cluster (no managed Kubernetes)");
	else if (is(m, "none"))
		reason(v, '-', weight, "no Kubernetes");
	else
		reason(v, '?', 0, "Kubernetes support unknown");
}

static void sharing_item(struct rec_verdict *v, const struct rec_offer *o,
			 const struct profile *p)
{
	const char *modes[3] = {o->mig ? o->mig : pt(p, "sharing.mig"), pt(p, "sharing.mps"),
				pt(p, "sharing.time_slicing")};
	static const char *const label[3] = {"MIG", "MPS", "time-slicing"};
	char have[64] = "";
	int unknown = 0;
	for (int i = 0; i < 3; i++) {
		if (is(modes[i], "managed") || is(modes[i], "self"))
			snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s",
				 *have ? ", " : "", label[i]);
		unknown += is(modes[i], "unknown");
	}
	if (*have)
		reason(v, '+', 1, "GPU sharing (%s)", have);
	else if (unknown)
		reason(v, '?', 0, "GPU sharing unknown");
	else
		reason(v, '-', 1, "no GPU sharing");
}

static void interconnect_items(struct rec_verdict *v, const struct rec_offer *o, int nodes)
{
	int rdma_known = o->rdma && !is(o->rdma, "unknown");
	if (o->infiniband == 1 || (rdma_known && is(o->rdma, "ib")))
		reason(v, '+', 3, "InfiniBand between nodes");
	else if (rdma_known && is(o->rdma, "roce"))
		reason(v, '+', 2, "RoCE RDMA between nodes");
	else if (rdma_known && is(o->rdma, "efa"))
		reason(v, '+', 2, "EFA (AWS Elastic Fabric Adapter) RDMA between nodes");
	else if ((rdma_known && is(o->rdma, "no")) || (o->infiniband == 0 && !rdma_known)) {
		reason(v, '-', 3, "no RDMA between nodes");
		if (nodes > 1)
			v->excluded = 1; /* multi-node training needs it */
	} else {
		reason(v, '?', 0, "RDMA between nodes unknown");
	}
	if (o->gpu_count >= 2) {
		if (o->nvlink == 1)
			reason(v, '+', 1, "NVLink inside the node");
		else if (o->nvlink == 0)
			reason(v, '-', 1, "no NVLink inside the node");
		else
			reason(v, '?', 0, "NVLink unknown");
	}
}

static void gang_item(struct rec_verdict *v, const struct profile *p)
{
	int idx = profile_field_index("kubernetes.gang_scheduling");
	const struct pvalue *g = p ? profile_value(p, idx) : NULL;
	if (!g || !g->known) {
		reason(v, '?', 0, "gang scheduling unknown");
		return;
	}
	if (g->nlist == 0) {
		reason(v, '-', 2, "no gang scheduling");
		return;
	}
	char list[64] = "";
	for (size_t i = 0; i < g->nlist; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
			 g->list[i]);
	reason(v, '+', 2, "gang scheduling (%s)", list);
}

static void spot_item(struct rec_verdict *v, const struct rec_offer *o, const struct profile *p)
{
	if (!isnan(o->spot_price_hr)) {
		reason(v, '+', 3, "spot at $%.2f/h", o->spot_price_hr);
		return;
	}
	const char *s = pt(p, "spot");
	if (is(s, "yes"))
		reason(v, '?', 0, "spot offered, but no spot price known for this offer");
	else if (is(s, "no"))
		reason(v, '-', 2, "no spot capacity");
	else
		reason(v, '?', 0, "spot unknown");
}

static void billing_item(struct rec_verdict *v, const struct profile *p)
{
	const char *g = pt(p, "billing.granularity");
	if (is(g, "per-second") || is(g, "per-minute"))
		reason(v, '+', 1, "billed %s", g);
	else if (is(g, "per-hour"))
		reason(v, '-', 1, "billed per started hour");
	else
		reason(v, '?', 0, "billing granularity unknown");
}

void recommend_judge(enum workload w, int nodes, const struct rec_offer *o,
		     const struct profile *p, struct rec_verdict *v)
{
	memset(v, 0, sizeof *v);
	switch (w) {
	case WL_TRAINING:
		interconnect_items(v, o, nodes);
		gang_item(v, p);
		yes_no(v, p, "kubernetes.training_operator", 1, "training operator");
		yes_no(v, p, "kubernetes.shared_storage_csi", 2, "shared storage (CSI)");
		k8s_item(v, p, 1, 0);
		break;
	case WL_INFERENCE:
		k8s_item(v, p, 3, 1);
		yes_no(v, p, "kubernetes.autoscaling", 2, "autoscaling");
		yes_no(v, p, "kubernetes.scale_to_zero", 2, "scale-to-zero");
		sharing_item(v, o, p);
		yes_no(v, p, "docker.custom_image", 1, "your own container image");
		break;
	case WL_BATCH:
		spot_item(v, o, p);
		k8s_item(v, p, 2, 0);
		yes_no(v, p, "kubernetes.autoscaling", 1, "autoscaling");
		yes_no(v, p, "kubernetes.scale_to_zero", 1, "scale-to-zero");
		billing_item(v, p);
		break;
	case WL_NOTEBOOK:
		if (o->available == 1)
			reason(v, '+', 2, "in stock now");
		else if (o->available == 0)
			reason(v, '-', 2, "out of stock when last fetched");
		else
			reason(v, '?', 0, "stock unknown");
		billing_item(v, p);
		yes_no(v, p, "docker.custom_image", 1, "your own container image");
		yes_no(v, p, "docker.persistent_volumes", 1, "persistent volumes for your work");
		break;
	}
}

static int cmp_pick(const void *a, const void *b)
{
	const struct rec_pick *x = a, *y = b;
	if (x->v.score != y->v.score)
		return y->v.score - x->v.score;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return strcmp(x->provider, y->provider);
}

size_t recommend_rank(struct rec_pick *picks, size_t n, double budget, size_t limit,
		      size_t *excluded, size_t *over)
{
	size_t kept = 0;
	*excluded = *over = 0;
	for (size_t i = 0; i < n; i++) {
		int drop = picks[i].v.excluded || isnan(picks[i].cost);
		*excluded += (size_t)picks[i].v.excluded;
		if (!drop && !isnan(budget) && picks[i].cost > budget) {
			(*over)++;
			drop = 1;
		}
		if (!drop)
			picks[kept++] = picks[i];
	}
	qsort(picks, kept, sizeof *picks, cmp_pick);
	return kept < limit ? kept : limit;
}
