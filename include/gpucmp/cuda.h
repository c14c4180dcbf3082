/* cuda.h - CUDA toolkit versions and the NVIDIA drivers that run them
 * (data/cuda.yaml, from NVIDIA's CUDA Toolkit Release Notes).
 */
#ifndef GPUCMP_CUDA_H
#define GPUCMP_CUDA_H

#include <stddef.h>

#include "gpucmp/err.h"

struct cuda_row {
	char version[16];    /* "12.4" or "12.4.1" */
	char min_driver[24]; /* "550.54.14" */
	long long num;       /* of version, see cuda_version_num */
	long long driver_num;
};

struct cuda_table {
	char *source;
	struct cuda_row *rows;
	size_t n;
};

/* Load `file` (`data`, `len` bytes; data NULL: the embedded data/ file of
 * that name); on failure *t is empty.  cuda_load_embedded: data/cuda.yaml. */
enum gc_status cuda_load(struct cuda_table *t, const char *file, const char *data, size_t len,
			 char **err);
enum gc_status cuda_load_embedded(struct cuda_table *t, char **err);
void cuda_free(struct cuda_table *t);

/* "12.4" / "12.4.1" / "550.54.14" / "580" to major*10^6 + minor*10^3 +
 * patch (missing parts are 0); -1 when not a version. */
long long cuda_version_num(const char *s);

/* The row of a CUDA version ("12.4" also matches "12.4.0"); NULL if the
 * table does not have it. */
const struct cuda_row *cuda_find(const struct cuda_table *t, const char *version);

/* The row of `version` in the embedded table, for --cuda: GC_EUSAGE with
 * "bad CUDA version '...'" or "CUDA ... is not in gpucmp's table (FIRST
 * to LAST; nearest below: V)" when it has none; GC_EDATA (or GC_ENOMEM)
 * when the table cannot be loaded. */
enum gc_status cuda_pick(const char *version, struct cuda_row *out, char **err);

#endif
