/* cmd_list.c - gpucmp list: filter, sort and print offers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/cuda.h"
#include "gpucmp/field.h"
#include "gpucmp/query.h"
#include "gpucmp/strutil.h"

struct list_state {
	struct cli_env env;
	struct query q;
	const struct field **cols; /* shown (64 --columns, or every offer and
				    * group field), and price_kind for tables */
	int *ranks;                /* tables: when a narrow terminal drops each */
	size_t ncols;
	char *prov_store, *col_store, *sort_store;
	struct where_result where;
	int have_where;
	struct query_omitted om; /* left out as unknown: by query_run when it
				  * counted them on its way */
	int region_checked;      /* region_word_known has answered */
};

/* --hours, --nodes, --disk and --egress. */
static int cuda_and_cost(struct query *q, const struct cli_args *a)
{
	q->hours = cli_num(a, O_HOURS, q->hours);
	q->nodes = cli_num(a, O_NODES, q->nodes);
	int rc = cli_job_extras(a, q->hours, &q->disk_gb, &q->egress_gb);
	if (rc)
		return rc;
	if (!isnan(q->nodes) && isnan(q->hours)) {
		msg_error("--nodes needs --hours H");
		return EXIT_USAGE;
	}
	q->k8s_fee = (q->caps >> QC_K8S_MANAGED) & 1;
	query_prepare_fields(q);
	return EXIT_OK;
}

/* --max-age DURATION, else the config's stale_after: older data is stale. */
static int stale_age(struct list_state *s, const struct cli_args *a)
{
	const char *v = cli_opt(a, O_LIST_MAX_AGE);
	long long secs = v ? str_duration(v) : s->env.config.stale_after;
	if (v && secs <= 0) {
		char safe[64];
		msg_error("bad duration '%s' for --max-age (examples: 30m, 6h, 1d, 7d)",
			  str_sanitize(safe, sizeof safe, v));
		return EXIT_USAGE;
	}
	s->q.stale_after = secs > 0 ? secs : QUERY_STALE_AFTER;
	return EXIT_OK;
}

static int unknown_field(const char *opt, const char *key)
{
	char safe[64];
	const char *best = field_suggest(key);
	str_sanitize(safe, sizeof safe, key);
	if (best)
		msg_error("unknown field '%s' in --%s; did you mean '%s'?", safe, opt, best);
	else
		msg_error("unknown field '%s' in --%s; 'gpucmp help fields' lists them", safe, opt);
	return EXIT_USAGE;
}

/* A field of --columns or --sort: an offer field, or a group field (offers,
 * regions, ...) when the rows are groups.  NULL after an error message;
 * *rc is then the exit code. */
static const struct field *list_field(const struct list_state *s, const char *opt,
				      const char *key, int *rc)
{
	const struct field *f = field_find(key);
	const struct field *g = f ? NULL : group_field_find(key);
	*rc = EXIT_USAGE;
	if (g && s->q.group != QG_NONE)
		return g;
	if (g) {
		char safe[64];
		msg_error("'%s' in --%s is a field of groups: add --group-by (sku, provider, "
			  "gpu or region)", str_sanitize(safe, sizeof safe, key), opt);
		return NULL;
	}
	if (!f)
		unknown_field(opt, key);
	return f;
}

static int sort_keys(struct list_state *s, const struct cli_args *a)
{
	const char *keys[QUERY_MAX_SORT];
	int n = cli_split(a, O_SORT, &s->sort_store, keys, QUERY_MAX_SORT);
	if (n == CLI_SPLIT_NOMEM)
		return EXIT_OSERR;
	if (n < 0) {
		msg_error("too many --sort keys (at most %d)", QUERY_MAX_SORT);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		const char *k = keys[i];
		int desc = 0;
		if (*k == '-' || *k == '+')
			desc = *k++ == '-';
		int rc;
		const struct field *f = list_field(s, "sort", k, &rc);
		if (!f)
			return rc;
		/* "price" means the price the user is shopping for: spot with --spot */
		if (strcmp(k, "price") == 0)
			f = NULL;
		s->q.sort[s->q.nsort].field = f;
		s->q.sort[s->q.nsort++].desc = desc;
	}
	return 0;
}

static int columns(struct list_state *s, const struct cli_args *a, enum render_format fmt)
{
	const char *keys[64];
	int n = cli_split(a, O_COLUMNS, &s->col_store, keys, 64);
	if (n == CLI_SPLIT_NOMEM)
		return EXIT_OSERR;
	if (n < 0) {
		msg_error("too many --columns (at most 64)");
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		int rc;
		const struct field *f = list_field(s, "columns", keys[i], &rc);
		if (!f)
			return rc;
		s->cols[s->ncols++] = f;
	}
	if (n == 0 && render_for_people(fmt))
		s->ncols = query_table_columns(&s->q, s->cols, 64);
	for (size_t i = 0; n == 0 && !render_for_people(fmt) && i < offer_field_count; i++)
		s->cols[s->ncols++] = &offer_fields[i];
	/* a group object: its offer, then the group's members */
	for (size_t i = 0; n == 0 && !render_for_people(fmt) && s->q.group != QG_NONE &&
			   i < group_field_count;
	     i++)
		s->cols[s->ncols++] = &group_fields[i];
	return 0;
}

/* --where over the offer fields, provider values checked against the
 * profiles and the cache's providers (query_offer_field): after the cache
 * opens (--explain opens none). */
static int where(struct list_state *s, const struct cli_args *a)
{
	return cli_offer_where(&s->env, a, &s->q, &s->prov_store, &s->where, &s->have_where);
}

/* --group-by, --all-regions: a table shows one row per provider and SKU
 * unless asked; JSON, CSV and NDJSON one object per offer unless asked. */
static int grouping(struct query *q, const struct cli_args *a, enum render_format fmt)
{
	const char *g = cli_opt(a, O_GROUP_BY);
	int all = cli_flag(a, O_ALL_REGIONS);
	if (g && all && strcmp(g, "none") != 0) {
		msg_error("--all-regions lists every offer; it cannot go with --group-by %s",
			  g);
		return EXIT_USAGE;
	}
	q->group = g ? (enum query_group)query_group_find(g)
	       : all || !render_for_people(fmt) ? QG_NONE
					: QG_SKU;
	return EXIT_OK;
}

/* --price-kind KIND[,KIND] (the words checked as the option was read):
 * the kinds kept, `any` all of them; either way ranked by their number. */
static void price_kinds(struct query *q, const struct cli_args *a)
{
	const char *v = cli_opt(a, O_PRICE_KIND);
	char word[32];
	for (const char *p = v; p && *p; p += *p == ',') {
		size_t n = strcspn(p, ",");
		snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : 0), p);
		int k = query_price_kind_find(word);
		q->price_kinds |= strcmp(word, "any") == 0 ? QPK_ALL : k >= 0 ? 1u << k : 0;
		p += n;
	}
}

static int build_query(struct list_state *s, const struct cli_args *a,
		       enum render_format fmt)
{
	struct query *q = &s->q;
	query_init(q);
	int rc = cli_offer_numbers(q, a);
	if (!rc)
		rc = grouping(q, a, fmt);
	if (rc)
		return rc;
	q->limit = (long)cli_num(a, O_LIMIT, -1);
	q->include_unknown = cli_flag(a, O_INCLUDE_UNKNOWN);
	price_kinds(q, a);
	if ((rc = cli_price_type(a, q)) || (rc = cli_offer_filters(&s->env, a, q)) ||
	    (rc = sort_keys(s, a)) || (rc = stale_age(s, a)))
		return rc;
	return cuda_and_cost(q, a);
}

/* "3 of 29 rows (one per provider and SKU) for 418 offers from 2
 * providers": what the table shows of what matched. */
static void shown_note(const struct list_state *s, size_t rows, const struct query_counts *n,
		       char *out, size_t size)
{
	long long total = s->q.group == QG_NONE ? n->offers
			  : n->groups >= 0	 ? n->groups
						 : (long long)rows;
	int o = 0;
	if ((long long)rows < total)
		o = snprintf(out, size, "%zu of ", rows);
	if (o < 0 || (size_t)o >= size)
		return;
	if (s->q.group == QG_NONE)
		snprintf(out + o, size - (size_t)o, "%lld offer%s from %lld provider%s", total,
			 total == 1 ? "" : "s", n->providers, n->providers == 1 ? "" : "s");
	else
		snprintf(out + o, size - (size_t)o,
			 "%lld row%s (one per %s) for %lld offer%s from %lld provider%s", total,
			 total == 1 ? "" : "s", query_group_what(s->q.group), n->offers,
			 n->offers == 1 ? "" : "s", n->providers, n->providers == 1 ? "" : "s");
}

/* "gpucmp, lambda and vast" from the query's "gpucmp, lambda, vast". */
static void and_list(const char *in, char *out, size_t size)
{
	const char *last = strrchr(in, ',');
	if (!last)
		snprintf(out, size, "%s", in);
	else
		snprintf(out, size, "%.*s and %s", (int)(last - in), in, last + 2);
}

/* "no offers match: the cache holds no offers from aws": what --provider
 * alone leaves, with how to fill it. */
static void no_provider_offers(const struct query *q)
{
	char ids[200] = "", safe[48];
	size_t len = 0;
	for (size_t i = 0; i < q->nproviders && len < sizeof ids; i++) {
		int w = snprintf(ids + len, sizeof ids - len, "%s%s", i ? ", " : "",
				 str_sanitize(safe, sizeof safe, q->providers[i]));
		if (w < 0)
			break;
		len += (size_t)w;
	}
	const char *one = q->nproviders == 1 ? ids : "ID";
	msg_note("no offers match: the cache holds no offers from %s; 'gpucmp refresh %s' "
		 "fetches them ('gpucmp show %s' says if it needs a key)", ids, one, one);
}

/* "no offers match: --ib rules out all 6 offers that --gpu and --region
 * match": the filter that emptied the answer and the count before it. */
/* An unknown --region word (not a glob, a country, a continent, a geo nor
 * any offer's region) is refused: JSON, CSV and NDJSON ask before their
 * frame ([] or a header), a table after its empty answer (no_match).  A
 * word that names a country is known, whether or not an offer is there. */
static int region_word_known(struct list_state *s)
{
	int known = 1;
	char *err = NULL;
	if (!s->q.region_glob || strpbrk(s->q.region_glob, "*?[") || s->q.region_country ||
	    s->region_checked)
		return EXIT_OK;
	s->region_checked = 1;
	enum gc_status st = query_region_known(s->env.cache, s->q.region_glob, &known, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the cache");
		free(err);
		return exit_code_for(st);
	}
	return known ? EXIT_OK : cli_unknown_region(&s->env, s->q.region_glob);
}

static int no_match(struct list_state *s)
{
	struct query_empty e;
	char *err = NULL, what[64], after[200];
	enum gc_status st = query_empty_reason(s->env.cache, &s->q, &e, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the cache");
		free(err);
		return exit_code_for(st);
	}
	if (!*e.filter && e.before == 0 && query_price_view(&s->q)) {
		/* the answer read the offers at that price: none has one */
		msg_note("no offers match: no offer in the cache has a %s price%s (docs/OUTPUT.md, "
			 "\"Price types\", names the sources)",
			 query_price_type_names[s->q.price_type],
			 s->q.price_type == QPT_RESERVED ? " for that term" : "");
		return EXIT_OK;
	}
	if (!*e.filter) {
		msg_note(e.before == 0 ? "no offers match: the cache holds no offers; run 'gpucmp "
					 "refresh'"
				       : "no offers match");
		return EXIT_OK;
	}
	int rc = strcmp(e.filter, "--region") == 0 ? region_word_known(s) : EXIT_OK;
	if (rc)
		return rc;
	if (strcmp(e.filter, "--region") == 0 && s->q.region_glob)
		snprintf(what, sizeof what, "--region %.40s", s->q.region_glob);
	else
		snprintf(what, sizeof what, "%s", e.filter);
	and_list(e.after, after, sizeof after);
	const char *all = e.before == 1 ? "the" : "all";
	const char *offers = e.before == 1 ? "offer" : "offers";
	if (!*e.after && strcmp(e.filter, "--provider") == 0)
		/* --provider alone emptied it: none of them has an offer here */
		no_provider_offers(&s->q);
	else if (!*e.after)
		msg_note("no offers match: %s rules out %s %lld %s in the cache", what, all,
			 e.before, offers);
	else
		msg_note("no offers match: %s rules out %s %lld %s that %s match%s", what, all,
			 e.before, offers, after, strchr(e.after, ',') ? "" : "es");
	return EXIT_OK;
}

/* What list's filters left out as unknown, on stderr (cli_unknown_note). */
static int unknown_note(struct list_state *s)
{
	return cli_unknown_note(s->env.cache, &s->q, &s->om, NULL);
}

/* --explain: per filter, the offers it leaves out because their fact is
 * unknown ("-- --ib leaves out 19 offers of unknown value: lambda 17,
 * coreweave 1, vast 1"), after the SQL. */
static int explain_unknown(struct list_state *s, const struct cli_args *a)
{
	struct query_omitted om;
	char *err = NULL;
	/* --explain prints the SQL without a cache; the counts need one */
	int rc = s->env.cache ? EXIT_OK : cli_open_cache(&s->env, a);
	if (rc)
		return rc;
	enum gc_status st = query_omitted(s->env.cache, &s->q, &om, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the cache");
		free(err);
		return exit_code_for(st);
	}
	for (size_t i = 0; i < om.n; i++)
		printf("-- %s leaves out %lld offer%s of unknown value (--include-unknown keeps "
		       "them): %s\n", om.items[i].filter, om.items[i].offers,
		       om.items[i].offers == 1 ? "" : "s", om.items[i].providers);
	return EXIT_OK;
}

/* The footer in few words, cut to `width` cells: one terminal line. */
static void brief_footer(const struct list_state *s, size_t rows, const struct query_age *age,
			 const struct query_counts *n, size_t width)
{
	char line[400], ages[160];
	long long total = s->q.group == QG_NONE ? n->offers : n->groups >= 0 ? n->groups
									       : (long long)rows;
	query_age_brief(age, n, catalog_now(), s->q.stale_after, ages, sizeof ages);
	const char *what = s->q.group == QG_NONE ? "offer" : "row";
	const char *many = total == 1 ? "" : "s";
	int o = (long long)rows < total
			? snprintf(line, sizeof line, "%zu of %lld %ss", rows, total, what)
			: snprintf(line, sizeof line, "%lld %s%s", total, what, many);
	/* the offers behind the rows only when the whole fits: the age first */
	if (o > 0 && (size_t)o < sizeof line && s->q.group != QG_NONE &&
	    (size_t)o + strlen(ages) + 24 < width)
		o += snprintf(line + o, sizeof line - (size_t)o, ", %lld offer%s", n->offers,
			      n->offers == 1 ? "" : "s");
	if (o > 0 && (size_t)o < sizeof line)
		snprintf(line + o, sizeof line - (size_t)o, "%s", ages);
	struct buf b;
	buf_init(&b, 0);
	size_t room = width > 9 ? width - 9 : 1; /* "gpucmp: " and the cursor's cell */
	if (render_fit(&b, line, room) == GC_OK && b.ptr)
		msg_note("%s", b.ptr);
	else
		msg_note("%s", line);
	buf_free(&b);
}

/* One line on stderr: what was shown of what matched, the age of the data
 * (live or imported prices, the built-in snapshot's date, providers whose
 * last refresh failed).  Returns an exit code: a query that fails (out of
 * memory) would drop the warning that prices are old, so it is an error,
 * not a shorter note. */
static int footer(struct list_state *s, size_t rows, struct query_counts counts)
{
	if (rows == 0) {
		int rc = no_match(s);
		return rc ? rc : unknown_note(s);
	}
	struct query_age age;
	char *err = NULL;
	enum gc_status st = query_age(s->env.cache, &age, &err);
	/* a grouping counted as it went (query_run) */
	if (st == GC_OK && counts.offers < 0)
		st = query_count(s->env.cache, &s->q,
				 s->q.group != QG_NONE && (long)rows == s->q.limit, &counts, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the cache");
		free(err);
		return exit_code_for(st);
	}
	char note[640], shown[160];
	query_age_note_answer(&age, &counts, catalog_now(), s->env.cat.today, s->q.stale_after,
			      note, sizeof note);
	shown_note(s, rows, &counts, shown, sizeof shown);
	/* a terminal too narrow for the whole line gets it in few words, on one
	 * line ("gpucmp: 3 of 28 rows, 408 offers; snapshot 2026-05-20; stale:
	 * gpucmp refresh"); a pipe or a log always gets the whole line */
	int width = isatty(fileno(stderr)) ? render_term_width(stderr) : 0;
	if (width > 0 && strlen(shown) + strlen(note) + strlen(s->env.money_note) + 10 >
			     (size_t)width)
		brief_footer(s, rows, &age, &counts, (size_t)width);
	else
		msg_note("%s%s%s%s", shown, note, s->env.money_note[0] ? "; " : "",
			 s->env.money_note);
	return unknown_note(s);
}

static int run_query(struct list_state *s, const struct cli_args *a, enum render_format fmt)
{
	struct query_sql qs;
	char *err = NULL;
	/* a table marks auction floors and marketplace asks: price_kind is
	 * read past the shown columns */
	size_t nq = s->ncols;
	if (render_for_people(fmt))
		s->cols[nq++] = field_find("price_kind");
	for (size_t i = 0; i < s->ncols; i++)
		s->ranks[i] = query_column_rank(&s->q, s->cols[i]);
	if (cli_flag(a, O_EXPLAIN)) {
		enum gc_status st = query_build(&s->q, s->cols, nq, &qs, &err);
		if (st != GC_OK) {
			query_sql_release(&qs);
			int rc = cli_cache_failed(&s->env, NULL, st, err, "cannot list offers");
			free(err);
			return rc;
		}
		char *sql = query_inline(&qs);
		const char *why[QC_COUNT + 1];
		size_t nwhy = query_why(&s->q, why, QC_COUNT + 1);
		printf("%s;\n", sql ? sql : "");
		for (size_t i = 0; i < nwhy; i++)
			printf("-- %s\n", why[i]);
		free(sql);
		query_sql_release(&qs);
		return explain_unknown(s, a);
	}
	struct render_spec spec = {.format = fmt, .cols = s->cols, .ncols = s->ncols,
				   .out = stdout, .color = cli_use_color(a, stdout),
				   .width = render_term_width(stdout),
				   .keep_cols = cli_flag(a, O_COLUMNS), .money = s->env.money,
				   .ranks = s->ranks,
				   .kind_col = nq > s->ncols ? (int)nq : 0};
	struct render_seen seen;
	cli_legend_want(a, &s->env, &spec, &seen);
	size_t rows = 0;
	struct query_counts counts;
	int rc = render_for_people(fmt) ? EXIT_OK : region_word_known(s);
	if (rc)
		return rc;
	enum gc_status st = query_run(s->env.cache, &s->q, s->cols, nq, &spec, &rows, &counts,
				      &s->om, &err);
	if (st == GC_OK)
		cli_legend_print(&spec, rows);
	if (st != GC_OK) {
		rc = cli_cache_failed(&s->env, NULL, st, err, "cannot list offers");
		free(err);
		return rc;
	}
	if (render_for_people(fmt))
		return footer(s, rows, counts);
	/* JSON, CSV, NDJSON: stdout stays the answer alone; why nothing
	 * matched, and what was left out as unknown, go to stderr as a
	 * table's footer does (--quiet silences them) */
	rc = rows == 0 ? no_match(s) : EXIT_OK;
	return rc ? rc : unknown_note(s);
}

/* The config file's defaults (docs/CONFIG.md): sort for every format,
 * columns for tables only, so that JSON, CSV and NDJSON keep their
 * documented fields whatever a user's file says. */
static int config_defaults(struct list_state *s, struct cli_args *a, enum render_format fmt)
{
	int rc = cli_currency(&s->env);
	if (rc)
		return rc;
	rc = cli_default(a, O_SORT, s->env.config.sort);
	if (!rc && render_for_people(fmt))
		rc = cli_default(a, O_COLUMNS, s->env.config.columns);
	return rc;
}

int cmd_list(struct cli_args *a)
{
	if (a->npos) {
		char safe[64];
		msg_error("unexpected argument '%s' for 'list'; filters are options such as "
			  "--gpu h100",
			  str_sanitize(safe, sizeof safe, a->pos[0]));
		return EXIT_USAGE;
	}
	struct list_state s;
	memset(&s, 0, sizeof s);
	enum render_format fmt = cli_format(a);
	/* room for every offer and group field, or 64 --columns, and price_kind */
	size_t room = offer_field_count + group_field_count + 64 + 1;
	s.cols = calloc(room, sizeof *s.cols);
	s.ranks = calloc(room, sizeof *s.ranks);
	int rc = s.cols && s.ranks ? 0 : EXIT_OSERR;
	if (rc)
		msg_error("out of memory");
	else
		rc = cli_catalog(&s.env);
	if (!rc)
		rc = config_defaults(&s, a, fmt);
	if (!rc)
		rc = build_query(&s, a, fmt);
	if (!rc && !cli_flag(a, O_EXPLAIN))
		rc = cli_open_cache(&s.env, a);
	if (!rc)
		rc = where(&s, a);
	if (!rc)
		rc = columns(&s, a, fmt);
	if (!rc)
		rc = run_query(&s, a, fmt);
	free(s.prov_store);
	free(s.col_store);
	free(s.sort_store);
	free(s.cols);
	free(s.ranks);
	if (s.have_where)
		where_result_release(&s.where);
	cli_env_release(&s.env);
	return rc;
}

static const struct opt_def opt_sort = {.id = O_SORT, .name = "sort", .type = OPT_STRING,
	.arg = "FIELD[,-FIELD]", .hint = HINT_SORT,
	.help = "sort keys, '-' for descending (default: price)"};
static const struct opt_def opt_columns = {.id = O_COLUMNS, .name = "columns", .type = OPT_STRING,
	.arg = "FIELD[,FIELD]", .hint = HINT_FIELDS,
	.help = "fields to print (see 'gpucmp help fields')"};
static const struct opt_def opt_max_age = {.id = O_LIST_MAX_AGE, .name = "max-age",
	.type = OPT_STRING, .arg = "DURATION",
	.help = "data older than DURATION is stale (default 24h, or the config's stale_after)"};
static const struct opt_def opt_group_by = {.id = O_GROUP_BY, .name = "group-by", .type = OPT_ENUM,
	.arg = "KEY", .choices = query_group_names,
	.help = "one row per sku (provider and SKU: a table's default), provider, gpu, region, or "
	"none"};
static const struct opt_def opt_all_regions = {.id = O_ALL_REGIONS, .name = "all-regions",
	.type = OPT_BOOL, .help = "every offer, one row per region: --group-by none"};

static const struct opt_def opt_include_unknown = {.id = O_INCLUDE_UNKNOWN,
	.name = "include-unknown", .type = OPT_BOOL,
	.help = "a capability filter or region word also keeps the "
	"offers whose fact is unknown (a capability unstated, a region not placed), marked ?"};

static const char *const price_kind_choices[] = {"fixed", "marketplace", "auction_floor", "any",
						 NULL};
static const struct opt_def opt_price_kind = {.id = O_PRICE_KIND, .name = "price-kind",
	.type = OPT_STRING, .arg = "KIND[,KIND]", .choices = price_kind_choices,
	.help = "keep these kinds of price, ranked by number (default: all, auction floors last)"};

static const struct opt_use list_opts[] = {
	OPT_GROUP(opts_common), OPT_GROUP(opts_offer), OPT_GROUP(opts_filters), OPT_USE(opt_cuda),
	OPT_USE(opt_cuda_strict), OPT_USE(opt_hours),
	OPT_USE(opt_nodes), OPT_USE(opt_disk), OPT_USE(opt_egress), OPT_USE(opt_available),
	OPT_USE(opt_sort), OPT_USE(opt_limit),
	OPT_USE(opt_columns), OPT_USE(opt_group_by), OPT_USE(opt_all_regions),
	OPT_USE(opt_no_legend), OPT_GROUP(opts_output), OPT_USE(opt_max_age), OPT_USE(opt_explain),
	OPT_USE(opt_include_unknown), OPT_USE(opt_price_kind), OPT_USE(opt_price_type), OPT_END};

const struct cmd_entry cmd_list_entry = {
	.name = "list",
	.run = cmd_list,
	.usage = "list [options]",
	.summary = "List GPU offers, cheapest first, with what each provider gives you.",
	.detail =
		"Offers come from the cache (seeded from the built-in snapshot on first run).\n"
		"Capability columns join each offer with its provider's profile and GPU model:\n"
		"--mig keeps offers where the provider allows MIG and the GPU supports it.\n\n"
		"examples:\n"
		"  gpucmp list --k8s managed --mig\n"
		"  gpucmp list --gpu h100 --gpus 8 --max-price 40 --sort price --json\n"
		"  gpucmp list --provider lambda,azure --region us --spot --format csv",
	.opts = list_opts,
};
