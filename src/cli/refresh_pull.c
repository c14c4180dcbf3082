/* refresh_pull.c - gpucmp refresh --from URL|DIR (or the config's
 * pull_from): a team snapshot into the cache (docs/TEAM.md).  The library
 * fetches and checks with no lock held, then merges (team.h) under the
 * writer lock, taken for that alone; this prints a line per provider (or
 * --json) and turns the outcome into refresh's exit codes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"
#include "gpucmp/team.h"

static void print_provider(const struct team_provider *t)
{
	switch (t->outcome) {
	case TEAM_STORED:
		printf("%-14s %zu offers (pulled, as of %s)\n", t->id, t->offers,
		       t->as_of[0] ? t->as_of : "unknown");
		break;
	case TEAM_CURRENT:
		printf("%-14s current (as of %s)\n", t->id, t->as_of[0] ? t->as_of : "unknown");
		break;
	case TEAM_KEPT_NEWER:
		printf("%-14s kept: the cache's data (as of %s) is newer than the snapshot's (%s); "
		       "--force takes the snapshot\n", t->id, t->local_as_of,
		       t->as_of[0] ? t->as_of : "no date");
		break;
	}
}

static int print_pull(const struct cli_args *a, const struct team_pull_result *r)
{
	if (cli_flag(a, O_JSON))
		return cli_print_json(team_pull_json(r), 0);
	if (cli_flag(a, O_QUIET))
		return EXIT_OK;
	char safe[256];
	str_sanitize(safe, sizeof safe, r->from);
	if (r->not_modified) {
		printf("%s: not modified since the last pull\n", safe);
		return EXIT_OK;
	}
	for (size_t i = 0; i < r->nproviders; i++)
		print_provider(&r->providers[i]);
	return EXIT_OK;
}

/* The store part of a pull under the writer lock, taken for it alone. */
static int store(struct cli_env *env, const struct team_pull_opts *o, struct team_fetch *f,
		 struct team_pull_result *r)
{
	int rc = cli_lock(env);
	if (rc)
		return rc;
	char *err = NULL;
	enum gc_status st = team_pull_store(o, f, r, &err);
	if (st != GC_OK)
		rc = cli_cache_failed(env, NULL, st, err, "pull failed");
	free(err);
	cli_unlock(env);
	return rc;
}

int cli_refresh_pull(const struct cli_args *a, struct cli_env *env, const struct http_opts *ho,
		     const char *from, double deadline_s)
{
	const struct config *cfg = &env->config;
	struct team_pull_opts o = {env->cache, from, cli_flag(a, O_FORCE),
				   (const char *const *)cfg->trusted_keys, cfg->ntrusted, ho,
				   deadline_s};
	struct team_pull_result r;
	struct team_fetch *f = NULL;
	char *err = NULL;
	/* the network part holds no lock: an import or a refresh may run */
	enum gc_status st = team_pull_fetch(&o, &r, &f, &err);
	if (st != GC_OK) {
		int rc = cli_cache_failed(env, NULL, st, err, "pull failed");
		free(err);
		return rc;
	}
	int rc = f ? store(env, &o, f, &r) : EXIT_OK;
	team_fetch_free(f);
	if (!rc)
		rc = print_pull(a, &r);
	team_pull_result_release(&r);
	return rc;
}
