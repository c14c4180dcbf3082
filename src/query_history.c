/* query_history.c - changes, events and daily minimums over the price
 * history (query_history.h).  The offers come from history_v filtered as
 * list filters offer_v (query_add_filters); the tables are cache_history.c's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/query_history.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

static void add(struct query_sql *out, const char *s, enum gc_status *st)
{
	if (*st == GC_OK && buf_addstr(&out->sql, s) != GC_OK)
		*st = GC_ENOMEM;
}

static enum gc_status fail(enum gc_status st, char **err)
{
	if (st == GC_ENOMEM)
		return err_set(err, GC_ENOMEM, "out of memory");
	return st;
}

/* "(SELECT <cols> FROM history_v WHERE <q's filters>)": the offers
 * history knows, or (events) those an event touched, all that a question
 * about events needs: SQLite pushes touched = 1 into history_v's union,
 * where it is a constant false for the offers no event touched, which
 * are then not read. */
static void selected(const struct query *q, const char *cols, int events,
		     struct query_sql *out, enum gc_status *st, char **err)
{
	add(out, "(SELECT ", st);
	add(out, cols, st);
	add(out, events ? " FROM (SELECT * FROM history_v WHERE touched = 1)" : " FROM history_v",
	    st);
	if (*st == GC_OK)
		*st = query_add_filters(q, out, err);
	add(out, ")", st);
}

/* The changes among the offers q selects, over the events that `cond`
 * (" AND e.at >= ", " AND e.id > ") and its value (text, else num) keep. */
static enum gc_status changes_sql(const struct query *q, const char *cond, const char *text,
				  double num, struct query_sql *out, char **err)
{
	enum gc_status st = GC_OK;
	const char *p = q->spot ? "k.s" : "k.p", *wp = q->spot ? "k.ws" : "k.wp";
	char cls[640];
	snprintf(cls, sizeof cls,
		 "CASE WHEN NOT k.was AND k.now THEN 'appeared' WHEN k.was AND NOT k.now"
		 " THEN 'gone' WHEN NOT k.was THEN NULL WHEN %s < %s THEN 'cheaper'"
		 " WHEN %s > %s THEN 'dearer' WHEN k.s < k.ws THEN 'spot_cheaper'"
		 " WHEN k.s > k.ws THEN 'spot_dearer' WHEN k.wa = 1 AND k.a = 0 THEN 'sold-out'"
		 " WHEN k.wa = 0 AND k.a = 1 THEN 'back' END",
		 p, wp, p, wp);
	buf_init(&out->sql, 0);
	out->nbinds = 0;
	/* the offers q selects first, then each one's first and last event in
	 * the window: two seeks in history(offer, at) per offer, whatever the
	 * number of events */
	add(out, "WITH v AS ", &st);
	selected(q, "id, provider, sku, region, gpu, gpu_count", 1, out, &st, err);
	add(out, ", w AS (SELECT v.*, (SELECT e.id FROM history e WHERE e.offer = v.id", &st);
	add(out, cond, &st);
	if (st == GC_OK)
		st = query_add_param(out, text, num, err);
	add(out, " ORDER BY e.at, e.id LIMIT 1) AS f, (SELECT e.id FROM history e"
		 " WHERE e.offer = v.id", &st);
	add(out, cond, &st);
	if (st == GC_OK)
		st = query_add_param(out, text, num, err);
	add(out, " ORDER BY e.at DESC, e.id DESC LIMIT 1) AS l FROM v), k AS (SELECT w.*,"
		 " (fe.kind & 1) = 0 AS was, (le.kind & 2) = 0 AS now, fe.was_price_hr AS wp,"
		 " le.price_hr AS p, fe.was_spot_price_hr AS ws, le.spot_price_hr AS s,"
		 " fe.was_available AS wa, le.available AS a, le.at AS at FROM w"
		 " JOIN history fe ON fe.id = w.f JOIN history le ON le.id = w.l),"
		 " c AS (SELECT k.*, ", &st);
	add(out, cls, &st);
	add(out, " AS change FROM k) SELECT c.change, c.provider, c.sku, c.region, c.gpu,"
		 " c.gpu_count, c.p, c.wp, c.s, c.ws, c.a, c.wa, c.at FROM c"
		 " WHERE c.change IS NOT NULL ORDER BY CASE c.change"
		 " WHEN 'appeared' THEN 0 WHEN 'cheaper' THEN 1 WHEN 'dearer' THEN 2"
		 " WHEN 'gone' THEN 3 ELSE 4 END, c.provider, c.sku, c.region", &st);
	if (q->limit >= 0) {
		add(out, " LIMIT ", &st);
		if (st == GC_OK)
			st = query_add_param(out, NULL, (double)q->limit, err);
	}
	return fail(st, err);
}

enum gc_status query_build_changes(const struct query *q, const char *since,
				   struct query_sql *out, char **err)
{
	return changes_sql(q, " AND e.at >= ", since, 0, out, err);
}

enum gc_status query_build_changes_after(const struct query *q, long long after,
					 struct query_sql *out, char **err)
{
	return changes_sql(q, " AND e.id > ", NULL, (double)after, out, err);
}

static char *col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? strdup((const char *)t) : NULL;
}

/* A yes/no as render_value.num holds it: 1, 0, NAN for NULL. */
static double col_bool(sqlite3_stmt *s, int i)
{
	int t = cache_col_tri(s, i);
	return t < 0 ? NAN : t;
}

/* Step s, growing *v (of `size`-byte items) by one per row and filling it
 * with fill; fill returns 0 when out of memory. */
static enum gc_status collect(struct cache *c, sqlite3_stmt *s, void **v, size_t *n,
			      size_t size, int (*fill)(sqlite3_stmt *, void *), char **err)
{
	size_t cap = 0;
	int rc;
	*v = NULL;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (buf_grow_array(v, &cap, *n + 1, size, 16) != GC_OK)
			return err_set(err, GC_ENOMEM, "out of memory");
		void *item = (char *)*v + *n * size;
		memset(item, 0, size);
		(*n)++;
		if (!fill(s, item))
			return err_set(err, GC_ENOMEM, "out of memory");
	}
	if (rc != SQLITE_DONE) {
		sqlite3 *db = cache_db(c);
		return err_set(err, sqlite3_errcode(db) == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO,
			       "cannot read the price history: %s", sqlite3_errmsg(db));
	}
	return GC_OK;
}

static int fill_change(sqlite3_stmt *s, void *item)
{
	struct query_change *x = item;
	x->change = col_text(s, 0);
	x->provider = col_text(s, 1);
	x->sku = col_text(s, 2);
	x->region = col_text(s, 3);
	x->gpu = col_text(s, 4);
	x->gpu_count = cache_col_num(s, 5);
	x->price_hr = cache_col_num(s, 6);
	x->was_price_hr = cache_col_num(s, 7);
	x->spot_price_hr = cache_col_num(s, 8);
	x->was_spot_price_hr = cache_col_num(s, 9);
	x->available = col_bool(s, 10);
	x->was_available = col_bool(s, 11);
	x->at = col_text(s, 12);
	return x->change && x->provider && x->sku && x->region && x->at;
}

/* Prepare qs on c, collect its rows with fill, release them on failure. */
static enum gc_status run(struct cache *c, const struct query_sql *qs, void **v, size_t *n,
			  size_t size, int (*fill)(sqlite3_stmt *, void *),
			  void (*release)(void *, size_t), char **err)
{
	sqlite3_stmt *s;
	*v = NULL;
	*n = 0;
	enum gc_status st = query_prepare(cache_db(c), qs, &s, err);
	if (st != GC_OK)
		return st;
	st = collect(c, s, v, n, size, fill, err);
	sqlite3_finalize(s);
	if (st != GC_OK) {
		release(*v, *n);
		*v = NULL;
		*n = 0;
	}
	return st;
}

void query_changes_release(struct query_change *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].change);
		free(v[i].provider);
		free(v[i].sku);
		free(v[i].region);
		free(v[i].gpu);
		free(v[i].at);
	}
	free(v);
}

static void changes_release(void *v, size_t n)
{
	query_changes_release(v, n);
}

enum gc_status query_changes(struct cache *c, const struct query_sql *qs,
			     struct query_change **out, size_t *n, char **err)
{
	void *v;
	enum gc_status st =
		run(c, qs, &v, n, sizeof **out, fill_change, changes_release, err);
	*out = v;
	return st;
}

enum gc_status query_build_events(const struct query *q, const char *provider,
				  const char *sku, const char *region, struct query_sql *out,
				  char **err)
{
	enum gc_status st = GC_OK;
	buf_init(&out->sql, 0);
	out->nbinds = 0;
	add(out, "SELECT v.provider, v.sku, v.region, e.at, e.kind, e.price_hr,"
		 " e.spot_price_hr, e.was_price_hr, e.was_spot_price_hr, e.available,"
		 " e.was_available FROM ", &st);
	selected(q, "id, provider, sku, region", 1, out, &st, err);
	add(out, " v JOIN history e ON e.offer = v.id WHERE v.provider = ", &st);
	if (st == GC_OK)
		st = query_add_param(out, provider, 0, err);
	add(out, " AND v.sku = ", &st);
	if (st == GC_OK)
		st = query_add_param(out, sku, 0, err);
	if (region) {
		add(out, " AND v.region = ", &st);
		if (st == GC_OK)
			st = query_add_param(out, region, 0, err);
	}
	add(out, " ORDER BY v.provider, v.sku, v.region, e.id", &st);
	return fail(st, err);
}

static int fill_event(sqlite3_stmt *s, void *item)
{
	struct query_event *x = item;
	x->provider = col_text(s, 0);
	x->sku = col_text(s, 1);
	x->region = col_text(s, 2);
	x->at = col_text(s, 3);
	x->kind = sqlite3_column_int(s, 4);
	x->price_hr = cache_col_num(s, 5);
	x->spot_price_hr = cache_col_num(s, 6);
	x->was_price_hr = cache_col_num(s, 7);
	x->was_spot_price_hr = cache_col_num(s, 8);
	x->available = col_bool(s, 9);
	x->was_available = col_bool(s, 10);
	return x->provider && x->sku && x->region && x->at;
}

void query_events_release(struct query_event *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].provider);
		free(v[i].sku);
		free(v[i].region);
		free(v[i].at);
	}
	free(v);
}

static void events_release(void *v, size_t n)
{
	query_events_release(v, n);
}

enum gc_status query_events(struct cache *c, const struct query_sql *qs,
			    struct query_event **out, size_t *n, char **err)
{
	void *v;
	enum gc_status st = run(c, qs, &v, n, sizeof **out, fill_event, events_release, err);
	*out = v;
	return st;
}

/* An event's stock bit by what it went from and to: sold-out (yes to no),
 * back (no to yes), stock (to or from unknown). */
static const char *stock_word(const struct query_event *e)
{
	if (e->was_available == 1 && e->available == 0)
		return "sold-out";
	if (e->was_available == 0 && e->available == 1)
		return "back";
	return "stock";
}

void query_event_kind(const struct query_event *e, char *out, size_t n)
{
	const char *names[] = {"appeared", "gone", "price", "spot", stock_word(e)};
	size_t o = 0;
	out[0] = '\0';
	for (int i = 0; i < 5; i++) {
		if (!(e->kind & (1 << i)))
			continue;
		int w = snprintf(out + o, n - o, "%s%s", o ? "," : "", names[i]);
		if (w < 0 || (size_t)w >= n - o)
			return;
		o += (size_t)w;
	}
}

enum gc_status query_build_daily(const struct query *q, const char *since,
				 struct query_sql *out, char **err)
{
	enum gc_status st = GC_OK;
	const char *p = q->spot ? "spot_price_hr" : "price_hr";
	char sql[768];
	buf_init(&out->sql, 0);
	out->nbinds = 0;
	add(out, "WITH v AS ", &st);
	selected(q, "id, gpu, provider, sku, region, price_hr, spot_price_hr", 0, out, &st,
		 err);
	/* the offers no event changed since `since`: one price per group (an
	 * offer without a history row, id < 0, is its provider's since the
	 * baseline, unchanged; of a key its load repeats, the first row, the
	 * largest of those ids, as the diff takes it) */
	snprintf(sql, sizeof sql,
		 ", s AS (SELECT v.gpu, v.provider, v.%s AS p, COALESCE(h.seen, (SELECT"
		 " hp.since FROM history_provider hp WHERE hp.provider = v.provider)) AS seen"
		 " FROM v LEFT JOIN history_offer h ON h.id = v.id"
		 " WHERE (h.present = 1 OR v.id IN (SELECT max(id) FROM v WHERE id < 0"
		 " GROUP BY provider, sku, region)) AND NOT EXISTS"
		 " (SELECT 1 FROM history e WHERE e.offer = v.id AND e.at >= ",
		 p);
	add(out, sql, &st);
	if (st == GC_OK)
		st = query_add_param(out, since, 0, err);
	snprintf(sql, sizeof sql,
		 ")) SELECT s.gpu, s.provider, NULL, s.seen, 0, min(s.p), NULL, NULL, NULL FROM s"
		 " GROUP BY s.gpu, s.provider, substr(s.seen, 1, 10) UNION ALL SELECT v.gpu,"
		 " v.provider, e.offer, e.at, e.kind, e.%s, e.was_%s, e.id, hs.seen FROM v"
		 " JOIN history e ON e.offer = v.id JOIN history_offer hs ON hs.id = e.offer"
		 " WHERE e.at >= ",
		 p, p);
	add(out, sql, &st);
	if (st == GC_OK)
		st = query_add_param(out, since, 0, err);
	add(out, " ORDER BY 1, 2, 3, 8", &st);
	return fail(st, err);
}

/* The walk over query_build_daily's rows: the group being filled and the
 * offer whose events are being read (its state since day `day`). */
struct daily_walk {
	struct query_daily *v;
	size_t n, cap, ndays;
	long first;
	int have_offer, present;
	long long offer;
	double price;
	size_t day;
};

static void lower(struct daily_walk *w, size_t from, size_t to, double price)
{
	double *m = w->v[w->n - 1].min;
	for (size_t d = from; d <= to && d < w->ndays && !isnan(price); d++)
		if (isnan(m[d]) || price < m[d])
			m[d] = price;
}

/* The offer's state from its last event to the last day. */
static void offer_done(struct daily_walk *w)
{
	if (w->have_offer && w->present)
		lower(w, w->day, w->ndays - 1, w->price);
	w->have_offer = 0;
}

static enum gc_status group_start(struct daily_walk *w, sqlite3_stmt *s, char **err)
{
	const char *gpu = (const char *)sqlite3_column_text(s, 0);
	const char *prov = (const char *)sqlite3_column_text(s, 1);
	if (w->n && gpu && prov && strcmp(w->v[w->n - 1].gpu, gpu) == 0 &&
	    strcmp(w->v[w->n - 1].provider, prov) == 0)
		return GC_OK;
	offer_done(w);
	if (buf_grow_array(&w->v, &w->cap, w->n + 1, sizeof *w->v, 16) != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	struct query_daily *g = &w->v[w->n++];
	g->gpu = strdup(gpu ? gpu : "");
	g->provider = strdup(prov ? prov : "");
	g->min = malloc(w->ndays * sizeof *g->min);
	if (!g->gpu || !g->provider || !g->min)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t d = 0; d < w->ndays; d++)
		g->min[d] = NAN;
	return GC_OK;
}

/* The day of the walk a time of column i falls on (0 before the first). */
static size_t day_of(const struct daily_walk *w, sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	long d = t ? str_date_days((const char *)t) - w->first : 0;
	return d < 0 ? 0 : (size_t)d;
}

/* A row: a group's unchanged offers (no offer id: their cheapest price
 * from the day history first saw them), or one event of an offer, whose
 * state before it held since history first saw it. */
static void daily_row(struct daily_walk *w, sqlite3_stmt *s)
{
	if (sqlite3_column_type(s, 2) == SQLITE_NULL) {
		lower(w, day_of(w, s, 3), w->ndays - 1, cache_col_num(s, 5));
		return;
	}
	long long offer = sqlite3_column_int64(s, 2);
	int kind = sqlite3_column_int(s, 4);
	if (!w->have_offer || offer != w->offer) {
		offer_done(w);
		w->have_offer = 1;
		w->offer = offer;
		w->present = !(kind & CACHE_HIST_APPEARED);
		w->price = cache_col_num(s, 6);
		w->day = day_of(w, s, 8);
	}
	size_t day = day_of(w, s, 3);
	if (w->present)
		lower(w, w->day, day, w->price);
	w->present = !(kind & CACHE_HIST_GONE);
	w->price = cache_col_num(s, 5);
	w->day = day;
}

void query_daily_release(struct query_daily *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].gpu);
		free(v[i].provider);
		free(v[i].min);
	}
	free(v);
}

enum gc_status query_daily(struct cache *c, const struct query_sql *qs, long first,
			   size_t ndays, struct query_daily **out, size_t *n, char **err)
{
	struct daily_walk w = {.ndays = ndays ? ndays : 1, .first = first};
	sqlite3_stmt *s;
	*out = NULL;
	*n = 0;
	enum gc_status st = query_prepare(cache_db(c), qs, &s, err);
	int rc = SQLITE_DONE;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW)
		if ((st = group_start(&w, s, err)) == GC_OK)
			daily_row(&w, s);
	if (st == GC_OK && rc != SQLITE_DONE)
		st = err_set(err, GC_EIO, "cannot read the price history: %s",
			     sqlite3_errmsg(cache_db(c)));
	if (st == GC_OK && w.n)
		offer_done(&w);
	sqlite3_finalize(s);
	if (st != GC_OK) {
		query_daily_release(w.v, w.n);
		return st;
	}
	*out = w.v;
	*n = w.n;
	return GC_OK;
}
