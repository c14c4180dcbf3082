/* yamldoc.h - thin helpers over libyaml's document API.
 *
 * Loaders (GPU table, profiles, instance types, config) read one YAML
 * document into libyaml's node graph and walk it with these helpers, which
 * report problems as "file:line: message".
 */
#ifndef GPUCMP_YAMLDOC_H
#define GPUCMP_YAMLDOC_H

#include <stddef.h>
#include <yaml.h>

#include "gpucmp/err.h"

/* Mappings and sequences nested deeper than this are refused before the
 * document is built: libyaml's scanner costs O(depth) per token in flow
 * collections ('[[[[...'), so a 1 MiB file of brackets would take hours.
 * gpucmp's own files nest four levels at most. */
#define YDOC_MAX_DEPTH 64
/* libyaml checks each anchor (&name) against every earlier one, and
 * ydoc_check_keys each key against the earlier keys of its mapping: both
 * quadratic, so both are capped (gpucmp's own files use no anchors and at
 * most a few dozen keys in a mapping). */
#define YDOC_MAX_ANCHORS 256
#define YDOC_MAX_KEYS 1024

struct ydoc {
	yaml_document_t doc;
	int loaded;
	const char *file; /* borrowed, for messages */
};

/* Parse the first document of `data`.  An empty document is an error.
 * On success the caller must ydoc_free(). */
enum gc_status ydoc_load(struct ydoc *d, const char *file, const char *data,
			 size_t len, char **err);
void ydoc_free(struct ydoc *d);

yaml_node_t *ydoc_root(struct ydoc *d);
yaml_node_t *ydoc_node(struct ydoc *d, int index);

/* 1-based line of a node. */
size_t ydoc_line(const yaml_node_t *n);

/* The scalar text of `n`, or NULL if `n` is not a scalar. */
const char *ydoc_str(const yaml_node_t *n);

/* 1 if `n` is a plain scalar meaning null ("", "~", "null"). */
int ydoc_is_null(const yaml_node_t *n);

/* Value node for `key` in mapping `map`, or NULL. */
yaml_node_t *ydoc_get(struct ydoc *d, yaml_node_t *map, const char *key);

/* The list under `key` of mapping `map`: *list and its length *n, or
 * "'KEY' must be a list" at the mapping (or the value) when it is missing
 * or not a sequence.  ydoc_item() is its i-th element. */
enum gc_status ydoc_list(struct ydoc *d, yaml_node_t *map, const char *key, yaml_node_t **list,
			 size_t *n, char **err);
yaml_node_t *ydoc_item(struct ydoc *d, yaml_node_t *list, size_t i);

/* Copy the text of `key` in mapping `map` into *out (a new string).  An
 * absent key is an error when `required`, else leaves *out alone; a null or
 * empty value is always an error. */
enum gc_status ydoc_dup_str(struct ydoc *d, yaml_node_t *map, const char *key,
			    int required, char **out, char **err);

/* Set *err to "file:line: <message>" for node n; returns GC_EDATA. */
enum gc_status ydoc_error(struct ydoc *d, const yaml_node_t *n, char **err,
			  const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* Check that mapping `map` has no duplicate keys and only keys from the
 * NULL-terminated `allowed` list (NULL list = any key).  Suggests the
 * closest allowed key for a typo. */
enum gc_status ydoc_check_keys(struct ydoc *d, yaml_node_t *map,
			       const char *const *allowed, char **err);

#endif
