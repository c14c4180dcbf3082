/* cmd_recommend.c - gpucmp recommend --workload W: a ranked short list.
 *
 * The library finds and ranks the candidates (query_recommend: the
 * cheapest matching offer of each provider, judged with the workload's
 * checklist); this prints them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/recommend.h"
#include "gpucmp/strutil.h"

enum { R_RANK, R_PROVIDER, R_SKU, R_GPU, R_GPUS, R_REGION, R_PRICE, R_SPOT, R_COST, R_SCORE,
       R_REASONS, R_COUNT };

/* A pick in JSON (docs/RECOMMEND.md); people get print_pick's lines. */
static const struct field pick_fields[R_COUNT] = {
	[R_RANK] = RENDER_COL("rank", "#", FT_NUM, 1),
	[R_PROVIDER] = RENDER_COL("provider", "PROVIDER", FT_TEXT, 1),
	[R_SKU] = RENDER_COL("sku", "SKU", FT_TEXT, 2),
	[R_GPU] = RENDER_COL("gpu", "GPU", FT_TEXT, 1),
	[R_GPUS] = RENDER_COL("gpu_count", "GPUS", FT_NUM, 1),
	[R_REGION] = RENDER_COL("region", "REGION", FT_TEXT, 3),
	[R_PRICE] = RENDER_COL("price_hr", "$/H", FT_PRICE, 1),
	[R_SPOT] = RENDER_COL("spot_price_hr", "SPOT $/H", FT_PRICE, 4),
	[R_COST] = RENDER_COL("est_cost_usd", "EST $", FT_PRICE, 2),
	[R_SCORE] = RENDER_COL("score", "SCORE", FT_NUM, 1),
	[R_REASONS] = RENDER_COL("reasons", "REASONS", FT_TEXT, 5),
};
static const struct field reason_fields[] = {
	RENDER_COL("sign", "", FT_TEXT, 1), RENDER_COL("reason", "", FT_TEXT, 1)};
static const struct field *const reason_cols[] = {&reason_fields[0], &reason_fields[1]};

struct pick_rows {
	const struct rec_pick *picks;
	double hours;
	/* the reasons of the pick being rendered */
	struct render_nest reasons;
	struct render_value why[REC_MAX_REASONS][2];
	char sign[REC_MAX_REASONS][2];
};

static void pick_row(void *ctx, size_t i, struct render_value *v)
{
	struct pick_rows *x = ctx;
	const struct rec_pick *k = &x->picks[i];
	v[R_RANK] = RV_NUM((double)(i + 1));
	v[R_PROVIDER] = RV_TEXT(k->provider);
	v[R_SKU] = RV_TEXT(k->sku);
	v[R_GPU] = RV_TEXT(k->gpu);
	v[R_GPUS] = RV_NUM(k->o.gpu_count);
	v[R_REGION] = RV_TEXT(k->region);
	v[R_PRICE] = RV_NUM(k->o.price_hr);
	v[R_SPOT] = RV_NUM(k->o.spot_price_hr);
	v[R_COST] = RV_NUM(isnan(x->hours) ? NAN : round(k->cost * 100) / 100);
	v[R_SCORE] = RV_NUM(k->v.score);
	for (size_t j = 0; j < k->v.nreasons; j++) {
		x->sign[j][0] = k->v.reasons[j].sign;
		x->why[j][0] = RV_TEXT(x->sign[j]);
		x->why[j][1] = RV_TEXT(k->v.reasons[j].text);
	}
	x->reasons = (struct render_nest){.n = k->v.nreasons, .cols = reason_cols, .ncols = 2,
					  .vals = &x->why[0][0]};
	v[R_REASONS].nest = &x->reasons;
}

static void print_pick(const struct rec_pick *k, size_t rank, double hours, const struct money *m)
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

/* The notes on stderr, then the picks on stdout. */
static int print_result(const struct cli_args *a, const struct cli_env *env,
			const struct query_rec *r, const struct query_rec_result *res)
{
	if (r->w == WL_NOTEBOOK)
		msg_note("one GPU for a notebook: a plain instance is enough; Kubernetes "
			 "would be overkill");
	if (r->w == WL_TRAINING && r->nodes > 1 && res->excluded)
		msg_note("%zu provider%s left out: no RDMA between nodes, which %g-node "
			 "training needs", res->excluded, res->excluded == 1 ? "" : "s", r->nodes);
	if (res->over)
		msg_note("%zu provider%s left out: over the budget of $%.2f", res->over,
			 res->over == 1 ? "" : "s", r->budget);
	if (cli_flag(a, O_JSON)) {
		struct pick_rows x = {.picks = res->picks, .hours = r->hours};
		return cli_render(a, env, pick_fields, R_COUNT, res->n, pick_row, &x);
	}
	if (!res->n) {
		msg_note("no offer fits; try fewer --gpus, another --gpu or a larger --budget");
		return EXIT_OK;
	}
	printf("%s: %g node%s x %g GPU%s%s\n\n", workload_name(r->w), r->nodes,
	       r->nodes == 1 ? "" : "s", r->gpus, r->gpus == 1 ? "" : "s",
	       isnan(r->hours) ? "" : ", estimated for the hours given");
	for (size_t i = 0; i < res->n; i++)
		print_pick(&res->picks[i], i + 1, r->hours, &env->money);
	printf("\n+ meets the checklist, - misses it, ? unknown (not in the provider's "
	       "documentation); 'gpucmp show ID' gives sources\n");
	if (env->money_note[0])
		msg_note("%s", env->money_note);
	return EXIT_OK;
}

/* --workload, --gpus, --nodes, --hours, --budget and --limit into r. */
static int request(const struct cli_args *a, struct query_rec *r)
{
	const char *wname = cli_opt(a, O_WORKLOAD);
	if (!wname) {
		msg_error("'recommend' needs --workload inference, training, batch or notebook");
		return EXIT_USAGE;
	}
	r->w = (enum workload)workload_parse(wname);
	double limit = 5;
	r->gpus = r->w == WL_TRAINING ? 8 : 1;
	r->nodes = 1;
	r->hours = r->budget = NAN;
	int rc = cli_number(a, O_GPUS, 1, 1, 1e9, &r->gpus);
	if (!rc)
		rc = cli_number(a, O_NODES, 1, 1, 1e9, &r->nodes);
	if (!rc)
		rc = cli_number(a, O_HOURS, 0, 0.001, 1e9, &r->hours);
	if (!rc)
		rc = cli_number(a, O_BUDGET, 0, 0, 1e9, &r->budget);
	if (!rc)
		rc = cli_number(a, O_LIMIT, 1, 1, 1e9, &limit);
	if (rc)
		return rc;
	r->limit = (size_t)limit;
	if (!isnan(r->budget) && isnan(r->hours)) {
		msg_error("--budget needs --hours H (the budget is for the whole run)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int recommend(struct cli_env *env, const struct cli_args *a, struct query *q,
		     const struct query_rec *r)
{
	struct query_rec_result res;
	char *err = NULL;
	enum gc_status st = query_recommend(env->cache, &env->cat.profiles, q, r, &res, &err);
	if (st != GC_OK) {
		int rc = cli_cache_failed(env, NULL, st, err, "cannot query the cache");
		free(err);
		return rc;
	}
	int rc = print_result(a, env, r, &res);
	free(res.picks);
	return rc;
}

int cmd_recommend(struct cli_args *a)
{
	if (a->npos) {
		msg_error("'recommend' takes no arguments; name the workload with --workload");
		return EXIT_USAGE;
	}
	struct query_rec r;
	int rc = request(a, &r);
	if (rc)
		return rc;
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
	if (!rc)
		rc = recommend(&env, a, &q, &r);
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
	OPT_USE(opt_workload), OPT_USE(opt_budget), OPT_END};

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
