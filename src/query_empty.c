/* query_empty.c - what an answer left out: when a query matches nothing,
 * which of its filters took the count to zero (and the count just before
 * it); and the offers a filter left out because their fact is unknown
 * (not false), by provider. */
#include "gpucmp/query.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

/* The filters in the order query.c's filters() joins them: step k set in
 * q, and q's filter k copied into t. */
enum { S_GPU, S_PROVIDER, S_REGION, S_GPUS, S_VRAM, S_SPOT, S_PRICE, S_KIND, S_CAPS };
#define S_CUDA (S_CAPS + QC_COUNT)
#define S_WHERE (S_CUDA + 1)
#define S_COUNT (S_WHERE + 1)

static int step_set(const struct query *q, int k)
{
	switch (k) {
	case S_GPU: return q->ngpus > 0;
	case S_PROVIDER: return q->nproviders > 0;
	case S_REGION: return q->region_glob != NULL;
	case S_GPUS: return !isnan(q->min_gpus) || !isnan(q->max_gpus);
	case S_VRAM: return !isnan(q->min_vram);
	case S_SPOT: return q->spot;
	case S_PRICE: return !isnan(q->max_price);
	case S_KIND: return q->price_kinds && q->price_kinds != QPK_ALL;
	case S_CUDA: return q->cuda_num > 0;
	case S_WHERE: return q->where != NULL;
	default: return (q->caps >> (k - S_CAPS)) & 1u;
	}
}

/* t holds none of q's filters from step k on. */
static void step_clear(struct query *t, int k)
{
	switch (k) {
	case S_GPU: t->ngpus = 0; break;
	case S_PROVIDER: t->nproviders = 0; break;
	case S_REGION: t->region_glob = NULL; break;
	case S_GPUS: t->min_gpus = t->max_gpus = NAN; break;
	case S_VRAM: t->min_vram = NAN; break;
	case S_SPOT: t->spot = 0; break;
	case S_PRICE: t->max_price = NAN; break;
	case S_KIND: t->price_kinds = 0; break;
	case S_CUDA: t->cuda_num = 0; break;
	case S_WHERE: t->where = NULL; break;
	default: t->caps &= ~(1u << (k - S_CAPS)); break;
	}
}

static void step_name(int k, char *out, size_t size)
{
	static const char *const names[] = {"--gpu", "--provider", "--region", "--gpus",
					    "--vram", "--spot", "--max-price", "--price-kind"};
	if (k < S_CAPS) {
		snprintf(out, size, "%s", names[k]);
	} else if (k == S_CUDA) {
		snprintf(out, size, "--cuda");
	} else if (k == S_WHERE) {
		snprintf(out, size, "--where");
	} else {
		const struct query_cap_def *d = &query_caps[k - S_CAPS];
		snprintf(out, size, "--%s%s%s", d->option, d->value ? " " : "",
			 d->value ? d->value : "");
	}
}

enum gc_status query_empty_reason(struct cache *c, const struct query *q,
				  struct query_empty *out, char **err)
{
	*out = (struct query_empty){{0}, {0}, -1};
	struct query t = *q;
	for (int k = 0; k < S_COUNT; k++)
		step_clear(&t, k);
	struct query_counts n;
	enum gc_status st = query_count(c, &t, 0, &n, err);
	long long before = n.offers;
	size_t o = 0;
	for (int k = 0; st == GC_OK && before > 0 && k < S_COUNT; k++) {
		if (!step_set(q, k))
			continue;
		t = *q;
		for (int later = k + 1; later < S_COUNT; later++)
			step_clear(&t, later);
		if ((st = query_count(c, &t, 0, &n, err)) != GC_OK)
			break;
		if (n.offers == 0) {
			step_name(k, out->filter, sizeof out->filter);
			out->before = before;
			return GC_OK;
		}
		char name[48];
		step_name(k, name, sizeof name);
		size_t room = sizeof out->after - o;
		int w = snprintf(out->after + o, room, "%s%s", o ? ", " : "", name);
		if (w > 0 && (size_t)w < room)
			o += (size_t)w;
		before = n.offers;
	}
	if (st == GC_OK && before == 0) /* the cache holds no offer at all */
		out->before = 0;
	return st;
}

/* The offers filter k of q (a capability bit, or -1 for the region word)
 * leaves out for want of knowing, by provider, into *o. */
static enum gc_status omitted_by(struct cache *c, const struct query *q, int k,
				 struct query_omit *o, char **err)
{
	struct query t = *q;
	const char *unknown = k < 0 ? QUERY_REGION_UNKNOWN : query_caps[k].unknown;
	if (k < 0)
		t.region_glob = NULL;
	else
		t.caps &= ~(1u << k);
	struct query_sql qs;
	buf_init(&qs.sql, 0);
	qs.nbinds = 0;
	enum gc_status st = buf_addstr(&qs.sql, "SELECT provider, count(*) FROM offer_v");
	size_t before = qs.sql.len;
	if (st == GC_OK)
		st = query_add_filters(&t, &qs, err);
	if (st == GC_OK)
		st = buf_printf(&qs.sql, "%s%s GROUP BY provider ORDER BY 2 DESC, 1",
				qs.sql.len > before ? " AND " : " WHERE ", unknown);
	sqlite3_stmt *s = NULL;
	if (st == GC_OK)
		st = query_prepare(cache_db(c), &qs, &s, err);
	query_sql_release(&qs);
	size_t len = 0;
	int rc = SQLITE_DONE;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		long long n = sqlite3_column_int64(s, 1);
		const unsigned char *p = sqlite3_column_text(s, 0);
		char safe[64];
		str_sanitize(safe, sizeof safe, p ? (const char *)p : "");
		o->offers += n;
		size_t room = sizeof o->providers - len;
		int w = snprintf(o->providers + len, room, "%s%s %lld", len ? ", " : "", safe, n);
		if (w > 0 && (size_t)w < room)
			len += (size_t)w;
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			     "cannot read the cache: %s", sqlite3_errmsg(cache_db(c)));
	sqlite3_finalize(s);
	return st;
}

enum gc_status query_omitted(struct cache *c, const struct query *q, struct query_omitted *out,
			     char **err)
{
	memset(out, 0, sizeof *out);
	if (q->include_unknown)
		return GC_OK;
	enum gc_status st = GC_OK;
	/* a glob names region ids, which every offer has; a word needs a place */
	if (q->region_glob && !strpbrk(q->region_glob, "*?[")) {
		struct query_omit *o = &out->items[out->n];
		snprintf(o->filter, sizeof o->filter, "--region %.30s", q->region_glob);
		st = omitted_by(c, q, -1, o, err);
		out->n += o->offers > 0;
	}
	for (int k = 0; st == GC_OK && k < QC_COUNT; k++) {
		if (!(q->caps >> k & 1u) || !query_caps[k].unknown)
			continue;
		struct query_omit *o = &out->items[out->n];
		memset(o, 0, sizeof *o);
		step_name(S_CAPS + k, o->filter, sizeof o->filter);
		st = omitted_by(c, q, k, o, err);
		out->n += o->offers > 0;
	}
	return st;
}

enum gc_status query_region_known(struct cache *c, const char *word, int *known, char **err)
{
	*known = 0;
	sqlite3_stmt *s;
	/* the place words first (small tables); a region id last, which reads
	 * every offer: this runs only when an answer came back empty */
	static const char sql[] =
		"SELECT EXISTS(SELECT 1 FROM country WHERE code = upper(?1)"
		" OR continent = lower(?1) OR geo = lower(?1))"
		" OR EXISTS(SELECT 1 FROM region_place WHERE region = ?1)"
		" OR EXISTS(SELECT 1 FROM offer WHERE lower(region) = lower(?1))";
	if (sqlite3_prepare_v2(cache_db(c), sql, -1, &s, NULL) != SQLITE_OK)
		return err_set(err, GC_EIO, "cannot read the cache: %s",
			       sqlite3_errmsg(cache_db(c)));
	sqlite3_bind_text(s, 1, word, -1, SQLITE_STATIC);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) == SQLITE_ROW)
		*known = sqlite3_column_int(s, 0) != 0;
	else
		st = err_set(err, GC_EIO, "cannot read the cache: %s", sqlite3_errmsg(cache_db(c)));
	sqlite3_finalize(s);
	return st;
}
