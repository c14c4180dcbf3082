/* offer_filter.c - list's offer filters (--gpu, --gpus, --vram, --max-price,
 * --spot, --region, --provider, the capability filters, --cuda and
 * --where) into a struct query, for list, history, changes and
 * refresh --changes alike. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "gpucmp/cuda.h"
#include "gpucmp/query.h"
#include "gpucmp/strutil.h"

/* The longest --region glob (docs/gpucmp.1). */
enum { LIST_MAX_GLOB = 256 };

/* --cuda VERSION and --cuda-strict. */
static int cuda_filter(struct query *q, const struct cli_args *a)
{
	const char *v = cli_opt(a, O_CUDA);
	if (cli_flag(a, O_CUDA_STRICT) && !v) {
		msg_error("--cuda-strict needs --cuda VERSION");
		return EXIT_USAGE;
	}
	if (!v)
		return EXIT_OK;
	struct cuda_row r;
	char *err = NULL;
	enum gc_status st = cuda_pick(v, &r, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot load the CUDA table");
		free(err);
		return st == GC_EUSAGE ? EXIT_USAGE : exit_code_for(st);
	}
	q->cuda_num = r.num;
	q->cuda_min_driver_num = r.driver_num;
	q->cuda_strict = cli_flag(a, O_CUDA_STRICT);
	return EXIT_OK;
}

static int region(struct query *q, const struct cli_args *a)
{
	q->region_glob = cli_opt(a, O_REGION);
	if (q->region_glob && !*q->region_glob) {
		msg_error("bad value '' for --region (expected a glob such as 'us-*' or a place "
			  "such as eu)");
		return EXIT_USAGE;
	}
	/* SQLite refuses a GLOB pattern past 50,000 bytes as "too complex",
	 * which would read as a cache error (74); docs/gpucmp.1 gives the limit */
	if (q->region_glob && strlen(q->region_glob) > LIST_MAX_GLOB) {
		msg_error("--region is longer than %d bytes (the limit for a glob; region names "
			  "are short)", LIST_MAX_GLOB);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cli_offer_numbers(struct query *q, const struct cli_args *a)
{
	int rc = cli_number(a, O_GPUS, 1, 0, 1e12, &q->min_gpus);
	if (!rc)
		rc = cli_number(a, O_VRAM, 0, 0, 1e12, &q->min_vram);
	if (!rc)
		rc = cli_number(a, O_MAX_PRICE, 0, 0, 1e12, &q->max_price);
	return rc;
}

int cli_offer_filters(struct cli_env *env, const struct cli_args *a, struct query *q)
{
	int rc = region(q, a);
	if (rc)
		return rc;
	q->spot = cli_flag(a, O_SPOT);
	cli_caps(a, &q->caps);
	/* --where checks provider values against the profiles */
	unsigned parts = (cli_flag(a, O_GPU) ? CATALOG_GPUS : 0) |
			 (cli_flag(a, O_PROVIDER) || cli_flag(a, O_WHERE) ? CATALOG_PROFILES : 0);
	if ((rc = cli_catalog_need(env, parts)) || (rc = cli_gpu_filter(env, a, q)))
		return rc;
	return cuda_filter(q, a);
}

/* Whether a --where expression has `word` in it, in any case. */
static int where_mentions(const struct cli_args *a, const char *word)
{
	size_t n = strlen(word);
	for (int i = 0; i < a->nvalues[O_WHERE]; i++)
		for (const char *p = a->values[O_WHERE][i]; *p; p++)
			if (strncasecmp(p, word, n) == 0)
				return 1;
	return 0;
}

int cli_offer_where(struct cli_env *env, const struct cli_args *a, struct query *q,
		    char **prov_store, struct where_result *out, int *have)
{
	struct query_where w;
	char *err = NULL;
	/* after the cache opens: it knows the providers imported without a profile */
	int rc = cli_provider_filter(env, a, prov_store, q);
	/* without --where nothing reads the provider and country ids: reading
	 * them was a sixth of the instructions of a `list --limit 0` */
	if (rc || !cli_flag(a, O_WHERE)) {
		*have = 0;
		q->where = NULL;
		return rc;
	}
	enum gc_status st = query_where_init(&w, q, &env->cat.profiles, env->cache, &err);
	/* gpu values are checked, and a family read as --gpu reads it, when
	 * the expression may name the field (the GPU table costs a parse) */
	if (st == GC_OK && where_mentions(a, "gpu")) {
		rc = cli_catalog_need(env, CATALOG_GPUS);
		if (!rc)
			st = query_where_gpus(&w, env->cat.gpus, env->cache, &err);
	}
	if (!rc && st != GC_OK) {
		rc = cli_cache_failed(env, NULL, st, err, "cannot read the cache");
		free(err);
	}
	if (!rc)
		rc = cli_where(a, query_offer_field, query_offer_suggest, &w, out, have);
	/* a narrow table keeps the columns --where asked about */
	for (size_t i = 0; i < w.nused; i++)
		q->where_fields[q->nwhere_fields++] = w.used[i];
	query_where_release(&w);
	q->where = *have ? out : NULL;
	return rc;
}

static const struct opt_def opt_vram = {O_VRAM, "vram", 0, OPT_NUMBER, "GB", NULL, HINT_NONE,
	"at least GB of memory per GPU"};
static const struct opt_def opt_max_price = {O_MAX_PRICE, "max-price", 0, OPT_NUMBER, "USD", NULL,
	HINT_NONE, "at most USD per hour for the whole offer (spot price with --spot)"};
static const struct opt_def opt_spot = {O_SPOT, "spot", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"only offers with a spot price; prices, --max-price and the default sort use it"};
static const struct opt_def opt_region = {O_REGION, "region", 0, OPT_STRING, "WHERE", NULL,
	HINT_NONE, "a region glob ('us-*'), or a region, country (DE), continent (europe) or "
	"geo (us, americas, eu, mea, apac)"};
const struct opt_def opt_cuda = {O_CUDA, "cuda", 0, OPT_STRING, "VERSION", NULL, HINT_NONE,
	"keep offers whose host driver runs this CUDA (12.4); unknown drivers kept, flagged"};
const struct opt_def opt_cuda_strict = {O_CUDA_STRICT, "cuda-strict", 0, OPT_BOOL, NULL,
	NULL, HINT_NONE, "with --cuda: drop offers whose driver is unknown"};
const struct opt_def opt_available = {O_AVAILABLE, "available", 0, OPT_BOOL, NULL, NULL,
	HINT_NONE, "only offers known to be in stock"};

const struct opt_def *const opts_offer[] = {
	&opt_gpu, &opt_gpus, &opt_vram, &opt_max_price, &opt_spot, &opt_region, &opt_provider,
	NULL};
const struct opt_def *const opts_offer_changes[] = {
	&opt_gpu, &opt_gpus, &opt_vram, &opt_max_price, &opt_spot, &opt_region, &opt_available,
	NULL};
