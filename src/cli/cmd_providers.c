/* cmd_providers.c - gpucmp providers: one line per provider. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/strutil.h"

static json_t *provider_json(const struct query_provider *r)
{
	const struct profile *p = r->p;
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(p->id));
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "kind", json_string(p->kind));
	for (size_t i = 0; query_provider_paths[i]; i++) {
		int idx = profile_field_index(query_provider_paths[i]);
		json_object_set_new(o, query_provider_keys[i],
				    pv_json(&profile_fields[idx], profile_value(p, idx)));
	}
	json_object_set_new(o, "offers", json_integer(r->offers));
	json_object_set_new(o, "min_price_hr", cli_json_number(r->min_price_hr));
	json_object_set_new(o, "verified", json_string(p->verified));
	return o;
}

static int print_json(const struct query_provider *rows, size_t n, int ndjson)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < n; i++)
		json_array_append_new(arr, provider_json(&rows[i]));
	return cli_print_json(arr, ndjson);
}

enum { PCOLS = 13, CELL = 48 };

/* The cells of one row: text in t[PCOLS][CELL]. */
static void row_text(const struct cli_env *env, const struct query_provider *r,
		     enum render_format fmt, char (*t)[CELL])
{
	const struct profile *p = r->p;
	snprintf(t[0], CELL, "%s", p->id);
	snprintf(t[1], CELL, "%s", p->name);
	snprintf(t[2], CELL, "%s", p->kind);
	for (size_t f = 0; query_provider_paths[f] && f < 8; f++) {
		int idx = profile_field_index(query_provider_paths[f]);
		pv_text(&profile_fields[idx], profile_value(p, idx), t[3 + f], CELL);
	}
	snprintf(t[11], CELL, "%lld", r->offers);
	if (isnan(r->min_price_hr))
		snprintf(t[12], CELL, "-");
	else if (fmt == RF_TABLE)
		render_money(t[12], CELL, r->min_price_hr, &env->money);
	else /* CSV: the number as stored, in USD */
		snprintf(t[12], CELL, "%.15g", r->min_price_hr);
}

static int print_grid(const struct cli_env *env, const char **cells, const unsigned char *dim,
		      size_t rows, const struct cli_args *a)
{
	struct grid_col cols[PCOLS] = {
		{"ID", 0, 1}, {"NAME", 0, 6}, {"KIND", 0, 5}, {"K8S", 0, 1},
		{"IMAGE", 0, 2}, {"DOCKERD", 0, 3}, {"MIG", 0, 1}, {"MPS", 0, 3},
		{"TSLICE", 0, 3}, {"IB", 0, 2}, {"RDMA", 0, 4}, {"OFFERS", 1, 2},
		{"FROM $/H", 1, 1}};
	char from[32], *err = NULL;
	int rc = EXIT_OK;
	render_money_header(from, sizeof from, cols[PCOLS - 1].header, &env->money);
	cols[PCOLS - 1].header = from;
	if (render_grid(stdout, cols, PCOLS, cells, dim, rows, render_term_width(stdout),
			cli_use_color(a, stdout), &err) != GC_OK) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	} else if (env->money_note[0]) {
		msg_note("%s", env->money_note);
	}
	free(err);
	return rc;
}

static int print_rows(const struct cli_env *env, const struct query_provider *rows, size_t n,
		      enum render_format fmt, const struct cli_args *a)
{
	char (*text)[PCOLS][CELL] = calloc(n ? n : 1, sizeof *text);
	const char **cells = calloc((n ? n : 1) * PCOLS, sizeof *cells);
	unsigned char *dim = calloc((n ? n : 1) * PCOLS, 1);
	int rc = EXIT_OK;
	if (!text || !cells || !dim) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
		n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		row_text(env, &rows[i], fmt, text[i]);
		for (size_t c = 0; c < PCOLS; c++) {
			cells[i * PCOLS + c] = text[i][c];
			dim[i * PCOLS + c] = strcmp(text[i][c], "?") == 0;
		}
	}
	if (!rc && fmt == RF_CSV)
		rc = cli_print_csv("id,name,kind,k8s,docker_custom_image,docker_daemon,mig,mps,"
				   "time_slicing,infiniband,rdma,offers,min_price_hr",
				   cells, n, PCOLS);
	else if (!rc && n)
		rc = print_grid(env, cells, dim, n, a);
	else if (!rc)
		msg_note("no providers match");
	free(text);
	free(cells);
	free(dim);
	return rc;
}

/* The providers the filters select, printed. */
static int list_providers(struct cli_env *env, const struct cli_args *a,
			  const struct query *q)
{
	struct query_provider *rows = NULL;
	size_t n = 0;
	char *err = NULL;
	enum gc_status st = query_providers(env->cache, &env->cat.profiles, q, &rows, &n, &err);
	if (st != GC_OK) {
		int rc = cli_cache_failed(env, NULL, st, err, "cannot query providers");
		free(err);
		return rc;
	}
	enum render_format fmt = cli_format(a);
	int rc = fmt == RF_JSON || fmt == RF_NDJSON ? print_json(rows, n, fmt == RF_NDJSON)
						    : print_rows(env, rows, n, fmt, a);
	free(rows);
	return rc;
}

int cmd_providers(struct cli_args *a)
{
	if (cli_flag(a, O_CHECK))
		return cmd_providers_check(a);
	if (a->npos) {
		msg_error("'providers' takes no arguments; use 'gpucmp show ID' for one provider");
		return EXIT_USAGE;
	}
	struct cli_env env;
	memset(&env, 0, sizeof env);
	struct where_result where;
	int have_where = 0;
	struct query q;
	query_init(&q);
	int rc = cli_catalog_need(&env, CATALOG_PROFILES);
	if (!rc)
		rc = cli_where(a, query_provider_field, query_provider_suggest, NULL, &where,
			       &have_where);
	cli_caps(a, &q.caps);
	if (!rc)
		rc = cli_currency(&env);
	if (!rc)
		rc = cli_open_cache(&env, a);
	q.where = have_where ? &where : NULL;
	if (!rc)
		rc = list_providers(&env, a, &q);
	if (have_where)
		where_result_release(&where);
	cli_env_release(&env);
	return rc;
}

static const struct opt_def opt_check = {O_CHECK, "check", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"validate profiles (the built-in ones, or FILE/DIR arguments) and exit"};

static const struct opt_use providers_opts[] = {
	OPT_GROUP(opts_common), OPT_GROUP(opts_filters), OPT_GROUP(opts_output),
	OPT_USE(opt_check), {NULL, NULL}};
static const struct arg_hint providers_args[] = {
	{ARG_FILES, 0, "profile file or folder", NULL, NULL, "check"},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

const struct cmd_entry cmd_providers_entry = {
	.name = "providers",
	.run = cmd_providers,
	.usage = "providers [options] | providers --check [FILE|DIR...]",
	.summary = "One line per provider with its capability summary and cheapest known offer.",
	.detail =
		"Capability filters (--k8s, --docker, --mig, --mps, --time-slicing, --ib,\n"
		"--rdma, --nvlink) select providers that qualify, with or without prices.\n\n"
		"--check validates profiles against the schema (docs/PROFILES.md): the\n"
		"built-in ones, or the files and directories (*.yaml) named. Every error is\n"
		"printed as FILE:LINE: MESSAGE; the exit code is 65 when any profile is "
		"invalid.\n\n"
		"examples:\n"
		"  gpucmp providers --k8s managed --mig\n"
		"  gpucmp providers --check providers/",
	.opts = providers_opts,
	.args = providers_args,
};
