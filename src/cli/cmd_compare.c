/* cmd_compare.c - gpucmp compare ID ID [ID...]: providers side by side.
 *
 * One column per provider, one row per capability field, grouped like
 * `show`.  Rows where the providers differ are marked with '*' (and shown
 * alone with --diff); a profile verified more than 180 days ago is flagged
 * STALE in the header rows.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"

enum { MAX_COMPARE = 12, CCELL = 64 };

static int differs(const struct profile *const *ps, size_t n, int field)
{
	char a[CCELL], b[CCELL];
	pv_text(&profile_fields[field], profile_value(ps[0], field), a, sizeof a);
	for (size_t i = 1; i < n; i++) {
		pv_text(&profile_fields[field], profile_value(ps[i], field), b, sizeof b);
		if (strcmp(a, b) != 0)
			return 1;
	}
	return 0;
}

static int print_json(const struct cli_env *env, const struct profile *const *ps, size_t n,
		      int only_diff)
{
	json_t *root = json_object(), *provs = json_array(), *fields = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		long ago = cli_days_ago(env, ps[i]->verified);
		json_object_set_new(o, "id", json_string(ps[i]->id));
		json_object_set_new(o, "name", json_string(ps[i]->name));
		json_object_set_new(o, "kind", json_string(ps[i]->kind));
		json_object_set_new(o, "verified", json_string(ps[i]->verified));
		json_object_set_new(o, "verified_days_ago", json_integer(ago));
		json_object_set_new(o, "stale", json_boolean(ago > PROFILE_STALE_DAYS));
		json_array_append_new(provs, o);
	}
	for (size_t g = 0; g < pv_ngroups; g++) {
		int idx[16];
		size_t nf = pv_group_fields(pv_groups[g].group, idx, 16);
		for (size_t k = 0; k < nf; k++) {
			const struct pfield_def *f = &profile_fields[idx[k]];
			int d = differs(ps, n, idx[k]);
			if (only_diff && !d)
				continue;
			json_t *o = json_object(), *vals = json_object();
			char path[64];
			snprintf(path, sizeof path, "%s%s%s", f->group, *f->group ? "." : "", f->key);
			json_object_set_new(o, "field", json_string(path));
			json_object_set_new(o, "group", json_string(pv_groups[g].group));
			json_object_set_new(o, "differs", json_boolean(d));
			for (size_t i = 0; i < n; i++)
				json_object_set_new(vals, ps[i]->id,
						    pv_json(f, profile_value(ps[i], idx[k])));
			json_object_set_new(o, "values", vals);
			json_array_append_new(fields, o);
		}
	}
	json_object_set_new(root, "providers", provs);
	json_object_set_new(root, "fields", fields);
	return cli_print_json(root, 0);
}

static int print_table(const struct cli_env *env, const struct cli_args *a,
		       const struct profile *const *ps, size_t n, int only_diff)
{
	size_t ncols = n + 1, cap = 64;
	char(*text)[MAX_COMPARE + 1][CCELL] = calloc(cap, sizeof *text);
	const char **cells = calloc(cap * ncols, sizeof *cells);
	unsigned char *dim = calloc(cap * ncols, 1);
	struct grid_col cols[MAX_COMPARE + 1];
	int rc = EXIT_OK;
	if (!text || !cells || !dim) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
		goto out;
	}
	cols[0] = (struct grid_col){"", 0, 1};
	for (size_t i = 0; i < n; i++)
		cols[i + 1] = (struct grid_col){ps[i]->id, 0, 1};
	size_t rows = 0, ndiff = 0, nstale = 0;
	/* header rows: kind and verified date */
	snprintf(text[rows][0], CCELL, "  kind");
	for (size_t i = 0; i < n; i++)
		snprintf(text[rows][i + 1], CCELL, "%s", ps[i]->kind);
	rows++;
	snprintf(text[rows][0], CCELL, "  verified");
	for (size_t i = 0; i < n; i++) {
		long ago = cli_days_ago(env, ps[i]->verified);
		int stale = ago > PROFILE_STALE_DAYS;
		nstale += (size_t)stale;
		snprintf(text[rows][i + 1], CCELL, "%s (%ld d)%s", ps[i]->verified, ago,
			 stale ? " STALE" : "");
	}
	rows++;
	for (size_t g = 0; g < pv_ngroups; g++) {
		int idx[16];
		size_t nf = pv_group_fields(pv_groups[g].group, idx, 16), title = rows;
		if (rows + nf + 1 >= cap)
			break; /* cannot happen with the schema's ~30 fields */
		snprintf(text[rows++][0], CCELL, "%s", pv_groups[g].title);
		for (size_t k = 0; k < nf; k++) {
			const struct pfield_def *f = &profile_fields[idx[k]];
			int d = differs(ps, n, idx[k]);
			ndiff += (size_t)d;
			if (only_diff && !d)
				continue;
			snprintf(text[rows][0], CCELL, "%s %s", d ? "*" : " ", f->label);
			for (size_t i = 0; i < n; i++) {
				pv_text(f, profile_value(ps[i], idx[k]), text[rows][i + 1], CCELL);
				dim[rows * ncols + i + 1] = strcmp(text[rows][i + 1], "?") == 0;
			}
			rows++;
		}
		if (rows == title + 1)
			rows--; /* --diff: a group with no differences has no title */
	}
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < ncols; c++)
			cells[r * ncols + c] = text[r][c];
	char *err = NULL;
	if (render_grid(stdout, cols, ncols, cells, dim, rows, render_term_width(stdout),
			cli_use_color(a, stdout), &err) != GC_OK) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	}
	free(err);
	if (rc == EXIT_OK) {
		printf("\n* %zu field%s differ%s; ? = unknown (not confirmed in the provider's "
		       "documentation). 'gpucmp show ID' gives sources and notes.\n",
		       ndiff, ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
		if (nstale)
			printf("STALE: verified more than %d days ago; re-check the sources.\n",
			       PROFILE_STALE_DAYS);
	}
out:
	free(text);
	free(cells);
	free(dim);
	return rc;
}

static int cmd_compare(struct cli_args *a)
{
	if (a->npos < 2) {
		msg_error("'compare' needs at least two provider ids; 'gpucmp providers' lists them");
		return EXIT_USAGE;
	}
	if (a->npos > MAX_COMPARE) {
		msg_error("'compare' takes at most %d providers", MAX_COMPARE);
		return EXIT_USAGE;
	}
	struct cli_env env;
	memset(&env, 0, sizeof env);
	int rc = cli_catalog_need(&env, CATALOG_PROFILES);
	if (rc)
		return rc;
	const struct profile *ps[MAX_COMPARE];
	size_t n = 0;
	for (int i = 0; i < a->npos && !rc; i++) {
		const struct profile *p = profile_set_find(&env.cat.profiles, a->pos[i]);
		char safe[64];
		str_sanitize(safe, sizeof safe, a->pos[i]);
		if (!p) {
			rc = cli_unknown_provider(&env, a->pos[i]);
			break;
		}
		for (size_t k = 0; k < n; k++)
			if (ps[k] == p) {
				msg_error("provider '%s' given twice", safe);
				rc = EXIT_USAGE;
			}
		ps[n++] = p;
	}
	if (!rc) {
		int only_diff = cli_flag(a, O_DIFF);
		rc = cli_flag(a, O_JSON) ? print_json(&env, ps, n, only_diff)
					 : print_table(&env, a, ps, n, only_diff);
	}
	cli_env_release(&env);
	return rc;
}

static const struct opt_def opt_diff = {O_DIFF, "diff", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"only the fields where the providers differ"};

static const struct opt_use compare_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_USE(opt_diff), {NULL, NULL}};
static const struct arg_hint compare_args[] = {
	{ARG_PROVIDERS, 0, "provider id", NULL, NULL, NULL},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.run = cmd_compare,
	.usage = "compare ID ID [ID...] [--diff] [--json]",
	.summary = "Providers side by side: one column each, one row per capability field.",
	.detail =
		"Rows where the providers differ are marked '*'; --diff shows only those.\n"
		"'?' is unknown: not confirmed in the provider's documentation. A profile\n"
		"verified more than 180 days ago is marked STALE.\n\n"
		"examples:\n"
		"  gpucmp compare aws gcp azure\n"
		"  gpucmp compare coreweave lambda nebius --diff\n"
		"  gpucmp compare runpod vast --json",
	.opts = compare_opts,
	.args = compare_args,
};
