/* cli_filter.h - list's offer filters into a query, shared by list,
 * recommend and the history commands (offer_filter.c), --where
 * (where_opt.c) and `gpucmp help regions` (help_regions.c).  Included by
 * cli.h, after cli_values.h. */
#ifndef GPUCMP_CLI_FILTER_H
#define GPUCMP_CLI_FILTER_H

/* --- offer_filter.c: list's offer filters, shared --- */

/* list's filter options: --gpu, --gpus, --vram, --max-price, --spot,
 * --region, --provider (opts_offer), and --cuda, --cuda-strict,
 * --available (with opts_filters: the capability filters and --where). */
extern const struct opt_def *const opts_offer[];
extern const struct opt_def opt_cuda, opt_cuda_strict, opt_available, opt_price_type;
/* --price-type TYPE into q (query_price_type_set: one type, a reservation
 * with its term, "reserved:12"); refuses a second type, and --price-kind
 * or --spot beside a type they contradict; prints errors; returns an exit
 * code. */
int cli_price_type(const struct cli_args *a, struct query *q);
/* --gpus, --vram and --max-price into q (before cli_offer_filters, whose
 * --gpu reads --gpus); returns an exit code. */
int cli_offer_numbers(struct query *q, const struct cli_args *a);
/* --region, --spot, the capability filters, --gpu and --cuda into q,
 * loading the catalog parts they (and --provider, --where) need; prints
 * errors; returns an exit code. */
int cli_offer_filters(struct cli_env *env, const struct cli_args *a, struct query *q);
/* The one-line refusal of a --region word that names nothing (no country by
 * any of its words, continent, geo or region of an offer), with the
 * countries or place it may have meant, on stderr; returns EXIT_USAGE. */
int cli_unknown_region(struct cli_env *env, const char *word);
/* gpucmp help regions: the geos, continents and countries --region takes
 * (src/cli/help_regions.c); returns an exit code. */
int cli_help_regions(FILE *out);
/* After the cache opened (it may be NULL: --explain): --provider (a comma
 * list kept in *prov_store: free it; a provider imported without a profile
 * counts) and --where over the offer fields into *out (q->where points at
 * it; *have: release it). */
int cli_offer_where(struct cli_env *env, const struct cli_args *a, struct query *q,
		    char **prov_store, struct where_result *out, int *have);
/* "left out as unknown, not as no: --ib 8 offers (coreweave 8); --region
 * us 391 offers (lambda 391); --include-unknown keeps them": the offers
 * q's filters dropped for want of a fact, not for a fact, on stderr (JSON
 * and CSV too: stdout stays the answer), counted by query_omitted unless
 * om->counted; `tail` (NULL: "; --include-unknown keeps them") says how
 * to keep them.  Nothing when none.  Returns an exit code. */
struct query_omitted;
int cli_unknown_note(struct cache *c, const struct query *q, struct query_omitted *om,
		     const char *tail);

/* --- where_opt.c --- */

/* Compile the --where options of `a` (joined by "and") with `lookup`; on a
 * bad expression prints it with a caret under the offending token and
 * returns 64.  *have says whether `out` holds a result (release it). */
int cli_where(const struct cli_args *a, where_lookup_fn lookup, where_suggest_fn suggest,
	      void *ctx, struct where_result *out, int *have);

#endif
