/* cmd_cache.c - gpucmp cache status | clear [ID] | path. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"

enum { SCOLS = 7, SCELL = 160 };

struct status_rows {
	char (*text)[SCOLS][SCELL];
	size_t n, cap;
	json_t *json;
	int stale;
};

static enum gc_status add_row(void *arg, const struct cache_status_row *r, char **err)
{
	struct status_rows *s = arg;
	long long t = r->fetched_at ? str_time_epoch(r->fetched_at) : -1;
	long long age = t >= 0 ? catalog_now() - t : -1;
	s->stale += r->stale != 0;
	if (s->json) {
		json_t *o = json_object();
		json_object_set_new(o, "provider", json_string(r->provider));
		json_object_set_new(o, "offers", json_integer(r->offers));
		json_object_set_new(o, "source", r->sources ? json_string(r->sources) : json_null());
		json_object_set_new(o, "fetched_at",
				    r->fetched_at ? json_string(r->fetched_at) : json_null());
		json_object_set_new(o, "age_seconds", age >= 0 ? json_integer(age) : json_null());
		json_object_set_new(o, "stale", json_boolean(r->stale));
		json_object_set_new(o, "last_error",
				    r->last_error ? json_string(r->last_error) : json_null());
		if (json_array_append_new(s->json, o) != 0)
			return err_set(err, GC_ENOMEM, "out of memory");
		return GC_OK;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		void *grown = realloc(s->text, cap * sizeof *s->text);
		if (!grown)
			return err_set(err, GC_ENOMEM, "out of memory");
		s->text = grown;
		s->cap = cap;
	}
	char (*c)[SCELL] = s->text[s->n++];
	str_sanitize(c[0], SCELL, r->provider);
	snprintf(c[1], SCELL, "%lld", r->offers);
	str_sanitize(c[2], SCELL, r->sources ? r->sources : "-");
	snprintf(c[3], SCELL, "%s", r->fetched_at ? r->fetched_at : "-");
	if (age >= 0)
		str_age(age, c[4], SCELL);
	else
		snprintf(c[4], SCELL, "-");
	snprintf(c[5], SCELL, "%s", r->stale ? "stale" : "-");
	str_sanitize(c[6], SCELL, r->last_error ? r->last_error : "-");
	return GC_OK;
}

static int status(struct cli_env *env, const struct cli_args *a)
{
	struct status_rows s;
	memset(&s, 0, sizeof s);
	if (cli_flag(a, O_JSON))
		s.json = json_array();
	char *err = NULL;
	enum gc_status st = cache_status(env->cache, add_row, &s, &err);
	int rc = EXIT_OK;
	if (st != GC_OK) {
		rc = cli_cache_failed(env, NULL, st, err, "cannot read the cache");
		free(err);
		json_decref(s.json);
		free(s.text);
		return rc;
	}
	if (s.json) {
		rc = cli_print_json(s.json, 0);
	} else {
		static const struct grid_col cols[SCOLS] = {
			{"PROVIDER", 0, 1}, {"OFFERS", 1, 1}, {"SOURCE", 0, 2}, {"FETCHED", 0, 4},
			{"AGE", 1, 1}, {"STALE", 0, 2}, {"LAST ERROR", 0, 3}};
		const char **cells = calloc(s.n ? s.n * SCOLS : 1, sizeof *cells);
		if (!cells) {
			msg_error("out of memory");
			free(s.text);
			return EXIT_OSERR;
		}
		for (size_t i = 0; i < s.n; i++)
			for (size_t c = 0; c < SCOLS; c++)
				cells[i * SCOLS + c] = s.text[i][c];
		if (s.n && render_grid(stdout, cols, SCOLS, cells, NULL, s.n,
				       render_term_width(stdout), cli_use_color(a, stdout),
				       &err) != GC_OK) {
			msg_error("cannot write output");
			rc = EXIT_IOERR;
			free(err);
		}
		free(cells);
		if (!s.n)
			msg_note("the cache holds no offers");
	}
	msg_note("cache %s%s", cache_path(env->cache),
		 s.stale ? "; stale providers kept their previous offers after a failed refresh" : "");
	free(s.text);
	return rc;
}

static int clear(struct cli_env *env, const struct cli_args *a)
{
	const char *id = a->npos > 1 ? a->pos[1] : NULL;
	if (a->npos > 2) {
		msg_error("'cache clear' takes at most one provider id");
		return EXIT_USAGE;
	}
	char safe[64];
	/* a provider that only an import brought in has no profile, but is in the cache */
	if (id && !profile_set_find(&env->cat.profiles, id) && !cache_has_provider(env->cache, id))
		return cli_unknown_provider(env, id);
	size_t removed = 0, restored = 0;
	char *err = NULL;
	enum gc_status st = cache_clear(env->cache, &env->cat, id, &removed, &restored, &err);
	if (st != GC_OK) {
		/* clearing is the documented repair of a damaged page: keep the
		 * damaged file, start over from the snapshot */
		int rc = cli_cache_failed(env, a, st, err, "cannot clear the cache");
		free(err);
		return rc;
	}
	if (id)
		str_sanitize(safe, sizeof safe, id);
	msg_note("cleared %s: removed %zu offers, restored %zu from the built-in snapshot",
		 id ? safe : "every provider", removed, restored);
	return EXIT_OK;
}

static int cmd_cache(struct cli_args *a)
{
	const char *action = a->npos ? a->pos[0] : NULL;
	if (!action) {
		msg_error("'cache' needs an action: status, clear [ID] or path");
		return EXIT_USAGE;
	}
	int is_clear = strcmp(action, "clear") == 0;
	if (strcmp(action, "path") == 0) {
		char *path;
		int rc = cli_cache_path(a, &path);
		if (rc != EXIT_OK)
			return rc;
		printf("%s\n", path);
		free(path);
		return EXIT_OK;
	}
	if (!is_clear && strcmp(action, "status") != 0) {
		char safe[64];
		msg_error("unknown action '%s' for 'cache'; expected status, clear or path",
			  str_sanitize(safe, sizeof safe, action));
		return EXIT_USAGE;
	}
	if (!is_clear && a->npos > 1) {
		msg_error("'cache status' takes no arguments");
		return EXIT_USAGE;
	}
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.lock_fd = -1;
	env.writer = is_clear;
	int rc = cli_catalog_need(&env, is_clear ? CATALOG_ALL : CATALOG_PROFILES);
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (!rc)
		rc = is_clear ? clear(&env, a) : status(&env, a);
	cli_env_release(&env);
	return rc;
}

static const struct opt_use cache_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_USE(opt_wait), {NULL, NULL}};
static const struct arg_hint cache_args[] = {
	{ARG_WORDS, 1, "action", "status clear path", NULL, NULL},
	{ARG_PROVIDERS, 2, "provider id", NULL, "clear", NULL},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

const struct cmd_entry cmd_cache_entry = {
	.name = "cache",
	.run = cmd_cache,
	.usage = "cache status [--json] | cache clear [ID] | cache path",
	.summary = "Show what the cache holds per provider, clear it, or print its path.",
	.detail =
		"status: per provider the offer count, source, when it was fetched, its age,\n"
		"whether it is stale and the last error.\n"
		"clear [ID]: drop the refreshed and imported offers of ID (default: every\n"
		"provider) and put back the built-in snapshot offers.",
	.opts = cache_opts,
	.args = cache_args,
};
