/* sheet_compare.c - providers side by side (compare): one row per
 * capability field with a cell per provider, marked where they differ,
 * and the compare --json document. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/sheet.h"

/* Do the providers' texts of `field` differ?  Compared as shown, cut to a cell. */
static int differs(const struct sheet_compare *c, int field)
{
	char a[SHEET_CELL], b[SHEET_CELL];
	const struct pfield_def *f = &profile_fields[field];
	sheet_value_text(f, profile_value(c->cols[0].p, field), a, sizeof a);
	for (size_t i = 1; i < c->ncols; i++) {
		sheet_value_text(f, profile_value(c->cols[i].p, field), b, sizeof b);
		if (strcmp(a, b) != 0)
			return 1;
	}
	return 0;
}

/* The rows of group g; with only_diff, none when no field differs. */
static void add_group(struct sheet_compare *c, size_t g, int only_diff)
{
	int idx[16];
	size_t nf = sheet_group_fields(sheet_groups[g].group, idx, 16), title = c->nrows;
	struct sheet_crow *t = &c->rows[c->nrows++];
	t->field = -1;
	t->group = sheet_groups[g].group;
	t->title = sheet_groups[g].title;
	for (size_t k = 0; k < nf; k++) {
		int d = differs(c, idx[k]);
		c->ndiff += (size_t)d;
		if (only_diff && !d)
			continue;
		struct sheet_crow *r = &c->rows[c->nrows++];
		const struct pfield_def *f = &profile_fields[idx[k]];
		r->field = idx[k];
		r->group = t->group;
		r->title = f->label;
		r->differs = d;
		for (size_t i = 0; i < c->ncols; i++)
			sheet_value_text(f, profile_value(c->cols[i].p, idx[k]), r->text[i],
					 SHEET_CELL);
	}
	if (c->nrows == title + 1)
		c->nrows--; /* only_diff: a group with no differences has no title */
}

enum gc_status sheet_compare_build(struct sheet_compare *c, const struct profile *const *ps,
				   size_t n, long today, int only_diff, char **err)
{
	memset(c, 0, sizeof *c);
	if (n < 2 || n > SHEET_COMPARE_MAX)
		return err_set(err, GC_EUSAGE, "compare takes 2 to %d providers",
			       SHEET_COMPARE_MAX);
	for (size_t i = 0; i < n; i++) {
		struct sheet_column *col = &c->cols[c->ncols++];
		col->p = ps[i];
		col->days_ago = sheet_days_ago(ps[i]->verified, today);
		col->stale = col->days_ago > SHEET_STALE_DAYS;
		c->nstale += (size_t)col->stale;
	}
	/* every field at most once, spot once more under billing, a title a group */
	c->rows = calloc(profile_field_count + 1 + sheet_ngroups, sizeof *c->rows);
	if (!c->rows)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t g = 0; g < sheet_ngroups; g++)
		add_group(c, g, only_diff);
	return GC_OK;
}

void sheet_compare_release(struct sheet_compare *c)
{
	free(c->rows);
	memset(c, 0, sizeof *c);
}

/* One provider of the "providers" array: a new reference, or NULL. */
static json_t *column_json(const struct sheet_column *col)
{
	const struct profile *p = col->p;
	return json_pack("{s:s, s:s, s:s, s:s, s:I, s:b}", "id", p->id, "name", p->name, "kind",
			 p->kind, "verified", p->verified, "verified_days_ago",
			 (json_int_t)col->days_ago, "stale", col->stale);
}

/* One field row of the "fields" array: a new reference, or NULL. */
static json_t *row_json(const struct sheet_compare *c, const struct sheet_crow *r)
{
	const struct pfield_def *f = &profile_fields[r->field];
	char path[64];
	sheet_field_path(r->field, path, sizeof path);
	json_t *vals = json_object();
	for (size_t i = 0; vals && i < c->ncols; i++)
		if (json_object_set_new(vals, c->cols[i].p->id,
					sheet_value_json(f, profile_value(c->cols[i].p,
									  r->field))) != 0) {
			json_decref(vals);
			vals = NULL;
		}
	if (!vals)
		return NULL;
	return json_pack("{s:s, s:s, s:b, s:o}", "field", path, "group", r->group, "differs",
			 r->differs, "values", vals);
}

json_t *sheet_compare_json(const struct sheet_compare *c)
{
	json_t *provs = json_array(), *fields = json_array();
	int bad = !provs || !fields;
	for (size_t i = 0; !bad && i < c->ncols; i++)
		bad = json_array_append_new(provs, column_json(&c->cols[i]));
	for (size_t r = 0; !bad && r < c->nrows; r++)
		if (c->rows[r].field >= 0)
			bad = json_array_append_new(fields, row_json(c, &c->rows[r]));
	if (bad) {
		json_decref(provs);
		json_decref(fields);
		return NULL;
	}
	return json_pack("{s:o, s:o}", "providers", provs, "fields", fields);
}
