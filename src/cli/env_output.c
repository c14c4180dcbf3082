/* env_output.c - how results reach people: colour, format, prices in a
 * currency, the render spec of a table command, "unknown NAME; did you
 * mean" messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/strutil.h"

int cli_money(struct cli_env *env, const char *code)
{
	char *err = NULL;
	enum gc_status st = render_money_for(code, &env->money, env->money_note,
					     sizeof env->money_note, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the exchange rates");
		free(err);
		return st == GC_EUSAGE ? EXIT_USAGE : exit_code_for(st);
	}
	return EXIT_OK;
}

int cli_currency(struct cli_env *env)
{
	int rc = cli_config(env);
	return rc ? rc : cli_money(env, config_currency(&env->config));
}

int cli_use_color(const struct cli_args *a, FILE *f)
{
	const char *when = cli_opt(a, O_COLOR);
	if (when && strcmp(when, "always") == 0)
		return 1;
	if (when && strcmp(when, "never") == 0)
		return 0;
	const char *no = getenv("NO_COLOR");
	const char *term = getenv("TERM");
	if ((no && *no) || (term && strcmp(term, "dumb") == 0))
		return 0;
	return isatty(fileno(f));
}

/* --format's value is one of render_formats' choices (the parser refused
 * any other); --json alone is json. */
enum render_format cli_format(const struct cli_args *a)
{
	const struct render_format_def *d = render_format_named(cli_opt(a, O_FORMAT));
	if (cli_flag(a, O_JSON) && (!d || d->format == RF_TABLE))
		return RF_JSON;
	return d ? d->format : RF_TABLE;
}

void cli_render_spec(const struct cli_args *a, const struct cli_env *env,
		     const struct field *fields, size_t n, const struct field **cols,
		     struct render_spec *spec)
{
	enum render_format fmt = cli_format(a);
	*spec = (struct render_spec){.format = fmt, .cols = cols, .out = stdout,
				     .color = cli_use_color(a, stdout),
				     .width = render_term_width(stdout), .money = env->money,
				     .fields = fields, .json_indent = 2, .plain_none = 1};
	spec->ncols = render_pick(fields, n, fmt, cols);
}

void cli_legend_want(const struct cli_args *a, const struct cli_env *env,
		     struct render_spec *spec, struct render_seen *seen)
{
	int off = cli_flag(a, O_NO_LEGEND) || cli_flag(a, O_QUIET) ||
		  (env->config.found && env->config.legend == 0);
	if (spec->format == RF_TABLE && spec->width > 0 && isatty(fileno(spec->out)) && !off)
		spec->seen = seen;
}

void cli_legend_print(const struct render_spec *spec, size_t rows)
{
	char legend[1024];
	if (!spec->seen || !rows)
		return;
	query_legend(spec->seen, spec->ncols, (size_t)spec->width, legend, sizeof legend);
	if (legend[0])
		fprintf(spec->out, "%s\n", legend);
}

int cli_render(const struct cli_args *a, const struct cli_env *env, const struct field *fields,
	       size_t n, size_t rows, render_fill_fn fill, void *ctx)
{
	const struct field *cols[RENDER_MAX_VALUES];
	struct render_spec spec;
	struct render_seen seen;
	char *err = NULL;
	cli_render_spec(a, env, fields, n, cols, &spec);
	cli_legend_want(a, env, &spec, &seen);
	enum gc_status st = render_rows(&spec, rows, fill, ctx, &err);
	if (st == GC_OK)
		cli_legend_print(&spec, rows);
	return cli_render_status(st, err);
}

int cli_render_status(enum gc_status st, char *err)
{
	if (st != GC_OK)
		msg_status(st, err, "cannot write output");
	free(err);
	return exit_code_for(st);
}

int cli_unknown(const char *what, const char *name, const char *best, const char *hint)
{
	char safe[64];
	str_sanitize(safe, sizeof safe, name);
	if (best)
		msg_error("unknown %s '%s'; did you mean '%s'?", what, safe, best);
	else
		msg_error("unknown %s '%s'; %s", what, safe, hint);
	return EXIT_USAGE;
}

int cli_unknown_provider(const struct cli_env *env, const char *id)
{
	return cli_unknown("provider", id, profile_set_suggest(&env->cat.profiles, id),
			   "'gpucmp providers' lists them");
}
