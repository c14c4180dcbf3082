/* retired.c - read data/retired.yaml and say whether an offer is retired. */
#include "gpucmp/retired.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/catalog.h"
#include "gpucmp/embedded.h"
#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

struct rule {
	char *provider;
	char **skus; /* globs (retired) or one exact name (alias) */
	size_t nskus;
	long retired; /* days; -1 for an alias */
	char **regions; /* only these regions (exact, case-insensitive); none: all */
	size_t nregions;
	int except; /* 1: every region but `regions` */
};

struct retired_table {
	struct rule *rules;
	size_t n;
};

static const char *const top_keys[] = {"version", "retired", "aliases", NULL};
static const char *const retired_keys[] = {"provider", "skus", "retired", "regions",
					   "except_regions", "source", "checked", "note", NULL};
static const char *const alias_keys[] = {"provider", "sku", "same_as", "source",
					 "checked", "note", NULL};

int retired_glob(const char *p, const char *s)
{
	const char *star = NULL, *back = NULL;
	while (*s) {
		if (*p == '*') {
			star = p++;
			back = s;
		} else if (*p && (*p == '?' || tolower((unsigned char)*p) ==
							tolower((unsigned char)*s))) {
			p++;
			s++;
		} else if (star) {
			p = star + 1;
			s = ++back;
		} else {
			return 0;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/* a SKU name or glob: printable, no space, no '[' (only '*' and '?') */
static int sku_form(const char *s, int glob)
{
	if (!*s || strlen(s) > 128)
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c <= ' ' || c >= 0x7f || c == '[' || c == ']' || c == '\\')
			return 0;
		if (!glob && (c == '*' || c == '?'))
			return 0;
	}
	return 1;
}

static enum gc_status text(struct ydoc *d, yaml_node_t *m, const char *key, int required,
			   const char **out, char **err)
{
	yaml_node_t *v = ydoc_get(d, m, key);
	*out = NULL;
	if (!v)
		return required ? ydoc_error(d, m, err, "entry has no '%s'", key) : GC_OK;
	const char *s = ydoc_str(v);
	if (!s || !*s || ydoc_is_null(v))
		return ydoc_error(d, v, err, "'%s' must be a non-empty text", key);
	*out = s;
	return GC_OK;
}

static enum gc_status date(struct ydoc *d, yaml_node_t *m, const char *key, long *days,
			   char **err)
{
	const char *s;
	enum gc_status st = text(d, m, key, 1, &s, err);
	if (st != GC_OK)
		return st;
	*days = strlen(s) == 10 ? str_date_days(s) : -1;
	if (*days < 0)
		return ydoc_error(d, ydoc_get(d, m, key), err, "'%s' must be a date YYYY-MM-DD",
				  key);
	return GC_OK;
}

/* provider, source and checked: common to both sections */
static enum gc_status common(struct ydoc *d, yaml_node_t *m, const char **provider, char **err)
{
	const char *src, *note;
	long checked;
	enum gc_status st = text(d, m, "provider", 1, provider, err);
	if (st == GC_OK && !catalog_has_profile(*provider))
		st = ydoc_error(d, ydoc_get(d, m, "provider"), err,
				"unknown provider '%s' (no providers/%s.yaml)", *provider,
				*provider);
	if (st == GC_OK)
		st = text(d, m, "source", 1, &src, err);
	if (st == GC_OK && strncmp(src, "https://", 8) != 0)
		st = ydoc_error(d, ydoc_get(d, m, "source"), err,
				"'source' must be the https:// address of the announcement");
	if (st == GC_OK)
		st = date(d, m, "checked", &checked, err);
	if (st == GC_OK)
		st = text(d, m, "note", 0, &note, err);
	return st;
}

static enum gc_status add_rule(struct retired_table *t, const char *provider, long retired,
			       struct rule **out)
{
	struct rule *r = realloc(t->rules, (t->n + 1) * sizeof *r);
	if (!r)
		return GC_ENOMEM;
	t->rules = r;
	r = &t->rules[t->n];
	memset(r, 0, sizeof *r);
	r->retired = retired;
	r->provider = strdup(provider);
	if (!r->provider)
		return GC_ENOMEM;
	t->n++;
	*out = r;
	return GC_OK;
}

static enum gc_status add_str(char ***list, size_t *n, const char *s)
{
	char **v = realloc(*list, (*n + 1) * sizeof *v);
	if (!v)
		return GC_ENOMEM;
	*list = v;
	if (!(v[*n] = strdup(s)))
		return GC_ENOMEM;
	(*n)++;
	return GC_OK;
}

static enum gc_status add_sku(struct rule *r, const char *s)
{
	return add_str(&r->skus, &r->nskus, s);
}

/* `regions` or `except_regions` (not both): exact region names */
static enum gc_status read_regions(struct ydoc *d, yaml_node_t *m, struct rule *r, char **err)
{
	int has = ydoc_get(d, m, "regions") != NULL,
	    except = ydoc_get(d, m, "except_regions") != NULL;
	if (!has && !except)
		return GC_OK;
	if (has && except)
		return ydoc_error(d, m, err, "give 'regions' or 'except_regions', not both");
	yaml_node_t *list;
	size_t n;
	enum gc_status st = ydoc_list(d, m, has ? "regions" : "except_regions", &list, &n, err);
	if (st == GC_OK && n == 0)
		st = ydoc_error(d, list, err, "a region list must name at least one region");
	r->except = except;
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		yaml_node_t *v = ydoc_item(d, list, i);
		const char *s = v ? ydoc_str(v) : NULL;
		if (!s || ydoc_is_null(v) || !sku_form(s, 0))
			st = ydoc_error(d, v ? v : list, err,
					"each region must be an exact region name");
		else if (add_str(&r->regions, &r->nregions, s) != GC_OK)
			st = err_set(err, GC_ENOMEM, "out of memory");
	}
	return st;
}

static enum gc_status read_retired(struct ydoc *d, yaml_node_t *m, struct retired_table *t,
				   char **err)
{
	const char *provider;
	long when;
	yaml_node_t *list;
	size_t n;
	struct rule *r = NULL;
	if (m->type != YAML_MAPPING_NODE)
		return ydoc_error(d, m, err, "each retired entry must be a mapping");
	enum gc_status st = ydoc_check_keys(d, m, retired_keys, err);
	if (st == GC_OK)
		st = common(d, m, &provider, err);
	if (st == GC_OK)
		st = date(d, m, "retired", &when, err);
	if (st == GC_OK)
		st = ydoc_list(d, m, "skus", &list, &n, err);
	if (st == GC_OK && n == 0)
		st = ydoc_error(d, list, err, "'skus' must list at least one SKU glob");
	if (st == GC_OK && add_rule(t, provider, when, &r) != GC_OK)
		st = err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		yaml_node_t *v = ydoc_item(d, list, i);
		const char *s = v ? ydoc_str(v) : NULL;
		if (!s || ydoc_is_null(v) || !sku_form(s, 1))
			st = ydoc_error(d, v ? v : list, err,
					"each SKU glob must be a name with only '*' and '?' as "
					"wildcards (no spaces, no '[')");
		else if (add_sku(r, s) != GC_OK)
			st = err_set(err, GC_ENOMEM, "out of memory");
	}
	if (st == GC_OK)
		st = read_regions(d, m, r, err);
	return st;
}

static enum gc_status read_alias(struct ydoc *d, yaml_node_t *m, struct retired_table *t,
				 char **err)
{
	const char *provider, *sku, *same;
	struct rule *r = NULL;
	if (m->type != YAML_MAPPING_NODE)
		return ydoc_error(d, m, err, "each alias must be a mapping");
	enum gc_status st = ydoc_check_keys(d, m, alias_keys, err);
	if (st == GC_OK)
		st = common(d, m, &provider, err);
	if (st == GC_OK)
		st = text(d, m, "sku", 1, &sku, err);
	if (st == GC_OK)
		st = text(d, m, "same_as", 1, &same, err);
	if (st == GC_OK && (!sku_form(sku, 0) || !sku_form(same, 0)))
		st = ydoc_error(d, m, err, "'sku' and 'same_as' must be exact SKU names");
	if (st == GC_OK && strcasecmp(sku, same) == 0)
		st = ydoc_error(d, m, err, "'same_as' must name another SKU");
	if (st == GC_OK && add_rule(t, provider, -1, &r) != GC_OK)
		st = err_set(err, GC_ENOMEM, "out of memory");
	if (st == GC_OK && add_sku(r, sku) != GC_OK)
		st = err_set(err, GC_ENOMEM, "out of memory");
	return st;
}

enum gc_status retired_load(struct retired_table **out, const char *file, const char *data,
			    size_t len, char **err)
{
	struct ydoc d;
	*out = NULL;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st != GC_OK)
		return st;
	struct retired_table *t = calloc(1, sizeof *t);
	yaml_node_t *root = ydoc_root(&d);
	if (!t)
		st = err_set(err, GC_ENOMEM, "out of memory");
	else if (!root || root->type != YAML_MAPPING_NODE)
		st = ydoc_error(&d, root, err, "expected a mapping with 'version' and 'retired'");
	if (st == GC_OK)
		st = ydoc_check_keys(&d, root, top_keys, err);
	if (st == GC_OK) {
		yaml_node_t *v = ydoc_get(&d, root, "version");
		const char *s = v ? ydoc_str(v) : NULL;
		if (!s || strcmp(s, "1") != 0)
			st = ydoc_error(&d, v ? v : root, err, "'version' must be 1");
	}
	yaml_node_t *list;
	size_t n;
	if (st == GC_OK)
		st = ydoc_list(&d, root, "retired", &list, &n, err);
	for (size_t i = 0; st == GC_OK && i < n; i++)
		st = read_retired(&d, ydoc_item(&d, list, i), t, err);
	if (st == GC_OK && ydoc_get(&d, root, "aliases")) {
		st = ydoc_list(&d, root, "aliases", &list, &n, err);
		for (size_t i = 0; st == GC_OK && i < n; i++)
			st = read_alias(&d, ydoc_item(&d, list, i), t, err);
	}
	ydoc_free(&d);
	if (st != GC_OK) {
		retired_free(t);
		return st;
	}
	*out = t;
	return GC_OK;
}

void retired_free(struct retired_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		for (size_t j = 0; j < t->rules[i].nskus; j++)
			free(t->rules[i].skus[j]);
		free(t->rules[i].skus);
		for (size_t j = 0; j < t->rules[i].nregions; j++)
			free(t->rules[i].regions[j]);
		free(t->rules[i].regions);
		free(t->rules[i].provider);
	}
	free(t->rules);
	free(t);
}

size_t retired_count(const struct retired_table *t)
{
	return t ? t->n : 0;
}

static int in_regions(const struct rule *r, const char *region)
{
	if (!r->nregions)
		return 1;
	int listed = 0;
	for (size_t i = 0; i < r->nregions && !listed; i++)
		listed = region && strcasecmp(r->regions[i], region) == 0;
	return r->except ? !listed : listed;
}

enum retired_verdict retired_check(const struct retired_table *t, const char *provider,
				   const char *sku, const char *region, long today)
{
	if (!t || !provider || !sku)
		return RETIRED_KEEP;
	for (size_t i = 0; i < t->n; i++) {
		const struct rule *r = &t->rules[i];
		if (strcmp(r->provider, provider) != 0)
			continue;
		if (r->retired < 0) {
			if (strcasecmp(r->skus[0], sku) == 0)
				return RETIRED_ALIAS;
			continue;
		}
		if (r->retired > today || !in_regions(r, region))
			continue;
		for (size_t j = 0; j < r->nskus; j++)
			if (retired_glob(r->skus[j], sku))
				return RETIRED_GONE;
	}
	return RETIRED_KEEP;
}

/* The embedded table: loaded on first use under a lock, then read without
 * one (`ready` is set, with release order, only after the table is whole).
 * A load that ran out of memory is tried again at the next call, so one
 * failed allocation fails one row's caller, not every later one. */
static pthread_mutex_t embedded_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int embedded_ready;
static struct retired_table *embedded_table;

static void free_embedded(void)
{
	retired_free(embedded_table);
	embedded_table = NULL;
}

/* Load it if no call has; GC_ENOMEM when this try ran out of memory. */
static enum gc_status load_embedded(void)
{
	enum gc_status st = GC_OK;
	pthread_mutex_lock(&embedded_lock);
	if (!atomic_load_explicit(&embedded_ready, memory_order_relaxed)) {
		const struct embedded_file *f = embedded_find("data/retired.yaml");
		/* tests/unit/test_retired.c holds the embedded file valid; a
		 * broken one drops nothing rather than everything */
		st = f ? retired_load(&embedded_table, f->name, (const char *)f->data, f->len,
				      NULL)
		       : GC_EDATA;
		if (st == GC_OK)
			atexit(free_embedded);
		if (st != GC_ENOMEM)
			atomic_store_explicit(&embedded_ready, 1, memory_order_release);
	}
	pthread_mutex_unlock(&embedded_lock);
	return st == GC_ENOMEM ? st : GC_OK;
}

enum retired_verdict offer_retired(const char *provider, const char *sku, const char *region)
{
	if (!atomic_load_explicit(&embedded_ready, memory_order_acquire) &&
	    load_embedded() != GC_OK)
		return RETIRED_ERROR; /* not "keep": a row it would drop must not pass */
	/* most providers have no entry: skip reading the date for each row */
	const struct retired_table *t = embedded_table;
	size_t i = 0;
	while (t && provider && i < t->n && strcmp(t->rules[i].provider, provider) != 0)
		i++;
	if (!t || !provider || i == t->n)
		return RETIRED_KEEP;
	return retired_check(t, provider, sku, region, catalog_today());
}
