/* cmd_providers.c - gpucmp providers: one line per provider. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"

struct pstat {
	long long offers;
	double min_price;
};

/* Offer count and cheapest on-demand price per provider, from the cache. */
static void load_stats(struct cli_env *env, struct pstat *st)
{
	const struct profile_set *ps = &env->cat.profiles;
	for (size_t i = 0; i < ps->n; i++) {
		st[i].offers = 0;
		st[i].min_price = NAN;
	}
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(cache_db(env->cache),
			       "SELECT provider, count(*), min(price_hr) FROM offer GROUP BY provider",
			       -1, &s, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		for (size_t i = 0; id && i < ps->n; i++)
			if (strcmp(ps->items[i]->id, id) == 0) {
				st[i].offers = sqlite3_column_int64(s, 1);
				if (sqlite3_column_type(s, 2) != SQLITE_NULL)
					st[i].min_price = sqlite3_column_double(s, 2);
			}
	}
	sqlite3_finalize(s);
}

static const char *const summary_fields[] = {
	"kubernetes.mode", "docker.custom_image", "docker.daemon", "sharing.mig",
	"sharing.mps", "sharing.time_slicing", "interconnect.infiniband",
	"interconnect.rdma", "interconnect.nvlink", NULL};
static const char *const summary_keys[] = {
	"k8s", "docker_custom_image", "docker_daemon", "mig", "mps", "time_slicing",
	"infiniband", "rdma", "nvlink", NULL};

static json_t *provider_json(const struct profile *p, const struct pstat *st)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_string(p->id));
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "kind", json_string(p->kind));
	for (size_t i = 0; summary_fields[i]; i++) {
		int idx = profile_field_index(summary_fields[i]);
		json_object_set_new(o, summary_keys[i],
				    pv_json(&profile_fields[idx], profile_value(p, idx)));
	}
	json_object_set_new(o, "offers", json_integer(st->offers));
	json_object_set_new(o, "min_price_hr", cli_json_number(st->min_price));
	json_object_set_new(o, "verified", json_string(p->verified));
	return o;
}

static int print_json(const struct cli_env *env, const unsigned char *keep,
		      const struct pstat *st, int ndjson)
{
	const struct profile_set *ps = &env->cat.profiles;
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < ps->n; i++)
		if (keep[i])
			json_array_append_new(arr, provider_json(ps->items[i], &st[i]));
	return cli_print_json(arr, ndjson);
}

enum { PCOLS = 13, CELL = 48 };

static int print_rows(const struct cli_env *env, const unsigned char *keep,
		      const struct pstat *st, enum render_format fmt, const struct cli_args *a)
{
	struct grid_col cols[PCOLS] = {
		{"ID", 0, 1}, {"NAME", 0, 6}, {"KIND", 0, 5}, {"K8S", 0, 1},
		{"IMAGE", 0, 2}, {"DOCKERD", 0, 3}, {"MIG", 0, 1}, {"MPS", 0, 3},
		{"TSLICE", 0, 3}, {"IB", 0, 2}, {"RDMA", 0, 4}, {"OFFERS", 1, 2},
		{"FROM $/H", 1, 1}};
	char from[32];
	render_money_header(from, sizeof from, cols[PCOLS - 1].header, &env->money);
	cols[PCOLS - 1].header = from;
	const struct profile_set *ps = &env->cat.profiles;
	char (*text)[PCOLS][CELL] = calloc(ps->n ? ps->n : 1, sizeof *text);
	const char **cells = calloc((ps->n ? ps->n : 1) * PCOLS, sizeof *cells);
	unsigned char *dim = calloc((ps->n ? ps->n : 1) * PCOLS, 1);
	size_t rows = 0;
	int rc = EXIT_OK;
	if (!text || !cells || !dim) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
		goto out;
	}
	for (size_t i = 0; i < ps->n; i++) {
		if (!keep[i])
			continue;
		const struct profile *p = ps->items[i];
		char (*t)[CELL] = text[rows];
		snprintf(t[0], CELL, "%s", p->id);
		snprintf(t[1], CELL, "%s", p->name);
		snprintf(t[2], CELL, "%s", p->kind);
		for (size_t f = 0; summary_fields[f] && f < 8; f++) {
			int idx = profile_field_index(summary_fields[f]);
			pv_text(&profile_fields[idx], profile_value(p, idx), t[3 + f], CELL);
		}
		snprintf(t[11], CELL, "%lld", st[i].offers);
		if (isnan(st[i].min_price))
			snprintf(t[12], CELL, "-");
		else if (fmt == RF_TABLE)
			render_money(t[12], CELL, st[i].min_price, &env->money);
		else /* CSV: the number as stored, in USD */
			snprintf(t[12], CELL, "%.15g", st[i].min_price);
		for (size_t c = 0; c < PCOLS; c++) {
			cells[rows * PCOLS + c] = t[c];
			dim[rows * PCOLS + c] = strcmp(t[c], "?") == 0;
		}
		rows++;
	}
	if (fmt == RF_CSV) {
		rc = cli_print_csv("id,name,kind,k8s,docker_custom_image,docker_daemon,mig,mps,"
				   "time_slicing,infiniband,rdma,offers,min_price_hr",
				   cells, rows, PCOLS);
	} else if (rows) {
		char *err = NULL;
		if (render_grid(stdout, cols, PCOLS, cells, dim, rows, render_term_width(stdout),
				cli_use_color(a, stdout), &err) != GC_OK) {
			msg_error("cannot write output");
			rc = EXIT_IOERR;
		} else if (env->money_note[0]) {
			msg_note("%s", env->money_note);
		}
		free(err);
	} else {
		msg_note("no providers match");
	}
out:
	free(text);
	free(cells);
	free(dim);
	return rc;
}

/* --where over the provider table: a field is "group.key" (or
 * "group_key", or the key alone), or one of the summary's JSON keys (k8s,
 * mig, ...: summary_keys above), or "ib" and "billing". */
static const char *const extra_aliases[][2] = {
	{"ib", "interconnect.infiniband"}, {"billing", "billing.granularity"},
};

static const char *alias_path(const char *name)
{
	for (size_t i = 0; summary_keys[i]; i++)
		if (strcmp(name, summary_keys[i]) == 0)
			return summary_fields[i];
	for (size_t i = 0; i < sizeof extra_aliases / sizeof extra_aliases[0]; i++)
		if (strcmp(name, extra_aliases[i][0]) == 0)
			return extra_aliases[i][1];
	return NULL;
}

static char where_sql[64][160]; /* per profile field: its SQL over the provider table */

static int where_lookup(void *ctx, const char *name, struct where_field *out)
{
	(void)ctx;
	static const char *const plain[] = {"id", "name", "kind", "verified", NULL};
	for (size_t i = 0; plain[i]; i++)
		if (strcmp(name, plain[i]) == 0) {
			out->sql = plain[i];
			out->type = FT_TEXT;
			return 0;
		}
	char path[96];
	snprintf(path, sizeof path, "%s", name);
	const char *aliased = alias_path(name);
	if (aliased)
		snprintf(path, sizeof path, "%s", aliased);
	int idx = profile_field_index(path);
	for (char *u = path; idx < 0 && (u = strchr(u, '_')) != NULL; u++) {
		/* "kubernetes_mode" -> "kubernetes.mode" (the first '_' that works) */
		*u = '.';
		idx = profile_field_index(path);
		if (idx < 0)
			*u = '_';
	}
	for (size_t i = 0; idx < 0 && i < profile_field_count; i++)
		if (strcmp(profile_fields[i].key, name) == 0) /* "gang_scheduling" alone */
			idx = (int)i;
	if (idx < 0 || idx >= 64)
		return -1;
	const struct pfield_def *f = &profile_fields[idx];
	char col[64];
	snprintf(col, sizeof col, "%s%s%s", f->group, *f->group ? "_" : "", f->key);
	switch (f->kind) {
	case PF_NUMBER:
		snprintf(where_sql[idx], sizeof where_sql[idx], "%s", col);
		out->type = FT_NUM;
		break;
	case PF_BOOL:
		snprintf(where_sql[idx], sizeof where_sql[idx],
			 "(CASE %s WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END)", col);
		out->type = FT_BOOL;
		break;
	default:
		snprintf(where_sql[idx], sizeof where_sql[idx], "%s", col);
		out->type = f->kind == PF_ENUM ? FT_ENUM : FT_TEXT;
	}
	out->sql = where_sql[idx];
	return 0;
}

static const char *where_suggest(void *ctx, const char *name)
{
	(void)ctx;
	static char paths[64][96]; /* suggest_try keeps the pointers */
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; summary_keys[i]; i++)
		suggest_try(&s, summary_keys[i]);
	for (size_t i = 0; i < sizeof extra_aliases / sizeof extra_aliases[0]; i++)
		suggest_try(&s, extra_aliases[i][0]);
	for (size_t i = 0; i < profile_field_count && i < 64; i++) {
		snprintf(paths[i], sizeof paths[i], "%s%s%s", profile_fields[i].group,
			 *profile_fields[i].group ? "." : "", profile_fields[i].key);
		suggest_try(&s, paths[i]);
	}
	return suggest_best(&s);
}

/* Keep only the providers the compiled --where selects. */
static int apply_where(struct cli_env *env, const struct where_result *w, unsigned char *keep)
{
	char *sql = malloc(w->sql.len + 64);
	if (!sql) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	sprintf(sql, "SELECT id FROM provider WHERE %s", w->sql.ptr);
	sqlite3_stmt *s;
	int rc = EXIT_OK;
	if (sqlite3_prepare_v2(cache_db(env->cache), sql, -1, &s, NULL) != SQLITE_OK) {
		msg_error("cannot query providers: %s", sqlite3_errmsg(cache_db(env->cache)));
		free(sql);
		return EXIT_IOERR;
	}
	free(sql);
	for (size_t i = 0; i < w->nbinds; i++) {
		if (w->binds[i].is_text)
			sqlite3_bind_text(s, (int)i + 1, w->binds[i].text, -1, SQLITE_STATIC);
		else
			sqlite3_bind_double(s, (int)i + 1, w->binds[i].num);
	}
	const struct profile_set *ps = &env->cat.profiles;
	unsigned char *hit = calloc(ps->n ? ps->n : 1, 1);
	if (!hit) {
		sqlite3_finalize(s);
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		for (size_t i = 0; id && i < ps->n; i++)
			if (strcmp(ps->items[i]->id, id) == 0)
				hit[i] = 1;
	}
	sqlite3_finalize(s);
	for (size_t i = 0; i < ps->n; i++)
		keep[i] = keep[i] && hit[i];
	free(hit);
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
	int rc = cli_catalog_need(&env, CATALOG_PROFILES);
	if (!rc)
		rc = cli_where(a, where_lookup, where_suggest, NULL, &where, &have_where);
	if (!rc)
		rc = cli_currency(&env);
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (rc) {
		if (have_where)
			where_result_release(&where);
		cli_env_release(&env);
		return rc;
	}
	size_t n = env.cat.profiles.n;
	struct pstat *st = calloc(n ? n : 1, sizeof *st);
	unsigned char *keep = calloc(n ? n : 1, 1);
	if (!st || !keep) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
	} else {
		load_stats(&env, st);
		for (size_t i = 0; i < n; i++)
			keep[i] = (unsigned char)provider_matches(env.cat.profiles.items[i], a);
		if (have_where)
			rc = apply_where(&env, &where, keep);
		enum render_format fmt = cli_format(a);
		if (!rc)
			rc = fmt == RF_JSON || fmt == RF_NDJSON
				     ? print_json(&env, keep, st, fmt == RF_NDJSON)
				     : print_rows(&env, keep, st, fmt, a);
	}
	free(st);
	free(keep);
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
