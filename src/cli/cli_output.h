/* cli_output.h - what a command prints with (env_output.c:
 * colour, format, currency, render spec, the legend, unknown names;
 * profile_view.c: JSON out, the capability filters given).  Included by
 * cli.h, after cli_env.h. */
#ifndef GPUCMP_CLI_OUTPUT_H
#define GPUCMP_CLI_OUTPUT_H

/* --- env_output.c: colour, format, currency, render spec, unknown names --- */

/* Show table prices in currency `code` (ISO 4217; NULL or "USD": dollars)
 * at data/rates.yaml's dated rate: sets env->money and env->money_note;
 * prints the error; returns an exit code. */
int cli_money(struct cli_env *env, const char *code);

/* cli_money() with the config file's currency (loading the file). */
int cli_currency(struct cli_env *env);

/* Decide colour for stdout: --color, NO_COLOR, TERM=dumb, isatty. */
int cli_use_color(const struct cli_args *a, FILE *f);

/* Output format from --format / --json; table when neither. */
enum render_format cli_format(const struct cli_args *a);

/* The spec a table command other than list renders with (the one
 * renderer, gpucmp/render.h): the format of --format / --json, colour and
 * width of stdout, env's currency, JSON indented by 2, a "-" never dimmed;
 * the columns render_pick chooses of `fields` (n of them) into cols. */
void cli_render_spec(const struct cli_args *a, const struct cli_env *env,
		     const struct field *fields, size_t n, const struct field **cols,
		     struct render_spec *spec);
/* Render `rows` rows with that spec, fill(ctx, i, vals) giving row i's
 * values (one per entry of fields); prints the error; returns an exit code. */
/* The legend under a table (query_legend): due on a terminal, unless
 * --no-legend, --quiet or the config's legend: false; then spec->seen
 * points at `seen`.  cli_legend_print prints it after the table's `rows`. */
void cli_legend_want(const struct cli_args *a, const struct cli_env *env,
		     struct render_spec *spec, struct render_seen *seen);
void cli_legend_print(const struct render_spec *spec, size_t rows);
int cli_render(const struct cli_args *a, const struct cli_env *env, const struct field *fields,
	       size_t n, size_t rows, render_fill_fn fill, void *ctx);
/* A render call's status (err: its message, freed here) as an exit code,
 * the error printed. */
int cli_render_status(enum gc_status st, char *err);

/* "unknown WHAT 'NAME'; did you mean 'BEST'?" (or "; HINT" without a
 * suggestion) on stderr; returns 64.  cli_unknown_provider suggests a
 * profile id. */
int cli_unknown(const char *what, const char *name, const char *best, const char *hint);
int cli_unknown_provider(const struct cli_env *env, const char *id);

/* --- profile_view.c --- */

struct json_t;
/* Print `v` (stolen; NULL: out of memory, exit 71) to stdout: indented
 * JSON, or with `ndjson` one compact line per element of an array.
 * Returns an exit code. */
int cli_print_json(struct json_t *v, int ndjson);
/* The capability filters (--k8s, --docker, --mig ... --available) given in
 * `a`, found by option name in query_caps, as bits (1u << QC_*) in *caps. */
void cli_caps(const struct cli_args *a, unsigned *caps);

#endif
