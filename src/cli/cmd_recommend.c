/* cmd_recommend.c - gpucmp recommend --workload W: a ranked short list.
 *
 * Candidates are the cheapest matching offer of each provider (one per
 * provider, so the list compares providers, not regions).  Each is judged
 * with the workload's checklist (src/recommend.c); picks that fail a
 * required item are dropped, the rest are ranked by score, then by cost.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/recommend.h"
#include "gpucmp/strutil.h"

struct pick {
	char provider[64], sku[128], gpu[64], region[96], rdma[16], mig[16];
	struct rec_offer o;
	const struct profile *p;
	double cost;   /* est. cost with --hours, else the hourly price used */
	double hourly; /* the price this workload pays per hour, whole cluster */
	struct rec_verdict v;
};

static const char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? (const char *)t : "";
}

static double col_num(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

static int col_tri(sqlite3_stmt *s, int i)
{
	return sqlite3_column_type(s, i) == SQLITE_NULL ? -1 : sqlite3_column_int(s, i) != 0;
}

static int cmp_pick(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;
	if (x->v.score != y->v.score)
		return y->v.score - x->v.score;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return strcmp(x->provider, y->provider);
}

/* The cheapest matching offer of each provider, judged. */
static int collect(struct cli_env *env, struct query *q, enum workload w, int nodes,
		   double hours, struct pick **out, size_t *n)
{
	static const char *const keys[] = {"provider", "sku", "gpu", "gpu_count", "region",
					   "price_hr", "spot_price_hr", "available", "infiniband",
					   "rdma", "nvlink", "mig"};
	const struct field *cols[12];
	for (size_t i = 0; i < 12; i++)
		cols[i] = field_find(keys[i]);
	struct query_sql qs;
	sqlite3_stmt *s = NULL;
	char *err = NULL;
	enum gc_status st = query_build(q, cols, 12, &qs, &err);
	if (st == GC_OK)
		st = query_prepare(cache_db(env->cache), &qs, &s, &err);
	query_sql_release(&qs);
	if (st != GC_OK) {
		msg_status(st, err, "cannot query the cache");
		free(err);
		return exit_code_for(st);
	}
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	int rc = EXIT_OK;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *prov = col_text(s, 0);
		int seen = 0;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = strcmp((*out)[i].provider, prov) == 0;
		if (seen)
			continue; /* rows come cheapest first: keep each provider's first */
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			struct pick *g = realloc(*out, cap * sizeof *g);
			if (!g) {
				msg_error("out of memory");
				rc = EXIT_OSERR;
				break;
			}
			*out = g;
		}
		struct pick *k = &(*out)[(*n)++];
		memset(k, 0, sizeof *k);
		str_sanitize(k->provider, sizeof k->provider, prov);
		str_sanitize(k->sku, sizeof k->sku, col_text(s, 1));
		str_sanitize(k->gpu, sizeof k->gpu, col_text(s, 2));
		str_sanitize(k->region, sizeof k->region, col_text(s, 4));
		snprintf(k->rdma, sizeof k->rdma, "%s", col_text(s, 9));
		snprintf(k->mig, sizeof k->mig, "%s", col_text(s, 11));
		k->o.gpu_count = col_num(s, 3);
		k->o.price_hr = col_num(s, 5);
		k->o.spot_price_hr = col_num(s, 6);
		k->o.available = col_tri(s, 7);
		k->o.infiniband = col_tri(s, 8);
		k->o.rdma = k->rdma;
		k->o.nvlink = col_tri(s, 10);
		k->o.mig = k->mig;
		k->p = profile_set_find(&env->cat.profiles, prov);
		/* batch pays spot where it can; the rest pay on demand */
		double unit = w == WL_BATCH && !isnan(k->o.spot_price_hr) ? k->o.spot_price_hr
									   : k->o.price_hr;
		k->hourly = unit * nodes;
		k->cost = k->hourly;
		if (!isnan(hours)) {
			k->cost = k->hourly * hours;
			/* serving on managed Kubernetes pays the control plane too */
			if (w == WL_INFERENCE && k->p &&
			    (strcmp(profile_text(k->p, "kubernetes.mode"), "managed") == 0 ||
			     strcmp(profile_text(k->p, "kubernetes.mode"), "both") == 0)) {
				const struct pvalue *fee = profile_value(
					k->p, profile_field_index("kubernetes.control_plane_fee_usd_hr"));
				if (fee && fee->known)
					k->cost += fee->number * hours;
			}
		}
		recommend_judge(w, nodes, &k->o, k->p, &k->v);
		/* they point into this pick, which is moved when the list is
		 * ranked: the verdict has what was needed */
		k->o.rdma = k->o.mig = NULL;
	}
	sqlite3_finalize(s);
	return rc;
}

static json_t *pick_json(const struct pick *k, size_t rank, double hours)
{
	json_t *o = json_object(), *rs = json_array();
	json_object_set_new(o, "rank", json_integer((json_int_t)rank));
	json_object_set_new(o, "provider", json_string(k->provider));
	json_object_set_new(o, "sku", json_string(k->sku));
	json_object_set_new(o, "gpu", json_string(k->gpu));
	json_object_set_new(o, "gpu_count", cli_json_number(k->o.gpu_count));
	json_object_set_new(o, "region", json_string(k->region));
	json_object_set_new(o, "price_hr", cli_json_number(k->o.price_hr));
	json_object_set_new(o, "spot_price_hr", cli_json_number(k->o.spot_price_hr));
	json_object_set_new(o, "est_cost_usd",
			    isnan(hours) ? json_null() : cli_json_number(round(k->cost * 100) / 100));
	json_object_set_new(o, "score", json_integer(k->v.score));
	for (size_t i = 0; i < k->v.nreasons; i++) {
		json_t *r = json_object();
		char sign[2] = {k->v.reasons[i].sign, 0};
		json_object_set_new(r, "sign", json_string(sign));
		json_object_set_new(r, "reason", json_string(k->v.reasons[i].text));
		json_array_append_new(rs, r);
	}
	json_object_set_new(o, "reasons", rs);
	return o;
}

static void print_pick(const struct pick *k, size_t rank, double hours, const struct money *m)
{
	char price[32], cost[32];
	render_money(price, sizeof price, k->hourly, m);
	printf("%zu. %s  %s  %gx %s  %s  %s/h", rank, k->provider, k->sku, k->o.gpu_count,
	       k->gpu, k->region, price);
	if (!isnan(hours)) {
		render_money(cost, sizeof cost, k->cost, m);
		printf("  est. %s", cost);
	}
	printf("  (score %d)\n   ", k->v.score);
	for (size_t i = 0; i < k->v.nreasons; i++)
		printf("%s%c %s", i ? "; " : "", k->v.reasons[i].sign, k->v.reasons[i].text);
	printf("\n");
}

int cmd_recommend(struct cli_args *a)
{
	if (a->npos) {
		msg_error("'recommend' takes no arguments; name the workload with --workload");
		return EXIT_USAGE;
	}
	const char *wname = cli_opt(a, O_WORKLOAD);
	if (!wname) {
		msg_error("'recommend' needs --workload inference, training, batch or notebook");
		return EXIT_USAGE;
	}
	enum workload w = (enum workload)workload_parse(wname);
	double gpus = w == WL_TRAINING ? 8 : 1, nodes = 1, hours = NAN, budget = NAN, limit = 5;
	int rc = cli_number(a, O_GPUS, 1, 1, 1e9, &gpus);
	if (!rc)
		rc = cli_number(a, O_NODES, 1, 1, 1e9, &nodes);
	if (!rc)
		rc = cli_number(a, O_HOURS, 0, 0.001, 1e9, &hours);
	if (!rc)
		rc = cli_number(a, O_BUDGET, 0, 0, 1e9, &budget);
	if (!rc)
		rc = cli_number(a, O_LIMIT, 1, 1, 1e9, &limit);
	if (rc)
		return rc;
	if (!isnan(budget) && isnan(hours)) {
		msg_error("--budget needs --hours H (the budget is for the whole run)");
		return EXIT_USAGE;
	}
	struct cli_env env;
	memset(&env, 0, sizeof env);
	struct query q;
	query_init(&q);
	char *gstore = NULL, *pstore = NULL;
	rc = cli_catalog_need(&env, CATALOG_GPUS | CATALOG_PROFILES);
	if (!rc)
		rc = cli_gpu_filter(&env, a, &gstore, &q);
	if (!rc)
		rc = cli_provider_filter(&env, a, &pstore, &q);
	if (!rc)
		rc = cli_currency(&env);
	if (!rc)
		rc = cli_open_cache(&env, a);
	struct pick *picks = NULL;
	size_t n = 0;
	if (!rc) {
		q.min_gpus = gpus;
		if (w == WL_BATCH) {
			/* cheapest by spot where there is one: sort on it, then on demand */
			q.sort[0].field = field_find("spot_price_hr");
			q.sort[1].field = field_find("price_hr");
			q.nsort = 2;
		}
		rc = collect(&env, &q, w, (int)nodes, hours, &picks, &n);
	}
	size_t kept = 0, excluded = 0, over = 0;
	for (size_t i = 0; !rc && i < n; i++) {
		int drop = picks[i].v.excluded || isnan(picks[i].cost);
		excluded += picks[i].v.excluded;
		if (!drop && !isnan(budget) && picks[i].cost > budget) {
			over++;
			drop = 1;
		}
		if (!drop)
			picks[kept++] = picks[i];
	}
	if (!rc) {
		qsort(picks, kept, sizeof *picks, cmp_pick);
		if (kept > (size_t)limit)
			kept = (size_t)limit;
		if (w == WL_NOTEBOOK)
			msg_note("one GPU for a notebook: a plain instance is enough; Kubernetes "
				 "would be overkill");
		if (w == WL_TRAINING && nodes > 1 && excluded)
			msg_note("%zu provider%s left out: no RDMA between nodes, which %g-node "
				 "training needs", excluded, excluded == 1 ? "" : "s", nodes);
		if (over)
			msg_note("%zu provider%s left out: over the budget of $%.2f", over,
				 over == 1 ? "" : "s", budget);
		if (cli_flag(a, O_JSON)) {
			json_t *arr = json_array();
			for (size_t i = 0; i < kept; i++)
				json_array_append_new(arr, pick_json(&picks[i], i + 1, hours));
			rc = cli_print_json(arr, 0);
		} else if (!kept) {
			msg_note("no offer fits; try fewer --gpus, another --gpu or a larger --budget");
		} else {
			printf("%s: %g node%s x %g GPU%s%s\n\n", workload_name(w), nodes,
			       nodes == 1 ? "" : "s", gpus, gpus == 1 ? "" : "s",
			       isnan(hours) ? "" : ", estimated for the hours given");
			for (size_t i = 0; i < kept; i++)
				print_pick(&picks[i], i + 1, hours, &env.money);
			printf("\n+ meets the checklist, - misses it, ? unknown (not in the provider's "
			       "documentation); 'gpucmp show ID' gives sources\n");
			if (env.money_note[0])
				msg_note("%s", env.money_note);
		}
	}
	free(picks);
	free(gstore);
	free(pstore);
	cli_env_release(&env);
	return rc;
}

static const char *const workload_choices[] = {"inference", "training", "batch", "notebook", NULL};
static const struct opt_def opt_workload = {O_WORKLOAD, "workload", 0, OPT_ENUM, "KIND",
	workload_choices, HINT_NONE, "inference, training, batch or notebook"};
static const struct opt_def opt_budget = {O_BUDGET, "budget", 0, OPT_NUMBER, "USD", NULL, HINT_NONE,
	"leave out picks whose estimate (needs --hours) is above USD"};

static const struct opt_use recommend_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_gpu), OPT_USE(opt_gpus), OPT_USE(opt_provider),
	OPT_USE(opt_hours), OPT_USE(opt_nodes), OPT_USE(opt_limit), OPT_USE(opt_json),
	OPT_USE(opt_workload), OPT_USE(opt_budget), {NULL, NULL}};

const struct cmd_entry cmd_recommend_entry = {
	.name = "recommend",
	.run = cmd_recommend,
	.usage = "recommend --workload inference|training|batch|notebook [options]",
	.summary = "A ranked short list of offers for a workload, each pick with its reasons.",
	.detail =
		"The checklists (docs/RECOMMEND.md): training wants InfiniBand, RoCE or EFA\n"
		"between nodes (required with --nodes > 1), NVLink, gang scheduling, a training\n"
		"operator and shared storage; inference wants managed Kubernetes with\n"
		"autoscaling, scale-to-zero and GPU sharing; batch wants spot capacity and\n"
		"Kubernetes jobs; a notebook wants a plain instance in stock. Each pick is\n"
		"the provider's cheapest matching offer; '+' meets an item, '-' misses it,\n"
		"'?' is unknown. --gpus is per node (default 8 for training, else 1);\n"
		"--hours adds an estimate (price x hours x nodes, + control plane for\n"
		"inference on managed Kubernetes; batch at the spot price).\n\n"
		"examples:\n"
		"  gpucmp recommend --workload training --gpu h100 --nodes 4 --hours 72\n"
		"  gpucmp recommend --workload inference --gpu l4 --hours 720 --budget 2000\n"
		"  gpucmp recommend --workload notebook --json",
	.opts = recommend_opts,
};
