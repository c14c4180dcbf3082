/* query_group.c - a grouped list (list --group-by; the default table) in
 * one pass over the offers the filters keep, read in table order: each
 * group keeps its cheapest offer, its counts and its price range as the
 * rows go by, and a set of (group, region) pairs counts its regions.  The
 * groups are then sorted, cut to the limit, and the wide columns read for
 * the rows shown only.  When the output prints a group's regions (or
 * sorts by them), a second pass keeps each region's cheapest offer for
 * the groups that need it, output-sized.  No SQL sort and no temporary
 * table: the time is a scan and the memory is the groups
 * (docs/PERFORMANCE.md, "The grouped view").
 *
 * The answer is query_build's grouped statement's (what --explain
 * prints), row for row: its ranks and tie-breaks are written out below as
 * SQLite orders values (unit_query compares the two). */
#include "gpucmp/query.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "sqlite_int.h"

/* A value as SQLite orders it; text is an interned string's id. */
struct gv {
	int type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB */
	union {
		sqlite3_int64 i;
		double d;
		uint32_t s;
	} u;
};

/* The scan's columns (scan_sql): the tie-break t0..t4, the on-demand and
 * spot prices, the price the query ranks by, GPU (a key of QG_GPU), the
 * date of the data (the footer's age of the answer), the kind of price
 * (table offer's, NULL for the profile's; or the view's), then the offer
 * fields the sort names. */
enum { S_T0, S_T1, S_T2, S_T3, S_T4, S_OD, S_SP, S_P, S_GPU, S_ASOF, S_KIND, S_SORT };

/* A row's rank in its group: (p IS NULL, fl, p, t0, t1, t2, t3, t4), fl 1
 * for an auction floor ranked last (an integer value). */
enum { R_P, R_FL, R_T0, R_T1, R_T2, R_T3, R_T4, R_N };

struct grp {
	uint64_t hash;          /* of its key */
	struct gv key[2];
	struct gv first[R_N];   /* its cheapest offer's rank */
	struct gv min, max, smin;    /* of every price */
	struct gv rmin, rmax, rsmin; /* of the prices other than auction floors */
	sqlite3_int64 offers, nregions;
	uint32_t regions;       /* its region list's string id + 1; 0: none (NULL) */
	int want;               /* pass two keeps its regions */
};

/* A region of a group, by its cheapest offer there (pass two). */
struct rep {
	uint32_t group, region; /* region: a string id, UINT32_MAX for NULL */
	struct gv rank[R_N];
};

struct run {
	const struct query *q;
	sqlite3 *db;
	/* interned strings: [uint32 length][bytes][NUL] at off[id] in pool */
	char *pool;
	size_t plen, pcap;
	size_t *off;
	uint64_t *shash; /* each string's hash, for a rehash */
	uint32_t nstr, cstr;
	uint32_t *sslot; /* string id + 1, 0 empty */
	size_t smask;
	/* groups */
	struct grp *g;
	uint32_t ng, cg;
	uint32_t *gslot;
	size_t gmask;
	struct gv *sval; /* nsv per group: its cheapest offer's sort values */
	size_t nsv;
	/* (group, region) pairs: key + 1; in pass two, beside each, a rep
	 * index (UINT32_MAX: none) */
	uint64_t *pkey;
	uint32_t *pval;
	size_t pmask, npair;
	struct rep *rep;
	uint32_t nrep, crep;
	unsigned char *prov; /* per string id: PV_* bits */
	long long offers, providers;
	long long undated;   /* offers of unknown date */
	struct gv oldest;    /* the oldest as_of of the others (SQLITE_NULL: none) */
	int ngk;             /* key columns */
	int gk[2];           /* their scan columns */
	int nscan;           /* the scan's columns */
	uint32_t last[S_SORT + QUERY_MAX_SORT]; /* each one's last text id */
	size_t nkeys;        /* sort keys (1 without --sort: the price) */
	int src[QUERY_MAX_SORT]; /* each key's value: a scan column, or GF_* */
	int price[QUERY_MAX_SORT]; /* each key is a price: auction floors last */
	int want_regions;    /* the output prints the regions */
	int floors_last;     /* auction floors rank after the other prices */
	int on_offer;        /* the scan reads table offer, not the view */
	uint32_t floor_word; /* the string id of "auction_floor" */
	/* the offers left out as unknown, counted on the way (query_unknown_*):
	 * the scan reads its filters (q's relaxed) and one column more, after
	 * its nscan; NULL: q's own scan */
	struct query_unknown *unk;
	int counting;        /* pass one: count them (pass two only skips them) */
};

/* Bits of run.prov: the string is a provider seen in the scan; a provider
 * whose profile says its prices are auction floors. */
enum { PV_SEEN = 1, PV_FLOOR = 2 };

/* A sort key on a group's member (src < 0). */
enum { GF_OFFERS = -1, GF_NREGIONS = -2, GF_REGIONS = -3, GF_MIN = -4, GF_MAX = -5,
       GF_SMIN = -6 };

/* --- strings ---------------------------------------------------------- */

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* n bytes at p into hash h, eight at a time. */
static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;
	uint64_t w;
	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		h = mix(h ^ w);
	}
	w = 0;
	memcpy(&w, b, n);
	return mix(h ^ w ^ ((uint64_t)n << 56));
}

static const char *str_at(const struct run *r, uint32_t id, uint32_t *len)
{
	const char *p = r->pool + r->off[id];
	memcpy(len, p, sizeof *len);
	return p + sizeof *len;
}

/* Grow a table of `*slots` (mask+1 entries) to twice its size when `used`
 * fills half of it; rehash calls back for each entry.  0, or -1 out of
 * memory. */
static int grow_slots(uint32_t **slots, size_t *mask, size_t used)
{
	size_t n = *slots ? *mask + 1 : 1024;
	if (*slots && used * 2 < n)
		return 0;
	size_t m = *slots ? n * 2 : n;
	uint32_t *s = calloc(m, sizeof *s);
	if (!s)
		return -1;
	free(*slots);
	*slots = s;
	*mask = m - 1;
	return 1;
}

static uint64_t str_hash(const char *s, uint32_t n)
{
	return mix(hash_bytes(s, n, 0xcbf29ce484222325ULL));
}

static void str_slot(struct run *r, uint32_t id)
{
	size_t i = r->shash[id] & r->smask;
	while (r->sslot[i])
		i = (i + 1) & r->smask;
	r->sslot[i] = id + 1;
}

/* The id of the string s (n bytes), added if new; -1 out of memory. */
static int64_t intern(struct run *r, const char *s, uint32_t n)
{
	int g = grow_slots(&r->sslot, &r->smask, r->nstr);
	if (g < 0)
		return -1;
	for (uint32_t id = 0; g > 0 && id < r->nstr; id++)
		str_slot(r, id);
	uint64_t h = str_hash(s, n);
	size_t i = h & r->smask;
	for (; r->sslot[i]; i = (i + 1) & r->smask) {
		uint32_t len;
		const char *t = str_at(r, r->sslot[i] - 1, &len);
		if (len == n && memcmp(t, s, n) == 0)
			return r->sslot[i] - 1;
	}
	size_t need = sizeof n + (size_t)n + 1;
	if (r->nstr == UINT32_MAX - 1)
		return -1;
	if (r->plen + need > r->pcap) {
		size_t cap = r->pcap ? r->pcap * 2 : 65536;
		while (cap < r->plen + need)
			cap *= 2;
		char *p = realloc(r->pool, cap);
		if (!p)
			return -1;
		r->pool = p;
		r->pcap = cap;
	}
	if (r->nstr == r->cstr) {
		uint32_t c = r->cstr ? r->cstr * 2 : 1024;
		size_t *o = realloc(r->off, c * sizeof *o);
		if (o)
			r->off = o;
		uint64_t *hs = o ? realloc(r->shash, c * sizeof *hs) : NULL;
		if (hs)
			r->shash = hs;
		unsigned char *pv = hs ? realloc(r->prov, c) : NULL;
		if (!pv)
			return -1;
		r->prov = pv;
		r->cstr = c;
	}
	r->off[r->nstr] = r->plen;
	r->shash[r->nstr] = h;
	r->prov[r->nstr] = 0;
	memcpy(r->pool + r->plen, &n, sizeof n);
	memcpy(r->pool + r->plen + sizeof n, s, n);
	r->pool[r->plen + need - 1] = '\0';
	r->plen += need;
	r->sslot[i] = r->nstr + 1;
	return r->nstr++;
}

/* The id of text t (n bytes) in scan column i: the last row's when it is
 * the same (a provider, often a region, repeats row after row), else
 * interned; -1 out of memory. */
static int64_t intern_col(struct run *r, int i, const char *t, uint32_t n)
{
	uint32_t len = 0, id = r->last[i];
	const char *p = id != UINT32_MAX ? str_at(r, id, &len) : NULL;
	if (p && len == n && memcmp(p, t, n) == 0)
		return id;
	int64_t x = intern(r, t, n);
	r->last[i] = x < 0 ? UINT32_MAX : (uint32_t)x;
	return x;
}

/* Column i of s as a value; -1 out of memory. */
static int read_gv(struct run *r, sqlite3_stmt *s, int i, struct gv *v)
{
	v->type = sqlite3_column_type(s, i);
	if (v->type == SQLITE_INTEGER) {
		v->u.i = sqlite3_column_int64(s, i);
	} else if (v->type == SQLITE_FLOAT) {
		v->u.d = sqlite3_column_double(s, i);
	} else if (v->type == SQLITE_TEXT || v->type == SQLITE_BLOB) {
		const char *t = v->type == SQLITE_TEXT ? (const char *)sqlite3_column_text(s, i)
						       : sqlite3_column_blob(s, i);
		int n = sqlite3_column_bytes(s, i);
		int64_t id = t || n == 0 ? intern_col(r, i, t ? t : "", (uint32_t)n) : -1;
		if (id < 0)
			return -1;
		v->u.s = (uint32_t)id;
	}
	return 0;
}

/* --- values in SQLite's order ------------------------------------------ */

static int gv_class(const struct gv *v)
{
	switch (v->type) {
	case SQLITE_NULL:
		return 0;
	case SQLITE_INTEGER:
	case SQLITE_FLOAT:
		return 1;
	case SQLITE_TEXT:
		return 2;
	default:
		return 3;
	}
}

static double gv_num(const struct gv *v)
{
	return v->type == SQLITE_INTEGER ? (double)v->u.i : v->u.d;
}

/* <0, 0, >0 as SQLite orders a and b (BINARY collation; NULL first). */
static int gv_cmp(const struct run *r, const struct gv *a, const struct gv *b)
{
	int ca = gv_class(a), cb = gv_class(b);
	if (ca != cb)
		return ca < cb ? -1 : 1;
	if (ca == 1) {
		if (a->type == SQLITE_INTEGER && b->type == SQLITE_INTEGER)
			return (a->u.i > b->u.i) - (a->u.i < b->u.i);
		double x = gv_num(a), y = gv_num(b);
		return (x > y) - (x < y);
	}
	if (ca == 0 || a->u.s == b->u.s)
		return 0;
	uint32_t na, nb;
	const char *sa = str_at(r, a->u.s, &na), *sb = str_at(r, b->u.s, &nb);
	int c = memcmp(sa, sb, na < nb ? na : nb);
	return c ? c : (na > nb) - (na < nb);
}

/* Equal as a PARTITION BY key (NULLs one partition, 8 = 8.0). */
static int gv_same(const struct gv *a, const struct gv *b)
{
	int ca = gv_class(a), cb = gv_class(b);
	if (ca != cb)
		return 0;
	if (ca == 1)
		return gv_num(a) == gv_num(b) &&
		       (a->type != SQLITE_INTEGER || b->type != SQLITE_INTEGER || a->u.i == b->u.i);
	return ca == 0 || a->u.s == b->u.s;
}

static uint64_t gv_hash(const struct gv *v, uint64_t h)
{
	int c = gv_class(v);
	h = hash_bytes(&c, sizeof c, h);
	if (c == 1) {
		double d = gv_num(v);
		d = d == 0 ? 0 : d; /* -0.0 is 0.0 */
		return hash_bytes(&d, sizeof d, h);
	}
	return c ? hash_bytes(&v->u.s, sizeof v->u.s, h) : h;
}

/* "p IS NULL, fl, p": a price of a rank, NULL last, auction floors after
 * the other prices (fa, fb: the floor flags). */
static int price_cmp(const struct run *r, const struct gv *pa, const struct gv *fa,
		     const struct gv *pb, const struct gv *fb)
{
	int na = pa->type == SQLITE_NULL, nb = pb->type == SQLITE_NULL;
	if (na != nb)
		return na - nb;
	if (fa->u.i != fb->u.i)
		return fa->u.i < fb->u.i ? -1 : 1;
	return gv_cmp(r, pa, pb);
}

/* A row's rank (p IS NULL, fl, p, t0 .. t4). */
static int rank_cmp(const struct run *r, const struct gv *a, const struct gv *b)
{
	int c = price_cmp(r, &a[R_P], &a[R_FL], &b[R_P], &b[R_FL]);
	for (int i = R_T0; !c && i < R_N; i++)
		c = gv_cmp(r, &a[i], &b[i]);
	return c;
}

/* --- groups and pairs -------------------------------------------------- */

static uint64_t key_hash(const struct run *r, const struct gv *k)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (int i = 0; i < r->ngk; i++)
		h = gv_hash(&k[i], h);
	return mix(h);
}

static void group_slot(struct run *r, uint32_t gi)
{
	size_t i = r->g[gi].hash & r->gmask;
	while (r->gslot[i])
		i = (i + 1) & r->gmask;
	r->gslot[i] = gi + 1;
}

/* The group of key k, added (empty) if new and `add`: its index, -1 out
 * of memory, -2 when new and not added. */
static int64_t group_of(struct run *r, const struct gv *k, int add)
{
	int grown = grow_slots(&r->gslot, &r->gmask, r->ng);
	if (grown < 0)
		return -1;
	for (uint32_t gi = 0; grown > 0 && gi < r->ng; gi++)
		group_slot(r, gi);
	uint64_t h = key_hash(r, k);
	size_t i = h & r->gmask;
	for (; r->gslot[i]; i = (i + 1) & r->gmask) {
		const struct grp *g = &r->g[r->gslot[i] - 1];
		int same = g->hash == h;
		for (int j = 0; same && j < r->ngk; j++)
			same = gv_same(&g->key[j], &k[j]);
		if (same)
			return r->gslot[i] - 1;
	}
	if (!add)
		return -2;
	if (r->ng == r->cg) {
		if (r->cg >= UINT32_MAX / 2)
			return -1;
		uint32_t c = r->cg ? r->cg * 2 : 1024;
		struct grp *g = realloc(r->g, c * sizeof *g);
		struct gv *sv = g && r->nsv ? realloc(r->sval, c * r->nsv * sizeof *sv) : NULL;
		if (g)
			r->g = g;
		if (!g || (r->nsv && !sv))
			return -1;
		if (r->nsv)
			r->sval = sv;
		r->cg = c;
	}
	struct grp *g = &r->g[r->ng];
	memset(g, 0, sizeof *g);
	g->hash = h;
	memcpy(g->key, k, (size_t)r->ngk * sizeof *k);
	g->first[R_P].type = -1; /* none yet */
	g->min.type = g->max.type = g->smin.type = SQLITE_NULL;
	g->rmin.type = g->rmax.type = g->rsmin.type = SQLITE_NULL;
	r->gslot[i] = r->ng + 1;
	return r->ng++;
}

/* The pair (group gi, region id) in the pair table, added if new; *added
 * says whether it was.  Its slot, or -1 out of memory. */
static int64_t pair_of(struct run *r, uint32_t gi, uint32_t region, int *added)
{
	if (!r->pkey || r->npair * 2 >= r->pmask + 1) {
		size_t n = r->pkey ? (r->pmask + 1) * 2 : 4096;
		uint64_t *k = calloc(n, sizeof *k);
		uint32_t *v = k && r->pval ? malloc(n * sizeof *v) : NULL;
		if (!k || (r->pval && !v)) {
			free(k);
			return -1;
		}
		for (size_t j = 0; r->pkey && j <= r->pmask; j++) {
			if (!r->pkey[j])
				continue;
			size_t i = mix(r->pkey[j]) & (n - 1);
			while (k[i])
				i = (i + 1) & (n - 1);
			k[i] = r->pkey[j];
			if (v)
				v[i] = r->pval[j];
		}
		free(r->pkey);
		free(r->pval);
		r->pkey = k;
		r->pval = v;
		r->pmask = n - 1;
	}
	/* + 1: a stored key is never 0 (region UINT32_MAX of group
	 * UINT32_MAX never happens: groups stop below UINT32_MAX / 2) */
	uint64_t key = ((uint64_t)gi << 32 | region) + 1;
	size_t i = mix(key) & r->pmask;
	for (; r->pkey[i]; i = (i + 1) & r->pmask)
		if (r->pkey[i] == key) {
			*added = 0;
			return (int64_t)i;
		}
	r->pkey[i] = key;
	if (r->pval)
		r->pval[i] = UINT32_MAX;
	r->npair++;
	*added = 1;
	return (int64_t)i;
}

/* min() or max() as SQLite's aggregates: NULLs ignored. */
static void min_of(const struct run *r, struct gv *m, const struct gv *v, int max)
{
	if (v->type == SQLITE_NULL)
		return;
	if (m->type == SQLITE_NULL || (max ? gv_cmp(r, v, m) > 0 : gv_cmp(r, v, m) < 0))
		*m = *v;
}

/* --- the scan ---------------------------------------------------------- */

/* Each grouping's key as scan columns (query.c's group_keys). */
static const int group_cols[QG_COUNT][3] = {
	[QG_SKU] = {2, S_T0, S_T1},
	[QG_PROVIDER] = {1, S_T0},
	[QG_GPU] = {2, S_GPU, S_T3},
	[QG_REGION] = {2, S_T0, S_T2},
};

/* The group member whose SQL name is `sql` (field.c's group_fields). */
static int group_member(const char *sql)
{
	static const char *const names[] = {"g_offers", "g_nregions", "g_regions", "g_min",
					    "g_max", "g_smin"};
	for (int i = 0; i < 6; i++)
		if (strcmp(names[i], sql) == 0)
			return -1 - i;
	return GF_OFFERS;
}

/* Can the scan read table offer alone, not the view (its joins cost three
 * quarters of a scan of 10^6 offers)?  Its filters and the offer fields
 * it sorts on must be columns offer_v takes from the table as they are. */
static int scan_on_offer(const struct query *q)
{
	for (size_t i = 0; i < q->nsort; i++) {
		const struct field *f = q->sort[i].field;
		if (f && !field_is_group(f) && !query_offer_col(query_field_sql(q, f)))
			return 0;
	}
	return query_filters_on_offer(q);
}

/* The scan: every offer q's filters keep, in table order, its rank's
 * columns, its prices and the offer fields the sort names; over table
 * offer when it can (the view's expressions of the same columns). */
static enum gc_status scan_sql(struct run *r, struct query_sql *qs, char **err)
{
	const struct query *q = r->q;
	const char *pc = q->spot ? "spot_price_hr" : "price_hr";
	int base = scan_on_offer(q);
	r->on_offer = base;
	buf_init(&qs->sql, 0);
	qs->nbinds = 0;
	enum gc_status st = buf_printf(&qs->sql, "SELECT provider, sku, region, %s, id, "
				       "price_hr, spot_price_hr, %s, %s, as_of, price_kind",
				       base ? "gpu_count * gpu_fraction" : "gpu_count", pc,
				       q->group != QG_GPU ? "NULL"
				       : base		  ? "COALESCE(gpu, gpu_name)"
							  : "gpu");
	r->nscan = S_SORT;
	r->nkeys = q->nsort ? q->nsort : 1;
	for (size_t i = 0; i < r->nkeys && st == GC_OK; i++) {
		const struct field *f = q->nsort ? q->sort[i].field : NULL;
		r->price[i] = r->floors_last && (!f || f->type == FT_PRICE);
		if (!f) {
			r->src[i] = S_P;
		} else if (field_is_group(f)) {
			r->src[i] = group_member(f->sql);
		} else {
			const char *x = query_field_sql(q, f);
			r->src[i] = r->nscan++;
			st = buf_printf(&qs->sql, ", %s", base ? query_offer_col(x) : x);
		}
	}
	r->nsv = (size_t)(r->nscan - S_SORT);
	if (st == GC_OK && r->unk && (st = query_unknown_col(r->unk, qs, err)) != GC_OK)
		return st;
	if (st == GC_OK)
		st = buf_addstr(&qs->sql, base ? " FROM offer" : " FROM offer_v");
	if (st != GC_OK)
		return err_set(err, st, "out of memory");
	if (r->unk)
		return query_unknown_filters(r->unk, qs, err);
	return base ? query_add_offer_filters(q, qs, err) : query_add_filters(q, qs, err);
}

/* The rank of row c in its group: 1 in fl for an auction floor ranked
 * last, its kind the offer's, else (over table offer) its provider's
 * profile's (offer_v's price_kind). */
static void rank_of(const struct run *r, const struct gv *c, struct gv *rank)
{
	struct gv fl = {SQLITE_INTEGER, {.i = 0}};
	if (r->floors_last && c[S_KIND].type == SQLITE_TEXT)
		fl.u.i = c[S_KIND].u.s == r->floor_word;
	else if (r->floors_last && c[S_KIND].type == SQLITE_NULL && r->on_offer)
		fl.u.i = c[S_T0].type == SQLITE_TEXT && (r->prov[c[S_T0].u.s] & PV_FLOOR);
	struct gv x[R_N] = {c[S_P], fl, c[S_T0], c[S_T1], c[S_T2], c[S_T3], c[S_T4]};
	memcpy(rank, x, sizeof x);
}

/* Pass one, a row: its group's count, cheapest offer, prices, regions. */
static int add_row(struct run *r, const struct gv *c)
{
	struct gv k[2];
	for (int i = 0; i < r->ngk; i++)
		k[i] = c[r->gk[i]];
	int64_t gi = group_of(r, k, 1);
	if (gi < 0)
		return -1;
	struct grp *g = &r->g[gi];
	struct gv rank[R_N];
	rank_of(r, c, rank);
	if (g->first[R_P].type == -1 || rank_cmp(r, rank, g->first) < 0) {
		memcpy(g->first, rank, sizeof rank);
		if (r->nsv)
			memcpy(&r->sval[(size_t)gi * r->nsv], &c[S_SORT], r->nsv * sizeof *c);
	}
	g->offers++;
	min_of(r, &g->min, &c[S_OD], 0);
	min_of(r, &g->max, &c[S_OD], 1);
	min_of(r, &g->smin, &c[S_SP], 0);
	if (!rank[R_FL].u.i) {
		min_of(r, &g->rmin, &c[S_OD], 0);
		min_of(r, &g->rmax, &c[S_OD], 1);
		min_of(r, &g->rsmin, &c[S_SP], 0);
	}
	int added;
	uint32_t region = c[S_T2].type == SQLITE_NULL ? UINT32_MAX : c[S_T2].u.s;
	if (pair_of(r, (uint32_t)gi, region, &added) < 0)
		return -1;
	g->nregions += added;
	if (c[S_T0].type != SQLITE_NULL && !(r->prov[c[S_T0].u.s] & PV_SEEN)) {
		r->prov[c[S_T0].u.s] |= PV_SEEN;
		r->providers++;
	}
	if (c[S_ASOF].type == SQLITE_NULL)
		r->undated++;
	else
		min_of(r, &r->oldest, &c[S_ASOF], 0);
	r->offers++;
	return 0;
}

/* Pass two, a row of a group whose regions are wanted: each region's
 * cheapest offer (price IS NULL, fl, price, id: the grouped statement's
 * g_rf). */
static int add_rep(struct run *r, const struct gv *c)
{
	struct gv k[2];
	for (int i = 0; i < r->ngk; i++)
		k[i] = c[r->gk[i]];
	int64_t gi = group_of(r, k, 0);
	if (gi < -1 || (gi >= 0 && !r->g[gi].want))
		return 0; /* pass one saw every group: in one read transaction */
	if (gi < 0)
		return -1;
	int added;
	uint32_t region = c[S_T2].type == SQLITE_NULL ? UINT32_MAX : c[S_T2].u.s;
	int64_t slot = pair_of(r, (uint32_t)gi, region, &added);
	if (slot < 0)
		return -1;
	struct gv rank[R_N];
	rank_of(r, c, rank);
	uint32_t ri = r->pval[slot];
	if (ri != UINT32_MAX) {
		struct rep *p = &r->rep[ri];
		int cmp = price_cmp(r, &rank[R_P], &rank[R_FL], &p->rank[R_P], &p->rank[R_FL]);
		if (cmp < 0 || (cmp == 0 && gv_cmp(r, &rank[R_T4], &p->rank[R_T4]) < 0))
			memcpy(p->rank, rank, sizeof rank);
		return 0;
	}
	if (r->nrep == r->crep) {
		if (r->crep >= UINT32_MAX / 2)
			return -1;
		uint32_t n = r->crep ? r->crep * 2 : 1024;
		struct rep *p = realloc(r->rep, n * sizeof *p);
		if (!p)
			return -1;
		r->rep = p;
		r->crep = n;
	}
	r->rep[r->nrep] = (struct rep){(uint32_t)gi, region, {{0}}};
	memcpy(r->rep[r->nrep].rank, rank, sizeof rank);
	r->pval[slot] = r->nrep++;
	return 0;
}

/* Run the scan through `fn`, once (the statement is reset first). */
static enum gc_status pass(struct run *r, sqlite3_stmt *s, int (*fn)(struct run *,
								  const struct gv *),
			   char **err)
{
	struct gv c[S_SORT + QUERY_MAX_SORT];
	int rc;
	sqlite3_reset(s);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int keep = r->unk ? query_unknown_row(r->unk, s, r->nscan, S_T0, r->counting) : 1;
		if (keep < 0)
			return err_set(err, GC_ENOMEM, "out of memory");
		if (!keep)
			continue;
		for (int i = 0; i < r->nscan; i++)
			if (read_gv(r, s, i, &c[i]) < 0)
				return err_set(err, GC_ENOMEM, "out of memory");
		if (fn(r, c) < 0)
			return err_set(err, GC_ENOMEM, "out of memory");
	}
	if (rc != SQLITE_DONE)
		return err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			       "cannot read the cache: %s", sqlite3_errmsg(r->db));
	return GC_OK;
}

/* --- order ------------------------------------------------------------- */

typedef int (*cmp_fn)(const struct run *r, uint32_t a, uint32_t b);

/* Sort a[0..n) by cmp, stably (a merge sort: qsort takes no context).
 * 0, or -1 out of memory. */
static int sort_ids(const struct run *r, uint32_t *a, size_t n, cmp_fn cmp)
{
	uint32_t *t = n > 1 ? malloc(n * sizeof *t) : NULL;
	if (n > 1 && !t)
		return -1;
	uint32_t *from = a, *to = t;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				to[k++] = cmp(r, from[j], from[i]) < 0 ? from[j++] : from[i++];
			while (i < mid)
				to[k++] = from[i++];
			while (j < hi)
				to[k++] = from[j++];
		}
		uint32_t *x = from;
		from = to;
		to = x;
	}
	if (from != a)
		memcpy(a, from, n * sizeof *a);
	free(t);
	return 0;
}

/* The n groups of the lowest (group_cmp) of all, sorted, into a: a heap
 * of n, the greatest on top, over the groups in turn (O(G log n) and no
 * copy of the order of all: a --limit over 10^6 groups). */
static void top_ids(const struct run *r, uint32_t *a, size_t n, cmp_fn cmp)
{
	size_t len = 0;
	for (uint32_t gi = 0; gi < r->ng && n; gi++) {
		size_t i;
		if (len < n) {
			i = len++;
			for (; i && cmp(r, a[(i - 1) / 2], gi) < 0; i = (i - 1) / 2)
				a[i] = a[(i - 1) / 2];
			a[i] = gi;
			continue;
		}
		if (cmp(r, gi, a[0]) >= 0)
			continue;
		for (i = 0;;) {
			size_t c = 2 * i + 1;
			if (c >= n)
				break;
			if (c + 1 < n && cmp(r, a[c], a[c + 1]) < 0)
				c++;
			if (cmp(r, a[c], gi) <= 0)
				break;
			a[i] = a[c];
			i = c;
		}
		a[i] = gi;
	}
}

/* A group's lowest or highest price (`which` GF_MIN, GF_MAX, GF_SMIN): of
 * its prices other than auction floors, when it has any. */
static struct gv range_of(const struct grp *g, int which)
{
	const struct gv *rent = which == GF_MIN ? &g->rmin : which == GF_MAX ? &g->rmax : &g->rsmin;
	const struct gv *all = which == GF_MIN ? &g->min : which == GF_MAX ? &g->max : &g->smin;
	return rent->type != SQLITE_NULL ? *rent : *all;
}

/* A group's value of sort key i. */
static struct gv sort_value(const struct run *r, uint32_t gi, size_t i)
{
	const struct grp *g = &r->g[gi];
	struct gv v = {SQLITE_INTEGER, {0}};
	switch (r->src[i]) {
	case GF_OFFERS:
		v.u.i = g->offers;
		return v;
	case GF_NREGIONS:
		v.u.i = g->nregions;
		return v;
	case GF_REGIONS:
		v.type = g->regions ? SQLITE_TEXT : SQLITE_NULL;
		v.u.s = g->regions - 1;
		return v;
	case GF_MIN:
	case GF_MAX:
	case GF_SMIN:
		return range_of(g, r->src[i]);
	case S_P:
		return g->first[R_P];
	default:
		return r->sval[(size_t)gi * r->nsv + (size_t)(r->src[i] - S_SORT)];
	}
}

/* The grouped statement's ORDER BY: each key "s IS NULL, s [DESC]" (a
 * price "s IS NULL, g_fl, s [DESC]": the cheapest offer's floor flag), then
 * the cheapest offer's t0 .. t4. */
static int group_cmp(const struct run *r, uint32_t a, uint32_t b)
{
	static const struct gv zero = {SQLITE_INTEGER, {.i = 0}};
	for (size_t i = 0; i < r->nkeys; i++) {
		struct gv va = sort_value(r, a, i), vb = sort_value(r, b, i);
		int price = r->price[i];
		int c = price_cmp(r, &va, price ? &r->g[a].first[R_FL] : &zero, &vb,
				  price ? &r->g[b].first[R_FL] : &zero);
		int fl = price && r->g[a].first[R_FL].u.i != r->g[b].first[R_FL].u.i;
		if (c && !fl && va.type != SQLITE_NULL && vb.type != SQLITE_NULL && r->q->nsort &&
		    r->q->sort[i].desc)
			c = -c;
		if (c)
			return c;
	}
	int c = 0;
	for (int i = R_T0; !c && i < R_N; i++)
		c = gv_cmp(r, &r->g[a].first[i], &r->g[b].first[i]);
	return c;
}

/* A group's regions in order: its group, then the rank of each region's
 * cheapest offer. */
static int rep_cmp(const struct run *r, uint32_t a, uint32_t b)
{
	const struct rep *x = &r->rep[a], *y = &r->rep[b];
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return rank_cmp(r, x->rank, y->rank);
}

/* Pass two over the groups marked `want`: each one's region list,
 * cheapest first, joined by FIELD_LIST_SEP (group_concat's NULL when it
 * has none). */
static enum gc_status region_lists(struct run *r, sqlite3_stmt *s, char **err)
{
	/* pass one made every pair: a rep index beside each */
	r->pval = r->pkey ? malloc((r->pmask + 1) * sizeof *r->pval) : NULL;
	if (r->pkey && !r->pval)
		return err_set(err, GC_ENOMEM, "out of memory");
	if (r->pval)
		memset(r->pval, 0xff, (r->pmask + 1) * sizeof *r->pval);
	enum gc_status st = pass(r, s, add_rep, err);
	uint32_t *ord = st == GC_OK && r->nrep ? malloc(r->nrep * sizeof *ord) : NULL;
	if (st != GC_OK || !r->nrep)
		return st;
	struct buf b;
	buf_init(&b, 0);
	for (uint32_t i = 0; ord && i < r->nrep; i++)
		ord[i] = i;
	if (!ord || sort_ids(r, ord, r->nrep, rep_cmp) < 0)
		st = GC_ENOMEM;
	size_t items = 0;
	for (uint32_t i = 0; st == GC_OK && i < r->nrep; i++) {
		const struct rep *p = &r->rep[ord[i]];
		uint32_t n;
		if (p->region != UINT32_MAX) {
			const char *t = str_at(r, p->region, &n);
			if (items++)
				st = buf_addc(&b, FIELD_LIST_SEP);
			if (st == GC_OK)
				st = buf_add(&b, t, n);
		}
		if (st != GC_OK || (i + 1 < r->nrep && r->rep[ord[i + 1]].group == p->group))
			continue;
		int64_t id = items ? intern(r, b.len ? b.ptr : "", (uint32_t)b.len) : -1;
		if (items && id < 0)
			st = GC_ENOMEM;
		r->g[p->group].regions = items && id >= 0 ? (uint32_t)id + 1 : 0;
		buf_reset(&b);
		items = 0;
	}
	buf_free(&b);
	free(ord);
	return st == GC_OK ? GC_OK : err_set(err, st, "out of memory");
}

/* --- the rows shown ---------------------------------------------------- */

/* A shown row: its cheapest offer's columns, the group's members bound. */
static enum gc_status row_sql(const struct query *q, const struct field *const *cols,
			      size_t ncols, struct buf *b)
{
	enum gc_status st = buf_addstr(b, "SELECT ");
	for (size_t i = 0; i < ncols && st == GC_OK; i++)
		st = buf_printf(b, "%s%s", i ? ", " : "", query_field_sql(q, cols[i]));
	if (st == GC_OK)
		st = buf_addstr(b, " FROM (SELECT ? AS g_offers, ? AS g_nregions, ? AS g_regions,"
			       " ? AS g_min, ? AS g_max, ? AS g_smin) g"
			       " JOIN offer_v ON offer_v.id = ?");
	return st;
}

static int bind_gv(const struct run *r, sqlite3_stmt *s, int i, const struct gv *v)
{
	uint32_t n;
	const char *t = v->type == SQLITE_TEXT || v->type == SQLITE_BLOB ? str_at(r, v->u.s, &n)
									 : NULL;
	switch (v->type) {
	case SQLITE_INTEGER:
		return sqlite3_bind_int64(s, i, v->u.i);
	case SQLITE_FLOAT:
		return sqlite3_bind_double(s, i, v->u.d);
	case SQLITE_TEXT:
		return sqlite3_bind_text(s, i, t, (int)n, SQLITE_STATIC);
	case SQLITE_BLOB:
		return sqlite3_bind_blob(s, i, t, (int)n, SQLITE_STATIC);
	default:
		return sqlite3_bind_null(s, i);
	}
}

static enum gc_status db_error(sqlite3 *db, int rc, const char *what, char **err)
{
	return err_set(err, rc == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO, "%s: %s", what,
		       sqlite3_errmsg(db));
}

/* Render the groups ord[0..n) with spec: one lookup by id each. */
static enum gc_status show(struct run *r, const uint32_t *ord, size_t n,
			   const struct field *const *cols, size_t ncols,
			   const struct render_spec *spec, size_t *rows, char **err)
{
	struct buf sql;
	sqlite3_stmt *s = NULL;
	struct renderer *rd = NULL;
	buf_init(&sql, 0);
	enum gc_status st = row_sql(r->q, cols, ncols, &sql);
	int rc = st == GC_OK ? sqlite3_prepare_v2(r->db, sql.ptr, -1, &s, NULL) : SQLITE_NOMEM;
	buf_free(&sql);
	if (rc != SQLITE_OK)
		st = db_error(r->db, rc, "cannot query the cache", err);
	else
		st = render_begin(&rd, spec, err);
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		const struct grp *g = &r->g[ord[i]];
		struct gv m[7] = {{SQLITE_INTEGER, {.i = g->offers}},
				  {SQLITE_INTEGER, {.i = g->nregions}},
				  {g->regions ? SQLITE_TEXT : SQLITE_NULL, {.s = g->regions - 1}},
				  range_of(g, GF_MIN), range_of(g, GF_MAX), range_of(g, GF_SMIN),
				  g->first[R_T4]};
		sqlite3_reset(s);
		rc = SQLITE_OK;
		for (int k = 0; k < 7 && rc == SQLITE_OK; k++)
			rc = bind_gv(r, s, k + 1, &m[k]);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			st = render_row(rd, s, err);
		else if (rc != SQLITE_DONE)
			st = db_error(r->db, rc, "cannot read the cache", err);
	}
	if (rd && st == GC_OK)
		st = render_end(rd, rows, err);
	else
		render_abort(rd);
	sqlite3_finalize(s);
	return st;
}

/* After pass one: the groups sorted and cut to the limit, their regions
 * when the sort or the output needs them, and the rows shown. */
static enum gc_status answer(struct run *r, sqlite3_stmt *s, const struct field *const *cols,
			     size_t ncols, const struct render_spec *spec, size_t *rows,
			     char **err)
{
	uint32_t *ord = r->ng ? malloc(r->ng * sizeof *ord) : NULL;
	if (r->ng && !ord)
		return err_set(err, GC_ENOMEM, "out of memory");
	int by_regions = 0;
	for (size_t i = 0; i < r->nkeys; i++)
		by_regions |= r->src[i] == GF_REGIONS;
	enum gc_status st = GC_OK;
	if (r->q->limit == 0)
		return show(r, ord, 0, cols, ncols, spec, rows, err);
	for (uint32_t i = 0; i < r->ng; i++) {
		ord[i] = i;
		r->g[i].want = by_regions;
	}
	if (by_regions)
		st = region_lists(r, s, err);
	size_t n = r->q->limit >= 0 && (size_t)r->q->limit < r->ng ? (size_t)r->q->limit : r->ng;
	int top = n < r->ng / 2;
	if (st == GC_OK && top)
		top_ids(r, ord, n, group_cmp);
	if (st == GC_OK && sort_ids(r, ord, top ? n : r->ng, group_cmp) < 0)
		st = err_set(err, GC_ENOMEM, "out of memory");
	if (st == GC_OK && r->want_regions && !by_regions) {
		for (size_t i = 0; i < n; i++)
			r->g[ord[i]].want = 1;
		st = region_lists(r, s, err);
	}
	if (st == GC_OK)
		st = show(r, ord, n, cols, ncols, spec, rows, err);
	free(ord);
	return st;
}

static void run_free(struct run *r)
{
	free(r->pool);
	free(r->off);
	free(r->shash);
	free(r->sslot);
	free(r->prov);
	free(r->g);
	free(r->gslot);
	free(r->sval);
	free(r->pkey);
	free(r->pval);
	free(r->rep);
}

/* What tells an auction floor: the word, and over table offer the
 * providers whose profile says their prices are floors (offer_v's
 * fallback when an offer names no kind), read once. */
static enum gc_status floor_kinds(struct run *r, char **err)
{
	static const char word[] = "auction_floor";
	int64_t id = intern(r, word, sizeof word - 1);
	if (id < 0)
		return err_set(err, GC_ENOMEM, "out of memory");
	r->floor_word = (uint32_t)id;
	if (!r->floors_last || !r->on_offer)
		return GC_OK;
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(r->db, "SELECT id FROM provider"
				    " WHERE billing_price_kind = 'auction_floor'", -1, &s, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);
		id = t ? intern(r, t, (uint32_t)sqlite3_column_bytes(s, 0)) : -2;
		rc = id == -1 ? SQLITE_NOMEM : SQLITE_OK;
		if (id >= 0)
			r->prov[id] |= PV_FLOOR;
	}
	if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(s);
	return rc == SQLITE_OK ? GC_OK : db_error(r->db, rc, "cannot read the cache", err);
}

static void counts_of(const struct run *r, struct query_counts *counts)
{
	*counts = (struct query_counts){r->offers, r->providers, r->ng, r->undated, ""};
	uint32_t len;
	if (r->oldest.type == SQLITE_TEXT) {
		const char *t = str_at(r, r->oldest.u.s, &len);
		snprintf(counts->oldest, sizeof counts->oldest, "%.*s", (int)len, t);
	}
}

enum gc_status query_group_list(struct cache *c, const struct query *q,
				const struct field *const *cols, size_t ncols,
				const struct render_spec *spec, size_t *rows,
				struct query_counts *counts, struct query_omitted *omitted,
				char **err)
{
	struct run r = {.q = q, .db = cache_db(c), .oldest = {.type = SQLITE_NULL},
			.floors_last = query_floors_last(q)};
	memset(r.last, 0xff, sizeof r.last);
	struct query_sql qs;
	sqlite3_stmt *s = NULL;
	*rows = 0;
	if (q->group <= QG_NONE || q->group >= QG_COUNT)
		return err_set(err, GC_EUSAGE, "not a grouping");
	r.ngk = group_cols[q->group][0];
	r.gk[0] = group_cols[q->group][1];
	r.gk[1] = group_cols[q->group][2];
	for (size_t i = 0; i < ncols; i++)
		r.want_regions |= strcmp(cols[i]->sql ? cols[i]->sql : "", "g_regions") == 0 &&
				  field_is_group(cols[i]);
	/* the offers left out as unknown: in this scan, not one count each */
	enum gc_status st = omitted && q->limit != 0 ? query_unknown_begin(q, &r.unk, err) : GC_OK;
	r.counting = 1;
	if (st == GC_OK)
		st = scan_sql(&r, &qs, err);
	if (st == GC_OK)
		st = query_prepare(r.db, &qs, &s, err);
	query_sql_release(&qs);
	/* one read transaction: both passes and the rows shown see one state */
	int txn = st == GC_OK && sqlite3_get_autocommit(r.db);
	int rc = txn ? sqlite3_exec(r.db, "BEGIN", NULL, NULL, NULL) : SQLITE_OK;
	if (rc != SQLITE_OK) {
		txn = 0;
		st = db_error(r.db, rc, "cannot read the cache", err);
	}
	if (st == GC_OK)
		st = floor_kinds(&r, err);
	if (st == GC_OK && q->limit != 0)
		st = pass(&r, s, add_row, err);
	r.counting = 0;
	if (st == GC_OK)
		st = answer(&r, s, cols, ncols, spec, rows, err);
	sqlite3_finalize(s);
	if (txn)
		sqlite3_exec(r.db, "COMMIT", NULL, NULL, NULL);
	if (counts && st == GC_OK && q->limit != 0)
		counts_of(&r, counts);
	if (omitted && st == GC_OK && q->limit != 0) {
		query_unknown_end(r.unk, omitted); /* nothing left out: counted, none */
		if (!r.unk)
			*omitted = (struct query_omitted){.counted = 1};
	} else {
		query_unknown_end(r.unk, NULL);
	}
	run_free(&r);
	return st;
}
