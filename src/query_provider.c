/* query_provider.c - providers: capability summary, offers and cheapest
 * price per provider, the capability filters and --where over the
 * provider table. */
#include "gpucmp/query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

const char *const query_provider_paths[] = {
	"kubernetes.mode", "docker.custom_image", "docker.daemon", "sharing.mig",
	"sharing.mps", "sharing.time_slicing", "interconnect.infiniband",
	"interconnect.rdma", "interconnect.nvlink", NULL};
_Static_assert(sizeof query_provider_paths / sizeof query_provider_paths[0] ==
		       QP_OFFERS - QP_CAPS + 1,
	       "a summary column per capability path");

const struct field query_provider_fields[QP_COUNT] = {
	RENDER_COL("id", "ID", FT_TEXT, 1),
	RENDER_COL("name", "NAME", FT_TEXT, 6),
	RENDER_COL("kind", "KIND", FT_TEXT, 5),
	/* QP_CAPS: query_provider_paths in order */
	RENDER_COL("k8s", "K8S", FT_ENUM, 1),
	RENDER_COL("docker_custom_image", "IMAGE", FT_YESNO, 2),
	RENDER_COL("docker_daemon", "DOCKERD", FT_ENUM, 3),
	RENDER_COL("mig", "MIG", FT_ENUM, 1),
	RENDER_COL("mps", "MPS", FT_ENUM, 3),
	RENDER_COL("time_slicing", "TSLICE", FT_ENUM, 3),
	RENDER_COL("infiniband", "IB", FT_ENUM, 2),
	RENDER_COL("rdma", "RDMA", FT_ENUM, 4),
	RENDER_COL("nvlink", "NVLINK", FT_ENUM, 0),
	[QP_OFFERS] = RENDER_COL("offers", "OFFERS", FT_NUM, 2),
	[QP_MIN_PRICE] = RENDER_COL("min_price_hr", "FROM $/H", FT_PRICE, 1),
	[QP_VERIFIED] = RENDER_COL("verified", "VERIFIED", FT_TEXT, 0),
};

void query_provider_values(const struct query_provider *r, struct render_value *v)
{
	v[QP_ID] = RV_TEXT(r->p->id);
	v[QP_NAME] = RV_TEXT(r->p->name);
	v[QP_KIND] = RV_TEXT(r->p->kind);
	for (size_t i = 0; query_provider_paths[i]; i++)
		v[QP_CAPS + i] = RV_TEXT(profile_text(r->p, query_provider_paths[i]));
	v[QP_OFFERS] = RV_NUM((double)r->offers);
	v[QP_MIN_PRICE] = RV_NUM(r->min_price_hr);
	v[QP_VERIFIED] = RV_TEXT(r->p->verified);
}

static const char *const extra_aliases[][2] = {
	{"ib", "interconnect.infiniband"}, {"billing", "billing.granularity"},
};

static const char *alias_path(const char *name)
{
	for (size_t i = 0; query_provider_paths[i]; i++)
		if (strcmp(name, query_provider_fields[QP_CAPS + i].key) == 0)
			return query_provider_paths[i];
	for (size_t i = 0; i < sizeof extra_aliases / sizeof extra_aliases[0]; i++)
		if (strcmp(name, extra_aliases[i][0]) == 0)
			return extra_aliases[i][1];
	return NULL;
}

/* The profile field `name` means: a path, an alias, "group_key" (the first
 * '_' that works) or a key alone ("gang_scheduling"); -1 if none. */
static int field_index(const char *name)
{
	char path[96];
	const char *aliased = alias_path(name);
	snprintf(path, sizeof path, "%s", aliased ? aliased : name);
	int idx = profile_field_index(path);
	for (char *u = path; idx < 0 && (u = strchr(u, '_')) != NULL; u++) {
		*u = '.';
		idx = profile_field_index(path);
		if (idx < 0)
			*u = '_';
	}
	for (size_t i = 0; idx < 0 && i < profile_field_count; i++)
		if (strcmp(profile_fields[i].key, name) == 0)
			idx = (int)i;
	return idx;
}

/* The summary key of profile field f ("k8s" for kubernetes.mode), the
 * name the capability filters know it by; NULL if it has none. */
static const char *summary_key(const struct pfield_def *f)
{
	char path[96];
	snprintf(path, sizeof path, "%s.%s", f->group, f->key);
	for (size_t i = 0; query_provider_paths[i]; i++)
		if (strcmp(path, query_provider_paths[i]) == 0)
			return query_provider_fields[QP_CAPS + i].key;
	return NULL;
}

static char where_sql[64][160]; /* per profile field: its SQL over the provider table */

int query_provider_field(void *ctx, const char *name, struct where_field *out)
{
	const struct query_where *w = ctx;
	static const char *const plain[] = {"id", "name", "kind", "verified", NULL};
	for (size_t i = 0; plain[i]; i++)
		if (strcmp(name, plain[i]) == 0) {
			out->sql = plain[i];
			out->type = FT_TEXT;
			/* an id is one of the profiles': a typo is an error, not "none" */
			if (i == 0 && w && w->provider_ids) {
				out->values = w->provider_ids;
				out->values_hint = "'gpucmp providers' lists them";
			}
			return 0;
		}
	int idx = field_index(name);
	if (idx < 0 || idx >= 64)
		return -1;
	const struct pfield_def *f = &profile_fields[idx];
	char col[64];
	snprintf(col, sizeof col, "%s%s%s", f->group, *f->group ? "_" : "", f->key);
	const char *fmt = f->kind == PF_BOOL ? "(CASE %s WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END)"
					     : "%s";
	snprintf(where_sql[idx], sizeof where_sql[idx], fmt, col);
	out->type = f->kind == PF_NUMBER ? FT_NUM
		  : f->kind == PF_BOOL	 ? FT_BOOL
		  : f->kind == PF_ENUM	 ? FT_ENUM
					 : FT_TEXT;
	out->sql = where_sql[idx];
	out->values = f->choices;
	out->key = summary_key(f);
	out->means = out->key ? query_cap_means : NULL;
	return 0;
}

const char *query_provider_suggest(void *ctx, const char *name)
{
	(void)ctx;
	static char paths[64][96]; /* suggest_try keeps the pointers */
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; query_provider_paths[i]; i++)
		suggest_try(&s, query_provider_fields[QP_CAPS + i].key);
	for (size_t i = 0; i < sizeof extra_aliases / sizeof extra_aliases[0]; i++)
		suggest_try(&s, extra_aliases[i][0]);
	for (size_t i = 0; i < profile_field_count && i < 64; i++) {
		snprintf(paths[i], sizeof paths[i], "%s%s%s", profile_fields[i].group,
			 *profile_fields[i].group ? "." : "", profile_fields[i].key);
		suggest_try(&s, paths[i]);
	}
	return suggest_best(&s);
}

static struct query_provider *find(struct query_provider *rows, size_t n, const char *id)
{
	for (size_t i = 0; id && i < n; i++)
		if (strcmp(rows[i].p->id, id) == 0)
			return &rows[i];
	return NULL;
}

static enum gc_status db_error(sqlite3 *db, const char *what, char **err)
{
	int code = sqlite3_errcode(db);
	return err_set(err, code == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO, "%s: %s", what,
		       sqlite3_errmsg(db));
}

/* Offer count and cheapest on-demand price per provider. */
static enum gc_status add_stats(sqlite3 *db, struct query_provider *rows, size_t n, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT provider, count(*), min(price_hr) FROM offer"
				   " GROUP BY provider", -1, &s, NULL) != SQLITE_OK)
		return db_error(db, "cannot read the cache", err);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct query_provider *r = find(rows, n, (const char *)sqlite3_column_text(s, 0));
		if (!r)
			continue;
		r->offers = sqlite3_column_int64(s, 1);
		if (sqlite3_column_type(s, 2) != SQLITE_NULL)
			r->min_price_hr = sqlite3_column_double(s, 2);
	}
	enum gc_status st = rc == SQLITE_DONE ? GC_OK : db_error(db, "cannot read the cache", err);
	sqlite3_finalize(s);
	return st;
}

/* Mark (hit = 1) the providers the compiled --where selects. */
static enum gc_status where_hits(sqlite3 *db, const struct where_result *w,
				 struct query_provider *rows, size_t n, unsigned char *hit,
				 char **err)
{
	struct query_sql qs;
	buf_init(&qs.sql, 0);
	qs.nbinds = 0;
	if (w->nbinds > QUERY_MAX_BINDS)
		return err_set(err, GC_EUSAGE, "too many filter values");
	for (size_t i = 0; i < w->nbinds; i++)
		qs.binds[qs.nbinds++] = (struct query_bind){w->binds[i].is_text, w->binds[i].text,
							    w->binds[i].num};
	if (buf_printf(&qs.sql, "SELECT id FROM provider WHERE %s", w->sql.ptr) != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	sqlite3_stmt *s = NULL;
	enum gc_status st = query_prepare(db, &qs, &s, err);
	buf_free(&qs.sql);
	if (st != GC_OK)
		return err_set(err, st, "cannot query providers: %s", sqlite3_errmsg(db));
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct query_provider *r = find(rows, n, (const char *)sqlite3_column_text(s, 0));
		if (r)
			hit[r - rows] = 1;
	}
	if (rc != SQLITE_DONE)
		st = db_error(db, "cannot query providers", err);
	sqlite3_finalize(s);
	return st;
}

/* Keep the rows the capability filters and --where select, in order. */
static enum gc_status narrow(sqlite3 *db, const struct query *q, struct query_provider *rows,
			     size_t *n, char **err)
{
	unsigned char *hit = calloc(*n ? *n : 1, 1);
	if (!hit)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum gc_status st = q->where ? where_hits(db, q->where, rows, *n, hit, err) : GC_OK;
	size_t kept = 0;
	for (size_t i = 0; st == GC_OK && i < *n; i++)
		if ((hit[i] || !q->where) && query_caps_profile(q->caps, rows[i].p))
			rows[kept++] = rows[i];
	if (st == GC_OK)
		*n = kept;
	free(hit);
	return st;
}

enum gc_status query_providers(struct cache *c, const struct profile_set *ps,
			       const struct query *q, struct query_provider **out, size_t *n,
			       char **err)
{
	*out = NULL;
	*n = 0;
	struct query_provider *rows = calloc(ps->n ? ps->n : 1, sizeof *rows);
	if (!rows)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < ps->n; i++)
		rows[i] = (struct query_provider){ps->items[i], 0, NAN};
	size_t kept = ps->n;
	sqlite3 *db = cache_db(c);
	enum gc_status st = add_stats(db, rows, kept, err);
	if (st == GC_OK)
		st = narrow(db, q, rows, &kept, err);
	if (st != GC_OK || kept == 0) {
		free(rows);
		return st;
	}
	*out = rows;
	*n = kept;
	return GC_OK;
}
