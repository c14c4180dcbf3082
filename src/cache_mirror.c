/* cache_mirror.c - the catalog's tables in the cache file (provider, gpu,
 * insttype, country, region_place, region_source), rebuilt with the view
 * whenever the catalog or the view's text changes, so that every query is
 * plain SQL over one database.  Calls
 * cache_schema.c (the view) and cache_db.c. */
#include <stdio.h>

#include "cache_int.h"
#include "gpucmp/buf.h"
#include "sqlite_int.h"

/* One mirrored table: `ddl` drops and creates it, `insert` takes a row,
 * `bind` binds row i of the catalog (`scratch` for text it builds). */
struct mirror {
	const char *ddl;
	const char *insert;
	const char *what; /* "cannot fill ..." */
	void (*bind)(sqlite3_stmt *s, const struct catalog *cat, size_t i, struct buf *scratch);
};

static enum gc_status fill(struct cache *c, const struct mirror *m, const struct catalog *cat,
			   size_t n, char **err)
{
	struct buf scratch;
	buf_init(&scratch, 0);
	enum gc_status st = cache_exec(c, m->ddl, err);
	sqlite3_stmt *s = NULL;
	if (st == GC_OK && sqlite3_prepare_v2(c->db, m->insert, -1, &s, NULL) != SQLITE_OK)
		st = cache_db_error(c, err, m->what);
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		sqlite3_reset(s);
		m->bind(s, cat, i, &scratch);
		if (sqlite3_step(s) != SQLITE_DONE)
			st = cache_db_error(c, err, m->what);
	}
	sqlite3_finalize(s);
	buf_free(&scratch);
	return st;
}

static void column_name(const struct pfield_def *f, char *out, size_t n)
{
	snprintf(out, n, "%s%s%s", f->group, *f->group ? "_" : "", f->key);
}

/* The provider table has a column per profile field (group_key). */
static enum gc_status provider_sql(struct buf *ddl, struct buf *ins)
{
	enum gc_status st = buf_addstr(ddl, "DROP TABLE IF EXISTS provider;"
				       "CREATE TABLE provider(id TEXT PRIMARY KEY,"
				       " name TEXT NOT NULL, site TEXT, kind TEXT NOT NULL,"
				       " verified TEXT NOT NULL");
	if (st == GC_OK)
		st = buf_addstr(ins, "INSERT INTO provider VALUES(?,?,?,?,?");
	for (size_t i = 0; i < profile_field_count && st == GC_OK; i++) {
		char col[64];
		column_name(&profile_fields[i], col, sizeof col);
		st = buf_printf(ddl, ", %s %s", col,
				profile_fields[i].kind == PF_NUMBER ? "REAL" : "TEXT");
		if (st == GC_OK)
			st = buf_addstr(ins, ",?");
	}
	if (st == GC_OK)
		st = buf_addstr(ddl, ");");
	if (st == GC_OK)
		st = buf_addc(ins, ')');
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

static void bind_provider(sqlite3_stmt *s, const struct catalog *cat, size_t i,
			  struct buf *scratch)
{
	const struct profile *pr = cat->profiles.items[i];
	sqlite3_bind_text(s, 1, pr->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, pr->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, pr->site, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, pr->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, pr->verified, -1, SQLITE_STATIC);
	for (size_t f = 0; f < profile_field_count; f++)
		bind_pvalue(s, (int)f + 6, &profile_fields[f], &pr->values[f], scratch);
}

static enum gc_status fill_providers(struct cache *c, const struct catalog *cat, char **err)
{
	struct buf ddl, ins;
	buf_init(&ddl, 0);
	buf_init(&ins, 0);
	enum gc_status st = provider_sql(&ddl, &ins);
	if (st == GC_OK) {
		struct mirror m = {ddl.ptr, ins.ptr, "cannot fill providers", bind_provider};
		st = fill(c, &m, cat, cat->profiles.n, err);
	} else {
		err_set(err, st, "out of memory");
	}
	buf_free(&ddl);
	buf_free(&ins);
	return st;
}

static void bind_gpu(sqlite3_stmt *s, const struct catalog *cat, size_t i, struct buf *scratch)
{
	const struct gpu_model *m = gpu_table_at(cat->gpus, i);
	(void)scratch;
	sqlite3_bind_text(s, 1, m->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, m->family, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, m->vendor, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, m->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, m->architecture, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 6, m->memory_gb);
	sqlite3_bind_text(s, 7, m->form_factor, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 8, m->mig);
	sqlite3_bind_text(s, 9, m->nvlink, -1, SQLITE_STATIC);
	cache_bind_num(s, 10, m->bf16_tflops);
	cache_bind_num(s, 11, m->fp8_tflops);
	cache_bind_num(s, 12, m->memory_bandwidth_tbs);
	if (m->nvswitch_board > 0)
		sqlite3_bind_int(s, 13, m->nvswitch_board);
	else
		sqlite3_bind_null(s, 13);
}

static const struct mirror gpu_mirror = {
	"DROP TABLE IF EXISTS gpu;"
	"CREATE TABLE gpu(id TEXT PRIMARY KEY, family TEXT NOT NULL, vendor TEXT NOT NULL,"
	" name TEXT NOT NULL, architecture TEXT, memory_gb REAL, form_factor TEXT,"
	" mig INTEGER NOT NULL, nvlink TEXT NOT NULL, bf16_tflops REAL, fp8_tflops REAL,"
	" memory_bandwidth_tbs REAL, nvswitch_board INTEGER);",
	"INSERT INTO gpu VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)", "cannot fill GPU models", bind_gpu};

static void bind_insttype(sqlite3_stmt *s, const struct catalog *cat, size_t i,
			  struct buf *scratch)
{
	const struct insttype *t = insttype_at(cat->types, i);
	(void)scratch;
	sqlite3_bind_int64(s, 1, (sqlite3_int64)i);
	sqlite3_bind_text(s, 2, t->provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, t->match, -1, SQLITE_STATIC);
	cache_bind_text(s, 4, t->k8s);
	cache_bind_tri(s, 5, t->mig);
	cache_bind_tri(s, 6, t->infiniband);
	cache_bind_text(s, 7, t->rdma);
	cache_bind_tri(s, 8, t->nvlink);
	sqlite3_bind_text(s, 9, t->source, -1, SQLITE_STATIC);
}

/* The instance-type table in file order (ord), for the view's per-SKU
 * capability columns. */
static const struct mirror insttype_mirror = {
	"DROP TABLE IF EXISTS insttype;"
	"CREATE TABLE insttype(ord INTEGER PRIMARY KEY, provider TEXT NOT NULL,"
	" match TEXT NOT NULL, k8s TEXT, mig INTEGER, infiniband INTEGER, rdma TEXT,"
	" nvlink INTEGER, source TEXT NOT NULL);"
	"CREATE INDEX insttype_provider ON insttype(provider, ord);",
	"INSERT INTO insttype VALUES(?,?,?,?,?,?,?,?,?)", "cannot fill instance types",
	bind_insttype};

/* A country's code, continent and geo, from parameter `at` on. */
static void bind_place_of(sqlite3_stmt *s, int at, const struct region_country *c)
{
	sqlite3_bind_text(s, at, c->code, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, at + 1, c->continent, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, at + 2, c->geo, -1, SQLITE_STATIC);
}

static void bind_country(sqlite3_stmt *s, const struct catalog *cat, size_t i,
			 struct buf *scratch)
{
	(void)scratch;
	bind_place_of(s, 1, regions_country_at(cat->regions, i));
}

/* data/regions.yaml's countries, each with its continent and geo. */
static const struct mirror country_mirror = {
	"DROP TABLE IF EXISTS country;"
	"CREATE TABLE country(code TEXT PRIMARY KEY, continent TEXT NOT NULL, geo TEXT NOT NULL)"
	" WITHOUT ROWID;",
	"INSERT INTO country VALUES(?,?,?)", "cannot fill countries", bind_country};

static void bind_place(sqlite3_stmt *s, const struct catalog *cat, size_t i, struct buf *scratch)
{
	const struct region_place *p = regions_place_at(cat->regions, i);
	(void)scratch;
	sqlite3_bind_text(s, 1, p->provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, p->region, -1, SQLITE_STATIC);
	bind_place_of(s, 3, regions_country(cat->regions, p->code));
}

/* Each provider region the table places, with its country's continent
 * and geo: the view joins it on its key alone.  Region names compare
 * without case (the key's collation), as regions_lookup() compares them. */
static const struct mirror place_mirror = {
	"DROP TABLE IF EXISTS region_place;"
	"CREATE TABLE region_place(provider TEXT NOT NULL, region TEXT NOT NULL COLLATE NOCASE,"
	" country TEXT NOT NULL, continent TEXT NOT NULL, geo TEXT NOT NULL,"
	" PRIMARY KEY(provider, region)) WITHOUT ROWID;",
	"INSERT INTO region_place VALUES(?,?,?,?,?)", "cannot fill regions", bind_place};

static void bind_source(sqlite3_stmt *s, const struct catalog *cat, size_t i,
			struct buf *scratch)
{
	const struct region_source *r = regions_source_at(cat->regions, i);
	(void)scratch;
	sqlite3_bind_text(s, 1, r->provider, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 2, r->names_country);
}

/* The providers whose region names carry the country (Vast). */
static const struct mirror source_mirror = {
	"DROP TABLE IF EXISTS region_source;"
	"CREATE TABLE region_source(provider TEXT PRIMARY KEY, names_country INTEGER NOT NULL)"
	" WITHOUT ROWID;",
	"INSERT INTO region_source VALUES(?,?)", "cannot fill regions", bind_source};

static enum gc_status fill_regions(struct cache *c, const struct catalog *cat, char **err)
{
	const struct region_table *r = cat->regions;
	enum gc_status st = fill(c, &country_mirror, cat, regions_country_count(r), err);
	if (st == GC_OK)
		st = fill(c, &place_mirror, cat, regions_place_count(r), err);
	if (st == GC_OK)
		st = fill(c, &source_mirror, cat, regions_source_count(r), err);
	return st;
}

/* Rebuild provider, gpu, insttype, the region tables and offer_v when the
 * embedded catalog changed. */
enum gc_status cache_sync_catalog(struct cache *c, struct catalog *cat, char **err)
{
	/* the view's definition is part of what the stored tables must match */
	uint64_t want = cache_view_hash(cat);
	if (cache_meta_matches(c, "catalog_hash", want))
		return GC_OK;
	enum gc_status st =
		catalog_need(cat, CATALOG_ALL, err);
	if (st == GC_OK)
		st = cache_exec(c, "BEGIN IMMEDIATE", err);
	if (st != GC_OK)
		return st;
	if (!cache_meta_matches(c, "catalog_hash", want)) {
		st = fill_providers(c, cat, err);
		if (st == GC_OK)
			st = fill(c, &gpu_mirror, cat, gpu_table_count(cat->gpus), err);
		if (st == GC_OK)
			st = fill(c, &insttype_mirror, cat, insttype_count(cat->types), err);
		if (st == GC_OK)
			st = fill_regions(c, cat, err);
		if (st == GC_OK)
			st = cache_create_view(c, err);
		if (st == GC_OK)
			st = cache_meta_set_hash(c, "catalog_hash", want, err);
	}
	return cache_commit(c, st, err);
}
