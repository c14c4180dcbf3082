/* mksnapshot - build data/snapshot.csv from SkyPilot-format catalogs.
 *
 * usage: gpucmp-mksnapshot --gpus data/gpus.yaml --types data/instance-types.yaml
 *            --sources data/snapshot-sources.csv --out data/snapshot.csv CATALOG_DIR
 *
 * CATALOG_DIR holds <cloud>/vms.csv; each cloud folder listed in the sources
 * file becomes a provider id.  The sources file gives each cloud's origin and
 * as-of date (the catalogs carry none).  Run through scripts/make-snapshot.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/buf.h"
#include "gpucmp/csv.h"
#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"
#include "gpucmp/skypilot.h"
#include "gpucmp/snapshot.h"

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

int main(int argc, char **argv)
{
	const char *gpus_path = NULL, *types_path = NULL, *sources_path = NULL, *out_path = NULL;
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--gpus") == 0)
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
	if (!gpus_path || !types_path || !sources_path || !out_path || !dir) {
		fprintf(stderr, "usage: gpucmp-mksnapshot --gpus F --types F --sources F --out F DIR\n");
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
			fprintf(stderr, "%s:%zu: expected cloud,origin,as_of\n", sources_path, r.line);
			rc = 1;
			break;
		}
		rc = convert(dir, r.fields[0], r.fields[1], r.fields[2], gpus, types, &out);
	}
	csv_release(&r);
	if (!rc) {
		FILE *f = fopen(out_path, "wb");
		if (!f || fwrite(out.ptr, 1, out.len, f) != out.len || fclose(f) != 0) {
			perror(out_path);
			rc = 1;
		}
	}
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
