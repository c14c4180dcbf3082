/* cmd_refresh.c - gpucmp refresh [ID...]: live (or hosted catalog) prices into the cache.
 *
 * Output: one line per provider on stdout (nothing with --quiet unless
 * something failed), a progress line on stderr when it is a terminal,
 * failures and skips as messages on stderr.  Exit: 0 when every provider
 * that was tried is current, 75 when some failed, 69 when all failed.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/hosted.h"
#include "gpucmp/refresh.h"
#include "gpucmp/strutil.h"

enum { DEFAULT_JOBS = 16 }; /* more than the adapters: all at once */

struct progress {
	int tty;
	int quiet;
};

static const char *outcome_name(enum refresh_outcome o)
{
	switch (o) {
	case REFRESH_UPDATED:
		return "updated";
	case REFRESH_UNCHANGED:
		return "unchanged";
	case REFRESH_RECENT:
		return "recent";
	case REFRESH_NO_KEY:
		return "no-key";
	case REFRESH_FAILED:
		return "failed";
	case REFRESH_NO_SOURCE:
		return "no-source";
	}
	return "?";
}

static void on_progress(void *arg, const struct refresh_result *r, size_t done, size_t total)
{
	const struct progress *p = arg;
	if (!p->tty || p->quiet)
		return;
	fprintf(stderr, "\r\033[K[%zu/%zu] %s %s", done, total, r->id, outcome_name(r->outcome));
	if (done == total)
		fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

/* Resolve the ID arguments to provider ids with a live adapter or a hosted
 * catalog; prints the error; returns an exit code. */
static int pick(const struct cli_args *a, const struct cli_env *env, const char **out,
		size_t *n)
{
	*n = 0;
	for (int i = 0; i < a->npos; i++) {
		const struct adapter *ad = adapter_find(a->pos[i]);
		const struct hosted_map *hm = hosted_find(a->pos[i]);
		const char *id = ad ? ad->id : hm ? hm->id : NULL;
		char safe[64];
		str_sanitize(safe, sizeof safe, a->pos[i]);
		if (!id) {
			if (profile_set_find(&env->cat.profiles, a->pos[i])) {
				msg_error("'%s' has no live price API in gpucmp and no hosted "
					  "catalog covers it; 'gpucmp import' loads a catalog for it",
					  safe);
				return EXIT_USAGE;
			}
			struct suggest s;
			suggest_init(&s, a->pos[i]);
			for (size_t k = 0; k < adapter_count; k++)
				suggest_try(&s, adapters[k]->id);
			for (size_t k = 0; k < hosted_map_count; k++)
				suggest_try(&s, hosted_maps[k].id);
			return cli_unknown("provider", a->pos[i], suggest_best(&s),
					   "'gpucmp providers' lists them");
		}
		int dup = 0;
		for (size_t k = 0; k < *n; k++)
			dup |= strcmp(out[k], id) == 0;
		if (!dup)
			out[(*n)++] = id;
	}
	return EXIT_OK;
}

static int parse_numbers(const struct cli_args *a, struct refresh_opts *o)
{
	const char *v = cli_opt(a, O_JOBS);
	long n;
	if (v && (str_to_long(v, &n) != 0 || n < 1 || n > 64)) {
		msg_error("bad value for --jobs: expected a whole number from 1 to 64");
		return EXIT_USAGE;
	}
	o->jobs = v ? (int)n : DEFAULT_JOBS;
	v = cli_opt(a, O_MAX_AGE);
	o->max_age = v ? str_duration(v) : -1;
	if (v && o->max_age < 0) {
		char safe[64];
		msg_error("bad duration '%s' for --max-age (examples: 90s, 30m, 6h, 1d)",
			  str_sanitize(safe, sizeof safe, v));
		return EXIT_USAGE;
	}
	v = cli_opt(a, O_DEADLINE);
	double d;
	if (v && (str_to_double(v, &d) != 0 || !(d > 0) || d > 86400)) {
		msg_error("bad value for --deadline: expected seconds, more than 0 and at most 86400");
		return EXIT_USAGE;
	}
	o->deadline_s = v ? d : REFRESH_DEFAULT_DEADLINE_S;
	static const struct {
		const char *name;
		size_t min;
	} caps[] = {{"GPUCMP_REFRESH_MAX_OFFERS", 1},
		    {"GPUCMP_REFRESH_MAX_BYTES", 1024},
		    {"GPUCMP_REFRESH_MAX_JSON_VALUES", 1000}};
	size_t *slots[] = {&o->max_offers, &o->max_bytes, &o->max_json_values};
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		const char *e = getenv(caps[i].name);
		if (!e || !*e)
			continue;
		if (str_to_long(e, &n) != 0 || n < (long)caps[i].min) {
			msg_error("bad %s: expected a whole number, at least %zu", caps[i].name,
				  caps[i].min);
			return EXIT_USAGE;
		}
		*slots[i] = (size_t)n;
	}
	return cli_http_opts(a, &o->http);
}

static void print_line(const struct refresh_result *r)
{
	switch (r->outcome) {
	case REFRESH_UPDATED:
		printf("%-14s %zu offers (", r->id, r->offers);
		if (r->tier && strcmp(r->tier, "live") != 0)
			printf("%s catalog, ", r->tier);
		printf("%.1f s", r->seconds);
		if (r->unknown_gpu)
			printf(", %zu with a GPU gpucmp does not know", r->unknown_gpu);
		printf(")\n");
		break;
	case REFRESH_UNCHANGED:
		printf("%-14s unchanged since the last refresh (%.1f s)\n", r->id, r->seconds);
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

/* A new object, or NULL when memory ran out (never one missing a key). */
static json_t *result_json(const struct refresh_result *r)
{
	json_t *o = json_object();
	int bad = !o;
	bad |= json_object_set_new(o, "provider", json_string(r->id));
	bad |= json_object_set_new(o, "result", json_string(outcome_name(r->outcome)));
	bad |= json_object_set_new(o, "tier", r->tier ? json_string(r->tier) : json_null());
	bad |= json_object_set_new(o, "offers", r->outcome == REFRESH_UPDATED
							? json_integer((json_int_t)r->offers)
							: json_null());
	bad |= json_object_set_new(o, "unknown_gpu", json_integer((json_int_t)r->unknown_gpu));
	bad |= json_object_set_new(o, "requests", json_integer((json_int_t)r->requests));
	bad |= json_object_set_new(o, "seconds", json_real(round(r->seconds * 1000) / 1000));
	bad |= json_object_set_new(o, "message", r->message ? json_string(r->message) : json_null());
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int cmd_refresh(struct cli_args *a)
{
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.writer = 1;
	env.lock_fd = -1;
	const char *chosen[64];
	size_t nchosen = 0;
	struct refresh_opts o;
	memset(&o, 0, sizeof o);
	int rc = a->npos > 64 ? EXIT_USAGE : parse_numbers(a, &o);
	if (a->npos > 64)
		msg_error("too many providers");
	if (!rc)
		rc = cli_catalog_need(&env, CATALOG_ALL);
	if (!rc)
		rc = cli_config(&env);
	int catalog_on = !cli_flag(a, O_NO_CATALOG) && config_catalog_enabled(&env.config);
	if (!rc && cli_flag(a, O_CATALOG_ONLY) && !catalog_on) {
		int flag = cli_flag(a, O_NO_CATALOG);
		msg_error("--catalog-only needs the hosted catalog tier: %s",
			  flag ? "drop --no-catalog" : "the config file says catalog: false");
		rc = flag ? EXIT_USAGE : EXIT_CONFIG;
	}
	if (!rc)
		rc = pick(a, &env, chosen, &nchosen);
	/* no IDs: the config's enabled providers (checked adapter ids), else all */
	for (size_t i = 0; !rc && !a->npos && i < env.config.nproviders && i < 64; i++)
		if (adapter_find(env.config.providers[i]) || hosted_find(env.config.providers[i]))
			chosen[nchosen++] = env.config.providers[i];
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (!rc)
		rc = cli_writer_guard(&env, a);
	if (rc) {
		cli_env_release(&env);
		return rc;
	}
	struct progress pr = {isatty(fileno(stderr)), cli_flag(a, O_QUIET)};
	o.ids = nchosen ? chosen : NULL;
	o.nids = nchosen;
	o.no_catalog = !catalog_on;
	o.catalog_only = cli_flag(a, O_CATALOG_ONLY);
	o.progress = on_progress;
	o.progress_arg = &pr;
	o.config = &env.config;
	struct refresh_result *res = NULL;
	size_t n = 0;
	char *err = NULL;
	enum gc_status st = refresh_run(env.cache, &env.cat, &o, &res, &n, &err);
	if (st == GC_OK && cli_cache_damaged(&env, GC_EIO)) {
		/* a provider's failure was a damaged page: set the file aside */
		refresh_results_free(res, n);
		st = GC_EIO;
	}
	if (st != GC_OK) {
		rc = cli_cache_failed(&env, NULL, st, err, "refresh failed");
		free(err);
		cli_env_release(&env);
		return rc;
	}
	size_t tried = 0, failed = 0;
	for (size_t i = 0; i < n; i++) {
		tried += res[i].outcome != REFRESH_NO_KEY && res[i].outcome != REFRESH_RECENT &&
			 res[i].outcome != REFRESH_NO_SOURCE;
		failed += res[i].outcome == REFRESH_FAILED;
	}
	int quiet = cli_flag(a, O_QUIET);
	/* (stdout: what was refreshed; stderr: skips and failures) */
	if (cli_flag(a, O_JSON)) {
		json_t *arr = json_array();
		for (size_t i = 0; i < n && arr; i++) {
			if (json_array_append_new(arr, result_json(&res[i])) != 0) {
				json_decref(arr); /* cli_print_json says "out of memory" */
				arr = NULL;
			}
		}
		rc = cli_print_json(arr, 0);
	} else {
		for (size_t i = 0; i < n && !quiet; i++)
			print_line(&res[i]);
	}
	for (size_t i = 0; i < n; i++) {
		if (res[i].outcome == REFRESH_FAILED)
			msg_error("%s: %s; kept its previous offers, marked stale", res[i].id,
				  res[i].message ? res[i].message : "failed");
		else if (res[i].outcome == REFRESH_NO_KEY || res[i].outcome == REFRESH_NO_SOURCE)
			msg_note("%s: %s", res[i].id, res[i].message);
	}
	refresh_results_free(res, n);
	cli_env_release(&env);
	if (rc)
		return rc;
	if (failed && failed == tried)
		return EXIT_UNAVAILABLE;
	return failed ? EXIT_TEMPFAIL : EXIT_OK;
}

static const struct opt_def opt_jobs = {O_JOBS, "jobs", 'j', OPT_NUMBER, "N", NULL, HINT_NONE,
	"fetch N providers at once (default 16)"};
static const struct opt_def opt_max_age = {O_MAX_AGE, "max-age", 0, OPT_STRING, "DURATION", NULL,
	HINT_NONE, "skip providers refreshed less than DURATION ago (30m, 6h, 1d)"};
static const struct opt_def opt_deadline = {O_DEADLINE, "deadline", 0, OPT_NUMBER, "SECONDS", NULL,
	HINT_NONE,
	"end the whole refresh (every provider: attempts, retries, pages) by SECONDS "
	"(default 300)"};
static const struct opt_def opt_no_catalog = {O_NO_CATALOG, "no-catalog", 0, OPT_BOOL, NULL, NULL,
	HINT_NONE, "take no provider from a hosted catalog (SkyPilot, gpuhunt): live APIs only"};
static const struct opt_def opt_catalog_only = {O_CATALOG_ONLY, "catalog-only", 0, OPT_BOOL, NULL,
	NULL, HINT_NONE, "take every provider from its hosted catalog, even one whose live API "
	"could run (scripts/make-snapshot.sh)"};

static const struct opt_use refresh_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_USE(opt_jobs), OPT_USE(opt_max_age),
	OPT_USE(opt_timeout), OPT_USE(opt_deadline), OPT_USE(opt_no_catalog),
	OPT_USE(opt_catalog_only), OPT_USE(opt_retries), OPT_USE(opt_verbose), OPT_USE(opt_force),
	OPT_USE(opt_wait), {NULL, NULL}};
static const struct arg_hint refresh_args[] = {
	{ARG_ADAPTERS, 0, "provider id", NULL, NULL, NULL},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

const struct cmd_entry cmd_refresh_entry = {
	.name = "refresh",
	.run = cmd_refresh,
	.usage = "refresh [ID...] [options]",
	.summary = "Fetch live prices and availability from the providers' APIs into the cache.",
	.detail =
		"Without IDs every provider with a live adapter is fetched, several at once.\n"
		"A provider whose API needs a key is skipped (with a note) unless\n"
		"GPUCMP_<ID>_API_KEY or the provider's usual variable is set (or its api_key\n"
		"in the config file; 'providers' there sets the default IDs). Each provider's\n"
		"offers are replaced in one transaction; one that fails keeps its previous\n"
		"offers, marked stale, with the error recorded ('gpucmp cache status').\n"
		"GPUCMP_<ID>_BASE_URL (or base_url in the config) points an adapter at\n"
		"another server.\n\n"
		"exit: 0 every provider tried is current, 75 some failed (or another refresh\n"
		"holds the cache), 69 all failed.\n\n"
		"examples:\n"
		"  gpucmp refresh\n"
		"  gpucmp refresh vast runpod --timeout 20\n"
		"  */30 * * * *  gpucmp refresh --quiet --max-age 25m   (crontab)",
	.opts = refresh_opts,
	.args = refresh_args,
};
