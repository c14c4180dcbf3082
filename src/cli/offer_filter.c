/* offer_filter.c - list's offer filters (--gpu, --gpus, --vram, --max-price,
 * --spot, --region, --provider, the capability filters, --cuda and
 * --where) into a struct query, for list, history, changes and
 * refresh --changes alike. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/country.h"
#include "gpucmp/cuda.h"
#include "gpucmp/field.h"
#include "gpucmp/query.h"
#include "gpucmp/render.h"
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

/* A geo or continent word (eu, us, europe): the country table is not read
 * for it (a twentieth of a `list --region eu`); us is the country US too,
 * which the query finds by the word's code. */
static int is_place(const char *word)
{
	static const char *const keys[] = {"geo", "continent"};
	for (size_t k = 0; k < 2; k++)
		for (const char *const *v = field_find(keys[k])->values; *v; v++)
			if (strcasecmp(*v, word) == 0 && strcmp(*v, "unknown") != 0)
				return 1;
	return 0;
}

/* --region: a glob, or a word; a word that names a country by any of its
 * words (de, DEU, germany) sets q->region_country (src/country.c). */
static int region(struct cli_env *env, struct query *q, const struct cli_args *a)
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
	if (!q->region_glob || strpbrk(q->region_glob, "*?[") || is_place(q->region_glob))
		return EXIT_OK;
	int rc = cli_catalog_need(env, CATALOG_COUNTRIES);
	const struct country *c = rc ? NULL : country_find(env->cat.countries, q->region_glob);
	if (c)
		q->region_country = c->alpha2;
	return rc;
}

/* "DE (Germany)", "GB (United Kingdom), US (United States) or AE (...)". */
static void country_list(const struct country *const *c, size_t n, char *out, size_t size)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && o < size; i++) {
		int w = snprintf(out + o, size - o, "%s%s (%s)",
				 i == 0 ? "" : i + 1 == n ? " or " : ", ", c[i]->alpha2,
				 c[i]->common ? c[i]->common : c[i]->name);
		if (w < 0)
			break;
		o += (size_t)w;
	}
}

/* The continent or geo `word` may have meant ("eurpoe": europe), or NULL. */
static const char *place_suggest(const char *word)
{
	static const char *const keys[] = {"geo", "continent"};
	struct suggest sg;
	suggest_init(&sg, word);
	for (size_t k = 0; k < 2; k++)
		for (const char *const *v = field_find(keys[k])->values; *v; v++)
			if (strcmp(*v, "unknown") != 0)
				suggest_try(&sg, *v);
	return strlen(word) > 2 ? suggest_best(&sg) : NULL;
}

int cli_unknown_region(struct cli_env *env, const char *word)
{
	char safe[64], hint[240];
	const struct country *c[3];
	str_sanitize(safe, sizeof safe, word);
	size_t n = cli_catalog_need(env, CATALOG_COUNTRIES)
			   ? 0
			   : country_suggest(env->cat.countries, word, c, sizeof c / sizeof c[0]);
	const char *place = place_suggest(word);
	if (n) {
		country_list(c, n, hint, sizeof hint);
		msg_error("unknown region '%s'; did you mean %s? ('gpucmp help regions' lists "
			  "the region words)", safe, hint);
	} else if (place) {
		msg_error("unknown region '%s'; did you mean '%s'? ('gpucmp help regions' lists "
			  "the region words)", safe, place);
	} else if (strlen(word) == 2) {
		msg_error("unknown region '%s': not an ISO 3166-1 country code in use (nor a geo "
			  "or a region id of any offer); 'gpucmp help regions' lists the codes",
			  safe);
	} else {
		msg_error("unknown region '%s': not a country (DE, DEU, germany), a continent "
			  "(europe), a geo (us, eu, apac, americas, mea) or a region of any offer; "
			  "a glob (us-*) matches region ids; 'gpucmp help regions' lists the words",
			  safe);
	}
	return EXIT_USAGE;
}

int cli_offer_numbers(struct query *q, const struct cli_args *a)
{
	q->min_gpus = cli_num(a, O_GPUS, q->min_gpus);
	q->min_vram = cli_num(a, O_VRAM, q->min_vram);
	q->max_price = cli_num(a, O_MAX_PRICE, q->max_price);
	return EXIT_OK;
}

int cli_offer_filters(struct cli_env *env, const struct cli_args *a, struct query *q)
{
	int rc = region(env, q, a);
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
	w.cat = &env->cat; /* gpu = h100 means --gpu h100 */
	if (st != GC_OK) {
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

static const struct opt_def opt_vram = {.id = O_VRAM, .name = "vram", .type = OPT_NUMBER,
	.arg = "GB", .num = OPT_REAL(0, OPT_NO_MAX, UNIT_GB),
	.help = "at least GB of memory per GPU"};
static const struct opt_def opt_max_price = {.id = O_MAX_PRICE, .name = "max-price",
	.type = OPT_NUMBER, .arg = "USD", .num = OPT_REAL(0, OPT_NO_MAX, UNIT_USD),
	.help = "at most USD per hour for the whole offer (spot price with --spot)"};
static const struct opt_def opt_spot = {.id = O_SPOT, .name = "spot", .type = OPT_BOOL,
	.help = "only offers with a spot price; prices, --max-price and the default sort use it"};
static const struct opt_def opt_region = {.id = O_REGION, .name = "region", .type = OPT_STRING,
	.arg = "WHERE",
	.help = "a region glob ('us-*'), or a region, country (DE), continent (europe) or "
	"geo (us, americas, eu, mea, apac)"};
const struct opt_def opt_cuda = {.id = O_CUDA, .name = "cuda", .type = OPT_STRING, .arg = "VERSION",
	.help = "keep offers whose host driver runs this CUDA (12.4); unknown drivers kept, "
	"flagged"};
const struct opt_def opt_cuda_strict = {.id = O_CUDA_STRICT, .name = "cuda-strict",
	.type = OPT_BOOL, .help = "with --cuda: drop offers whose driver is unknown"};
const struct opt_def opt_available = {.id = O_AVAILABLE, .name = "available", .type = OPT_BOOL,
	.help = "only offers known to be in stock"};

static const char *const price_type_choices[] = {
	"on_demand", "spot", "reserved:1", "reserved:3", "reserved:6", "reserved:12",
	"reserved:24", "reserved:36", "capacity_block", "auction_floor", NULL};
const struct opt_def opt_price_type = {.id = O_PRICE_TYPE, .name = "price-type",
	.type = OPT_STRING, .arg = "TYPE", .choices = price_type_choices,
	.help = "the one type of price to answer with: on_demand, spot, reserved:MONTHS "
	"(reserved:12), "
	"capacity_block, auction_floor (default: on-demand, spot beside it)"};

int cli_price_type(const struct cli_args *a, struct query *q)
{
	const char *v = cli_opt(a, O_PRICE_TYPE);
	if (!v)
		return EXIT_OK;
	char safe[64];
	if (strchr(v, ',')) {
		msg_error("--price-type takes one type at a time (the answer has one price "
			  "column); run once per type");
		return EXIT_USAGE;
	}
	int rc = query_price_type_set(q, v);
	if (rc == -2) {
		msg_error("'%s': a reservation needs its term in months: reserved:12 or "
			  "reserved:36 (1, 3, 6, 12, 24 or 36)",
			  str_sanitize(safe, sizeof safe, v));
		return EXIT_USAGE;
	}
	if (rc) {
		msg_error("unknown price type '%s'; expected on_demand, spot, reserved:MONTHS, "
			  "capacity_block or auction_floor",
			  str_sanitize(safe, sizeof safe, v));
		return EXIT_USAGE;
	}
	if (cli_opt(a, O_PRICE_KIND)) {
		msg_error("--price-type and --price-kind both choose the prices; use one "
			  "(--price-type auction_floor is --price-kind auction_floor)");
		return EXIT_USAGE;
	}
	if (cli_flag(a, O_SPOT) && q->price_type != QPT_SPOT && q->price_type != QPT_ON_DEMAND) {
		msg_error("--spot keeps offers with a spot price; it cannot go with --price-type "
			  "%s (use --price-type spot)", query_price_type_names[q->price_type]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

const struct opt_def *const opts_offer[] = {
	&opt_gpu, &opt_gpus, &opt_vram, &opt_max_price, &opt_spot, &opt_region, &opt_provider,
	NULL};
const struct opt_def *const opts_offer_changes[] = {
	&opt_gpu, &opt_gpus, &opt_vram, &opt_max_price, &opt_spot, &opt_region, &opt_available,
	NULL};

/* The unknown note in one terminal line: "left out as unknown: --ib 855,
 * --region us 2; --include-unknown keeps them", the filters' list cut to
 * fit ('--explain' lists them whole, with whose they are). */
static void unknown_brief(const struct query_omitted *om, size_t width, const char *tail)
{
	static const char head[] = "left out as unknown: ";
	char items[400];
	size_t len = 0;
	for (size_t i = 0; i < om->n && len < sizeof items; i++) {
		int w = snprintf(items + len, sizeof items - len, "%s%s %lld", i ? ", " : "",
				 om->items[i].filter, om->items[i].offers);
		if (w < 0)
			break;
		len += (size_t)w;
	}
	/* "gpucmp: ", the cursor's cell, and at least a filter's name */
	size_t fixed = 9 + strlen(head) + strlen(tail);
	struct buf b;
	buf_init(&b, 0);
	if (render_fit(&b, items, width > fixed + 12 ? width - fixed : 12) == GC_OK && b.ptr)
		msg_note("%s%s%s", head, b.ptr, tail);
	else
		msg_note("%s%s%s", head, items, tail);
	buf_free(&b);
}

int cli_unknown_note(struct cache *c, const struct query *q, struct query_omitted *om,
		     const char *tail)
{
	char *err = NULL, line[1200];
	enum gc_status st = om->counted ? GC_OK : query_omitted(c, q, om, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the cache");
		free(err);
		return exit_code_for(st);
	}
	size_t len = 0;
	for (size_t i = 0; i < om->n; i++) {
		const struct query_omit *o = &om->items[i];
		int w = snprintf(line + len, sizeof line - len, "%s%s %lld offer%s (%s)",
				 i ? "; " : "", o->filter, o->offers, o->offers == 1 ? "" : "s",
				 o->providers);
		if (w < 0 || (size_t)w >= sizeof line - len)
			break;
		len += (size_t)w;
	}
	static const char head[] = "left out as unknown, not as no: ";
	if (!tail)
		tail = "; --include-unknown keeps them";
	/* a terminal too narrow for it gets one line, as the footer does */
	int width = isatty(fileno(stderr)) ? render_term_width(stderr) : 0;
	if (len && width > 0 && len + sizeof head + strlen(tail) + 9 > (size_t)width)
		unknown_brief(om, (size_t)width, tail);
	else if (len)
		msg_note("%s%s%s", head, line, tail);
	return EXIT_OK;
}
