/* query_recommend_json.c - recommend's answer as one JSON object
 * (docs/recommend.schema.json): the ranked picks, the unverified ones
 * and every provider left out with its reason. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>

#include "gpucmp/query.h"
#include "gpucmp/sheet.h"

/* A reason's sign as a string of one character. */
static json_t *reasons_json(const struct rec_verdict *v)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < v->nreasons; i++) {
		char sign[2] = {v->reasons[i].sign, 0};
		if (json_array_append_new(a, json_pack("{s:s, s:s}", "sign", sign, "reason",
						       v->reasons[i].text))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The estimate's parts into o (docs/OUTPUT.md, "The job's cost"): null
 * without hours or for a part whose fact is unknown; nonzero when out of
 * memory. */
static int parts_json(json_t *o, const struct rec_pick *k, double hours)
{
	const struct job_cost *j = &k->job;
	const char *const keys[] = {"cost_gpu_usd", "cost_k8s_fee_usd", "cost_disk_usd",
				    "cost_egress_usd"};
	const double v[] = {j->gpu, j->k8s_fee, j->disk, j->egress};
	int bad = 0;
	for (size_t i = 0; i < 4; i++)
		bad |= json_object_set_new(o, keys[i], sheet_json_number(
			isnan(hours) ? NAN : round(v[i] * 100) / 100));
	return bad | json_object_set_new(o, "cost_complete",
					 isnan(hours) ? json_null() : json_boolean(j->complete));
}

static json_t *pick_json(const struct rec_pick *k, size_t rank, double hours)
{
	const struct rec_verdict *v = &k->v;
	double est = isnan(hours) ? NAN : round(k->cost * 100) / 100;
	double checklist = round((v->score - v->value - v->memory) * 10) / 10 + 0.0; /* not -0 */
	double value = v->parts & REC_PART_VALUE ? v->value : NAN;
	double memory = v->parts & REC_PART_MEMORY ? v->memory : NAN;
	double usd = round(k->o.usd_per_pflop_hr * 1e4) / 1e4;
	/* rank .. region; price_hr .. as_of, stale; score, its parts, reasons */
	json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:o, s:o, s:s,"
			 " s:o, s:o, s:o, s:o, s:o, s:b,"
			 " s:o, s:{s:o, s:o, s:o}, s:o}",
			 "rank", (json_int_t)rank, "provider", k->provider, "sku", k->sku,
			 "gpu", k->gpu, "gpu_count", sheet_json_number(k->o.gpu_count),
			 "gpu_mem_gb", sheet_json_number(k->o.gpu_mem_gb), "region", k->region,
			 "price_hr", sheet_json_number(k->o.price_hr),
			 "spot_price_hr", sheet_json_number(k->o.spot_price_hr),
			 "usd_per_pflop_hr", sheet_json_number(usd),
			 "est_cost_usd", sheet_json_number(est),
			 "as_of", *k->as_of ? json_string(k->as_of) : json_null(),
			 "stale", k->stale,
			 "score", sheet_json_number(v->score), "score_parts",
			 "checklist", sheet_json_number(checklist),
			 "value", sheet_json_number(value), "memory", sheet_json_number(memory),
			 "reasons", reasons_json(v));
	if (o && parts_json(o, k, hours)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* A provider left out: its reason, and its best offer's SKU where it had
 * a fitting one (null for no_offer_fits and no_data). */
static json_t *left_json(const struct rec_pick *k)
{
	int none = k->status == REC_NO_FIT || k->status == REC_NO_DATA;
	return json_pack("{s:s, s:s, s:o}", "provider", k->provider, "reason",
			 rec_status_name(k->status), "sku",
			 none ? json_null() : json_string(k->sku));
}

/* Append every pick of `res` whose status is in [from, to] to a. */
static int add_picks(json_t *a, const struct query_rec_result *res, enum rec_status from,
		     enum rec_status to, double hours)
{
	size_t rank = 0;
	for (size_t i = 0; a && i < res->n; i++) {
		const struct rec_pick *k = &res->picks[i];
		if (k->status < from || k->status > to)
			continue;
		json_t *o = from == REC_BELOW_LIMIT ? left_json(k) : pick_json(k, ++rank, hours);
		if (json_array_append_new(a, o))
			return -1;
	}
	return a ? 0 : -1;
}

/* What the memory item wants and where it comes from; with --model, the
 * estimate's terms. */
static json_t *memory_json(const struct query_rec *r)
{
	static const char *const from[] = {"workload", "model", "vram", "none"};
	const struct rec_mem *m = &r->mem;
	int model = !isnan(m->params) && m->params > 0;
	double gb = m->from == REC_MEM_NONE || !(m->per_gpu_gb > 0) ? NAN : m->per_gpu_gb;
	return json_pack("{s:o, s:s, s:o, s:o, s:o, s:o, s:o}", "gb_per_gpu",
			 sheet_json_number(gb), "from", from[m->from], "model_params",
			 sheet_json_number(model ? m->params : NAN), "precision",
			 model ? json_string(precision_name(m->prec)) : json_null(),
			 "bytes_per_param", sheet_json_number(model ? m->bytes_per_param : NAN),
			 "factor", sheet_json_number(model ? m->factor : NAN), "model_total_gb",
			 sheet_json_number(model ? round(m->total_gb * 10) / 10 : NAN));
}

json_t *query_recommend_json(const struct query_rec *r, const struct query_rec_result *res)
{
	json_t *picks = json_array(), *unverified = json_array(), *left = json_array();
	int bad = add_picks(picks, res, REC_RANKED, REC_RANKED, r->hours);
	bad |= add_picks(unverified, res, REC_UNVERIFIED, REC_UNVERIFIED, r->hours);
	bad |= add_picks(left, res, REC_BELOW_LIMIT, REC_NO_DATA, r->hours);
	if (bad) {
		json_decref(picks);
		json_decref(unverified);
		json_decref(left);
		return NULL;
	}
	/* the default answer ranks on-demand prices (a floor ranked last) */
	const char *type = r->price_type == QPT_DEFAULT ? "on_demand"
							 : query_price_type_names[r->price_type];
	json_t *term = r->price_type == QPT_RESERVED ? json_integer(r->term_months) : json_null();
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o}", "workload",
			 workload_name(r->w), "nodes", sheet_json_number(r->nodes),
			 "gpus_per_node", sheet_json_number(r->gpus), "hours",
			 sheet_json_number(r->hours), "budget", sheet_json_number(r->budget),
			 "price_type", type, "term_months", term, "memory_need", memory_json(r),
			 "picks", picks, "unverified", unverified, "left_out", left);
}
