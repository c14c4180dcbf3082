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

/* "(unknown: disk, egress)" after an estimate that is a floor. */
static void print_unknown_parts(const struct job_cost *j)
{
	const char *const names[] = {"control plane", "disk", "egress"};
	const double v[] = {j->k8s_fee, j->disk, j->egress};
	const char *sep = " (unknown: ";
	for (size_t i = 0; i < 3; i++)
		if (isnan(v[i])) {
			printf("%s%s", sep, names[i]);
			sep = ", ";
		}
	if (*sep == ',')
		printf(")");
}

static void print_pick(const struct rec_pick *k, const char *mark, double hours,
		       const struct money *m)
{
	char price[32], cost[32];
	const struct rec_verdict *v = &k->v;
	render_money(price, sizeof price, k->hourly, m);
	printf("%s %s  %s  %gx %s  %s  %s/h", mark, k->provider, k->sku, k->o.gpu_count, k->gpu,
	       k->region, price);
	if (k->stale && *k->as_of) /* the age of the price, as list counts it */
		printf("  (price of %.10s, stale)", k->as_of);
	else if (k->stale)
		printf("  (price of unknown date, stale)");
	if (!isnan(hours)) {
		render_money(cost, sizeof cost, k->cost, m);
		printf("  est. %s%s", k->job.complete ? "" : ">= ", cost);
		print_unknown_parts(&k->job);
	}
	printf("  (score %g", v->score);
	if (v->parts)
		printf(" = checklist %g", /* + 0.0: never "-0" */
		       round((v->score - v->value - v->memory) * 10) / 10 + 0.0);
	if (v->parts & REC_PART_VALUE)
		printf(" %c value %g", v->value < 0 ? '-' : '+', fabs(v->value));
	if (v->parts & REC_PART_MEMORY)
		printf(" %c memory %g", v->memory < 0 ? '-' : '+', fabs(v->memory));
	printf(")\n   ");
	for (size_t i = 0; i < v->nreasons; i++)
		printf("%s%c %s", i ? "; " : "", v->reasons[i].sign, v->reasons[i].text);
	printf("\n");
}

/* What the request filtered on, for the words of the answer: --gpu, and
 * --available (a provider whose offers' stock is unknown has none "known
 * in stock", not none at all). */
enum { ASKED_GPU = 1, ASKED_STOCK = 2 };

/* What a left-out status says, for a line "  WHY: a, b". */
static void left_reason(enum rec_status s, const struct query_rec *r, int gpu, char *out,
			size_t n)
{
	const char *stock = gpu & ASKED_STOCK ? "known to be in stock " : "";
	switch (s) {
	case REC_BELOW_LIMIT:
		snprintf(out, n, "ranked after --limit %zu", r->limit);
		break;
	case REC_OVER_BUDGET:
		snprintf(out, n, "every fitting offer over the budget of $%.2f", r->budget);
		break;
	case REC_NO_FABRIC:
		snprintf(out, n, "no RDMA between nodes, which %g-node training needs", r->nodes);
		break;
	case REC_NO_PRICE:
		snprintf(out, n, "no price for a fitting offer");
		break;
	case REC_NO_FIT:
		snprintf(out, n, "no offer %s%swith %g or more GPUs%s", stock,
			 gpu & ASKED_GPU ? "of the --gpu models " : "", r->gpus,
			 r->price_type == QPT_DEFAULT ? "" : " at that --price-type");
		break;
	default:
		snprintf(out, n, "no offers in the cache ('gpucmp refresh ID'; some need a key)");
		break;
	}
}

/* "left out:" and a line per reason naming its providers. */
static void print_left(const struct query_rec *r, int gpu, const struct query_rec_result *res)
{
	int header = 0;
	for (int s = REC_BELOW_LIMIT; s < REC_NSTATUS; s++) {
		if (!res->count[s])
			continue;
		char why[128];
		left_reason((enum rec_status)s, r, gpu, why, sizeof why);
		printf("%s  %s: ", header++ ? "" : "\nleft out:\n", why);
		size_t k = 0;
		for (size_t i = 0; i < res->n; i++)
			if (res->picks[i].status == (enum rec_status)s)
				printf("%s%s", k++ ? ", " : "", res->picks[i].provider);
		printf("\n");
	}
}

/* The memory line under the heading: what the memory item wants and
 * where that comes from (nothing for the workload's own want). */
static void print_memory(const struct query_rec *r)
{
	const struct rec_mem *m = &r->mem;
	double n = r->gpus * r->nodes;
	if (m->params > 0) {
		printf("memory: %gB parameters x %g bytes", m->params / 1e9, m->bytes_per_param);
		if (r->w == WL_TRAINING)
			printf(" (full training, mixed-precision Adam)");
		else
			printf(" (%s) x %g (KV cache, activations)", precision_name(m->prec),
			       m->factor);
		printf(" = %g GB over %g GPU%s, an estimate", round(m->total_gb * 10) / 10, n,
		       n == 1 ? "" : "s");
		if (m->from == REC_MEM_MODEL)
			printf(": %g GB per GPU\n", m->per_gpu_gb);
		else
			printf("; --vram wins: %g GB per GPU\n", m->per_gpu_gb);
	} else if (m->from == REC_MEM_VRAM) {
		printf("memory: %g GB per GPU (--vram)\n", m->per_gpu_gb);
	}
}

/* The ranked picks, the unverified ones and who was left out. */
static void print_text(const struct cli_env *env, const struct query_rec *r, int gpu,
		       const struct query_rec_result *res)
{
	char at[48] = "";
	if (r->price_type == QPT_RESERVED)
		snprintf(at, sizeof at, ", reserved for %d months", r->term_months);
	else if (r->price_type != QPT_DEFAULT)
		snprintf(at, sizeof at, ", at %s prices", query_price_type_names[r->price_type]);
	printf("%s: %g node%s x %g GPU%s%s%s\n", workload_name(r->w), r->nodes,
	       r->nodes == 1 ? "" : "s", r->gpus, r->gpus == 1 ? "" : "s", at,
	       isnan(r->hours) ? "" : ", estimated for the hours given");
	print_memory(r);
	printf("\n");
	size_t i = 0;
	for (; i < res->count[REC_RANKED]; i++) {
		char mark[24];
		snprintf(mark, sizeof mark, "%zu.", i + 1);
		print_pick(&res->picks[i], mark, r->hours, &env->money);
	}
	if (!res->count[REC_RANKED])
		printf("no pick: nothing fits with every required item confirmed\n");
	if (res->count[REC_UNVERIFIED])
		printf("\nunverified (RDMA between nodes unknown: ask the provider before a "
		       "%g-node run):\n", r->nodes);
	for (size_t k = 0; k < res->count[REC_UNVERIFIED]; k++)
		print_pick(&res->picks[i + k], "?", r->hours, &env->money);
	print_left(r, gpu, res);
	printf("\n+ meets the checklist, - misses it, ? unknown (not in the provider's "
	       "documentation); 'gpucmp show ID' gives sources\n");
}

/* The notes on stderr, then the answer on stdout. */
static int print_result(const struct cli_args *a, const struct cli_env *env,
			const struct query_rec *r, int gpu, const struct query_rec_result *res)
{
	if (r->w == WL_NOTEBOOK)
		msg_note("one GPU for a notebook: a plain instance is enough; Kubernetes "
			 "would be overkill");
	if (cli_flag(a, O_JSON))
		return cli_print_json(query_recommend_json(r, res), 0);
	if (!res->count[REC_RANKED] && !res->count[REC_UNVERIFIED])
		msg_note("no offer fits; try fewer --gpus, another --gpu or a larger --budget%s",
			 gpu & ASKED_STOCK ? ", or without --available" : "");
	print_text(env, r, gpu, res);
	if (env->money_note[0])
		msg_note("%s", env->money_note);
	if (fflush(stdout) != 0) {
		msg_error("cannot write output");
		return EXIT_IOERR;
	}
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
	r->gpus = cli_num(a, O_NEED_GPUS, r->w == WL_TRAINING ? 8 : 1);
	r->nodes = cli_num(a, O_NODES, 1);
	r->hours = cli_num(a, O_HOURS, NAN);
	r->budget = cli_num(a, O_BUDGET, NAN);
	r->limit = (size_t)cli_num(a, O_PICKS, 5);
	r->disk_gb = r->egress_gb = NAN;
	int rc = cli_job_extras(a, r->hours, &r->disk_gb, &r->egress_gb);
	if (rc)
		return rc;
	if (!isnan(r->budget) && isnan(r->hours)) {
		msg_error("--budget needs --hours H (the budget is for the whole run)");
		return EXIT_USAGE;
	}
	if (cli_opt(a, O_PRECISION) && !cli_opt(a, O_MODEL)) {
		msg_error("--precision needs --model SIZE (the precision of the model's weights)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --model, --precision and --vram into r->mem, once the GPUs per node are
 * known (a count in --gpu sets them). */
static int memory_need(const struct cli_args *a, struct query_rec *r)
{
	double params = NAN, vram = cli_num(a, O_NEED_VRAM, NAN);
	const char *model = cli_opt(a, O_MODEL), *prec = cli_opt(a, O_PRECISION);
	char *err = NULL;
	enum gc_status st = model ? recommend_model_parse(model, &params, &err) : GC_OK;
	if (st == GC_OK)
		st = recommend_memory(r->w, params,
				      (enum precision)(prec ? precision_parse(prec) : PREC_BF16),
				      vram, r->gpus * r->nodes, &r->mem, &err);
	if (st != GC_OK) {
		msg_error("%s", err);
		free(err);
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
	int asked = (q->ngpus > 0 ? ASKED_GPU : 0) |
		    (q->caps & (1u << QC_AVAILABLE) ? ASKED_STOCK : 0);
	int rc = print_result(a, env, r, asked, &res);
	free(res.picks);
	/* --available: the offers of unknown stock were not ranked; say so */
	struct query_omitted om = {0};
	if (!rc)
		rc = cli_unknown_note(env->cache, q, &om, "; without --available they are ranked");
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
	char *pstore = NULL;
	rc = cli_catalog_need(&env, CATALOG_GPUS | CATALOG_PROFILES);
	cli_caps(a, &q.caps); /* --available */
	if (!rc)
		rc = cli_gpu_filter(&env, a, &q);
	/* a count in --gpu ("h100:8") is the GPUs per node, unless --gpus says */
	if (!rc && !cli_flag(a, O_NEED_GPUS) && !isnan(q.min_gpus))
		r.gpus = q.min_gpus;
	if (!rc)
		rc = memory_need(a, &r);
	if (!rc)
		rc = cli_provider_filter(&env, a, &pstore, &q);
	if (!rc)
		rc = cli_price_type(a, &q);
	r.price_type = q.price_type;
	r.term_months = q.term_months;
	if (!rc)
		rc = cli_currency(&env);
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (!rc)
		rc = recommend(&env, a, &q, &r);
	free(pstore);
	cli_env_release(&env);
	return rc;
}

static const char *const workload_choices[] = {"inference", "training", "batch", "notebook", NULL};
static const struct opt_def opt_workload = {.id = O_WORKLOAD, .name = "workload", .type = OPT_ENUM,
	.arg = "KIND", .choices = workload_choices,
	.help = "inference, training, batch or notebook"};
static const struct opt_def opt_budget = {.id = O_BUDGET, .name = "budget", .type = OPT_NUMBER,
	.arg = "USD", .num = OPT_REAL(0, 1e9, UNIT_USD),
	.help = "leave out picks whose estimate (needs --hours) is above USD"};

static const struct opt_def opt_model = {.id = O_MODEL, .name = "model", .type = OPT_STRING,
	.arg = "SIZE",
	.help = "the model's parameters (7B, 70B, 1.5B, 500M): sets the memory per GPU the job "
	"needs "
	"(an estimate, docs/RECOMMEND.md)"};
static const char *const precision_choices[] = {"bf16", "fp16", "fp32", "fp8", "int8", "int4",
						NULL};
static const struct opt_def opt_precision = {.id = O_PRECISION, .name = "precision",
	.type = OPT_ENUM, .arg = "P", .choices = precision_choices,
	.help = "the precision of --model's weights (default bf16)"};
static const struct opt_def opt_rec_vram = {.id = O_NEED_VRAM, .name = "vram", .type = OPT_NUMBER,
	.arg = "GB", .num = OPT_ABOVE(0, 1e6, UNIT_GB),
	.help = "memory per GPU the job needs (wins over --model's estimate)"};

/* list's --gpus and --limit, where 0 means no filter, no limit: a pick
 * needs a GPU, and a list of none asks nothing. */
static const struct opt_def opt_rec_gpus = {.id = O_NEED_GPUS, .name = "gpus", .type = OPT_NUMBER,
	.arg = "N", .num = OPT_WHOLE(1, 1e9), .help = "at least N GPUs in the offer"};
static const struct opt_def opt_rec_limit = {.id = O_PICKS, .name = "limit", .type = OPT_NUMBER,
	.arg = "N", .num = OPT_WHOLE(1, 1e9), .help = "at most N rows (offers or groups)"};

static const struct opt_use recommend_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_gpu), OPT_USE(opt_rec_gpus), OPT_USE(opt_provider),
	OPT_USE(opt_hours), OPT_USE(opt_nodes), OPT_USE(opt_disk), OPT_USE(opt_egress),
	OPT_USE(opt_rec_limit), OPT_USE(opt_json),
	OPT_USE(opt_workload), OPT_USE(opt_budget), OPT_USE(opt_model), OPT_USE(opt_precision),
	OPT_USE(opt_rec_vram), OPT_USE(opt_available),
	OPT_USE(opt_price_type), OPT_END};

const struct cmd_entry cmd_recommend_entry = {
	.name = "recommend",
	.run = cmd_recommend,
	.usage = "recommend --workload inference|training|batch|notebook [--model SIZE] [options]",
	.summary = "A ranked short list of offers for a workload, each pick with its reasons.",
	.detail =
		"The checklists (docs/RECOMMEND.md): training wants InfiniBand, RoCE or EFA\n"
		"between nodes (required with --nodes > 1), NVLink, gang scheduling, a training\n"
		"operator and shared storage; inference wants managed Kubernetes with\n"
		"autoscaling, scale-to-zero and GPU sharing; batch wants spot capacity and\n"
		"Kubernetes jobs; a notebook wants a plain instance in stock. The score adds\n"
		"price-performance ($ per BF16 PFLOP-hour, in proportion: a 4x cheaper offer\n"
		"with the same fabric and memory fit ranks above) and memory fit. Each pick\n"
		"is the provider's best matching offer; '+' meets an item, '-' misses it, '?'\n"
		"is unknown. Multi-node training whose fabric is unknown is listed apart as\n"
		"unverified; every provider left out is named with its reason.\n"
		"--available ranks only offers known to be in stock now; those whose stock\n"
		"is unknown are left out and counted on stderr.\n"
		"--gpus is per node (default 8 for training, else 1);\n"
		"--hours adds an estimate (price x hours x nodes, + control plane for\n"
		"inference on managed Kubernetes; batch at the spot price).\n"
		"--model 70B sets the memory per GPU the job needs, an estimate spread over\n"
		"every GPU of the run: training 16 bytes per parameter (mixed-precision Adam),\n"
		"else the --precision's bytes (bf16: 2) x 1.2; --vram GB wins over it.\n\n"
		"examples:\n"
		"  gpucmp recommend --workload training --gpu h100 --nodes 4 --hours 72\n"
		"  gpucmp recommend --workload training --model 70B --nodes 2 --hours 72\n"
		"  gpucmp recommend --workload inference --model 7B --precision fp8\n"
		"  gpucmp recommend --workload inference --gpu l4 --hours 720 --budget 2000\n"
		"  gpucmp recommend --workload notebook --json",
	.opts = recommend_opts,
};
