/* insttype.c - per-SKU GPU and interconnect facts. */
#include "gpucmp/insttype.h"

#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/field.h"
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
		free(t->items[i].k8s);
		free(t->items[i].source);
		free(t->items[i].k8s_source);
	}
	free(t->items);
	free(t);
}

static const char *const rdma_values[] = {"ib", "roce", "efa", "no", NULL};

static int is_url(const char *s)
{
	return s && (strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0);
}

static int one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
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
					   "node_bandwidth_gbps", "k8s", "mig", "source",
					   "k8s_source", "checked", "note", NULL};
	enum gc_status st = ydoc_check_keys(d, m, keys, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "provider", 1, &e->provider, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "match", 1, &e->match, err);
	if (st == GC_OK) /* fnmatch() has no portable case folding: match lowercased */
		for (char *p = e->match; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	/* the cache's view matches the same globs with SQLite GLOB: keep to
	 * the syntax both read alike (no escapes, no negated sets) */
	if (st == GC_OK && (strchr(e->match, '\\') || strstr(e->match, "[!") ||
			    strstr(e->match, "[^")))
		st = ydoc_error(d, ydoc_get(d, m, "match"), err, "'match' may use only *, ? "
				"and [set] (no escapes, no negated sets)");
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
	if (st == GC_OK && e->rdma && !one_of(e->rdma, rdma_values))
		st = ydoc_error(d, ydoc_get(d, m, "rdma"), err,
				"'rdma' must be ib, roce, efa or no");
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "k8s", 0, &e->k8s, err);
	/* an override is an offer's k8s value: the registry's list */
	if (st == GC_OK && e->k8s && !one_of(e->k8s, field_find("k8s")->values))
		st = ydoc_error(d, ydoc_get(d, m, "k8s"), err,
				"'k8s' must be managed, join, both, none or unknown");
	if (st == GC_OK)
		st = yes_no(d, m, "mig", &e->mig, err);
	if (st == GC_OK && e->mig == 1) /* the GPU table says whether a GPU can */
		st = ydoc_error(d, ydoc_get(d, m, "mig"), err,
				"'mig' can only be no (a provider forbidding MIG on a type)");
	if (st == GC_OK)
		st = number(d, m, "node_bandwidth_gbps", &e->node_bandwidth_gbps, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "source", 1, &e->source, err);
	if (st == GC_OK && !is_url(e->source))
		st = ydoc_error(d, ydoc_get(d, m, "source"), err, "source must be an http(s) URL");
	/* k8s usually comes from another page (the provider's Kubernetes
	 * docs) than the SKU's facts: it names its own */
	yaml_node_t *n = ydoc_get(d, m, "k8s_source");
	if (st == GC_OK && n && !is_url(ydoc_str(n)))
		st = ydoc_error(d, n, err, "k8s_source must be an http(s) URL");
	if (st == GC_OK && e->k8s && !n)
		st = ydoc_error(d, ydoc_get(d, m, "k8s"), err, "'k8s' needs a k8s_source");
	if (st == GC_OK && n)
		st = ydoc_dup_str(d, m, "k8s_source", 1, &e->k8s_source, err);
	n = ydoc_get(d, m, "checked");
	const char *day = n ? ydoc_str(n) : NULL;
	if (st == GC_OK && n && (!day || strlen(day) != 10 || str_date_days(day) < 0))
		st = ydoc_error(d, n, err, "'checked' must be a date, YYYY-MM-DD");
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
