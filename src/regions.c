/* regions.c - the region table: provider regions placed in countries,
 * countries in continents and geos (data/regions.yaml). */
#include "gpucmp/regions.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/field.h"
#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

/* The continents: the field registry's continent values but unknown. */
static const char *continent_name(const char *name)
{
	const char *const *v = field_find("continent")->values;
	for (; name && *v; v++)
		if (strcmp(*v, name) == 0 && strcmp(*v, "unknown") != 0)
			return *v;
	return NULL;
}

struct region_table {
	struct region_country countries[26 * 26]; /* by code; code[0] == 0: none */
	struct region_country *list;              /* the known ones, in code order */
	size_t ncountries;
	struct region_place *places;
	size_t nplaces, cap;
	struct region_source *sources;
	size_t nsources;
	struct region_unplaced *unplaced; /* listed on purpose, with a reason */
	size_t nunplaced, ucap;
};

void regions_free(struct region_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nplaces; i++)
		free(t->places[i].region);
	for (size_t i = 0; i < t->nunplaced; i++) {
		free(t->unplaced[i].region);
		free(t->unplaced[i].reason);
	}
	free(t->unplaced);
	for (size_t i = 0; i < t->nsources; i++) {
		free(t->sources[i].provider);
		free(t->sources[i].source);
		free(t->sources[i].checked);
	}
	free(t->places);
	free(t->sources);
	free(t->list);
	free(t);
}

/* The slot of a two-letter code (any case), or -1. */
static int slot(const char *code)
{
	if (!code || !isalpha((unsigned char)code[0]) || !isalpha((unsigned char)code[1]) ||
	    code[2])
		return -1;
	return (toupper((unsigned char)code[0]) - 'A') * 26 + toupper((unsigned char)code[1]) - 'A';
}

const struct region_country *regions_country(const struct region_table *t, const char *code)
{
	int i = slot(code);
	return t && i >= 0 && t->countries[i].code[0] ? &t->countries[i] : NULL;
}

static int is_upper_code(const char *s)
{
	return s && isupper((unsigned char)s[0]) && isupper((unsigned char)s[1]) && !s[2];
}

static const char *geo_of(const char *code, const char *continent, int middle_east)
{
	if (strcmp(code, "US") == 0)
		return "us";
	if (strcmp(continent, "north-america") == 0 || strcmp(continent, "south-america") == 0)
		return "americas";
	if (strcmp(continent, "europe") == 0)
		return "eu";
	if (strcmp(continent, "africa") == 0 || middle_east)
		return "mea";
	return "apac";
}

/* One continent's list of codes. */
static enum gc_status load_continent(struct ydoc *d, struct region_table *t, yaml_node_t *kn,
				     yaml_node_t *list, char **err)
{
	const char *name = ydoc_str(kn), *cont = continent_name(name);
	if (!cont)
		return ydoc_error(d, kn, err, "unknown continent '%s'", name ? name : "");
	if (list->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, list, err, "'%s' must be a list of country codes", cont);
	for (yaml_node_item_t *it = list->data.sequence.items.start;
	     it < list->data.sequence.items.top; it++) {
		yaml_node_t *n = ydoc_node(d, *it);
		const char *code = ydoc_str(n);
		if (!is_upper_code(code))
			return ydoc_error(d, n, err,
					  "a country is two capital letters (ISO 3166-1)");
		struct region_country *c = &t->countries[slot(code)];
		if (c->code[0])
			return ydoc_error(d, n, err, "country %s is listed twice", code);
		memcpy(c->code, code, 3);
		c->continent = cont;
		t->ncountries++;
	}
	return GC_OK;
}

/* The Middle East list: countries of Asia whose geo is mea. */
static enum gc_status load_middle_east(struct ydoc *d, struct region_table *t, yaml_node_t *m,
				       char **err)
{
	yaml_node_t *list;
	size_t n;
	enum gc_status st = ydoc_list(d, m, "middle_east", &list, &n, err);
	for (size_t i = 0; i < n && st == GC_OK; i++) {
		yaml_node_t *it = ydoc_item(d, list, i);
		int k = slot(ydoc_str(it));
		struct region_country *c =
			k >= 0 && t->countries[k].code[0] ? &t->countries[k] : NULL;
		if (!c || strcmp(c->continent, "asia") != 0)
			return ydoc_error(d, it, err, "middle_east lists countries of asia only");
		c->geo = "mea";
	}
	return st;
}

static enum gc_status check_source(struct ydoc *d, yaml_node_t *m, char **err)
{
	yaml_node_t *n = ydoc_get(d, m, "source");
	const char *s = n ? ydoc_str(n) : NULL;
	if (!s || (strncmp(s, "https://", 8) != 0 && strncmp(s, "http://", 7) != 0))
		return ydoc_error(d, n ? n : m, err, "'source' must be an http(s) URL");
	n = ydoc_get(d, m, "checked");
	s = n ? ydoc_str(n) : NULL;
	if (!s || strlen(s) != 10 || str_date_days(s) < 0)
		return ydoc_error(d, n ? n : m, err, "'checked' must be a date, YYYY-MM-DD");
	return GC_OK;
}

static enum gc_status load_countries(struct ydoc *d, struct region_table *t, yaml_node_t *m,
				     char **err)
{
	static const char *const keys[] = {"source", "checked", "continents", "middle_east",
					   "middle_east_source", "note", NULL};
	enum gc_status st = ydoc_check_keys(d, m, keys, err);
	if (st == GC_OK)
		st = check_source(d, m, err);
	yaml_node_t *conts = ydoc_get(d, m, "continents");
	if (st == GC_OK)
		st = ydoc_check_keys(d, conts, NULL, err);
	for (yaml_node_pair_t *p = st == GC_OK ? conts->data.mapping.pairs.start : NULL;
	     p && p < conts->data.mapping.pairs.top && st == GC_OK; p++)
		st = load_continent(d, t, ydoc_node(d, p->key), ydoc_node(d, p->value), err);
	if (st == GC_OK)
		st = load_middle_east(d, t, m, err);
	if (st == GC_OK && !(t->list = calloc(t->ncountries + 1, sizeof *t->list)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	size_t k = 0;
	for (size_t i = 0; i < 26 * 26 && st == GC_OK; i++) {
		struct region_country *c = &t->countries[i];
		if (!c->code[0])
			continue;
		c->geo = geo_of(c->code, c->continent, c->geo != NULL);
		t->list[k++] = *c;
	}
	return st;
}

static enum gc_status add_place(struct region_table *t, const char *provider, const char *region,
				const char *code, char **err)
{
	if (t->nplaces == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct region_place *p = realloc(t->places, cap * sizeof *p);
		if (!p)
			return err_set(err, GC_ENOMEM, "out of memory");
		t->places = p;
		t->cap = cap;
	}
	struct region_place *p = &t->places[t->nplaces];
	if (!(p->region = strdup(region)))
		return err_set(err, GC_ENOMEM, "out of memory");
	p->provider = provider;
	memcpy(p->code, code, 3);
	t->nplaces++;
	return GC_OK;
}

static enum gc_status add_unplaced(struct region_table *t, const char *provider,
				   const char *region, const char *reason, char **err)
{
	if (t->nunplaced == t->ucap) {
		size_t cap = t->ucap ? t->ucap * 2 : 32;
		struct region_unplaced *u = realloc(t->unplaced, cap * sizeof *u);
		if (!u)
			return err_set(err, GC_ENOMEM, "out of memory");
		t->unplaced = u;
		t->ucap = cap;
	}
	struct region_unplaced *u = &t->unplaced[t->nunplaced];
	u->provider = provider;
	u->region = strdup(region);
	u->reason = strdup(reason);
	t->nunplaced++;
	if (!u->region || !u->reason)
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

/* One pair of a provider's `regions` (placed: NAME: CC) or `unplaced`
 * (NAME: REASON) map; a region placed or unplaced twice is refused. */
static enum gc_status load_pair(struct ydoc *d, struct region_table *t, const char *provider,
				int placed, yaml_node_t *kn, yaml_node_t *vn, char **err)
{
	const char *region = ydoc_str(kn), *v = ydoc_str(vn);
	if (placed && (!regions_country(t, v) || !is_upper_code(v)))
		return ydoc_error(d, vn, err, "'%s' is not a country of the countries table",
				  v ? v : "");
	if (!placed && (!v || !*v))
		return ydoc_error(d, vn, err, "an unplaced region needs its reason");
	if (regions_lookup(t, provider, region) || regions_unplaced_reason(t, provider, region))
		return ydoc_error(d, kn, err, "region '%s' is placed twice (names compare "
				  "without case)", region);
	return placed ? add_place(t, provider, region, v, err)
		      : add_unplaced(t, provider, region, v, err);
}

/* regions: {NAME: CC, ...} (placed 1) or unplaced: {NAME: REASON, ...},
 * regions left unknown on purpose, each with why. */
static enum gc_status load_map(struct ydoc *d, struct region_table *t, yaml_node_t *m,
			       const char *provider, int placed, char **err)
{
	yaml_node_t *map = ydoc_get(d, m, placed ? "regions" : "unplaced");
	if (!map)
		return GC_OK;
	enum gc_status st = ydoc_check_keys(d, map, NULL, err);
	for (yaml_node_pair_t *p = st == GC_OK ? map->data.mapping.pairs.start : NULL;
	     p && p < map->data.mapping.pairs.top && st == GC_OK; p++)
		st = load_pair(d, t, provider, placed, ydoc_node(d, p->key),
			       ydoc_node(d, p->value), err);
	return st;
}

static enum gc_status load_provider(struct ydoc *d, struct region_table *t, yaml_node_t *m,
				    struct region_source *s, char **err)
{
	static const char *const keys[] = {"provider", "source", "checked", "names_country",
					   "regions", "unplaced", "note", NULL};
	enum gc_status st = ydoc_check_keys(d, m, keys, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "provider", 1, &s->provider, err);
	for (size_t i = 0; st == GC_OK && t->sources + i < s; i++)
		if (strcmp(t->sources[i].provider, s->provider) == 0)
			st = ydoc_error(d, m, err, "provider '%s' has two blocks", s->provider);
	if (st == GC_OK)
		st = check_source(d, m, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "source", 1, &s->source, err);
	if (st == GC_OK)
		st = ydoc_dup_str(d, m, "checked", 1, &s->checked, err);
	yaml_node_t *n = ydoc_get(d, m, "names_country");
	const char *v = n ? ydoc_str(n) : "no";
	if (st == GC_OK && (!v || (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0)))
		st = ydoc_error(d, n, err, "'names_country' must be yes or no");
	s->names_country = st == GC_OK && strcmp(v, "yes") == 0;
	if (st == GC_OK && !s->names_country && !ydoc_get(d, m, "regions") &&
	    !ydoc_get(d, m, "unplaced"))
		st = ydoc_error(d, m, err,
				"a provider block needs 'regions', 'unplaced' or names_country");
	if (st == GC_OK)
		st = load_map(d, t, m, s->provider, 1, err);
	if (st == GC_OK)
		st = load_map(d, t, m, s->provider, 0, err);
	return st;
}

static enum gc_status load_doc(struct ydoc *d, struct region_table *t, char **err)
{
	static const char *const top[] = {"version", "countries", "providers", NULL};
	yaml_node_t *root = ydoc_root(d), *list = NULL;
	size_t n = 0;
	enum gc_status st = ydoc_check_keys(d, root, top, err);
	yaml_node_t *countries = st == GC_OK ? ydoc_get(d, root, "countries") : NULL;
	if (st == GC_OK && !countries)
		st = ydoc_error(d, root, err, "'countries' is missing");
	if (st == GC_OK)
		st = load_countries(d, t, countries, err);
	if (st == GC_OK)
		st = ydoc_list(d, root, "providers", &list, &n, err);
	if (st == GC_OK && !(t->sources = calloc(n ? n : 1, sizeof *t->sources)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < n && st == GC_OK; i++) {
		t->nsources++;
		st = load_provider(d, t, ydoc_item(d, list, i), &t->sources[i], err);
	}
	return st;
}

enum gc_status regions_load(struct region_table **out, const char *file, const char *data,
			    size_t len, char **err)
{
	struct ydoc d;
	*out = NULL;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st != GC_OK)
		return st;
	struct region_table *t = calloc(1, sizeof *t);
	st = t ? load_doc(&d, t, err) : err_set(err, GC_ENOMEM, "out of memory");
	ydoc_free(&d);
	if (st != GC_OK) {
		regions_free(t);
		return st;
	}
	*out = t;
	return GC_OK;
}

static const struct region_source *source_of(const struct region_table *t, const char *provider)
{
	for (size_t i = 0; i < t->nsources; i++)
		if (t->sources[i].provider && strcmp(t->sources[i].provider, provider) == 0)
			return &t->sources[i];
	return NULL;
}

static int upper2(const char *s)
{
	return isupper((unsigned char)s[0]) && isupper((unsigned char)s[1]);
}

/* "CC, XX" at the end, alone or after ", " (XX a continent code), else
 * ", CC" at the end: the same order as the view's CASE. */
int regions_code_in_name(const char *region, char out[3])
{
	size_t n = region ? strlen(region) : 0;
	const char *at = NULL, *r = region;
	if (n >= 6 && upper2(r + n - 6) && r[n - 4] == ',' && r[n - 3] == ' ' &&
	    upper2(r + n - 2) && (n == 6 || (n >= 8 && r[n - 8] == ',' && r[n - 7] == ' ')))
		at = r + n - 6;
	else if (n >= 4 && r[n - 4] == ',' && r[n - 3] == ' ' && upper2(r + n - 2))
		at = r + n - 2;
	if (!at)
		return 0;
	out[0] = at[0];
	out[1] = at[1];
	out[2] = '\0';
	return 1;
}

const struct region_country *regions_lookup(const struct region_table *t, const char *provider,
					    const char *region)
{
	if (!t || !provider || !region)
		return NULL;
	for (size_t i = 0; i < t->nplaces; i++)
		if (strcmp(t->places[i].provider, provider) == 0 &&
		    strcasecmp(t->places[i].region, region) == 0)
			return regions_country(t, t->places[i].code);
	const struct region_source *s = source_of(t, provider);
	char code[3];
	if (s && s->names_country && regions_code_in_name(region, code))
		return regions_country(t, code);
	return NULL;
}

const char *regions_unplaced_reason(const struct region_table *t, const char *provider,
				    const char *region)
{
	for (size_t i = 0; t && provider && region && i < t->nunplaced; i++)
		if (strcmp(t->unplaced[i].provider, provider) == 0 &&
		    strcasecmp(t->unplaced[i].region, region) == 0)
			return t->unplaced[i].reason;
	return NULL;
}

size_t regions_country_count(const struct region_table *t)
{
	return t ? t->ncountries : 0;
}

const struct region_country *regions_country_at(const struct region_table *t, size_t i)
{
	return t && i < t->ncountries ? &t->list[i] : NULL;
}

size_t regions_place_count(const struct region_table *t)
{
	return t ? t->nplaces : 0;
}

const struct region_place *regions_place_at(const struct region_table *t, size_t i)
{
	return t && i < t->nplaces ? &t->places[i] : NULL;
}

size_t regions_source_count(const struct region_table *t)
{
	return t ? t->nsources : 0;
}

const struct region_source *regions_source_at(const struct region_table *t, size_t i)
{
	return t && i < t->nsources ? &t->sources[i] : NULL;
}
