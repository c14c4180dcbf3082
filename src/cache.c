/* cache.c - SQLite offer cache: open, migrate, catalog sync, snapshot seed. */
#include "gpucmp/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpucmp/buf.h"
#include "gpucmp/cuda.h"
#include "gpucmp/fileio.h"
#include "gpucmp/listprice.h"
#include "gpucmp/snapshot.h"
#include "gpucmp/strutil.h"

/* SQLITE_OPEN_NOFOLLOW: the cache file is never reached through a link */
#if SQLITE_VERSION_NUMBER < 3031000
#error "gpucmp needs SQLite 3.31 or newer (SQLITE_OPEN_NOFOLLOW)"
#endif

struct cache {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *insert;
	size_t expect_rows; /* hint for the next replace (cache_expect_rows) */
	int force;          /* cache_set_guard: store any answer */
	int min_keep;       /* cache_set_guard: percent of the previous count */
	int corrupt;        /* an operation met a damaged page (cache_corrupt) */
	dev_t dev;          /* the file opened, to tell it from a replacement */
	ino_t ino;
};

/* Schema migrations: entry i brings user_version i to i+1.  Never edit a
 * released entry; append a new one. */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"CREATE TABLE offer("
	" id INTEGER PRIMARY KEY,"
	" provider TEXT NOT NULL, sku TEXT NOT NULL, gpu TEXT, gpu_name TEXT NOT NULL,"
	" gpu_count REAL NOT NULL, gpu_mem_gb REAL, vcpus REAL, ram_gb REAL, disk_gb REAL,"
	" region TEXT NOT NULL, price_hr REAL, spot_price_hr REAL,"
	" currency TEXT NOT NULL DEFAULT 'USD', price_native REAL, spot_native REAL,"
	" available INTEGER, infiniband INTEGER, rdma TEXT, nvlink INTEGER,"
	" node_bandwidth_gbps REAL, driver_version TEXT, max_cuda TEXT,"
	" source TEXT NOT NULL, origin TEXT, fetched_at TEXT NOT NULL,"
	" stale INTEGER NOT NULL DEFAULT 0);"
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
 * Capability columns follow docs/OUTPUT.md; for each, the order is: what
 * the offer itself says, then the instance type, then the provider profile,
 * so that a fact a provider limits to some machines is answered per machine.
 * The view is rebuilt whenever the catalog or this text changes
 * (sync_catalog), so editing it needs no migration. */
static const char view_sql[] =
	"DROP VIEW IF EXISTS offer_v;"
	/* sku_type: the first matching instance-type entry of each stored
	 * (provider, sku), so that the view joins on an index instead of
	 * matching globs row by row (a full scan of 3*10^5 offers took 1.7 s
	 * with the globs in the view, 0.3 s before them).  Rebuilt here with the
	 * catalog; map_skus() adds the SKUs of each load.  A SKU it has not seen
	 * still gets its entry: the view falls back to the globs for it. */
	"DROP TABLE IF EXISTS sku_type;"
	"CREATE TABLE sku_type(provider TEXT NOT NULL, sku TEXT NOT NULL, ord INTEGER,"
	" PRIMARY KEY(provider, sku)) WITHOUT ROWID;"
	"INSERT INTO sku_type SELECT d.provider, d.sku, " SKU_TYPE_ORD("d")
	" FROM (SELECT DISTINCT provider, sku FROM offer) d;"
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
	"  AS usd_per_pflop_hr,"
	" o.currency AS currency, o.available AS available,"
	" COALESCE(t.k8s, p.kubernetes_mode, 'unknown') AS k8s,"
	" CASE p.docker_custom_image WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END"
	"  AS docker_custom_image,"
	" COALESCE(p.docker_daemon, 'unknown') AS docker_daemon,"
	" CASE p.docker_base_images_only WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END"
	"  AS docker_base_images_only,"
	" CASE WHEN o.gpu_count < 1 OR g.mig = 0 OR t.mig = 0 THEN 'no'"
	"  WHEN p.sharing_mig IS NULL THEN 'unknown'"
	"  WHEN g.id IS NULL AND p.sharing_mig <> 'no' THEN 'unknown'"
	"  ELSE p.sharing_mig END AS mig,"
	" COALESCE(p.sharing_mps, 'unknown') AS mps,"
	" COALESCE(p.sharing_time_slicing, 'unknown') AS time_slicing,"
	" CASE WHEN o.infiniband IS NOT NULL THEN o.infiniband"
	"  WHEN t.infiniband IS NOT NULL THEN t.infiniband"
	"  WHEN p.interconnect_infiniband = 'no' THEN 0"
	"  WHEN p.interconnect_infiniband = 'yes' THEN 1 END AS infiniband,"
	" CASE WHEN o.rdma IS NOT NULL THEN o.rdma"
	"  WHEN t.rdma IS NOT NULL THEN t.rdma"
	"  WHEN o.infiniband = 1 OR t.infiniband = 1 THEN 'ib'"
	"  WHEN p.interconnect_rdma = 'no' THEN 'no'"
	"  WHEN p.interconnect_infiniband = 'yes' THEN COALESCE(p.interconnect_rdma, 'unknown')"
	"  ELSE 'unknown' END AS rdma,"
	/* Eight SXM GPUs of the families NVIDIA lists as "HGX ... 8-GPU
	 * baseboard" with NVSwitch (A100, H100, H200, B200, B300: NVIDIA AI
	 * Enterprise docs, vgpu/features/nvswitch.html) are such a baseboard,
	 * whose GPUs all reach each other over NVLink.  Other families (V100's
	 * cube mesh, H20), PCIe and OAM parts and other counts are left to the
	 * instance type and the profile. */
	" CASE WHEN o.nvlink IS NOT NULL THEN o.nvlink"
	"  WHEN t.nvlink IS NOT NULL THEN t.nvlink"
	"  WHEN o.gpu_count < 2 OR g.nvlink = 'no' THEN 0"
	"  WHEN o.gpu_count = 8 AND g.form_factor = 'sxm'"
	"   AND g.family IN ('a100', 'h100', 'h200', 'b200', 'b300') THEN 1"
	"  WHEN g.nvlink = 'yes' AND p.interconnect_nvlink = 'yes' THEN 1 END AS nvlink,"
	" o.driver_version AS driver_version, o.max_cuda AS max_cuda,"
	/* versions as numbers (major*10^6 + minor*10^3 + patch), for --cuda */
	" o.driver_num AS driver_num, o.max_cuda_num AS max_cuda_num,"
	" p.kubernetes_control_plane_fee_usd_hr AS k8s_fee_hr,"
	" o.source AS source, o.fetched_at AS fetched_at, o.stale AS stale,"
	" COALESCE(o.as_of, o.fetched_at) AS as_of,"
	" COALESCE(o.price_kind, NULLIF(p.billing_price_kind, 'unknown'), 'fixed') AS price_kind"
	" FROM offer o LEFT JOIN provider p ON p.id = o.provider"
	" LEFT JOIN gpu g ON g.id = o.gpu"
	" LEFT JOIN sku_type st ON st.provider = o.provider AND st.sku = o.sku"
	" LEFT JOIN insttype t ON t.ord = CASE WHEN st.provider IS NOT NULL THEN st.ord"
	"  ELSE " SKU_TYPE_ORD("o") " END;";

static const char insert_sql[] =
	"INSERT INTO offer(provider, sku, gpu, gpu_name, gpu_count, gpu_mem_gb, vcpus,"
	" ram_gb, disk_gb, region, price_hr, spot_price_hr, currency, price_native,"
	" spot_native, available, infiniband, rdma, nvlink, node_bandwidth_gbps,"
	" driver_version, max_cuda, source, origin, fetched_at, driver_num, max_cuda_num,"
	" as_of, price_kind, gpu_fraction)"
	" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15,"
	" ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)";


/* Whether the cache file or its WAL has grown to the file-size limit
 * (ulimit -f): a write past it fails with EFBIG, which SQLite reports as
 * a plain "disk I/O error". */
static int at_size_limit(const struct cache *c)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	static const char *const sides[] = {"", "-wal"};
	for (size_t i = 0; i < 2; i++) {
		char *f = str_concat(c->path, sides[i]);
		struct stat sb;
		int hit = f && stat(f, &sb) == 0 && (rlim_t)sb.st_size + 65536 > rl.rlim_cur;
		free(f);
		if (hit)
			return 1;
	}
	return 0;
}

static int is_corrupt(int code)
{
	code &= 0xff;
	return code == SQLITE_NOTADB || code == SQLITE_CORRUPT;
}

static enum gc_status db_error(struct cache *c, char **err, const char *what)
{
	int code = sqlite3_errcode(c->db);
	if (is_corrupt(code))
		c->corrupt = 1; /* a rollback will reset the code */
	enum gc_status st = code == SQLITE_NOMEM ? GC_ENOMEM : GC_EIO;
	if (code == SQLITE_IOERR && at_size_limit(c))
		return err_set(err, st, "cache %s: %s: %s (the file-size limit, ulimit -f, "
			       "is reached)", c->path, what, sqlite3_errmsg(c->db));
	return err_set(err, st, "cache %s: %s: %s", c->path, what, sqlite3_errmsg(c->db));
}

static enum gc_status exec(struct cache *c, const char *sql, char **err)
{
	if (sqlite3_exec(c->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot update");
	return GC_OK;
}

static void rollback(struct cache *c)
{
	if (!sqlite3_get_autocommit(c->db))
		sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
}

/* --- paths -------------------------------------------------------------- */


char *cache_default_path(const char *override, char **err)
{
	char *p = NULL;
	cache_locate(override, &p, err);
	return p;
}

enum gc_status cache_locate(const char *override, char **path, char **err)
{
	char *p = NULL;
	*path = NULL;
	if (override && *override)
		p = strdup(override);
	else if (str_user_path("GPUCMP_CACHE", "XDG_CACHE_HOME", ".cache", "cache.db", &p) == 0 &&
		 !p)
		return err_set(err, GC_EUSAGE, "cannot find a cache location: set HOME, "
			       "XDG_CACHE_HOME or GPUCMP_CACHE, or pass --cache PATH");
	if (!p)
		return err_set(err, GC_ENOMEM, "out of memory");
	*path = p;
	return GC_OK;
}

/* mkdir -p for the parent directory of `path`, mode 0700 for new ones. */
static enum gc_status make_parents(const char *path, char **err)
{
	char *dir = strdup(path);
	if (!dir)
		return err_set(err, GC_ENOMEM, "out of memory");
	char *slash = strrchr(dir, '/');
	enum gc_status st = GC_OK;
	if (slash && slash != dir) {
		*slash = '\0';
		for (char *p = dir + 1; st == GC_OK; p++) {
			if (*p != '/' && *p != '\0')
				continue;
			char saved = *p;
			*p = '\0';
			if (mkdir(dir, 0700) != 0 && errno != EEXIST)
				st = err_set(err, GC_EIO, "cannot create cache directory %s: %s",
					     dir, strerror(errno));
			*p = saved;
			if (!saved)
				break;
		}
	}
	free(dir);
	return st;
}

/* The directory part of `path` (new string; "." for a bare name). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	char *d = malloc((size_t)(slash - path) + 1);
	if (d) {
		memcpy(d, path, (size_t)(slash - path));
		d[slash - path] = '\0';
	}
	return d;
}

/* Note in info->open_dir (new) a directory holding the cache that any user
 * may write: they could put a link, a FIFO or a -wal file of theirs where
 * the cache's files go.  The sticky bit (/tmp) does not help: it stops the
 * removal of our files, not the creation of theirs before ours. */
static enum gc_status check_dir(const char *path, struct cache_open_info *info, char **err)
{
	char *dir = dir_of(path);
	struct stat sb;
	if (!dir)
		return err_set(err, GC_ENOMEM, "out of memory");
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & S_IWOTH))
		info->open_dir = dir;
	else
		free(dir);
	return GC_OK;
}

/* What SQLite may open at `path`: a regular file, or nothing (then an
 * empty one is created here, mode 0600, which SQLite fills).  A symbolic
 * link is refused, not followed: a dangling one would create its target, a
 * link to another user's empty file would turn it into a database.  A FIFO
 * or a device would block or break SQLite's open; a directory cannot be
 * one.  These set info->unusable.  Other failures (no permission, a file
 * for a directory) are left for sqlite3_open_v2 to report. */
static enum gc_status check_file(const char *path, struct cache_open_info *info, char **err)
{
	struct stat sb;
	for (int tries = 0; tries < 2; tries++) {
		if (lstat(path, &sb) != 0) {
			if (errno != ENOENT)
				return GC_OK;
			int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
					    O_NOCTTY, 0600);
			if (fd >= 0) {
				close(fd);
				return GC_OK;
			}
			if (errno == EEXIST)
				continue; /* made meanwhile: look at what it is */
			return GC_OK;
		}
		info->unusable = 1;
		if (S_ISLNK(sb.st_mode))
			return err_set(err, GC_EIO, "cache %s is a symbolic link, which gpucmp does "
				       "not follow; remove it, or pass the file it points to with "
				       "--cache", path);
		if (!S_ISREG(sb.st_mode))
			return err_set(err, GC_EIO, "cache %s is %s, not a regular file; remove it, "
				       "or pass another path with --cache", path,
				       file_kind(sb.st_mode));
		info->unusable = 0;
		return GC_OK;
	}
	return GC_OK;
}

/* --- meta --------------------------------------------------------------- */

static char *meta_get(struct cache *c, const char *key)
{
	sqlite3_stmt *s;
	char *v = NULL;
	if (sqlite3_prepare_v2(c->db, "SELECT value FROM meta WHERE key = ?1", -1, &s,
			       NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		v = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return v;
}

static enum gc_status meta_set(struct cache *c, const char *key, const char *value,
			       char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "INSERT INTO meta(key, value) VALUES(?1, ?2)"
			       " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot write metadata");
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, value, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? GC_OK : db_error(c, err, "cannot write metadata");
}

static int meta_matches(struct cache *c, const char *key, uint64_t hash)
{
	char want[24];
	snprintf(want, sizeof want, "%016" PRIx64, hash);
	char *have = meta_get(c, key);
	int same = have && strcmp(have, want) == 0;
	free(have);
	return same;
}

static enum gc_status meta_set_hash(struct cache *c, const char *key, uint64_t hash,
				    char **err)
{
	char v[24];
	snprintf(v, sizeof v, "%016" PRIx64, hash);
	return meta_set(c, key, v, err);
}

/* --- schema ------------------------------------------------------------- */

/* Run a one-value query; `what` names it in the error message. */
static enum gc_status scalar(struct cache *c, const char *sql, long long *v,
			     const char *what, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, what);
	int rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? GC_OK : db_error(c, err, what);
}

static enum gc_status user_version(struct cache *c, int *v, char **err)
{
	long long x;
	enum gc_status st = scalar(c, "PRAGMA user_version", &x, "cannot read schema version", err);
	*v = (int)x;
	return st;
}

/* Refuse a file from a newer gpucmp or from another program; *v is its
 * schema version.  Runs before anything is written, the journal mode too. */
static enum gc_status check_ours(struct cache *c, int *v, char **err)
{
	/* one statement, so one read transaction: a first run elsewhere
	 * commits its tables and its version together, and two reads could
	 * see no version, then tables (a file with tables and no version
	 * belongs to someone else) */
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "SELECT (SELECT user_version FROM pragma_user_version),"
			       " EXISTS (SELECT 1 FROM sqlite_master)", -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot read schema version");
	int rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : -1;
	int tables = rc == SQLITE_ROW && sqlite3_column_int(s, 1);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return db_error(c, err, "cannot read schema version");
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

static enum gc_status migrate(struct cache *c, int *created, char **err)
{
	int v;
	enum gc_status st = check_ours(c, &v, err);
	if (st != GC_OK || v == (int)NMIGRATIONS)
		return st;
	if ((st = exec(c, "BEGIN IMMEDIATE", err)) != GC_OK)
		return st;
	/* re-read inside the write lock: another process may have migrated */
	if ((st = user_version(c, &v, err)) == GC_OK) {
		*created = v == 0;
		for (int i = v; i < (int)NMIGRATIONS && st == GC_OK; i++)
			st = exec(c, migrations[i], err);
	}
	char pragma[48];
	snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", (int)NMIGRATIONS);
	if (st == GC_OK)
		st = exec(c, pragma, err);
	if (st == GC_OK)
		st = exec(c, "COMMIT", err);
	if (st != GC_OK)
		rollback(c);
	return st;
}

/* --- catalog tables ----------------------------------------------------- */

static void column_name(const struct pfield_def *f, char *out, size_t n)
{
	snprintf(out, n, "%s%s%s", f->group, *f->group ? "_" : "", f->key);
}

static enum gc_status create_provider_table(struct cache *c, char **err)
{
	struct buf b;
	buf_init(&b, 0);
	enum gc_status st = buf_addstr(&b, "DROP TABLE IF EXISTS provider;"
				       "CREATE TABLE provider(id TEXT PRIMARY KEY, name TEXT NOT NULL,"
				       " site TEXT, kind TEXT NOT NULL, verified TEXT NOT NULL");
	for (size_t i = 0; i < profile_field_count && st == GC_OK; i++) {
		char col[64];
		column_name(&profile_fields[i], col, sizeof col);
		st = buf_printf(&b, ", %s %s", col,
				profile_fields[i].kind == PF_NUMBER ? "REAL" : "TEXT");
	}
	if (st == GC_OK)
		st = buf_addstr(&b, ");");
	if (st == GC_OK)
		st = exec(c, b.ptr, err);
	else
		err_set(err, st, "out of memory");
	buf_free(&b);
	return st;
}

static void bind_pvalue(sqlite3_stmt *s, int idx, const struct pfield_def *f,
			const struct pvalue *v, struct buf *scratch)
{
	if (f->kind == PF_NUMBER) {
		if (v->known)
			sqlite3_bind_double(s, idx, v->number);
		else
			sqlite3_bind_null(s, idx);
	} else if (f->kind == PF_LIST) {
		if (!v->known) {
			sqlite3_bind_text(s, idx, "unknown", -1, SQLITE_STATIC);
			return;
		}
		buf_reset(scratch);
		for (size_t i = 0; i < v->nlist; i++)
			buf_printf(scratch, "%s%s", i ? "," : "", v->list[i]);
		sqlite3_bind_text(s, idx, scratch->ptr ? scratch->ptr : "", -1, SQLITE_TRANSIENT);
	} else {
		sqlite3_bind_text(s, idx, v->known ? v->text : "unknown", -1, SQLITE_STATIC);
	}
}

static enum gc_status fill_provider_table(struct cache *c, const struct catalog *cat,
					  char **err)
{
	struct buf sql, scratch;
	buf_init(&sql, 0);
	buf_init(&scratch, 0);
	enum gc_status st = buf_addstr(&sql, "INSERT INTO provider VALUES(?,?,?,?,?");
	for (size_t i = 0; i < profile_field_count && st == GC_OK; i++)
		st = buf_addstr(&sql, ",?");
	if (st == GC_OK)
		st = buf_addc(&sql, ')');
	sqlite3_stmt *s = NULL;
	if (st != GC_OK || sqlite3_prepare_v2(c->db, sql.ptr, -1, &s, NULL) != SQLITE_OK)
		st = st != GC_OK ? err_set(err, st, "out of memory")
				 : db_error(c, err, "cannot fill providers");
	for (size_t p = 0; p < cat->profiles.n && st == GC_OK; p++) {
		const struct profile *pr = cat->profiles.items[p];
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, pr->id, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, pr->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, pr->site, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, pr->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, pr->verified, -1, SQLITE_STATIC);
		for (size_t i = 0; i < profile_field_count; i++)
			bind_pvalue(s, (int)i + 6, &profile_fields[i], &pr->values[i], &scratch);
		if (sqlite3_step(s) != SQLITE_DONE)
			st = db_error(c, err, "cannot fill providers");
	}
	sqlite3_finalize(s);
	buf_free(&sql);
	buf_free(&scratch);
	return st;
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, i);
}

static void bind_num(sqlite3_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_double(s, i, v);
}

static void bind_tri(sqlite3_stmt *s, int i, int v)
{
	if (v < 0)
		sqlite3_bind_null(s, i);
	else
		sqlite3_bind_int(s, i, v ? 1 : 0);
}

static enum gc_status fill_gpu_table(struct cache *c, const struct catalog *cat,
				     char **err)
{
	enum gc_status st = exec(c,
		"DROP TABLE IF EXISTS gpu;"
		"CREATE TABLE gpu(id TEXT PRIMARY KEY, family TEXT NOT NULL, vendor TEXT NOT NULL,"
		" name TEXT NOT NULL, architecture TEXT, memory_gb REAL, form_factor TEXT,"
		" mig INTEGER NOT NULL, nvlink TEXT NOT NULL, bf16_tflops REAL);", err);
	sqlite3_stmt *s = NULL;
	if (st == GC_OK &&
	    sqlite3_prepare_v2(c->db, "INSERT INTO gpu VALUES(?,?,?,?,?,?,?,?,?,?)", -1, &s,
			       NULL) != SQLITE_OK)
		st = db_error(c, err, "cannot fill GPU models");
	for (size_t i = 0; st == GC_OK && i < gpu_table_count(cat->gpus); i++) {
		const struct gpu_model *m = gpu_table_at(cat->gpus, i);
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, m->id, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, m->family, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, m->vendor, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, m->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, m->architecture, -1, SQLITE_STATIC);
		sqlite3_bind_double(s, 6, m->memory_gb);
		sqlite3_bind_text(s, 7, m->form_factor, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 8, m->mig);
		sqlite3_bind_text(s, 9, m->nvlink, -1, SQLITE_STATIC);
		bind_num(s, 10, m->bf16_tflops);
		if (sqlite3_step(s) != SQLITE_DONE)
			st = db_error(c, err, "cannot fill GPU models");
	}
	sqlite3_finalize(s);
	return st;
}

/* The instance-type table in file order (ord), for the view's per-SKU
 * capability columns. */
static enum gc_status fill_insttype_table(struct cache *c, const struct catalog *cat,
					  char **err)
{
	enum gc_status st = exec(c,
		"DROP TABLE IF EXISTS insttype;"
		"CREATE TABLE insttype(ord INTEGER PRIMARY KEY, provider TEXT NOT NULL,"
		" match TEXT NOT NULL, k8s TEXT, mig INTEGER, infiniband INTEGER, rdma TEXT,"
		" nvlink INTEGER, source TEXT NOT NULL);"
		"CREATE INDEX insttype_provider ON insttype(provider, ord);", err);
	sqlite3_stmt *s = NULL;
	if (st == GC_OK &&
	    sqlite3_prepare_v2(c->db, "INSERT INTO insttype VALUES(?,?,?,?,?,?,?,?,?)", -1, &s,
			       NULL) != SQLITE_OK)
		st = db_error(c, err, "cannot fill instance types");
	for (size_t i = 0; st == GC_OK && i < insttype_count(cat->types); i++) {
		const struct insttype *t = insttype_at(cat->types, i);
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, (sqlite3_int64)i);
		sqlite3_bind_text(s, 2, t->provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 3, t->match, -1, SQLITE_STATIC);
		bind_text(s, 4, t->k8s);
		bind_tri(s, 5, t->mig);
		bind_tri(s, 6, t->infiniband);
		bind_text(s, 7, t->rdma);
		bind_tri(s, 8, t->nvlink);
		sqlite3_bind_text(s, 9, t->source, -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			st = db_error(c, err, "cannot fill instance types");
	}
	sqlite3_finalize(s);
	return st;
}

/* Rebuild provider, gpu, insttype and offer_v when the embedded catalog
 * changed. */
static enum gc_status sync_catalog(struct cache *c, struct catalog *cat, char **err)
{
	/* the view's definition is part of what the stored tables must match */
	uint64_t want = catalog_hash(cat->catalog_hash, view_sql, sizeof view_sql);
	if (meta_matches(c, "catalog_hash", want))
		return GC_OK;
	enum gc_status st =
		catalog_need(cat, CATALOG_GPUS | CATALOG_PROFILES | CATALOG_TYPES, err);
	if (st == GC_OK)
		st = exec(c, "BEGIN IMMEDIATE", err);
	if (st != GC_OK)
		return st;
	if (!meta_matches(c, "catalog_hash", want)) {
		st = create_provider_table(c, err);
		if (st == GC_OK)
			st = fill_provider_table(c, cat, err);
		if (st == GC_OK)
			st = fill_gpu_table(c, cat, err);
		if (st == GC_OK)
			st = fill_insttype_table(c, cat, err);
		if (st == GC_OK)
			st = exec(c, view_sql, err);
		if (st == GC_OK)
			st = meta_set_hash(c, "catalog_hash", want, err);
	}
	if (st == GC_OK)
		st = exec(c, "COMMIT", err);
	if (st != GC_OK)
		rollback(c);
	return st;
}

/* --- inserting offers --------------------------------------------------- */

/* Page cache and sorter settings for a replacement.  BULK_KEEP: rows go
 * into tables whose indexes are kept, so each index insert lands somewhere
 * random: a 32 MiB cache keeps the hot index pages (reads keep SQLite's
 * default, since every page of a bigger cache is fresh memory to fault in).
 * BULK_REBUILD: the indexes are dropped and built after the load; then a
 * small cache is faster (10^6 rows, same run, alternating: 8.5 s with
 * 128 MiB, 6.8 s with the default 2 MB), because the sorter spills sorted
 * runs that a second thread sorts and merges at the same time. */
enum bulk_mode { BULK_OFF, BULK_KEEP, BULK_REBUILD };

static void bulk_cache(struct cache *c, enum bulk_mode m)
{
	static const char *const sql[] = {
		"PRAGMA cache_size=-2000; PRAGMA threads=0",
		"PRAGMA cache_size=-32768; PRAGMA threads=0",
		"PRAGMA cache_size=-2000; PRAGMA threads=2",
	};
	sqlite3_exec(c->db, sql[m], NULL, NULL, NULL);
}

static enum gc_status insert_offer(struct cache *c, const struct offer *o, char **err)
{
	sqlite3_stmt *s = c->insert;
	sqlite3_reset(s);
	bind_text(s, 1, o->provider);
	bind_text(s, 2, o->sku);
	bind_text(s, 3, o->gpu);
	bind_text(s, 4, o->gpu_name);
	bind_num(s, 5, o->gpu_count);
	bind_num(s, 6, o->gpu_mem_gb);
	bind_num(s, 7, o->vcpus);
	bind_num(s, 8, o->ram_gb);
	bind_num(s, 9, o->disk_gb);
	bind_text(s, 10, o->region);
	bind_num(s, 11, o->price_hr);
	bind_num(s, 12, o->spot_price_hr);
	bind_text(s, 13, o->currency ? o->currency : "USD");
	bind_num(s, 14, o->price_native);
	bind_num(s, 15, o->spot_native);
	bind_tri(s, 16, o->available);
	bind_tri(s, 17, o->infiniband);
	bind_text(s, 18, o->rdma);
	bind_tri(s, 19, o->nvlink);
	bind_num(s, 20, o->node_bandwidth_gbps);
	bind_text(s, 21, o->driver_version);
	bind_text(s, 22, o->max_cuda);
	bind_text(s, 23, o->source);
	bind_text(s, 24, o->origin);
	bind_text(s, 25, o->fetched_at);
	long long dn = o->driver_version ? cuda_version_num(o->driver_version) : -1;
	long long cn = o->max_cuda ? cuda_version_num(o->max_cuda) : -1;
	if (dn >= 0)
		sqlite3_bind_int64(s, 26, dn);
	else
		sqlite3_bind_null(s, 26);
	if (cn >= 0)
		sqlite3_bind_int64(s, 27, cn);
	else
		sqlite3_bind_null(s, 27);
	bind_text(s, 28, o->as_of);
	bind_text(s, 29, o->price_kind);
	sqlite3_bind_double(s, 30, o->gpu_fraction > 0 && o->gpu_fraction <= 1 ? o->gpu_fraction : 1);
	if (sqlite3_step(s) != SQLITE_DONE)
		return db_error(c, err, "cannot insert an offer");
	return GC_OK;
}

/* Record the instance-type entry of each (provider, sku) just stored, all
 * providers when provider is NULL; called inside the load's transaction.
 * Once per load rather than per row (a trigger added half to an import's
 * time); a SKU missed here is still matched by the view, only slower. */
static enum gc_status map_skus(struct cache *c, const char *provider, char **err)
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
			return db_error(c, err, "cannot map instance types");
		bind_text(s, 1, provider);
		int rc = sqlite3_step(s);
		sqlite3_finalize(s);
		s = NULL;
		if (rc == SQLITE_DONE)
			return GC_OK;
		if (rc != SQLITE_ROW)
			return db_error(c, err, "cannot map instance types");
	}
	if (sqlite3_prepare_v2(c->db, provider ? one : all, -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot map instance types");
	bind_text(s, 1, provider);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) != SQLITE_DONE)
		st = db_error(c, err, "cannot map instance types");
	sqlite3_finalize(s);
	return st;
}

static enum gc_status prepare_insert(struct cache *c, char **err)
{
	if (c->insert)
		return GC_OK;
	if (sqlite3_prepare_v2(c->db, insert_sql, -1, &c->insert, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot prepare insert");
	return GC_OK;
}

struct seed_ctx {
	struct cache *c;
	char **skip; /* providers with live or imported offers */
	size_t nskip;
	size_t inserted;
	size_t list_rows; /* of those, list prices */
};

static enum gc_status seed_one(void *arg, const struct offer *o, char **err)
{
	struct seed_ctx *sc = arg;
	for (size_t i = 0; i < sc->nskip; i++)
		if (strcmp(sc->skip[i], o->provider) == 0)
			return GC_OK;
	enum gc_status st = insert_offer(sc->c, o, err);
	if (st == GC_OK) {
		sc->inserted++;
		sc->list_rows += o->source && strcmp(o->source, "list") == 0;
	}
	return st;
}

static enum gc_status load_skip_list(struct cache *c, struct seed_ctx *sc, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT DISTINCT provider FROM offer"
			       " WHERE source NOT IN ('snapshot', 'list')",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot read providers");
	enum gc_status st = GC_OK;
	while (st == GC_OK && sqlite3_step(s) == SQLITE_ROW) {
		char **v = realloc(sc->skip, (sc->nskip + 1) * sizeof *v);
		char *p = strdup((const char *)sqlite3_column_text(s, 0));
		if (!v || !p) {
			free(p);
			if (v)
				sc->skip = v;
			st = err_set(err, GC_ENOMEM, "out of memory");
			break;
		}
		sc->skip = v;
		sc->skip[sc->nskip++] = p;
	}
	sqlite3_finalize(s);
	return st;
}

/* The built-in rows: the snapshot, then the published list prices. */
static enum gc_status parse_seed(const struct catalog *cat, offer_cb cb, void *arg,
				 struct snapshot_info *si, char **err)
{
	enum gc_status st = snapshot_parse(cat->snapshot, cat->snapshot_len, cb, arg, si, err);
	if (st == GC_OK)
		st = listprice_parse("data/list-prices.yaml", cat->list_prices,
				     cat->list_prices_len, NULL, cb, arg, NULL, err);
	return st;
}

/* Insert (or, for a newer build, replace) the built-in rows (snapshot and
 * list prices).  Providers that already have live or imported offers keep
 * them. */
static enum gc_status sync_snapshot(struct cache *c, const struct catalog *cat,
				    struct cache_open_info *info, char **err)
{
	if (meta_matches(c, "snapshot_hash", cat->seed_hash))
		return GC_OK;
	struct seed_ctx sc = {c, NULL, 0, 0, 0};
	struct snapshot_info si;
	enum gc_status st = exec(c, "BEGIN IMMEDIATE", err);
	if (st != GC_OK)
		return st;
	int had = 0;
	if (!meta_matches(c, "snapshot_hash", cat->seed_hash)) {
		char *old = meta_get(c, "snapshot_hash");
		had = old != NULL;
		free(old);
		st = prepare_insert(c, err);
		if (st == GC_OK)
			st = load_skip_list(c, &sc, err);
		if (st == GC_OK)
			st = exec(c, "DELETE FROM offer WHERE source IN ('snapshot', 'list')", err);
		if (st == GC_OK)
			st = parse_seed(cat, seed_one, &sc, &si, err);
		if (st == GC_OK)
			st = map_skus(c, NULL, err);
		if (st == GC_OK)
			st = meta_set_hash(c, "snapshot_hash", cat->seed_hash, err);
		if (st == GC_OK)
			st = meta_set(c, "snapshot_date", si.newest, err);
		if (st == GC_OK) {
			info->seeded = !had;
			info->snapshot_updated = had;
			info->snapshot_rows = sc.inserted - sc.list_rows;
			info->list_rows = sc.list_rows;
			snprintf(info->snapshot_date, sizeof info->snapshot_date, "%s", si.newest);
		}
	}
	if (st == GC_OK)
		st = exec(c, "COMMIT", err);
	if (st != GC_OK) {
		rollback(c);
		info->seeded = info->snapshot_updated = 0;
	}
	for (size_t i = 0; i < sc.nskip; i++)
		free(sc.skip[i]);
	free(sc.skip);
	return st;
}

/* --- open / close ------------------------------------------------------- */

void cache_close(struct cache *c)
{
	if (!c)
		return;
	sqlite3_finalize(c->insert);
	sqlite3_close(c->db);
	free(c->path);
	free(c);
}

void cache_open_info_release(struct cache_open_info *info)
{
	free(info->moved_aside);
	info->moved_aside = NULL;
	free(info->open_dir);
	info->open_dir = NULL;
}

/* Which file was opened (cache_set_aside tells it from a replacement). */
static void remember_file(struct cache *c)
{
	struct stat sb;
	if (stat(c->path, &sb) == 0) {
		c->dev = sb.st_dev;
		c->ino = sb.st_ino;
	}
}

static enum gc_status connect(struct cache *c, int memory, char **err)
{
	/* one connection per thread: no need for SQLite's own mutexes; a
	 * link put at the path after check_file looked is still not followed */
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX |
		    SQLITE_OPEN_NOFOLLOW;
	if (sqlite3_open_v2(c->path, &c->db, flags, NULL) != SQLITE_OK) {
		int nomem = !c->db || sqlite3_errcode(c->db) == SQLITE_NOMEM;
		enum gc_status st = err_set(err, nomem ? GC_ENOMEM : GC_EIO, "cannot open cache %s: %s",
					    c->path, c->db ? sqlite3_errmsg(c->db) : "out of memory");
		sqlite3_close(c->db);
		c->db = NULL;
		return st;
	}
	remember_file(c);
	sqlite3_busy_timeout(c->db, 10000);
	sqlite3_extended_result_codes(c->db, 0);
	if (memory)
		return GC_OK;
	/* switching to WAL rewrites the header: not in a file we must not touch */
	int v;
	enum gc_status st = check_ours(c, &v, err);
	if (st != GC_OK)
		return st;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, "PRAGMA journal_mode=WAL", -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot open");
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(c, err, "cannot open");
	return exec(c, "PRAGMA synchronous=NORMAL", err);
}

static enum gc_status prepare(struct cache *c, struct catalog *cat,
			      struct cache_open_info *info, char **err)
{
	int memory = strcmp(c->path, ":memory:") == 0;
	enum gc_status st = connect(c, memory, err);
	if (st == GC_OK)
		st = migrate(c, &info->created, err);
	if (st == GC_OK)
		st = sync_catalog(c, cat, err);
	if (st == GC_OK)
		st = sync_snapshot(c, cat, info, err);
	return st;
}

/* Rename a corrupt cache (and its -wal/-shm) aside, keeping it for a post mortem. */
static enum gc_status move_aside(const char *path, struct cache_open_info *info,
				 char **err)
{
	char stamp[32], *dst;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	size_t len = strftime(stamp, sizeof stamp, ".corrupt-%Y%m%dT%H%M%SZ", &tm);
	if (!(dst = str_concat(path, stamp)))
		return err_set(err, GC_ENOMEM, "out of memory");
	/* never over an earlier one (two runs in the same second): each is
	 * evidence.  link() refuses an existing name, atomically; rename() is
	 * the fallback where the file system has no hard links. */
	int r, n = 2;
	while ((r = link(path, dst)) != 0 && errno == EEXIST && n < 100) {
		snprintf(stamp + len, sizeof stamp - len, "-%d", n++);
		free(dst);
		if (!(dst = str_concat(path, stamp)))
			return err_set(err, GC_ENOMEM, "out of memory");
	}
	if (r == 0)
		r = unlink(path);
	else if (errno != EEXIST && access(dst, F_OK) != 0)
		r = rename(path, dst);
	if (r != 0) {
		enum gc_status st = err_set(err, GC_EIO, "cache %s is corrupt and cannot be moved aside: %s",
					    path, strerror(errno));
		free(dst);
		return st;
	}
	static const char *const sides[] = {"-wal", "-shm"};
	for (size_t i = 0; i < 2; i++) {
		char *a = str_concat(path, sides[i]), *b = str_concat(dst, sides[i]);
		if (a && b)
			rename(a, b); /* absent is fine */
		free(a);
		free(b);
	}
	free(info->moved_aside);
	info->moved_aside = dst;
	return GC_OK;
}

int cache_corrupt(const struct cache *c)
{
	return c && (c->corrupt || (c->db && is_corrupt(sqlite3_errcode(c->db))));
}

enum gc_status cache_set_aside(struct cache *c, char **moved_to, char **err)
{
	struct cache_open_info info;
	memset(&info, 0, sizeof info);
	char *path = c->path;
	c->path = NULL;
	dev_t dev = c->dev;
	ino_t ino = c->ino;
	cache_close(c);
	struct stat now;
	enum gc_status st;
	if (strcmp(path, ":memory:") == 0)
		st = err_set(err, GC_EIO, "the in-memory cache is corrupt");
	else if (stat(path, &now) == 0 && (now.st_dev != dev || now.st_ino != ino))
		/* another gpucmp already set it aside and built a new one */
		st = err_set(err, GC_ETEMPFAIL, "cache %s was damaged and has been rebuilt by "
			     "another gpucmp meanwhile; run the command again", path);
	else
		st = move_aside(path, &info, err);
	free(path);
	*moved_to = info.moved_aside;
	return st;
}

enum gc_status cache_open(struct cache **out, const char *path,
			  struct catalog *cat, struct cache_open_info *info,
			  char **err)
{
	struct cache *c = calloc(1, sizeof *c);
	if (c)
		c->min_keep = CACHE_MIN_KEEP_PERCENT;
	*out = NULL;
	memset(info, 0, sizeof *info);
	if (!c || !(c->path = strdup(path ? path : ":memory:"))) {
		free(c);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	enum gc_status st = path ? make_parents(path, err) : GC_OK;
	if (st == GC_OK && path)
		st = check_file(path, info, err);
	if (st == GC_OK && path)
		st = check_dir(path, info, err);
	if (st == GC_OK)
		st = prepare(c, cat, info, err);
	if (st != GC_OK && path && c->db && is_corrupt(sqlite3_errcode(c->db))) {
		sqlite3_finalize(c->insert);
		c->insert = NULL;
		sqlite3_close(c->db);
		c->db = NULL;
		st = move_aside(path, info, err);
		if (st == GC_OK) {
			free(*err);
			*err = NULL;
			st = prepare(c, cat, info, err);
		}
	}
	if (st != GC_OK) {
		cache_close(c);
		return st;
	}
	*out = c;
	return GC_OK;
}

/* "file:" URI for `path`: read-only, and immutable (no locks, no -shm)
 * when no -wal file is beside it, which is the only way SQLite reads a
 * WAL database in a directory where it cannot create the -shm. */
static enum gc_status readonly_uri(const char *path, struct buf *b)
{
	char *wal = str_concat(path, "-wal");
	if (!wal)
		return GC_ENOMEM;
	int immutable = access(wal, F_OK) != 0;
	free(wal);
	enum gc_status st = buf_addstr(b, "file:");
	for (const char *p = path; *p && st == GC_OK; p++)
		st = *p == '%' || *p == '?' || *p == '#'
			     ? buf_printf(b, "%%%02X", (unsigned char)*p)
			     : buf_addc(b, *p);
	if (st == GC_OK)
		st = buf_addstr(b, immutable ? "?mode=ro&immutable=1" : "?mode=ro");
	return st;
}

enum gc_status cache_open_readonly(struct cache **out, const char *path,
				   struct catalog *cat, char **err)
{
	struct cache *c = calloc(1, sizeof *c);
	if (c)
		c->min_keep = CACHE_MIN_KEEP_PERCENT;
	struct buf uri;
	buf_init(&uri, 0);
	*out = NULL;
	if (!c || !(c->path = strdup(path)) || readonly_uri(path, &uri) != GC_OK) {
		buf_free(&uri);
		cache_close(c);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX |
		    SQLITE_OPEN_NOFOLLOW;
	enum gc_status st = GC_OK;
	int v = 0;
	if (sqlite3_open_v2(uri.ptr, &c->db, flags, NULL) != SQLITE_OK)
		st = err_set(err, GC_EIO, "cannot open cache %s: %s", path,
			     c->db ? sqlite3_errmsg(c->db) : "out of memory");
	buf_free(&uri);
	if (st == GC_OK) {
		remember_file(c);
		sqlite3_busy_timeout(c->db, 10000);
		st = check_ours(c, &v, err);
	}
	/* seeded, by this build: the stored view is the one it queries */
	uint64_t want = catalog_hash(cat->catalog_hash, view_sql, sizeof view_sql);
	if (st == GC_OK && (v != (int)NMIGRATIONS || !meta_matches(c, "catalog_hash", want) ||
			    !meta_matches(c, "snapshot_hash", cat->seed_hash)))
		st = err_set(err, GC_EIO, "cache %s is read-only and was written by another "
			     "version of gpucmp", path);
	if (st != GC_OK) {
		cache_close(c);
		return st;
	}
	*out = c;
	return GC_OK;
}

sqlite3 *cache_db(struct cache *c)
{
	return c->db;
}

const char *cache_path(const struct cache *c)
{
	return c->path;
}

static enum gc_status upsert_state(struct cache *c, const char *provider,
				   const struct cache_meta *m, char **err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "INSERT INTO provider_state(provider, source, fetched_at, stale,"
			       " last_error, etag, last_modified) VALUES(?1, ?2, ?3, 0, NULL, ?4, ?5)"
			       " ON CONFLICT(provider) DO UPDATE SET source = ?2, fetched_at = ?3,"
			       " stale = 0, last_error = NULL, etag = ?4, last_modified = ?5",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot record the refresh");
	bind_text(s, 1, provider);
	bind_text(s, 2, m->source);
	bind_text(s, 3, m->fetched_at);
	bind_text(s, 4, m->etag);
	bind_text(s, 5, m->last_modified);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) != SQLITE_DONE)
		st = db_error(c, err, "cannot record the refresh");
	sqlite3_finalize(s);
	return st;
}

void cache_expect_rows(struct cache *c, size_t n)
{
	c->expect_rows = n;
}

void cache_set_guard(struct cache *c, int force, int min_keep_percent)
{
	c->force = force;
	c->min_keep = min_keep_percent < 0 ? 0 : min_keep_percent > 100 ? 100 : min_keep_percent;
}

/* The provider's offers of the same kind as `source`: live (one row per
 * instance type and region a provider's API lists) or catalog-like (the
 * snapshot, an import, a published catalog: one row per catalog line).
 * The kinds differ in granularity, so one is no yardstick for the other. */
static enum gc_status count_provider(struct cache *c, const char *provider, const char *source,
				     long long *n, char **err)
{
	sqlite3_stmt *q;
	*n = 0;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT count(*) FROM offer WHERE provider = ?1"
			       " AND (source = 'live') = ?2",
			       -1, &q, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot count offers");
	sqlite3_bind_text(q, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 2, source && strcmp(source, "live") == 0);
	enum gc_status st = GC_OK;
	if (sqlite3_step(q) == SQLITE_ROW)
		*n = sqlite3_column_int64(q, 0);
	else
		st = db_error(c, err, "cannot count offers");
	sqlite3_finalize(q);
	return st;
}

/* The plausible-answer rule (cache.h): `prev` offers of the same kind
 * were there, `n` came. */
static enum gc_status guard(const struct cache *c, long long prev, size_t n, char **err)
{
	if (c->force)
		return GC_OK;
	if (n == 0)
		return err_set(err, GC_EDATA,
			       "no usable offer in the new data; kept the previous offers "
			       "(--force stores an empty answer)");
	if (prev >= CACHE_GUARD_MIN_PREVIOUS && c->min_keep > 0 &&
	    (long long)n * 100 < prev * c->min_keep)
		return err_set(err, GC_EDATA,
			       "the new data has %zu offers, under %d%% of the previous %lld; kept "
			       "them (--force stores it, min_keep_percent in the config sets the "
			       "threshold)",
			       n, c->min_keep, prev);
	return GC_OK;
}

struct index_sql {
	char **sql;
	size_t n;
};

static void index_sql_release(struct index_sql *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->sql[i]);
	free(x->sql);
	x->sql = NULL;
	x->n = 0;
}

/* A load that is large next to what stays in the table is faster with the
 * offer indexes dropped and built again after it (a sort instead of a
 * random B-tree insert per row and index).  Inside the caller's
 * transaction, so readers never see the table without them. */
static enum gc_status drop_indexes(struct cache *c, const char *provider,
				   struct index_sql *saved, char **err)
{
	saved->sql = NULL;
	saved->n = 0;
	if (c->expect_rows < 20000)
		return GC_OK;
	/* the rows that stay: all but the provider's (which the caller deletes) */
	long long rows = 0;
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT (SELECT count(*) FROM offer)"
			       " - (SELECT count(*) FROM offer WHERE provider = ?1)",
			       -1, &q, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot count offers");
	sqlite3_bind_text(q, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		rows = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if ((long long)c->expect_rows * 2 < rows)
		return GC_OK;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT name, sql FROM sqlite_master WHERE type = 'index'"
			       " AND tbl_name = 'offer' AND sql IS NOT NULL",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot list indexes");
	enum gc_status st = GC_OK;
	char **names = NULL;
	while (st == GC_OK && sqlite3_step(s) == SQLITE_ROW) {
		char **grown = realloc(saved->sql, (saved->n + 1) * sizeof *grown);
		char **ngrown = realloc(names, (saved->n + 1) * sizeof *ngrown);
		if (grown)
			saved->sql = grown;
		if (ngrown)
			names = ngrown;
		char *name = strdup((const char *)sqlite3_column_text(s, 0));
		char *sql = strdup((const char *)sqlite3_column_text(s, 1));
		if (!grown || !ngrown || !name || !sql) {
			free(name);
			free(sql);
			st = err_set(err, GC_ENOMEM, "out of memory");
			break;
		}
		names[saved->n] = name;
		saved->sql[saved->n++] = sql;
	}
	sqlite3_finalize(s);
	for (size_t i = 0; st == GC_OK && i < saved->n; i++) {
		char drop[256];
		snprintf(drop, sizeof drop, "DROP INDEX \"%s\"", names[i]);
		st = exec(c, drop, err);
	}
	for (size_t i = 0; i < saved->n; i++)
		free(names[i]);
	free(names);
	if (st != GC_OK)
		index_sql_release(saved);
	return st;
}

static enum gc_status restore_indexes(struct cache *c, struct index_sql *saved, char **err)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < saved->n; i++)
		st = exec(c, saved->sql[i], err);
	return st;
}

static enum gc_status replace(struct cache *c, const char *provider, const char *source,
			      const struct cache_meta *meta, cache_fill_fn fill, void *arg,
			      size_t *inserted, char **err)
{
	struct index_sql saved = {NULL, 0};
	enum gc_status st = prepare_insert(c, err);
	struct seed_ctx sc = {c, NULL, 0, 0, 0};
	sqlite3_stmt *del = NULL;
	if (st == GC_OK)
		st = exec(c, "BEGIN IMMEDIATE", err);
	if (st != GC_OK)
		return st;
	long long prev = 0;
	if (meta)
		st = count_provider(c, provider, meta->source, &prev, err);
	if (st == GC_OK)
		st = drop_indexes(c, provider, &saved, err);
	bulk_cache(c, saved.n ? BULK_REBUILD : BULK_KEEP);
	const char *sql = source ? "DELETE FROM offer WHERE provider = ?1 AND source = ?2"
				 : "DELETE FROM offer WHERE provider = ?1";
	if (st == GC_OK && sqlite3_prepare_v2(c->db, sql, -1, &del, NULL) != SQLITE_OK)
		st = db_error(c, err, "cannot replace offers");
	if (st == GC_OK) {
		sqlite3_bind_text(del, 1, provider, -1, SQLITE_STATIC);
		if (source)
			sqlite3_bind_text(del, 2, source, -1, SQLITE_STATIC);
		if (sqlite3_step(del) != SQLITE_DONE)
			st = db_error(c, err, "cannot replace offers");
	}
	sqlite3_finalize(del);
	if (st == GC_OK && saved.n) {
		/* the insert statement was compiled against the indexes */
		sqlite3_finalize(c->insert);
		c->insert = NULL;
		st = prepare_insert(c, err);
	}
	if (st == GC_OK)
		st = fill(arg, seed_one, &sc, err);
	if (st == GC_OK && meta)
		st = guard(c, prev, sc.inserted, err);
	if (st == GC_OK)
		st = restore_indexes(c, &saved, err);
	if (st == GC_OK)
		st = map_skus(c, provider, err);
	if (st == GC_OK && meta)
		st = upsert_state(c, provider, meta, err);
	if (st == GC_OK)
		st = exec(c, "COMMIT", err);
	if (st != GC_OK)
		rollback(c);
	else if (inserted)
		*inserted = sc.inserted;
	if (saved.n) {
		/* compiled without the indexes (or they were rolled back): recompile */
		sqlite3_finalize(c->insert);
		c->insert = NULL;
	}
	index_sql_release(&saved);
	c->expect_rows = 0;
	bulk_cache(c, BULK_OFF);
	return st;
}

enum gc_status cache_replace(struct cache *c, const char *provider, const char *source,
			     cache_fill_fn fill, void *arg, size_t *inserted, char **err)
{
	return replace(c, provider, source, NULL, fill, arg, inserted, err);
}

enum gc_status cache_store(struct cache *c, const char *provider, const struct cache_meta *meta,
			   cache_fill_fn fill, void *arg, size_t *inserted, char **err)
{
	return replace(c, provider, NULL, meta, fill, arg, inserted, err);
}

/* Run one statement with text parameters (NULL binds NULL). */
static enum gc_status run_sql(struct cache *c, const char *sql, const char *what, char **err,
			      int nparams, const char *const *params)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, what);
	for (int i = 0; i < nparams; i++)
		bind_text(s, i + 1, params[i]);
	enum gc_status st = GC_OK;
	if (sqlite3_step(s) != SQLITE_DONE)
		st = db_error(c, err, what);
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_mark_failed(struct cache *c, const char *provider, const char *error,
				 char **err)
{
	const char *p[] = {provider, error};
	enum gc_status st = exec(c, "BEGIN IMMEDIATE", err);
	if (st == GC_OK)
		st = run_sql(c, "UPDATE offer SET stale = 1 WHERE provider = ?1",
			     "cannot mark offers stale", err, 1, p);
	if (st == GC_OK)
		st = run_sql(c,
			     "INSERT INTO provider_state(provider, stale, last_error)"
			     " VALUES(?1, 1, ?2) ON CONFLICT(provider) DO UPDATE SET stale = 1,"
			     " last_error = ?2",
			     "cannot record the error", err, 2, p);
	if (st == GC_OK)
		st = exec(c, "COMMIT", err);
	if (st != GC_OK)
		rollback(c);
	return st;
}

enum gc_status cache_note(struct cache *c, const char *provider, const char *note, char **err)
{
	const char *p[] = {provider, note};
	return run_sql(c,
		       "INSERT INTO provider_state(provider, last_error) VALUES(?1, ?2)"
		       " ON CONFLICT(provider) DO UPDATE SET last_error = ?2",
		       "cannot record the note", err, 2, p);
}

enum gc_status cache_mark_fresh(struct cache *c, const char *provider, const char *fetched_at,
				char **err)
{
	const char *p[] = {provider, fetched_at};
	enum gc_status st = exec(c, "BEGIN IMMEDIATE", err);
	if (st == GC_OK)
		st = run_sql(c,
			     "UPDATE offer SET stale = 0, fetched_at = ?2 WHERE provider = ?1"
			     " AND source IN ('live', 'catalog')",
			     "cannot update offers", err, 2, p);
	if (st == GC_OK)
		st = run_sql(c,
			     "UPDATE provider_state SET stale = 0, last_error = NULL,"
			     " fetched_at = ?2 WHERE provider = ?1",
			     "cannot record the refresh", err, 2, p);
	if (st == GC_OK)
		st = exec(c, "COMMIT", err);
	if (st != GC_OK)
		rollback(c);
	return st;
}

static char *col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? strdup((const char *)t) : NULL;
}

void cache_meta_release(struct cache_meta *m)
{
	free((char *)m->source);
	free((char *)m->fetched_at);
	free((char *)m->etag);
	free((char *)m->last_modified);
	free((char *)m->last_error);
	memset(m, 0, sizeof *m);
}

int cache_has_provider(struct cache *c, const char *provider)
{
	sqlite3_stmt *s;
	int has = 0;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT EXISTS (SELECT 1 FROM offer WHERE provider = ?1)"
			       " OR EXISTS (SELECT 1 FROM provider_state WHERE provider = ?1)",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	bind_text(s, 1, provider);
	if (sqlite3_step(s) == SQLITE_ROW)
		has = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return has;
}

enum gc_status cache_get_meta(struct cache *c, const char *provider, struct cache_meta *m,
			      char **err)
{
	memset(m, 0, sizeof *m);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(c->db,
			       "SELECT source, fetched_at, etag, last_modified, last_error, stale"
			       " FROM provider_state WHERE provider = ?1",
			       -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot read the refresh state");
	bind_text(s, 1, provider);
	enum gc_status st = GC_ENOTFOUND;
	if (sqlite3_step(s) == SQLITE_ROW) {
		m->source = col_dup(s, 0);
		m->fetched_at = col_dup(s, 1);
		m->etag = col_dup(s, 2);
		m->last_modified = col_dup(s, 3);
		m->last_error = col_dup(s, 4);
		m->stale = sqlite3_column_int(s, 5);
		st = GC_OK;
	}
	sqlite3_finalize(s);
	return st;
}

enum gc_status cache_status(struct cache *c, cache_status_fn fn, void *arg, char **err)
{
	sqlite3_stmt *s;
	/* one row per provider that has offers or a refresh record */
	if (sqlite3_prepare_v2(
		    c->db,
		    "WITH o AS (SELECT provider, count(*) AS n, group_concat(DISTINCT source) AS src,"
		    "  max(fetched_at) AS fetched, max(stale) AS stale FROM offer GROUP BY provider)"
		    " SELECT p.provider, COALESCE(o.n, 0), o.src, COALESCE(s.fetched_at, o.fetched),"
		    "  COALESCE(s.stale, o.stale, 0), s.last_error"
		    " FROM (SELECT provider FROM o UNION SELECT provider FROM provider_state) p"
		    " LEFT JOIN o ON o.provider = p.provider"
		    " LEFT JOIN provider_state s ON s.provider = p.provider ORDER BY p.provider",
		    -1, &s, NULL) != SQLITE_OK)
		return db_error(c, err, "cannot read the cache status");
	enum gc_status st = GC_OK;
	int rc;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct cache_status_row r = {
			(const char *)sqlite3_column_text(s, 0), sqlite3_column_int64(s, 1),
			(const char *)sqlite3_column_text(s, 2), (const char *)sqlite3_column_text(s, 3),
			sqlite3_column_int(s, 4), (const char *)sqlite3_column_text(s, 5)};
		st = fn(arg, &r, err);
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = db_error(c, err, "cannot read the cache status");
	sqlite3_finalize(s);
	return st;
}

/* Built-in rows of one provider (NULL: all), for cache_clear. */
struct reseed_ctx {
	struct cache *c;
	const char *provider;
	size_t inserted;
};

static enum gc_status reseed_one(void *arg, const struct offer *o, char **err)
{
	struct reseed_ctx *rc = arg;
	if (rc->provider && strcmp(rc->provider, o->provider) != 0)
		return GC_OK;
	enum gc_status st = insert_offer(rc->c, o, err);
	rc->inserted += st == GC_OK;
	return st;
}

enum gc_status cache_clear(struct cache *c, const struct catalog *cat, const char *provider,
			   size_t *removed, size_t *restored, char **err)
{
	const char *p[] = {provider};
	enum gc_status st = prepare_insert(c, err);
	if (st == GC_OK)
		st = exec(c, "BEGIN IMMEDIATE", err);
	if (st != GC_OK)
		return st;
	st = run_sql(c, provider ? "DELETE FROM offer WHERE provider = ?1" : "DELETE FROM offer",
		     "cannot clear offers", err, provider ? 1 : 0, p);
	if (removed)
		*removed = (size_t)sqlite3_changes(c->db);
	if (st == GC_OK)
		st = run_sql(c,
			     provider ? "DELETE FROM provider_state WHERE provider = ?1"
				      : "DELETE FROM provider_state",
			     "cannot clear the refresh state", err, provider ? 1 : 0, p);
	struct reseed_ctx rc = {c, provider, 0};
	struct snapshot_info si;
	if (st == GC_OK)
		st = parse_seed(cat, reseed_one, &rc, &si, err);
	if (st == GC_OK)
		st = map_skus(c, provider, err);
	if (st == GC_OK)
		st = exec(c, "COMMIT", err);
	if (st != GC_OK)
		rollback(c);
	else if (restored)
		*restored = rc.inserted;
	return st;
}

enum gc_status cache_count(struct cache *c, long long *n, char **err)
{
	return scalar(c, "SELECT count(*) FROM offer", n, "cannot count offers", err);
}
