/* cmd_cache.c - gpucmp cache status | clear [ID] | path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/strutil.h"

enum { S_PROVIDER, S_OFFERS, S_SOURCE, S_FETCHED, S_AS_OF, S_AGE, S_STALE, S_ERROR, S_COUNT };

/* docs/OUTPUT.md; the table shows AGE (of the data, from AS OF) as "3 h"
 * or "unknown", and STALE as "stale" or "-". */
static const struct field status_fields[S_COUNT] = {
	[S_PROVIDER] = RENDER_COL("provider", "PROVIDER", FT_TEXT, 1),
	[S_OFFERS] = RENDER_COL("offers", "OFFERS", FT_NUM, 1),
	[S_SOURCE] = RENDER_COL("source", "SOURCE", FT_TEXT, 2),
	[S_FETCHED] = RENDER_COL("fetched_at", "FETCHED", FT_TEXT, 4),
	[S_AS_OF] = RENDER_COL("as_of", "AS OF", FT_TEXT, 3),
	[S_AGE] = RENDER_COL("age_seconds", "AGE", FT_NUM, 1),
	[S_STALE] = RENDER_COL("stale", "STALE", FT_BOOL, 2),
	[S_ERROR] = RENDER_COL("last_error", "LAST ERROR", FT_TEXT, 3),
};

struct status_rows {
	struct renderer *r;
	long long stale_after;
	int failed, old;
};

/* A provider's row: the age of its data (as_of), unknown when any of its
 * offers names no date; stale when its last refresh failed, or its data is
 * older than the staleness age or of unknown age, as list counts it. */
static enum gc_status add_row(void *arg, const struct cache_status_row *row, char **err)
{
	struct status_rows *s = arg;
	long long t = row->as_of ? str_time_epoch(row->as_of) : -1;
	long long age = t >= 0 ? catalog_now() - t : -1;
	int old = row->offers > 0 && (age < 0 || age > s->stale_after);
	int stale = row->stale || old;
	char shown[32] = "unknown";
	struct render_value v[S_COUNT] = {
		[S_PROVIDER] = RV_TEXT(row->provider),
		[S_OFFERS] = RV_NUM((double)row->offers),
		[S_SOURCE] = RV_TEXT(row->sources),
		[S_FETCHED] = RV_TEXT(row->fetched_at),
		[S_AS_OF] = RV_TEXT(row->as_of),
		[S_AGE] = RV_NUM(age >= 0 ? (double)age : NAN),
		[S_STALE] = {.num = stale, .shown = stale ? "stale" : "-"},
		[S_ERROR] = RV_TEXT(row->last_error),
	};
	if (age >= 0)
		str_age(age, shown, sizeof shown);
	if (row->offers > 0)
		v[S_AGE].shown = shown;
	s->failed += row->stale != 0;
	s->old += old && !row->stale;
	return render_row_values(s->r, v, err);
}

static int status(struct cli_env *env, const struct cli_args *a)
{
	const struct field *cols[S_COUNT];
	struct render_spec spec;
	struct status_rows s = {NULL, env->config.stale_after > 0 ? env->config.stale_after
						       : QUERY_STALE_AFTER, 0, 0};
	char *err = NULL;
	cli_render_spec(a, env, status_fields, S_COUNT, cols, &spec);
	enum gc_status st = render_begin(&s.r, &spec, &err);
	if (st == GC_OK)
		st = cache_status(env->cache, add_row, &s, &err);
	if (st != GC_OK) {
		render_abort(s.r);
		int rc = cli_cache_failed(env, NULL, st, err, "cannot read the cache");
		free(err);
		return rc;
	}
	size_t rows = 0;
	int rc = cli_render_status(render_end(s.r, &rows, &err), err);
	if (!rc && !rows && render_for_people(spec.format))
		msg_note("the cache holds no offers");
	msg_note("cache %s%s%s", cache_path(env->cache),
		 s.failed ? "; stale providers kept their previous offers after a failed"
			    " refresh"
			  : "",
		 s.old ? "; data older than the staleness age, or of unknown date (AGE "
			 "unknown), is stale: run 'gpucmp refresh'"
		       : "");
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
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_USE(opt_wait), OPT_END};
static const struct arg_hint cache_args[] = {
	{ARG_WORDS, 1, "action", "status clear path", NULL, NULL},
	{ARG_PROVIDERS, 2, "provider id", NULL, "clear", NULL},
	ARG_END};

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
