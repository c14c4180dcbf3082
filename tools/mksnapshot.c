/* mksnapshot - build data/snapshot.csv from SkyPilot-format catalogs.
 *
 * usage: gpucmp-mksnapshot --gpus data/gpus.yaml --types data/instance-types.yaml
 *            --sources data/snapshot-sources.csv --out data/snapshot.csv CATALOG_DIR
 *
 * CATALOG_DIR holds <cloud>/vms.csv; each cloud folder listed in the sources
 * file becomes a provider id.  The sources file gives each cloud's origin and
 * as-of date (the catalogs carry none).  Run through scripts/make-snapshot.sh.
 *
 *        gpucmp-mksnapshot --from-cache CACHE.db --out data/snapshot.csv
 *
 * writes instead the offers a `gpucmp refresh --catalog-only` stored in
 * CACHE.db (source "catalog": the hosted catalog tier's own reading),
 * origin the catalog file's URL, as-of the catalog's date (its as_of).
 *
 *        gpucmp-mksnapshot --check FILE
 *
 * reads FILE with the loader the binary seeds its cache with
 * (snapshot_parse) and prints its rows, dates and offers per provider.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/buf.h"
#include "gpucmp/cache.h"
#include "gpucmp/csv.h"
#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"
#include "gpucmp/skypilot.h"
#include "gpucmp/snapshot.h"
#include "sqlite_int.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	struct buf b;
	buf_init(&b, 0);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		if (buf_add(&b, chunk, n) != GC_OK) {
			buf_free(&b);
			fclose(f);
			return NULL;
		}
	fclose(f);
	*len = b.len;
	return buf_steal(&b);
}

static enum gc_status write_row(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	return snapshot_write_row(ctx, o);
}

static int convert(const char *dir, const char *cloud, const char *origin,
		   const char *as_of, const struct gpu_table *gpus,
		   const struct insttype_table *types, struct buf *out)
{
	char path[4096], fetched[32];
	snprintf(path, sizeof path, "%s/%s/vms.csv", dir, cloud);
	snprintf(fetched, sizeof fetched, "%sT00:00:00Z", as_of);
	size_t len;
	char *data = slurp(path, &len);
	if (!data)
		return 1;
	struct skypilot_opts o = {cloud, gpus, types, "snapshot", origin, fetched, fetched};
	struct skypilot_stats st;
	char *err = NULL;
	enum gc_status rc = skypilot_parse(data, len, &o, write_row, out, &st, &err);
	free(data);
	if (rc != GC_OK) {
		fprintf(stderr, "%s: %s\n", path, err ? err : "failed");
		free(err);
		return 1;
	}
	fprintf(stderr,
		"%-10s rows %6zu  offers %5zu  cpu-only %6zu  tpu %4zu  no-price %3zu  "
		"unpaired %3zu  other-zone %4zu  unknown-gpu %zu\n",
		cloud, st.rows, st.offers, st.cpu_only, st.tpu, st.no_price, st.unpaired,
		st.duplicates, st.unknown_gpu);
	return 0;
}

static const char *col_text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

/* The catalog tier's offers in a cache, one snapshot row each, in a
 * stable order; prices are the stored USD ones. */
static int from_cache(const char *db_path, struct buf *out)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *s = NULL;
	int rc = 1;
	size_t rows = 0;
	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		    db,
		    "SELECT provider, sku, gpu, gpu_name, gpu_count, gpu_fraction,"
		    " gpu_mem_gb, vcpus, ram_gb, disk_gb, region, price_hr, spot_price_hr,"
		    " infiniband, rdma, nvlink, node_bandwidth_gbps, origin,"
		    " as_of"
		    " FROM offer WHERE source = 'catalog'"
		    " ORDER BY provider, sku, region, gpu_name, price_hr",
		    -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", db_path, db ? sqlite3_errmsg(db) : "cannot open");
		goto out;
	}
	int step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		struct offer o;
		offer_init(&o);
		o.provider = col_text(s, 0);
		o.sku = col_text(s, 1);
		o.gpu = col_text(s, 2);
		o.gpu_name = col_text(s, 3);
		o.gpu_count = cache_col_num(s, 4);
		o.gpu_fraction = cache_col_num(s, 5);
		o.gpu_mem_gb = cache_col_num(s, 6);
		o.vcpus = cache_col_num(s, 7);
		o.ram_gb = cache_col_num(s, 8);
		o.disk_gb = cache_col_num(s, 9);
		o.region = col_text(s, 10);
		o.price_hr = cache_col_num(s, 11);
		o.spot_price_hr = cache_col_num(s, 12);
		o.currency = "USD";
		o.infiniband = cache_col_tri(s, 13);
		o.rdma = col_text(s, 14);
		o.nvlink = cache_col_tri(s, 15);
		o.node_bandwidth_gbps = cache_col_num(s, 16);
		o.origin = col_text(s, 17);
		o.fetched_at = col_text(s, 18); /* the writer's as-of date */
		if (!sqlite3_column_text(s, 18)) {
			/* the snapshot dates every row: a catalog served without
			 * Last-Modified names none, and "now" would be a lie */
			fprintf(stderr, "%s: %s %s has no date (a catalog served without "
				"Last-Modified): build from a dated mirror (the S3 one)\n", db_path,
				o.provider, o.sku);
			goto out;
		}
		if (snapshot_write_row(out, &o) != GC_OK) {
			fprintf(stderr, "out of memory\n");
			goto out;
		}
		rows++;
	}
	if (step != SQLITE_DONE) {
		fprintf(stderr, "%s: %s\n", db_path, sqlite3_errmsg(db));
		goto out;
	}
	if (!rows) {
		fprintf(stderr, "%s: no offer from a hosted catalog\n", db_path);
		goto out;
	}
	fprintf(stderr, "%zu offers from the catalog tier\n", rows);
	rc = 0;
out:
	sqlite3_finalize(s);
	sqlite3_close(db);
	return rc;
}

struct tally {
	char provider[64][32];
	size_t count[64], n;
};

static enum gc_status tally_row(void *ctx, const struct offer *o, char **err)
{
	struct tally *t = ctx;
	size_t i = 0;
	while (i < t->n && strcmp(t->provider[i], o->provider) != 0)
		i++;
	if (i == t->n) {
		if (t->n == 64)
			return err_set(err, GC_EDATA, "more than 64 providers");
		snprintf(t->provider[t->n++], sizeof t->provider[0], "%s", o->provider);
	}
	t->count[i]++;
	return GC_OK;
}

/* Parse a snapshot file as the binary does; 0 when it loads. */
static int check(const char *path)
{
	size_t len;
	char *data = slurp(path, &len);
	if (!data)
		return 1;
	struct tally t;
	memset(&t, 0, sizeof t);
	struct snapshot_info info;
	char *err = NULL;
	enum gc_status st = snapshot_parse(data, len, tally_row, &t, &info, &err);
	free(data);
	if (st != GC_OK) {
		fprintf(stderr, "%s: %s\n", path, err ? err : "does not load");
		free(err);
		return 1;
	}
	printf("rows %zu retired %zu oldest %s newest %s\n", info.rows, info.retired,
	       info.oldest, info.newest);
	for (size_t i = 0; i < t.n; i++)
		printf("%s %zu\n", t.provider[i], t.count[i]);
	return 0;
}

static int write_out(const char *path, const struct buf *out)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(out->ptr, 1, out->len, f) != out->len || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *gpus_path = NULL, *types_path = NULL, *sources_path = NULL, *out_path = NULL;
	const char *dir = NULL, *cache_path = NULL;
	if (argc == 3 && strcmp(argv[1], "--check") == 0)
		return check(argv[2]);
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--from-cache") == 0)
			cache_path = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--gpus") == 0)
			gpus_path = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--types") == 0)
			types_path = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--sources") == 0)
			sources_path = argv[++i];
		else if (i + 1 < argc && strcmp(argv[i], "--out") == 0)
			out_path = argv[++i];
		else
			dir = argv[i];
	}
	if (cache_path && out_path && !dir) {
		struct buf out;
		buf_init(&out, 0);
		int rc = buf_addstr(&out, SNAPSHOT_HEADER "\n") != GC_OK ||
			 from_cache(cache_path, &out) || write_out(out_path, &out);
		buf_free(&out);
		return rc;
	}
	if (!gpus_path || !types_path || !sources_path || !out_path || !dir) {
		fprintf(stderr,
			"usage: gpucmp-mksnapshot --gpus F --types F --sources F --out F DIR\n"
			"       gpucmp-mksnapshot --from-cache DB --out F\n"
			"       gpucmp-mksnapshot --check F\n");
		return 64;
	}
	size_t glen, tlen, slen;
	char *gdata = slurp(gpus_path, &glen), *tdata = slurp(types_path, &tlen);
	char *sdata = slurp(sources_path, &slen);
	struct gpu_table *gpus = NULL;
	struct insttype_table *types = NULL;
	char *err = NULL;
	int rc = 1;
	if (!gdata || !tdata || !sdata ||
	    gpu_table_load(&gpus, gpus_path, gdata, glen, &err) != GC_OK ||
	    insttype_load(&types, types_path, tdata, tlen, &err) != GC_OK) {
		fprintf(stderr, "%s\n", err ? err : "cannot read inputs");
		goto out;
	}
	struct buf out;
	buf_init(&out, 0);
	buf_addstr(&out, SNAPSHOT_HEADER "\n");
	/* sources file: cloud,origin,as_of */
	struct csv_reader r;
	csv_init(&r, sdata, slen);
	rc = 0;
	int n = csv_next(&r, &err); /* header */
	while (!rc && n > 0 && (n = csv_next(&r, &err)) > 0) {
		if (r.nfields != 3) {
			fprintf(stderr, "%s:%zu: expected cloud,origin,as_of\n", sources_path,
				r.line);
			rc = 1;
			break;
		}
		rc = convert(dir, r.fields[0], r.fields[1], r.fields[2], gpus, types, &out);
	}
	csv_release(&r);
	if (!rc)
		rc = write_out(out_path, &out);
	buf_free(&out);
out:
	free(err);
	free(gdata);
	free(tdata);
	free(sdata);
	gpu_table_free(gpus);
	insttype_free(types);
	return rc;
}
