/* insttype.c - per-SKU GPU and interconnect facts. */
#include "gpucmp/insttype.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

struct insttype_table {
	struct insttype *items;
	size_t n;
};

void insttype_free(struct insttype_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free(t->items[i].provider);
		free(t->items[i].match);
		free(t->items[i].gpu);
		free(t->items[i].rdma);
		free(t->items[i].source);
	}
	free(t->items);
	free(t);
}

static enum gc_status yes_no(struct ydoc *d, yaml_node_t *m, const char *key,
			     int *out, char **err)
{
	yaml_node_t *n = ydoc_get(d, m, key);
	*out = -1;
	if (!n)
		return GC_OK;
	const char *s = ydoc_str(n);
	if (s && strcmp(s, "yes") == 0)
		*out = 1;
	else if (s && strcmp(s, "no") == 0)
		*out = 0;
	else
		return ydoc_error(d, n, err, "'%s' must be yes or no", key);
	return GC_OK;
}

static enum gc_status number(struct ydoc *d, yaml_node_t *m, const char *key,
			     double *out, char **err)
{
	yaml_node_t *n = ydoc_get(d, m, key);
	*out = 0;
	if (!n)
		return GC_OK;
	if (str_to_double(ydoc_str(n), out) != 0 || *out <= 0)
		return ydoc_error(d, n, err, "'%s' must be a positive number", key);
	return GC_OK;
}

static enum gc_status load_entry(struct ydoc *d, yaml_node_t *m, struct insttype *e,
				 char **err)
{
	static const char *const keys[] = {"provider", "match", "gpu", "gpu_count",
					   "infiniband", "rdma", "nvlink",
					   "node_bandwidth_gbps", "source", "note", NULL};
	enum gc_status st = ydoc_check_keys(d, m, keys, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "provider", 1, &e->provider, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "match", 1, &e->match, err);
	if (st == GC_OK) /* fnmatch() has no portable case folding: match lowercased */
		for (char *p = e->match; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "gpu", 0, &e->gpu, err);
	if (st == GC_OK)
		st = number(d, m, "gpu_count", &e->gpu_count, err);
	if (st == GC_OK)
		st = yes_no(d, m, "infiniband", &e->infiniband, err);
	if (st == GC_OK)
		st = yes_no(d, m, "nvlink", &e->nvlink, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "rdma", 0, &e->rdma, err);
	if (st == GC_OK && e->rdma && strcmp(e->rdma, "ib") != 0 &&
	    strcmp(e->rdma, "roce") != 0 && strcmp(e->rdma, "no") != 0)
		st = ydoc_error(d, ydoc_get(d, m, "rdma"), err, "'rdma' must be ib, roce or no");
	if (st == GC_OK)
		st = number(d, m, "node_bandwidth_gbps", &e->node_bandwidth_gbps, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "source", 1, &e->source, err);
	if (st == GC_OK && strncmp(e->source, "https://", 8) != 0 &&
	    strncmp(e->source, "http://", 7) != 0)
		st = ydoc_error(d, ydoc_get(d, m, "source"), err, "source must be an http(s) URL");
	return st;
}

enum gc_status insttype_load(struct insttype_table **out, const char *file,
			     const char *data, size_t len, char **err)
{
	static const char *const top[] = {"version", "types", NULL};
	struct ydoc d;
	*out = NULL;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st != GC_OK)
		return st;
	struct insttype_table *t = calloc(1, sizeof *t);
	yaml_node_t *root = ydoc_root(&d), *list = NULL;
	if (!t) {
		st = err_set(err, GC_ENOMEM, "out of memory");
		goto out;
	}
	size_t cnt = 0;
	st = ydoc_check_keys(&d, root, top, err);
	if (st == GC_OK)
		st = ydoc_list(&d, root, "types", &list, &cnt, err);
	if (st != GC_OK)
		goto out;
	t->items = calloc(cnt ? cnt : 1, sizeof *t->items);
	if (!t->items) {
		st = err_set(err, GC_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < cnt && st == GC_OK; i++) {
		t->n++;
		st = load_entry(&d, ydoc_item(&d, list, i), &t->items[i], err);
	}
out:
	ydoc_free(&d);
	if (st != GC_OK) {
		insttype_free(t);
		return st;
	}
	*out = t;
	return GC_OK;
}

static void lower_copy(char *dst, size_t n, const char *s)
{
	size_t i = 0;
	for (; s[i] && i + 1 < n; i++)
		dst[i] = (char)tolower((unsigned char)s[i]);
	dst[i] = '\0';
}

/* The SKU is lowercased like the patterns were at load time. */
const struct insttype *insttype_lookup(const struct insttype_table *t,
				       const char *provider, const char *sku)
{
	char lsku[256];
	if (!t || !sku)
		return NULL;
	lower_copy(lsku, sizeof lsku, sku);
	for (size_t i = 0; i < t->n; i++) {
		if (strcmp(t->items[i].provider, provider) != 0)
			continue;
		if (fnmatch(t->items[i].match, lsku, 0) == 0) /* lowercased when loaded */
			return &t->items[i];
	}
	return NULL;
}

size_t insttype_count(const struct insttype_table *t)
{
	return t ? t->n : 0;
}

const struct insttype *insttype_at(const struct insttype_table *t, size_t i)
{
	return t && i < t->n ? &t->items[i] : NULL;
}
