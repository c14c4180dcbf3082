/* hosted.c - SkyPilot and gpuhunt hosted catalogs as a refresh tier. */
#include "gpucmp/hosted.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "gpucmp/buf.h"
#include "gpucmp/csv.h"
#include "gpucmp/dynlib.h"
#include "gpucmp/skypilot.h"
#include "gpucmp/strutil.h"

/* docs/CATALOGS.md section 4: only providers some catalog covers; sorted
 * by id.  Every SkyPilot folder named here exists in v8 and every priced v8
 * folder is named (tests/fixtures/catalogs/skypilot-v8-folders.txt,
 * checked by unit_hosted).  A row with neither catalog (digitalocean) only
 * names an alias import maps.  gpuhunt's "online" providers (queried live by
 * its client, not in its catalog) are left out of its column; such a name
 * that is not the id, and a former name, go in the last (an alias import
 * maps, never fetched). */
const struct hosted_map hosted_maps[] = {
	{"aws", "aws", "aws", NULL},
	{"azure", "azure", "azure", NULL},
	{"cloudrift", NULL, "cloudrift", NULL},
	{"cudo", "cudo", NULL, NULL},
	{"daytona", "daytona", NULL, NULL},
	{"digitalocean", NULL, NULL, "do"}, /* SkyPilot's name; no v8 folder: import only */
	{"gcp", "gcp", "gcp", NULL},
	{"hyperbolic", "hyperbolic", NULL, NULL},
	{"hyperstack", "hyperstack", NULL, NULL},
	{"jarvislabs", "jarvislabs", NULL, NULL},
	{"lambda", "lambda", "lambdalabs", NULL},
	{"lium", "lium", NULL, NULL},
	{"mithril", "mithril", NULL, NULL},
	{"nebius", "nebius", "nebius", NULL},
	{"oci", "oci", "oci", NULL},
	{"primeintellect", "primeintellect", NULL, NULL},
	{"runpod", "runpod", "runpod", NULL},
	{"seeweb", "seeweb", NULL, NULL},
	{"shadeform", "shadeform", NULL, NULL},
	{"spheron", "spheron", NULL, NULL},
	{"vast", "vast", NULL, "vastai"},          /* gpuhunt's online name */
	{"verda", "verda", "verda", "datacrunch"}, /* its former name (gpuhunt v2) */
	{"yotta", "yotta", NULL, NULL},
};
const size_t hosted_map_count = sizeof hosted_maps / sizeof hosted_maps[0];

/* field: 0 id, 1 SkyPilot folder, 2 gpuhunt name, 3 other name. */
static const struct hosted_map *find_by(size_t field, const char *name)
{
	for (size_t i = 0; name && i < hosted_map_count; i++) {
		const struct hosted_map *m = &hosted_maps[i];
		const char *v[] = {m->id, m->skypilot, m->gpuhunt, m->other};
		if (v[field] && strcmp(v[field], name) == 0)
			return m;
	}
	return NULL;
}

const struct hosted_map *hosted_find(const char *id)
{
	return find_by(0, id);
}

const struct hosted_map *hosted_find_skypilot(const char *folder)
{
	return find_by(1, folder);
}

const struct hosted_map *hosted_find_gpuhunt(const char *name)
{
	return find_by(2, name);
}

const char *hosted_alias(const char *name)
{
	for (size_t field = 0; field < 4; field++) {
		const struct hosted_map *m = find_by(field, name);
		if (m)
			return m->id;
	}
	return NULL;
}

enum hosted_kind hosted_kind_for(const char *id)
{
	const struct hosted_map *m = hosted_find(id);
	return !m ? HOSTED_NONE : m->skypilot ? HOSTED_SKYPILOT
	       : m->gpuhunt ? HOSTED_GPUHUNT : HOSTED_NONE;
}

const char *hosted_kind_name(enum hosted_kind k)
{
	return k == HOSTED_SKYPILOT ? "skypilot" : k == HOSTED_GPUHUNT ? "gpuhunt" : "none";
}

int hosted_version_date(const char *v, char *out, size_t n)
{
	size_t i = 0;
	while (i < 8 && isdigit((unsigned char)v[i]))
		i++;
	if (i != 8 || v[8] != '-' || !isdigit((unsigned char)v[9]))
		return -1;
	for (i = 9; v[i]; i++)
		if (!isdigit((unsigned char)v[i]) || i > 20)
			return -1;
	char day[11];
	snprintf(day, sizeof day, "%.4s-%.2s-%.2s", v, v + 4, v + 6);
	/* a real calendar date (str_date_days: 20260231 is none) */
	if (memcmp(v, "2000", 4) < 0 || str_date_days(day) < 0)
		return -2;
	snprintf(out, n, "%sT00:00:00Z", day);
	return 0;
}

int hosted_http_date(const char *date, char *out, size_t n)
{
	long long t = date && *date ? str_http_date(date) : -1;
	if (t <= 0)
		return -1;
	str_time_format(t, out, n);
	return 0;
}

/* libzip, loaded by the first unzip: linked, it brings libcrypto, whose
 * relocations took half the instructions of a `gpucmp list` that never
 * unzips anything (docs/PERFORMANCE.md) */
static struct {
	void (*error_init)(zip_error_t *);
	void (*error_fini)(zip_error_t *);
	const char *(*error_strerror)(zip_error_t *);
	zip_source_t *(*source_buffer_create)(const void *, zip_uint64_t, int, zip_error_t *);
	void (*source_free)(zip_source_t *);
	zip_t *(*open_from_source)(zip_source_t *, int, zip_error_t *);
	zip_int64_t (*name_locate)(zip_t *, const char *, zip_flags_t);
	int (*stat_index)(zip_t *, zip_uint64_t, zip_flags_t, zip_stat_t *);
	zip_file_t *(*fopen_index)(zip_t *, zip_uint64_t, zip_flags_t);
	const char *(*strerror)(zip_t *);
	zip_int64_t (*fread)(zip_file_t *, void *, zip_uint64_t);
	const char *(*file_strerror)(zip_file_t *);
	int (*fclose)(zip_file_t *);
	void (*discard)(zip_t *);
} z;

static enum gc_status libzip_load(char **err)
{
	static const char *const sonames[] = {"libzip.so.4", "libzip.so.5", "libzip.so", NULL};
	static const struct dynlib_sym syms[] = {
		{"zip_error_init", (void **)&z.error_init},
		{"zip_error_fini", (void **)&z.error_fini},
		{"zip_error_strerror", (void **)&z.error_strerror},
		{"zip_source_buffer_create", (void **)&z.source_buffer_create},
		{"zip_source_free", (void **)&z.source_free},
		{"zip_open_from_source", (void **)&z.open_from_source},
		{"zip_name_locate", (void **)&z.name_locate},
		{"zip_stat_index", (void **)&z.stat_index},
		{"zip_fopen_index", (void **)&z.fopen_index},
		{"zip_strerror", (void **)&z.strerror},
		{"zip_fread", (void **)&z.fread},
		{"zip_file_strerror", (void **)&z.file_strerror},
		{"zip_fclose", (void **)&z.fclose},
		{"zip_discard", (void **)&z.discard},
	};
	static struct dynlib lib = {"libzip", "install libzip4 to read gpuhunt's catalog",
				    sonames, syms, sizeof syms / sizeof syms[0], NULL};
	return dynlib_load(&lib, err);
}

/* *za: the archive of len bytes at zip. */
static enum gc_status open_buffer(const void *zip, size_t len, zip_t **za, char **err)
{
	enum gc_status st = libzip_load(err);
	if (st != GC_OK)
		return st;
	zip_error_t ze;
	z.error_init(&ze);
	zip_source_t *src = z.source_buffer_create(len ? zip : "", len, 0, &ze);
	*za = src ? z.open_from_source(src, ZIP_RDONLY, &ze) : NULL;
	if (!*za) {
		st = err_set(err, GC_EDATA, "not a zip archive (%s)", z.error_strerror(&ze));
		z.source_free(src);
	}
	z.error_fini(&ze);
	return st;
}

/* *zf: the member `name` of za, opened to be read; its declared size over
 * max (when max) refuses it before any byte is inflated. */
static enum gc_status open_member(zip_t *za, const char *name, size_t max, zip_file_t **zf,
				  char **err)
{
	zip_int64_t idx = z.name_locate(za, name, 0);
	zip_stat_t sb;
	*zf = NULL;
	if (idx < 0)
		return err_set(err, GC_EDATA, "the zip holds no '%s'", name);
	if (max && z.stat_index(za, (zip_uint64_t)idx, 0, &sb) == 0 &&
	    (sb.valid & ZIP_STAT_SIZE) && sb.size > max)
		return err_set(err, GC_EDATA, "'%s' in the zip is over %zu bytes", name, max);
	if (!(*zf = z.fopen_index(za, (zip_uint64_t)idx, 0)))
		return err_set(err, GC_EDATA, "cannot read '%s' in the zip (%s)", name,
			       z.strerror(za));
	return GC_OK;
}

struct zip_in {
	zip_file_t *zf;
	const char *name;
};

/* csv_read_fn over a zip member: inflated as it is read. */
static long zip_in_read(void *ctx, char *buf, size_t n, char **err)
{
	struct zip_in *in = ctx;
	zip_int64_t r = z.fread(in->zf, buf, n);
	if (r < 0) {
		err_set(err, GC_EDATA, "cannot read '%s' in the zip (%s)", in->name,
			z.file_strerror(in->zf));
		return -1;
	}
	return (long)r;
}

/* ---- gpuhunt CSV ---------------------------------------------------- */

/* One GPU row kept for pairing.  Its names (instance, location, GPU) are
 * in the pairing's `names` from `at`, pointed at once every row is read
 * (that buffer moves while it grows). */
struct grow {
	const char *name, *loc, *gpu_name;
	size_t at;
	double price, cpu, mem, cnt, gmem, disk;
	int spot;
};

struct gcols {
	int name, loc, price, cpu, mem, cnt, gpu, gmem, spot, disk, vendor;
};

/* The GPU rows of a catalog until they are paired: at most `max` (0: no
 * cap), their names in one buffer capped at GH_MAX_NAMES. */
struct gh_rows {
	struct grow *v;
	size_t n, cap, max;
	struct buf names;
};

/* The bytes of a name kept for pairing.  The door (offer_clean,
 * str_field) keeps at most STR_FIELD_MAX bytes of a text, read from at
 * most twice as many (a C1 control, two bytes, becomes one '?') plus one
 * character's look-ahead: a longer name is cut here without changing the
 * offer it makes, and a row's names cost at most 3 x GH_NAME_KEEP bytes. */
#define GH_NAME_KEEP (2 * STR_FIELD_MAX + 8)
/* All the names kept: a real row's are under 60 bytes, so this holds half
 * a million rows, and the names of a hostile catalog's rows at most this. */
#define GH_MAX_NAMES ((size_t)32 << 20)

/* A number: 0 with *v (NAN when empty and optional), -1 when bad. */
static int num(const char *s, int required, double *v)
{
	*v = NAN;
	if (!*s)
		return required ? -1 : 0;
	return str_to_double(s, v) == 0 && isfinite(*v) ? 0 : -1;
}

static const char *fld(char **f, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? f[i] : "";
}

static int grow_cmp(const void *a, const void *b)
{
	const struct grow *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->loc, y->loc);
	return c ? c : x->spot - y->spot;
}

static double sane(double v, double lo, double hi)
{
	return v >= lo && v <= hi ? v : NAN;
}

static enum gc_status gh_emit(const struct gpuhunt_opts *o, const struct grow *od,
			      const struct grow *sp, struct gpuhunt_stats *s, offer_cb cb,
			      void *ctx, char **err)
{
	const struct grow *r = od ? od : sp;
	struct offer x;
	offer_init(&x);
	x.provider = o->provider;
	x.source = o->source;
	x.origin = o->origin;
	x.fetched_at = o->fetched_at;
	x.as_of = o->as_of;
	x.sku = r->name;
	x.region = *r->loc ? r->loc : "unknown";
	x.gpu_name = r->gpu_name;
	x.vcpus = sane(r->cpu, 1e-3, 1e5);
	x.ram_gb = sane(r->mem, 1e-3, 1e7);
	x.disk_gb = sane(r->disk, 0, 1e9);
	x.price_hr = od && offer_price_ok(od->price) ? od->price : NAN;
	x.spot_price_hr = sp && offer_price_ok(sp->price) ? sp->price : NAN;
	if (isnan(x.price_hr) && isnan(x.spot_price_hr)) {
		s->no_price++;
		return GC_OK;
	}
	s->spot_dropped += (size_t)offer_spot_sane(&x);
	const struct insttype *it = insttype_lookup(o->types, o->provider, r->name);
	const struct gpu_model *m = it && it->gpu ? gpu_find(o->gpus, it->gpu) : NULL;
	double gmem = sane(r->gmem, 1e-3, 1e4);
	if (!m)
		m = gpu_normalize(o->gpus, r->gpu_name, gmem, r->name);
	x.gpu = m ? m->id : NULL;
	x.gpu_count = it && it->gpu_count > 0 ? it->gpu_count : r->cnt;
	x.gpu_mem_gb = !m ? gmem : x.gpu_count < 1 ? m->memory_gb * x.gpu_count : m->memory_gb;
	if (it) {
		x.infiniband = it->infiniband;
		x.nvlink = it->nvlink;
		x.rdma = it->rdma;
		x.node_bandwidth_gbps = it->node_bandwidth_gbps > 0 ? it->node_bandwidth_gbps : NAN;
	}
	s->unknown_gpu += !x.gpu;
	s->offers++;
	return offer_deliver(cb, ctx, &x, &s->cleaned, err);
}

/* The header's columns into *c; GC_EDATA naming a required one missing. */
static enum gc_status gh_columns(struct csv_reader *rd, struct gcols *c, char **err)
{
	const struct csv_col want[] = {
		{"instance_name", &c->name, 1}, {"location", &c->loc, 1},
		{"price", &c->price, 1}, {"cpu", &c->cpu, 1}, {"memory", &c->mem, 1},
		{"gpu_count", &c->cnt, 1}, {"gpu_name", &c->gpu, 0},
		{"gpu_memory", &c->gmem, 0}, {"spot", &c->spot, 1},
		{"disk_size", &c->disk, 0}, {"gpu_vendor", &c->vendor, 0}};
	const char *missing = csv_columns(rd, want, sizeof want / sizeof want[0]);
	if (missing)
		return err_set(err, GC_EDATA, "not a gpuhunt catalog: no '%s' column", missing);
	return GC_OK;
}

/* The numbers of one row into *r; 1 for a GPU row to keep, else 0 with the
 * reason counted in *s. */
static int gh_row(char **f, size_t n, const struct gcols *c, struct gpuhunt_stats *s,
		  struct grow *r)
{
	memset(r, 0, sizeof *r);
	s->rows++;
	const char *spot = fld(f, n, c->spot), *gpu = fld(f, n, c->gpu);
	const char *vendor = fld(f, n, c->vendor);
	int bad = num(fld(f, n, c->price), 1, &r->price) | num(fld(f, n, c->cpu), 1, &r->cpu) |
		  num(fld(f, n, c->mem), 1, &r->mem) | num(fld(f, n, c->cnt), 1, &r->cnt) |
		  num(fld(f, n, c->gmem), 0, &r->gmem) | num(fld(f, n, c->disk), 0, &r->disk);
	if (strcmp(spot, "True") == 0)
		r->spot = 1;
	else if (strcmp(spot, "False") != 0)
		bad = -1;
	if (bad || !*fld(f, n, c->name)) {
		s->bad_number++;
		return 0;
	}
	if (strcmp(vendor, "google") == 0 || strncmp(gpu, "tpu-", 4) == 0) {
		s->tpu++;
		return 0;
	}
	if (!(r->cnt > 0 && r->cnt <= 4096) || !*gpu) {
		s->cpu_only++;
		return 0;
	}
	return 1;
}

/* Keep GPU row *r with its names (instance, location, GPU) for pairing:
 * the cap on rows is counted here, as each row is read. */
static enum gc_status gh_keep(struct gh_rows *k, const char *const names[3], struct grow *r,
			      char **err)
{
	if (k->max && k->n >= k->max)
		return err_set(err, GC_EDATA,
			       "more than %zu GPU rows (the offer cap per provider, counted as "
			       "rows are read: an on-demand and a spot row count two; raise it "
			       "with GPUCMP_REFRESH_MAX_OFFERS)",
			       k->max);
	if (buf_grow_array(&k->v, &k->cap, k->n, sizeof *k->v, 256) != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	r->at = k->names.len;
	enum gc_status st = GC_OK;
	for (size_t i = 0; i < 3 && st == GC_OK; i++) {
		st = buf_add(&k->names, names[i], strnlen(names[i], GH_NAME_KEEP));
		if (st == GC_OK)
			st = buf_addc(&k->names, '\0');
	}
	if (st == GC_EDATA)
		return err_set(err, st,
			       "the GPU rows' names (instance, location, GPU) are over %zu bytes "
			       "in all: not a price catalog",
			       GH_MAX_NAMES);
	if (st != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	k->v[k->n++] = *r;
	return GC_OK;
}

/* Read the GPU rows into *k, one record at a time; the others are only
 * counted. */
static enum gc_status gh_read(struct csv_reader *rd, struct gpuhunt_stats *s, struct gh_rows *k,
			      char **err)
{
	struct gcols c;
	enum gc_status st = GC_OK;
	int rc = csv_next(rd, err);
	if (rc == 0)
		st = err_set(err, GC_EDATA, "empty catalog");
	if (rc > 0)
		st = gh_columns(rd, &c, err);
	while (st == GC_OK && rc > 0 && (rc = csv_next(rd, err)) > 0) {
		char **f = rd->fields;
		size_t n = rd->nfields;
		struct grow r;
		const char *names[3] = {fld(f, n, c.name), fld(f, n, c.loc), fld(f, n, c.gpu)};
		if (gh_row(f, n, &c, s, &r))
			st = gh_keep(k, names, &r, err);
	}
	if (rc < 0 && st == GC_OK) {
		st = rc == CSV_NOMEM ? GC_ENOMEM : GC_EDATA;
		if (st == GC_ENOMEM)
			err_set(err, st, "out of memory");
	}
	return st;
}

/* One offer per instance and location: its first on-demand and first spot
 * row (sorted on-demand first); further rows are duplicates. */
static enum gc_status gh_pair(struct gh_rows *k, const struct gpuhunt_opts *opts,
			      offer_cb cb, void *ctx, struct gpuhunt_stats *s, char **err)
{
	struct grow *rows = k->v;
	size_t nrows = k->n;
	for (size_t i = 0; i < nrows; i++) {
		rows[i].name = k->names.ptr + rows[i].at;
		rows[i].loc = rows[i].name + strlen(rows[i].name) + 1;
		rows[i].gpu_name = rows[i].loc + strlen(rows[i].loc) + 1;
	}
	if (nrows)
		qsort(rows, nrows, sizeof *rows, grow_cmp);
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < nrows;) {
		size_t j = i;
		const struct grow *od = NULL, *sp = NULL;
		for (; j < nrows && strcmp(rows[j].name, rows[i].name) == 0 &&
		       strcmp(rows[j].loc, rows[i].loc) == 0;
		     j++) {
			const struct grow **slot = rows[j].spot ? &sp : &od;
			if (*slot)
				s->duplicates++;
			else
				*slot = &rows[j];
		}
		st = gh_emit(opts, od, sp, s, cb, ctx, err);
		i = j;
	}
	return st;
}

/* A stream under the cap on bytes read (opts->max_bytes). */
struct gh_counted {
	csv_read_fn read;
	void *ctx;
	size_t n, max;
};

static long gh_counted_read(void *ctx, char *buf, size_t n, char **err)
{
	struct gh_counted *c = ctx;
	long r = c->read(c->ctx, buf, n, err);
	if (r <= 0 || (c->n += (size_t)r) <= c->max)
		return r;
	err_set(err, GC_EDATA,
		"the catalog is over %zu bytes (inflated; the cap of a gpuhunt catalog file)",
		c->max);
	return -1;
}

/* Read, then pair: nothing is emitted unless the whole file was read. */
static enum gc_status gh_parse_reader(struct csv_reader *rd, const struct gpuhunt_opts *opts,
				      offer_cb cb, void *ctx, struct gpuhunt_stats *stats,
				      char **err)
{
	struct gpuhunt_stats local;
	struct gpuhunt_stats *s = stats ? stats : &local;
	memset(s, 0, sizeof *s);
	struct gh_rows k;
	memset(&k, 0, sizeof k);
	k.max = opts->max_rows;
	buf_init(&k.names, GH_MAX_NAMES);
	enum gc_status st = gh_read(rd, s, &k, err);
	if (st == GC_OK)
		st = gh_pair(&k, opts, cb, ctx, s, err);
	free(k.v);
	buf_free(&k.names);
	return st;
}

enum gc_status gpuhunt_parse(const char *data, size_t len, const struct gpuhunt_opts *opts,
			     offer_cb cb, void *ctx, struct gpuhunt_stats *stats, char **err)
{
	if (stats)
		memset(stats, 0, sizeof *stats);
	if (opts->max_bytes && len > opts->max_bytes)
		return err_set(err, GC_EDATA,
			       "the catalog is over %zu bytes (the cap of a gpuhunt catalog file)",
			       opts->max_bytes);
	struct csv_reader rd;
	csv_init(&rd, data, len);
	enum gc_status st = gh_parse_reader(&rd, opts, cb, ctx, stats, err);
	csv_release(&rd);
	return st;
}

enum gc_status gpuhunt_parse_stream(csv_read_fn read, void *rctx,
				    const struct gpuhunt_opts *opts, offer_cb cb, void *ctx,
				    struct gpuhunt_stats *stats, char **err)
{
	struct gh_counted c = {read, rctx, 0, opts->max_bytes ? opts->max_bytes : SIZE_MAX};
	struct csv_reader rd;
	csv_init_stream(&rd, gh_counted_read, &c);
	enum gc_status st = gh_parse_reader(&rd, opts, cb, ctx, stats, err);
	csv_release(&rd);
	return st;
}

enum gc_status gpuhunt_parse_zip(const void *zip, size_t len, const char *member,
				 const struct gpuhunt_opts *opts, offer_cb cb, void *ctx,
				 struct gpuhunt_stats *stats, char **err)
{
	if (stats)
		memset(stats, 0, sizeof *stats);
	zip_t *za;
	enum gc_status st = open_buffer(zip, len, &za, err);
	if (st != GC_OK)
		return st;
	struct zip_in in = {NULL, member};
	st = open_member(za, member, opts->max_bytes, &in.zf, err);
	if (st == GC_OK)
		st = gpuhunt_parse_stream(zip_in_read, &in, opts, cb, ctx, stats, err);
	if (in.zf)
		z.fclose(in.zf);
	z.discard(za);
	return st;
}

/* ---- the adapters the refresh driver runs --------------------------- */

enum { KIND_VMS, KIND_VERSION, KIND_ZIP };

/* The biggest catalog file accepted (a zip member, after inflating). */
#define HOSTED_MAX_CSV ((size_t)256 << 20)

struct gh_state {
	char version[32];
	char as_of[32];
};

/* Offers of a parser go to the run's emit; its message is kept (the
 * SkyPilot reader gives a callback no room for one). */
struct sink {
	struct adapter_run *run;
	char *err;
};

static enum gc_status sink_cb(void *ctx, const struct offer *o, char **err)
{
	struct sink *k = ctx;
	(void)err;
	return k->run->emit(k->run->emit_ctx, o, &k->err);
}

static enum gc_status sink_end(struct sink *k, enum gc_status st, char **err)
{
	if (k->err) {
		if (st != GC_OK && err) {
			free(*err);
			*err = k->err;
		} else {
			free(k->err);
		}
		k->err = NULL;
	}
	return st;
}

static enum gc_status sky_start(struct adapter_run *run, char **err)
{
	const struct hosted_map *m = hosted_find(run->ad->id);
	if (!m || !m->skypilot)
		return err_set(err, GC_ENOTFOUND, "no SkyPilot catalog covers '%s'", run->ad->id);
	return adapter_queue(run, KIND_VMS, NULL, NULL, err, "%s/%s/vms.csv", run->base,
			     m->skypilot);
}

static enum gc_status sky_parse(struct adapter_run *run, const struct adapter_request *req,
				const char *body, size_t len, char **err)
{
	(void)req;
	char as_of[32];
	struct skypilot_opts o = {run->ad->id, run->gpus, run->types, "catalog", run->origin,
				  run->fetched_at, NULL};
	if (hosted_http_date(run->last_modified, as_of, sizeof as_of) == 0)
		o.as_of = as_of;
	struct skypilot_stats s;
	struct sink k = {run, NULL};
	enum gc_status st = skypilot_parse(body, len, &o, sink_cb, &k, &s, err);
	st = sink_end(&k, st, err);
	run->offers += s.offers;
	run->drop_no_gpu += s.cpu_only + s.tpu + s.unpaired;
	run->drop_no_price += s.no_price - s.bad_price;
	run->drop_bad_price += s.bad_price;
	run->skipped += s.cpu_only + s.tpu + s.unpaired + s.no_price;
	run->cleaned += s.cleaned;
	run->spot_dropped += s.spot_dropped;
	run->zone_folded += s.duplicates;
	run->zone_outlying += s.outlying_zone;
	run->host_unpriced += s.host_unpriced;
	return st;
}

static enum gc_status gh_start(struct adapter_run *run, char **err)
{
	const struct hosted_map *m = hosted_find(run->ad->id);
	if (!m || !m->gpuhunt)
		return err_set(err, GC_ENOTFOUND, "no gpuhunt catalog covers '%s'", run->ad->id);
	if (!(run->state = calloc(1, sizeof(struct gh_state))))
		return err_set(err, GC_ENOMEM, "out of memory");
	return adapter_queue(run, KIND_VERSION, NULL, NULL, err, "%s/%s/version", run->base,
			     m->gpuhunt);
}

static enum gc_status gh_parse(struct adapter_run *run, const struct adapter_request *req,
			       const char *body, size_t len, char **err)
{
	const struct hosted_map *m = hosted_find(run->ad->id);
	struct gh_state *g = run->state;
	if (req->kind == KIND_VERSION) {
		/* the version names a folder: only "YYYYMMDD-N", whatever was sent */
		while (len && isspace((unsigned char)body[len - 1]))
			len--;
		if (len >= sizeof g->version)
			return err_set(err, GC_EDATA, "not a gpuhunt catalog version");
		memcpy(g->version, body, len);
		g->version[len] = '\0';
		int rc = memchr(body, '\0', len) ? -1
			 : hosted_version_date(g->version, g->as_of, sizeof g->as_of);
		if (rc == -2)
			return err_set(err, GC_EDATA,
				       "gpuhunt catalog version '%s' names no calendar date "
				       "(YYYYMMDD-N)",
				       g->version);
		if (rc != 0)
			return err_set(err, GC_EDATA,
				       "not a gpuhunt catalog version (expected YYYYMMDD-N)");
		return adapter_queue(run, KIND_ZIP, NULL, NULL, err, "%s/%s/%s/catalog.zip",
				     run->base, m->gpuhunt, g->version);
	}
	char name[64];
	snprintf(name, sizeof name, "%s.csv", m->gpuhunt);
	struct gpuhunt_opts o = {run->ad->id, run->gpus,	  run->types,	  "catalog",
				 run->origin, run->fetched_at, g->as_of,	  run->max_offers,
				 HOSTED_MAX_CSV};
	struct gpuhunt_stats s;
	struct sink k = {run, NULL};
	enum gc_status st = gpuhunt_parse_zip(body, len, name, &o, sink_cb, &k, &s, err);
	st = sink_end(&k, st, err);
	run->offers += s.offers;
	run->drop_no_gpu += s.cpu_only + s.tpu;
	run->drop_no_price += s.no_price;
	run->drop_bad_number += s.bad_number;
	run->skipped += s.cpu_only + s.tpu + s.no_price + s.bad_number;
	run->cleaned += s.cleaned;
	run->spot_dropped += s.spot_dropped;
	return st;
}

void hosted_adapter(struct adapter *out, const char *id, enum hosted_kind k, const char *base)
{
	memset(out, 0, sizeof *out);
	out->id = id;
	out->base_url = base;
	out->auth = ADAPTER_AUTH_NONE;
	out->key_style = ADAPTER_KEY_BEARER;
	out->conditional = 1;
	if (k == HOSTED_GPUHUNT) {
		out->endpoint =
			"gpuhunt catalog: GET /<provider>/version, "
			"/<provider>/<version>/catalog.zip";
		out->start = gh_start;
		out->parse = gh_parse;
		out->free_state = free;
	} else {
		out->endpoint = "SkyPilot catalog: GET /<cloud>/vms.csv";
		out->start = sky_start;
		out->parse = sky_parse;
	}
}
