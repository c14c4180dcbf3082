/* query.c - compile list filters and sort keys to parameterized SQL. */
#include "gpucmp/query.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/gpu_spec.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

void query_init(struct query *q)
{
	memset(q, 0, sizeof *q);
	q->min_gpus = NAN;
	q->max_gpus = NAN;
	q->min_vram = NAN;
	q->max_price = NAN;
	q->limit = -1;
	q->hours = NAN;
	q->nodes = NAN;
	q->disk_gb = NAN;
	q->egress_gb = NAN;
	q->stale_after = QUERY_STALE_AFTER;
	query_prepare_fields(q);
}

enum gc_status query_set_gpus(struct query *q, const struct gpu_spec *s, char **err)
{
	_Static_assert(QUERY_MAX_GPUS >= GPU_SPEC_MAX, "q->gpus holds every model of a --gpu");
	q->ngpus = 0;
	for (size_t i = 0; i < s->nids; i++)
		q->gpus[q->ngpus++] = s->ids[i];
	if (!isnan(s->min_count) && !(q->min_gpus > s->min_count))
		q->min_gpus = s->min_count;
	q->max_gpus = s->max_count;
	if (q->min_gpus > q->max_gpus)
		return err_set(err, GC_EUSAGE, "--gpus %g asks for more GPUs than --gpu's count "
			       "(at most %g); drop one of them", q->min_gpus, q->max_gpus);
	return GC_OK;
}

void query_prepare_fields(struct query *q)
{
	/* as_of is RFC 3339 UTC: text order is time order */
	char before[32];
	str_time_format(catalog_now() - (q->stale_after > 0 ? q->stale_after : QUERY_STALE_AFTER),
			before, sizeof before);
	snprintf(q->sql_stale, sizeof q->sql_stale, "(stale OR as_of IS NULL OR as_of < '%s')",
		 before);
	if (q->cuda_num > 0)
		/* the source's max CUDA is major.minor: compare without the patch */
		snprintf(q->sql_cuda_ok, sizeof q->sql_cuda_ok,
			 "(CASE WHEN gpu_cuda_last < %lld THEN 0"
			 " WHEN max_cuda_num IS NOT NULL THEN max_cuda_num >= %lld"
			 " WHEN driver_num IS NOT NULL THEN driver_num >= %lld END)",
			 q->cuda_num / 1000000, q->cuda_num / 1000 * 1000, q->cuda_min_driver_num);
	else
		snprintf(q->sql_cuda_ok, sizeof q->sql_cuda_ok, "NULL");
	query_prepare_cost(q);
}

/* The estimate's parts as SQL over offer_v (docs/OUTPUT.md, "The job's
 * cost"), each NULL where its fact is unknown: the GPUs (price x hours x
 * nodes), the control plane (its fee x hours, with --k8s managed, else 0),
 * block storage (--disk GB x $/GB-month x hours / 730, else 0) and egress
 * (what --egress GB leaves over the monthly free allowance x $/GB, else 0).
 * The totals add the known parts; cost_complete says whether all were. */
static void cost_parts(const struct query *q, char *cp, size_t ncp, char *disk, size_t ndisk,
		       char *egress, size_t negress)
{
	double h = q->hours, d = q->disk_gb, e = q->egress_gb;
	if (q->k8s_fee)
		snprintf(cp, ncp, "k8s_fee_hr * %.17g", h);
	else
		snprintf(cp, ncp, "0");
	if (isnan(d) || d <= 0)
		snprintf(disk, ndisk, "0");
	else
		snprintf(disk, ndisk, "storage_usd_gb_month * %.17g * %.17g / 730.0", d, h);
	if (isnan(e))
		snprintf(egress, negress, "0");
	else /* free egress, or within the allowance: 0 whatever else is unknown */
		snprintf(egress, negress,
			 "CASE WHEN %.17g <= 0 OR egress_usd_gb = 0"
			 " OR egress_free_gb_month >= %.17g THEN 0"
			 " ELSE (%.17g - egress_free_gb_month) * egress_usd_gb END",
			 e, e, e);
}

void query_prepare_cost(struct query *q)
{
	static const char null[] = "NULL";
	if (isnan(q->hours)) {
		snprintf(q->sql_cost, sizeof q->sql_cost, "%s", null);
		snprintf(q->sql_spot_cost, sizeof q->sql_spot_cost, "%s", null);
		snprintf(q->sql_cost_gpu, sizeof q->sql_cost_gpu, "%s", null);
		snprintf(q->sql_cost_cp, sizeof q->sql_cost_cp, "%s", null);
		snprintf(q->sql_cost_disk, sizeof q->sql_cost_disk, "%s", null);
		snprintf(q->sql_cost_egress, sizeof q->sql_cost_egress, "%s", null);
		snprintf(q->sql_cost_complete, sizeof q->sql_cost_complete, "%s", null);
		return;
	}
	double n = isnan(q->nodes) ? 1 : q->nodes;
	char cp[64], disk[96], egress[224];
	cost_parts(q, cp, sizeof cp, disk, sizeof disk, egress, sizeof egress);
	snprintf(q->sql_cost_gpu, sizeof q->sql_cost_gpu, "ROUND(price_hr * %.17g * %.17g, 2)",
		 q->hours, n);
	snprintf(q->sql_cost_cp, sizeof q->sql_cost_cp, "ROUND(%s, 2)", cp);
	snprintf(q->sql_cost_disk, sizeof q->sql_cost_disk, "ROUND(%s, 2)", disk);
	snprintf(q->sql_cost_egress, sizeof q->sql_cost_egress, "ROUND(%s, 2)", egress);
	/* the known parts; an unknown one is left out and cost_complete is false */
	const char *price[] = {"price_hr", "spot_price_hr"};
	char *out[] = {q->sql_cost, q->sql_spot_cost};
	for (int i = 0; i < 2; i++)
		snprintf(out[i], sizeof q->sql_cost,
			 "ROUND(%s * %.17g * %.17g + COALESCE(%s, 0) + COALESCE(%s, 0)"
			 " + COALESCE(%s, 0), 2)", price[i], q->hours, n, cp, disk, egress);
	snprintf(q->sql_cost_complete, sizeof q->sql_cost_complete,
		 "((%s) IS NOT NULL AND (%s) IS NOT NULL AND (%s) IS NOT NULL)", cp, disk, egress);
}

/* Profile number at path, NAN when unknown or without a profile. */
static double profile_number(const struct profile *p, const char *path)
{
	const struct pvalue *v = p ? profile_value(p, profile_field_index(path)) : NULL;
	return v && v->known ? v->number : NAN;
}

void query_job_cost(double hours, double hourly, int k8s_fee, double disk_gb, double egress_gb,
		    const struct profile *p, struct job_cost *out)
{
	double fee = profile_number(p, "kubernetes.control_plane_fee_usd_hr");
	double store = profile_number(p, "costs.block_storage_usd_gb_month");
	double rate = profile_number(p, "costs.egress_usd_gb");
	double free_gb = profile_number(p, "costs.egress_free_gb_month");
	out->gpu = hourly * hours;
	out->k8s_fee = k8s_fee ? fee * hours : 0;
	out->disk = isnan(disk_gb) || disk_gb <= 0 ? 0 : store * disk_gb * hours / 730.0;
	if (isnan(egress_gb) || egress_gb <= 0 || rate == 0 || free_gb >= egress_gb)
		out->egress = 0; /* free, or within the allowance, whatever else is unknown */
	else
		out->egress = (egress_gb - free_gb) * rate; /* NAN when either is */
	const double parts[] = {out->k8s_fee, out->disk, out->egress};
	out->total = out->gpu;
	out->complete = 1;
	for (size_t i = 0; i < 3; i++) {
		if (isnan(parts[i]))
			out->complete = 0;
		else
			out->total += parts[i];
	}
}

const char *query_field_sql(const struct query *q, const struct field *f)
{
	/* the fields whose SQL the query's options make (query_prepare_fields) */
	static const struct {
		const char *key;
		size_t off;
	} made[] = {
		{"cuda_ok", offsetof(struct query, sql_cuda_ok)},
		{"stale", offsetof(struct query, sql_stale)},
		{"est_cost_usd", offsetof(struct query, sql_cost)},
		{"est_spot_cost_usd", offsetof(struct query, sql_spot_cost)},
		{"cost_gpu_usd", offsetof(struct query, sql_cost_gpu)},
		{"cost_k8s_fee_usd", offsetof(struct query, sql_cost_cp)},
		{"cost_disk_usd", offsetof(struct query, sql_cost_disk)},
		{"cost_egress_usd", offsetof(struct query, sql_cost_egress)},
		{"cost_complete", offsetof(struct query, sql_cost_complete)},
	};
	for (size_t i = 0; i < sizeof made / sizeof made[0]; i++)
		if (strcmp(f->key, made[i].key) == 0)
			return (const char *)q + made[i].off;
	return f->sql;
}

/* Add id (a copy, owned by w) to the n ids of *list, unless it is there. */
static enum gc_status add_id(struct query_where *w, const char ***list, size_t *n,
			     const char *id, char **err)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], id) == 0)
			return GC_OK;
	char **o = realloc(w->owned, (w->nowned + 1) * sizeof *o);
	if (o)
		w->owned = o;
	const char **ids = o ? realloc(*list, (*n + 2) * sizeof *ids) : NULL;
	if (ids)
		*list = ids;
	if (!ids || !(o[w->nowned] = strdup(id)))
		return err_set(err, GC_ENOMEM, "out of memory");
	ids[(*n)++] = o[w->nowned++];
	ids[*n] = NULL;
	return GC_OK;
}

/* Add the first column of each row of `sql` over cache c to *list. */
static enum gc_status cache_ids(struct query_where *w, const char *sql, const char ***list,
				size_t n, struct cache *c, char **err)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(cache_db(c), sql, -1, &s, NULL);
	enum gc_status st = GC_OK;
	while (rc == SQLITE_OK && st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		rc = SQLITE_OK;
		st = id ? add_id(w, list, &n, id, err) : GC_OK;
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
	enum gc_status st = GC_OK;
	if (c)
		st = cache_ids(w, "SELECT provider FROM provider_state", &w->provider_ids, ps->n, c,
			       err);
	/* the countries data/regions.yaml knows, as the cache mirrors them */
	if (c && st == GC_OK)
		st = cache_ids(w, "SELECT code FROM country ORDER BY code", &w->country_codes, 0,
			       c, err);
	return st;
}

void query_where_release(struct query_where *w)
{
	for (size_t i = 0; i < w->nowned; i++)
		free(w->owned[i]);
	free(w->owned);
	free(w->provider_ids);
	free(w->country_codes);
	memset(w, 0, sizeof *w);
}

/* where_field.expand of gpu: a name the GPU table resolves as --gpu does
 * (gpu_spec_add; a count such as h100:8 is not a GPU) stands for its
 * models.  NULL, the name compared as it is (a source's name of a GPU the
 * table does not know), when it resolves to none. */
static const char *const *gpu_expand(void *ctx, const char *value)
{
	struct query_where *w = ctx;
	struct gpu_spec s;
	gpu_spec_init(&s);
	if (catalog_need(w->cat, CATALOG_GPUS, NULL) != GC_OK ||
	    gpu_spec_add(w->cat->gpus, value, &s, NULL) != GC_OK || !s.nids ||
	    !isnan(s.min_count) || !isnan(s.max_count))
		return NULL;
	memcpy(w->gpu_ids, s.ids, s.nids * sizeof *s.ids);
	w->gpu_ids[s.nids] = NULL;
	return w->gpu_ids;
}

/* where_field.expand of country: a country by any of its words (de, DEU,
 * germany, uk: country_find) is its code; NULL for a word that names none
 * (checked against the codes then). */
static const char *const *country_expand(void *ctx, const char *value)
{
	struct query_where *w = ctx;
	const struct country *c = catalog_need(w->cat, CATALOG_COUNTRIES, NULL) == GC_OK
					  ? country_find(w->cat->countries, value)
					  : NULL;
	if (!c)
		return NULL;
	w->country[0] = c->alpha2;
	w->country[1] = NULL;
	return w->country;
}

/* where_field.meant of country: the countries a word may have meant, by
 * their names (country_suggest: GER is DE, Germany; never a code one
 * letter off). */
static int country_meant(void *ctx, const char *value, char *buf, size_t size)
{
	struct query_where *w = ctx;
	const struct country *c[3];
	size_t n = catalog_need(w->cat, CATALOG_COUNTRIES, NULL) == GC_OK
			   ? country_suggest(w->cat->countries, value, c, 3)
			   : 0;
	size_t at = 0;
	for (size_t i = 0; i < n && at < size; i++) {
		int k = snprintf(buf + at, size - at, "%s%s (%s)",
				 i == 0 ? "" : i + 1 == n ? " or " : ", ", c[i]->alpha2,
				 c[i]->common ? c[i]->common : c[i]->name);
		if (k < 0)
			return 0;
		at += (size_t)k;
	}
	return n > 0;
}

int query_offer_field(void *ctx, const char *name, struct where_field *out)
{
	struct query_where *w = ctx;
	const struct field *f = field_find(name);
	if (!f)
		return -1;
	out->sql = query_field_sql(w->q, f);
	out->type = f->type;
	size_t i = 0;
	while (i < w->nused && w->used[i] != f)
		i++;
	if (i == w->nused && w->nused < sizeof w->used / sizeof w->used[0])
		w->used[w->nused++] = f;
	out->key = f->key;
	out->values = f->values;
	if (f->type == FT_ENUM)
		out->means = query_cap_means;
	if (strcmp(f->key, "provider") == 0 && w->provider_ids) {
		out->values = w->provider_ids;
		out->values_hint = "'gpucmp providers' lists them";
	}
	if (strcmp(f->key, "gpu") == 0 && w->cat) {
		out->expand = gpu_expand;
		out->expand_ctx = w;
	}
	if (strcmp(f->key, "country") == 0 && w->cat) {
		out->expand = country_expand;
		out->meant = country_meant;
		out->expand_ctx = w;
	}
	if (strcmp(f->key, "country") == 0 && w->country_codes) {
		out->values = w->country_codes;
		out->values_hint = "expected a country's code or name such as DE, DEU or germany "
				   "('gpucmp help regions' lists them)";
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
	int base; /* columns of table offer, not of the view (late_lookup) */
	enum gc_status st;
};

/* The view's columns that are one expression of table offer, as offer_v
 * computes them (cache_schema.c): what late_lookup's inner query may filter
 * and sort on. */
static const char *const base_cols[][2] = {
	{"id", "id"}, {"provider", "provider"}, {"sku", "sku"}, {"gpu_id", "gpu"},
	{"gpu_count", "gpu_count * gpu_fraction"}, {"gpu_mem_gb", "gpu_mem_gb"},
	{"region", "region"}, {"price_hr", "price_hr"}, {"spot_price_hr", "spot_price_hr"},
};

/* The offer-table expression of view column `col`, or NULL. */
static const char *base_col(const char *col)
{
	for (size_t i = 0; i < sizeof base_cols / sizeof base_cols[0]; i++)
		if (strcmp(base_cols[i][0], col) == 0)
			return base_cols[i][1];
	return NULL;
}


static void add(struct builder *b, const char *s)
{
	if (b->st == GC_OK)
		b->st = buf_addstr(&b->qs->sql, s);
}

/* Add view column col, or its offer-table expression in the inner query. */
static void add_col(struct builder *b, const char *col)
{
	const char *x = b->base ? base_col(col) : NULL;
	add(b, x ? x : col);
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
	clause(b, "");
	add_col(b, col);
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

/* --region: a glob (* ? [) matches the provider's region name; a word
 * matches that region name, or a country (its code, or the country
 * q->region_country that the word names otherwise), a continent or a geo
 * (docs/OUTPUT.md, "Locations"), whichever it is: "us" is the geo and the
 * country US, the same offers. */
static void region_clause(struct builder *b, const struct query *q)
{
	const char *v = q->region_glob;
	if (strpbrk(v, "*?[")) {
		clause(b, "lower(region) GLOB lower(");
		bind_text(b, v);
		add(b, ")");
		return;
	}
	clause(b, "(lower(region) = lower(");
	bind_text(b, v);
	if (q->region_country) {
		add(b, ") OR country = ");
		bind_text(b, q->region_country);
		add(b, " OR continent = lower(");
	} else {
		add(b, ") OR country = upper(");
		bind_text(b, v);
		add(b, ") OR continent = lower(");
	}
	bind_text(b, v);
	add(b, ") OR geo = lower(");
	bind_text(b, v);
	add(b, q->include_unknown ? ") OR " QUERY_REGION_UNKNOWN ")" : "))");
}

static void filters(struct builder *b, const struct query *q)
{
	/* canonical ids live in the indexed column gpu_id (gpu falls back to
	 * the source's name for unknown GPUs) */
	in_list(b, "gpu_id", q->gpus, q->ngpus);
	in_list(b, "provider", q->providers, q->nproviders);
	if (q->region_glob)
		region_clause(b, q);
	if (!isnan(q->min_gpus)) {
		clause(b, "");
		add_col(b, "gpu_count");
		add(b, " >= ");
		bind_num(b, q->min_gpus);
	}
	if (!isnan(q->max_gpus)) {
		clause(b, "");
		add_col(b, "gpu_count");
		add(b, " <= ");
		bind_num(b, q->max_gpus);
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
	if (q->price_kinds && q->price_kinds != QPK_ALL) {
		const char *kinds[QPK_COUNT];
		size_t n = 0;
		for (int i = 0; i < QPK_COUNT; i++)
			if (q->price_kinds & (1u << i))
				kinds[n++] = query_price_kind_names[i];
		in_list(b, "price_kind", kinds, n);
	}
	for (int i = 0; i < QC_COUNT; i++) {
		if (!(q->caps & (1u << i)))
			continue;
		if (!q->include_unknown) {
			clause(b, query_caps[i].offer_sql);
			continue;
		}
		clause(b, "(");
		add(b, query_caps[i].offer_sql);
		add(b, " OR ");
		add(b, query_caps[i].unknown);
		add(b, ")");
	}
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

const char *const query_price_kind_names[QPK_COUNT + 1] = {"fixed", "auction_floor",
							  "marketplace", NULL};

int query_price_kind_find(const char *name)
{
	for (int i = 0; i < QPK_COUNT; i++)
		if (strcmp(query_price_kind_names[i], name) == 0)
			return i;
	return -1;
}

const char *const query_price_type_names[QPT_COUNT + 1] = {
	"", "on_demand", "spot", "reserved", "capacity_block", "auction_floor", NULL};

int query_price_type_set(struct query *q, const char *word)
{
	size_t n = strcspn(word, ":");
	int t = -1;
	for (int i = 1; i < QPT_COUNT; i++)
		if (strlen(query_price_type_names[i]) == n &&
		    strncmp(query_price_type_names[i], word, n) == 0)
			t = i;
	if (t < 0)
		return -1;
	long term = 0;
	if (word[n] == ':') {
		char *end;
		term = strtol(word + n + 1, &end, 10);
		if (t != QPT_RESERVED || end == word + n + 1 || *end || !offer_term_ok((int)term))
			return t == QPT_RESERVED ? -2 : -1;
	} else if (t == QPT_RESERVED) {
		return -2;
	}
	q->price_type = (enum query_price_type)t;
	q->term_months = (int)term;
	/* one type a time: the kinds its rows are, ranked by their number */
	q->price_kinds = t == QPT_ON_DEMAND	 ? (1u << QPK_FIXED) | (1u << QPK_MARKETPLACE)
			 : t == QPT_AUCTION_FLOOR ? 1u << QPK_AUCTION_FLOOR
						 : QPK_ALL;
	return 0;
}

int query_price_view(const struct query *q)
{
	return q->price_type == QPT_SPOT || q->price_type == QPT_RESERVED ||
	       q->price_type == QPT_CAPACITY_BLOCK;
}

int query_floors_last(const struct query *q)
{
	return q->price_kinds == 0;
}

/* Is sort key i a price, before which auction floors rank last? */
static int price_key(const struct query *q, size_t i)
{
	const struct field *f = q->nsort ? q->sort[i].field : NULL;
	return query_floors_last(q) && (!f || f->type == FT_PRICE);
}

/* The order of sort key i: its SQL (NULL: the effective price) and
 * direction. */
static const char *sort_col(const struct query *q, size_t i, int *desc)
{
	const struct sort_key *k = q->nsort ? &q->sort[i] : NULL;
	*desc = k ? k->desc : 0;
	return k && k->field ? query_field_sql(q, k->field) : price_col(q);
}

/* The test of an auction floor (the word bound: the statement holds no
 * literal), over offer_v, or over table offer (`base`: the view's
 * fallback to the provider's profile written out); `not`: its negation. */
static void floor_test(struct builder *b, int base, int not)
{
	add(b, "(price_kind = ");
	bind_text(b, query_price_kind_names[QPK_AUCTION_FLOOR]);
	if (base) {
		add(b, " OR price_kind IS NULL AND provider IN (SELECT id FROM provider"
		       " WHERE billing_price_kind = ");
		bind_text(b, query_price_kind_names[QPK_AUCTION_FLOOR]);
		add(b, ")");
	}
	add(b, not ? ") IS NOT 1" : ")");
}

/* NULLs last in either direction, auction floors after the other prices
 * when `fl` (grouped: the column g_fl), then a fixed tie-break so the same
 * data always lists in the same order.  `alias` (grouped: the inner
 * query's "s"): key i is the column alias<i>, the tie-break t0..t4. */
static void order_by(struct builder *b, const struct query *q, const char *alias, int fl)
{
	add(b, " ORDER BY ");
	size_t n = q->nsort ? q->nsort : 1;
	for (size_t i = 0; i < n; i++) {
		int desc;
		const char *col = sort_col(q, i, &desc);
		char name[32];
		const struct field *f = q->nsort ? q->sort[i].field : NULL;
		if (alias && !field_is_group(f)) {
			snprintf(name, sizeof name, "%s%zu", alias, i);
			col = name;
		}
		add(b, i ? ", " : "");
		add_col(b, col);
		add(b, " IS NULL, ");
		if (fl && price_key(q, i)) {
			if (alias)
				add(b, "g_fl");
			else
				floor_test(b, 0, 0);
			add(b, ", ");
		}
		add_col(b, col);
		add(b, desc ? " DESC" : "");
	}
	add(b, alias ? ", t0, t1, t2, t3, t4" : ", provider, sku, region, ");
	if (!alias) {
		add_col(b, "gpu_count");
		add(b, ", id");
	}
}

static void limit(struct builder *b, const struct query *q)
{
	if (q->limit >= 0) {
		add(b, " LIMIT ");
		bind_num(b, (double)q->limit);
	}
}

int query_filters_on_offer(const struct query *q)
{
	/* a price kind is the profile's when the offer names none: the view's */
	/* a price view's prices are not table offer's */
	return !q->caps && q->cuda_num <= 0 && !q->where && !query_price_view(q) &&
	       !(q->region_glob && !strpbrk(q->region_glob, "*?[")) &&
	       !(q->price_kinds && q->price_kinds != QPK_ALL);
}

const char *query_offer_col(const char *col)
{
	return base_col(col);
}

/* Whether an ungrouped query's LIMIT can be found in table offer alone:
 * every filter and sort key is a column base_col() knows (filters() names
 * no other for these options). */
static int late_ok(const struct query *q)
{
	if (q->limit < 0 || !query_filters_on_offer(q))
		return 0;
	for (size_t i = 0; i < q->nsort; i++) {
		int desc;
		if (!base_col(sort_col(q, i, &desc)))
			return 0;
	}
	return 1;
}

/* The auction floors of table offer as a set of ids the arm looks up by
 * rowid: the offers that say so (the partial index offer_kind) and those
 * of a provider whose profile says so (offer_provider, through the join).
 * floor_test's one expression, read row by row, made the planner walk the
 * price index over every offer to find a handful (2 s at 10^6). */
static void floor_ids(struct builder *b)
{
	add(b, "id IN (SELECT id FROM offer WHERE price_kind = ");
	bind_text(b, query_price_kind_names[QPK_AUCTION_FLOOR]);
	add(b, " UNION ALL SELECT o.id FROM provider p JOIN offer o ON o.provider = p.id"
	       " WHERE p.billing_price_kind = ");
	bind_text(b, query_price_kind_names[QPK_AUCTION_FLOOR]);
	add(b, " AND o.price_kind IS NULL)");
}

/* The ids of the LIMIT in table offer among its auction floors (`floor`)
 * or among its other offers. */
static void late_arm(struct builder *b, const struct query *q, int floor)
{
	add(b, "SELECT id FROM (SELECT id FROM offer");
	b->nclauses = 0;
	b->base = 1;
	filters(b, q);
	clause(b, "");
	if (floor)
		floor_ids(b);
	else
		floor_test(b, 1, 1);
	order_by(b, q, NULL, 0);
	limit(b, q);
	b->base = 0;
	add(b, ")");
}

/* A late row lookup: the offers of the LIMIT found in table offer alone
 * (its indexes, no joins), the view computed for those rows only, not for
 * every match the sort reads (docs/PERFORMANCE.md).  When auction floors
 * rank last, the LIMIT is looked for among the other prices and among the
 * floors apart (each arm walks an index in its own order; the outer ORDER
 * BY puts the floors after), so that the floors' rank needs no sort of
 * every match. */
static void late_lookup(struct builder *b, const struct query *q)
{
	int split = 0;
	for (size_t i = 0; i < (q->nsort ? q->nsort : 1); i++)
		split |= price_key(q, i);
	if (!split) {
		add(b, " WHERE id IN (SELECT id FROM offer");
		b->base = 1;
		filters(b, q);
		order_by(b, q, NULL, 0);
		limit(b, q);
		b->base = 0;
		add(b, ")");
		return;
	}
	add(b, " WHERE id IN (");
	late_arm(b, q, 0);
	add(b, " UNION ALL ");
	late_arm(b, q, 1);
	add(b, ")");
}

static enum gc_status built(const struct builder *b, char **err)
{
	if (b->st == GC_EUSAGE)
		return err_set(err, GC_EUSAGE, "too many filter values");
	if (b->st != GC_OK)
		return err_set(err, b->st, "out of memory");
	return GC_OK;
}

const char *const query_group_names[QG_COUNT + 1] = {"none", "sku", "provider", "gpu",
						     "region", NULL};

/* Each grouping's key columns of offer_v, NULL-terminated. */
static const char *const group_keys[QG_COUNT][3] = {
	[QG_SKU] = {"provider", "sku", NULL},
	[QG_PROVIDER] = {"provider", NULL},
	[QG_GPU] = {"gpu", "gpu_count", NULL},
	[QG_REGION] = {"provider", "region", NULL},
};

int query_group_find(const char *name)
{
	for (int i = 0; i < QG_COUNT; i++)
		if (strcmp(query_group_names[i], name) == 0)
			return i;
	return -1;
}

const char *query_group_what(enum query_group g)
{
	static const char *const what[QG_COUNT] = {"offer", "provider and SKU", "provider",
						    "GPU model and count", "provider and region"};
	return g < QG_COUNT ? what[g] : "offer";
}

/* The group key as a list of columns: "provider, sku", or with `alias`
 * the inner query's names for them, "k0, k1". */
static void group_key(struct builder *b, enum query_group g, int alias)
{
	char name[16];
	for (size_t i = 0; group_keys[g][i]; i++) {
		snprintf(name, sizeof name, "k%zu", i);
		add(b, i ? ", " : "");
		add(b, alias ? name : group_keys[g][i]);
	}
}

/* The innermost query of a grouping, narrow (the wide columns are read
 * for the rows shown only): the sort keys s0.., the key k0.., the
 * tie-break t0..t4 (t4 the offer's id), the prices and g_rf, which is 1 on
 * a region's cheapest offer in its group (so regions count once). */
static void grouped_offers(struct builder *b, const struct query *q)
{
	char name[40];
	add(b, "SELECT ");
	for (size_t i = 0; i < (q->nsort ? q->nsort : 1); i++) {
		int desc;
		if (q->nsort && field_is_group(q->sort[i].field))
			continue; /* a group's own column, known only outside */
		snprintf(name, sizeof name, " AS s%zu, ", i);
		add(b, sort_col(q, i, &desc));
		add(b, name);
	}
	for (size_t i = 0; group_keys[q->group][i]; i++) {
		snprintf(name, sizeof name, " AS k%zu, ", i);
		add(b, group_keys[q->group][i]);
		add(b, name);
	}
	int fl = query_floors_last(q);
	add(b, "provider AS t0, sku AS t1, region AS t2, gpu_count AS t3, id AS t4, "
	       "price_hr AS g_od, spot_price_hr AS g_sp, ");
	add(b, price_col(q));
	add(b, " AS g_p, ");
	if (fl)
		floor_test(b, 0, 0);
	add(b, fl ? " AS g_fl, " : "0 AS g_fl, ");
	add(b, "row_number() OVER (PARTITION BY ");
	group_key(b, q->group, 0);
	add(b, ", region ORDER BY ");
	add(b, price_col(q));
	add(b, " IS NULL, ");
	if (fl) {
		floor_test(b, 0, 0);
		add(b, ", ");
	}
	add(b, price_col(q));
	add(b, ", id) = 1 AS g_rf FROM offer_v");
	filters(b, q);
}

/* The narrow offers of a grouping, written once to a temporary table
 * (g_base) that the groups and their region lists both read. */
static void grouped_base(struct builder *b, const struct query *q)
{
	add(b, "WITH g_base AS MATERIALIZED (");
	grouped_offers(b, q);
	add(b, ") ");
}

/* The key of the outer group row g0 matched in r: "r.k0 IS g0.k0 AND ...". */
static void same_group(struct builder *b, enum query_group g)
{
	char m[48];
	for (size_t i = 0; group_keys[g][i]; i++) {
		snprintf(m, sizeof m, "%sr.k%zu IS g0.k%zu", i ? " AND " : "", i, i);
		add(b, m);
	}
}

/* The groups, each its cheapest offer's id (t4) with the group's count,
 * regions and price range (of its prices other than auction floors when it
 * has any: g_fl), sorted and cut to the limit; then joined back
 * to offer_v by id for the shown columns.  The windows give one value
 * per partition (a frame over all of it is aggregated once); the list of
 * a group's regions is made once per group shown, from g_base, never
 * copied onto each of its offers (that copy made the view quadratic: 60
 * GB of temporary files at 5 x 10^5 offers). */
static void grouped(struct builder *b, const struct query *q)
{
	add(b, " FROM (SELECT g0.*, (SELECT group_concat(t2, char(31)) FROM (SELECT r.t2"
	       " FROM g_base r WHERE r.g_rf AND ");
	same_group(b, q->group);
	add(b, " ORDER BY r.g_p IS NULL, r.g_fl, r.g_p, r.t0, r.t1, r.t2, r.t3, r.t4))"
	       " AS g_regions FROM (SELECT * FROM (SELECT *, row_number() OVER w AS g_rn, "
	       "count(*) OVER a AS g_offers, sum(g_rf) OVER a AS g_nregions, "
	       "COALESCE(min(CASE WHEN g_fl THEN NULL ELSE g_od END) OVER a, min(g_od) OVER a)"
	       " AS g_min, "
	       "COALESCE(max(CASE WHEN g_fl THEN NULL ELSE g_od END) OVER a, max(g_od) OVER a)"
	       " AS g_max, "
	       "COALESCE(min(CASE WHEN g_fl THEN NULL ELSE g_sp END) OVER a, min(g_sp) OVER a)"
	       " AS g_smin FROM g_base");
	add(b, " WINDOW w AS (PARTITION BY ");
	group_key(b, q->group, 1);
	add(b, " ORDER BY g_p IS NULL, g_fl, g_p, t0, t1, t2, t3, t4), "
	       "a AS (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)) WHERE g_rn = 1");
	order_by(b, q, "s", 1);
	limit(b, q);
	add(b, ") g0) g JOIN offer_v ON offer_v.id = g.t4");
	order_by(b, q, "s", 1);
}

enum gc_status query_build(const struct query *q, const struct field *const *cols,
			   size_t ncols, struct query_sql *out, char **err)
{
	struct builder b = {out, 0, 0, GC_OK};
	int group = q->group > QG_NONE && q->group < QG_COUNT;
	buf_init(&out->sql, 0);
	out->nbinds = 0;
	if (group)
		grouped_base(&b, q);
	add(&b, "SELECT ");
	for (size_t i = 0; i < ncols; i++) {
		add(&b, i ? ", " : "");
		add(&b, query_field_sql(q, cols[i]));
	}
	if (group) {
		grouped(&b, q);
	} else {
		add(&b, " FROM offer_v");
		if (late_ok(q))
			late_lookup(&b, q);
		else
			filters(&b, q);
		order_by(&b, q, NULL, 1);
		limit(&b, q);
	}
	return built(&b, err);
}

enum gc_status query_build_count(const struct query *q, int groups, struct query_sql *out,
				 char **err)
{
	struct builder b = {out, 0, 0, GC_OK};
	buf_init(&out->sql, 0);
	out->nbinds = 0;
	add(&b, "SELECT count(*), count(DISTINCT provider), ");
	if (!groups) {
		add(&b, "NULL");
	} else if (q->group > QG_NONE && q->group < QG_COUNT) {
		add(&b, "count(DISTINCT ");
		for (size_t i = 0; group_keys[q->group][i]; i++) {
			/* quote(): a NULL key is a group of its own, as in PARTITION BY */
			add(&b, i ? " || ',' || quote(" : "quote(");
			add(&b, group_keys[q->group][i]);
			add(&b, ")");
		}
		add(&b, ")");
	} else {
		add(&b, "count(*)");
	}
	add(&b, ", min(as_of), count(*) - count(as_of) FROM offer_v");
	filters(&b, q);
	return built(&b, err);
}

enum gc_status query_add_filters(const struct query *q, struct query_sql *out, char **err)
{
	struct builder b = {out, 0, 0, GC_OK};
	filters(&b, q);
	return built(&b, err);
}

enum gc_status query_add_offer_filters(const struct query *q, struct query_sql *out,
				       char **err)
{
	struct builder b = {out, 0, 1, GC_OK};
	filters(&b, q);
	return built(&b, err);
}

enum gc_status query_add_param(struct query_sql *out, const char *text, double num, char **err)
{
	struct builder b = {out, 0, 0, GC_OK};
	if (text)
		bind_text(&b, text);
	else
		bind_num(&b, num);
	return built(&b, err);
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
		buf_add_sql_text(&out, x->text);
	}
	return buf_steal(&out);
}
