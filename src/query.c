/* query.c - compile list filters and sort keys to parameterized SQL. */
#include "gpucmp/query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/strutil.h"

void query_init(struct query *q)
{
	memset(q, 0, sizeof *q);
	q->min_gpus = NAN;
	q->min_vram = NAN;
	q->max_price = NAN;
	q->limit = -1;
	q->hours = NAN;
	q->nodes = NAN;
	q->stale_after = QUERY_STALE_AFTER;
	query_prepare_fields(q);
}

void query_prepare_fields(struct query *q)
{
	/* as_of is RFC 3339 UTC: text order is time order */
	char before[32];
	str_time_format(catalog_now() - (q->stale_after > 0 ? q->stale_after : QUERY_STALE_AFTER),
			before, sizeof before);
	snprintf(q->sql_stale, sizeof q->sql_stale, "(stale OR as_of < '%s')", before);
	if (q->cuda_num > 0)
		/* the source's max CUDA is major.minor: compare without the patch */
		snprintf(q->sql_cuda_ok, sizeof q->sql_cuda_ok,
			 "(CASE WHEN max_cuda_num IS NOT NULL THEN max_cuda_num >= %lld"
			 " WHEN driver_num IS NOT NULL THEN driver_num >= %lld END)",
			 q->cuda_num / 1000 * 1000, q->cuda_min_driver_num);
	else
		snprintf(q->sql_cuda_ok, sizeof q->sql_cuda_ok, "NULL");
	if (!isnan(q->hours)) {
		double n = isnan(q->nodes) ? 1 : q->nodes;
		char tail[96] = "";
		/* the managed control plane, once per cluster (unknown fees count 0) */
		if (q->k8s_fee)
			snprintf(tail, sizeof tail, " + COALESCE(k8s_fee_hr, 0) * %.17g", q->hours);
		snprintf(q->sql_cost, sizeof q->sql_cost, "ROUND(price_hr * %.17g * %.17g%s, 2)",
			 q->hours, n, tail);
		snprintf(q->sql_spot_cost, sizeof q->sql_spot_cost,
			 "ROUND(spot_price_hr * %.17g * %.17g%s, 2)", q->hours, n, tail);
	} else {
		snprintf(q->sql_cost, sizeof q->sql_cost, "NULL");
		snprintf(q->sql_spot_cost, sizeof q->sql_spot_cost, "NULL");
	}
}

const char *query_field_sql(const struct query *q, const struct field *f)
{
	if (strcmp(f->key, "cuda_ok") == 0)
		return q->sql_cuda_ok;
	if (strcmp(f->key, "stale") == 0)
		return q->sql_stale;
	if (strcmp(f->key, "est_cost_usd") == 0)
		return q->sql_cost;
	if (strcmp(f->key, "est_spot_cost_usd") == 0)
		return q->sql_spot_cost;
	return f->sql;
}

/* Add id (a copy) to w's n provider ids, unless it is there. */
static enum gc_status add_id(struct query_where *w, size_t *n, const char *id, char **err)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(w->provider_ids[i], id) == 0)
			return GC_OK;
	char **o = realloc(w->owned, (w->nowned + 1) * sizeof *o);
	if (o)
		w->owned = o;
	const char **ids = o ? realloc(w->provider_ids, (*n + 2) * sizeof *ids) : NULL;
	if (ids)
		w->provider_ids = ids;
	if (!ids || !(o[w->nowned] = strdup(id)))
		return err_set(err, GC_ENOMEM, "out of memory");
	ids[(*n)++] = o[w->nowned++];
	ids[*n] = NULL;
	return GC_OK;
}

/* Add the providers cache c holds data of (imports without a profile). */
static enum gc_status cache_ids(struct query_where *w, size_t n, struct cache *c, char **err)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(cache_db(c), "SELECT provider FROM provider_state", -1, &s,
				    NULL);
	enum gc_status st = GC_OK;
	while (rc == SQLITE_OK && st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		rc = SQLITE_OK;
		st = id ? add_id(w, &n, id, err) : GC_OK;
	}
	sqlite3_finalize(s);
	if (st == GC_OK && rc != SQLITE_OK && rc != SQLITE_DONE)
		st = err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			     "cannot read the cache: %s", sqlite3_errstr(rc));
	return st;
}

enum gc_status query_where_init(struct query_where *w, const struct query *q,
				const struct profile_set *ps, struct cache *c, char **err)
{
	memset(w, 0, sizeof *w);
	w->q = q;
	if (!ps)
		return GC_OK;
	w->provider_ids = calloc(ps->n + 1, sizeof *w->provider_ids);
	if (!w->provider_ids)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < ps->n; i++)
		w->provider_ids[i] = ps->items[i]->id;
	return c ? cache_ids(w, ps->n, c, err) : GC_OK;
}

void query_where_release(struct query_where *w)
{
	for (size_t i = 0; i < w->nowned; i++)
		free(w->owned[i]);
	free(w->owned);
	free(w->provider_ids);
	memset(w, 0, sizeof *w);
}

int query_offer_field(void *ctx, const char *name, struct where_field *out)
{
	const struct query_where *w = ctx;
	const struct field *f = field_find(name);
	if (!f)
		return -1;
	out->sql = query_field_sql(w->q, f);
	out->type = f->type;
	out->key = f->key;
	out->values = f->values;
	if (f->type == FT_ENUM)
		out->means = query_cap_means;
	if (strcmp(f->key, "provider") == 0 && w->provider_ids) {
		out->values = w->provider_ids;
		out->values_hint = "'gpucmp providers' lists them";
	}
	return 0;
}

const char *query_offer_suggest(void *ctx, const char *name)
{
	(void)ctx;
	return field_suggest(name);
}

struct builder {
	struct query_sql *qs;
	int nclauses;
	enum gc_status st;
};

static void add(struct builder *b, const char *s)
{
	if (b->st == GC_OK)
		b->st = buf_addstr(&b->qs->sql, s);
}

static void bind_text(struct builder *b, const char *v)
{
	if (b->qs->nbinds >= QUERY_MAX_BINDS) {
		b->st = GC_EUSAGE;
		return;
	}
	struct query_bind *x = &b->qs->binds[b->qs->nbinds++];
	x->is_text = 1;
	x->text = v;
	add(b, "?");
}

static void bind_num(struct builder *b, double v)
{
	if (b->qs->nbinds >= QUERY_MAX_BINDS) {
		b->st = GC_EUSAGE;
		return;
	}
	struct query_bind *x = &b->qs->binds[b->qs->nbinds++];
	x->is_text = 0;
	x->num = v;
	add(b, "?");
}

static void clause(struct builder *b, const char *s)
{
	add(b, b->nclauses++ ? " AND " : " WHERE ");
	add(b, s);
}

static void in_list(struct builder *b, const char *col, const char *const *vals, size_t n)
{
	if (!n)
		return;
	clause(b, col);
	add(b, " IN (");
	for (size_t i = 0; i < n; i++) {
		if (i)
			add(b, ", ");
		bind_text(b, vals[i]);
	}
	add(b, ")");
}

static const char *price_col(const struct query *q)
{
	return q->spot ? "spot_price_hr" : "price_hr";
}

static void filters(struct builder *b, const struct query *q)
{
	/* canonical ids live in the indexed column gpu_id (gpu falls back to
	 * the source's name for unknown GPUs) */
	in_list(b, "gpu_id", q->gpus, q->ngpus);
	in_list(b, "provider", q->providers, q->nproviders);
	if (q->region_glob) {
		clause(b, "lower(region) GLOB lower(");
		bind_text(b, q->region_glob);
		add(b, ")");
	}
	if (!isnan(q->min_gpus)) {
		clause(b, "gpu_count >= ");
		bind_num(b, q->min_gpus);
	}
	if (!isnan(q->min_vram)) {
		clause(b, "gpu_mem_gb >= ");
		bind_num(b, q->min_vram);
	}
	if (q->spot)
		clause(b, "spot_price_hr IS NOT NULL");
	if (!isnan(q->max_price)) {
		clause(b, price_col(q));
		add(b, " <= ");
		bind_num(b, q->max_price);
	}
	for (int i = 0; i < QC_COUNT; i++)
		if (q->caps & (1u << i))
			clause(b, query_caps[i].offer_sql);
	if (q->cuda_num > 0) {
		clause(b, q->sql_cuda_ok);
		add(b, q->cuda_strict ? " = 1" : " IS NOT 0");
	}
	if (q->where) {
		/* its SQL holds its own placeholders, in the order of its binds */
		clause(b, q->where->sql.ptr);
		for (size_t i = 0; i < q->where->nbinds && b->st == GC_OK; i++) {
			if (b->qs->nbinds >= QUERY_MAX_BINDS) {
				b->st = GC_EUSAGE;
				break;
			}
			struct query_bind *x = &b->qs->binds[b->qs->nbinds++];
			x->is_text = q->where->binds[i].is_text;
			x->text = q->where->binds[i].text;
			x->num = q->where->binds[i].num;
		}
	}
}

/* NULLs last in either direction, then a fixed tie-break so the same data
 * always lists in the same order. */
static void order_by(struct builder *b, const struct query *q)
{
	add(b, " ORDER BY ");
	size_t n = q->nsort ? q->nsort : 1;
	for (size_t i = 0; i < n; i++) {
		const struct sort_key *k = q->nsort ? &q->sort[i] : NULL;
		const char *col = k && k->field ? query_field_sql(q, k->field) : price_col(q);
		int desc = k ? k->desc : 0;
		add(b, i ? ", " : "");
		add(b, col);
		add(b, " IS NULL, ");
		add(b, col);
		add(b, desc ? " DESC" : "");
	}
	add(b, ", provider, sku, region, gpu_count, id");
}

enum gc_status query_build(const struct query *q, const struct field *const *cols,
			   size_t ncols, struct query_sql *out, char **err)
{
	struct builder b = {out, 0, GC_OK};
	buf_init(&out->sql, 0);
	out->nbinds = 0;
	add(&b, "SELECT ");
	for (size_t i = 0; i < ncols; i++) {
		if (i)
			add(&b, ", ");
		add(&b, query_field_sql(q, cols[i]));
	}
	add(&b, " FROM offer_v");
	filters(&b, q);
	order_by(&b, q);
	if (q->limit >= 0) {
		add(&b, " LIMIT ");
		bind_num(&b, (double)q->limit);
	}
	if (b.st == GC_EUSAGE)
		return err_set(err, GC_EUSAGE, "too many filter values");
	if (b.st != GC_OK)
		return err_set(err, b.st, "out of memory");
	return GC_OK;
}

void query_sql_release(struct query_sql *qs)
{
	buf_free(&qs->sql);
}

enum gc_status query_prepare(sqlite3 *db, const struct query_sql *qs,
			     sqlite3_stmt **stmt, char **err)
{
	if (sqlite3_prepare_v2(db, qs->sql.ptr, -1, stmt, NULL) != SQLITE_OK)
		return err_set(err, sqlite3_errcode(db) == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			       "cannot query the cache: %s", sqlite3_errmsg(db));
	for (int i = 0; i < qs->nbinds; i++) {
		const struct query_bind *x = &qs->binds[i];
		int rc = x->is_text ? sqlite3_bind_text(*stmt, i + 1, x->text, -1, SQLITE_STATIC)
			 : x->num == floor(x->num) && fabs(x->num) < 9e15
				 ? sqlite3_bind_int64(*stmt, i + 1, (sqlite3_int64)x->num)
				 : sqlite3_bind_double(*stmt, i + 1, x->num);
		if (rc != SQLITE_OK) {
			sqlite3_finalize(*stmt);
			*stmt = NULL;
			return err_set(err, GC_EIO, "cannot bind a query value");
		}
	}
	return GC_OK;
}

char *query_inline(const struct query_sql *qs)
{
	struct buf out;
	buf_init(&out, 0);
	int bi = 0;
	for (const char *p = qs->sql.ptr; p && *p; p++) {
		/* '?' only appears as a placeholder: literals in our SQL use no '?' */
		if (*p != '?' || bi >= qs->nbinds) {
			buf_addc(&out, *p);
			continue;
		}
		const struct query_bind *x = &qs->binds[bi++];
		if (!x->is_text) {
			buf_printf(&out, "%.15g", x->num);
			continue;
		}
		buf_addc(&out, '\'');
		for (const char *t = x->text; *t; t++) {
			if (*t == '\'')
				buf_addc(&out, '\'');
			buf_addc(&out, *t);
		}
		buf_addc(&out, '\'');
	}
	return buf_steal(&out);
}
