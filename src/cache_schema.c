/* cache_schema.c - the cache's schema: the migrations (PRAGMA
 * user_version), the refusal of files that are not ours, the view offer_v
 * every query reads and its sku_type table, history_v (its source from
 * cache_history.c).  Calls cache_db.c and cache_history.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_int.h"
#include "gpucmp/adapter.h"
#include "gpucmp/buf.h"
#include "sqlite_int.h"

/* The offer table's columns as schema 1 made them, which history_offer
 * (a later migration) starts from: one text, so the two cannot drift. */
#define OFFER_COLUMNS_1 \
	" id INTEGER PRIMARY KEY," \
	" provider TEXT NOT NULL, sku TEXT NOT NULL, gpu TEXT, gpu_name TEXT NOT NULL," \
	" gpu_count REAL NOT NULL, gpu_mem_gb REAL, vcpus REAL, ram_gb REAL, disk_gb REAL," \
	" region TEXT NOT NULL, price_hr REAL, spot_price_hr REAL," \
	" currency TEXT NOT NULL DEFAULT 'USD', price_native REAL, spot_native REAL," \
	" available INTEGER, infiniband INTEGER, rdma TEXT, nvlink INTEGER," \
	" node_bandwidth_gbps REAL, driver_version TEXT, max_cuda TEXT," \
	" source TEXT NOT NULL, origin TEXT, fetched_at TEXT NOT NULL," \
	" stale INTEGER NOT NULL DEFAULT 0"

/* Schema migrations: entry i brings user_version i to i+1.  Never edit a
 * released entry; append a new one. */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE offer(" OFFER_COLUMNS_1 ");"
	/* sort keys put NULL prices last: index the same expressions, so that
	 * 'list --limit 20' reads 20 rows instead of sorting them all */
	"CREATE INDEX offer_price ON offer(price_hr IS NULL, price_hr);"
	"CREATE INDEX offer_spot ON offer(spot_price_hr IS NULL, spot_price_hr);"
	"CREATE INDEX offer_gpu ON offer(gpu, price_hr IS NULL, price_hr);"
	"CREATE INDEX offer_provider ON offer(provider, source);"
	"CREATE TABLE provider_state("
	" provider TEXT PRIMARY KEY, source TEXT, fetched_at TEXT,"
	" stale INTEGER NOT NULL DEFAULT 0, last_error TEXT,"
	" etag TEXT, last_modified TEXT);",
	/* 1 -> 2: driver and CUDA versions as numbers, filled on insert; the
	 * GPU index without the price: a --gpu selection is small enough to
	 * sort, and the narrower index builds a fifth faster on large imports */
	"ALTER TABLE offer ADD COLUMN driver_num INTEGER;"
	"ALTER TABLE offer ADD COLUMN max_cuda_num INTEGER;"
	"DROP INDEX offer_gpu;"
	"CREATE INDEX offer_gpu ON offer(gpu);",
	/* 2 -> 3: when the data describes (apart from when it was fetched), the
	 * kind of price, and the share of a GPU a slice is */
	"ALTER TABLE offer ADD COLUMN as_of TEXT;"
	"ALTER TABLE offer ADD COLUMN price_kind TEXT;"
	"ALTER TABLE offer ADD COLUMN gpu_fraction REAL NOT NULL DEFAULT 1;",
	/* 3 -> 4: the GPU index holds what a GPU selection filters on next, the
	 * GPU count as offer_v computes it (the same expression, so the planner
	 * matches it) and the price: 'list --gpu h100 --gpus 8 --max-price 40'
	 * reads index entries and fetches only the offers that match (the
	 * sqlite3 shell on the view: 82 -> 11 ms at 10^6 offers; PERFORMANCE.md) */
	("DROP INDEX offer_gpu;"
	 "CREATE INDEX offer_gpu ON offer(gpu, gpu_count * gpu_fraction, price_hr);"),
	/* 4 -> 5: price history (docs/HISTORY.md).  history_offer: every offer
	 * key (provider, sku, region) a load has stored, with the attributes it
	 * last changed with (the columns of offer, so that the view history_v
	 * filters it as offer_v filters offers) and whether the last load had
	 * it, since when history knows it (seen); history: one row per offer
	 * and load that changed it, the state
	 * before and after.  Empty at first: a provider's first load after this
	 * is its baseline. */
	"CREATE TABLE history_offer(" OFFER_COLUMNS_1 ", driver_num INTEGER, max_cuda_num INTEGER,"
	" as_of TEXT, price_kind TEXT, gpu_fraction REAL NOT NULL DEFAULT 1,"
	" present INTEGER NOT NULL DEFAULT 1, seen TEXT NOT NULL);"
	"CREATE UNIQUE INDEX history_offer_key ON history_offer(provider, sku, region);"
	"CREATE TABLE history("
	" id INTEGER PRIMARY KEY, offer INTEGER NOT NULL, at TEXT NOT NULL,"
	" kind INTEGER NOT NULL, price_hr REAL, spot_price_hr REAL, available INTEGER,"
	" was_price_hr REAL, was_spot_price_hr REAL, was_available INTEGER);"
	"CREATE INDEX history_at ON history(at);"
	"CREATE INDEX history_offer_at ON history(offer, at);",
	/* 5 -> 6: history without a second copy of every offer (a 10^6-offer
	 * import kept 250 bytes per offer of it and spent two thirds of its
	 * time writing it; docs/PERFORMANCE.md).  history_offer keeps the key,
	 * the state history compares and, in oid, the offer's row, from which
	 * history_v reads the rest; history_detail keeps the rest for an offer
	 * that is gone (for every offer here, until its provider's next load
	 * points it at its row). */
	("DROP VIEW IF EXISTS history_v;"
	 "CREATE TABLE history_detail(id INTEGER PRIMARY KEY,"
	 " gpu TEXT, gpu_name TEXT, gpu_count REAL, gpu_mem_gb REAL, vcpus REAL, ram_gb REAL,"
	 " disk_gb REAL, currency TEXT, price_native REAL, spot_native REAL,"
	 " infiniband INTEGER, rdma TEXT, nvlink INTEGER, node_bandwidth_gbps REAL,"
	 " driver_version TEXT, max_cuda TEXT, source TEXT, origin TEXT, fetched_at TEXT,"
	 " as_of TEXT, price_kind TEXT, gpu_fraction REAL, stale INTEGER, driver_num INTEGER,"
	 " max_cuda_num INTEGER);"
	 "INSERT INTO history_detail SELECT id, gpu, gpu_name, gpu_count, gpu_mem_gb, vcpus,"
	 " ram_gb, disk_gb, currency, price_native, spot_native, infiniband, rdma, nvlink,"
	 " node_bandwidth_gbps, driver_version, max_cuda, source, origin, fetched_at, as_of,"
	 " price_kind, gpu_fraction, stale, driver_num, max_cuda_num FROM history_offer;"
	 "CREATE TABLE history_key("
	 " id INTEGER PRIMARY KEY, provider TEXT NOT NULL, sku TEXT NOT NULL,"
	 " region TEXT NOT NULL, oid INTEGER, price_hr REAL, spot_price_hr REAL,"
	 " available INTEGER, present INTEGER NOT NULL DEFAULT 1, seen TEXT NOT NULL);"
	 "INSERT INTO history_key SELECT id, provider, sku, region, NULL, price_hr,"
	 " spot_price_hr, available, present, seen FROM history_offer;"
	 "DROP TABLE history_offer;"
	 "ALTER TABLE history_key RENAME TO history_offer;"
	 "CREATE UNIQUE INDEX history_offer_key ON history_offer(provider, sku, region);"),
	/* 6 -> 7: as_of is the date of the data, NULL when unknown (stale); a
	 * live answer is dated by its fetch (the door now writes it), the
	 * snapshot's rows by the catalogs' date (their fetched_at): the rows
	 * stored before get theirs.  A catalog's rows without one stay
	 * unknown, as they always were. */
	"UPDATE offer SET as_of = fetched_at WHERE as_of IS NULL"
	" AND source IN ('live', 'snapshot');",
	/* 7 -> 8: the offers that name their own kind of price (most take
	 * their profile's): auction floors rank after the other prices, and
	 * 'list --limit 20' finds the floors among the matches through this
	 * index and the provider index, not by reading every match (an empty
	 * index costs nothing to keep; PERFORMANCE.md "Auction floors") */
	"CREATE INDEX IF NOT EXISTS offer_kind ON offer(price_kind) WHERE price_kind IS NOT NULL;",
	/* 8 -> 9: the committed prices of an offer (docs/OUTPUT.md, "Price
	 * types"): a reservation for a term (term_months), a capacity block
	 * (term_months 0: none said), each USD per hour for the whole offer,
	 * written through the door with the offer (ingest_commit) and dropped
	 * with it (cache_commits_sweep).  Not "offer_price": that name is the
	 * price index's. */
	("CREATE TABLE IF NOT EXISTS offer_commit("
	 " id INTEGER PRIMARY KEY, offer INTEGER NOT NULL, price_type TEXT NOT NULL,"
	 " term_months INTEGER NOT NULL DEFAULT 0, price_hr REAL NOT NULL,"
	 " origin TEXT, as_of TEXT, UNIQUE(offer, price_type, term_months));"
	 "CREATE INDEX IF NOT EXISTS offer_commit_type"
	 " ON offer_commit(price_type, term_months, price_hr);"),
	/* 9 -> 10: history keeps a row only for an offer an event touched; an
	 * offer unchanged since its provider's baseline is its row in offer,
	 * in the range of the provider's last recorded load (lo..hi) that
	 * history_provider keeps with the baseline's time (docs/HISTORY.md; a
	 * 10^6-offer import spent a quarter of its time and 140 bytes per
	 * offer on a row per offer).  The rows kept so far stay, and the
	 * range is empty until the provider's next load, which drops the
	 * rows that say no more than its offers (cache_history.c). */
	("DROP VIEW IF EXISTS history_v;"
	 "CREATE TABLE IF NOT EXISTS history_provider(provider TEXT PRIMARY KEY,"
	 " since TEXT NOT NULL, lo INTEGER NOT NULL DEFAULT 1, hi INTEGER NOT NULL DEFAULT 0);"
	 "INSERT OR IGNORE INTO history_provider(provider, since)"
	 " SELECT provider, min(seen) FROM history_offer GROUP BY provider;"),
};
#define NMIGRATIONS (sizeof migrations / sizeof migrations[0])

/* The first instance-type entry (insttype.ord) whose glob matches the SKU of
 * table alias A, or NULL.  Patterns were lowercased when loaded; lower()
 * folds ASCII as insttype_lookup() does. */
#define SKU_TYPE_ORD(a)                                                          \
	"(SELECT i.ord FROM insttype i WHERE i.provider = " a ".provider"        \
	" AND lower(" a ".sku) GLOB i.match ORDER BY i.ord LIMIT 1)"

/* The view every query reads: offers joined with the provider profile, the
 * GPU model and the first data/instance-types.yaml entry whose glob matches
 * the SKU (table insttype; the same first-match rule as insttype_lookup()).
 * Capability columns follow docs/OUTPUT.md and come from one table in
 * src/cache_caps.c: for each, what the offer itself says, then the instance
 * type, then the GPU model, then the provider profile, so that a fact a
 * provider limits to some machines is answered per machine.
 * The view is rebuilt whenever the catalog or this text changes
 * (cache_sync_catalog), so editing it needs no migration. */
static const char view_sql[] =
	"DROP VIEW IF EXISTS offer_v;"
	/* sku_type: the first matching instance-type entry of each stored
	 * (provider, sku), so that the view joins on an index instead of
	 * matching globs row by row (a full scan of 3*10^5 offers took 1.7 s
	 * with the globs in the view, 0.3 s before them).  Rebuilt here with the
	 * catalog; cache_map_skus() adds the SKUs of each load.  A SKU it has not seen
	 * still gets its entry: the view falls back to the globs for it. */
	"DROP TABLE IF EXISTS sku_type;"
	"CREATE TABLE sku_type(provider TEXT NOT NULL, sku TEXT NOT NULL, ord INTEGER,"
	" PRIMARY KEY(provider, sku)) WITHOUT ROWID;"
	"INSERT INTO sku_type SELECT d.provider, d.sku, " SKU_TYPE_ORD("d")
	" FROM (SELECT DISTINCT provider, sku FROM offer) d;";

/* The kind of an offer's price: its own, else its profile's. */
#define PRICE_KIND "COALESCE(o.price_kind, NULLIF(p.billing_price_kind, 'unknown'), 'fixed')"

/* The view itself (a string of its own: C11 promises literals of 4095
 * bytes only). */
static const char view_body_sql[] =
	"CREATE VIEW offer_v AS SELECT"
	" o.id AS id, o.provider AS provider, o.sku AS sku,"
	" COALESCE(o.gpu, o.gpu_name) AS gpu, o.gpu AS gpu_id, o.gpu_name AS gpu_name,"
	" (g.id IS NOT NULL) AS gpu_known,"
	/* a slice is one GPU of a fraction: gpu_count is the GPUs' worth
	 * (0.5), gpu_mem_gb its real memory */
	" o.gpu_count * o.gpu_fraction AS gpu_count, o.gpu_mem_gb AS gpu_mem_gb,"
	" o.gpu_mem_gb * o.gpu_count AS total_gpu_mem_gb,"
	" o.gpu_fraction AS gpu_fraction,"
	" o.vcpus AS vcpus, o.ram_gb AS ram_gb, o.disk_gb AS disk_gb, o.region AS region,"
	" o.price_hr AS price_hr, o.spot_price_hr AS spot_price_hr,"
	" ROUND(o.price_hr / (o.gpu_count * o.gpu_fraction), 6) AS price_per_gpu_hr,"
	" ROUND(o.price_hr / (o.gpu_mem_gb * o.gpu_count), 6) AS price_per_gb_hr,"
	" g.bf16_tflops AS bf16_tflops,"
	" ROUND(o.price_hr / (o.gpu_count * o.gpu_fraction * g.bf16_tflops / 1000.0), 4)"
	"  AS usd_per_pflop_hr,";

/* offer_v's value-per-dollar columns (docs/OUTPUT.md, `gpucmp help
 * values`), between view_body_sql and view_tail_sql. */
static const char view_value_sql[] =
	/* value per dollar (docs/OUTPUT.md, `gpucmp help values`): what the
	 * whole offer gives per on-demand USD per hour, from the GPU table;
	 * NULL for an auction floor (the lowest bid, not a price) */
	" g.fp8_tflops AS fp8_tflops, g.memory_bandwidth_tbs AS memory_bandwidth_tbs,"
	" CASE WHEN " PRICE_KIND " <> 'auction_floor' THEN"
	"  ROUND(o.gpu_count * o.gpu_fraction * g.bf16_tflops / o.price_hr, 4) END"
	"  AS bf16_tflops_per_usd,"
	" CASE WHEN " PRICE_KIND " <> 'auction_floor' THEN"
	"  ROUND(o.gpu_count * o.gpu_fraction * g.fp8_tflops / o.price_hr, 4) END"
	"  AS fp8_tflops_per_usd,"
	" CASE WHEN " PRICE_KIND " <> 'auction_floor' THEN"
	"  ROUND(o.gpu_count * o.gpu_fraction * g.memory_bandwidth_tbs / o.price_hr, 4) END"
	"  AS mem_bw_tbs_per_usd,"
	" CASE WHEN " PRICE_KIND " <> 'auction_floor' THEN"
	"  ROUND(o.gpu_mem_gb * o.gpu_count / o.price_hr, 4) END AS vram_gb_per_usd,"
	/* what price_hr is (docs/OUTPUT.md, "Price types"): a committed price
	 * is a row of offer_commit, read through cache_price_view */
	" CASE WHEN " PRICE_KIND " = 'auction_floor' THEN 'auction_floor' ELSE 'on_demand' END"
	"  AS price_type, NULL AS term_months,";

/* offer_v's stock columns, after view_value_sql: where an offer's
 * `available` was read, and when.  Derived, not stored: a live offer's
 * stock comes from its adapter's signal (struct adapter's stock, the
 * offer in region "unknown" from stock_unplaced when the adapter names
 * one), any other row's from its source and origin (an import's file);
 * checked when the data is dated (as_of: a live fetch's time).  Both NULL
 * when available is (snapshot and catalog rows carry no stock). */
/* One arm of the stock CASE: " WHEN <cond>o.provider = 'id' THEN 'signal'". */
static enum gc_status stock_arm(struct buf *b, const char *cond, const char *id,
				const char *signal)
{
	enum gc_status st = buf_printf(b, " WHEN %so.provider = ", cond);
	if (st == GC_OK)
		st = buf_add_sql_text(b, id);
	if (st == GC_OK)
		st = buf_addstr(b, " THEN ");
	if (st == GC_OK)
		st = buf_add_sql_text(b, signal);
	return st;
}

static enum gc_status view_stock_sql(struct buf *b)
{
	enum gc_status st = buf_addstr(b, " CASE WHEN o.available IS NULL THEN NULL"
				      " WHEN o.source <> 'live' THEN o.source"
				      " || COALESCE(': ' || o.origin, '')");
	for (size_t i = 0; st == GC_OK && i < adapter_count; i++) {
		const struct adapter *a = adapters[i];
		if (a->stock && a->stock_unplaced)
			st = stock_arm(b, "o.region = 'unknown' AND ", a->id, a->stock_unplaced);
		if (st == GC_OK && a->stock)
			st = stock_arm(b, "", a->id, a->stock);
	}
	if (st == GC_OK)
		st = buf_addstr(b, " ELSE o.provider || ': live API' END AS available_source,"
				   " CASE WHEN o.available IS NOT NULL THEN o.as_of END"
				   " AS available_checked_at,");
	return st;
}

/* The offer's own columns between the value columns and the capability
 * columns cache_caps_sql() makes (src/cache_caps.c). */
static const char view_offer_sql[] = " o.currency AS currency, o.available AS available,";

/* The rest of offer_v, after the capability columns. */
static const char view_tail_sql[] =
	" o.driver_version AS driver_version, o.max_cuda AS max_cuda,"
	/* versions as numbers (major*10^6 + minor*10^3 + patch), for --cuda */
	" o.driver_num AS driver_num, o.max_cuda_num AS max_cuda_num,"
	" p.kubernetes_control_plane_fee_usd_hr AS k8s_fee_hr,"
	/* the rest of a job's bill (list --disk, --egress: query_prepare_cost) */
	" p.costs_block_storage_usd_gb_month AS storage_usd_gb_month,"
	" p.costs_egress_usd_gb AS egress_usd_gb,"
	" p.costs_egress_free_gb_month AS egress_free_gb_month,"
	" o.source AS source, o.fetched_at AS fetched_at, o.stale AS stale,"
	" o.as_of AS as_of," /* NULL: the source named no date */
	" " PRICE_KIND " AS price_kind,"
	/* where the region is (data/regions.yaml): its entry, else for a
	 * provider whose names carry the country the code in the name, in the
	 * shapes and order of regions_code_in_name() */
	" COALESCE(rp.country, c.code, 'unknown') AS country,"
	" COALESCE(rp.continent, c.continent, 'unknown') AS continent,"
	" COALESCE(rp.geo, c.geo, 'unknown') AS geo"
	" FROM offer o LEFT JOIN provider p ON p.id = o.provider"
	" LEFT JOIN gpu g ON g.id = o.gpu"
	" LEFT JOIN sku_type st ON st.provider = o.provider AND st.sku = o.sku"
	" LEFT JOIN insttype t ON t.ord = CASE WHEN st.provider IS NOT NULL THEN st.ord"
	"  ELSE " SKU_TYPE_ORD("o") " END"
	/* both joins are on a whole key and the planner drops them when a
	 * query reads no location column */
	" LEFT JOIN region_place rp ON rp.provider = o.provider AND rp.region = o.region"
	" LEFT JOIN country c ON c.code = CASE WHEN o.provider IN"
	"  (SELECT provider FROM region_source WHERE names_country = 1) THEN"
	"  CASE WHEN o.region GLOB '[A-Z][A-Z], [A-Z][A-Z]'"
	"   OR o.region GLOB '*, [A-Z][A-Z], [A-Z][A-Z]' THEN substr(o.region, -6, 2)"
	"  WHEN o.region GLOB '*, [A-Z][A-Z]' THEN substr(o.region, -2, 2) END END;";

static enum gc_status user_version(struct cache *c, int *v, char **err)
{
	long long x;
	enum gc_status st = cache_scalar(c, "PRAGMA user_version", &x, "cannot read schema version",
				     err);
	*v = (int)x;
	return st;
}

/* Runs before anything is written, the journal mode too. */
enum gc_status cache_check_ours(struct cache *c, int *v, char **err)
{
	/* one statement, so one read transaction: a first run elsewhere
	 * commits its tables and its version together, and two reads could
	 * see no version, then tables (a file with tables and no version
	 * belongs to someone else) */
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT (SELECT user_version FROM pragma_user_version),"
			       " EXISTS (SELECT 1 FROM sqlite_master)", -1, &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read schema version");
	int rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : -1;
	int tables = rc == SQLITE_ROW && sqlite3_column_int(s, 1);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return cache_db_error(c, err, "cannot read schema version");
	if (*v > (int)NMIGRATIONS)
		return err_set(err, GC_EIO,
			       "cache %s has schema version %d, newer than this gpucmp knows (%d); "
			       "upgrade gpucmp or use another --cache",
			       c->path, *v, (int)NMIGRATIONS);
	if (*v == 0 && tables)
		return err_set(err, GC_EIO,
			       "%s is a SQLite database but not a gpucmp cache; "
			       "refusing to change it (use another --cache)", c->path);
	return GC_OK;
}

enum gc_status cache_migrate(struct cache *c, int *created, char **err)
{
	int v;
	enum gc_status st = cache_check_ours(c, &v, err);
	if (st != GC_OK || v == (int)NMIGRATIONS)
		return st;
	if ((st = cache_exec(c, "BEGIN IMMEDIATE", err)) != GC_OK)
		return st;
	/* re-read inside the write lock: another process may have migrated */
	if ((st = user_version(c, &v, err)) == GC_OK) {
		*created = v == 0;
		for (int i = v; i < (int)NMIGRATIONS && st == GC_OK; i++)
			st = cache_exec(c, migrations[i], err);
	}
	char pragma[48];
	snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", (int)NMIGRATIONS);
	if (st == GC_OK)
		st = cache_exec(c, pragma, err);
	return cache_commit(c, st, err);
}

/* Once per load rather than per row (a trigger added half to an import's
 * time); a SKU missed here is still matched by the view, only slower. */
enum gc_status cache_map_skus(struct cache *c, const char *provider, char **err)
{
	static const char one[] =
		"INSERT OR IGNORE INTO sku_type SELECT d.provider, d.sku, " SKU_TYPE_ORD("d")
		" FROM (SELECT DISTINCT provider, sku FROM offer WHERE provider = ?1) d";
	static const char all[] =
		"INSERT OR IGNORE INTO sku_type SELECT d.provider, d.sku, " SKU_TYPE_ORD("d")
		" FROM (SELECT DISTINCT provider, sku FROM offer) d";
	sqlite3_stmt *s = NULL;
	/* a provider without instance-type entries has nothing to map: skip
	 * the DISTINCT over its rows (a sort of a whole large import) */
	if (provider) {
		if (sqlite3_prepare_v2(c->db, "SELECT 1 FROM insttype WHERE provider = ?1 LIMIT 1",
				       -1, &s, NULL) != SQLITE_OK)
			return cache_db_error(c, err, "cannot map instance types");
		cache_bind_text(s, 1, provider);
		int rc = sqlite3_step(s);
		sqlite3_finalize(s);
		if (rc == SQLITE_DONE)
			return GC_OK;
		if (rc != SQLITE_ROW)
			return cache_db_error(c, err, "cannot map instance types");
	}
	return cache_run(c, provider ? one : all, "cannot map instance types", err, 1, &provider);
}

/* history_v: the view over every offer history knows, offer_v's text
 * with the table and the name changed, so that a filter means the same
 * over both, and one column more: touched (cache_history_wide). */
static const char history_view_name[] = "history_v";

/* offer_v's whole CREATE VIEW (literals of their own: C11 promises 4095
 * bytes each; the capability columns from cache_caps_sql): a new string,
 * NULL when out of memory. */
static char *view_create_sql(void)
{
	struct buf b;
	buf_init(&b, 0);
	enum gc_status st = buf_addstr(&b, view_body_sql);
	if (st == GC_OK)
		st = buf_addstr(&b, view_value_sql);
	if (st == GC_OK)
		st = view_stock_sql(&b);
	if (st == GC_OK)
		st = buf_addstr(&b, view_offer_sql);
	if (st == GC_OK)
		st = cache_caps_sql(&b);
	if (st == GC_OK)
		st = buf_addstr(&b, view_tail_sql);
	if (st != GC_OK) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

uint64_t cache_view_hash(const struct catalog *cat)
{
	uint64_t h = catalog_hash(cat->catalog_hash, view_sql, sizeof view_sql);
	h = catalog_hash(h, history_view_name, sizeof history_view_name);
	struct buf b;
	buf_init(&b, 0);
	/* history_v's source too (out of memory: a hash that never matches) */
	if (cache_history_wide(&b) == GC_OK)
		h = catalog_hash(h, b.ptr, b.len);
	else
		h = ~h;
	buf_free(&b);
	h = catalog_hash(h, view_value_sql, sizeof view_value_sql);
	buf_init(&b, 0);
	if (view_stock_sql(&b) == GC_OK)
		h = catalog_hash(h, b.ptr, b.len);
	else
		h = ~h;
	buf_free(&b);
	h = catalog_hash(h, view_offer_sql, sizeof view_offer_sql);
	h = cache_caps_hash(h);
	h = catalog_hash(h, view_tail_sql, sizeof view_tail_sql);
	return catalog_hash(h, view_body_sql, sizeof view_body_sql);
}

/* offer_v's body over every offer history knows (cache_history_wide), its
 * touched column added: a new string, NULL when out of memory.  (A
 * schema 10 cache made before the column had a second view over the
 * touched offers, history_e_v: dropped, the column does its work.) */
static char *history_view_sql(const char *view)
{
	static const char from[] = " FROM offer o ";
	const char *body = view + strlen("CREATE VIEW offer_v");
	const char *at = strstr(body, from);
	struct buf b;
	buf_init(&b, 0);
	enum gc_status st = buf_printf(&b, "DROP VIEW IF EXISTS history_e_v;"
				       " DROP VIEW IF EXISTS %s; CREATE VIEW %s",
				       history_view_name, history_view_name);
	if (st == GC_OK)
		st = buf_add(&b, body, (size_t)(at - body));
	if (st == GC_OK)
		st = buf_addstr(&b, ", o.touched AS touched FROM ");
	if (st == GC_OK)
		st = cache_history_wide(&b);
	if (st == GC_OK)
		st = buf_addstr(&b, " o ");
	if (st == GC_OK)
		st = buf_addstr(&b, at + strlen(from));
	if (st != GC_OK) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

enum gc_status cache_create_view(struct cache *c, char **err)
{
	enum gc_status st = cache_exec(c, view_sql, err);
	char *view = st == GC_OK ? view_create_sql() : NULL;
	char *hist = view ? history_view_sql(view) : NULL;
	if (st == GC_OK && !hist) {
		free(view);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	if (st == GC_OK)
		st = cache_exec(c, view, err);
	if (st == GC_OK)
		st = cache_exec(c, hist, err);
	free(view);
	free(hist);
	return st;
}

/* offer_v's column `col` in a price view whose price per hour is `p`
 * (an expression over v, offer_v, and k, offer_commit), `type` its
 * price_type: the price columns and those computed from the price, as
 * offer_v computes them; NULL for a column taken as it is. */
static const char *price_view_col(const char *col, const char *type, int commit, char *out,
				  size_t n)
{
	static const struct {
		const char *col, *fmt;
	} derived[] = {
		{"price_per_gpu_hr", "ROUND(%s / v.gpu_count, 6)"},
		{"price_per_gb_hr", "ROUND(%s / v.total_gpu_mem_gb, 6)"},
		{"usd_per_pflop_hr", "ROUND(%s / (v.gpu_count * v.bf16_tflops / 1000.0), 4)"},
		{"bf16_tflops_per_usd", "ROUND(v.gpu_count * v.bf16_tflops / %s, 4)"},
		{"fp8_tflops_per_usd", "ROUND(v.gpu_count * v.fp8_tflops / %s, 4)"},
		{"mem_bw_tbs_per_usd", "ROUND(v.gpu_count * v.memory_bandwidth_tbs / %s, 4)"},
		{"vram_gb_per_usd", "ROUND(v.total_gpu_mem_gb / %s, 4)"},
	};
	const char *p = commit ? "k.price_hr" : "v.spot_price_hr";
	for (size_t i = 0; i < sizeof derived / sizeof *derived; i++)
		if (strcmp(col, derived[i].col) == 0) {
			snprintf(out, n, derived[i].fmt, p);
			return out;
		}
	if (strcmp(col, "price_hr") == 0)
		return p;
	if (strcmp(col, "spot_price_hr") == 0)
		return commit ? "NULL" : "v.spot_price_hr";
	if (strcmp(col, "price_kind") == 0)
		return commit ? "'fixed'" : "v.price_kind";
	if (strcmp(col, "price_type") == 0) {
		snprintf(out, n, "'%s'", type);
		return out;
	}
	if (strcmp(col, "term_months") == 0)
		return commit ? "NULLIF(k.term_months, 0)" : "NULL";
	if (strcmp(col, "as_of") == 0)
		return commit ? "COALESCE(k.as_of, v.as_of)" : "v.as_of";
	return NULL;
}

/* The temporary view's SELECT list: offer_v's columns in their order. */
static enum gc_status price_view_cols(struct cache *c, const char *type, int commit,
				      struct buf *b, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT name FROM pragma_table_info('offer_v', 'main')", -1,
			       &s, NULL) != SQLITE_OK)
		return cache_db_error(c, err, "cannot read the offer view");
	enum gc_status st = GC_OK;
	int rc, n = 0;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(s, 0);
		char expr[160];
		const char *e = col ? price_view_col(col, type, commit, expr, sizeof expr) : NULL;
		if (!col)
			continue;
		st = e ? buf_printf(b, "%s%s AS \"%s\"", n++ ? ", " : "", e, col)
		       : buf_printf(b, "%sv.\"%s\"", n++ ? ", " : "", col);
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = cache_db_error(c, err, "cannot read the offer view");
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_price_view(struct cache *c, const char *type, int term_months, char **err)
{
	int commit = strcmp(type, "reserved") == 0 || strcmp(type, "capacity_block") == 0;
	if (!commit && strcmp(type, "spot") != 0)
		return err_set(err, GC_EUSAGE, "no price view of type '%s'", type);
	struct buf b;
	buf_init(&b, 4096);
	/* a temporary view shadows main.offer_v for this connection: every
	 * query of the answer reads it unchanged (the type and term are words
	 * of a fixed set and a number, never a user's text) */
	enum gc_status st = buf_printf(&b, "DROP VIEW IF EXISTS temp.offer_v;"
				       " CREATE TEMP VIEW offer_v AS SELECT ");
	if (st == GC_OK)
		st = price_view_cols(c, type, commit, &b, err);
	if (st == GC_OK && commit)
		st = buf_printf(&b, " FROM main.offer_v v JOIN main.offer_commit k"
				" ON k.offer = v.id AND k.price_type = '%s'"
				" AND k.term_months = %d", type, term_months);
	else if (st == GC_OK)
		st = buf_printf(&b, " FROM main.offer_v v WHERE v.spot_price_hr IS NOT NULL");
	if (st == GC_ENOMEM)
		st = err_set(err, GC_ENOMEM, "out of memory");
	if (st == GC_OK)
		st = cache_exec(c, b.ptr, err);
	buf_free(&b);
	return st;
}

int cache_is_current(struct cache *c, const struct catalog *cat, int v)
{
	return v == (int)NMIGRATIONS &&
	       cache_meta_matches(c, "catalog_hash", cache_view_hash(cat)) &&
	       cache_meta_matches(c, "snapshot_hash", cat->seed_hash);
}
