/* yamldoc.c - helpers over libyaml's document API with file:line errors. */
#include "gpucmp/yamldoc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/embedded.h"
#include "gpucmp/strutil.h"

/* The anchor (&name) an event defines, or NULL. */
static const yaml_char_t *event_anchor(const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		return ev->data.scalar.anchor;
	case YAML_SEQUENCE_START_EVENT:
		return ev->data.sequence_start.anchor;
	case YAML_MAPPING_START_EVENT:
		return ev->data.mapping_start.anchor;
	default:
		return NULL;
	}
}

/* Walk the events of the first document and refuse nesting deeper than
 * YDOC_MAX_DEPTH, or more than YDOC_MAX_ANCHORS anchors (libyaml's loader
 * compares each with all earlier ones), before yaml_parser_load builds it.  The scanner keeps
 * one simple-key slot per open flow collection and visits all of them for
 * each token, so a file of '[' costs depth x tokens; stopping at the
 * limit bounds that (the scanner looks at most 1024 characters ahead of
 * the parser).  Syntax errors are left to the load, which reports them. */
static enum gc_status check_depth(const char *file, const char *data, size_t len,
				  char **err)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return err_set(err, GC_ENOMEM, "%s: cannot initialise YAML parser", file);
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	enum gc_status st = GC_OK;
	int depth = 0, done = 0, anchors = 0;
	while (st == GC_OK && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			if (p.error == YAML_MEMORY_ERROR)
				st = err_set(err, GC_ENOMEM, "%s: out of memory", file);
			break;
		}
		if (event_anchor(&ev) && ++anchors > YDOC_MAX_ANCHORS)
			st = err_set(err, GC_EDATA, "%s:%zu: more than %d anchors (&name) in one "
				     "document", file, ev.start_mark.line + 1, YDOC_MAX_ANCHORS);
		switch (ev.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (st == GC_OK && ++depth > YDOC_MAX_DEPTH)
				st = err_set(err, GC_EDATA, "%s:%zu: nested deeper than %d levels "
					     "(the limit for gpucmp's YAML files)", file,
					     ev.start_mark.line + 1, YDOC_MAX_DEPTH);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_DOCUMENT_END_EVENT: /* yaml_parser_load reads the first only */
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return st;
}

/* Whether data is one of the files compiled into this binary (the same
 * pointer, not the same bytes). */
static int is_embedded(const char *data)
{
	for (size_t i = 0; i < embedded_data_count; i++)
		if ((const char *)embedded_data[i].data == data)
			return 1;
	for (size_t i = 0; i < embedded_profiles_count; i++)
		if ((const char *)embedded_profiles[i].data == data)
			return 1;
	return 0;
}

enum gc_status ydoc_load(struct ydoc *d, const char *file, const char *data,
			 size_t len, char **err)
{
	yaml_parser_t p;
	memset(d, 0, sizeof *d);
	d->file = file;
	/* the guard walk is a whole second parse (a third of `list --gpu h100
	 * --limit 0`): the embedded files are ours, loaded by the unit tests,
	 * and need no guard against hostile nesting */
	enum gc_status st = is_embedded(data) ? GC_OK : check_depth(file, data, len, err);
	if (st != GC_OK)
		return st;
	if (!yaml_parser_initialize(&p))
		return err_set(err, GC_ENOMEM, "%s: cannot initialise YAML parser", file);
	yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
	if (!yaml_parser_load(&p, &d->doc)) {
		st = p.error == YAML_MEMORY_ERROR ? GC_ENOMEM : GC_EDATA;
		err_set(err, st, "%s:%zu: %s%s%s", file, p.problem_mark.line + 1,
			p.problem ? p.problem : "invalid YAML",
			p.context ? " " : "", p.context ? p.context : "");
		yaml_parser_delete(&p);
		return st;
	}
	yaml_parser_delete(&p);
	d->loaded = 1;
	if (!yaml_document_get_root_node(&d->doc)) {
		ydoc_free(d);
		return err_set(err, GC_EDATA, "%s: empty document", file);
	}
	return GC_OK;
}

void ydoc_free(struct ydoc *d)
{
	if (d->loaded)
		yaml_document_delete(&d->doc);
	d->loaded = 0;
}

yaml_node_t *ydoc_root(struct ydoc *d)
{
	return yaml_document_get_root_node(&d->doc);
}

yaml_node_t *ydoc_node(struct ydoc *d, int index)
{
	return yaml_document_get_node(&d->doc, index);
}

size_t ydoc_line(const yaml_node_t *n)
{
	return n ? n->start_mark.line + 1 : 0;
}

const char *ydoc_str(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)n->data.scalar.value;
}

int ydoc_is_null(const yaml_node_t *n)
{
	const char *s = ydoc_str(n);
	if (!s || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	return !*s || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	       strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

yaml_node_t *ydoc_get(struct ydoc *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		const char *k = ydoc_str(ydoc_node(d, p->key));
		if (k && strcmp(k, key) == 0)
			return ydoc_node(d, p->value);
	}
	return NULL;
}

enum gc_status ydoc_list(struct ydoc *d, yaml_node_t *map, const char *key, yaml_node_t **list,
			 size_t *n, char **err)
{
	yaml_node_t *l = ydoc_get(d, map, key);
	*list = NULL;
	*n = 0;
	if (!l || l->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, l ? l : map, err, "'%s' must be a list", key);
	*list = l;
	*n = (size_t)(l->data.sequence.items.top - l->data.sequence.items.start);
	return GC_OK;
}

yaml_node_t *ydoc_item(struct ydoc *d, yaml_node_t *list, size_t i)
{
	return ydoc_node(d, list->data.sequence.items.start[i]);
}

enum gc_status ydoc_dup_str(struct ydoc *d, yaml_node_t *map, const char *key,
			    int required, char **out, char **err)
{
	yaml_node_t *n = ydoc_get(d, map, key);
	if (!n)
		return required ? ydoc_error(d, map, err, "missing '%s'", key) : GC_OK;
	const char *s = ydoc_str(n);
	if (!s || !*s || ydoc_is_null(n))
		return ydoc_error(d, n, err, "'%s' must be non-empty text", key);
	*out = strdup(s);
	return *out ? GC_OK : err_set(err, GC_ENOMEM, "out of memory");
}

enum gc_status ydoc_error(struct ydoc *d, const yaml_node_t *n, char **err,
			  const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(err, GC_EDATA, "%s:%zu: %s", d->file, ydoc_line(n), msg);
}

enum gc_status ydoc_check_keys(struct ydoc *d, yaml_node_t *map,
			       const char *const *allowed, char **err)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return ydoc_error(d, map, err, "expected a mapping");
	/* the duplicate check below is quadratic */
	if (map->data.mapping.pairs.top - map->data.mapping.pairs.start > YDOC_MAX_KEYS)
		return ydoc_error(d, map, err, "more than %d keys in one mapping", YDOC_MAX_KEYS);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *kn = ydoc_node(d, p->key);
		const char *k = ydoc_str(kn);
		if (!k)
			return ydoc_error(d, kn, err, "keys must be plain strings");
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
			const char *k2 = ydoc_str(ydoc_node(d, q->key));
			if (k2 && strcmp(k, k2) == 0)
				return ydoc_error(d, kn, err, "duplicate key '%s'", k);
		}
		if (!allowed)
			continue;
		int ok = 0;
		for (const char *const *a = allowed; *a && !ok; a++)
			ok = strcmp(*a, k) == 0;
		if (!ok) {
			struct suggest sg;
			suggest_init(&sg, k);
			for (const char *const *a = allowed; *a; a++)
				suggest_try(&sg, *a);
			char safe[128];
			str_sanitize(safe, sizeof safe, k);
			const char *best = suggest_best(&sg);
			if (best)
				return ydoc_error(d, kn, err,
						  "unknown key '%s'; did you mean '%s'?", safe,
						  best);
			return ydoc_error(d, kn, err, "unknown key '%s'", safe);
		}
	}
	return GC_OK;
}
