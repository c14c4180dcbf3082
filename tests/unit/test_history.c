/* test_history.c - the price history: what a load records (the diff), the
 * baseline, the retention and its compaction, the migration of a cache
 * from before it, and the questions over it (changes, events, daily
 * minimums). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "gpucmp/cache.h"
#include "gpucmp/query.h"
#include "gpucmp/query_history.h"
#include "gpucmp/render.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

static struct catalog cat;

static int setup(void **state)
{
	(void)state;
	return load_embedded_catalog(&cat) != 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

static long long scalar(struct cache *c, const char *sql)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(cache_db(c), sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(cache_db(c)));
	long long v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
	sqlite3_finalize(s);
	return v;
}

static struct cache *open_mem(void)
{
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	if (cache_open(&c, NULL, &cat, &info, &err) != GC_OK)
		fail_msg("open: %s", err ? err : "?");
	cache_open_info_release(&info);
	return c;
}

/* A cache file at `path`, new. */
static struct cache *open_file(const char *path)
{
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	unlink(path);
	if (cache_open(&c, path, &cat, &info, &err) != GC_OK)
		fail_msg("open %s: %s", path, err ? err : "?");
	cache_open_info_release(&info);
	return c;
}

/* c made into an older cache by `sql` (which sets its user_version and
 * drops what that version had not), closed and opened again: migrated. */
static struct cache *reopen_older(struct cache *c, const char *path, const char *sql)
{
	struct cache_open_info info;
	char *err = NULL;
	assert_int_equal(sqlite3_exec(cache_db(c), sql, NULL, NULL, NULL), SQLITE_OK);
	cache_close(c);
	c = NULL;
	if (cache_open(&c, path, &cat, &info, &err) != GC_OK)
		fail_msg("open %s: %s", path, err ? err : "?");
	cache_open_info_release(&info);
	assert_int_equal(scalar(c, "PRAGMA user_version"), CACHE_SCHEMA_VERSION);
	return c;
}

/* A load: offers sku-0.. with these prices (NAN: that SKU is absent). */
struct load {
	const double *price;
	int n;
};

static enum gc_status fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	const struct load *l = arg;
	for (int i = 0; i < l->n; i++) {
		if (isnan(l->price[i]))
			continue;
		struct offer o;
		char sku[16];
		offer_init(&o);
		snprintf(sku, sizeof sku, "sku-%d", i);
		o.provider = "lambda";
		o.sku = sku;
		o.gpu = i == 3 ? "h100-sxm" : "a100-sxm-80gb";
		o.gpu_name = "GPU";
		o.gpu_count = 8;
		o.region = "us-east-1";
		o.price_hr = l->price[i];
		o.available = 1;
		o.source = "live";
		o.fetched_at = "2026-12-02T10:00:00Z";
		enum gc_status st = cb(ctx, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

static void store(struct cache *c, const char *at, const double *price, int n)
{
	struct load l = {price, n};
	struct cache_meta m = {"live", at, NULL, NULL, NULL, 0, 0};
	char *err = NULL;
	cache_set_guard(c, 1, 0);
	/* a load at `at` happens at `at` (its offers say 2026-12-02T10:00:00Z):
	 * the door refuses a date after now */
	const char *offers_at = "2026-12-02T10:00:00Z";
	setenv("GPUCMP_NOW", strcmp(at, offers_at) > 0 ? at : offers_at, 1);
	enum gc_status st = cache_store(c, "lambda", &m, fill, &l, NULL, &err);
	unsetenv("GPUCMP_NOW");
	if (st != GC_OK)
		fail_msg("store: %s", err ? err : "?");
}

static void test_diff(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	const double day1[] = {10, 20, 30, NAN};
	const double day2[] = {9, 20, NAN, 40};
	store(c, "2026-12-01T10:00:00Z", day1, 4);
	/* the first load of a provider is its baseline: no event, and no row
	 * per offer (history_v reads them from offer, ids below 0) */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE id < 0"), 3);
	store(c, "2026-12-01T11:00:00Z", day1, 4);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 0); /* nothing changed */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 3);
	store(c, "2026-12-02T10:00:00Z", day2, 4);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 3);
	assert_int_equal(scalar(c, "SELECT kind FROM history h JOIN history_offer o"
				   " ON o.id = h.offer WHERE o.sku = 'sku-0'"), CACHE_HIST_PRICE);
	assert_int_equal(scalar(c, "SELECT h.was_price_hr * 10 + h.price_hr FROM history h"
				   " JOIN history_offer o ON o.id = h.offer WHERE o.sku = 'sku-0'"),
			 109);
	assert_int_equal(scalar(c, "SELECT kind FROM history h JOIN history_offer o"
				   " ON o.id = h.offer WHERE o.sku = 'sku-2'"), CACHE_HIST_GONE);
	assert_int_equal(scalar(c, "SELECT kind FROM history h JOIN history_offer o"
				   " ON o.id = h.offer WHERE o.sku = 'sku-3'"),
			 CACHE_HIST_APPEARED);
	assert_int_equal(scalar(c, "SELECT present FROM history_offer WHERE sku = 'sku-2'"), 0);
	/* sku-1 never changed: still no row, still in history_v */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer WHERE sku = 'sku-1'"), 0);
	assert_int_equal(scalar(c, "SELECT price_hr FROM history_v WHERE sku = 'sku-1'"), 20);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 4);
	/* touched: the offers with a row (what the questions about events read) */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE touched = 1"
				   " AND sku IN ('sku-0', 'sku-2', 'sku-3') AND id > 0"), 3);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE touched = 0"
				   " AND sku = 'sku-1' AND id < 0"), 1);
	/* back again: it appeared */
	store(c, "2026-12-02T11:00:00Z", day1, 4);
	assert_int_equal(scalar(c, "SELECT kind FROM history h JOIN history_offer o ON o.id ="
				   " h.offer WHERE o.sku = 'sku-2' ORDER BY h.id DESC LIMIT 1"),
			 CACHE_HIST_APPEARED);
	/* history_v filters as offer_v does */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_id = 'h100-sxm'"), 1);
	cache_close(c);
}

/* Offers sku-0 10, sku-1 20, sku-0 30, sku-1 40: each key twice. */
static enum gc_status fill_repeat(void *arg, offer_cb cb, void *ctx, char **err)
{
	(void)arg;
	enum gc_status st = GC_OK;
	for (int i = 0; st == GC_OK && i < 4; i++) {
		struct offer o;
		offer_init(&o);
		o.provider = "lambda";
		o.sku = i % 2 ? "sku-1" : "sku-0";
		o.gpu = "a100-sxm-80gb";
		o.gpu_name = "GPU";
		o.gpu_count = 8;
		o.region = "us-east-1";
		o.price_hr = 10 * (i + 1);
		o.available = 1;
		o.source = "live";
		o.fetched_at = "2026-12-02T10:00:00Z";
		st = cb(ctx, &o, err);
	}
	return st;
}

/* A load that repeats a key: its first row stands for it, in the
 * baseline as in the diff after it. */
static void test_first_row_of_a_key(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	struct cache_meta m = {"live", "2026-12-01T10:00:00Z", NULL, NULL, NULL, 0, 0};
	char *err = NULL;
	cache_set_guard(c, 1, 0);
	for (int i = 0; i < 2; i++) {
		setenv("GPUCMP_NOW", "2026-12-02T10:00:00Z", 1);
		enum gc_status st =
			cache_store(c, "lambda", &m, fill_repeat, NULL, NULL, &err);
		unsetenv("GPUCMP_NOW");
		if (st != GC_OK)
			fail_msg("store: %s", err ? err : "?");
		/* the second load compares first rows with first rows: 10 and
		 * 20 both times, no event */
		assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 0);
		assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer"), 0);
		m.fetched_at = "2026-12-01T11:00:00Z";
	}
	/* one row per key now: sku-1 at 25 changed from its first row's 20
	 * (not the repeat's 40), sku-0 at 10 did not change */
	const double once[] = {10, 25};
	store(c, "2026-12-02T10:00:00Z", once, 2);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 1);
	assert_int_equal(scalar(c, "SELECT h.was_price_hr FROM history h JOIN history_offer o"
				   " ON o.id = h.offer WHERE o.sku = 'sku-1'"), 20);
	/* and the row history keeps for it points at the load's first row */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer h WHERE"
				   " oid = (SELECT min(id) FROM offer o WHERE o.sku = h.sku)"), 1);
	cache_close(c);
}

/* history_offer holds no copy of an offer: history_v reads a present one
 * from its row in offer, a gone one from what history_detail kept when it
 * went (its old row read before the load deleted it). */
static void test_detail_of_gone(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	const double day1[] = {10, 20, 30, 40}, day2[] = {10, 20, 30, NAN};
	store(c, "2026-12-01T10:00:00Z", day1, 4);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_detail"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v v JOIN offer o"
				   " ON o.id = -v.id AND o.sku = v.sku"), 4);
	store(c, "2026-12-02T10:00:00Z", day2, 4); /* sku-3, the H100, went */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_detail"), 1);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE sku = 'sku-3'"), 0);
	assert_int_equal(scalar(c, "SELECT gpu_count FROM history_v WHERE gpu_id = 'h100-sxm'"
				   " AND sku = 'sku-3'"), 8);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_id = 'a100-sxm-80gb'"),
			 3);
	/* back: offer holds it again, its kept detail goes */
	store(c, "2026-12-03T10:00:00Z", day1, 4);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_detail"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_id = 'h100-sxm'"), 1);
	/* deleted without a record (cache clear): the detail is kept first */
	size_t removed = 0, restored = 0;
	assert_int_equal(cache_clear(c, &cat, "lambda", &removed, &restored, NULL), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_id = 'h100-sxm'"
				   " AND sku = 'sku-3'"), 1);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_count = 8"), 4);
	cache_close(c);
}

static void test_retention(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	const double a[] = {10, 20, 30}, b[] = {11, 20, NAN}, d[] = {12, 20, NAN};
	cache_set_history(c, 2);
	store(c, "2026-11-01T00:00:00Z", a, 3);
	store(c, "2026-11-02T00:00:00Z", b, 3); /* sku-0 dearer, sku-2 gone */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 2);
	store(c, "2026-11-10T00:00:00Z", d, 3); /* the retention drops the first two */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 1);
	/* continuity: the kept event says what came before it */
	assert_int_equal(scalar(c, "SELECT was_price_hr FROM history"), 11);
	/* gone before the retention, no event left: forgotten */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer WHERE sku = 'sku-2'"), 0);
	/* sku-0 has a row (it changed), sku-1 none (it never did) */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer"), 1);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 2);
	/* the latest state stays whatever the retention */
	assert_int_equal(cache_history_compact(c, "2027-06-01T00:00:00Z", NULL), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 0);
	assert_int_equal(scalar(c, "SELECT price_hr FROM history_offer WHERE sku = 'sku-0'"), 12);
	/* the next load that leaves it as it is: its row says no more than its
	 * offer (no event left, known since the baseline), and goes */
	store(c, "2027-06-02T00:00:00Z", d, 3);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer"), 0);
	assert_int_equal(scalar(c, "SELECT price_hr FROM history_v WHERE sku = 'sku-0'"), 12);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 2);
	/* 0 days: nothing recorded */
	cache_set_history(c, 0);
	store(c, "2027-06-03T00:00:00Z", a, 3);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 0);
	cache_close(c);
}

/* A cache of schema 5 (history_offer a copy of each offer) opens and
 * migrates: history_v answers as before, from history_detail until the
 * provider's next load points each offer at its row; that load records
 * against the migrated state. */
static void test_migrates_schema_5(void **state)
{
	(void)state;
	const char *path = scratch_path("history-v5.db");
	struct cache *c = open_file(path);
	/* schema 5's tables, with sku-0 at 10 and sku-1 (gone) at 20 */
	static const char v5[] =
		"DROP VIEW history_v; DROP TABLE history_offer;"
		" DROP TABLE history_detail;"
		"CREATE TABLE history_offer(id INTEGER PRIMARY KEY,"
		" provider TEXT NOT NULL, sku TEXT NOT NULL, gpu TEXT, gpu_name TEXT NOT NULL,"
		" gpu_count REAL NOT NULL, gpu_mem_gb REAL, vcpus REAL, ram_gb REAL, disk_gb REAL,"
		" region TEXT NOT NULL, price_hr REAL, spot_price_hr REAL,"
		" currency TEXT NOT NULL DEFAULT 'USD', price_native REAL, spot_native REAL,"
		" available INTEGER, infiniband INTEGER, rdma TEXT, nvlink INTEGER,"
		" node_bandwidth_gbps REAL, driver_version TEXT, max_cuda TEXT,"
		" source TEXT NOT NULL, origin TEXT, fetched_at TEXT NOT NULL,"
		" stale INTEGER NOT NULL DEFAULT 0, driver_num INTEGER, max_cuda_num INTEGER,"
		" as_of TEXT, price_kind TEXT, gpu_fraction REAL NOT NULL DEFAULT 1,"
		" present INTEGER NOT NULL DEFAULT 1, seen TEXT NOT NULL);"
		"CREATE UNIQUE INDEX history_offer_key ON history_offer(provider, sku, region);"
		"INSERT INTO history_offer(provider, sku, gpu, gpu_name, gpu_count, region,"
		" price_hr, available, source, fetched_at, present, seen) VALUES"
		" ('lambda', 'sku-0', 'a100-sxm-80gb', 'GPU', 8, 'us-east-1', 10, 1, 'live',"
		"  '2026-12-01T00:00:00Z', 1, '2026-12-01T00:00:00Z'),"
		" ('lambda', 'sku-1', 'h100-sxm', 'GPU', 8, 'us-east-1', 20, 1, 'live',"
		"  '2026-12-01T00:00:00Z', 0, '2026-12-01T00:00:00Z');"
		"UPDATE meta SET value = '0' WHERE key = 'catalog_hash'; PRAGMA user_version = 5";
	c = reopen_older(c, path, v5);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_id = 'h100-sxm'"), 1);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_count = 8"), 2);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer WHERE oid IS NULL"), 2);
	/* the next load: sku-0 cheaper, sku-1 back, sku-2 new */
	const double a[] = {9, 20, 30};
	store(c, "2026-12-02T00:00:00Z", a, 3);
	assert_int_equal(scalar(c, "SELECT kind FROM history h JOIN history_offer o"
				   " ON o.id = h.offer WHERE o.sku = 'sku-0'"), CACHE_HIST_PRICE);
	assert_int_equal(scalar(c, "SELECT kind FROM history h JOIN history_offer o"
				   " ON o.id = h.offer WHERE o.sku = 'sku-1'"),
			 CACHE_HIST_APPEARED);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 3);
	/* each offer in its row now; the kept details are gone with the copies */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_detail"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE gpu_id = 'a100-sxm-80gb'"),
			 3);
	cache_close(c);
	unlink(path);
}

/* A cache of schema 9 (a history_offer row for every offer a load
 * stored) opens and migrates: its provider is known since its first row,
 * the rows it kept stay what history knows, and the next load records
 * against them as before (no offer listed twice in history_v, no event
 * for one that did not change). */
static void test_migrates_schema_9(void **state)
{
	(void)state;
	const char *path = scratch_path("history-v9.db");
	struct cache *c = open_file(path);
	const double day1[] = {10, 20, 30, NAN}, day2[] = {9, 20, NAN, 40};
	store(c, "2026-12-01T10:00:00Z", day1, 4);
	static const char v9[] =
		"DROP VIEW history_v; DROP TABLE history_provider;"
		"INSERT INTO history_offer(provider, sku, region, oid, price_hr, spot_price_hr,"
		" available, present, seen) SELECT provider, sku, region, id, price_hr,"
		" spot_price_hr, available, 1, '2026-12-01T10:00:00Z' FROM offer"
		" WHERE provider = 'lambda';"
		"UPDATE meta SET value = '0' WHERE key = 'catalog_hash'; PRAGMA user_version = 9";
	c = reopen_older(c, path, v9);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_provider WHERE provider ="
				   " 'lambda' AND since = '2026-12-01T10:00:00Z' AND hi < lo"), 1);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 3);
	store(c, "2026-12-02T10:00:00Z", day2, 4);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history"), 3);
	assert_int_equal(scalar(c, "SELECT kind FROM history h JOIN history_offer o"
				   " ON o.id = h.offer WHERE o.sku = 'sku-2'"), CACHE_HIST_GONE);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 4);
	/* sku-1, unchanged since the baseline, has its row no more: the cache
	 * is as lean as one made by this build (sku-0 changed, sku-2 went,
	 * sku-3 came: theirs stay) */
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer WHERE sku = 'sku-1'"), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_offer"), 3);
	assert_int_equal(scalar(c, "SELECT price_hr FROM history_v WHERE sku = 'sku-1'"), 20);
	cache_close(c);
	unlink(path);
}

/* A cache written by the build before the history (schema 4) opens and
 * migrates: its offers stay, the tables and the view appear. */
static void test_migrates_schema_4(void **state)
{
	(void)state;
	const char *path = scratch_path("history-v4.db");
	struct cache *c = open_file(path);
	long long offers = scalar(c, "SELECT count(*) FROM offer");
	static const char downgrade[] =
		"DROP VIEW history_v; DROP TABLE history;"
		" DROP TABLE history_offer; DROP TABLE history_detail;"
		" UPDATE meta SET value = '0' WHERE key = 'catalog_hash'; PRAGMA user_version = 4";
	c = reopen_older(c, path, downgrade);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer"), offers);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 0);
	const double a[] = {10, 20};
	store(c, "2026-12-01T00:00:00Z", a, 2);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"), 2);
	cache_close(c);
	unlink(path);
}

static void test_changes_and_daily(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	const double a[] = {10, 20, 30, NAN}, b[] = {9, 21, NAN, 40}, d[] = {9, 19, NAN, 40};
	store(c, "2026-11-30T10:00:00Z", a, 4);
	store(c, "2026-12-01T10:00:00Z", b, 4);
	store(c, "2026-12-02T10:00:00Z", d, 4);
	struct query q;
	struct query_sql qs;
	struct query_change *v;
	size_t n;
	query_init(&q);
	query_prepare_fields(&q);
	assert_int_equal(query_build_changes(&q, "2026-12-01T00:00:00Z", &qs, NULL), GC_OK);
	assert_int_equal(query_changes(c, &qs, &v, &n, NULL), GC_OK);
	query_sql_release(&qs);
	/* sku-1: 20 -> 21 -> 19 is cheaper overall */
	assert_int_equal(n, 4);
	assert_string_equal(v[0].change, "appeared");
	assert_string_equal(v[0].sku, "sku-3");
	assert_string_equal(v[1].change, "cheaper");
	assert_string_equal(v[1].sku, "sku-0");
	assert_string_equal(v[2].change, "cheaper");
	assert_true(v[2].was_price_hr == 20 && v[2].price_hr == 19);
	assert_string_equal(v[3].change, "gone");
	query_changes_release(v, n);
	/* list's filters: --max-price 35 drops the 40 that appeared */
	q.max_price = 35;
	assert_int_equal(query_build_changes(&q, "2026-12-02T00:00:00Z", &qs, NULL), GC_OK);
	assert_int_equal(query_changes(c, &qs, &v, &n, NULL), GC_OK);
	query_sql_release(&qs);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].sku, "sku-1");
	query_changes_release(v, n);
	/* the cheapest of sku-0..2 (a100) per day: 10, 9 (sku-0 at 9 from day 2) */
	struct query_daily *dv;
	q.max_price = NAN;
	q.gpus[0] = "a100-sxm-80gb";
	q.ngpus = 1;
	long first = str_date_days("2026-11-29");
	assert_int_equal(query_build_daily(&q, "2026-11-29T00:00:00Z", &qs, NULL), GC_OK);
	assert_int_equal(query_daily(c, &qs, first, 4, &dv, &n, NULL), GC_OK);
	query_sql_release(&qs);
	assert_int_equal(n, 1);
	assert_string_equal(dv[0].gpu, "a100-sxm-80gb");
	/* before history saw them: nothing; then 10; 10 and 9 the day sku-0 fell */
	assert_true(isnan(dv[0].min[0]));
	assert_true(dv[0].min[1] == 10 && dv[0].min[2] == 9 && dv[0].min[3] == 9);
	query_daily_release(dv, n);
	cache_close(c);
}

/* The record against a model of what it means, over random loads: keys
 * from a small pool (some repeated in a load: the first row stands for
 * it), prices and stock that change, keys that go and come back, and now
 * and then the provider's offers cleared without a record.  The model: a
 * key history knows has a state and is present or gone; a load's key
 * that was present and differs is a change (the bits of what differs),
 * one that was gone or never known appeared (not at the baseline), a
 * present one the load lacks went.  Checked after every load: the events
 * by kind, and every key's state and presence through history_v. */
#define MK 12 /* keys: 6 SKUs x 2 regions */

struct mrow {
	int key;
	double price;
	int avail; /* -1: unknown */
};

struct mload {
	const struct mrow *row;
	int n;
};

static enum gc_status fill_model(void *arg, offer_cb cb, void *ctx, char **err)
{
	const struct mload *l = arg;
	enum gc_status st = GC_OK;
	for (int i = 0; st == GC_OK && i < l->n; i++) {
		struct offer o;
		char sku[16];
		offer_init(&o);
		snprintf(sku, sizeof sku, "sku-%d", l->row[i].key / 2);
		o.provider = "lambda";
		o.sku = sku;
		o.gpu = "a100-sxm-80gb";
		o.gpu_name = "GPU";
		o.gpu_count = 8;
		o.region = l->row[i].key % 2 ? "us-west-1" : "us-east-1";
		o.price_hr = l->row[i].price;
		o.available = l->row[i].avail;
		o.source = "live";
		o.fetched_at = "2026-12-02T10:00:00Z";
		st = cb(ctx, &o, err);
	}
	return st;
}

static void store_rows(struct cache *c, const char *at, const struct mrow *rows, int n)
{
	struct mload l = {rows, n};
	struct cache_meta meta = {"live", at, NULL, NULL, NULL, 0, 0};
	char *err = NULL;
	cache_set_guard(c, 1, 0);
	setenv("GPUCMP_NOW", "2026-12-02T10:00:00Z", 1);
	enum gc_status st = cache_store(c, "lambda", &meta, fill_model, &l, NULL, &err);
	unsetenv("GPUCMP_NOW");
	if (st != GC_OK)
		fail_msg("store: %s", err ? err : "?");
}

struct mkey {
	int known, present, avail;
	double price;
};

/* One random load into rows (at most 2 * MK), a key's first row its
 * cheapest, so that the model's first row is known. */
static int random_load(unsigned *seed, struct mrow *rows)
{
	int n = 0;
	for (int k = 0; k < MK; k++) {
		*seed = *seed * 1103515245u + 12345u;
		unsigned r = *seed >> 16;
		if (r % 5 == 0)
			continue; /* not in this load */
		struct mrow row = {k, 1 + (double)(r / 5 % 3), (int)(r / 15 % 3) - 1};
		rows[n++] = row;
		if (r % 7 == 0) { /* repeated, dearer: the first stands */
			row.price += 10;
			rows[n++] = row;
		}
	}
	/* shuffled, so that keys come out of order and a key's rows apart;
	 * then each key's cheaper row moved before its dearer one */
	for (int i = n - 1; i > 0; i--) {
		*seed = *seed * 1103515245u + 12345u;
		int j = (int)((*seed >> 16) % (unsigned)(i + 1));
		struct mrow t = rows[i];
		rows[i] = rows[j];
		rows[j] = t;
	}
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (rows[j].key == rows[i].key && rows[j].price > rows[i].price) {
				struct mrow t = rows[i];
				rows[i] = rows[j];
				rows[j] = t;
			}
	return n;
}

static void check_key(struct cache *c, const struct mkey *m, int k)
{
	const char *region = k % 2 ? "us-west-1" : "us-east-1";
	char sql[512];
	/* its row of its own (id > 0), or its first row in the load (the
	 * largest of the negative ids history_v gives a key the load repeats) */
	snprintf(sql, sizeof sql,
		 "SELECT (price_hr = %g) * 2 + (coalesce(available, -1) = %d)"
		 " + (SELECT count(*) FROM history_v WHERE id > 0 AND sku = 'sku-%d'"
		 " AND region = '%s') * 10 FROM history_v WHERE sku = 'sku-%d'"
		 " AND region = '%s' ORDER BY id DESC LIMIT 1",
		 m->price, m->avail, k / 2, region, k / 2, region);
	long long got = scalar(c, sql);
	assert_int_equal(got % 10, m->known ? 3 : -1);
	assert_true(got / 10 <= 1);
	snprintf(sql, sizeof sql,
		 "SELECT count(*) > 0 FROM offer WHERE provider = 'lambda' AND sku = 'sku-%d'"
		 " AND region = '%s'",
		 k / 2, region);
	assert_int_equal(scalar(c, sql), m->present);
}

static void test_random_against_model(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	struct mkey m[MK] = {{0}};
	long long want[4] = {0}; /* events: appeared, gone, price, stock alone */
	unsigned seed = 12345;
	for (int load = 0; load < 60; load++) {
		struct mrow rows[2 * MK];
		int n = random_load(&seed, rows), seen[MK] = {0};
		char at[32];
		snprintf(at, sizeof at, "2026-12-01T%02d:%02d:00Z", load / 6, load % 6 * 10);
		store_rows(c, at, rows, n);
		for (int i = 0; i < n; i++) {
			struct mkey *k = &m[rows[i].key];
			if (seen[rows[i].key]++)
				continue;
			if (load > 0 && (!k->known || !k->present))
				want[0]++;
			else if (load > 0 && k->price != rows[i].price)
				want[2]++;
			else if (load > 0 && k->avail != rows[i].avail)
				want[3]++;
			k->known = k->present = 1;
			k->price = rows[i].price;
			k->avail = rows[i].avail;
		}
		for (int k = 0; k < MK; k++)
			if (m[k].known && m[k].present && !seen[k]) {
				want[1]++;
				m[k].present = 0;
			}
		static const char *const kinds[] = {"kind = 1", "kind = 2", "kind & 4",
						    "kind = 16"};
		for (int i = 0; i < 4; i++) {
			char sql[128];
			snprintf(sql, sizeof sql, "SELECT count(*) FROM history WHERE %s",
				 kinds[i]);
			assert_int_equal(scalar(c, sql), want[i]);
		}
		for (int k = 0; k < MK; k++)
			check_key(c, &m[k], k);
		/* now and then the offers go without a record: history keeps
		 * what it knew, and the next load compares with it */
		if (load % 13 == 12) {
			size_t removed = 0, restored = 0;
			assert_int_equal(cache_clear(c, &cat, "lambda", &removed, &restored, NULL),
					 GC_OK);
		}
	}
	/* the loads changed things: the walk above was not vacuous */
	assert_true(want[0] > 5 && want[1] > 5 && want[2] > 5 && want[3] > 5);
	cache_close(c);
}

/* A load that repeats a key, the repeat cheaper: history's daily minimum
 * takes the key's first row, as the diff does (history_v lists both rows
 * of a key no event touched), and says the same of the past once an
 * event gives the key a row of its own. */
static void test_daily_first_row(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	const struct mrow day1[] = {{0, 10, 1}, {2, 20, 1}, {0, 5, 1}};
	const struct mrow day2[] = {{0, 12, 1}, {2, 20, 1}, {0, 5, 1}};
	store_rows(c, "2026-12-01T10:00:00Z", day1, 3);
	assert_int_equal(scalar(c, "SELECT count(*) FROM history_v WHERE sku = 'sku-0'"), 2);
	struct query q;
	struct query_sql qs;
	struct query_daily *dv;
	size_t n;
	query_init(&q);
	query_prepare_fields(&q);
	long first = str_date_days("2026-11-29");
	for (int day = 1; day <= 2; day++) {
		if (day == 2) {
			/* sku-0's first row dearer, its repeat the same: an event
			 * (10 to 12, the first rows); 12-02 had 10 before it */
			store_rows(c, "2026-12-02T09:00:00Z", day2, 3);
			assert_int_equal(scalar(c, "SELECT was_price_hr * 100 + price_hr"
						   " FROM history"), 1012);
			assert_int_equal(scalar(c, "SELECT count(*) FROM history_v"
						   " WHERE sku = 'sku-0'"), 1);
		}
		assert_int_equal(query_build_daily(&q, "2026-11-29T00:00:00Z", &qs, NULL),
				 GC_OK);
		assert_int_equal(query_daily(c, &qs, first, 4, &dv, &n, NULL), GC_OK);
		query_sql_release(&qs);
		assert_int_equal(n, 1);
		assert_true(isnan(dv[0].min[1]) && dv[0].min[2] == 10 && dv[0].min[3] == 10);
		query_daily_release(dv, n);
	}
	cache_close(c);
}

static void test_sparkline(void **state)
{
	(void)state;
	const double v[] = {1, 2, NAN, 8};
	char out[16];
	assert_string_equal(render_sparkline(v, 4, out, sizeof out), "▁▂ █");
	const double flat[] = {3, 3};
	assert_string_equal(render_sparkline(flat, 2, out, sizeof out), "▄▄");
	assert_string_equal(render_sparkline(v, 4, out, 8), "▁▂"); /* cut to whole values */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_retention),
		cmocka_unit_test(test_migrates_schema_4),
		cmocka_unit_test(test_migrates_schema_5),
		cmocka_unit_test(test_migrates_schema_9),
		cmocka_unit_test(test_detail_of_gone),
		cmocka_unit_test(test_changes_and_daily),
		cmocka_unit_test(test_sparkline),
		cmocka_unit_test(test_first_row_of_a_key),
		cmocka_unit_test(test_random_against_model),
		cmocka_unit_test(test_daily_first_row),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
