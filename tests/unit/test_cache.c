/* test_cache.c - the SQLite cache: creation and seeding, schema versions,
 * corrupt and foreign files, atomic per-provider replacement. */
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "gpucmp/cache.h"
#include "gpucmp/listprice.h"
#include "gpucmp/snapshot.h"
#include "sqlite_int.h"

static struct catalog cat;
static size_t snapshot_rows, list_rows;

static int setup(void **state)
{
	(void)state;
	struct snapshot_info si;
	struct listprice_info li;
	if (load_embedded_catalog(&cat) != 0 ||
	    snapshot_scan(cat.snapshot, cat.snapshot_len, &si, NULL) != GC_OK ||
	    listprice_parse("data/list-prices.yaml", cat.list_prices, cat.list_prices_len, NULL,
			    NULL, NULL, &li, NULL) != GC_OK)
		return -1;
	snapshot_rows = si.rows + li.rows; /* the built-in rows the cache is seeded with */
	list_rows = li.rows;
	return 0;
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
	assert_int_equal(sqlite3_prepare_v2(cache_db(c), sql, -1, &s, NULL), SQLITE_OK);
	long long v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
	sqlite3_finalize(s);
	return v;
}

/* Offers whose (provider, sku) has no sku_type row: the view would fall
 * back to matching globs for them (slow, still right). */
static long long unmapped(struct cache *c)
{
	return scalar(c, "SELECT count(*) FROM offer o WHERE NOT EXISTS (SELECT 1"
			 " FROM sku_type s WHERE s.provider = o.provider AND s.sku = o.sku)");
}

static struct cache *open_ok(const char *path, struct cache_open_info *info)
{
	struct cache *c = NULL;
	char *err = NULL;
	if (cache_open(&c, path, &cat, info, &err) != GC_OK)
		fail_msg("open %s: %s", path ? path : "memory", err ? err : "?");
	return c;
}

static void test_create_and_seed_once(void **state)
{
	(void)state;
	const char *path = scratch_path("seed/sub/cache.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	assert_true(info.created);
	assert_true(info.seeded);
	assert_false(info.snapshot_updated);
	assert_int_equal(info.snapshot_rows + info.list_rows, snapshot_rows);
	assert_int_equal(info.list_rows, list_rows);
	assert_true(list_rows > 0);
	assert_string_equal(info.snapshot_date, "2026-05-20");
	long long n;
	assert_int_equal(cache_count(c, &n, NULL), GC_OK);
	assert_int_equal(n, (long long)snapshot_rows);
	assert_int_equal(scalar(c, "PRAGMA user_version"), CACHE_SCHEMA_VERSION);
	assert_int_equal(scalar(c, "SELECT count(*) FROM provider"), (long long)cat.profiles.n);
	assert_int_equal(scalar(c, "SELECT count(*) FROM gpu"),
			 (long long)gpu_table_count(cat.gpus));
	/* every snapshot offer joins a provider profile */
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer o LEFT JOIN provider p"
				   " ON p.id = o.provider WHERE p.id IS NULL"), 0);
	sqlite3_stmt *s;
	sqlite3_prepare_v2(cache_db(c), "PRAGMA journal_mode", -1, &s, NULL);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
	sqlite3_finalize(s);
	cache_close(c);
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	/* the second open seeds nothing */
	c = open_ok(path, &info);
	assert_false(info.created);
	assert_false(info.seeded);
	assert_false(info.snapshot_updated);
	cache_close(c);
}

struct fill {
	int n;
	int fail_after; /* < 0: never */
	const char *provider, *source; /* NULL: lambda, live */
};

static enum gc_status fill_offers(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct fill *f = arg;
	for (int i = 0; i < f->n; i++) {
		if (i == f->fail_after)
			return err_set(err, GC_EDATA, "truncated response");
		struct offer o;
		char sku[32];
		offer_init(&o);
		snprintf(sku, sizeof sku, "live-%d", i);
		o.provider = f->provider ? f->provider : "lambda";
		o.sku = sku;
		o.gpu = "h100-sxm";
		o.gpu_name = "H100";
		o.gpu_count = 8;
		o.region = "us-east-1";
		o.price_hr = 20 + i % 1000;
		o.available = 1;
		o.source = f->source ? f->source : "live";
		o.fetched_at = "2026-12-02T10:00:00Z";
		enum gc_status st = cb(ctx, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

static void test_replace_is_atomic(void **state)
{
	(void)state;
	const char *path = scratch_path("replace.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	long long lambda = scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'");
	assert_true(lambda > 0);
	struct fill f = {3, -1, NULL, NULL};
	size_t inserted = 0;
	char *err = NULL;
	assert_int_equal(unmapped(c), 0); /* the snapshot's SKUs */
	assert_int_equal(cache_replace(c, "lambda", NULL, fill_offers, &f, &inserted, &err), GC_OK);
	assert_int_equal(inserted, 3);
	assert_int_equal(unmapped(c), 0); /* and the new ones */
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'"), 3);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer_v WHERE provider = 'lambda'"
				   " AND available = 1 AND source = 'live'"), 3);
	/* a fill that fails half-way changes nothing */
	struct fill bad = {5, 2, NULL, NULL};
	assert_int_equal(cache_replace(c, "lambda", NULL, fill_offers, &bad, NULL, &err), GC_EDATA);
	assert_string_equal(err, "truncated response");
	free(err);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'"), 3);
	assert_int_equal(scalar(c, "SELECT min(price_hr) FROM offer WHERE provider = 'lambda'"),
			 20);
	/* other providers untouched */
	assert_true(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'azure'") > 0);
	cache_close(c);
}

/* Store n offers of `source` for `provider` through cache_store (the rule
 * applies); returns the status, *msg the message or NULL. */
static enum gc_status store_n(struct cache *c, const char *provider, const char *source, int n,
			      char **msg)
{
	struct fill f = {n, -1, provider, source};
	struct cache_meta m = {source, "2026-12-02T10:00:00Z", NULL, NULL, NULL, 0, 0};
	*msg = NULL;
	return cache_store(c, provider, &m, fill_offers, &f, NULL, msg);
}

static long long count_of(struct cache *c, const char *provider)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(cache_db(c),
					    "SELECT count(*) FROM offer WHERE provider = ?1", -1,
					    &s, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	long long v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
	sqlite3_finalize(s);
	return v;
}

/* Expect cache_store to refuse with a message holding `want`, changing nothing. */
static void rule_refuses(struct cache *c, const char *provider, const char *source, int n,
		    const char *want)
{
	long long before = count_of(c, provider);
	char *msg;
	assert_int_equal(store_n(c, provider, source, n, &msg), GC_EDATA);
	assert_non_null(msg);
	if (!strstr(msg, want))
		fail_msg("message '%s' lacks '%s'", msg, want);
	free(msg);
	assert_int_equal(count_of(c, provider), before);
}

static void rule_stores(struct cache *c, const char *provider, const char *source, int n)
{
	char *msg;
	if (store_n(c, provider, source, n, &msg) != GC_OK)
		fail_msg("store %d %s offers of %s: %s", n, source, provider, msg ? msg : "?");
	assert_int_equal(count_of(c, provider), n);
}

/* The plausible-answer rule of cache_store (cache.h). */
static void test_plausible_answer(void **state)
{
	(void)state;
	struct cache_open_info info;
	struct cache *c = open_ok(NULL, &info);
	long long snap = count_of(c, "lambda");
	assert_true(snap >= 100);
	/* no usable offer: refused, even over no offers at all */
	rule_refuses(c, "lambda", "live", 0, "no usable offer in the new data");
	rule_refuses(c, "linode", "live", 0, "no usable offer");
	/* a first live answer is not measured against the snapshot's rows */
	rule_stores(c, "lambda", "live", 3);
	rule_stores(c, "lambda", "live", 30);
	/* under 10% of the previous 30: refused; exactly 10%: stored */
	rule_refuses(c, "lambda", "live", 2,
		     "the new data has 2 offers, under 10% of the previous 30");
	rule_stores(c, "lambda", "live", 3);
	/* fewer than CACHE_GUARD_MIN_PREVIOUS before: only emptiness counts */
	rule_stores(c, "lambda", "live", 1);
	/* a catalog-like answer is measured against the catalog-like rows */
	long long azure = count_of(c, "azure");
	assert_true(azure >= 100);
	rule_refuses(c, "azure", "import", (int)((azure + 9) / 10) - 1,
		     "under 10% of the previous");
	rule_stores(c, "azure", "import", (int)((azure + 9) / 10));
	/* min_keep_percent 0: shrinking is accepted, emptiness is not */
	cache_set_guard(c, 0, 0);
	rule_stores(c, "lambda", "live", 40);
	rule_stores(c, "lambda", "live", 1);
	rule_refuses(c, "lambda", "live", 0, "--force stores an empty answer");
	/* a stricter threshold */
	cache_set_guard(c, 0, 50);
	rule_stores(c, "lambda", "live", 40);
	rule_refuses(c, "lambda", "live", 19, "under 50% of the previous 40");
	/* --force stores anything */
	cache_set_guard(c, 1, 50);
	rule_stores(c, "lambda", "live", 0);
	cache_close(c);
}

/* A large load rebuilds the offer indexes inside its transaction: after
 * it they are all there, the rows are right, queries use the indexes, and
 * a large load that fails leaves the old rows and the indexes as they were. */
static void test_large_replace_rebuilds_indexes(void **state)
{
	(void)state;
	const char *path = scratch_path("large.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	const char *idx = "SELECT count(*) FROM sqlite_master WHERE type = 'index'"
			  " AND tbl_name = 'offer' AND name LIKE 'offer_%'";
	long long nidx = scalar(c, idx);
	assert_int_equal(nidx, 5); /* price, spot, gpu, provider, kind */
	struct fill big = {30000, -1, NULL, NULL};
	size_t inserted = 0;
	char *err = NULL;
	cache_expect_rows(c, 30000);
	assert_int_equal(cache_replace(c, "lambda", NULL, fill_offers, &big, &inserted, &err),
			 GC_OK);
	assert_int_equal(inserted, 30000);
	assert_int_equal(scalar(c, idx), nidx);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'"), 30000);
	assert_int_equal(scalar(c, "SELECT min(price_hr) FROM offer WHERE gpu = 'h100-sxm'"
				   " AND provider = 'lambda'"), 20);
	/* the cheapest-first query reads the price index, not a sort */
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(cache_db(c),
					    "EXPLAIN QUERY PLAN SELECT id FROM offer ORDER BY"
					    " price_hr IS NULL, price_hr LIMIT 5",
					    -1, &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_non_null(strstr((const char *)sqlite3_column_text(s, 3), "offer_price"));
	sqlite3_finalize(s);
	/* a large load that fails half-way: old rows and indexes stay */
	struct fill bad = {30000, 25000, NULL, NULL};
	cache_expect_rows(c, 30000);
	assert_int_equal(cache_replace(c, "lambda", NULL, fill_offers, &bad, NULL, &err), GC_EDATA);
	free(err);
	assert_int_equal(scalar(c, idx), nidx);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'"), 30000);
	assert_int_equal(scalar(c, "SELECT count(*) FROM pragma_integrity_check"
				   " WHERE integrity_check = 'ok'"), 1);
	/* and the insert statement, compiled before the indexes changed, still works */
	struct fill small = {2, -1, NULL, NULL};
	assert_int_equal(cache_replace(c, "lambda", NULL, fill_offers, &small, &inserted, &err),
			 GC_OK);
	assert_int_equal(inserted, 2);
	cache_close(c);
}

/* A newer build's snapshot replaces snapshot rows, but not a provider that
 * already has live offers. */
static void test_snapshot_update_keeps_live_rows(void **state)
{
	(void)state;
	const char *path = scratch_path("update.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	struct fill f = {2, -1, NULL, NULL};
	assert_int_equal(cache_replace(c, "lambda", NULL, fill_offers, &f, NULL, NULL), GC_OK);
	assert_int_equal(sqlite3_exec(cache_db(c), "UPDATE meta SET value = 'old' WHERE key = "
				      "'snapshot_hash'", NULL, NULL, NULL), SQLITE_OK);
	cache_close(c);
	c = open_ok(path, &info);
	assert_true(info.snapshot_updated);
	assert_false(info.seeded);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'"), 2);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'"
				   " AND source = 'snapshot'"), 0);
	assert_true(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'gcp'") > 0);
	cache_close(c);
}

/* The list prices are seeded with the snapshot (source "list"); a newer
 * build's file replaces the list rows, but never the rows of a provider
 * that has imported or live offers by then, and the old list rows do not
 * come back beside them. */
static void test_list_prices_seeded_and_replaced(void **state)
{
	(void)state;
	const char *path = scratch_path("list.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	long long cw = scalar(c, "SELECT count(*) FROM offer WHERE provider = 'coreweave'"
				 " AND source = 'list'");
	long long cr = scalar(c, "SELECT count(*) FROM offer WHERE provider = 'crusoe'"
				 " AND source = 'list'");
	assert_true(cw > 0);
	assert_true(cr > 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE source = 'list'"
				   " AND (origin NOT LIKE 'https://%' OR fetched_at IS NULL)"), 0);
	/* coreweave gets imported offers; a list row of crusoe is tampered with,
	 * as if an older build had written it */
	struct fill f = {2, -1, "coreweave", "import"};
	assert_int_equal(cache_replace(c, "coreweave", NULL, fill_offers, &f, NULL, NULL), GC_OK);
	assert_int_equal(sqlite3_exec(cache_db(c), "UPDATE offer SET price_hr = 999 WHERE"
				      " provider = 'crusoe' AND source = 'list';"
				      "UPDATE meta SET value = 'old' WHERE key = 'snapshot_hash'",
				      NULL, NULL, NULL), SQLITE_OK);
	cache_close(c);
	c = open_ok(path, &info);
	assert_true(info.snapshot_updated);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'coreweave'"), 2);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'coreweave'"
				   " AND source = 'import'"), 2);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'crusoe'"
				   " AND source = 'list'"), cr);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE price_hr = 999"), 0);
	/* cache clear of coreweave restores its list rows */
	size_t removed = 0, restored = 0;
	assert_int_equal(cache_clear(c, &cat, "coreweave", &removed, &restored, NULL), GC_OK);
	assert_int_equal(removed, 2);
	assert_int_equal((long long)restored, cw);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'coreweave'"
				   " AND source = 'list'"), cw);
	cache_close(c);
}

static void test_newer_schema_is_refused(void **state)
{
	(void)state;
	const char *path = scratch_path("newer.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	assert_int_equal(sqlite3_exec(cache_db(c), "PRAGMA user_version = 99", NULL, NULL, NULL),
			 SQLITE_OK);
	cache_close(c);
	char *err = NULL;
	assert_int_equal(cache_open(&c, path, &cat, &info, &err), GC_EIO);
	assert_null(c);
	assert_non_null(strstr(err, "schema version 99, newer than this gpucmp knows"));
	free(err);
	cache_open_info_release(&info);
}

/* The plan's line for table o of a selective --gpu query. */
static int gpu_plan_uses_index(struct cache *c)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(cache_db(c), "EXPLAIN QUERY PLAN SELECT provider"
					   " FROM offer_v WHERE gpu_id IN ('h100-sxm', 'h100-pcie')"
					   " AND gpu_count >= 8 AND price_hr <= 40"
					   " ORDER BY price_hr IS NULL, price_hr LIMIT 20",
					   -1, &s, NULL), SQLITE_OK);
	int found = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(s, 3);
		found |= d && strstr(d, "USING INDEX offer_gpu (gpu=? AND <expr>>?)") != NULL;
	}
	sqlite3_finalize(s);
	return found;
}

/* A cache of schema 3 (the GPU index on the id alone) opens and gets the
 * index that serves a GPU, count and price selection, its offers kept. */
static void test_older_schema_gets_gpu_index(void **state)
{
	(void)state;
	const char *path = scratch_path("older.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	assert_true(gpu_plan_uses_index(c));
	/* schema 3: no history tables either (4 -> 5 adds them) */
	static const char v3[] = "DROP INDEX offer_gpu; CREATE INDEX offer_gpu ON offer(gpu);"
				 " DROP VIEW history_v; DROP TABLE history;"
				 " DROP TABLE history_offer; DROP TABLE history_detail;"
				 " PRAGMA user_version = 3";
	assert_int_equal(sqlite3_exec(cache_db(c), v3, NULL, NULL, NULL), SQLITE_OK);
	assert_false(gpu_plan_uses_index(c));
	cache_close(c);
	cache_open_info_release(&info);
	c = open_ok(path, &info);
	assert_false(info.created);
	assert_false(info.seeded);
	assert_int_equal(scalar(c, "PRAGMA user_version"), CACHE_SCHEMA_VERSION);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer"), (long long)snapshot_rows);
	assert_true(gpu_plan_uses_index(c));
	cache_close(c);
	cache_open_info_release(&info);
}

static void test_foreign_database_is_left_alone(void **state)
{
	(void)state;
	const char *path = scratch_path("foreign.db");
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE notes(x); INSERT INTO notes VALUES(1)",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	assert_int_equal(cache_open(&c, path, &cat, &info, &err), GC_EIO);
	assert_non_null(strstr(err, "not a gpucmp cache"));
	free(err);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *s;
	sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &s, NULL);
	sqlite3_step(s);
	assert_int_equal(sqlite3_column_int(s, 0), 1);
	sqlite3_finalize(s);
	sqlite3_close(db);
}

/* A cache rebuilt from the snapshot after its file was moved aside: the
 * seeded rows are all there; the file aside is removed, the handle closed. */
static void rebuilt(struct cache *c, struct cache_open_info *info)
{
	assert_true(info->seeded);
	long long n;
	assert_int_equal(cache_count(c, &n, NULL), GC_OK);
	assert_int_equal(n, (long long)snapshot_rows);
	remove(info->moved_aside);
	cache_open_info_release(info);
	cache_close(c);
}

static void test_corrupt_file_is_moved_aside(void **state)
{
	(void)state;
	const char *path = scratch_path("corrupt.db");
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	for (int i = 0; i < 8192; i++)
		fputc((i * 7919) & 0xff, f);
	fclose(f);
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	assert_non_null(info.moved_aside);
	assert_non_null(strstr(info.moved_aside, "corrupt.db.corrupt-"));
	struct stat sb;
	assert_int_equal(stat(info.moved_aside, &sb), 0);
	assert_int_equal(sb.st_size, 8192); /* kept, not deleted */
	rebuilt(c, &info);
}

/* Damage that shows only inside a transaction (here: the snapshot re-seed a
 * new build runs) is found after the rollback has cleared SQLite's error
 * code: the file is still moved aside and rebuilt, never left failing. */
static void test_damage_met_while_seeding_is_moved_aside(void **state)
{
	(void)state;
	const char *path = scratch_path("damaged-seed.db");
	struct cache_open_info info;
	cache_close(open_ok(path, &info));
	cache_open_info_release(&info);
	sqlite3 *db;
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode=DELETE;"
				      "UPDATE meta SET value = '0' WHERE key = 'snapshot_hash'",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master "
					    "WHERE name = 'offer'", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	long root = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA page_size", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	long page = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	/* the offer table's root page becomes garbage: the header and the
	 * schema still read, the re-seed's DELETE does not */
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, (root - 1) * page + 8, SEEK_SET), 0);
	for (int i = 0; i < 512; i++)
		fputc(0xA5, f);
	fclose(f);
	struct cache *c = open_ok(path, &info);
	assert_non_null(info.moved_aside);
	rebuilt(c, &info);
}

/* A VFS over the default one whose read-write connections read one page
 * of the main database as zeros, as SQLite does after a short read: damage
 * that is not in the file (a transient fault), which a fresh read-only
 * connection does not see. */
static sqlite3_vfs flaky_vfs, *base_vfs;
static sqlite3_io_methods flaky_methods;
static const sqlite3_io_methods *base_methods;
static sqlite3_int64 flaky_at = -1; /* the offset read as zeros; -1: none */

static int flaky_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	if (flaky_at >= off && flaky_at < off + n) {
		memset(buf, 0, (size_t)n);
		return SQLITE_IOERR_SHORT_READ;
	}
	return base_methods->xRead(f, buf, n, off);
}

static int flaky_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags,
		      int *out)
{
	(void)vfs;
	int rc = base_vfs->xOpen(base_vfs, name, f, flags, out);
	if (rc == SQLITE_OK && f->pMethods && (flags & SQLITE_OPEN_MAIN_DB) &&
	    (flags & SQLITE_OPEN_READWRITE)) {
		if (!base_methods) {
			base_methods = f->pMethods;
			flaky_methods = *base_methods;
			flaky_methods.xRead = flaky_read;
		}
		f->pMethods = &flaky_methods;
	}
	return rc;
}

static void flaky_install(void)
{
	base_vfs = sqlite3_vfs_find(NULL);
	assert_non_null(base_vfs);
	flaky_vfs = *base_vfs;
	flaky_vfs.zName = "flaky";
	flaky_vfs.xOpen = flaky_open;
	assert_int_equal(sqlite3_vfs_register(&flaky_vfs, 1), SQLITE_OK);
}

static int flaky_remove(void **state)
{
	(void)state;
	flaky_at = -1;
	sqlite3_vfs_unregister(&flaky_vfs); /* also after a failed assertion */
	return 0;
}

/* Fails if `path` has a PATH.corrupt-* copy beside it; with `clear`,
 * removes them instead (left by an earlier run). */
static void corrupt_copies(const char *path, int clear)
{
	char *dir = strdup(path), *slash = strrchr(dir, '/');
	*slash = '\0';
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	char name[4200];
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, slash + 1, strlen(slash + 1)) != 0 ||
		    !strstr(e->d_name, ".corrupt-"))
			continue;
		if (!clear)
			fail_msg("%s was moved aside as %s", path, e->d_name);
		snprintf(name, sizeof name, "%s/%s", dir, e->d_name);
		remove(name);
	}
	closedir(d);
	free(dir);
}

/* "A failure to open is not corruption": a read that SQLite reports as a
 * damaged file (here a transient short read) sets the cache aside only
 * when a second read on a fresh read-only connection finds the damage;
 * otherwise the file stays as it was, on open and after a query. */
static void test_transient_damage_is_not_moved_aside(void **state)
{
	(void)state;
	const char *path = scratch_path("transient.db");
	corrupt_copies(path, 1);
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	cache_open_info_release(&info);
	long long root = scalar(c, "SELECT rootpage FROM sqlite_master WHERE name = 'offer'");
	long long pagesize = scalar(c, "PRAGMA page_size");
	long long offers = scalar(c, "SELECT count(*) FROM offer");
	cache_close(c);
	flaky_install();

	/* the header reads as zeros on open: "file is not a database" */
	flaky_at = 0;
	char *err = NULL;
	c = NULL;
	assert_int_equal(cache_open(&c, path, &cat, &info, &err), GC_EIO);
	assert_null(c);
	assert_null(info.moved_aside);
	assert_false(info.refused);
	assert_false(info.readonly);
	assert_non_null(strstr(err, "a second read found no damage, so the file is kept"));
	free(err);
	err = NULL;
	cache_open_info_release(&info);
	corrupt_copies(path, 0);
	/* a reader still reads it, read-only */
	assert_int_equal(cache_open_readonly(&c, path, &cat, &err), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer"), offers);
	cache_close(c);

	/* the offer table's root reads as zeros: the query meets "damage",
	 * and setting the cache aside checks it first */
	flaky_at = -1;
	c = open_ok(path, &info);
	cache_open_info_release(&info);
	flaky_at = (root - 1) * pagesize + 100;
	sqlite3_db_release_memory(cache_db(c)); /* read the page again */
	sqlite3_stmt *s;
	static const char q[] = "SELECT count(*) FROM offer NOT INDEXED"; /* the table's pages */
	assert_int_equal(sqlite3_prepare_v2(cache_db(c), q, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_CORRUPT);
	sqlite3_finalize(s);
	assert_true(cache_corrupt(c));
	char *moved = NULL;
	assert_int_equal(cache_set_aside(c, &moved, &err), GC_ETEMPFAIL);
	assert_null(moved);
	assert_non_null(strstr(err, "a second read found no damage"));
	free(err);
	corrupt_copies(path, 0);

	flaky_remove(NULL);
	c = open_ok(path, &info);
	assert_null(info.moved_aside);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer"), offers);
	cache_open_info_release(&info);
	cache_close(c);
}

static void test_memory_and_paths(void **state)
{
	(void)state;
	struct cache_open_info info;
	struct cache *c = open_ok(NULL, &info);
	assert_string_equal(cache_path(c), ":memory:");
	assert_true(info.seeded);
	cache_close(c);

	char *p;
	setenv("GPUCMP_CACHE", "/tmp/env.db", 1);
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	p = cache_default_path("/flag.db", NULL);
	assert_string_equal(p, "/flag.db");
	free(p);
	p = cache_default_path(NULL, NULL);
	assert_string_equal(p, "/tmp/env.db");
	free(p);
	unsetenv("GPUCMP_CACHE");
	p = cache_default_path(NULL, NULL);
	assert_string_equal(p, "/xdg/gpucmp/cache.db");
	free(p);
	setenv("XDG_CACHE_HOME", "relative", 1); /* XDG says: ignore relative paths */
	p = cache_default_path(NULL, NULL);
	assert_string_equal(p, "/home/u/.cache/gpucmp/cache.db");
	free(p);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	char *err = NULL;
	assert_null(cache_default_path(NULL, &err));
	assert_non_null(strstr(err, "--cache PATH"));
	free(err);
}

static void test_unwritable_location(void **state)
{
	(void)state;
	if (geteuid() == 0) {
		/* root ignores directory permissions: use a path under a regular file */
		const char *file = scratch_path("plainfile");
		FILE *f = fopen(file, "w");
		fclose(f);
		char path[4200];
		snprintf(path, sizeof path, "%s/cache.db", file);
		struct cache *c = NULL;
		struct cache_open_info info;
		char *err = NULL;
		assert_int_equal(cache_open(&c, path, &cat, &info, &err), GC_EIO);
		assert_non_null(strstr(err, "cannot"));
		free(err);
		return;
	}
	const char *dir = scratch_path("ro");
	mkdir(dir, 0500);
	char path[4200];
	snprintf(path, sizeof path, "%s/x/cache.db", dir);
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	assert_int_equal(cache_open(&c, path, &cat, &info, &err), GC_EIO);
	assert_non_null(strstr(err, "cannot create cache directory"));
	free(err);
}

/* A new cache is 0600 in a directory made 0700, whatever the umask: it may
 * hold a provider's account-specific offers. */
static void test_new_file_modes(void **state)
{
	(void)state;
	char dir[4200], path[4300];
	snprintf(dir, sizeof dir, "%s", scratch_path("modes"));
	snprintf(path, sizeof path, "%s/sub/cache.db", dir);
	scratch_path("modes/sub/cache.db");
	rmdir(scratch_path("modes/sub"));
	rmdir(dir);
	mode_t old = umask(022);
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	umask(old);
	assert_null(info.open_dir);
	cache_close(c);
	cache_open_info_release(&info);
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	snprintf(path, sizeof path, "%s/sub", dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0700);
}

/* Open `path` expecting a refusal that names it and sets info.unusable. */
static void refused(const char *path, const char *what)
{
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	alarm(60); /* a FIFO must not block the open: a hang fails the test */
	assert_int_equal(cache_open(&c, path, &cat, &info, &err), GC_EIO);
	alarm(0);
	assert_null(c);
	assert_true(info.unusable);
	if (!strstr(err, path) || !strstr(err, what) || strchr(err, '\n'))
		fail_msg("%s: %s", path, err);
	free(err);
	cache_open_info_release(&info);
}

/* A symbolic link at the cache path is never followed: a dangling one does
 * not create its target, a link to an empty file does not turn that file
 * into a database.  A FIFO, a directory or a device is refused unopened. */
static void test_unusable_paths(void **state)
{
	(void)state;
	char base[4200], link[4300], target[4300];
	snprintf(base, sizeof base, "%s", scratch_path("paths"));
	mkdir(base, 0700);
	snprintf(link, sizeof link, "%s/cache.db", base);
	snprintf(target, sizeof target, "%s/target.db", base);
	remove(link);
	remove(target);
	assert_int_equal(symlink("target.db", link), 0);
	refused(link, "is a symbolic link, which gpucmp does not follow");
	assert_int_equal(access(target, F_OK), -1); /* not created */
	FILE *f = fopen(target, "w");
	assert_non_null(f);
	fclose(f);
	refused(link, "is a symbolic link");
	struct stat sb;
	assert_int_equal(stat(target, &sb), 0);
	assert_int_equal(sb.st_size, 0); /* still empty */
	remove(link);
	remove(target);
	assert_int_equal(mkfifo(link, 0600), 0);
	refused(link, "is a FIFO, not a regular file");
	remove(link);
	assert_int_equal(mkdir(link, 0700), 0);
	refused(link, "is a directory, not a regular file");
	rmdir(link);
	refused("/dev/null", "is a character device, not a regular file");
}

/* A directory anyone can write holding the cache is reported (once, by
 * the CLI); the cache still opens. */
static void test_open_directory(void **state)
{
	(void)state;
	char dir[4200], path[4300];
	snprintf(dir, sizeof dir, "%s", scratch_path("opendir"));
	mkdir(dir, 0700);
	assert_int_equal(chmod(dir, 01777), 0);
	snprintf(path, sizeof path, "%s/cache.db", dir);
	scratch_path("opendir/cache.db");
	struct cache_open_info info;
	struct cache *c = open_ok(path, &info);
	assert_non_null(info.open_dir);
	assert_string_equal(info.open_dir, dir);
	cache_close(c);
	cache_open_info_release(&info);
	assert_null(info.open_dir);
	assert_int_equal(chmod(dir, 0700), 0);
	c = open_ok(path, &info);
	assert_null(info.open_dir);
	cache_close(c);
	cache_open_info_release(&info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_and_seed_once),
		cmocka_unit_test(test_replace_is_atomic),
		cmocka_unit_test(test_plausible_answer),
		cmocka_unit_test(test_large_replace_rebuilds_indexes),
		cmocka_unit_test(test_snapshot_update_keeps_live_rows),
		cmocka_unit_test(test_list_prices_seeded_and_replaced),
		cmocka_unit_test(test_newer_schema_is_refused),
		cmocka_unit_test(test_older_schema_gets_gpu_index),
		cmocka_unit_test(test_foreign_database_is_left_alone),
		cmocka_unit_test(test_corrupt_file_is_moved_aside),
		cmocka_unit_test(test_damage_met_while_seeding_is_moved_aside),
		cmocka_unit_test_teardown(test_transient_damage_is_not_moved_aside, flaky_remove),
		cmocka_unit_test(test_memory_and_paths),
		cmocka_unit_test(test_unwritable_location),
		cmocka_unit_test(test_new_file_modes),
		cmocka_unit_test(test_unusable_paths),
		cmocka_unit_test(test_open_directory),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
