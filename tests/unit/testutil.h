/* testutil.h - helpers shared by the cmocka unit tests. */
#ifndef GPUCMP_TESTUTIL_H
#define GPUCMP_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpucmp/buf.h"
#include "gpucmp/catalog.h"
#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"

/* Read the file at `path`; the caller frees.  NULL when it cannot be
 * opened. */
static inline char *read_path(const char *path, size_t *len)
{
	*len = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b;
	buf_init(&b, 0);
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		assert_int_equal(buf_add(&b, chunk, n), GC_OK);
	fclose(f);
	*len = b.len;
	return buf_steal(&b);
}

/* Read a file under the source tree; the caller frees.  Fails the test if
 * the file cannot be read. */
static inline char *read_source_file(const char *rel, size_t *len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", GPUCMP_SOURCE_DIR, rel);
	char *data = read_path(path, len);
	if (!data)
		fail_msg("cannot open %s", path);
	return data;
}

/* The shipped GPU model table and instance-type table, read from the source
 * tree (so the tests see the files as committed).  0 on success. */
static inline int load_shipped_tables(struct gpu_table **gpus, struct insttype_table **types)
{
	size_t len;
	char *err = NULL;
	enum gc_status st = GC_OK;
	if (gpus) {
		char *data = read_source_file("data/gpus.yaml", &len);
		st = gpu_table_load(gpus, "data/gpus.yaml", data, len, &err);
		free(data);
	}
	if (st == GC_OK && types) {
		char *data = read_source_file("data/instance-types.yaml", &len);
		st = insttype_load(types, "data/instance-types.yaml", data, len, &err);
		free(data);
	}
	if (st != GC_OK)
		fprintf(stderr, "%s\n", err ? err : "load failed");
	free(err);
	return st == GC_OK ? 0 : -1;
}

/* The catalog embedded in the library, fully parsed.  0 on success. */
static inline int load_embedded_catalog(struct catalog *cat)
{
	char *err = NULL;
	enum gc_status st = catalog_load(cat, catalog_today(), &err);
	if (st != GC_OK)
		fprintf(stderr, "%s\n", err ? err : "cannot load the catalog");
	free(err);
	return st == GC_OK ? 0 : -1;
}

/* A fresh scratch path under the build tree: TEST_TMPDIR/name.  Any file
 * there (and its -wal/-shm) is removed first. */
static inline const char *scratch_path(const char *name)
{
	static char path[4096];
	snprintf(path, sizeof path, "%s/%s", TEST_TMPDIR, name);
	char side[4200];
	remove(path);
	snprintf(side, sizeof side, "%s-wal", path);
	remove(side);
	snprintf(side, sizeof side, "%s-shm", path);
	remove(side);
	return path;
}

#endif
