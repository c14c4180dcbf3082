/* query_recommend.c - recommend's candidates: the cheapest region of each
 * matching SKU, judged with the workload's checklist (src/recommend.c),
 * and each provider's best one ranked (one per provider, so the list
 * compares providers, not regions); the providers without a candidate are
 * named with their reason. */
#include "gpucmp/query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/buf.h"
#include "gpucmp/cache.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

enum { C_PROVIDER, C_SKU, C_GPU, C_COUNT, C_REGION, C_PRICE, C_SPOT, C_AVAIL, C_IB, C_RDMA,
       C_NVLINK, C_MIG, C_MEM, C_VALUE, C_KIND, C_AS_OF, C_STALE, C_K8S, C_N };

static const char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? (const char *)t : "";
}

/* The statement for q, selecting the columns above. */
static enum gc_status prepare(sqlite3 *db, const struct query *q, sqlite3_stmt **s, char **err)
{
	static const char *const keys[C_N] = {"provider", "sku", "gpu", "gpu_count", "region",
					      "price_hr", "spot_price_hr", "available",
					      "infiniband", "rdma", "nvlink", "mig", "gpu_mem_gb",
					      "usd_per_pflop_hr", "price_kind", "as_of", "stale",
					      "k8s"};
	const struct field *cols[C_N];
	for (size_t i = 0; i < C_N; i++)
		cols[i] = field_find(keys[i]);
	struct query_sql qs;
	enum gc_status st = query_build(q, cols, C_N, &qs, err);
	if (st == GC_OK)
		st = query_prepare(db, &qs, s, err);
	query_sql_release(&qs);
	return st;
}

/* The price pick k pays per hour and in all: batch pays spot where it
 * can, the rest on demand, `nodes` times; with `hours` (not NAN) serving
 * on managed Kubernetes (the offer's k8s, as --k8s managed reads it)
 * pays the control plane too, and --disk and --egress their parts
 * (query_job_cost: an unknown part is left out and the total is a floor). */
static void cost(const struct query_rec *r, struct rec_pick *k)
{
	double unit = r->w == WL_BATCH && !isnan(k->o.spot_price_hr) ? k->o.spot_price_hr
								       : k->o.price_hr;
	k->hourly = unit * r->nodes;
	k->cost = k->hourly;
	if (isnan(r->hours))
		return;
	int k8s = r->w == WL_INFERENCE && k->p && query_cap_value(QC_K8S_MANAGED, k->k8s);
	query_job_cost(r->hours, k->hourly, k8s, r->disk_gb, r->egress_gb, k->p, &k->job);
	k->cost = k->job.total;
}

/* The current row as candidate k (judged later, when the best value of
 * all candidates is known). */
static void read_row(sqlite3_stmt *s, const struct profile_set *ps, const struct query_rec *r,
		     struct rec_pick *k)
{
	memset(k, 0, sizeof *k);
	str_sanitize(k->provider, sizeof k->provider, col_text(s, C_PROVIDER));
	str_sanitize(k->sku, sizeof k->sku, col_text(s, C_SKU));
	str_sanitize(k->gpu, sizeof k->gpu, col_text(s, C_GPU));
	str_sanitize(k->region, sizeof k->region, col_text(s, C_REGION));
	snprintf(k->rdma, sizeof k->rdma, "%s", col_text(s, C_RDMA));
	snprintf(k->mig, sizeof k->mig, "%s", col_text(s, C_MIG));
	str_sanitize(k->as_of, sizeof k->as_of, col_text(s, C_AS_OF));
	k->stale = sqlite3_column_int(s, C_STALE) != 0;
	snprintf(k->k8s, sizeof k->k8s, "%s", col_text(s, C_K8S));
	k->o = (struct rec_offer){cache_col_num(s, C_COUNT), cache_col_num(s, C_PRICE),
				  cache_col_num(s, C_SPOT), cache_col_tri(s, C_AVAIL),
				  cache_col_tri(s, C_IB), NULL,
				  cache_col_tri(s, C_NVLINK), NULL, cache_col_num(s, C_MEM),
				  cache_col_num(s, C_VALUE),
				  strcmp(col_text(s, C_KIND), "auction_floor") == 0, NULL};
	k->p = profile_set_find(ps, col_text(s, C_PROVIDER));
	cost(r, k);
	/* the value of what is paid for the GPUs asked for: batch pays the spot
	 * price, and GPUs beyond --gpus are paid for but not used */
	if (r->w == WL_BATCH && !isnan(k->o.spot_price_hr))
		k->o.usd_per_pflop_hr *= k->o.spot_price_hr / k->o.price_hr;
	if (k->o.gpu_count > r->gpus)
		k->o.usd_per_pflop_hr *= k->o.gpu_count / r->gpus;
}

/* Judge every candidate against the best value among them. */
static void judge_all(const struct query_rec *r, struct rec_pick *picks, size_t n)
{
	double best = recommend_best_value(picks, n);
	for (size_t i = 0; i < n; i++) {
		struct rec_pick *k = &picks[i];
		k->o.rdma = k->rdma;
		k->o.mig = k->mig;
		k->o.k8s = k->k8s;
		recommend_judge(r->w, (int)r->nodes, &k->o, k->p, &r->mem, &k->v);
		recommend_value(r->w, &k->o, best, &k->v);
		/* the picks move when ranked: o must not point into them */
		k->o.rdma = k->o.mig = k->o.k8s = NULL;
	}
}

static int seen(const struct rec_pick *picks, size_t n, const char *provider, const char *sku)
{
	for (size_t i = n; i-- > 0;)
		if (strcmp(picks[i].provider, provider) == 0 && strcmp(picks[i].sku, sku) == 0)
			return 1;
	return 0;
}

/* The cheapest region of each matching SKU of each provider. */
static enum gc_status collect(sqlite3 *db, const struct profile_set *ps, const struct query *q,
			      const struct query_rec *r, struct query_rec_result *out,
			      size_t *cap, char **err)
{
	sqlite3_stmt *s = NULL;
	enum gc_status st = prepare(db, q, &s, err);
	int rc = SQLITE_DONE;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		char prov[64], sku[128];
		str_sanitize(prov, sizeof prov, col_text(s, C_PROVIDER));
		str_sanitize(sku, sizeof sku, col_text(s, C_SKU));
		if (seen(out->picks, out->n, prov, sku))
			continue; /* rows come cheapest first: keep each SKU's first */
		if (buf_grow_array(&out->picks, cap, out->n, sizeof *out->picks, 16) != GC_OK) {
			st = err_set(err, GC_ENOMEM, "out of memory");
			break;
		}
		read_row(s, ps, r, &out->picks[out->n++]);
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			     "cannot query the cache: %s", sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return st;
}

static int asked_for(const struct query *q, const char *id)
{
	if (!q->nproviders)
		return 1;
	for (size_t i = 0; i < q->nproviders; i++)
		if (strcmp(q->providers[i], id) == 0)
			return 1;
	return 0;
}

static int has_pick(const struct query_rec_result *out, const char *id)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->picks[i].provider, id) == 0)
			return 1;
	return 0;
}

/* Name the providers asked for (every profile without --provider) that
 * have no candidate: no offer fits, or no offers in the cache at all. */
static enum gc_status add_absent(struct cache *c, const struct profile_set *ps,
				 const struct query *q, struct query_rec_result *out,
				 size_t *cap, char **err)
{
	struct query all;
	query_init(&all);
	struct query_provider *pv = NULL;
	size_t npv = 0;
	enum gc_status st = query_providers(c, ps, &all, &pv, &npv, err);
	/* those without a fitting offer first, then those without offers */
	for (size_t j = 0; st == GC_OK && j < 2 * npv; j++) {
		size_t i = j % npv;
		const char *id = pv[i].p->id;
		if (!asked_for(q, id) || has_pick(out, id) || (j < npv) != (pv[i].offers > 0))
			continue;
		if (buf_grow_array(&out->picks, cap, out->n, sizeof *out->picks, 16) != GC_OK) {
			st = err_set(err, GC_ENOMEM, "out of memory");
			break;
		}
		struct rec_pick *k = &out->picks[out->n++];
		memset(k, 0, sizeof *k);
		str_sanitize(k->provider, sizeof k->provider, id);
		k->p = pv[i].p;
		k->cost = k->hourly = NAN;
		k->o.price_hr = k->o.spot_price_hr = k->o.gpu_mem_gb = NAN;
		k->o.gpu_count = k->o.usd_per_pflop_hr = NAN;
		k->status = pv[i].offers ? REC_NO_FIT : REC_NO_DATA;
	}
	free(pv);
	return st;
}

enum gc_status query_recommend(struct cache *c, const struct profile_set *ps, struct query *q,
			       const struct query_rec *r, struct query_rec_result *out,
			       char **err)
{
	memset(out, 0, sizeof *out);
	q->min_gpus = r->gpus;
	if (r->w == WL_BATCH) {
		/* cheapest by spot where there is one: sort on it, then on demand */
		q->sort[0] = (struct sort_key){field_find("spot_price_hr"), 0};
		q->sort[1] = (struct sort_key){field_find("price_hr"), 0};
		q->nsort = 2;
	}
	size_t cap = 0;
	enum gc_status st = GC_OK;
	/* "reserved for 12 months": the offers at that price (query_run) */
	if (query_price_view(q))
		st = cache_price_view(c, query_price_type_names[q->price_type], q->term_months,
				      err);
	if (st == GC_OK)
		st = collect(cache_db(c), ps, q, r, out, &cap, err);
	if (st == GC_OK) {
		judge_all(r, out->picks, out->n);
		out->n = recommend_rank(out->picks, out->n, r->budget, r->limit);
		st = add_absent(c, ps, q, out, &cap, err);
	}
	if (st != GC_OK) {
		free(out->picks);
		memset(out, 0, sizeof *out);
		return st;
	}
	for (size_t i = 0; i < out->n; i++)
		out->count[out->picks[i].status]++;
	return GC_OK;
}
