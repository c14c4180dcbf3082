/* query.h - offer filters and sort order compiled to SQL over offer_v.
 *
 * Every value from the user is a bound parameter; no user text is ever
 * pasted into SQL.  Field names are taken only from the field registry.
 */
#ifndef GPUCMP_QUERY_H
#define GPUCMP_QUERY_H

#include <stddef.h>

#include "gpucmp/buf.h"
#include "gpucmp/err.h"
#include "gpucmp/field.h"
#include "gpucmp/gpu_spec.h"
#include "gpucmp/profile.h"
#include "gpucmp/recommend.h"
#include "gpucmp/render.h"
#include "gpucmp/where.h"

#define QUERY_MAX_LIST 64
#define QUERY_MAX_GPUS 128 /* the models a --gpu may name (GPU_SPEC_MAX) */
#define QUERY_MAX_SORT 8
#define QUERY_MAX_BINDS 320

/* The capability filters (--k8s MODE, --docker LEVEL, --mig ... --available):
 * one definition each, serving list (SQL over offer_v), providers and
 * recommend (a test of the provider's profile) alike: query_caps[]. */
enum query_cap {
	QC_AVAILABLE, QC_K8S_MANAGED, QC_K8S_JOIN, QC_K8S_ANY, QC_K8S_NONE,
	QC_DOCKER_CUSTOM, QC_DOCKER_DAEMON, QC_DOCKER_BASE,
	QC_MIG, QC_MPS, QC_TIME_SLICING, QC_IB, QC_RDMA, QC_NVLINK,
	QC_COUNT
};

struct query_cap_def {
	const char *option;    /* "k8s", "ib" (the long option without "--") */
	const char *value;     /* "managed" for an option with a value; NULL for a flag */
	const char *offer_sql; /* the clause over offer_v: the offer row qualifies */
	const char *path[2];   /* profile fields (either may qualify); NULL: offers only */
	const char *accept[4]; /* the values of those fields that qualify (at most 3:
				* NULL-terminated) */
	const char *why;       /* the GPUs the offer column rules out and why, for
				* --explain; NULL: the GPU does not matter */
	const char *unknown;   /* the clause over offer_v: the offer's fact is
				* unknown (not false), so the filter leaves it
				* out for want of knowing; --include-unknown
				* keeps it */
};

/* A region word (--region us, not a glob) cannot place an offer whose
 * region data/regions.yaml does not place: the clause over offer_v. */
#define QUERY_REGION_UNKNOWN "COALESCE(country, 'unknown') = 'unknown'"

/* Indexed by enum query_cap; the SQL clauses join in this order. */
extern const struct query_cap_def query_caps[QC_COUNT];

struct query;
/* Why the filters set in q leave GPUs out (the caps' `why`, and --cuda's),
 * for --explain: at most max borrowed lines into out; returns how many. */
size_t query_why(const struct query *q, const char **out, size_t max);

/* The offer column (a field key) filter c reads and shows ("k8s", "mig"). */
const char *query_cap_field(enum query_cap c);

/* The filter `option` (with `value`, NULL for a flag) names; -1 if none. */
int query_cap_find(const char *option, const char *value);
/* What `field = value` means in --where, for list and providers alike:
 * the values the filter --field value accepts (k8s managed: managed,
 * both), NULL-terminated; NULL when no filter with a value has that name
 * (the value then stands for itself).  A where_field.means. */
const char *const *query_cap_means(const char *field, const char *value);
/* Does provider p qualify for filter c?  A filter with no profile test
 * (available) does not narrow providers.  Unknown never qualifies. */
int query_cap_profile(enum query_cap c, const struct profile *p);
/* Does an offer whose column (offer_v) holds v qualify for filter c, by the
 * same accepted values?  For a caller that read the column, as recommend
 * reads k8s. */
int query_cap_value(enum query_cap c, const char *v);
/* Does p qualify for every filter set in `caps` (1u << QC_*)? */
int query_caps_profile(unsigned caps, const struct profile *p);

struct sort_key {
	const struct field *field; /* NULL: the effective price (spot with --spot);
				    * with a grouping, a group field too */
	int desc;
};

/* list --group-by: one row per group, its cheapest offer (by the price the
 * query ranks by: spot with --spot) with the group fields (field.h).
 * docs/OUTPUT.md documents the keys. */
enum query_group {
	QG_NONE,     /* every offer */
	QG_SKU,      /* provider and sku: the default table */
	QG_PROVIDER, /* provider */
	QG_GPU,      /* gpu and gpu_count */
	QG_REGION,   /* provider and region */
	QG_COUNT
};
/* "none", "sku", "provider", "gpu", "region"; NULL-terminated, in enum order. */
extern const char *const query_group_names[QG_COUNT + 1];
/* The grouping `name` names; -1 if none. */
int query_group_find(const char *name);
/* "provider and sku": what one row stands for, for a footer. */
const char *query_group_what(enum query_group g);

/* list --price-kind: the kinds of price kept (field price_kind).  Without
 * it every kind is kept and an auction floor (the lowest bid an auction
 * takes, not a price anyone can count on renting at) ranks after every
 * fixed and marketplace price in each price order, and is a group's
 * cheapest offer only when the group has no other price; naming kinds
 * (or `any`) ranks the kept prices by their number alone
 * (docs/OUTPUT.md, "Prices you can rent at"). */
enum query_price_kind { QPK_FIXED, QPK_AUCTION_FLOOR, QPK_MARKETPLACE, QPK_COUNT };
#define QPK_ALL ((1u << QPK_COUNT) - 1)
/* "fixed", "auction_floor", "marketplace"; NULL-terminated, in enum order. */
extern const char *const query_price_kind_names[QPK_COUNT + 1];
/* The kind `name` names; -1 if none. */
int query_price_kind_find(const char *name);
/* Whether q ranks auction floors after the other prices (no --price-kind). */
int query_floors_last(const struct query *q);

/* list --price-type (docs/OUTPUT.md, "Price types"): the one type of
 * price the answer's price column holds.  QPT_DEFAULT is the answer
 * without the option (on-demand, spot beside it, auction floors last);
 * on_demand keeps the fixed and marketplace prices (--price-kind
 * fixed,marketplace), auction_floor the floors (--price-kind
 * auction_floor); spot, reserved and capacity_block read a price view
 * (cache_price_view), a reservation for one term. */
enum query_price_type {
	QPT_DEFAULT, QPT_ON_DEMAND, QPT_SPOT, QPT_RESERVED, QPT_CAPACITY_BLOCK,
	QPT_AUCTION_FLOOR, QPT_COUNT
};
/* "", "on_demand", "spot", "reserved", "capacity_block", "auction_floor";
 * NULL-terminated, in enum order. */
extern const char *const query_price_type_names[QPT_COUNT + 1];
/* Set q's price type from a word of --price-type: a type, or
 * "reserved:MONTHS" (a term of OFFER_TERMS; a reservation needs one).
 * Returns 0, -1 for a word that is no type, -2 for a reservation without
 * a term or with another term. */
int query_price_type_set(struct query *q, const char *word);
/* Whether q's answer reads a price view (spot, reserved, capacity_block). */
int query_price_view(const struct query *q);

struct query {
	const char *gpus[QUERY_MAX_GPUS];      /* canonical ids (borrowed) */
	size_t ngpus;
	const char *providers[QUERY_MAX_LIST]; /* borrowed */
	size_t nproviders;
	const char *region_glob;               /* case-insensitive glob or NULL */
	/* the country a --region word names by any of its words (DE for de,
	 * DEU, germany: country_find), compared with the country field in its
	 * place; NULL when the word names none (a glob, eu, europe, eastus).
	 * Borrowed (the country table's code), never a copy inside the query:
	 * a bind points at it, and a filter builder works on copies of q */
	const char *region_country;
	double min_gpus, max_gpus;             /* GPUs in the offer; NAN = no limit */
	double min_vram, max_price;            /* NAN = no limit */
	int spot;                              /* only offers with a spot price; prices mean spot */
	unsigned caps;                         /* capability filters: 1u << QC_* */
	struct sort_key sort[QUERY_MAX_SORT];
	size_t nsort;                          /* 0: effective price ascending */
	long limit;                            /* < 0: none */
	const struct where_result *where;      /* a compiled --where, or NULL */
	const struct field *where_fields[QUERY_MAX_SORT]; /* the fields it names */
	size_t nwhere_fields;
	/* --cuda: versions as numbers (cuda_version_num); 0 = not asked */
	long long cuda_num, cuda_min_driver_num;
	int cuda_strict;                       /* drop offers whose driver is unknown */
	enum query_group group;                /* QG_NONE: one row per offer */
	int include_unknown;                   /* --include-unknown: a capability
						* filter or region word keeps the
						* offers whose fact is unknown */
	unsigned price_kinds;                  /* --price-kind: 1u << QPK_* kept; 0: not
						* asked (every kind, auction floors last) */
	enum query_price_type price_type;      /* --price-type; QPT_DEFAULT: not asked */
	int term_months;                       /* its term (reserved) */
	double hours, nodes;                   /* --hours, --nodes; NAN = no estimate */
	double disk_gb, egress_gb;             /* --disk, --egress for the whole job;
						* NAN = not part of the estimate */
	int k8s_fee;                           /* the estimate includes the control plane */
	long long stale_after;                 /* seconds: older data is stale
						* (QUERY_STALE_AFTER) */
	char sql_cuda_ok[320], sql_stale[96];
	/* the estimate's parts and totals (query_prepare_fields) */
	char sql_cost_gpu[96], sql_cost_cp[96], sql_cost_disk[128], sql_cost_egress[256];
	char sql_cost[768], sql_spot_cost[768], sql_cost_complete[640];
};

/* The columns a list table shows for q unless --columns says: the ranked
 * offer fields, the group's count (regions for a SKU, offers otherwise)
 * after the region, and the columns of the filters q uses (--mps shows MPS,
 * --cuda the driver, its CUDA and the verdict, --hours the estimate).
 * Fills cols (at most max) and returns how many. */
size_t query_table_columns(const struct query *q, const struct field **cols, size_t max);
/* How late a narrow table drops column f (render_spec.ranks, grid_col):
 * 0, never, for provider, sku, gpu, gpu_count and the price; 1, only when
 * shortening text is not enough, for the columns of the filters q uses; 2
 * for the group's count; else f's table rank (9: none). */
int query_column_rank(const struct query *q, const struct field *f);

/* The one line under a table on a terminal: what the words its `ncols`
 * columns showed mean ("K8S managed: provider-run cluster, join: join your
 * cluster; ?: unknown; more: gpucmp help values"), column by column as far
 * as `width` cells allow; "" when nothing needs saying. */
void query_legend(const struct render_seen *seen, size_t ncols, size_t width, char *out,
		  size_t size);

/* Data older than this is stale whatever its source (24 h). */
#define QUERY_STALE_AFTER (24 * 3600LL)

/* The SQL of field f in this query: f->sql, except for the fields whose
 * value depends on --cuda, --hours or the staleness age (cuda_ok,
 * est_cost_usd, est_spot_cost_usd, the cost_* parts of the estimate
 * (docs/OUTPUT.md, "The job's cost"), stale: the provider's last refresh
 * failed, or the row's as_of is older than stale_after before
 * catalog_now()), computed from validated numbers only.  Call
 * query_prepare_fields() after setting those options. */
const char *query_field_sql(const struct query *q, const struct field *f);
void query_prepare_fields(struct query *q);
/* The estimate's SQL alone (query_prepare_fields calls it): after setting
 * hours, nodes, disk_gb, egress_gb or k8s_fee. */
void query_prepare_cost(struct query *q);

/* The whole job's cost in C, by the rule query_prepare_cost writes as SQL
 * (docs/OUTPUT.md, "The job's cost"), for recommend: the parts of a run of
 * `hours` at `hourly` (the whole cluster's price per hour) with profile p
 * (NULL: every fact unknown); `k8s_fee`: the control plane is part of it;
 * disk_gb, egress_gb NAN when not asked.  A part whose fact is unknown is
 * NAN; total adds the known parts and complete says whether all were
 * (struct job_cost: gpucmp/recommend.h). */
void query_job_cost(double hours, double hourly, int k8s_fee, double disk_gb, double egress_gb,
		    const struct profile *p, struct job_cost *out);

/* where_compile's lookup and suggestion for list --where (ctx: a struct
 * query_where): the offer field registry, aliases too; each field's SQL
 * in this query (query_field_sql); its domain (an enum's values, and for
 * provider the ids of the profile set) and what a value means there
 * (query_cap_means: k8s = managed is managed or both, as --k8s managed). */
struct cache;
struct query_where {
	const struct query *q;
	const struct field *used[QUERY_MAX_SORT]; /* the fields looked up */
	size_t nused;
	const char **provider_ids; /* NULL-terminated, new; NULL: any provider */
	const char **country_codes; /* NULL-terminated, new; NULL: any country */
	char **owned;              /* the ids read from the cache */
	size_t nowned;
	/* the built-in tables, set by the caller (or NULL): with them a GPU name
	 * after gpu =, != or in means what --gpu means (h100: every H100
	 * model), and a country any word of it (germany, DEU: DE), each table
	 * loaded on the first such value */
	struct catalog *cat;
	const char *gpu_ids[GPU_SPEC_MAX + 1]; /* the last name's models */
	const char *country[2];                /* the last country word's code */
};
/* Fill w for q: provider values are the ids of ps (borrowed), and of the
 * providers cache c holds offers of (imported without a profile too; c
 * may be NULL); ps NULL: any provider.  Country values are the codes of
 * the cache's country table (data/regions.yaml); c NULL: any.  Release w with
 * query_where_release, also after a failure. */
enum gc_status query_where_init(struct query_where *w, const struct query *q,
				const struct profile_set *ps, struct cache *c, char **err);
void query_where_release(struct query_where *w);
int query_offer_field(void *ctx, const char *name, struct where_field *out);
const char *query_offer_suggest(void *ctx, const char *name);

void query_init(struct query *q);

/* Narrow q to a resolved --gpu (gpu_spec_add): its models, and its count
 * within q's --gpus (set min_gpus first).  GC_EUSAGE when the two counts
 * cannot both hold. */
struct gpu_spec;
enum gc_status query_set_gpus(struct query *q, const struct gpu_spec *s, char **err);

struct query_bind {
	int is_text;
	const char *text; /* borrowed */
	double num;
};

struct query_sql {
	struct buf sql;
	struct query_bind binds[QUERY_MAX_BINDS];
	int nbinds;
};

/* Build "SELECT <cols> FROM offer_v WHERE ... ORDER BY ... LIMIT ?"; with
 * q->group, the same offers ranked within their group by price, the
 * cheapest of each kept, and cols may name group fields. */
enum gc_status query_build(const struct query *q, const struct field *const *cols,
			   size_t ncols, struct query_sql *out, char **err);
/* Build "SELECT count(*), count(DISTINCT provider), <groups> FROM offer_v
 * WHERE ...": the offers q matches, their providers and, if `groups`, the
 * groups (the offers again without a grouping; NULL when not asked: the
 * distinct count is the costly part), for query_count. */
enum gc_status query_build_count(const struct query *q, int groups, struct query_sql *out,
				 char **err);
/* Append to out (buf_init'ed, its binds counted) q's filters as
 * " WHERE ..." over the columns of offer_v (a view with the same columns,
 * history_v, too), with their binds; nothing when q filters nothing. */
enum gc_status query_add_filters(const struct query *q, struct query_sql *out, char **err);
/* Whether q's filters read only columns that offer_v takes from table offer
 * as they are (query_offer_col): no capability filter, --cuda, --where or
 * region word.  Then query_add_offer_filters appends them as " WHERE ..."
 * over table offer, the same rows as query_add_filters over offer_v: a
 * scan of every match skips the view's joins. */
int query_filters_on_offer(const struct query *q);
enum gc_status query_add_offer_filters(const struct query *q, struct query_sql *out,
				       char **err);
/* Table offer's expression of view column `col` (provider, sku, gpu_id,
 * gpu_count, gpu_mem_gb, region, the prices, id), or NULL when the view
 * computes it otherwise. */
const char *query_offer_col(const char *col);
/* Append a "?" bound to `text` (borrowed), or to `num` when text is NULL. */
enum gc_status query_add_param(struct query_sql *out, const char *text, double num, char **err);
void query_sql_release(struct query_sql *qs);

/* query_prepare (prepare and bind): src/sqlite_int.h. */

/* The SQL with its parameters inlined as SQL literals (quotes doubled), for
 * --explain and the benchmark; a new string. */
char *query_inline(const struct query_sql *qs);

/* --- running queries over the cache: the command line only formats ------ */

struct cache;

/* Run the built query `qs` on cache c and render every row with `spec`
 * (whose cols are the query's columns); *rows counts them.  A damaged
 * page the query met shows in cache_corrupt(c) (cache_recover.h). */
enum gc_status query_list(struct cache *c, const struct query_sql *qs,
			  const struct render_spec *spec, size_t *rows, char **err);

/* How many offers, providers and rows (groups) a query matches, whatever
 * its limit: list's footer says "N of M".  groups is -1 unless asked
 * (`groups`): a caller whose rows were not cut by a limit knows it. */
struct query_counts {
	long long offers, providers, groups;
	long long undated;  /* of the offers, those whose source named no date */
	char oldest[32];    /* the oldest as_of among the others ("" if none) */
};
enum gc_status query_count(struct cache *c, const struct query *q, int groups,
			   struct query_counts *out, char **err);

/* When q matches nothing: the filter that took the count to zero (its
 * option, "--region", "--k8s managed"), the offers the filters before it
 * matched (`before`; with none before it, every offer the cache holds) and
 * those filters' options ("--gpu, --gpus"; "" when it came first).  The
 * filters are tried in the order the query joins them, in one pass over
 * the offers the first one keeps (each row's count of the filters after it
 * that it passes in turn), and a count of every offer only when that first
 * one keeps none: only the empty answer pays for it.  filter "" and before
 * 0: the cache holds no offer at all; before -1: q matches offers after
 * all. */
struct query_empty {
	char filter[48];
	char after[160];
	long long before;
};
enum gc_status query_empty_reason(struct cache *c, const struct query *q,
				  struct query_empty *out, char **err);

/* Whether `word` (a --region word, not a glob) names anything: a country
 * code, a continent, a geo, or a region id some offer has (*known 1). */
enum gc_status query_region_known(struct cache *c, const char *word, int *known, char **err);

/* The offers a filter of q leaves out because their fact is unknown (a
 * capability the offer's sources do not state, a region data/regions.yaml
 * does not place), not false: per filter set in q (the region word, then
 * the capability filters), how many and whose ("lambda 391, coreweave 8",
 * as many as fit), the other filters applied.  Only filters that left some
 * out are listed.  Nothing with q->include_unknown.  One count per filter
 * with an unknown case (--explain; an answer query_run did not count on
 * its way); "unknown is not no": list names them. */
struct query_omit {
	char filter[48];
	long long offers;
	char providers[200];
};
struct query_omitted {
	size_t n;
	struct query_omit items[QC_COUNT + 1];
	int counted; /* 1: n and items hold the counts; 0: not counted (a
		      * query_run that could not count them on its way) */
};
enum gc_status query_omitted(struct cache *c, const struct query *q, struct query_omitted *out,
			     char **err);

/* The same counts taken on the way of a scan of q's answer, in the same
 * pass (query_group.c's hook): the scan reads q's filters relaxed
 * (query_unknown_filters: a region word or capability filter also keeps
 * the offers whose fact is unknown, as include_unknown) and one column
 * more, appended to its select list by query_unknown_col; query_unknown_row reads that column
 * of each row and says whether the row is q's (1) or one q leaves out (0;
 * -1 out of memory), counting it, when `count`, by the provider in column
 * provider_col for the filter that alone left it out as unknown, as
 * query_omitted counts.  query_unknown_begin sets *out NULL when q has no
 * such filter (or include_unknown): the scan is q's own. */
struct query_unknown;
enum gc_status query_unknown_begin(const struct query *q, struct query_unknown **out,
				   char **err);
enum gc_status query_unknown_col(const struct query_unknown *u, struct query_sql *qs,
				 char **err);
/* The scan's " WHERE ..." (as query_add_filters), q's filters relaxed. */
enum gc_status query_unknown_filters(const struct query_unknown *u, struct query_sql *qs,
				     char **err);
/* query_unknown_row (a row's verdict): src/sqlite_int.h. */
/* The counts into out (may be NULL: dropped), as query_omitted's; frees u. */
void query_unknown_end(struct query_unknown *u, struct query_omitted *out);

/* list's answer for q, its columns cols (ncols; spec->cols are the first
 * spec->ncols of them): a grouping through query_group_list, else
 * query_build's statement through query_list.  counts (may be NULL) gets
 * what the run counted on its way, else -1 each: a grouping counts every
 * offer, provider and group that matched whatever the limit (list's
 * footer then needs no query_count).  omitted (may be NULL) gets the
 * offers left out as unknown (query_omitted's answer) when the run counted
 * them on its way (a grouping does, in its one scan), else counted 0. */
enum gc_status query_run(struct cache *c, const struct query *q,
			 const struct field *const *cols, size_t ncols,
			 const struct render_spec *spec, size_t *rows,
			 struct query_counts *counts, struct query_omitted *omitted,
			 char **err);
/* The rows of query_build's grouped statement for q (what --explain prints),
 * row for row, in one pass over the offers the filters keep, read in table
 * order, and a second over the same offers only when the regions of a
 * group are printed or sorted on (query_group.c): no SQL sort, no
 * temporary table; memory holds the groups and, for the regions, the
 * (group, region) pairs (docs/PERFORMANCE.md, "The grouped view").
 * counts and omitted as query_run's (not touched with a limit of 0). */
enum gc_status query_group_list(struct cache *c, const struct query *q,
				const struct field *const *cols, size_t ncols,
				const struct render_spec *spec, size_t *rows,
				struct query_counts *counts, struct query_omitted *omitted,
				char **err);

#define QUERY_MAX_STALE 64

/* How old the cache's data is, from the small provider_state table (never
 * a scan of the offers), for list's footer. */
struct query_age {
	int refreshed;            /* providers refreshed without a failure */
	long long oldest, newest; /* their fetched_at (Unix time; -1: unknown) */
	long snapshot_days;       /* the built-in snapshot's date (days since
				   * 1970) when offers from it remain, else -1 */
	char snapshot_date[11];   /* the same as YYYY-MM-DD, or "" */
	size_t nstale;            /* providers whose last refresh failed */
	char stale[QUERY_MAX_STALE][32]; /* their ids, sanitized, in order */
};
enum gc_status query_age(struct cache *c, struct query_age *a, char **err);
/* What the answer rests on, for a footer: "; 3 providers refreshed 2 h to
 * 5 h ago; built-in snapshot prices are from DATE (N days ago); stale (last
 * refresh failed): a, b; data older than 24 h is stale: run 'gpucmp
 * refresh'", each part only when it applies ("" when none does).  `now` in
 * Unix seconds, `today` in days since 1970, `stale_after` in seconds. */
void query_age_note(const struct query_age *age, long long now, long today,
		    long long stale_after, char *out, size_t n);
/* The same in few words, for a footer that must fit one narrow terminal
 * line: "; stale (2026-05-20, 12 undated, 1 failed): gpucmp refresh", the
 * oldest data's day, or "; data of 2026-12-02" when nothing is stale. */
void query_age_brief(const struct query_age *age, const struct query_counts *answer,
		     long long now, long long stale_after, char *out, size_t n);
/* The same, and the answer's own ages (answer may be NULL): "; 12 offers
 * of unknown date" when its sources named none, and the hint when its
 * oldest date is older than stale_after or any is unknown. */
void query_age_note_answer(const struct query_age *age, const struct query_counts *answer,
			   long long now, long today, long long stale_after, char *out, size_t n);

/* One provider of `providers`: its profile and its offers in the cache. */
struct query_provider {
	const struct profile *p; /* borrowed from the profile set */
	long long offers;
	double min_price_hr;     /* the cheapest on-demand price; NAN: none */
};

/* The providers of `ps` (in its order) that pass q's capability filters
 * (query_cap_profile) and q->where, compiled with query_provider_field
 * (over the cache's provider table); every other part of q is ignored.
 * *out is a new array (free it), NULL when *n is 0. */
enum gc_status query_providers(struct cache *c, const struct profile_set *ps,
			       const struct query *q, struct query_provider **out, size_t *n,
			       char **err);
/* where_compile's lookup and suggestion for providers --where (ctx: a
 * struct query_where whose provider ids `id` must be one of, or NULL): a field is
 * "group.key" (or "group_key", or the key alone), a key of the summary
 * (k8s, mig, ...: query_provider_fields), or "ib" and "billing". */
int query_provider_field(void *ctx, const char *name, struct where_field *out);
const char *query_provider_suggest(void *ctx, const char *name);
/* The summary providers shows, one field entry per column (key, header,
 * type, table rank; docs/OUTPUT.md): from QP_CAPS on, the profile paths
 * of query_provider_paths (NULL-terminated) in order. */
enum { QP_ID, QP_NAME, QP_KIND, QP_CAPS, QP_OFFERS = QP_CAPS + 9, QP_MIN_PRICE, QP_VERIFIED,
       QP_COUNT };
extern const struct field query_provider_fields[QP_COUNT];
extern const char *const query_provider_paths[];
/* The values of r's row, one per entry of query_provider_fields (strings
 * borrowed from r's profile). */
void query_provider_values(const struct query_provider *r, struct render_value *v);

/* A recommendation request (docs/RECOMMEND.md). */
struct query_rec {
	enum workload w;
	double gpus, nodes;   /* per node; nodes */
	double hours, budget; /* NAN: not given (budget needs hours) */
	size_t limit;         /* at most this many picks */
	struct rec_mem mem;   /* the memory need (recommend_memory); all zero:
			       * the workload's own want */
	enum query_price_type price_type; /* the prices ranked (--price-type) */
	int term_months;                  /* its term (reserved) */
	double disk_gb, egress_gb; /* --disk, --egress (need hours); NAN or 0: not
				    * part of the estimate */
};

struct query_rec_result {
	/* one per provider, by status (REC_RANKED first, then REC_UNVERIFIED
	 * ...; REC_NO_FIT and REC_NO_DATA last, with only provider and p set),
	 * within a status by rank (free it) */
	struct rec_pick *picks;
	size_t n;
	size_t count[REC_NSTATUS]; /* picks of each status */
};

/* Candidates for r: the cheapest region of each SKU that passes q (its
 * --gpu and --provider; recommend sets the GPU count and, for batch, the
 * sort), judged with the workload's checklist and price-performance,
 * each provider's best ranked (recommend_rank); then every provider of ps
 * that q names (all without --provider) but has no candidate, as
 * REC_NO_FIT or REC_NO_DATA. */
enum gc_status query_recommend(struct cache *c, const struct profile_set *ps, struct query *q,
			       const struct query_rec *r, struct query_rec_result *out,
			       char **err);

/* The JSON of recommend (docs/recommend.schema.json): a new reference,
 * NULL when out of memory. */
struct json_t *query_recommend_json(const struct query_rec *r,
				    const struct query_rec_result *res);

#endif
