/* cmd_providers.c - gpucmp providers: one line per provider. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
	static const struct grid_col cols[PCOLS] = {
		{"ID", 0, 1}, {"NAME", 0, 6}, {"KIND", 0, 5}, {"K8S", 0, 1},
		{"IMAGE", 0, 2}, {"DOCKERD", 0, 3}, {"MIG", 0, 1}, {"MPS", 0, 3},
		{"TSLICE", 0, 3}, {"IB", 0, 2}, {"RDMA", 0, 4}, {"OFFERS", 1, 2},
		{"FROM $/H", 1, 1}};
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
		else
			snprintf(t[12], CELL, "$%.2f", st[i].min_price);
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
	int rc = cli_catalog_need(&env, CATALOG_PROFILES);
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (rc) {
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
		enum render_format fmt = cli_format(a);
		rc = fmt == RF_JSON || fmt == RF_NDJSON ? print_json(&env, keep, st, fmt == RF_NDJSON)
							: print_rows(&env, keep, st, fmt, a);
	}
	free(st);
	free(keep);
	cli_env_release(&env);
	return rc;
}
