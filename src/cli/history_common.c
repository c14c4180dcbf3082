/* history_common.c - what the history commands share (changes, history,
 * refresh --changes): the offer query over the history with list's filters,
 * the command frame that opens the cache for it, the changes table and its
 * rendering, --explain's SQL and the history's read error (docs/HISTORY.md). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/query_history.h"

enum { C_CHANGE, C_PROVIDER, C_SKU, C_GPU, C_GPU_COUNT, C_REGION, C_WAS, C_PRICE, C_WAS_SPOT,
       C_SPOT, C_WAS_AVAILABLE, C_AVAILABLE, C_AT, C_COUNT };

/* docs/OUTPUT.md "changes"; docs/changes.schema.json. */
static const struct field changes_fields[C_COUNT] = {
	[C_CHANGE] = RENDER_COL("change", "CHANGE", FT_TEXT, 1),
	[C_PROVIDER] = RENDER_COL("provider", "PROVIDER", FT_TEXT, 1),
	[C_SKU] = RENDER_COL("sku", "SKU", FT_TEXT, 1),
	[C_GPU] = RENDER_COL("gpu", "GPU", FT_TEXT, 2),
	[C_GPU_COUNT] = RENDER_COL("gpu_count", "GPUS", FT_NUM, 2),
	[C_REGION] = RENDER_COL("region", "REGION", FT_TEXT, 2),
	[C_WAS] = RENDER_COL("was_price_hr", "WAS $/H", FT_PRICE, 1),
	[C_PRICE] = RENDER_COL("price_hr", "NOW $/H", FT_PRICE, 1),
	[C_WAS_SPOT] = RENDER_COL("was_spot_price_hr", "WAS SPOT", FT_PRICE, 4),
	[C_SPOT] = RENDER_COL("spot_price_hr", "NOW SPOT", FT_PRICE, 4),
	[C_WAS_AVAILABLE] = RENDER_COL("was_available", "WAS AVAIL", FT_BOOL, 0),
	[C_AVAILABLE] = RENDER_COL("available", "AVAIL", FT_BOOL, 5),
	[C_AT] = RENDER_COL("at", "AT", FT_TEXT, 3),
};

static void change_row(void *ctx, size_t i, struct render_value *v)
{
	const struct query_change *c = (const struct query_change *)ctx + i;
	v[C_CHANGE] = RV_TEXT(c->change);
	v[C_PROVIDER] = RV_TEXT(c->provider);
	v[C_SKU] = RV_TEXT(c->sku);
	v[C_GPU] = RV_TEXT(c->gpu);
	v[C_GPU_COUNT] = RV_NUM(c->gpu_count);
	v[C_REGION] = RV_TEXT(c->region);
	v[C_WAS] = RV_NUM(c->was_price_hr);
	v[C_PRICE] = RV_NUM(c->price_hr);
	v[C_WAS_SPOT] = RV_NUM(c->was_spot_price_hr);
	v[C_SPOT] = RV_NUM(c->spot_price_hr);
	v[C_WAS_AVAILABLE] = RV_NUM(c->was_available);
	v[C_AVAILABLE] = RV_NUM(c->available);
	v[C_AT] = RV_TEXT(c->at);
}

int cli_changes_query(struct cli_env *env, const struct cli_args *a, struct query *q)
{
	query_init(q);
	int rc = cli_offer_numbers(q, a);
	if (!rc)
		rc = cli_offer_filters(env, a, q);
	q->limit = (long)cli_num(a, O_LIMIT, -1);
	query_prepare_fields(q);
	return rc;
}

int cli_history_failed(struct cli_env *env, enum gc_status st, char *err)
{
	int rc = cli_cache_failed(env, NULL, st, err, "cannot read the price history");
	free(err);
	return rc;
}

int cli_explain_sql(struct query_sql *qs)
{
	char *sql = query_inline(qs);
	query_sql_release(qs);
	if (!sql) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	printf("%s;\n", sql);
	free(sql);
	return EXIT_OK;
}

int cli_changes_print(struct cli_env *env, const struct cli_args *a, const struct query *q,
		      const char *since, long long after, int print, size_t *count)
{
	struct query_sql qs;
	struct query_change *v = NULL;
	char *err = NULL;
	*count = 0;
	enum gc_status st = since ? query_build_changes(q, since, &qs, &err)
				  : query_build_changes_after(q, after, &qs, &err);
	if (st == GC_OK && cli_flag(a, O_EXPLAIN))
		return cli_explain_sql(&qs);
	if (st == GC_OK)
		st = query_changes(env->cache, &qs, &v, count, &err);
	query_sql_release(&qs);
	if (st != GC_OK)
		return cli_history_failed(env, st, err);
	int rc = EXIT_OK;
	if (print && (*count || !render_for_people(cli_format(a))))
		rc = cli_render(a, env, changes_fields, C_COUNT, *count, change_row, v);
	if (print && !*count && render_for_people(cli_format(a)))
		msg_note("no changes since %s", since ? since : "the refresh began");
	query_changes_release(v, *count);
	return rc;
}

int cli_history_command(struct cli_args *a, cli_history_fn run, void *ctx)
{
	struct cli_env env;
	struct query q;
	struct where_result where;
	int have_where = 0;
	char *prov = NULL;
	int rc = cli_env_start(&env, 0);
	if (!rc)
		rc = cli_changes_query(&env, a, &q);
	if (!rc && !cli_flag(a, O_EXPLAIN))
		rc = cli_open_cache(&env, a);
	if (!rc)
		rc = cli_offer_where(&env, a, &q, &prov, &where, &have_where);
	if (!rc)
		rc = run(&env, a, &q, ctx);
	if (have_where)
		where_result_release(&where);
	free(prov);
	cli_env_release(&env);
	return rc;
}
