/* cache_history.c - price history: what a load changed, recorded in the
 * load's transaction (cache_history_record, called by cache_write.c), and
 * the retention (cache_history_compact).  docs/HISTORY.md describes the
 * tables; cache_schema.c creates them.  Calls cache_db.c only. */
#include <stdio.h>
#include <string.h>

#include "cache_int.h"
#include "gpucmp/buf.h"

/* The columns history_offer shares with offer: the stored columns of
 * offer_cols[] and the three the cache adds, bare (@COLS@) and read from
 * offer o (@OCOLS@); expand() writes them into a statement. */
#define HIST_COLS "@COLS@"
#define HIST_OCOLS "@OCOLS@"
static const char *const hist_extra[] = {"stale", "driver_num", "max_cuda_num"};

static enum gc_status put_cols(struct buf *b, const char *prefix)
{
	enum gc_status st = GC_OK;
	size_t n = offer_ncols + sizeof hist_extra / sizeof *hist_extra;
	for (size_t i = 0; st == GC_OK && i < n; i++)
		st = buf_printf(b, "%s%s%s", i ? ", " : "", prefix,
				i < offer_ncols ? offer_cols[i].name : hist_extra[i - offer_ncols]);
	return st;
}

/* sql with @COLS@ and @OCOLS@ written out, into b. */
static enum gc_status expand(const char *sql, struct buf *b)
{
	enum gc_status st = GC_OK;
	const char *p = sql, *at;
	while (st == GC_OK && (at = strchr(p, '@')) != NULL) {
		int o = strncmp(at, "@OCOLS@", 7) == 0;
		size_t skip = o ? 7 : strncmp(at, "@COLS@", 6) == 0 ? 6 : 1;
		st = buf_add(b, p, (size_t)(at - p) + (skip == 1));
		if (st == GC_OK && skip > 1)
			st = put_cols(b, o ? "o." : "");
		p = at + skip;
	}
	if (st == GC_OK)
		st = buf_add(b, p, strlen(p) + 1);
	return st;
}

/* A stored row of hist_new changed against what history last knew of it. */
#define HIST_CHANGED                                                                 \
	"(n.was_present = 0 OR n.price_hr IS NOT n.was_price OR"                     \
	" n.spot_price_hr IS NOT n.was_spot OR n.available IS NOT n.was_avail)"

/* The statements of one record, in order (?1 provider, ?2 the load's time).
 * The provider's new offers, one per key (the first row a load gives for a
 * key stands for it), beside what history knew of each; then the events:
 * gone, changed or back, and new; history_offer follows each. */
static const char *const record_sql[] = {
	"CREATE TEMP TABLE IF NOT EXISTS hist_new(oid INTEGER PRIMARY KEY, hid INTEGER,"
	" price_hr REAL, spot_price_hr REAL, available INTEGER, was_present INTEGER,"
	" was_price REAL, was_spot REAL, was_avail INTEGER)",
	"DELETE FROM temp.hist_new",
	"INSERT INTO temp.hist_new SELECT o.id, h.id, o.price_hr, o.spot_price_hr, o.available,"
	" h.present, h.price_hr, h.spot_price_hr, h.available FROM offer o"
	" LEFT JOIN history_offer h ON h.provider = o.provider AND h.sku = o.sku"
	" AND h.region = o.region WHERE o.id IN (SELECT min(id) FROM offer"
	" WHERE provider = ?1 GROUP BY sku, region)",
	/* gone: history had it, this load has not */
	"INSERT INTO history(offer, at, kind, was_price_hr, was_spot_price_hr, was_available)"
	" SELECT h.id, ?2, 2, h.price_hr, h.spot_price_hr, h.available FROM history_offer h"
	" WHERE h.provider = ?1 AND h.present = 1 AND h.id NOT IN"
	" (SELECT hid FROM temp.hist_new WHERE hid IS NOT NULL)",
	"UPDATE history_offer SET present = 0 WHERE provider = ?1 AND present = 1"
	" AND id NOT IN (SELECT hid FROM temp.hist_new WHERE hid IS NOT NULL)",
	/* changed, or back after it was gone (then it appeared again) */
	"INSERT INTO history(offer, at, kind, price_hr, spot_price_hr, available,"
	" was_price_hr, was_spot_price_hr, was_available)"
	" SELECT n.hid, ?2, CASE WHEN n.was_present = 0 THEN 1 ELSE"
	" (n.price_hr IS NOT n.was_price) * 4 + (n.spot_price_hr IS NOT n.was_spot) * 8"
	" + (n.available IS NOT n.was_avail) * 16 END, n.price_hr, n.spot_price_hr,"
	" n.available, CASE WHEN n.was_present THEN n.was_price END,"
	" CASE WHEN n.was_present THEN n.was_spot END,"
	" CASE WHEN n.was_present THEN n.was_avail END"
	" FROM temp.hist_new n WHERE n.hid IS NOT NULL AND " HIST_CHANGED
	" ORDER BY n.oid",
	"INSERT OR REPLACE INTO history_offer(id, " HIST_COLS ", present, seen)"
	" SELECT n.hid, " HIST_OCOLS ", 1, h.seen FROM temp.hist_new n"
	" JOIN offer o ON o.id = n.oid JOIN history_offer h ON h.id = n.hid"
	" WHERE " HIST_CHANGED,
	/* new keys: their row, then (unless this is the provider's baseline,
	 * ?3 = 0) the event */
	"INSERT INTO history_offer(" HIST_COLS ", present, seen) SELECT " HIST_OCOLS ", 1, ?2"
	" FROM temp.hist_new n JOIN offer o ON o.id = n.oid WHERE n.hid IS NULL ORDER BY n.oid",
	"INSERT INTO history(offer, at, kind, price_hr, spot_price_hr, available)"
	" SELECT h.id, ?2, 1, n.price_hr, n.spot_price_hr, n.available"
	" FROM temp.hist_new n JOIN offer o ON o.id = n.oid JOIN history_offer h"
	" ON h.provider = o.provider AND h.sku = o.sku AND h.region = o.region"
	" WHERE n.hid IS NULL AND ?3 ORDER BY n.oid",
	"DELETE FROM temp.hist_new",
};

static enum gc_status compact(struct cache *c, const char *provider, const char *now,
			      char **err);

static enum gc_status run_bound(struct cache *c, const char *sql, const char *provider,
				const char *at, int events, char **err)
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
		cache_bind_text(s, 1, provider);
	if (n >= 2)
		cache_bind_text(s, 2, at);
	if (n >= 3)
		sqlite3_bind_int(s, 3, events);
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

enum gc_status cache_history_record(struct cache *c, const char *provider, const char *at,
				    char **err)
{
	if (c->history_days <= 0)
		return GC_OK;
	int seen = 0;
	enum gc_status st = known(c, provider, &seen, err);
	for (size_t i = 0; st == GC_OK && i < sizeof record_sql / sizeof *record_sql; i++)
		st = run_bound(c, record_sql[i], provider, at, seen, err);
	if (st == GC_OK)
		st = compact(c, provider, at, err);
	return st;
}

/* The retention before `now`, for `provider` (NULL: every provider): the
 * offers' scan is per provider, so that a load pays for its own rows. */
static enum gc_status compact(struct cache *c, const char *provider, const char *now,
			      char **err)
{
	char days[32];
	snprintf(days, sizeof days, "-%d days", c->history_days > 0 ? c->history_days : 0);
	const char *p[] = {now, days};
	/* events older than the retention go; the state before the oldest kept
	 * event is in its was_* columns, the latest in history_offer */
	enum gc_status st = cache_run(
		c, "DELETE FROM history WHERE at < strftime('%Y-%m-%dT%H:%M:%SZ', ?1, ?2)",
		"cannot compact price history", err, 2, p);
	/* an offer gone before the retention, with no event left, is forgotten */
	static const char forget[] =
		"DELETE FROM history_offer WHERE present = 0 AND NOT EXISTS"
		" (SELECT 1 FROM history h WHERE h.offer = history_offer.id)";
	static const char forget_one[] =
		"DELETE FROM history_offer WHERE provider = ?1 AND present = 0 AND NOT EXISTS"
		" (SELECT 1 FROM history h WHERE h.offer = history_offer.id)";
	if (st == GC_OK)
		st = cache_run(c, provider ? forget_one : forget, "cannot compact price history",
			       err, provider ? 1 : 0, &provider);
	return st;
}

enum gc_status cache_history_compact(struct cache *c, const char *now, char **err)
{
	return compact(c, NULL, now, err);
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
