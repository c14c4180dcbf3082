/* cache_history.c - price history: what a load changed, recorded in the
 * load's transaction (cache_history_record, called by cache_write.c), the
 * retention (cache_history_compact), and the columns of history_v.
 * docs/HISTORY.md describes the tables; cache_schema.c creates them.
 * Calls cache_db.c only. */
#include <stdio.h>
#include <string.h>

#include "cache_int.h"
#include "gpucmp/buf.h"
#include "sqlite_int.h"

/* history_offer holds an offer's key and the state history compares
 * (price, spot price, availability); the rest of what describes it is
 * read from its row in offer (history_offer.oid) while it is there, and
 * kept in history_detail once it is gone.  The detail columns: offer's
 * stored columns but those, and the three the cache adds.  @DCOLS@ in a
 * statement is that list bare, @ODCOLS@ read from offer o. */
static const char *const hist_own[] = {"provider", "sku", "region", "price_hr",
				       "spot_price_hr", "available"};
static const char *const hist_extra[] = {"stale", "driver_num", "max_cuda_num"};
#define NOWN (sizeof hist_own / sizeof *hist_own)
#define NEXTRA (sizeof hist_extra / sizeof *hist_extra)

static int own(const char *name)
{
	for (size_t i = 0; i < NOWN; i++)
		if (strcmp(hist_own[i], name) == 0)
			return 1;
	return 0;
}

/* The i-th detail column, NULL past the last. */
static const char *detail_col(size_t i)
{
	for (size_t k = 0; k < offer_ncols; k++)
		if (!own(offer_cols[k].name) && i-- == 0)
			return offer_cols[k].name;
	return i < NEXTRA ? hist_extra[i] : NULL;
}

static enum gc_status put_cols(struct buf *b, const char *prefix)
{
	enum gc_status st = GC_OK;
	const char *name;
	for (size_t i = 0; st == GC_OK && (name = detail_col(i)) != NULL; i++)
		st = buf_printf(b, "%s%s%s", i ? ", " : "", prefix, name);
	return st;
}

/* sql with @DCOLS@ and @ODCOLS@ written out, into b. */
static enum gc_status expand(const char *sql, struct buf *b)
{
	enum gc_status st = GC_OK;
	const char *p = sql, *at;
	while (st == GC_OK && (at = strchr(p, '@')) != NULL) {
		int o = strncmp(at, "@ODCOLS@", 8) == 0;
		size_t skip = o ? 8 : strncmp(at, "@DCOLS@", 7) == 0 ? 7 : 1;
		st = buf_add(b, p, (size_t)(at - p) + (skip == 1));
		if (st == GC_OK && skip > 1)
			st = put_cols(b, o ? "o." : "");
		p = at + skip;
	}
	if (st == GC_OK)
		st = buf_add(b, p, strlen(p) + 1);
	return st;
}

enum gc_status cache_history_wide(struct buf *b)
{
	enum gc_status st = buf_addstr(b, "(SELECT h.id AS id");
	for (size_t i = 0; st == GC_OK && i < NOWN; i++)
		st = buf_printf(b, ", h.%s AS %s", hist_own[i], hist_own[i]);
	const char *name;
	for (size_t i = 0; st == GC_OK && (name = detail_col(i)) != NULL; i++)
		st = buf_printf(b, ", CASE WHEN x.id IS NULL THEN g.%s ELSE x.%s END AS %s", name,
				name, name);
	if (st == GC_OK)
		st = buf_addstr(b, ", 1 AS touched FROM history_offer h LEFT JOIN offer x"
				   " ON x.id = h.oid AND x.provider = h.provider AND x.sku = h.sku"
				   " AND x.region = h.region"
				   " LEFT JOIN history_detail g ON g.id = h.id");
	/* the offers of each provider's last recorded load that no event ever
	 * touched: their rows in offer, as they are (a negative id: no event
	 * names them; a key a load repeats is listed per row; touched 0, which
	 * a question about events asks to be 1: SQLite pushes that into this
	 * arm as a constant false and never reads it) */
	if (st == GC_OK)
		st = buf_addstr(b, " UNION ALL SELECT -o.id");
	for (size_t i = 0; st == GC_OK && i < NOWN; i++)
		st = buf_printf(b, ", o.%s", hist_own[i]);
	for (size_t i = 0; st == GC_OK && (name = detail_col(i)) != NULL; i++)
		st = buf_printf(b, ", o.%s", name);
	if (st == GC_OK)
		st = buf_addstr(b, ", 0 FROM history_provider p JOIN offer o"
				   " ON o.provider = p.provider AND o.id BETWEEN p.lo AND p.hi"
				   " WHERE NOT EXISTS (SELECT 1 FROM history_offer k"
				   " WHERE k.provider = o.provider AND k.sku = o.sku"
				   " AND k.region = o.region))");
	return st;
}

/* A stored row of hist_new changed against what history last knew of it. */
#define HIST_CHANGED                                                                 \
	"(n.was_present = 0 OR n.price_hr IS NOT n.was_price OR"                     \
	" n.spot_price_hr IS NOT n.was_spot OR n.available IS NOT n.was_avail)"
/* h's row in offer, when it is the one h points to. */
#define HIST_ROW                                                                     \
	" o.id = h.oid AND o.provider = h.provider AND o.sku = h.sku AND o.region = h.region"

/* The provider's baseline time (?1: the provider). */
#define HIST_SINCE "(SELECT since FROM history_provider WHERE provider = ?1)"

/* The parameters of a record's statements. */
struct hist_params {
	const char *provider, *at;
	int events;
	long long before;
	int builtin; /* cache_history_detach: only the built-in rows */
};

/* One record, in order (?1 provider, ?2 the load's time, ?4 the last
 * offer id before the load: the provider's rows up to it are the
 * previous load's, still there, so that a gone offer's detail can be
 * kept).
 *
 * What history knows of a key is its row in history_offer when an event
 * ever touched it, else (an offer unchanged since its provider's
 * baseline: most of them) its row in the previous load, which
 * history_provider's range names.  So an unchanged offer costs history
 * nothing, at the baseline or after.  merge() walks three streams in key
 * order (the new offers and the previous load, each key's first row; the
 * provider's history_offer rows) and writes only the keys with something
 * to record: hist_new, a new offer with what history knew of it (hid: its
 * history_offer row; was_present NULL: a new key); hist_old, an offer of
 * the previous load that history has no row for and this load has not.
 * Then the statements below: rows for the keys that get their first
 * event, the events of those it knew (changed, or back), each known one
 * pointed at its new row; those that still point at an old row are gone;
 * the new keys last. */
static const char *const record_pre[] = {
	"CREATE TEMP TABLE IF NOT EXISTS hist_new(sku TEXT, region TEXT, oid INTEGER,"
	" hid INTEGER, price_hr REAL, spot_price_hr REAL, available INTEGER,"
	" was_present INTEGER, was_price REAL, was_spot REAL, was_avail INTEGER,"
	" was_oid INTEGER)",
	("CREATE TEMP TABLE IF NOT EXISTS hist_old(sku TEXT, region TEXT, oid INTEGER,"
	 " price_hr REAL, spot_price_hr REAL, available INTEGER)"),
	"CREATE TEMP TABLE IF NOT EXISTS hist_gone(id INTEGER PRIMARY KEY)",
	"CREATE TEMP TABLE IF NOT EXISTS hist_drop(id INTEGER PRIMARY KEY)",
	"DELETE FROM temp.hist_new",
	"DELETE FROM temp.hist_old",
	"DELETE FROM temp.hist_gone",
	"DELETE FROM temp.hist_drop",
};

static const char *const record_sql[] = {
	/* rows that say no more than the load's offer would (a cache from
	 * schema 9, or an offer whose events the retention dropped): gone, the
	 * offer is untouched again */
	"DELETE FROM history_offer WHERE id IN (SELECT id FROM temp.hist_drop)",
	/* a key known from the previous load alone that changed: its row,
	 * as it was (known since the baseline: nothing touched it before) */
	"INSERT INTO history_offer(provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT ?1, n.sku, n.region, n.was_oid, n.was_price,"
	" n.was_spot, n.was_avail, 1, " HIST_SINCE " FROM temp.hist_new n"
	" WHERE n.hid IS NULL AND n.was_present = 1",
	"UPDATE temp.hist_new AS n SET hid = (SELECT h.id FROM history_offer h"
	" WHERE h.provider = ?1 AND h.sku = n.sku AND h.region = n.region)"
	" WHERE n.hid IS NULL AND n.was_present = 1",
	/* changed, or back after it was gone (then it appeared again) */
	"INSERT INTO history(offer, at, kind, price_hr, spot_price_hr, available,"
	" was_price_hr, was_spot_price_hr, was_available)"
	" SELECT n.hid, ?2, CASE WHEN n.was_present = 0 THEN 1 ELSE"
	" (n.price_hr IS NOT n.was_price) * 4 + (n.spot_price_hr IS NOT n.was_spot) * 8"
	" + (n.available IS NOT n.was_avail) * 16 END, n.price_hr, n.spot_price_hr,"
	" n.available, CASE WHEN n.was_present THEN n.was_price END,"
	" CASE WHEN n.was_present THEN n.was_spot END,"
	" CASE WHEN n.was_present THEN n.was_avail END"
	" FROM temp.hist_new n WHERE n.hid IS NOT NULL AND " HIST_CHANGED,
	/* back, or kept by the migration to schema 6: offer holds it again */
	"DELETE FROM history_detail WHERE id IN (SELECT hid FROM temp.hist_new"
	" WHERE hid IS NOT NULL AND (was_present = 0 OR was_oid IS NULL))",
	/* every offer of the load history has a row for: its row now, its state */
	"INSERT INTO history_offer(id, provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT n.hid, '', '', '', n.oid, n.price_hr,"
	" n.spot_price_hr, n.available, 1, '' FROM temp.hist_new n WHERE n.hid IS NOT NULL"
	" ON CONFLICT(id) DO UPDATE SET oid = excluded.oid,"
	" price_hr = excluded.price_hr, spot_price_hr = excluded.spot_price_hr,"
	" available = excluded.available, present = 1",
	/* gone from the previous load with no row: a row as it was, which the
	 * next statements find gone like any other */
	"INSERT INTO history_offer(provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT ?1, o.sku, o.region, o.oid, o.price_hr,"
	" o.spot_price_hr, o.available, 1, " HIST_SINCE " FROM temp.hist_old o",
	/* gone: history had it, this load has not; what it was is kept */
	"INSERT INTO temp.hist_gone SELECT id FROM history_offer WHERE provider = ?1"
	" AND present = 1 AND (oid IS NULL OR oid <= ?4)",
	"INSERT INTO history(offer, at, kind, was_price_hr, was_spot_price_hr, was_available)"
	" SELECT h.id, ?2, 2, h.price_hr, h.spot_price_hr, h.available FROM temp.hist_gone g"
	" CROSS JOIN history_offer h ON h.id = g.id",
	"INSERT OR REPLACE INTO history_detail(id, @DCOLS@) SELECT h.id, @ODCOLS@"
	" FROM temp.hist_gone g CROSS JOIN history_offer h ON h.id = g.id"
	" CROSS JOIN offer o ON" HIST_ROW,
	"UPDATE history_offer SET present = 0, oid = NULL WHERE id IN"
	" (SELECT id FROM temp.hist_gone)",
	/* new keys: their row, then the event */
	"INSERT INTO history_offer(provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT ?1, n.sku, n.region, n.oid, n.price_hr,"
	" n.spot_price_hr, n.available, 1, ?2 FROM temp.hist_new n"
	" WHERE n.hid IS NULL AND n.was_present IS NULL",
	"INSERT INTO history(offer, at, kind, price_hr, spot_price_hr, available)"
	" SELECT h.id, ?2, 1, n.price_hr, n.spot_price_hr, n.available"
	" FROM temp.hist_new n JOIN history_offer h"
	" ON h.provider = ?1 AND h.sku = n.sku AND h.region = n.region"
	" WHERE n.hid IS NULL AND n.was_present IS NULL",
	/* this load is the one history compares the next with */
	"UPDATE history_provider SET lo = ?4 + 1, hi = (SELECT COALESCE(max(id), ?4) FROM offer)"
	" WHERE provider = ?1",
	"DELETE FROM temp.hist_new",
	"DELETE FROM temp.hist_old",
	"DELETE FROM temp.hist_gone",
	"DELETE FROM temp.hist_drop",
};

/* merge()'s three streams, each in key order (sku, region: BINARY, as
 * key_cmp compares): columns sku, region, row id, price, spot price,
 * availability; the history rows then present, oid and whether the row
 * could be dropped (present, pointing at its offer, seen since the
 * baseline, no event left: an untouched offer's row would say the same
 * when its state is the load's).  Then its three inserts. */
static const char *const merge_sql[] = {
	"SELECT sku, region, min(id), price_hr, spot_price_hr, available FROM offer"
	" WHERE provider = ?1 AND id > ?2 GROUP BY sku, region ORDER BY sku, region",
	"SELECT sku, region, min(id), price_hr, spot_price_hr, available FROM offer"
	" WHERE provider = ?1 AND id <= ?2"
	" AND id BETWEEN (SELECT lo FROM history_provider WHERE provider = ?1)"
	" AND (SELECT hi FROM history_provider WHERE provider = ?1)"
	" GROUP BY sku, region ORDER BY sku, region",
	"SELECT sku, region, id, price_hr, spot_price_hr, available, present, oid,"
	" present = 1 AND oid IS NOT NULL"
	" AND seen IS (SELECT since FROM history_provider WHERE provider = ?1)"
	" AND NOT EXISTS (SELECT 1 FROM history e WHERE e.offer = history_offer.id)"
	" FROM history_offer WHERE provider = ?1 ORDER BY sku, region",
	"INSERT INTO temp.hist_new(sku, region, oid, hid, price_hr, spot_price_hr,"
	" available, was_present, was_price, was_spot, was_avail, was_oid)"
	" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	"INSERT INTO temp.hist_old(sku, region, oid, price_hr, spot_price_hr, available)"
	" VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
	"INSERT INTO temp.hist_drop(id) VALUES(?1)",
};
enum { M_NEW, M_OLD, M_HIST, M_INS_NEW, M_INS_OLD, M_INS_DROP, M_N };

/* Column i of two rows the same, as SQL's IS compares them. */
static int same_value(sqlite3_stmt *a, sqlite3_stmt *b, int i)
{
	int ta = sqlite3_column_type(a, i), tb = sqlite3_column_type(b, i);
	if (ta == SQLITE_NULL || tb == SQLITE_NULL)
		return ta == tb;
	return sqlite3_column_double(a, i) == sqlite3_column_double(b, i);
}

static int same_state(sqlite3_stmt *a, sqlite3_stmt *b)
{
	return same_value(a, b, 3) && same_value(a, b, 4) && same_value(a, b, 5);
}

/* The keys of two current rows, in the order ORDER BY sku, region gives
 * (BINARY: the bytes, then the length); a finished stream (NULL) last. */
static int key_cmp(sqlite3_stmt *a, sqlite3_stmt *b)
{
	if (!a || !b)
		return a ? -1 : b ? 1 : 0;
	for (int i = 0; i < 2; i++) {
		const void *x = sqlite3_column_blob(a, i), *y = sqlite3_column_blob(b, i);
		int nx = sqlite3_column_bytes(a, i), ny = sqlite3_column_bytes(b, i);
		int r = memcmp(x ? x : "", y ? y : "", (size_t)(nx < ny ? nx : ny));
		if (r || nx != ny)
			return r ? r : nx - ny;
	}
	return 0;
}

/* Column i of `from` bound at `at` of `to`: 0 when that failed (out of
 * memory copying a text), so that no row is written with a hole. */
static int bind_col(sqlite3_stmt *to, int at, sqlite3_stmt *from, int i)
{
	return sqlite3_bind_value(to, at, sqlite3_column_value(from, i)) == SQLITE_OK;
}

/* A new offer's row in hist_new: its key, row and state (from n), what
 * history knew (h: its history_offer row, else o: the previous load's
 * row, else nothing: a new key). */
static int put_new(sqlite3_stmt *ins, sqlite3_stmt *n, sqlite3_stmt *h, sqlite3_stmt *o)
{
	int ok = 1;
	sqlite3_reset(ins);
	sqlite3_clear_bindings(ins);
	for (int i = 0; i < 3; i++)
		ok &= bind_col(ins, i + 1, n, i);
	for (int i = 3; i < 6; i++)
		ok &= bind_col(ins, i + 2, n, i);
	sqlite3_stmt *w = h ? h : o;
	if (h)
		ok &= bind_col(ins, 4, h, 2);
	if (w) {
		if (h)
			ok &= bind_col(ins, 8, h, 6);
		else
			sqlite3_bind_int(ins, 8, 1);
		for (int i = 3; i < 6; i++)
			ok &= bind_col(ins, i + 6, w, i);
		ok &= bind_col(ins, 12, w, h ? 7 : 2);
	}
	return ok && sqlite3_step(ins) == SQLITE_DONE;
}

static int put_drop(sqlite3_stmt *ins, sqlite3_stmt *h)
{
	sqlite3_reset(ins);
	return bind_col(ins, 1, h, 2) && sqlite3_step(ins) == SQLITE_DONE;
}

static int put_old(sqlite3_stmt *ins, sqlite3_stmt *o)
{
	int ok = 1;
	sqlite3_reset(ins);
	for (int i = 0; i < 6; i++)
		ok &= bind_col(ins, i + 1, o, i);
	return ok && sqlite3_step(ins) == SQLITE_DONE;
}

/* Step a stream: it, or NULL when it is done (*ok = 0 on an error). */
static sqlite3_stmt *next_row(sqlite3_stmt *s, int *ok)
{
	int rc = sqlite3_step(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		*ok = 0;
	return rc == SQLITE_ROW ? s : NULL;
}

/* The walk: for each key, the new offer (n), the previous load's (o),
 * history's row (h), each NULL when that stream has not this key.  A key
 * with a history row goes to hist_new whenever the load has it (its row
 * is pointed at the new one), unless the row says no more than the new
 * offer (hist_drop); one known from the previous load alone, only when
 * its state changed; a new key always.  A key of the previous load
 * alone, with no history row, is gone: hist_old.  Memory: the three
 * current rows (the sorts are SQLite's, spilled to temporary files). */
static enum gc_status merge(struct cache *c, const struct hist_params *p, char **err)
{
	sqlite3_stmt *s[M_N] = {NULL};
	int ok = 1;
	for (int i = 0; ok && i < M_N; i++)
		ok = sqlite3_prepare_v2(c->db, merge_sql[i], -1, &s[i], NULL) == SQLITE_OK;
	for (int i = 0; ok && i <= M_HIST; i++) {
		cache_bind_text(s[i], 1, p->provider);
		if (i != M_HIST)
			sqlite3_bind_int64(s[i], 2, p->before);
	}
	sqlite3_stmt *n = ok ? next_row(s[M_NEW], &ok) : NULL;
	sqlite3_stmt *o = ok ? next_row(s[M_OLD], &ok) : NULL;
	sqlite3_stmt *h = ok ? next_row(s[M_HIST], &ok) : NULL;
	while (ok && (n || o || h)) {
		/* the smallest key of the three, and which streams have it */
		sqlite3_stmt *k = n;
		if (key_cmp(o, k) < 0)
			k = o;
		if (key_cmp(h, k) < 0)
			k = h;
		sqlite3_stmt *kn = n && key_cmp(n, k) == 0 ? n : NULL;
		sqlite3_stmt *ko = o && key_cmp(o, k) == 0 ? o : NULL;
		sqlite3_stmt *kh = h && key_cmp(h, k) == 0 ? h : NULL;
		if (kn && kh && sqlite3_column_int(kh, 8) && same_state(kn, kh))
			ok = put_drop(s[M_INS_DROP], kh);
		else if (kn && (kh || !ko || !same_state(kn, ko)))
			ok = put_new(s[M_INS_NEW], kn, kh, ko);
		else if (!kn && ko && !kh)
			ok = put_old(s[M_INS_OLD], ko);
		if (ok && kn)
			n = next_row(s[M_NEW], &ok);
		if (ok && ko)
			o = next_row(s[M_OLD], &ok);
		if (ok && kh)
			h = next_row(s[M_HIST], &ok);
	}
	enum gc_status st = ok ? GC_OK : cache_db_error(c, err, "cannot record price history");
	for (int i = 0; i < M_N; i++)
		sqlite3_finalize(s[i]);
	return st;
}

/* A provider's first load (its baseline): no event, no row per offer;
 * history_provider names the load's rows, which stand for what history
 * knows of each key until an event touches it. */
static const char baseline_sql[] =
	"INSERT INTO history_provider(provider, since, lo, hi) VALUES(?1, ?2, ?4 + 1,"
	" (SELECT COALESCE(max(id), ?4) FROM offer)) ON CONFLICT(provider) DO UPDATE"
	" SET since = excluded.since, lo = excluded.lo, hi = excluded.hi";

static enum gc_status compact(struct cache *c, const char *provider, const char *now,
			      int forget_gone, char **err);


static enum gc_status run_bound(struct cache *c, const char *sql, const struct hist_params *p,
				char **err)
{
	sqlite3_stmt *s;
	struct buf b;
	buf_init(&b, 1 << 16);
	if (expand(sql, &b) != GC_OK) {
		buf_free(&b);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	int rc = sqlite3_prepare_v2(c->db, b.ptr, -1, &s, NULL);
	buf_free(&b);
	if (rc != SQLITE_OK)
		return cache_db_error(c, err, "cannot record price history");
	int n = sqlite3_bind_parameter_count(s);
	if (n >= 1)
		cache_bind_text(s, 1, p->provider);
	if (n >= 2)
		cache_bind_text(s, 2, p->at);
	if (n >= 3)
		sqlite3_bind_int(s, 3, p->events);
	if (n >= 4)
		sqlite3_bind_int64(s, 4, p->before);
	if (n >= 5)
		sqlite3_bind_int(s, 5, p->builtin);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) != SQLITE_DONE)
		st = cache_db_error(c, err, "cannot record price history");
	sqlite3_finalize(s);
	return st;
}

/* Has history seen `provider` before?  Its first load is a baseline. */
static enum gc_status known(struct cache *c, const char *provider, int *yes, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT 1 FROM history_provider WHERE provider = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot record price history");
	cache_bind_text(s, 1, provider);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	*yes = rc == SQLITE_ROW;
	return rc == SQLITE_ROW || rc == SQLITE_DONE
		       ? GC_OK
		       : cache_db_error(c, err, "cannot record price history");
}

int cache_history_on(const struct cache *c)
{
	return c->history_days > 0;
}

enum gc_status cache_history_record(struct cache *c, const char *provider, const char *at,
				    long long before, char **err)
{
	if (c->history_days <= 0)
		return GC_OK;
	struct hist_params p = {provider, at, 0, before, 0};
	enum gc_status st = known(c, provider, &p.events, err);
	if (st == GC_OK && !p.events)
		st = run_bound(c, baseline_sql, &p, err);
	for (size_t i = 0; st == GC_OK && p.events && i < sizeof record_pre / sizeof *record_pre;
	     i++)
		st = run_bound(c, record_pre[i], &p, err);
	if (st == GC_OK && p.events)
		st = merge(c, &p, err);
	for (size_t i = 0; st == GC_OK && p.events && i < sizeof record_sql / sizeof *record_sql;
	     i++)
		st = run_bound(c, record_sql[i], &p, err);
	/* a baseline leaves no offer of the provider gone: nothing to forget
	 * (the scan of its keys was 3% of a 10^5-row first import) */
	if (st == GC_OK)
		st = compact(c, provider, at, p.events, err);
	return st;
}

/* The rows cache_history_detach keeps: ?1 the provider (NULL: all), ?5
 * only the built-in ones. */
#define DETACHED                                                                     \
	" (?1 IS NULL OR h.provider = ?1) AND (?5 = 0 OR o.source IN ('snapshot', 'list'))"
/* The providers whose last load's range holds such a row. */
#define DETACHED_RANGE                                                               \
	" (?1 IS NULL OR p.provider = ?1) AND (?5 = 0 OR EXISTS (SELECT 1 FROM offer x"    \
	" WHERE x.provider = p.provider AND x.id BETWEEN p.lo AND p.hi"                   \
	" AND x.source IN ('snapshot', 'list')))"
static const char *const detach_sql[] = {
	/* the keys no event touched, of the providers whose rows go: a row
	 * each first (all of such a provider's: the range is forgotten) */
	"INSERT INTO history_offer(provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT o.provider, o.sku, o.region, min(o.id), o.price_hr,"
	" o.spot_price_hr, o.available, 1, p.since FROM history_provider p JOIN offer o"
	" ON o.provider = p.provider AND o.id BETWEEN p.lo AND p.hi WHERE" DETACHED_RANGE
	" GROUP BY o.provider, o.sku, o.region ON CONFLICT(provider, sku, region) DO NOTHING",
	"UPDATE history_provider AS p SET lo = 1, hi = 0 WHERE" DETACHED_RANGE,
	"INSERT OR REPLACE INTO history_detail(id, @DCOLS@) SELECT h.id, @ODCOLS@"
	" FROM history_offer h JOIN offer o ON" HIST_ROW " WHERE" DETACHED,
	"UPDATE history_offer SET oid = NULL WHERE id IN (SELECT h.id FROM history_offer h"
	" JOIN offer o ON o.id = h.oid WHERE" DETACHED ")",
};

/* Before offers go without a record (cache clear, the built-in rows
 * replaced, a load while history is off): the known offers whose rows
 * they are keep their detail in history_detail, as a gone one does. */
enum gc_status cache_history_detach(struct cache *c, const char *provider, int builtin,
				    char **err)
{
	struct hist_params p = {provider, NULL, 0, 0, builtin};
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < sizeof detach_sql / sizeof *detach_sql; i++)
		st = run_bound(c, detach_sql[i], &p, err);
	return st;
}

/* The retention before `now`, for `provider` (NULL: every provider): the
 * offers' scan is per provider, so that a load pays for its own rows;
 * without `forget_gone`, only the events. */
static enum gc_status compact(struct cache *c, const char *provider, const char *now,
			      int forget_gone, char **err)
{
	char days[32];
	snprintf(days, sizeof days, "-%d days", c->history_days > 0 ? c->history_days : 0);
	const char *p[] = {now, days};
	/* events older than the retention go; the state before the oldest kept
	 * event is in its was_* columns, the latest in history_offer */
	enum gc_status st = cache_run(
		c, "DELETE FROM history WHERE at < strftime('%Y-%m-%dT%H:%M:%SZ', ?1, ?2)",
		"cannot compact price history", err, 2, p);
	/* an offer gone before the retention, with no event left, is forgotten
	 * (with its detail); per provider on the key index */
	static const char *const forget[] = {
		"DELETE FROM history_detail WHERE id IN (SELECT id FROM history_offer"
		" WHERE present = 0 AND NOT EXISTS"
		" (SELECT 1 FROM history h WHERE h.offer = history_offer.id))",
		"DELETE FROM history_offer WHERE present = 0 AND NOT EXISTS"
		" (SELECT 1 FROM history h WHERE h.offer = history_offer.id)",
		"DELETE FROM history_detail WHERE id IN (SELECT id FROM history_offer"
		" WHERE provider = ?1 AND present = 0 AND NOT EXISTS"
		" (SELECT 1 FROM history h WHERE h.offer = history_offer.id))",
		"DELETE FROM history_offer WHERE provider = ?1 AND present = 0"
		" AND NOT EXISTS (SELECT 1 FROM history h WHERE h.offer = history_offer.id)",
	};
	size_t from = provider ? 2 : 0, to = !forget_gone ? from : from + 2;
	for (size_t i = from; st == GC_OK && i < to; i++)
		st = cache_run(c, forget[i], "cannot compact price history", err,
			       provider ? 1 : 0, &provider);
	return st;
}

enum gc_status cache_history_compact(struct cache *c, const char *now, char **err)
{
	return compact(c, NULL, now, 1, err);
}

void cache_set_history(struct cache *c, int days)
{
	c->history_days = days < 0 ? CACHE_HISTORY_DAYS : days;
}

enum gc_status cache_history_last(struct cache *c, long long *id, char **err)
{
	return cache_scalar(c, "SELECT COALESCE(max(id), 0) FROM history", id,
			    "cannot read price history", err);
}
