/* cmd_history.c - gpucmp history: the price series of one offer, or the
 * cheapest price per GPU and provider per day, from the price history
 * (docs/HISTORY.md); a sparkline on a terminal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/query_history.h"
#include "gpucmp/strutil.h"

enum { HISTORY_MAX_DAYS = 3660 };

/* One offer's events (docs/OUTPUT.md "history"). */
enum { E_PROVIDER, E_SKU, E_REGION, E_AT, E_CHANGE, E_WAS, E_PRICE, E_WAS_SPOT, E_SPOT,
       E_AVAILABLE, E_COUNT };
static const struct field event_fields[E_COUNT] = {
	[E_PROVIDER] = RENDER_COL("provider", "PROVIDER", FT_TEXT, 1),
	[E_SKU] = RENDER_COL("sku", "SKU", FT_TEXT, 1),
	[E_REGION] = RENDER_COL("region", "REGION", FT_TEXT, 1),
	[E_AT] = RENDER_COL("at", "AT", FT_TEXT, 1),
	[E_CHANGE] = RENDER_COL("change", "CHANGE", FT_TEXT, 1),
	[E_WAS] = RENDER_COL("was_price_hr", "WAS $/H", FT_PRICE, 2),
	[E_PRICE] = RENDER_COL("price_hr", "$/H", FT_PRICE, 1),
	[E_WAS_SPOT] = RENDER_COL("was_spot_price_hr", "WAS SPOT", FT_PRICE, 0),
	[E_SPOT] = RENDER_COL("spot_price_hr", "SPOT", FT_PRICE, 3),
	[E_AVAILABLE] = RENDER_COL("available", "AVAIL", FT_BOOL, 3),
};

/* The cheapest price per GPU, provider and day. */
enum { D_DATE, D_GPU, D_PROVIDER, D_MIN, D_COUNT };
static const struct field day_fields[D_COUNT] = {
	[D_DATE] = RENDER_COL("date", "DATE", FT_TEXT, 1),
	[D_GPU] = RENDER_COL("gpu", "GPU", FT_TEXT, 1),
	[D_PROVIDER] = RENDER_COL("provider", "PROVIDER", FT_TEXT, 1),
	[D_MIN] = RENDER_COL("min_price_hr", "MIN $/H", FT_PRICE, 1),
};

/* On a terminal: one row per GPU and provider with its trend. */
enum { T_GPU, T_PROVIDER, T_LOW, T_HIGH, T_LAST, T_TREND, T_COUNT };
static const struct field trend_fields[T_COUNT] = {
	[T_GPU] = RENDER_COL("gpu", "GPU", FT_TEXT, 1),
	[T_PROVIDER] = RENDER_COL("provider", "PROVIDER", FT_TEXT, 1),
	[T_LOW] = RENDER_COL("low", "LOW", FT_PRICE, 1),
	[T_HIGH] = RENDER_COL("high", "HIGH", FT_PRICE, 1),
	[T_LAST] = RENDER_COL("last", "LAST", FT_PRICE, 1),
	[T_TREND] = RENDER_COL("trend", "DAILY LOW", FT_TEXT, 1),
};

struct events_ctx {
	const struct query_event *v;
	char change[64];
};

static void event_row(void *ctx, size_t i, struct render_value *v)
{
	struct events_ctx *e = ctx;
	const struct query_event *x = &e->v[i];
	query_event_kind(x, e->change, sizeof e->change);
	v[E_PROVIDER] = RV_TEXT(x->provider);
	v[E_SKU] = RV_TEXT(x->sku);
	v[E_REGION] = RV_TEXT(x->region);
	v[E_AT] = RV_TEXT(x->at);
	v[E_CHANGE] = RV_TEXT(e->change);
	v[E_WAS] = RV_NUM(x->was_price_hr);
	v[E_PRICE] = RV_NUM(x->price_hr);
	v[E_WAS_SPOT] = RV_NUM(x->was_spot_price_hr);
	v[E_SPOT] = RV_NUM(x->spot_price_hr);
	v[E_AVAILABLE] = RV_NUM(x->available);
}

struct days_ctx {
	const struct query_daily *v;
	size_t ngroups, ndays;
	long first;
	size_t *rows; /* row i: group * ndays + day */
	char date[16], trend[3 * HISTORY_MAX_DAYS + 1];
	double low, high, last;
};

static void day_row(void *ctx, size_t i, struct render_value *v)
{
	struct days_ctx *d = ctx;
	size_t g = d->rows[i] / d->ndays, day = d->rows[i] % d->ndays;
	char t[32];
	str_time_format((d->first + (long)day) * 86400LL, t, sizeof t);
	snprintf(d->date, sizeof d->date, "%.10s", t);
	v[D_DATE] = RV_TEXT(d->date);
	v[D_GPU] = RV_TEXT(d->v[g].gpu);
	v[D_PROVIDER] = RV_TEXT(d->v[g].provider);
	v[D_MIN] = RV_NUM(d->v[g].min[day]);
}

static void trend_row(void *ctx, size_t i, struct render_value *v)
{
	struct days_ctx *d = ctx;
	const double *m = d->v[i].min;
	double low = NAN, high = NAN, last = NAN;
	for (size_t k = 0; k < d->ndays; k++) {
		if (isnan(m[k]))
			continue;
		low = isnan(low) || m[k] < low ? m[k] : low;
		high = isnan(high) || m[k] > high ? m[k] : high;
		last = m[k];
	}
	render_sparkline(m, d->ndays, d->trend, sizeof d->trend);
	v[T_GPU] = RV_TEXT(d->v[i].gpu);
	v[T_PROVIDER] = RV_TEXT(d->v[i].provider);
	v[T_LOW] = RV_NUM(low);
	v[T_HIGH] = RV_NUM(high);
	v[T_LAST] = RV_NUM(last);
	v[T_TREND] = RV_TEXT(d->trend);
}

/* A table on a terminal shows trends; anything else one row per day. */
static int trends(const struct cli_args *a)
{
	return cli_format(a) == RF_TABLE && isatty(fileno(stdout));
}

static int print_days(const struct cli_args *a, struct cli_env *env, struct days_ctx *d)
{
	if (trends(a))
		return cli_render(a, env, trend_fields, T_COUNT, d->ngroups, trend_row, d);
	size_t n = 0;
	d->rows = malloc((d->ngroups * d->ndays + 1) * sizeof *d->rows);
	if (!d->rows) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	for (size_t g = 0; g < d->ngroups; g++)
		for (size_t k = 0; k < d->ndays; k++)
			if (!isnan(d->v[g].min[k]))
				d->rows[n++] = g * d->ndays + k;
	int rc = cli_render(a, env, day_fields, D_COUNT, n, day_row, d);
	free(d->rows);
	return rc;
}

/* On a terminal, one line per offer above its events: the prices it had
 * (before the first event, then after each) as a sparkline. */
static void event_sparks(const struct query_event *v, size_t n)
{
	double p[64];
	char line[3 * 64 + 1];
	for (size_t i = 0, start = 0; i < n; i++) {
		size_t k = 0;
		const struct query_event *x = &v[i], *y = &v[i + 1];
		if (i + 1 < n && strcmp(y->provider, x->provider) == 0 &&
		    strcmp(y->sku, x->sku) == 0 && strcmp(y->region, x->region) == 0)
			continue;
		/* the last 63 events of the offer at v[start..i] */
		size_t from = i + 1 - start > 63 ? i - 62 : start;
		p[k++] = v[from].was_price_hr;
		for (size_t j = from; j <= i; j++)
			p[k++] = v[j].price_hr;
		printf("%s %s %s  %s\n", v[i].provider, v[i].sku, v[i].region,
		       render_sparkline(p, k, line, sizeof line));
		start = i + 1;
	}
}

static int run_events(struct cli_env *env, const struct cli_args *a, const struct query *q)
{
	struct query_sql qs;
	struct query_event *v = NULL;
	size_t n = 0;
	char *err = NULL;
	enum gc_status st = query_build_events(q, a->pos[0], a->pos[1],
					       a->npos > 2 ? a->pos[2] : NULL, &qs, &err);
	if (st == GC_OK && cli_flag(a, O_EXPLAIN))
		return cli_explain_sql(&qs);
	if (st == GC_OK)
		st = query_events(env->cache, &qs, &v, &n, &err);
	query_sql_release(&qs);
	if (st != GC_OK)
		return cli_history_failed(env, st, err);
	int rc = EXIT_OK;
	if (n && trends(a))
		event_sparks(v, n);
	struct events_ctx e = {.v = v};
	if (n || !render_for_people(cli_format(a)))
		rc = cli_render(a, env, event_fields, E_COUNT, n, event_row, &e);
	if (!n && render_for_people(cli_format(a)))
		msg_note("no price history for %s %s; history starts with the second refresh or "
			 "import of a provider", a->pos[0], a->pos[1]);
	query_events_release(v, n);
	return rc;
}

static int run_days(struct cli_env *env, const struct cli_args *a, const struct query *q,
		    double days)
{
	struct days_ctx d = {.ndays = (size_t)days};
	struct query_sql qs;
	struct query_daily *v = NULL;
	char *err = NULL, since[32];
	long today = (long)(catalog_now() / 86400);
	d.first = today - (long)d.ndays + 1;
	str_time_format(d.first * 86400LL, since, sizeof since);
	enum gc_status st = query_build_daily(q, since, &qs, &err);
	if (st == GC_OK && cli_flag(a, O_EXPLAIN))
		return cli_explain_sql(&qs);
	if (st == GC_OK)
		st = query_daily(env->cache, &qs, d.first, d.ndays, &v, &d.ngroups, &err);
	query_sql_release(&qs);
	if (st != GC_OK)
		return cli_history_failed(env, st, err);
	d.v = v;
	int rc = print_days(a, env, &d);
	query_daily_release(v, d.ngroups);
	return rc;
}

static int history_args(const struct cli_args *a, double *days)
{
	if (a->npos == 1 || a->npos > 3) {
		msg_error("'history' takes PROVIDER SKU [REGION] (one offer's series), or none "
			  "(the cheapest price per GPU and provider per day)");
		return EXIT_USAGE;
	}
	*days = cli_num(a, O_DAYS, 30);
	if (a->npos && cli_flag(a, O_DAYS)) {
		msg_error("--days goes with the daily view; an offer's series shows every event "
			  "history keeps");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int run(struct cli_env *env, const struct cli_args *a, const struct query *q,
	       void *days)
{
	return a->npos ? run_events(env, a, q) : run_days(env, a, q, *(double *)days);
}

static int cmd_history(struct cli_args *a)
{
	double days;
	int rc = history_args(a, &days);
	return rc ? rc : cli_history_command(a, run, &days);
}

static const struct opt_def opt_days = {.id = O_DAYS, .name = "days", .type = OPT_NUMBER,
	.arg = "N", .num = OPT_WHOLE(1, HISTORY_MAX_DAYS),
	.help = "the daily view covers the last N days, today included (default 30)"};

static const struct opt_use history_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_days), OPT_GROUP(opts_offer), OPT_GROUP(opts_filters),
	OPT_USE(opt_cuda), OPT_USE(opt_cuda_strict), OPT_USE(opt_available),
	OPT_GROUP(opts_output), OPT_USE(opt_explain), OPT_END};

static const struct arg_hint history_args_hint[] = {
	ARG_HINT(ARG_PROVIDERS, 1, "provider id"), ARG_END};

const struct cmd_entry cmd_history_entry = {
	.name = "history",
	.run = cmd_history,
	.usage = "history [PROVIDER SKU [REGION]] [options]",
	.summary = "Price history: one offer's series, or the cheapest price per GPU and day.",
	.detail =
		"Every refresh and import records what it changed per offer (docs/HISTORY.md).\n"
		"With PROVIDER SKU [REGION]: that offer's events, oldest first.  Without: the\n"
		"cheapest price of the offers the filters select, per GPU, provider and day;\n"
		"on a terminal one row per GPU and provider with a sparkline of the days,\n"
		"through a pipe (and as JSON or CSV) one row per day.\n\n"
		"examples:\n"
		"  gpucmp history --gpu h100 --gpus 8 --days 30\n"
		"  gpucmp history lambda gpu_8x_h100_sxm5 us-east-1 --json",
	.opts = history_opts,
	.args = history_args_hint,
};
