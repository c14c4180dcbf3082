/* sheet.c - a provider's capability sheet (show): values as text and JSON,
 * the rows with their footnoted sources, and the show --json document. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/sheet.h"
#include "gpucmp/strutil.h"

const struct sheet_group sheet_groups[] = {
	{"kubernetes", "Kubernetes"}, {"docker", "Docker"}, {"sharing", "GPU sharing"},
	{"interconnect", "Interconnect"}, {"billing", "Billing"}, {"costs", "Job costs"},
};
const size_t sheet_ngroups = sizeof sheet_groups / sizeof sheet_groups[0];

size_t sheet_group_fields(const char *group, int *idx, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < profile_field_count && n < max; i++)
		if (strcmp(profile_fields[i].group, group) == 0)
			idx[n++] = (int)i;
	if (strcmp(group, "billing") == 0 && n < max)
		idx[n++] = profile_field_index("spot");
	return n;
}

const char *sheet_value_text(const struct pfield_def *f, const struct pvalue *v, char *buf,
			     size_t n)
{
	if (!v->known) {
		snprintf(buf, n, "?");
	} else if (f->kind == PF_NUMBER) {
		/* cents as cents (0.10), a finer price as it is (0.087) */
		double c = v->number * 100;
		snprintf(buf, n, v->number == floor(v->number) ? "%.0f"
				 : fabs(c - round(c)) < 1e-9 ? "%.2f" : "%g", v->number);
	} else if (f->kind == PF_LIST) {
		size_t o = 0;
		buf[0] = '\0';
		for (size_t i = 0; i < v->nlist && o < n; i++)
			o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", v->list[i]);
		if (!v->nlist)
			snprintf(buf, n, "none");
	} else {
		snprintf(buf, n, "%s", v->text);
	}
	return buf;
}

json_t *sheet_json_number(double v)
{
	if (isnan(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* A new array of the strings v[0..n), or NULL when out of memory. */
static json_t *strv_json(char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_string(v[i])) != 0) {
			json_decref(a);
			a = NULL;
		}
	return a;
}

json_t *sheet_value_json(const struct pfield_def *f, const struct pvalue *v)
{
	if (!v->known)
		return f->kind == PF_ENUM ? json_string("unknown") : json_null();
	switch (f->kind) {
	case PF_BOOL:
		return json_boolean(strcmp(v->text, "yes") == 0);
	case PF_NUMBER:
		return sheet_json_number(v->number);
	case PF_LIST:
		return strv_json(v->list, v->nlist);
	default:
		return json_string(v->text);
	}
}

long sheet_days_ago(const char *date, long today)
{
	long d = str_date_days(date);
	return d < 0 ? -1 : today - d;
}

/* Footnote number of a source URL, adding it to the list when new. */
static size_t footnote(const char **list, size_t *n, const char *url)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], url) == 0)
			return i + 1;
	list[(*n)++] = url;
	return *n;
}

static void add_field_row(struct sheet *s, int field)
{
	const struct pfield_def *f = &profile_fields[field];
	const struct pvalue *v = profile_value(s->p, field);
	struct sheet_row *r = &s->rows[s->nrows++];
	r->field = field;
	r->title = f->label;
	sheet_value_text(f, v, r->text, sizeof r->text);
	if (!v->known)
		snprintf(r->text, sizeof r->text, "unknown");
	r->source = v->source ? footnote(s->sources, &s->nsources, v->source) : 0;
	r->note = v->note;
}

enum gc_status sheet_build(struct sheet *s, const struct profile *p, long today, char **err)
{
	memset(s, 0, sizeof *s);
	s->p = p;
	s->days_ago = sheet_days_ago(p->verified, today);
	s->stale = s->days_ago > SHEET_STALE_DAYS;
	/* every field at most once, spot once more under billing, a title a group */
	s->rows = calloc(profile_field_count + 1 + sheet_ngroups, sizeof *s->rows);
	s->sources = calloc(profile_field_count + p->nsources + 1, sizeof *s->sources);
	if (!s->rows || !s->sources)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t g = 0; g < sheet_ngroups; g++) {
		int idx[16];
		size_t nf = sheet_group_fields(sheet_groups[g].group, idx, 16);
		struct sheet_row *t = &s->rows[s->nrows++];
		t->field = -1;
		t->title = sheet_groups[g].title;
		for (size_t k = 0; k < nf; k++)
			add_field_row(s, idx[k]);
	}
	for (size_t i = 0; i < p->nsources; i++)
		footnote(s->sources, &s->nsources, p->sources[i]);
	return GC_OK;
}

void sheet_release(struct sheet *s)
{
	free(s->rows);
	free(s->sources);
	memset(s, 0, sizeof *s);
}

/* The fields of `group` as a new object, or NULL when out of memory. */
static json_t *group_json(const struct profile *p, const char *group)
{
	json_t *o = json_object();
	for (size_t i = 0; o && i < profile_field_count; i++)
		if (strcmp(profile_fields[i].group, group) == 0 &&
		    json_object_set_new(o, profile_fields[i].key,
					sheet_value_json(&profile_fields[i], &p->values[i])) != 0) {
			json_decref(o);
			o = NULL;
		}
	return o;
}

void sheet_field_path(int i, char *path, size_t n)
{
	const struct pfield_def *f = &profile_fields[i];
	snprintf(path, n, "%s%s%s", f->group, *f->group ? "." : "", f->key);
}

/* field_sources and notes: each field's source URL and note by its path;
 * 0, or -1 when out of memory. */
static int sources_json(json_t *o, const struct profile *p)
{
	json_t *fs = json_object(), *notes = json_object();
	int bad = 0;
	for (size_t i = 0; fs && notes && !bad && i < profile_field_count; i++) {
		char path[64];
		sheet_field_path((int)i, path, sizeof path);
		if (p->values[i].source)
			bad |= json_object_set_new(fs, path, json_string(p->values[i].source));
		if (p->values[i].note)
			bad |= json_object_set_new(notes, path, json_string(p->values[i].note));
	}
	bad |= json_object_set_new(o, "field_sources", fs);
	bad |= json_object_set_new(o, "notes", notes);
	return bad ? -1 : 0;
}

/* The value of field `path` of p: a new reference, or NULL. */
static json_t *value_json(const struct profile *p, const char *path)
{
	int i = profile_field_index(path);
	return sheet_value_json(&profile_fields[i], &p->values[i]);
}

json_t *sheet_json(const struct sheet *s)
{
	const struct profile *p = s->p;
	json_t *o = json_object();
	if (!o)
		return NULL;
	int bad = json_object_set_new(o, "id", json_string(p->id));
	bad |= json_object_set_new(o, "name", json_string(p->name));
	bad |= json_object_set_new(o, "site", json_string(p->site));
	bad |= json_object_set_new(o, "kind", json_string(p->kind));
	for (size_t g = 0; g < SHEET_JSON_GROUPS; g++)
		bad |= json_object_set_new(o, sheet_groups[g].group,
					   group_json(p, sheet_groups[g].group));
	bad |= json_object_set_new(o, "spot", value_json(p, "spot"));
	bad |= json_object_set_new(o, "billing", value_json(p, "billing.granularity"));
	bad |= json_object_set_new(o, "costs", group_json(p, "costs"));
	bad |= json_object_set_new(o, "regions", strv_json(p->regions, p->nregions));
	bad |= json_object_set_new(o, "sources", strv_json(p->sources, p->nsources));
	bad |= sources_json(o, p);
	bad |= json_object_set_new(o, "note", p->note ? json_string(p->note) : json_null());
	bad |= json_object_set_new(o, "verified", json_string(p->verified));
	bad |= json_object_set_new(o, "verified_days_ago", json_integer(s->days_ago));
	bad |= json_object_set_new(o, "stale", json_boolean(s->stale));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
