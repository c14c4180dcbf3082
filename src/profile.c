/* profile.c - load and validate provider capability profiles. */
#include "gpucmp/profile.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/embedded.h"
#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

static const char *const k8s_modes[] = {"managed", "join", "both", "none", NULL};
static const char *const operators[] = {"preinstalled", "optional", "manual", NULL};
static const char *const daemons[] = {"root", "rootless", "no", NULL};
static const char *const share_modes[] = {"managed", "self", "no", NULL};
static const char *const coverage[] = {"yes", "some", "no", NULL};
static const char *const rdma_modes[] = {"ib", "roce", "efa", "no", NULL};
static const char *const granularity[] = {"per-second", "per-minute", "per-hour", NULL};
static const char *const price_kinds[] = {"fixed", "auction_floor", "marketplace", NULL};
static const char *const kinds[] = {"hyperscaler", "gpu-cloud", "marketplace", NULL};

const struct pfield_def profile_fields[] = {
	{"", "spot", PF_BOOL, NULL, "Spot / interruptible"},
	{"billing", "granularity", PF_ENUM, granularity, "Billing granularity"},
	{"billing", "price_kind", PF_ENUM, price_kinds, "Price kind"},
	{"kubernetes", "mode", PF_ENUM, k8s_modes, "Mode"},
	{"kubernetes", "product", PF_TEXT, NULL, "Product"},
	{"kubernetes", "control_plane_fee_usd_hr", PF_NUMBER, NULL, "Control-plane fee $/h"},
	{"kubernetes", "gpu_operator", PF_ENUM, operators, "GPU operator"},
	{"kubernetes", "autoscaling", PF_BOOL, NULL, "Autoscaling"},
	{"kubernetes", "scale_to_zero", PF_BOOL, NULL, "Scale to zero"},
	{"kubernetes", "gang_scheduling", PF_LIST, NULL, "Gang scheduling"},
	{"kubernetes", "training_operator", PF_BOOL, NULL, "Training operator"},
	{"kubernetes", "shared_storage_csi", PF_BOOL, NULL, "Shared storage (CSI)"},
	{"docker", "custom_image", PF_BOOL, NULL, "Custom image"},
	{"docker", "base_images_only", PF_BOOL, NULL, "Base images only"},
	{"docker", "daemon", PF_ENUM, daemons, "Docker daemon"},
	{"docker", "private_registry", PF_BOOL, NULL, "Private registry"},
	{"docker", "compose", PF_BOOL, NULL, "Compose / multi-container"},
	{"docker", "persistent_volumes", PF_BOOL, NULL, "Persistent volumes"},
	{"sharing", "mig", PF_ENUM, share_modes, "MIG"},
	{"sharing", "mps", PF_ENUM, share_modes, "MPS"},
	{"sharing", "time_slicing", PF_ENUM, share_modes, "Time-slicing"},
	{"interconnect", "infiniband", PF_ENUM, coverage, "InfiniBand"},
	{"interconnect", "rdma", PF_ENUM, rdma_modes, "RDMA"},
	{"interconnect", "nvlink", PF_ENUM, coverage, "NVLink"},
	{"interconnect", "max_node_bandwidth_gbps", PF_NUMBER, NULL, "Max node bandwidth Gbit/s"},
	{"interconnect", "gpudirect_rdma", PF_BOOL, NULL, "GPUDirect RDMA"},
	/* the rest of a job's bill (issue 26): list --disk and --egress */
	{"costs", "block_storage_usd_gb_month", PF_NUMBER, NULL, "Block storage $/GB-month"},
	{"costs", "egress_usd_gb", PF_NUMBER, NULL, "Egress $/GB"},
	{"costs", "egress_free_gb_month", PF_NUMBER, NULL, "Free egress GB/month"},
	{"costs", "stopped_gpu_billed", PF_BOOL, NULL, "Stopped GPU billed"},
};
const size_t profile_field_count = sizeof profile_fields / sizeof profile_fields[0];

static const char *const groups[] = {"billing", "kubernetes", "docker", "sharing",
				     "interconnect", "costs", NULL};

int profile_field_index(const char *path)
{
	const char *dot = strchr(path, '.');
	for (size_t i = 0; i < profile_field_count; i++) {
		const struct pfield_def *f = &profile_fields[i];
		if (dot) {
			size_t g = (size_t)(dot - path);
			if (strlen(f->group) == g && strncmp(f->group, path, g) == 0 &&
			    strcmp(f->key, dot + 1) == 0)
				return (int)i;
		} else if (!*f->group && strcmp(f->key, path) == 0) {
			return (int)i;
		}
	}
	return -1;
}

static void pvalue_free(struct pvalue *v)
{
	free(v->text);
	for (size_t i = 0; i < v->nlist; i++)
		free(v->list[i]);
	free(v->list);
	free(v->source);
	free(v->note);
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	free(p->id);
	free(p->name);
	free(p->site);
	free(p->kind);
	free(p->verified);
	free(p->note);
	free(p->file);
	strv_free(p->sources, p->nsources);
	strv_free(p->regions, p->nregions);
	if (p->values)
		for (size_t i = 0; i < profile_field_count; i++)
			pvalue_free(&p->values[i]);
	free(p->values);
	free(p);
}

static int is_url(const char *s)
{
	if (strncmp(s, "https://", 8) != 0 && strncmp(s, "http://", 7) != 0)
		return 0;
	const char *host = strstr(s, "//") + 2;
	if (!*host || *host == '/')
		return 0;
	for (; *s; s++)
		if (isspace((unsigned char)*s) || (unsigned char)*s < 0x20)
			return 0;
	return 1;
}

static int in_list(const char *s, const char *const *list)
{
	for (; list && *list; list++)
		if (strcmp(s, *list) == 0)
			return 1;
	return 0;
}

struct ctx {
	struct ydoc *d;
	struct profile *p;
	char **err;
};

static enum gc_status nomem(struct ctx *c)
{
	return err_set(c->err, GC_ENOMEM, "out of memory");
}

/* Copy a list of non-empty strings; `urls` requires each to be a URL. */
static enum gc_status get_strv(struct ctx *c, yaml_node_t *n, const char *what,
			       int urls, char ***out, size_t *nout)
{
	if (!n || n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(c->d, n, c->err, "'%s' must be a list", what);
	size_t cnt = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	*out = calloc(cnt ? cnt : 1, sizeof **out);
	if (!*out)
		return nomem(c);
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_t *it = ydoc_node(c->d, n->data.sequence.items.start[i]);
		const char *s = ydoc_str(it);
		if (!s || !*s || ydoc_is_null(it))
			return ydoc_error(c->d, it, c->err,
					  "'%s' entries must be non-empty strings", what);
		if (urls && !is_url(s))
			return ydoc_error(c->d, it, c->err, "'%s' entries must be http(s) URLs",
					  what);
		if (!((*out)[(*nout)++] = strdup(s)))
			return nomem(c);
	}
	return GC_OK;
}

static enum gc_status bad_value(struct ctx *c, yaml_node_t *n,
				const struct pfield_def *f, const char *s)
{
	char safe[64], path[64], allowed[160] = "";
	str_sanitize(safe, sizeof safe, s ? s : "");
	snprintf(path, sizeof path, "%s%s%s", f->group, *f->group ? "." : "", f->key);
	const char *const yn[] = {"yes", "no", NULL};
	const char *const *ch = f->kind == PF_BOOL ? yn : f->choices;
	if (f->kind == PF_NUMBER)
		snprintf(allowed, sizeof allowed, "a number >= 0 or unknown");
	else if (f->kind == PF_LIST)
		snprintf(allowed, sizeof allowed, "a list or unknown");
	else if (f->kind == PF_TEXT)
		snprintf(allowed, sizeof allowed, "text or unknown");
	else {
		size_t o = 0;
		for (; ch && *ch; ch++)
			o += (size_t)snprintf(allowed + o, sizeof allowed - o, "%s, ", *ch);
		snprintf(allowed + o, sizeof allowed - o, "unknown");
	}
	return ydoc_error(c->d, n, c->err, "bad value '%s' for %s (expected %s)", safe,
			  path, allowed);
}

/* Parse the value node (scalar or list) of field f into v. */
static enum gc_status parse_value(struct ctx *c, yaml_node_t *n,
				  const struct pfield_def *f, struct pvalue *v)
{
	const char *s = ydoc_str(n);
	v->line = ydoc_line(n);
	if (s && strcmp(s, "unknown") == 0)
		return GC_OK;
	if (f->kind == PF_LIST) {
		if (!n || n->type != YAML_SEQUENCE_NODE)
			return bad_value(c, n, f, s);
		v->known = 1;
		return get_strv(c, n, f->key, 0, &v->list, &v->nlist);
	}
	if (!s || !*s || ydoc_is_null(n))
		return bad_value(c, n, f, s);
	if (f->kind == PF_NUMBER) {
		if (str_to_double(s, &v->number) != 0 || v->number < 0)
			return bad_value(c, n, f, s);
	} else if (f->kind == PF_BOOL) {
		if (strcmp(s, "yes") != 0 && strcmp(s, "no") != 0)
			return bad_value(c, n, f, s);
	} else if (f->kind == PF_ENUM && !in_list(s, f->choices)) {
		return bad_value(c, n, f, s);
	}
	v->known = 1;
	v->text = strdup(s);
	return v->text ? GC_OK : nomem(c);
}

static enum gc_status get_url(struct ctx *c, yaml_node_t *n, char **out)
{
	const char *s = ydoc_str(n);
	if (!s || !is_url(s))
		return ydoc_error(c->d, n, c->err, "source must be an http(s) URL");
	*out = strdup(s);
	return *out ? GC_OK : nomem(c);
}

/* A field node: a scalar/list, or the long form {value, source, note}. */
static enum gc_status parse_field(struct ctx *c, yaml_node_t *n,
				  const struct pfield_def *f, struct pvalue *v)
{
	static const char *const long_keys[] = {"value", "source", "note", NULL};
	if (!n || n->type != YAML_MAPPING_NODE)
		return parse_value(c, n, f, v);
	enum gc_status st = ydoc_check_keys(c->d, n, long_keys, c->err);
	if (st != GC_OK)
		return st;
	yaml_node_t *val = ydoc_get(c->d, n, "value");
	if (!val)
		return ydoc_error(c->d, n, c->err, "missing 'value'");
	st = parse_value(c, val, f, v);
	yaml_node_t *src = ydoc_get(c->d, n, "source");
	if (st == GC_OK && src)
		st = get_url(c, src, &v->source);
	yaml_node_t *note = ydoc_get(c->d, n, "note");
	if (st == GC_OK && note) {
		const char *s = ydoc_str(note);
		if (!s)
			return ydoc_error(c->d, note, c->err, "'note' must be text");
		if (!(v->note = strdup(s)))
			return nomem(c);
	}
	return st;
}

static enum gc_status need_source(struct ctx *c, yaml_node_t *n,
				  const struct pfield_def *f, struct pvalue *v,
				  const char *group_source)
{
	if (!v->known || v->source)
		return GC_OK;
	if (group_source) {
		if (!(v->source = strdup(group_source)))
			return nomem(c);
		return GC_OK;
	}
	return ydoc_error(c->d, n, c->err,
			  "%s%s%s is '%s' but has no source; add a source or write unknown",
			  f->group, *f->group ? "." : "", f->key,
			  v->text ? v->text : "known");
}

static enum gc_status parse_group(struct ctx *c, yaml_node_t *root, const char *group)
{
	const char *allowed[16];
	size_t na = 0;
	for (size_t i = 0; i < profile_field_count; i++)
		if (strcmp(profile_fields[i].group, group) == 0)
			allowed[na++] = profile_fields[i].key;
	allowed[na++] = "source";
	allowed[na] = NULL;
	yaml_node_t *g = ydoc_get(c->d, root, group);
	if (!g)
		return ydoc_error(c->d, root, c->err, "missing group '%s'", group);
	enum gc_status st = ydoc_check_keys(c->d, g, allowed, c->err);
	if (st != GC_OK)
		return st;
	char *gsrc = NULL;
	yaml_node_t *gs = ydoc_get(c->d, g, "source");
	if (gs && (st = get_url(c, gs, &gsrc)) != GC_OK)
		return st;
	for (size_t i = 0; i < profile_field_count && st == GC_OK; i++) {
		const struct pfield_def *f = &profile_fields[i];
		if (strcmp(f->group, group) != 0)
			continue;
		yaml_node_t *n = ydoc_get(c->d, g, f->key);
		if (!n) {
			st = ydoc_error(c->d, g, c->err,
					"missing field %s.%s (write unknown if not confirmed)",
					group, f->key);
			break;
		}
		st = parse_field(c, n, f, &c->p->values[i]);
		if (st == GC_OK)
			st = need_source(c, n, f, &c->p->values[i], gsrc);
	}
	free(gsrc);
	return st;
}

static int valid_id(const char *s)
{
	if (!*s || strlen(s) > 40)
		return 0;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '-'))
			return 0;
	return 1;
}

/* "providers/lambda.yaml" -> must equal "lambda" */
static int id_matches_file(const char *id, const char *file)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strlen(id);
	return strncmp(base, id, n) == 0 && strcmp(base + n, ".yaml") == 0;
}

static enum gc_status parse_header(struct ctx *c, yaml_node_t *root, long today)
{
	struct profile *p = c->p;
	enum gc_status st = ydoc_dup_str(c->d, root, "id", 1, &p->id, c->err);
	if (st == GC_OK && !valid_id(p->id))
		st = ydoc_error(c->d, ydoc_get(c->d, root, "id"), c->err,
				"id must be lowercase letters, digits and '-'");
	if (st == GC_OK && !id_matches_file(p->id, c->d->file))
		st = ydoc_error(c->d, ydoc_get(c->d, root, "id"), c->err,
				"id '%s' does not match the file name", p->id);
	if (st == GC_OK)
		st = ydoc_dup_str(c->d, root, "name", 1, &p->name, c->err);
	if (st == GC_OK)
		st = ydoc_dup_str(c->d, root, "site", 1, &p->site, c->err);
	if (st == GC_OK && !is_url(p->site))
		st = ydoc_error(c->d, ydoc_get(c->d, root, "site"), c->err,
				"site must be an http(s) URL");
	if (st == GC_OK)
		st = ydoc_dup_str(c->d, root, "kind", 1, &p->kind, c->err);
	if (st == GC_OK && !in_list(p->kind, kinds))
		st = ydoc_error(c->d, ydoc_get(c->d, root, "kind"), c->err,
				"bad kind '%s' (expected hyperscaler, gpu-cloud or marketplace)",
				p->kind);
	if (st == GC_OK)
		st = ydoc_dup_str(c->d, root, "verified", 1, &p->verified, c->err);
	if (st == GC_OK) {
		long days = str_date_days(p->verified);
		yaml_node_t *vn = ydoc_get(c->d, root, "verified");
		if (days < 0 || strlen(p->verified) != 10)
			st = ydoc_error(c->d, vn, c->err, "verified must be a date YYYY-MM-DD");
		else if (today >= 0 && days > today + 1)
			st = ydoc_error(c->d, vn, c->err, "verified date %s is in the future",
					p->verified);
	}
	if (st == GC_OK)
		st = ydoc_dup_str(c->d, root, "note", 0, &p->note, c->err);
	if (st == GC_OK)
		st = get_strv(c, ydoc_get(c->d, root, "sources"), "sources", 1, &p->sources,
			      &p->nsources);
	if (st == GC_OK)
		st = get_strv(c, ydoc_get(c->d, root, "regions"), "regions", 0, &p->regions,
			      &p->nregions);
	return st;
}

enum gc_status profile_load(struct profile **out, const char *file, const char *data,
			    size_t len, long today_days, char **err)
{
	static const char *const top_keys[] = {
		"id", "name", "site", "kind", "verified", "sources", "regions", "note",
		"spot", "billing", "kubernetes", "docker", "sharing", "interconnect", "costs",
		NULL};
	struct ydoc d;
	*out = NULL;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st != GC_OK)
		return st;
	struct profile *p = calloc(1, sizeof *p);
	struct ctx c = {&d, p, err};
	if (!p || !(p->values = calloc(profile_field_count, sizeof *p->values)) ||
	    !(p->file = strdup(file))) {
		st = nomem(&c);
		goto out;
	}
	yaml_node_t *root = ydoc_root(&d);
	st = ydoc_check_keys(&d, root, top_keys, err);
	if (st == GC_OK)
		st = parse_header(&c, root, today_days);
	int spot = profile_field_index("spot");
	yaml_node_t *sn = ydoc_get(&d, root, "spot");
	if (st == GC_OK && !sn)
		st = ydoc_error(&d, root, err,
				"missing field spot (write unknown if not confirmed)");
	if (st == GC_OK)
		st = parse_field(&c, sn, &profile_fields[spot], &p->values[spot]);
	if (st == GC_OK)
		st = need_source(&c, sn, &profile_fields[spot], &p->values[spot], NULL);
	for (const char *const *g = groups; *g && st == GC_OK; g++)
		st = parse_group(&c, root, *g);
out:
	ydoc_free(&d);
	if (st != GC_OK) {
		profile_free(p);
		return st;
	}
	*out = p;
	return GC_OK;
}

const struct pvalue *profile_value(const struct profile *p, int idx)
{
	return idx >= 0 && (size_t)idx < profile_field_count ? &p->values[idx] : NULL;
}

const char *profile_text(const struct profile *p, const char *path)
{
	const struct pvalue *v = profile_value(p, profile_field_index(path));
	return v && v->known && v->text ? v->text : "unknown";
}

enum gc_status profile_set_add(struct profile_set *set, struct profile *p, char **err)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->items[i]->id, p->id) == 0) {
			err_set(err, GC_EDATA, "%s: duplicate provider id '%s' (also in %s)",
				p->file, p->id, set->items[i]->file);
			profile_free(p);
			return GC_EDATA;
		}
	struct profile **items = realloc(set->items, (set->n + 1) * sizeof *items);
	if (!items) {
		profile_free(p);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	set->items = items;
	set->items[set->n++] = p;
	return GC_OK;
}

static int by_id(const void *a, const void *b)
{
	return strcmp((*(struct profile *const *)a)->id, (*(struct profile *const *)b)->id);
}

void profile_set_sort(struct profile_set *set)
{
	if (set->n > 1)
		qsort(set->items, set->n, sizeof *set->items, by_id);
}

enum gc_status profile_set_load_embedded(struct profile_set *set, long today_days,
					 char **err)
{
	set->items = NULL;
	set->n = 0;
	for (size_t i = 0; i < embedded_profiles_count; i++) {
		const struct embedded_file *f = &embedded_profiles[i];
		struct profile *p;
		enum gc_status st = profile_load(&p, f->name, (const char *)f->data, f->len,
						 today_days, err);
		if (st == GC_OK)
			st = profile_set_add(set, p, err);
		if (st != GC_OK) {
			profile_set_release(set);
			return st;
		}
	}
	profile_set_sort(set);
	return GC_OK;
}

void profile_set_release(struct profile_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		profile_free(set->items[i]);
	free(set->items);
	set->items = NULL;
	set->n = 0;
}

const struct profile *profile_set_find(const struct profile_set *set, const char *id)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->items[i]->id, id) == 0)
			return set->items[i];
	return NULL;
}

const char *profile_set_suggest(const struct profile_set *set, const char *id)
{
	struct suggest s;
	suggest_init(&s, id);
	for (size_t i = 0; i < set->n; i++)
		suggest_try(&s, set->items[i]->id);
	return suggest_best(&s);
}
