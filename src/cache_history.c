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
		st = buf_addstr(b, " FROM history_offer h LEFT JOIN offer x ON x.id = h.oid"
				   " AND x.provider = h.provider AND x.sku = h.sku"
				   " AND x.region = h.region"
				   " LEFT JOIN history_detail g ON g.id = h.id)");
	return st;
}

/* A stored row of hist_new changed against what history last knew of it. */
#define HIST_CHANGED                                                                 \
	"(n.was_present = 0 OR n.price_hr IS NOT n.was_price OR"                     \
	" n.spot_price_hr IS NOT n.was_spot OR n.available IS NOT n.was_avail)"
/* h's row in offer, when it is the one h points to. */
#define HIST_ROW                                                                     \
	" o.id = h.oid AND o.provider = h.provider AND o.sku = h.sku AND o.region = h.region"

/* The statements of one record, in order (?1 provider, ?2 the load's time,
 * ?3 events or baseline, ?4 the last offer id before the load: the
 * provider's rows up to it are the previous load's, still there, so that
 * a gone offer's detail can be kept).  The provider's new offers, one per
 * key (the first row a load gives for a key stands for it), beside what
 * history knew of each; the events of those it knew (changed, or back),
 * then each known one points at its new row; those that still point at an
 * old row are gone; the new keys last. */
static const char *const record_sql[] = {
	"CREATE TEMP TABLE IF NOT EXISTS hist_new(sku TEXT, region TEXT, oid INTEGER,"
	" hid INTEGER, price_hr REAL, spot_price_hr REAL, available INTEGER,"
	" was_present INTEGER, was_price REAL, was_spot REAL, was_avail INTEGER,"
	" was_oid INTEGER)",
	"CREATE TEMP TABLE IF NOT EXISTS hist_gone(id INTEGER PRIMARY KEY)",
	"DELETE FROM temp.hist_new",
	"DELETE FROM temp.hist_gone",
	/* in key order, so that history_offer is read (and a new key added) in
	 * the order of its index: the first row of each key (a min() query's
	 * other columns are those of its row) */
	"INSERT INTO temp.hist_new SELECT k.sku, k.region, k.oid, h.id, k.price_hr,"
	" k.spot_price_hr, k.available, h.present, h.price_hr, h.spot_price_hr, h.available,"
	" h.oid FROM (SELECT min(id) AS oid, sku, region, price_hr, spot_price_hr, available"
	" FROM offer WHERE provider = ?1 AND id > ?4 GROUP BY sku, region) k"
	" LEFT JOIN history_offer h ON h.provider = ?1 AND h.sku = k.sku"
	" AND h.region = k.region",
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
	/* every known offer of the load: its row now, its state */
	"INSERT INTO history_offer(id, provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT n.hid, '', '', '', n.oid, n.price_hr,"
	" n.spot_price_hr, n.available, 1, '' FROM temp.hist_new n WHERE n.hid IS NOT NULL"
	" ON CONFLICT(id) DO UPDATE SET oid = excluded.oid,"
	" price_hr = excluded.price_hr, spot_price_hr = excluded.spot_price_hr,"
	" available = excluded.available, present = 1",
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
	/* new keys: their row, then (unless this is the provider's baseline,
	 * ?3 = 0) the event */
	"INSERT INTO history_offer(provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT ?1, n.sku, n.region, n.oid, n.price_hr,"
	" n.spot_price_hr, n.available, 1, ?2 FROM temp.hist_new n WHERE n.hid IS NULL",
	"INSERT INTO history(offer, at, kind, price_hr, spot_price_hr, available)"
	" SELECT h.id, ?2, 1, n.price_hr, n.spot_price_hr, n.available"
	" FROM temp.hist_new n JOIN history_offer h"
	" ON h.provider = ?1 AND h.sku = n.sku AND h.region = n.region"
	" WHERE n.hid IS NULL AND ?3",
	"DELETE FROM temp.hist_new",
	"DELETE FROM temp.hist_gone",
};

/* A provider's first load (its baseline): each key's first row, in key
 * order (the index's), no event.  The rows sorted by key and id, a key's
 * later rows skipped by the key index: the same rows as a GROUP BY with
 * min(id), 6% fewer instructions (no aggregate copying each group's key). */
static const char baseline_sql[] =
	"INSERT INTO history_offer(provider, sku, region, oid, price_hr, spot_price_hr,"
	" available, present, seen) SELECT ?1, sku, region, id, price_hr, spot_price_hr,"
	" available, 1, ?2 FROM offer WHERE provider = ?1 AND id > ?4 ORDER BY sku, region, id"
	" ON CONFLICT(provider, sku, region) DO NOTHING";

static enum gc_status compact(struct cache *c, const char *provider, const char *now,
			      int forget_gone, char **err);

/* The parameters of a record's statements. */
struct hist_params {
	const char *provider, *at;
	int events;
	long long before;
	int builtin; /* cache_history_detach: only the built-in rows */
};

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
	if (sqlite3_prepare_v2(c->db, "SELECT 1 FROM history_offer WHERE provider = ?1 LIMIT 1",
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
static const char *const detach_sql[] = {
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
