/* ytable.c - load a YAML file that is one table (ytable.h). */
#include "ytable.h"

#include <stdlib.h>

#include "gpucmp/embedded.h"

static enum gc_status load_rows(const struct ytable_spec *spec, struct ydoc *d,
				yaml_node_t *root, void **rows, size_t *n, char **err)
{
	yaml_node_t *list = NULL;
	size_t len = 0;
	enum gc_status st = ydoc_list(d, root, spec->list, &list, &len, err);
	if (st != GC_OK)
		return st;
	*rows = calloc(len ? len : 1, spec->row_size);
	if (!*rows)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; st == GC_OK && i < len; i++) {
		st = spec->row(d, ydoc_item(d, list, i), *rows, i, err);
		*n += st == GC_OK;
	}
	return st;
}

enum gc_status ytable_load(const struct ytable_spec *spec, void *table, const char *file,
			   const char *data, size_t len, void **rows, size_t *n, char **err)
{
	*rows = NULL;
	*n = 0;
	if (!data) {
		const struct embedded_file *f = embedded_require(file, err);
		if (!f)
			return GC_EDATA;
		file = f->name;
		data = (const char *)f->data;
		len = f->len;
	}
	struct ydoc d;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st != GC_OK)
		return st;
	yaml_node_t *root = ydoc_root(&d);
	if (root->type != YAML_MAPPING_NODE)
		st = ydoc_error(&d, root, err, "expected a mapping");
	if (st == GC_OK)
		st = ydoc_check_keys(&d, root, spec->keys, err);
	if (st == GC_OK)
		st = spec->root(&d, root, table, err);
	if (st == GC_OK)
		st = load_rows(spec, &d, root, rows, n, err);
	ydoc_free(&d);
	return st;
}
