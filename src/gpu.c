/* gpu.c - GPU model table and the one GPU name normalization function. */
#include "gpucmp/gpu.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

#define KEY_MAX 96

struct alias_ent {
	char *key;        /* folded */
	size_t model;     /* index into models */
	const char *name; /* as written (the model's), for messages */
};

struct gpu_table {
	struct gpu_model *models;
	size_t n;
	struct alias_ent *index; /* sorted by key */
	size_t nindex;
	char **family_keys;      /* folded family name of each model */
};

/* Vendor and brand words that providers add or leave out at will. */
static const char *const stopwords[] = {"nvidia", "amd", "tesla", "geforce",
					"quadro", "instinct", "intel", NULL};

static int is_stopword(const char *w, size_t n)
{
	for (const char *const *s = stopwords; *s; s++)
		if (strlen(*s) == n && strncmp(*s, w, n) == 0)
			return 1;
	return 0;
}

/* Fold a GPU name: lowercase alphanumeric tokens without brand words,
 * concatenated.  "NVIDIA GeForce RTX 4090" and "RTX_4090" -> "rtx4090". */
static void fold_name(const char *in, char *out, size_t outsz)
{
	size_t o = 0;
	while (*in) {
		while (*in && !isalnum((unsigned char)*in))
			in++;
		char tok[KEY_MAX];
		size_t n = 0;
		while (*in && isalnum((unsigned char)*in)) {
			if (n + 1 < sizeof tok)
				tok[n++] = (char)tolower((unsigned char)*in);
			in++;
		}
		if (n == 0 || is_stopword(tok, n))
			continue;
		for (size_t i = 0; i < n && o + 1 < outsz; i++)
			out[o++] = tok[i];
	}
	out[o] = '\0';
}

static void model_free(struct gpu_model *m)
{
	free(m->id);
	free(m->family);
	free(m->vendor);
	free(m->name);
	free(m->architecture);
	free(m->form_factor);
	free(m->nvlink);
	free(m->source);
	free(m->specs_source);
	for (size_t i = 0; i < m->naliases; i++)
		free(m->aliases[i]);
	free(m->aliases);
}

void gpu_table_free(struct gpu_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		model_free(&t->models[i]);
	for (size_t i = 0; i < t->nindex; i++)
		free(t->index[i].key);
	for (size_t i = 0; t->family_keys && i < t->n; i++)
		free(t->family_keys[i]);
	free(t->family_keys);
	free(t->models);
	free(t->index);
	free(t);
}

static const char *const entry_keys[] = {
	"id", "family", "default", "vendor", "name", "architecture", "memory_gb",
	"form_factor", "mig", "nvlink", "bf16_tflops", "source", "aliases",
	"note", "fp8_tflops", "memory_bandwidth_tbs", "specs_source", "nvswitch_board", NULL};

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static int valid_id(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
			return 0;
	return 1;
}

/* Required string field, optionally one of `choices`; *out becomes a new copy. */
static enum gc_status get_str(struct ydoc *d, yaml_node_t *m, const char *key,
			      const char *const *choices, char **out, char **err)
{
	enum gc_status st = ydoc_dup_str(d, m, key, 1, out, err);
	if (st != GC_OK || !choices || in_list(*out, choices))
		return st;
	char safe[64];
	return ydoc_error(d, ydoc_get(d, m, key), err, "bad %s '%s'", key,
			  str_sanitize(safe, sizeof safe, *out));
}

static enum gc_status get_num(struct ydoc *d, yaml_node_t *m, const char *key,
			      int nullable, double *out, char **err)
{
	yaml_node_t *n = ydoc_get(d, m, key);
	if (!n)
		return ydoc_error(d, m, err, "missing '%s'", key);
	if (nullable && ydoc_is_null(n)) {
		*out = NAN;
		return GC_OK;
	}
	if (str_to_double(ydoc_str(n), out) != 0 || *out < 0)
		return ydoc_error(d, n, err, "'%s' must be a non-negative number%s", key,
				  nullable ? " or null" : "");
	return GC_OK;
}

static enum gc_status load_aliases(struct ydoc *d, yaml_node_t *m,
				   struct gpu_model *g, char **err)
{
	yaml_node_t *n = ydoc_get(d, m, "aliases");
	if (!n)
		return GC_OK;
	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "'aliases' must be a list");
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	g->aliases = calloc(cnt ? cnt : 1, sizeof *g->aliases);
	if (!g->aliases)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_t *a = ydoc_node(d, n->data.sequence.items.start[i]);
		const char *s = ydoc_str(a);
		if (!s || !*s)
			return ydoc_error(d, a, err, "aliases must be non-empty strings");
		if (!(g->aliases[g->naliases++] = strdup(s)))
			return err_set(err, GC_ENOMEM, "out of memory");
	}
	return GC_OK;
}

static int is_url(const char *s)
{
	return strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0;
}

/* fp8_tflops and memory_bandwidth_tbs: optional (absent or null: unknown);
 * a value needs specs_source, the URL it was read from (docs/GPUS.md). */
static enum gc_status load_specs(struct ydoc *d, yaml_node_t *m, struct gpu_model *g,
				 char **err)
{
	enum gc_status st = GC_OK;
	g->fp8_tflops = g->memory_bandwidth_tbs = NAN;
	if (ydoc_get(d, m, "fp8_tflops"))
		st = get_num(d, m, "fp8_tflops", 1, &g->fp8_tflops, err);
	if (st == GC_OK && ydoc_get(d, m, "memory_bandwidth_tbs"))
		st = get_num(d, m, "memory_bandwidth_tbs", 1, &g->memory_bandwidth_tbs, err);
	yaml_node_t *src = ydoc_get(d, m, "specs_source");
	if (st != GC_OK)
		return st;
	if (src) {
		st = get_str(d, m, "specs_source", NULL, &g->specs_source, err);
		if (st == GC_OK && !is_url(g->specs_source))
			st = ydoc_error(d, src, err, "specs_source must be a URL");
	} else if (!isnan(g->fp8_tflops) || !isnan(g->memory_bandwidth_tbs)) {
		st = ydoc_error(d, m, err,
				"fp8_tflops and memory_bandwidth_tbs need 'specs_source', "
				"the URL they were read from");
	}
	return st;
}

/* nvswitch_board: optional, a whole number of GPUs (2 or more) of a part
 * with NVLink (data/gpus.yaml's header names NVIDIA's list). */
static enum gc_status load_board(struct ydoc *d, yaml_node_t *m, struct gpu_model *g,
				 char **err)
{
	double n = 0;
	enum gc_status st = GC_OK;
	if (ydoc_get(d, m, "nvswitch_board"))
		st = get_num(d, m, "nvswitch_board", 0, &n, err);
	if (st == GC_OK && (n != floor(n) || n == 1 || n > 1024))
		st = ydoc_error(d, ydoc_get(d, m, "nvswitch_board"), err,
				"'nvswitch_board' must be a whole number of GPUs from 2 to 1024");
	if (st == GC_OK && n > 0 && strcmp(g->nvlink, "yes") != 0)
		st = ydoc_error(d, ydoc_get(d, m, "nvswitch_board"), err,
				"'nvswitch_board' needs 'nvlink: yes'");
	g->nvswitch_board = (int)n;
	return st;
}

static const char *const vendors[] = {"nvidia", "amd", "intel", "google", "other", NULL};
static const char *const forms[] = {"sxm", "pcie", "superchip", "oam", "other", NULL};
static const char *const nvlinks[] = {"yes", "bridge", "no", NULL};

static enum gc_status load_model(struct ydoc *d, yaml_node_t *m,
				 struct gpu_model *g, char **err)
{
	enum gc_status st = ydoc_check_keys(d, m, entry_keys, err);
	double mig = 0; /* read below even when an earlier field failed */
	if (st == GC_OK)
		st = get_str(d, m, "id", NULL, &g->id, err);
	if (st == GC_OK && !valid_id(g->id))
		st = ydoc_error(d, ydoc_get(d, m, "id"), err,
				"id '%s' must be lowercase letters, digits and '-'", g->id);
	if (st == GC_OK)
		st = get_str(d, m, "family", NULL, &g->family, err);
	if (st == GC_OK)
		st = get_str(d, m, "vendor", vendors, &g->vendor, err);
	if (st == GC_OK)
		st = get_str(d, m, "name", NULL, &g->name, err);
	if (st == GC_OK)
		st = get_str(d, m, "architecture", NULL, &g->architecture, err);
	if (st == GC_OK)
		st = get_str(d, m, "form_factor", forms, &g->form_factor, err);
	if (st == GC_OK)
		st = get_str(d, m, "nvlink", nvlinks, &g->nvlink, err);
	if (st == GC_OK)
		st = get_str(d, m, "source", NULL, &g->source, err);
	if (st == GC_OK && strncmp(g->source, "https://", 8) != 0 &&
	    strncmp(g->source, "http://", 7) != 0)
		st = ydoc_error(d, ydoc_get(d, m, "source"), err, "source must be a URL");
	if (st == GC_OK)
		st = get_num(d, m, "memory_gb", 0, &g->memory_gb, err);
	if (st == GC_OK)
		st = get_num(d, m, "bf16_tflops", 1, &g->bf16_tflops, err);
	if (st == GC_OK)
		st = load_specs(d, m, g, err);
	if (st == GC_OK)
		st = get_num(d, m, "mig", 0, &mig, err);
	if (st == GC_OK && (mig != floor(mig) || mig > 7))
		st = ydoc_error(d, ydoc_get(d, m, "mig"), err,
				"'mig' must be a whole number of instances from 0 to 7");
	g->mig = (int)mig;
	if (st == GC_OK)
		st = load_board(d, m, g, err);
	yaml_node_t *def = ydoc_get(d, m, "default");
	if (st == GC_OK && def) {
		const char *s = ydoc_str(def);
		if (s && (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0))
			g->is_default = 1;
		else if (!s || (strcmp(s, "false") != 0 && strcmp(s, "no") != 0))
			st = ydoc_error(d, def, err, "'default' must be true or false");
	}
	if (st == GC_OK)
		st = load_aliases(d, m, g, err);
	return st;
}

static int ent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct alias_ent *)a)->key,
		      ((const struct alias_ent *)b)->key);
}

/* By key, then model: a key's first entry is its earliest model. */
static int ent_model_cmp(const void *a, const void *b)
{
	const struct alias_ent *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->model > y->model) - (x->model < y->model);
}

static enum gc_status index_add(struct gpu_table *t, const char *name, size_t model,
				size_t cap, char **err)
{
	char key[KEY_MAX];
	fold_name(name, key, sizeof key);
	if (!*key)
		return err_set(err, GC_EDATA, "GPU name '%s' has no letters or digits", name);
	if (t->nindex >= cap)
		return err_set(err, GC_EDATA, "alias index overflow");
	t->index[t->nindex].key = strdup(key);
	if (!t->index[t->nindex].key)
		return err_set(err, GC_ENOMEM, "out of memory");
	t->index[t->nindex].name = name;
	t->index[t->nindex++].model = model;
	return GC_OK;
}

/* Sort the index and keep one entry per key: the same key twice for one
 * model is harmless ("H100 SXM" and "H100_SXM"), for two models an error.
 * A sort, not a search per entry: that was a tenth of loading the table. */
static enum gc_status index_unique(struct gpu_table *t, char **err)
{
	qsort(t->index, t->nindex, sizeof *t->index, ent_model_cmp);
	size_t n = 0;
	for (size_t i = 0; i < t->nindex; i++) {
		struct alias_ent *e = &t->index[i];
		const struct alias_ent *first = n ? &t->index[n - 1] : NULL;
		if (first && strcmp(first->key, e->key) == 0) {
			if (first->model != e->model)
				return err_set(err, GC_EDATA, "GPU name '%s' of '%s' folds to "
					       "'%s', already used by '%s'", e->name,
					       t->models[e->model].id, e->key,
					       t->models[first->model].id);
			free(e->key);
			e->key = NULL;
			continue;
		}
		if (n != i) { /* one owner per key, for gpu_table_free on an error */
			t->index[n] = *e;
			e->key = NULL;
		}
		n++;
	}
	t->nindex = n;
	return GC_OK;
}

static size_t family_size(const struct gpu_table *t, const char *family)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++)
		n += strcmp(t->models[i].family, family) == 0;
	return n;
}

/* Family rules: one default per multi-model family; a folded alias may not
 * equal the name of a family with several models (it would be ambiguous). */
static enum gc_status check_families(struct gpu_table *t, const char *file, char **err)
{
	for (size_t i = 0; i < t->n; i++) {
		const char *fam = t->models[i].family;
		size_t size = family_size(t, fam), defaults = 0;
		for (size_t j = 0; j < t->n; j++)
			if (strcmp(t->models[j].family, fam) == 0)
				defaults += (size_t)t->models[j].is_default;
		if (size > 1 && defaults != 1)
			return err_set(err, GC_EDATA,
				       "%s: family '%s' needs exactly one 'default: true' "
				       "model, has %zu",
				       file, fam, defaults);
		for (size_t k = 0; k < t->nindex && size > 1; k++)
			if (strcmp(t->index[k].key, t->family_keys[i]) == 0 &&
			    !t->models[t->index[k].model].is_default)
				return err_set(err, GC_EDATA,
					       "%s: a name of '%s' folds to the family name "
					       "'%s'; only the family default may carry it",
					       file, t->models[t->index[k].model].id, fam);
	}
	return GC_OK;
}

static enum gc_status build_index(struct gpu_table *t, const char *file, char **err)
{
	size_t cap = 0;
	for (size_t i = 0; i < t->n; i++)
		cap += 2 + t->models[i].naliases;
	t->index = calloc(cap, sizeof *t->index);
	if (!t->index)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum gc_status st = GC_OK;
	for (size_t i = 0; i < t->n && st == GC_OK; i++) {
		struct gpu_model *m = &t->models[i];
		st = index_add(t, m->id, i, cap, err);
		if (st == GC_OK)
			st = index_add(t, m->name, i, cap, err);
		for (size_t a = 0; a < m->naliases && st == GC_OK; a++)
			st = index_add(t, m->aliases[a], i, cap, err);
	}
	if (st == GC_OK)
		st = index_unique(t, err);
	if (st != GC_OK) {
		err_prefix(err, "%s", file);
		return st;
	}
	/* fold family names once: gpu_normalize() compares against them per call */
	t->family_keys = calloc(t->n ? t->n : 1, sizeof *t->family_keys);
	if (!t->family_keys)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < t->n; i++) {
		char fkey[KEY_MAX];
		fold_name(t->models[i].family, fkey, sizeof fkey);
		if (!(t->family_keys[i] = strdup(fkey)))
			return err_set(err, GC_ENOMEM, "out of memory");
	}
	return check_families(t, file, err);
}

static enum gc_status load_models(struct gpu_table *t, struct ydoc *d, char **err)
{
	static const char *const top_keys[] = {"version", "sources", "gpus", NULL};
	yaml_node_t *root = ydoc_root(d);
	enum gc_status st = ydoc_check_keys(d, root, top_keys, err);
	if (st != GC_OK)
		return st;
	yaml_node_t *list;
	size_t cnt;
	if ((st = ydoc_list(d, root, "gpus", &list, &cnt, err)) != GC_OK)
		return st;
	t->models = calloc(cnt ? cnt : 1, sizeof *t->models);
	if (!t->models)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_t *m = ydoc_item(d, list, i);
		t->n++;
		st = load_model(d, m, &t->models[i], err);
		if (st != GC_OK)
			return st;
		for (size_t j = 0; j < i; j++)
			if (strcmp(t->models[j].id, t->models[i].id) == 0)
				return ydoc_error(d, m, err, "duplicate GPU id '%s'",
						  t->models[i].id);
	}
	return GC_OK;
}

enum gc_status gpu_table_load(struct gpu_table **out, const char *file,
			      const char *data, size_t len, char **err)
{
	struct ydoc d;
	*out = NULL;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st != GC_OK)
		return st;
	struct gpu_table *t = calloc(1, sizeof *t);
	if (!t) {
		ydoc_free(&d);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	st = load_models(t, &d, err);
	ydoc_free(&d);
	if (st == GC_OK)
		st = build_index(t, file, err);
	if (st != GC_OK) {
		gpu_table_free(t);
		return st;
	}
	*out = t;
	return GC_OK;
}

size_t gpu_table_count(const struct gpu_table *t)
{
	return t->n;
}

const struct gpu_model *gpu_table_at(const struct gpu_table *t, size_t i)
{
	return i < t->n ? &t->models[i] : NULL;
}

const struct gpu_model *gpu_find(const struct gpu_table *t, const char *id)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->models[i].id, id) == 0)
			return &t->models[i];
	return NULL;
}

static const struct gpu_model *lookup_key(const struct gpu_table *t, const char *key)
{
	struct alias_ent probe = {(char *)key, 0, NULL};
	const struct alias_ent *e =
		bsearch(&probe, t->index, t->nindex, sizeof *t->index, ent_cmp);
	return e ? &t->models[e->model] : NULL;
}

static const char *lookup_family(const struct gpu_table *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->family_keys[i], key) == 0)
			return t->models[i].family;
	return NULL;
}

int gpu_mem_matches(const struct gpu_model *m, double mem_gb)
{
	double tol = m->memory_gb * 0.08;
	if (tol < 2)
		tol = 2;
	return fabs(m->memory_gb - mem_gb) <= tol;
}

/* Hints from the SKU: form factor words and an "80gb"-style memory size. */
struct hints {
	const char *form; /* "pcie", "sxm" or NULL */
	int nvl;
	double mem_gb;
};

static void sku_hints(const char *sku, struct hints *h)
{
	while (sku && *sku) {
		while (*sku && !isalnum((unsigned char)*sku))
			sku++;
		char tok[32];
		size_t n = 0;
		while (*sku && isalnum((unsigned char)*sku)) {
			if (n + 1 < sizeof tok)
				tok[n++] = (char)tolower((unsigned char)*sku);
			sku++;
		}
		tok[n] = '\0';
		if (strcmp(tok, "pcie") == 0)
			h->form = "pcie";
		else if (strncmp(tok, "sxm", 3) == 0)
			h->form = "sxm";
		else if (strcmp(tok, "nvl") == 0)
			h->nvl = 1;
		else if (n > 2 && strcmp(tok + n - 2, "gb") == 0 && h->mem_gb <= 0) {
			double v;
			tok[n - 2] = '\0';
			if (str_to_double(tok, &v) == 0 && v > 0 && v < 1024)
				h->mem_gb = v;
		}
	}
}

static int fits(const struct gpu_model *m, const struct hints *h)
{
	if (h->form && strcmp(m->form_factor, h->form) != 0)
		return 0;
	if (h->nvl != (strstr(m->id, "nvl") != NULL) && h->nvl)
		return 0;
	if (h->mem_gb > 0 && !gpu_mem_matches(m, h->mem_gb))
		return 0;
	return 1;
}

/* Pick within a family: the default if it fits the hints, else the first
 * model that fits, else (no model fits every hint) the default. */
static const struct gpu_model *pick_in_family(const struct gpu_table *t,
					      const char *family,
					      const struct hints *h)
{
	const struct gpu_model *def = NULL, *first = NULL;
	for (size_t i = 0; i < t->n; i++) {
		const struct gpu_model *m = &t->models[i];
		if (strcmp(m->family, family) != 0)
			continue;
		if (!def || m->is_default)
			def = m;
		if (!first && fits(m, h))
			first = m;
		if (m->is_default && fits(m, h))
			return m;
	}
	if (first)
		return first;
	/* relax: memory alone (the SKU words may not apply) */
	struct hints mem_only = {NULL, 0, h->mem_gb};
	for (size_t i = 0; i < t->n && h->mem_gb > 0; i++)
		if (strcmp(t->models[i].family, family) == 0 &&
		    fits(&t->models[i], &mem_only))
			return &t->models[i];
	return def;
}

/* 1 if the folded token is only a form-factor or memory word. */
static int hint_token(const char *tok, struct hints *h)
{
	size_t n = strlen(tok), d = 0;
	while (d < n && isdigit((unsigned char)tok[d]))
		d++;
	if (strcmp(tok, "pcie") == 0) {
		h->form = "pcie";
	} else if (strncmp(tok, "sxm", 3) == 0 && strspn(tok + 3, "0123456789") == n - 3) {
		h->form = "sxm";
	} else if (strcmp(tok, "nvl") == 0) {
		h->nvl = 1;
	} else if (d > 0 && (strcmp(tok + d, "gb") == 0 || strcmp(tok + d, "g") == 0)) {
		if (h->mem_gb <= 0)
			h->mem_gb = strtod(tok, NULL);
	} else if (strncmp(tok, "hbm", 3) == 0) {
		/* memory type: says nothing the size does not */
	} else {
		return 0;
	}
	return 1;
}

/* "A100 SXM4", "A100_PCIE 80GB": a family name followed only by form-factor
 * and memory words.  Returns the family (hints added to *h) or NULL. */
static const char *family_with_hints(const struct gpu_table *t, const char *name,
				     struct hints *h)
{
	char toks[8][32], key[KEY_MAX] = "";
	size_t nt = 0;
	while (*name && nt < 8) {
		while (*name && !isalnum((unsigned char)*name))
			name++;
		size_t n = 0;
		while (*name && isalnum((unsigned char)*name)) {
			if (n + 1 < sizeof toks[0])
				toks[nt][n++] = (char)tolower((unsigned char)*name);
			name++;
		}
		toks[nt][n] = '\0';
		if (n && !is_stopword(toks[nt], n))
			nt++;
	}
	for (size_t split = 1; split < nt; split++) {
		size_t o = 0;
		for (size_t i = 0; i < split && o < sizeof key; i++)
			o += (size_t)snprintf(key + o, sizeof key - o, "%s", toks[i]);
		if (o >= sizeof key)
			break; /* no family name is that long, nor one with more words */
		const char *family = lookup_family(t, key);
		if (!family)
			continue;
		struct hints extra = *h;
		size_t i = split;
		while (i < nt && hint_token(toks[i], &extra))
			i++;
		if (i == nt) {
			*h = extra;
			return family;
		}
	}
	return NULL;
}

const struct gpu_model *gpu_normalize(const struct gpu_table *t, const char *name,
				      double mem_gb, const char *sku)
{
	char key[KEY_MAX];
	if (!name)
		return NULL;
	fold_name(name, key, sizeof key);
	if (!*key)
		return NULL;
	struct hints h = {NULL, 0, mem_gb > 0 ? mem_gb : 0};
	sku_hints(sku, &h);
	/* a family name of several models: the default, unless hints say otherwise */
	const char *family = lookup_family(t, key);
	if (family && family_size(t, family) > 1)
		return pick_in_family(t, family, &h);
	const struct gpu_model *m = lookup_key(t, key);
	if (m) {
		/* an alias several memory sizes share ("A100 SXM4") */
		if (h.mem_gb <= 0 || gpu_mem_matches(m, h.mem_gb))
			return m;
		for (size_t i = 0; i < t->n; i++) {
			const struct gpu_model *c = &t->models[i];
			if (strcmp(c->family, m->family) == 0 &&
			    strcmp(c->form_factor, m->form_factor) == 0 &&
			    gpu_mem_matches(c, h.mem_gb))
				return c;
		}
		return m;
	}
	if (!family)
		family = family_with_hints(t, name, &h);
	return family ? pick_in_family(t, family, &h) : NULL;
}

/* The largest model of m's family. */
static const struct gpu_model *largest_of(const struct gpu_table *t, const struct gpu_model *m)
{
	const struct gpu_model *best = m;
	for (size_t i = 0; i < t->n; i++) {
		const struct gpu_model *c = &t->models[i];
		if (strcmp(c->family, m->family) == 0 && c->memory_gb > best->memory_gb)
			best = c;
	}
	return best;
}

/* GPU families whose Vultr Cloud GPU plans are cut from one card size: a
 * plan is a slice of that card (1/20 .. 1/2) or k whole cards.  A100: the
 * 80 GB card ("vcg-a100-12c-120g-80vram" is one A100 at the $1,750 a month
 * Vultr announced for a whole A100; "vcg-a100-6c-60g-40vram" half of one,
 * which Vultr's console lists as "NVIDIA A100 (1/2 GPU, 40GB)").  Vultr's
 * page on its GPU variants,
 * https://docs.vultr.com/products/compute/cloud-gpu/explore-gpu-variants,
 * could not be read: the SXM or PCIe form factor stays the table's default
 * for the family. */
static const char *const sliced_families[] = {"a100", NULL};

static const int whole_counts[] = {1, 2, 4, 8, 16};
#define NWHOLE (sizeof whole_counts / sizeof whole_counts[0])

/* `vram` GB as k whole `card`s, or else, below one card, a slice of it;
 * 0 when neither fits. */
static int as_cards(const struct gpu_model *card, double vram, struct gpu_guess *g)
{
	for (size_t i = 0; i < NWHOLE; i++) {
		if (gpu_mem_matches(card, vram / whole_counts[i])) {
			g->count = whole_counts[i];
			g->mem_gb = vram / whole_counts[i];
			g->model = card;
			return 1;
		}
	}
	if (card->memory_gb > 0 && vram < card->memory_gb) {
		g->count = vram / card->memory_gb;
		g->mem_gb = vram;
		g->model = card;
		return 1;
	}
	return 0;
}

/* k whole GPUs of the name with vram / k GB each; 0 if no k fits. */
static int as_whole(const struct gpu_table *t, const struct gpu_hint *h, double vram,
		    struct gpu_guess *g)
{
	for (size_t i = 0; i < NWHOLE; i++) {
		double per = vram / whole_counts[i];
		const struct gpu_model *c = gpu_normalize(t, h->name, per, h->sku);
		if (c && gpu_mem_matches(c, per)) {
			g->count = whole_counts[i];
			g->mem_gb = per;
			g->model = c;
			return 1;
		}
	}
	return 0;
}

/* gpu_infer with by_total (count and model decide each other). */
static void infer_by_total(const struct gpu_table *t, const struct gpu_hint *h,
			   struct gpu_guess *g)
{
	double vram = h->total_gb;
	g->count = 1;
	g->mem_gb = vram > 0 ? vram : NAN;
	if (h->count > 0 && h->count < 1e4) {
		g->count = h->count;
		g->mem_gb = vram > 0 ? vram / h->count : NAN;
		g->model = t ? gpu_normalize(t, h->name, g->mem_gb, h->sku) : NULL;
		return;
	}
	if (!t || !h->name)
		return;
	const struct gpu_model *m = gpu_normalize(t, h->name, 0, h->sku);
	g->model = m;
	if (!(vram > 0))
		return;
	if (m && in_list(m->family, sliced_families) && as_cards(largest_of(t, m), vram, g))
		return;
	if (as_whole(t, h, vram, g) || !m)
		return;
	/* below one GPU: a slice of the family's largest model; else (more
	 * memory than k whole GPUs explain) the count stays 1 */
	if (!as_cards(largest_of(t, m), vram, g))
		g->model = m;
}

void gpu_infer(const struct gpu_table *t, const struct gpu_hint *h, struct gpu_guess *g)
{
	g->model = NULL;
	g->count = h->count;
	g->mem_gb = h->mem_gb;
	if (h->by_total) {
		infer_by_total(t, h, g);
		return;
	}
	if (!t)
		return;
	if (h->id)
		g->model = gpu_find(t, h->id);
	if (!g->model && h->name && *h->name)
		g->model = gpu_normalize(t, h->name, h->mem_gb, h->sku);
	/* the count decides the memory of a slice */
	if (g->model && isnan(g->mem_gb))
		g->mem_gb = g->count > 0 && g->count < 1 ? g->model->memory_gb * g->count
							 : g->model->memory_gb;
}

/* Add every model of `family` that fits h to ids (after n of them), up to max. */
static size_t add_fitting(const struct gpu_table *t, const char *family, const struct hints *h,
			  const char **ids, size_t n, size_t max)
{
	for (size_t i = 0; i < t->n && n < max; i++)
		if (strcmp(t->models[i].family, family) == 0 && fits(&t->models[i], h))
			ids[n++] = t->models[i].id;
	return n;
}

/* 1 if `tok` (n bytes) is one of the '-'-separated words of `name`. */
static int has_word(const char *name, const char *tok, size_t n)
{
	for (const char *p = name; *p;) {
		size_t len = strcspn(p, "-");
		if (len == n && strncmp(p, tok, n) == 0)
			return 1;
		p += len + (p[len] == '-');
	}
	return 0;
}

/* The one family that has the number `key` ("4090") as a word of its name
 * (rtx-4090); NULL when none or several do. */
static const char *family_of_number(const struct gpu_table *t, const char *key)
{
	const char *found = NULL;
	size_t n = strlen(key);
	if (n == 0 || strspn(key, "0123456789") != n)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		const char *fam = t->models[i].family;
		if (!has_word(fam, key, n) || (found && strcmp(found, fam) == 0))
			continue;
		if (found)
			return NULL;
		found = fam;
	}
	return found;
}

size_t gpu_match(const struct gpu_table *t, const char *word, const char **ids,
		 size_t max)
{
	char key[KEY_MAX];
	fold_name(word, key, sizeof key);
	if (!*key || max == 0)
		return 0;
	struct hints none = {NULL, 0, 0}, h = none;
	const char *family = lookup_family(t, key);
	if (family)
		return add_fitting(t, family, &none, ids, 0, max);
	for (size_t i = 0; i < t->n; i++) {
		char idkey[KEY_MAX];
		fold_name(t->models[i].id, idkey, sizeof idkey);
		if (strcmp(idkey, key) == 0) {
			ids[0] = t->models[i].id;
			return 1;
		}
	}
	/* a family and form-factor or memory words: every model they fit */
	if ((family = family_with_hints(t, word, &h)))
		return add_fitting(t, family, &h, ids, 0, max);
	const struct gpu_model *m = gpu_normalize(t, word, 0, NULL);
	if (m) {
		ids[0] = m->id;
		return 1;
	}
	if ((family = family_of_number(t, key)))
		return add_fitting(t, family, &none, ids, 0, max);
	return 0;
}

/* The candidate names nearest `word`: family names and ids, each once. */
size_t gpu_nearest(const struct gpu_table *t, const char *word, const char **out, size_t max)
{
	char key[KEY_MAX];
	size_t n = 0;
	fold_name(word, key, sizeof key);
	/* a model number several families share ("6000"): those families */
	for (size_t i = 0; *key && strspn(key, "0123456789") == strlen(key) && i < t->n; i++) {
		const char *fam = t->models[i].family;
		size_t j = 0;
		while (j < n && strcmp(out[j], fam) != 0)
			j++;
		if (j == n && n < max && has_word(fam, key, strlen(key)))
			out[n++] = fam;
	}
	if (n)
		return n;
	/* else the closest names, best first, while they stay close; a family
	 * given stands for its models */
	while (n < max) {
		struct suggest s;
		suggest_init(&s, word);
		for (size_t i = 0; i < t->n; i++) {
			size_t j = 0;
			while (j < n && strcmp(out[j], t->models[i].family) != 0 &&
			       strcmp(out[j], t->models[i].id) != 0)
				j++;
			if (j < n)
				continue;
			suggest_try(&s, t->models[i].family);
			suggest_try(&s, t->models[i].id);
		}
		const char *best = suggest_best(&s);
		if (!best)
			break;
		out[n++] = best;
	}
	return n;
}

const char *gpu_suggest(const struct gpu_table *t, const char *word)
{
	const char *best;
	return gpu_nearest(t, word, &best, 1) ? best : NULL;
}
