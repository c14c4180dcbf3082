/* cmd_refresh.c - gpucmp refresh [ID...]: live (or hosted catalog) prices into the cache.
 *
 * Output: one line per provider on stdout (nothing with --quiet unless
 * something failed), a progress line on stderr when it is a terminal,
 * failures and skips as messages on stderr (a named provider without its
 * key: one line even with --quiet).  Exit: 0 when every provider
 * that was tried is current, 75 when some failed, 69 when all failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/refresh.h"
#include "gpucmp/strutil.h"

enum { DEFAULT_JOBS = 16 }; /* more than the adapters: all at once */
enum { MAX_IDS = 64 };

struct progress {
	int tty;
	int quiet;
};

static void on_progress(void *arg, const struct refresh_result *r, size_t done, size_t total)
{
	const struct progress *p = arg;
	if (!p->tty || p->quiet)
		return;
	fprintf(stderr, "\r\033[K[%zu/%zu] %s %s", done, total, r->id,
		refresh_outcome_name(r->outcome));
	if (done == total)
		fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

/* The ID arguments (else the config's providers) into o->ids; prints the
 * error; returns an exit code. */
static int pick(const struct cli_args *a, const struct cli_env *env, struct refresh_opts *o,
		const char **chosen)
{
	size_t n = 0, bad = 0;
	const char *best = NULL;
	enum refresh_pick p = refresh_pick(a->pos, (size_t)a->npos, &env->cat.profiles,
					   &env->config, chosen, MAX_IDS, &n, &bad, &best);
	o->ids = n ? chosen : NULL;
	o->nids = n;
	if (p == REFRESH_PICK_UNKNOWN)
		return cli_unknown("provider", a->pos[bad], best, "'gpucmp providers' lists them");
	if (p == REFRESH_PICK_NO_SOURCE) {
		char safe[64];
		msg_error("'%s' has no live price API in gpucmp and no hosted catalog covers it; "
			  "'gpucmp import' loads a catalog for it",
			  str_sanitize(safe, sizeof safe, a->pos[bad]));
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --no-catalog and --catalog-only (and the config's catalog) into o. */
static int tiers(const struct cli_args *a, const struct cli_env *env, struct refresh_opts *o)
{
	int flag = cli_flag(a, O_NO_CATALOG);
	if (refresh_tiers(o, flag, cli_flag(a, O_CATALOG_ONLY), &env->config) == REFRESH_TIERS_OK)
		return EXIT_OK;
	msg_error("--catalog-only needs the hosted catalog tier: %s",
		  flag ? "drop --no-catalog" : "the config file says catalog: false");
	return flag ? EXIT_USAGE : EXIT_CONFIG;
}

/* --jobs, --max-age and --deadline into o. */
static int parse_numbers(const struct cli_args *a, struct refresh_opts *o)
{
	o->jobs = (int)cli_num(a, O_JOBS, DEFAULT_JOBS);
	const char *v = cli_opt(a, O_MAX_AGE);
	o->max_age = v ? str_duration(v) : -1;
	if (v && o->max_age < 0) {
		char safe[64];
		msg_error("bad duration '%s' for --max-age (examples: 90s, 30m, 6h, 1d)",
			  str_sanitize(safe, sizeof safe, v));
		return EXIT_USAGE;
	}
	o->deadline_s = cli_num(a, O_DEADLINE, REFRESH_DEFAULT_DEADLINE_S);
	return EXIT_OK;
}

/* The numbers, the environment's caps and the HTTP settings into o. */
static int parse_limits(const struct cli_args *a, struct refresh_opts *o)
{
	int rc = parse_numbers(a, o);
	char *err = NULL;
	if (!rc && refresh_env_caps(o, &err) != GC_OK) {
		msg_error("%s", err);
		rc = EXIT_USAGE;
	}
	free(err);
	return rc ? rc : cli_http_opts(a, &o->http);
}

/* What refresh pulls instead of fetching: --from, else (no IDs) the
 * config's pull_from; NULL: a live refresh. */
static const char *pull_source(const struct cli_args *a, const struct cli_env *env)
{
	const char *from = cli_opt(a, O_FROM);
	if (from)
		return from;
	return a->npos == 0 ? env->config.pull_from : NULL;
}

/* Options, catalog, config, providers and the cache, ready for the run
 * (a pull takes the writer lock later, after its network part). */
static int prepare(struct cli_args *a, struct cli_env *env, struct refresh_opts *o,
		   const char **chosen)
{
	int rc = a->npos > MAX_IDS ? EXIT_USAGE : parse_limits(a, o);
	if (a->npos > MAX_IDS)
		msg_error("too many providers");
	if (!rc)
		rc = cli_catalog_need(env, CATALOG_ALL);
	if (!rc)
		rc = cli_config(env);
	if (!rc)
		rc = tiers(a, env, o);
	if (!rc)
		rc = pick(a, env, o, chosen);
	env->lock_later = !rc && pull_source(a, env) != NULL;
	if (!rc)
		rc = cli_open_cache(env, a);
	if (!rc)
		rc = cli_writer_guard(env, a);
	o->config = &env->config;
	return rc;
}

static void print_line(const struct refresh_result *r)
{
	switch (r->outcome) {
	case REFRESH_UPDATED:
		printf("%-14s %zu offers (", r->id, r->offers);
		if (r->tier && strcmp(r->tier, "live") != 0)
			printf("%s catalog%s, ", r->tier,
			       r->live_error ? " after the live API failed" : "");
		printf("%.1f s", r->seconds);
		if (r->unknown_gpu)
			printf(", %zu with a GPU gpucmp does not know", r->unknown_gpu);
		printf(")\n");
		break;
	case REFRESH_UNCHANGED:
		printf("%-14s unchanged since the last refresh (%s%s%.1f s)\n", r->id,
		       r->live_error ? r->tier : "",
		       r->live_error ? " catalog after the live API failed, " : "", r->seconds);
		break;
	case REFRESH_KEPT:
		printf("%-14s kept its %zu dated offers: the %s catalog is undated or older "
		       "(%.1f s)\n", r->id, r->offers, r->tier ? r->tier : "hosted", r->seconds);
		break;
	case REFRESH_RECENT: {
		char age[32];
		str_age(r->age, age, sizeof age);
		printf("%-14s skipped: refreshed %s ago\n", r->id, age);
		break;
	}
	case REFRESH_NO_KEY: /* stderr notes */
	case REFRESH_NO_SOURCE:
	case REFRESH_FAILED: /* stderr errors */
		break;
	}
}

/* A live API failed and its catalog stood in: with the user's key a
 * failure (even with --quiet; the exit code says so too), else a note. */
static void print_fallback(const struct refresh_result *r)
{
	const char *tier = r->tier ? r->tier : "hosted";
	if (r->keyed)
		msg_error("%s: live API failed (%s); took the %s catalog: its offers are current, "
			  "the exit code counts the failure",
			  r->id, r->live_error, tier);
	else
		msg_note("%s: live API failed (%s); took the %s catalog", r->id, r->live_error,
			 tier);
}

/* stdout: what was refreshed (lines or JSON); stderr: skips and failures. */
static int print_results(const struct cli_args *a, const struct refresh_result *res, size_t n)
{
	int rc = EXIT_OK;
	if (cli_flag(a, O_JSON))
		rc = cli_print_json(refresh_results_json(res, n), 0); /* NULL: "out of memory" */
	else
		for (size_t i = 0; i < n && !cli_flag(a, O_QUIET); i++)
			print_line(&res[i]);
	for (size_t i = 0; i < n; i++) {
		const char *m = res[i].message ? res[i].message : "failed";
		if (res[i].outcome == REFRESH_FAILED)
			msg_error("%s: %s; kept its previous offers, marked stale", res[i].id, m);
		else if (res[i].outcome == REFRESH_NO_KEY && res[i].named)
			msg_error("%s %s", res[i].id, m); /* a failure: even with --quiet */
		else if (res[i].outcome == REFRESH_NO_KEY || res[i].outcome == REFRESH_NO_SOURCE)
			msg_note("%s: %s", res[i].id, m);
		else if (res[i].live_error)
			print_fallback(&res[i]);
	}
	return rc;
}

/* --verbose: the providers of an every-provider run skipped for want of a key. */
static void verbose_skipped(const struct cli_args *a, const struct refresh_result *res, size_t n)
{
	char line[1024] = "";
	size_t len = 0;
	for (size_t i = 0; i < n && cli_flag(a, O_VERBOSE); i++) {
		if (res[i].outcome != REFRESH_NO_KEY || res[i].named)
			continue;
		int w = snprintf(line + len, sizeof line - len, "%s%s",
				 len ? ", " : "skipped, no key: ", res[i].id);
		if (w < 0 || (size_t)w >= sizeof line - len)
			break;
		len += (size_t)w;
	}
	if (len)
		msg_verbose(line);
}

/* --changes, --exit-on-change: what the refresh changed among the offers
 * the filters select, printed (--changes) and as the exit code
 * (--exit-on-change: EXIT_CHANGED when anything did, even when other
 * providers failed: their failures are on stderr already, and with a dozen
 * providers one of them is often down, which must not silence the alert). */
struct watch {
	int on;
	struct query q;
	long long after; /* the last event before the run */
};

static int watch_prepare(const struct cli_args *a, struct cli_env *env, struct watch *w)
{
	w->on = cli_flag(a, O_CHANGES) || cli_flag(a, O_EXIT_ON_CHANGE);
	if (!w->on)
		return EXIT_OK;
	if (cli_flag(a, O_JSON)) {
		msg_error("--changes prints a table; with --json run 'gpucmp changes --since 1h "
			  "--json' after the refresh");
		return EXIT_USAGE;
	}
	char *err = NULL;
	enum gc_status st = cache_history_last(env->cache, &w->after, &err);
	return st != GC_OK ? cli_history_failed(env, st, err) : cli_changes_query(env, a, &w->q);
}

static int watch_report(const struct cli_args *a, struct cli_env *env, struct watch *w, int rc)
{
	size_t n = 0;
	/* a provider that failed kept its offers; what the others stored counts */
	int failed = rc == EXIT_TEMPFAIL || rc == EXIT_UNAVAILABLE;
	if (!w->on || (rc && !failed))
		return rc;
	int prc = cli_changes_print(env, a, &w->q, NULL, w->after, cli_flag(a, O_CHANGES), &n);
	if (prc)
		return prc;
	return n && cli_flag(a, O_EXIT_ON_CHANGE) ? EXIT_CHANGED : rc;
}

/* Run the refresh o describes on env's cache and print what came of it. */
static int run(const struct cli_args *a, struct cli_env *env, struct refresh_opts *o)
{
	struct progress pr = {isatty(fileno(stderr)), cli_flag(a, O_QUIET)};
	o->progress = on_progress;
	o->progress_arg = &pr;
	struct refresh_result *res = NULL;
	size_t n = 0;
	char *err = NULL;
	enum gc_status st = refresh_run(env->cache, &env->cat, o, &res, &n, &err);
	if (st == GC_OK && cli_cache_damaged(env, GC_EIO)) {
		/* a provider's failure was a damaged page: set the file aside */
		refresh_results_free(res, n);
		st = GC_EIO;
	}
	if (st != GC_OK) {
		int rc = cli_cache_failed(env, NULL, st, err, "refresh failed");
		free(err);
		return rc;
	}
	int rc = print_results(a, res, n);
	verbose_skipped(a, res, n);
	enum refresh_verdict v = refresh_verdict(res, n);
	refresh_results_free(res, n);
	if (rc)
		return rc;
	return v == REFRESH_ALL_FAILED ? EXIT_UNAVAILABLE
	       : v == REFRESH_SOME_FAILED ? EXIT_TEMPFAIL : EXIT_OK;
}

static int cmd_refresh(struct cli_args *a)
{
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.writer = 1;
	env.lock_fd = -1;
	const char *chosen[MAX_IDS];
	struct refresh_opts o;
	memset(&o, 0, sizeof o);
	struct watch w = {0};
	int rc = cli_opt(a, O_FROM) && a->npos ? EXIT_USAGE : prepare(a, &env, &o, chosen);
	if (rc == EXIT_USAGE && cli_opt(a, O_FROM) && a->npos)
		msg_error("--from pulls every provider of the snapshot: name no provider");
	const char *from = rc ? NULL : pull_source(a, &env);
	if (!rc && !from && cli_flag(a, O_NEW_PROVIDER)) {
		msg_error("--new-provider goes with --from (a team snapshot); a refresh stores "
			  "only the providers gpucmp knows");
		rc = EXIT_USAGE;
	}
	if (!rc)
		rc = watch_prepare(a, &env, &w);
	if (!rc)
		rc = from ? cli_refresh_pull(a, &env, &o.http, from, o.deadline_s)
			  : run(a, &env, &o);
	rc = watch_report(a, &env, &w, rc);
	cli_env_release(&env);
	return rc;
}

static const struct opt_def opt_jobs = {.id = O_JOBS, .name = "jobs", .short_name = 'j',
	.type = OPT_NUMBER, .arg = "N", .num = OPT_WHOLE(1, 64),
	.help = "fetch N providers at once (default 16)"};
static const struct opt_def opt_max_age = {.id = O_MAX_AGE, .name = "max-age", .type = OPT_STRING,
	.arg = "DURATION", .help = "skip providers refreshed less than DURATION ago (30m, 6h, 1d)"};
static const struct opt_def opt_deadline = {.id = O_DEADLINE, .name = "deadline",
	.type = OPT_NUMBER, .arg = "SECONDS", .num = OPT_ABOVE(0, 86400, UNIT_SECONDS),
	.help = "end the whole refresh (every provider: attempts, retries, pages) by SECONDS "
	"(default 300)"};
static const struct opt_def opt_no_catalog = {.id = O_NO_CATALOG, .name = "no-catalog",
	.type = OPT_BOOL,
	.help = "take no provider from a hosted catalog (SkyPilot, gpuhunt): live APIs only"};
static const struct opt_def opt_catalog_only = {.id = O_CATALOG_ONLY, .name = "catalog-only",
	.type = OPT_BOOL,
	.help = "take every provider from its hosted catalog, even one whose live API "
	"could run (scripts/make-snapshot.sh)"};

static const struct opt_def opt_from = {.id = O_FROM, .name = "from", .type = OPT_STRING,
	.arg = "URL|DIR", .hint = HINT_FILE,
	.help = "pull a team snapshot ('gpucmp export') instead of fetching (docs/TEAM.md)"};
static const struct opt_def opt_changes = {.id = O_CHANGES, .name = "changes", .type = OPT_BOOL,
	.help = "then print what the refresh changed (of the offers the filters select)"};
static const struct opt_def opt_exit_on_change = {.id = O_EXIT_ON_CHANGE, .name = "exit-on-change",
	.type = OPT_BOOL, .help = "exit 3 when something the filters select changed (for cron)"};

static const struct opt_use refresh_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_USE(opt_jobs), OPT_USE(opt_max_age),
	OPT_USE(opt_timeout), OPT_USE(opt_deadline), OPT_USE(opt_no_catalog),
	OPT_USE(opt_catalog_only), OPT_USE(opt_from), OPT_USE(opt_new_provider),
	OPT_USE(opt_retries), OPT_USE(opt_verbose),
	OPT_USE(opt_force), OPT_USE(opt_wait), OPT_USE(opt_changes), OPT_USE(opt_exit_on_change),
	OPT_GROUP(opts_offer_changes), OPT_END};
static const struct arg_hint refresh_args[] = {ARG_HINT(ARG_ADAPTERS, 0, "provider id"), ARG_END};

const struct cmd_entry cmd_refresh_entry = {
	.name = "refresh",
	.run = cmd_refresh,
	.usage = "refresh [ID...] [options]",
	.summary = "Fetch live prices and availability from the providers' APIs into the cache.",
	.detail =
		"Without IDs every provider with a live adapter is fetched, several at once.\n"
		"A provider whose API needs a key uses it when GPUCMP_<ID>_API_KEY or the\n"
		"provider's usual variable is set (or its api_key in the config file;\n"
		"'providers' there sets the default IDs), else its hosted catalog; with\n"
		"neither it is skipped with a note, or, when named (an ID or the config's\n"
		"'providers'), it fails with a line naming the variable to set. A live API\n"
		"that fails is followed by its hosted catalog in the same run (the rows say\n"
		"source 'catalog'; with your key set that still fails the run, exit 75).\n"
		"Each provider's offers are replaced in one transaction; one whose every\n"
		"source fails keeps its previous offers, marked stale, with the error\n"
		"recorded ('gpucmp cache status').\n"
		"GPUCMP_<ID>_BASE_URL (or base_url in the config) points an adapter at\n"
		"another server.\n\n"
		"--from URL|DIR (or pull_from in the config, when no ID is named) pulls a\n"
		"team snapshot that 'gpucmp export' wrote instead: conditionally (a 304\n"
		"changes nothing), within --deadline, its sha256 and, with trusted_keys,\n"
		"its signature checked, then merged per provider in one transaction under\n"
		"the cache lock (not held while fetching); a provider whose cached data is\n"
		"newer stays unless --force (docs/TEAM.md).\n\n"
		"exit: 0 every provider tried is current, 75 some failed (a named one without\n"
		"its key too, a keyed live API its catalog stood in for; or another refresh\n"
		"holds the cache), 69 all failed (a pull: the server is down), 65 a pulled\n"
		"snapshot is refused (tampered, cut short, an unknown key or format version;\n"
		"the cache is unchanged); with --exit-on-change, 3 when none failed and an\n"
		"offer the filters select changed (docs/HISTORY.md).\n\n"
		"examples:\n"
		"  gpucmp refresh\n"
		"  gpucmp refresh vast runpod --timeout 20\n"
		"  */30 * * * *  gpucmp refresh --quiet --max-age 25m   (crontab)\n"
		"  gpucmp refresh --from https://gpucmp.example.org/team\n"
		"  gpucmp refresh -q --changes --exit-on-change --gpu h100 --gpus 8 --max-price 20",
	.opts = refresh_opts,
	.args = refresh_args,
};
