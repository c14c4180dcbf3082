/* ytable.h - private to src/: a YAML file that is one table (data/cuda.yaml,
 * data/rates.yaml): a root mapping of known keys, one of them a list of
 * rows.  The loader does the walk; the caller's two functions read the
 * root's other keys and each row.
 */
#ifndef GPUCMP_YTABLE_H
#define GPUCMP_YTABLE_H

#include <stddef.h>

#include "gpucmp/err.h"
#include "gpucmp/yamldoc.h"

struct ytable_spec {
	const char *const *keys; /* the root keys allowed, NULL-terminated */
	const char *list;        /* the key of the rows */
	size_t row_size;
	/* the root's own keys into the caller's `table` */
	enum gc_status (*root)(struct ydoc *d, yaml_node_t *root, void *table, char **err);
	/* item `m` into row i of `rows` (rows 0 to i-1 are loaded) */
	enum gc_status (*row)(struct ydoc *d, yaml_node_t *m, void *rows, size_t i, char **err);
};

/* Load `file` (`data`, `len` bytes; data NULL: the embedded data/ file of
 * that name) into `table` and a new array *rows of *n rows.  On failure
 * *rows holds what was loaded (*n rows), for the caller to free with the
 * rest of its table. */
enum gc_status ytable_load(const struct ytable_spec *spec, void *table, const char *file,
			   const char *data, size_t len, void **rows, size_t *n, char **err);

#endif
