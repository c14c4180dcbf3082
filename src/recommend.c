/* recommend.c - workload checklists (DESIGN.md, "The domain in one page"). */
#include "gpucmp/recommend.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"inference", "training", "batch", "notebook"};

/* The score's parts besides the checklist, per workload (docs/RECOMMEND.md
 * gives each figure's reason).  D, the points per halving of the price of
 * a PFLOP-hour, is half the checklist's spread without its fabric item
 * (every other item met against every one missed) plus a half: so two
 * halvings, a 4x cheaper offer, outweigh any difference of the rest of
 * the checklist (test_recommend checks it).  M = 2 D: a memory miss
 * against a fit weighs as much as a 16x price. */
static const struct {
	double per_halving;  /* D: value points per halving of the price */
	double mem_want_gb;  /* memory per GPU the workload wants; 0: no item */
	double mem_weight;   /* M */
} tune[] = {
	[WL_INFERENCE] = {9.5, 24, 19}, /* spread 18: k8s 6, autoscaling 4,
					 * scale-to-zero 4, sharing 2, image 2 */
	[WL_TRAINING] = {7.5, 80, 15},  /* spread 14: NVLink 2, gang 4, operator
					 * 2, CSI 4, k8s 2 (fabric aside) */
	[WL_BATCH] = {8, 0, 16},        /* spread 15: spot 5, k8s 4, autoscaling
					 * 2, scale-to-zero 2, billing 2 */
	[WL_NOTEBOOK] = {0, 0, 5},      /* no value item; memory only with
					 * --model or --vram */
};

/* The best offer's value is 4 D: log2 of this range (16x the best: 0). */
static const double value_range = 16;

double recommend_value_weight(enum workload w)
{
	return tune[w].per_halving;
}

double recommend_memory_weight(enum workload w)
{
	return tune[w].mem_weight;
}

static const char *const prec_names[PREC_N] = {"bf16", "fp16", "fp32", "fp8", "int8", "int4"};
static const double prec_bytes[PREC_N] = {2, 2, 4, 1, 1, 0.5};

int precision_parse(const char *s)
{
	for (int i = 0; i < PREC_N; i++)
		if (strcmp(s, prec_names[i]) == 0)
			return i;
	return -1;
}

const char *precision_name(enum precision p)
{
	return prec_names[p];
}

enum gc_status recommend_model_parse(const char *s, double *params, char **err)
{
	static const struct {
		char unit;
		double scale;
	} units[] = {{'M', 1e6}, {'B', 1e9}, {'T', 1e12}};
	char *end = NULL;
	double n = strtod(s, &end);
	const char *hint = "give the parameters with a unit: 7B, 70B, 1.5B, 500M";
	if (end == s || isnan(n) || isinf(n))
		return err_set(err, GC_EUSAGE, "bad model size '%s' for --model; %s", s, hint);
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (!*end || (*end != units[i].unit && *end != units[i].unit + 32) || end[1])
			continue;
		if (n <= 0)
			return err_set(err, GC_EUSAGE, "model size '%s' must be above 0; %s", s,
				       hint);
		if (n * units[i].scale > 100e12)
			return err_set(err, GC_EUSAGE,
				       "model size '%s' is above 100T parameters; %s", s, hint);
		*params = n * units[i].scale;
		return GC_OK;
	}
	if (!*end)
		return err_set(err, GC_EUSAGE, "model size '%s' has no unit; %s", s, hint);
	return err_set(err, GC_EUSAGE, "bad unit in model size '%s' (M, B or T); %s", s, hint);
}

/* Round a need up to 0.1 GB (a need is not met by a rounding). */
static double up(double gb)
{
	return ceil(gb * 10 - 1e-9) / 10;
}

enum gc_status recommend_memory(enum workload w, double params, enum precision prec,
				double vram, double gpus, struct rec_mem *out, char **err)
{
	memset(out, 0, sizeof *out);
	out->params = params;
	out->prec = prec;
	out->total_gb = NAN;
	int train = w == WL_TRAINING, adapter = prec == PREC_INT8 || prec == PREC_INT4;
	if (!isnan(params) && train && adapter) {
		if (isnan(vram))
			return err_set(err, GC_EUSAGE,
				       "--model for training counts full training (16 bytes per "
				       "parameter); for a LoRA or QLoRA fine-tune at %s give the "
				       "memory per GPU with --vram GB", prec_names[prec]);
		out->params = params = NAN; /* --vram alone: no estimate made */
	}
	if (!isnan(params)) {
		out->bytes_per_param = train ? 16 : prec_bytes[prec];
		out->factor = train ? 1 : 1.2;
		out->total_gb = params * out->bytes_per_param * out->factor / 1e9;
	}
	if (!isnan(vram)) {
		out->from = REC_MEM_VRAM;
		out->per_gpu_gb = vram;
	} else if (!isnan(params)) {
		out->from = REC_MEM_MODEL;
		out->per_gpu_gb = up(out->total_gb / gpus);
	} else {
		out->from = tune[w].mem_want_gb > 0 ? REC_MEM_WORKLOAD : REC_MEM_NONE;
		out->per_gpu_gb = tune[w].mem_want_gb;
	}
	return GC_OK;
}

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

static void reason(struct rec_verdict *v, char sign, double weight, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void reason(struct rec_verdict *v, char sign, double weight, const char *fmt, ...)
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

/* The offer's Kubernetes mode: the view's merged value when the caller
 * read it (so that recommend says what list and show say), else the
 * profile's. */
static void k8s_item(struct rec_verdict *v, const struct rec_offer *o, const struct profile *p,
		     int weight, int want_managed)
{
	const char *m = o->k8s ? o->k8s : pt(p, "kubernetes.mode");
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
		v->unverified = nodes > 1; /* not ranked for multi-node training */
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

/* Memory per GPU against what the job needs: --vram, --model's estimate,
 * or the workload's own want (none for batch and notebooks, whose jobs
 * vary too much to assume a size). */
static void memory_item(struct rec_verdict *v, enum workload w, const struct rec_offer *o,
			const struct rec_mem *m)
{
	int own = !m || m->from == REC_MEM_WORKLOAD;
	double want = own ? tune[w].mem_want_gb : m->per_gpu_gb, weight = tune[w].mem_weight;
	if (!(want > 0))
		return;
	v->parts |= REC_PART_MEMORY;
	if (isnan(o->gpu_mem_gb)) {
		reason(v, '?', 0, "GPU memory unknown");
		return;
	}
	int fits = o->gpu_mem_gb >= want;
	if (own)
		reason(v, fits ? '+' : '-', weight, "%g GB per GPU (%s wants %g GB)",
		       o->gpu_mem_gb, names[w], want);
	else
		reason(v, fits ? '+' : '-', weight, "%g GB per GPU (the job needs %g GB%s)",
		       o->gpu_mem_gb, want, m->from == REC_MEM_MODEL ? ", an estimate" : "");
	v->memory = fits ? weight : -weight;
}

void recommend_judge(enum workload w, int nodes, const struct rec_offer *o,
		     const struct profile *p, const struct rec_mem *m, struct rec_verdict *v)
{
	memset(v, 0, sizeof *v);
	switch (w) {
	case WL_TRAINING:
		interconnect_items(v, o, nodes);
		gang_item(v, p);
		yes_no(v, p, "kubernetes.training_operator", 1, "training operator");
		yes_no(v, p, "kubernetes.shared_storage_csi", 2, "shared storage (CSI)");
		k8s_item(v, o, p, 1, 0);
		break;
	case WL_INFERENCE:
		k8s_item(v, o, p, 3, 1);
		yes_no(v, p, "kubernetes.autoscaling", 2, "autoscaling");
		yes_no(v, p, "kubernetes.scale_to_zero", 2, "scale-to-zero");
		sharing_item(v, o, p);
		yes_no(v, p, "docker.custom_image", 1, "your own container image");
		break;
	case WL_BATCH:
		spot_item(v, o, p);
		k8s_item(v, o, p, 2, 0);
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
	memory_item(v, w, o, m);
	v->score = round(v->score * 10) / 10;
}


void recommend_value(enum workload w, const struct rec_offer *o, double best,
		     struct rec_verdict *v)
{
	double d = tune[w].per_halving, usd = o->usd_per_pflop_hr;
	if (d <= 0)
		return;
	v->parts |= REC_PART_VALUE;
	if (o->auction_floor) {
		reason(v, '?', 0, "price-performance unknown (the price is an auction's floor)");
		return;
	}
	if (isnan(usd) || usd <= 0 || isnan(best)) {
		reason(v, '?', 0, "price-performance unknown (no BF16 figure for this GPU)");
		return;
	}
	v->value = round(d * log2(value_range * best / usd) * 10) / 10;
	reason(v, v->value < 0 ? '-' : '+', fabs(v->value),
	       "value %.1f: $%.2f per BF16 PFLOP-hour, %.2fx the best ($%.2f)", v->value, usd,
	       usd / best, best);
	v->score = round(v->score * 10) / 10;
}

double recommend_best_value(const struct rec_pick *picks, size_t n)
{
	double best = NAN;
	for (size_t i = 0; i < n; i++) {
		double u = picks[i].o.usd_per_pflop_hr;
		if (!isnan(u) && u > 0 && !isnan(picks[i].cost) && !picks[i].o.auction_floor &&
		    (isnan(best) || u < best))
			best = u;
	}
	return best;
}

static const char *const status_names[REC_NSTATUS] = {
	"ranked", "unverified", "below_limit", "over_budget", "no_fabric", "no_price",
	"no_offer_fits", "no_data"};

const char *rec_status_name(enum rec_status s)
{
	return status_names[s];
}

static enum rec_status pick_status(const struct rec_pick *k, double budget)
{
	if (isnan(k->cost))
		return REC_NO_PRICE;
	if (k->v.excluded)
		return REC_NO_FABRIC;
	if (!isnan(budget) && k->cost > budget)
		return REC_OVER_BUDGET;
	return k->v.unverified ? REC_UNVERIFIED : REC_RANKED;
}

/* Ascending, NAN last. */
static int cmp_num(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

/* Status, then score (highest first), then cost. */
static int cmp_merit(const struct rec_pick *x, const struct rec_pick *y)
{
	if (x->status != y->status)
		return x->status < y->status ? -1 : 1;
	int c = cmp_num(y->v.score, x->v.score);
	return c ? c : cmp_num(x->cost, y->cost);
}

static int cmp_within_provider(const void *a, const void *b)
{
	const struct rec_pick *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);
	if (!c)
		c = cmp_merit(x, y);
	return c ? c : strcmp(x->sku, y->sku);
}

static int cmp_pick(const void *a, const void *b)
{
	const struct rec_pick *x = a, *y = b;
	int c = cmp_merit(x, y);
	return c ? c : strcmp(x->provider, y->provider);
}

size_t recommend_rank(struct rec_pick *picks, size_t n, double budget, size_t limit)
{
	if (n == 0)
		return 0; /* qsort's array may not be NULL, even for none */
	for (size_t i = 0; i < n; i++)
		picks[i].status = pick_status(&picks[i], budget);
	qsort(picks, n, sizeof *picks, cmp_within_provider);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!kept || strcmp(picks[kept - 1].provider, picks[i].provider) != 0)
			picks[kept++] = picks[i]; /* each provider's first is its best */
	qsort(picks, kept, sizeof *picks, cmp_pick);
	size_t listed[2] = {0, 0}; /* ranked, unverified */
	for (size_t i = 0; i < kept; i++) {
		enum rec_status s = picks[i].status;
		if ((s == REC_RANKED || s == REC_UNVERIFIED) && listed[s]++ >= limit)
			picks[i].status = REC_BELOW_LIMIT;
	}
	qsort(picks, kept, sizeof *picks, cmp_pick);
	return kept;
}
