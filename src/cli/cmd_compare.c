/* cmd_compare.c - gpucmp compare ID ID [ID...]: providers side by side.
 *
 * One column per provider, one row per capability field, grouped like
 * `show`.  Rows where the providers differ are marked with '*' (and shown
 * alone with --diff); a profile verified more than 180 days ago is flagged
 * STALE in the header rows.  sheet_compare_build (gpucmp/sheet.h) answers;
 * this file lays the rows out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/sheet.h"
#include "gpucmp/strutil.h"

enum { NCOLS = SHEET_COMPARE_MAX + 1, HEAD = 2 };

/* The cells of row r of the table: kind, verified, then the comparison's rows. */
static void row_cells(const struct sheet_compare *c, size_t r, char (*text)[SHEET_CELL],
		      const char **cells, unsigned char *dim)
{
	if (r < HEAD) {
		snprintf(text[0], SHEET_CELL, r ? "  verified" : "  kind");
		for (size_t i = 0; i < c->ncols; i++) {
			const struct sheet_column *col = &c->cols[i];
			if (r)
				snprintf(text[i + 1], SHEET_CELL, "%s (%ld d)%s", col->p->verified,
					 col->days_ago, col->stale ? " STALE" : "");
			else
				snprintf(text[i + 1], SHEET_CELL, "%s", col->p->kind);
		}
	} else {
		const struct sheet_crow *row = &c->rows[r - HEAD];
		if (row->field < 0)
			snprintf(text[0], SHEET_CELL, "%s", row->title);
		else
			snprintf(text[0], SHEET_CELL, "%s %s", row->differs ? "*" : " ",
				 row->title);
		for (size_t i = 0; row->field >= 0 && i < c->ncols; i++) {
			cells[i + 1] = row->text[i];
			dim[i + 1] = strcmp(row->text[i], "?") == 0;
		}
	}
	for (size_t i = 0; i <= c->ncols; i++)
		if (!cells[i])
			cells[i] = text[i];
}

static void print_footer(const struct sheet_compare *c)
{
	printf("\n* %zu field%s differ%s; ? = unknown (not confirmed in the provider's "
	       "documentation). 'gpucmp show ID' gives sources and notes.\n",
	       c->ndiff, c->ndiff == 1 ? "" : "s", c->ndiff == 1 ? "s" : "");
	if (c->nstale)
		printf("STALE: verified more than %d days ago; re-check the sources.\n",
		       SHEET_STALE_DAYS);
}

static int print_table(const struct cli_args *a, const struct sheet_compare *c)
{
	size_t ncols = c->ncols + 1, rows = c->nrows + HEAD;
	char(*text)[NCOLS][SHEET_CELL] = calloc(rows, sizeof *text);
	const char **cells = calloc(rows * ncols, sizeof *cells);
	unsigned char *dim = calloc(rows * ncols, 1);
	struct grid_col cols[NCOLS];
	int rc = EXIT_OK;
	if (!text || !cells || !dim) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
		goto out;
	}
	cols[0] = (struct grid_col){"", 0, 0, 0};
	for (size_t i = 0; i < c->ncols; i++)
		cols[i + 1] = (struct grid_col){c->cols[i].p->id, 0, 0, 0};
	for (size_t r = 0; r < rows; r++)
		row_cells(c, r, text[r], &cells[r * ncols], &dim[r * ncols]);
	char *err = NULL;
	enum gc_status st = render_grid(stdout, cols, ncols, cells, dim, rows,
					render_term_width(stdout), cli_use_color(a, stdout), &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot write output");
		rc = exit_code_for(st);
	}
	free(err);
	if (rc == EXIT_OK)
		print_footer(c);
out:
	free(text);
	free(cells);
	free(dim);
	return rc;
}

/* Compare ps[0..n) and print the table or the JSON; returns an exit code. */
static int compare(const struct cli_env *env, const struct cli_args *a,
		   const struct profile *const *ps, size_t n)
{
	struct sheet_compare c;
	char *err = NULL;
	enum gc_status st = sheet_compare_build(&c, ps, n, env->cat.today, cli_flag(a, O_DIFF),
						&err);
	int rc;
	if (st != GC_OK) {
		msg_status(st, err, "cannot compare the providers");
		rc = exit_code_for(st);
	} else if (cli_flag(a, O_JSON)) {
		rc = cli_print_json(sheet_compare_json(&c), 0);
	} else {
		rc = print_table(a, &c);
	}
	free(err);
	sheet_compare_release(&c);
	return rc;
}

static int cmd_compare(struct cli_args *a)
{
	if (a->npos < 2) {
		msg_error("'compare' needs at least two provider ids; "
			  "'gpucmp providers' lists them");
		return EXIT_USAGE;
	}
	if (a->npos > SHEET_COMPARE_MAX) {
		msg_error("'compare' takes at most %d providers", SHEET_COMPARE_MAX);
		return EXIT_USAGE;
	}
	struct cli_env env;
	int rc = cli_env_start(&env, CATALOG_PROFILES);
	if (rc)
		return rc;
	const struct profile *ps[SHEET_COMPARE_MAX];
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
	if (!rc)
		rc = compare(&env, a, ps, n);
	cli_env_release(&env);
	return rc;
}

static const struct opt_def opt_diff = {.id = O_DIFF, .name = "diff", .type = OPT_BOOL,
	.help = "only the fields where the providers differ"};

static const struct opt_use compare_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_USE(opt_diff), OPT_END};
static const struct arg_hint compare_args[] = {ARG_HINT(ARG_PROVIDERS, 0, "provider id"), ARG_END};

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
