/* query_empty.c - what an answer left out: when a query matches nothing,
 * which of its filters took the count to zero (and the count just before
 * it); and the offers a filter left out because their fact is unknown
 * (not false), by provider. */
#include "gpucmp/query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/buf.h"
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

/* Append step k of q's filters alone to out, in parentheses (its SQL
 * without " WHERE "), with its binds. */
static enum gc_status add_step(const struct query *q, int k, struct query_sql *out, char **err)
{
	struct query t = *q;
	for (int j = 0; j < S_COUNT; j++)
		if (j != k)
			step_clear(&t, j);
	struct query_sql one;
	buf_init(&one.sql, 0);
	one.nbinds = 0;
	enum gc_status st = query_add_filters(&t, &one, err);
	static const char where[] = " WHERE ";
	if (st == GC_OK && (one.sql.len < sizeof where || out->nbinds + one.nbinds >
								 QUERY_MAX_BINDS))
		st = err_set(err, GC_EUSAGE, "too many filter values");
	if (st == GC_OK && buf_printf(&out->sql, "(%s)", one.sql.ptr + sizeof where - 1) != GC_OK)
		st = err_set(err, GC_ENOMEM, "out of memory");
	for (int i = 0; st == GC_OK && i < one.nbinds; i++)
		out->binds[out->nbinds++] = one.binds[i];
	query_sql_release(&one);
	return st;
}

/* "SELECT CASE WHEN (step later[0]) THEN CASE WHEN ... THEN m ELSE m - 1
 * END ... ELSE 0 END FROM offer_v WHERE (step first)": each row's count of
 * the later steps it passes in turn (a CASE takes the WHERE's truth). */
static enum gc_status depth_sql(const struct query *q, int first, const int *later, int m,
				struct query_sql *qs, char **err)
{
	enum gc_status st = buf_addstr(&qs->sql, "SELECT ");
	for (int i = 0; st == GC_OK && i < m; i++) {
		st = buf_addstr(&qs->sql, "CASE WHEN ");
		if (st == GC_OK && (st = add_step(q, later[i], qs, err)) != GC_OK)
			return st;
		st = buf_addstr(&qs->sql, " THEN ");
	}
	if (st == GC_OK)
		st = buf_printf(&qs->sql, "%d", m);
	for (int i = m - 1; st == GC_OK && i >= 0; i--)
		st = buf_printf(&qs->sql, " ELSE %d END", i);
	if (st == GC_OK)
		st = buf_addstr(&qs->sql, " FROM offer_v WHERE ");
	if (st != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	return add_step(q, first, qs, err);
}

/* One pass over the offers step `first` of q keeps: into n[k] for each
 * later step k set in q, how many pass every set step up to k, and into
 * *kept how many `first` keeps. */
static enum gc_status prefix_counts(struct cache *c, const struct query *q, int first,
				    long long *kept, long long n[S_COUNT], char **err)
{
	int later[S_COUNT], m = 0;
	for (int k = first + 1; k < S_COUNT; k++)
		if (step_set(q, k))
			later[m++] = k;
	struct query_sql qs;
	buf_init(&qs.sql, 0);
	qs.nbinds = 0;
	enum gc_status st = depth_sql(q, first, later, m, &qs, err);
	sqlite3_stmt *s = NULL;
	if (st == GC_OK)
		st = query_prepare(cache_db(c), &qs, &s, err);
	query_sql_release(&qs);
	long long hist[S_COUNT + 1] = {0};
	int rc = SQLITE_DONE;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		int d = sqlite3_column_int(s, 0);
		hist[d >= 0 && d <= m ? d : 0]++;
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			     "cannot read the cache: %s", sqlite3_errmsg(cache_db(c)));
	sqlite3_finalize(s);
	long long above = 0; /* rows passing more than i later steps */
	for (int i = m - 1; i >= 0; i--) {
		above += hist[i + 1];
		n[later[i]] = above;
	}
	*kept = above + hist[0];
	return st;
}

enum gc_status query_empty_reason(struct cache *c, const struct query *q,
				  struct query_empty *out, char **err)
{
	*out = (struct query_empty){{0}, {0}, -1};
	int first = 0;
	while (first < S_COUNT && !step_set(q, first))
		first++;
	long long n[S_COUNT], before = 0;
	enum gc_status st = GC_OK;
	if (first < S_COUNT)
		st = prefix_counts(c, q, first, &n[first], n, err);
	if (st == GC_OK && first < S_COUNT)
		before = n[first]; /* the loop's first step: not reported unless 0 */
	if (st == GC_OK && (first == S_COUNT || n[first] == 0)) {
		/* every offer: when the first filter keeps none, or none is set */
		struct query t = *q;
		for (int k = 0; k < S_COUNT; k++)
			step_clear(&t, k);
		struct query_counts all;
		st = query_count(c, &t, 0, &all, err);
		before = all.offers;
	}
	size_t o = 0;
	for (int k = first; st == GC_OK && before > 0 && k < S_COUNT; k++) {
		if (!step_set(q, k))
			continue;
		if (n[k] == 0) {
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
		before = n[k];
	}
	if (st == GC_OK && before == 0) /* the cache holds no offer at all */
		out->before = 0;
	return st;
}

/* Provider `p` (n offers) into o's count and list ("lambda 391, vast 2"),
 * as far as it fits; *len is the list's length. */
static void omit_add(struct query_omit *o, size_t *len, const char *p, long long n)
{
	char safe[64];
	str_sanitize(safe, sizeof safe, p);
	o->offers += n;
	size_t room = sizeof o->providers - *len;
	int w = snprintf(o->providers + *len, room, "%s%s %lld", *len ? ", " : "", safe, n);
	if (w > 0 && (size_t)w < room)
		*len += (size_t)w;
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
		const unsigned char *p = sqlite3_column_text(s, 0);
		omit_add(o, &len, p ? (const char *)p : "", sqlite3_column_int64(s, 1));
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
	out->counted = 1;
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

/* --- the same counts on the way of the answer's own scan --------------- */

struct unk_prov {
	char *name; /* the provider as stored (NUL-terminated copy) */
	size_t len;
	long long n;
};

/* A filter with an unknown case: the region word (cap -1) or a capability
 * filter; bit 2i of the row's column says it passes, bit 2i+1 that its
 * fact is unknown. */
struct unk_filter {
	int cap;
	struct unk_prov *p;
	size_t np, cp, last;
};

struct query_unknown {
	const struct query *q;
	int nf;
	long long pass; /* every filter's pass bit */
	struct unk_filter f[QC_COUNT + 1];
};

enum gc_status query_unknown_begin(const struct query *q, struct query_unknown **out,
				   char **err)
{
	*out = NULL;
	if (q->include_unknown)
		return GC_OK;
	struct query_unknown u = {.q = q};
	if (q->region_glob && !strpbrk(q->region_glob, "*?["))
		u.f[u.nf++].cap = -1;
	for (int k = 0; k < QC_COUNT; k++)
		if (q->caps >> k & 1u)
			u.f[u.nf++].cap = k;
	if (!u.nf)
		return GC_OK;
	for (int i = 0; i < u.nf; i++)
		u.pass |= 1LL << (2 * i);
	if (!(*out = malloc(sizeof u)))
		return err_set(err, GC_ENOMEM, "out of memory");
	**out = u;
	return GC_OK;
}

/* Whether capability filter k's clause and its unknown clause never hold
 * together (a value in the accepted list, or none): the scan, which keeps
 * offers where one holds (include_unknown), then reads the unknown clause
 * alone.  Not so for --docker base (base images only, custom image
 * unknown) and the region word (a region id matches whatever the place). */
static int cap_exclusive(int k)
{
	static const int yes[] = {QC_AVAILABLE, QC_K8S_MANAGED, QC_K8S_JOIN, QC_K8S_ANY,
				  QC_K8S_NONE, QC_DOCKER_CUSTOM, QC_DOCKER_DAEMON, QC_MIG,
				  QC_MPS, QC_TIME_SLICING, QC_IB, QC_RDMA, QC_NVLINK};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		if (yes[i] == k)
			return 1;
	return 0;
}

/* ", (CASE WHEN <unknown> THEN 2 + (CASE WHEN <passes> THEN 1 ELSE 0 END)
 * ELSE 1 END) + ...", filter i's bits shifted by 2i: the scan reads every
 * filter include_unknown relaxed (filters(): one of the two holds), each
 * clause as q's WHERE would read it; for a filter whose two clauses never
 * hold together, "CASE WHEN <unknown> THEN 2 ELSE 1 END". */
enum gc_status query_unknown_col(const struct query_unknown *u, struct query_sql *qs,
				 char **err)
{
	enum gc_status st = buf_addstr(&qs->sql, ", ");
	for (int i = 0; st == GC_OK && i < u->nf; i++) {
		const struct query_cap_def *d = u->f[i].cap < 0 ? NULL : &query_caps[u->f[i].cap];
		if (d && cap_exclusive(u->f[i].cap)) {
			st = buf_printf(&qs->sql, "%s(CASE WHEN %s THEN %lld ELSE %lld END)",
					i ? " + " : "", d->unknown, 1LL << (2 * i + 1),
					1LL << (2 * i));
			continue;
		}
		/* the clause read only where the fact is unknown: elsewhere the
		 * scan's WHERE (one holds) says it holds */
		st = buf_printf(&qs->sql, "%s(CASE WHEN %s THEN %lld + (CASE WHEN ", i ? " + " : "",
				d ? d->unknown : QUERY_REGION_UNKNOWN, 1LL << (2 * i + 1));
		if (st == GC_OK && !d) {
			struct query t = *u->q;
			t.include_unknown = 0;
			if ((st = add_step(&t, S_REGION, qs, err)) != GC_OK)
				return st;
		} else if (st == GC_OK) {
			st = buf_addstr(&qs->sql, d->offer_sql);
		}
		if (st == GC_OK)
			st = buf_printf(&qs->sql, " THEN %lld ELSE 0 END) ELSE %lld END)",
					1LL << (2 * i), 1LL << (2 * i));
	}
	return st == GC_OK ? GC_OK : err_set(err, st, "out of memory");
}

enum gc_status query_unknown_filters(const struct query_unknown *u, struct query_sql *qs,
				     char **err)
{
	struct query t = *u->q;
	t.include_unknown = 1;
	int region = u->f[0].cap < 0;
	if (region)
		t.region_glob = NULL;
	size_t before = qs->sql.len;
	enum gc_status st = query_add_filters(&t, qs, err);
	if (st != GC_OK || !region)
		return st;
	/* the region word last, its unknown case first: the word's own clause
	 * is read once, in the column, for an offer of unknown place */
	if (buf_printf(&qs->sql, "%s(%s OR ", qs->sql.len > before ? " AND " : " WHERE ",
		       QUERY_REGION_UNKNOWN) != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	t = *u->q;
	t.include_unknown = 0;
	if ((st = add_step(&t, S_REGION, qs, err)) != GC_OK)
		return st;
	return buf_addc(&qs->sql, ')') == GC_OK ? GC_OK : err_set(err, GC_ENOMEM, "out of memory");
}

/* One more offer of provider p (n bytes) for filter f; -1 out of memory. */
static int unk_count(struct unk_filter *f, const char *p, size_t n)
{
	struct unk_prov *x = f->np ? &f->p[f->last] : NULL;
	if (x && x->len == n && memcmp(x->name, p, n) == 0) {
		x->n++;
		return 0;
	}
	for (f->last = 0; f->last < f->np; f->last++) {
		x = &f->p[f->last];
		if (x->len == n && memcmp(x->name, p, n) == 0) {
			x->n++;
			return 0;
		}
	}
	if (buf_grow_array(&f->p, &f->cp, f->np, sizeof *f->p, 8) != GC_OK)
		return -1;
	x = &f->p[f->np];
	if (!(x->name = malloc(n + 1)))
		return -1;
	memcpy(x->name, p, n);
	x->name[n] = '\0';
	x->len = n;
	x->n = 1;
	f->last = f->np++;
	return 0;
}

int query_unknown_row(struct query_unknown *u, sqlite3_stmt *s, int col, int provider_col,
		      int count)
{
	long long m = sqlite3_column_int64(s, col);
	/* the offers query_omitted counts for filter i: every other filter
	 * passes and i's fact is unknown (whether or not i passes too) */
	for (int i = 0; count && i < u->nf; i++) {
		long long pi = 1LL << (2 * i);
		if (!(m & pi << 1) || ((m | pi) & u->pass) != u->pass)
			continue;
		const char *p = (const char *)sqlite3_column_text(s, provider_col);
		size_t n = (size_t)sqlite3_column_bytes(s, provider_col);
		if (unk_count(&u->f[i], p ? p : "", p ? n : 0) < 0)
			return -1;
	}
	return (m & u->pass) == u->pass;
}

/* query_omitted's order: the most offers first, then the provider (BINARY). */
static int prov_cmp(const void *a, const void *b)
{
	const struct unk_prov *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

void query_unknown_end(struct query_unknown *u, struct query_omitted *out)
{
	if (!u)
		return;
	if (out) {
		memset(out, 0, sizeof *out);
		out->counted = 1;
	}
	for (int i = 0; i < u->nf; i++) {
		struct unk_filter *f = &u->f[i];
		struct query_omit *o = out ? &out->items[out->n] : NULL;
		if (o && f->np) {
			memset(o, 0, sizeof *o);
			if (f->cap < 0)
				snprintf(o->filter, sizeof o->filter, "--region %.30s",
					 u->q->region_glob);
			else
				step_name(S_CAPS + f->cap, o->filter, sizeof o->filter);
			qsort(f->p, f->np, sizeof *f->p, prov_cmp);
			size_t len = 0;
			for (size_t j = 0; j < f->np; j++)
				omit_add(o, &len, f->p[j].name, f->p[j].n);
			out->n += o->offers > 0;
		}
		for (size_t j = 0; j < f->np; j++)
			free(f->p[j].name);
		free(f->p);
	}
	free(u);
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
