/* cmd_import.c - gpucmp import PATH|URL: SkyPilot catalogs into the cache.
 *
 * The library walks the folder, fetches, parses and stores (import.h);
 * this file reads the options, prints each provider's result as it comes
 * and turns the first failure into the exit code.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/import.h"
#include "gpucmp/strutil.h"

/* What the results of one run come to. */
struct shown {
	struct cli_env *env;
	const char *as_of; /* --as-of, for its message */
	int rc;            /* the first failure's exit code */
};

static int bad_as_of(const char *v)
{
	char safe[64];
	msg_error("bad date '%s' for --as-of: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, "
		  "not in the future",
		  str_sanitize(safe, sizeof safe, v));
	return EXIT_USAGE;
}

/* The notes on what a catalog's rows became: "<provider>: <count> <what>". */
static const struct {
	size_t at; /* in struct skypilot_stats */
	const char *what;
} counted[] = {
	{offsetof(struct skypilot_stats, spot_dropped),
	 "spot prices at or above the on-demand price are not spot prices; stored as unknown"},
	{offsetof(struct skypilot_stats, retired),
	 "rows skipped: retired sizes or a second name of another size (data/retired.yaml)"},
	{offsetof(struct skypilot_stats, placeholder),
	 "rows carry the catalog's fixed 32 vCPUs / 64 GiB; stored as unknown"},
	{offsetof(struct skypilot_stats, outlying_zone),
	 "rows skipped: AWS Local or Wavelength Zones, not the region's regular zones"},
	{offsetof(struct skypilot_stats, host_unpriced),
	 "GPU rows skipped: their host VM is priced $0 or not at all, so the sum would be "
	 "the GPUs' price alone"},
	{offsetof(struct skypilot_stats, unknown_gpu),
	 "offers name a GPU gpucmp does not know; kept and flagged (gpu_known false)"},
};

/* The line of a provider stored, and notes on the rows it left out. */
static int print_stored(const struct import_result *r, const char *safe)
{
	const struct skypilot_stats *s = &r->stats;
	printf("%-14s %zu offers imported (%zu rows; skipped: %zu without a GPU, %zu without a "
	       "price, %zu other zones)\n",
	       safe, r->inserted, s->rows, s->cpu_only + s->tpu, s->no_price, s->duplicates);
	if (r->alias) {
		char alias[64];
		msg_note("%s: imported from '%s', the catalog's name for it", safe,
			 str_sanitize(alias, sizeof alias, r->alias));
	}
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		size_t n = *(const size_t *)((const char *)s + counted[i].at);
		if (n)
			msg_note("%s: %zu %s", safe, n, counted[i].what);
	}
	if (s->bad_price)
		msg_note("%s: %zu rows skipped: their price is not a plain decimal number from %g "
			 "to %g USD per hour", safe, s->bad_price, OFFER_MIN_PRICE_HR,
			 OFFER_MAX_PRICE_HR);
	if (s->cleaned)
		msg_note("%s: %zu offers had control characters (stored as '?') or text longer "
			 "than %d bytes (cut)", safe, s->cleaned, STR_FIELD_MAX);
	return EXIT_OK;
}

/* A source that could not be read or fetched, or a folder that holds no
 * catalog. */
static int print_unread(const struct import_result *r, const char *where)
{
	switch (r->step) {
	case IMPORT_READ:
	case IMPORT_FOLDER_READ:
		msg_status(r->status, r->message, r->step == IMPORT_READ ? "cannot read the catalog"
									: "cannot read the folder");
		return r->status == GC_ENOTFOUND ? EXIT_USAGE : exit_code_for(r->status);
	case IMPORT_CLIENT:
		msg_status(r->status, r->message, "cannot fetch the catalog");
		return exit_code_for(r->status);
	case IMPORT_TRANSFER:
		msg_error("%s; the cache is unchanged", r->message ? r->message : "cannot fetch");
		return exit_code_for(r->status);
	case IMPORT_HTTP:
		msg_error("%s: HTTP %ld; the cache is unchanged", where, r->http_status);
		return EXIT_UNAVAILABLE;
	case IMPORT_FOLDER_PROVIDER:
		msg_error("--provider names the provider of one vms.csv; %s holds a folder per "
			  "provider", r->origin);
		return EXIT_USAGE;
	default: /* IMPORT_FOLDER_EMPTY */
		msg_error("%s holds no vms.csv and no <cloud>/vms.csv folders", where);
		return EXIT_USAGE;
	}
}

/* A valid id without a profile, not confirmed by --new-provider. */
static int print_new_id(const struct shown *sh, const char *safe, const char *where)
{
	const char *best = profile_set_suggest(&sh->env->cat.profiles, safe);
	char hint[96] = "";
	if (best)
		snprintf(hint, sizeof hint, "did you mean '%s'? ", best);
	msg_error("unknown provider '%s' (no providers/%s.yaml) for %s; %sname a known id with "
		  "--provider ID, or confirm a new one with --new-provider",
		  safe, safe, where, hint);
	return EXIT_USAGE;
}

/* One result, printed; returns its exit code. */
static int print_result(const struct shown *sh, const struct import_result *r)
{
	char safe[64] = "", where[256];
	if (r->provider)
		str_sanitize(safe, sizeof safe, r->provider);
	str_sanitize(where, sizeof where, r->origin);
	if (r->no_profile)
		msg_warn("no profile for '%s': its offers are imported, its capabilities show as "
			 "unknown", safe);
	switch (r->step) {
	case IMPORT_STORED:
		return print_stored(r, safe);
	case IMPORT_BAD_ID:
		msg_error("'%s' is not a provider id (lowercase letters, digits and '-'); "
			  "name it with --provider", safe);
		return EXIT_USAGE;
	case IMPORT_NEW_ID:
		return print_new_id(sh, safe, where);
	case IMPORT_BAD_DATE:
		return bad_as_of(sh->as_of);
	case IMPORT_FAILED:
		if (cli_cache_damaged(sh->env, r->status)) /* set it aside: the next run rebuilds */
			return cli_cache_failed(sh->env, NULL, r->status, NULL, NULL);
		msg_error("%s: %s; the cache is unchanged", where,
			  r->message ? r->message : "import failed");
		return exit_code_for(r->status);
	default:
		return print_unread(r, where);
	}
}

static void on_result(void *arg, const struct import_result *r)
{
	struct shown *sh = arg;
	int rc = print_result(sh, r);
	if (rc && !sh->rc)
		sh->rc = rc;
}

/* Import src into the open cache of env. */
static int run(struct cli_env *env, const struct cli_args *a, const char *src,
	       const struct http_opts *ho)
{
	struct shown sh = {env, cli_opt(a, O_AS_OF), EXIT_OK};
	struct import_opts o = {
		.cache = env->cache,
		.cat = &env->cat,
		.provider = cli_opt(a, O_IMPORT_PROVIDER),
		.new_provider = cli_flag(a, O_NEW_PROVIDER),
		.as_of = sh.as_of,
		.http = ho,
		.done = on_result,
		.done_arg = &sh,
	};
	import_run(&o, src);
	return sh.rc;
}

static int cmd_import(struct cli_args *a)
{
	if (a->npos != 1) {
		msg_error(a->npos ? "'import' takes one PATH or URL"
				  : "'import' needs a PATH (catalog folder or vms.csv) or a URL");
		return EXIT_USAGE;
	}
	const char *src = a->pos[0];
	enum import_source kind = import_source_kind(src);
	if (kind == IMPORT_NONE) {
		char safe[256];
		msg_error("cannot read '%s': no such file or folder",
			  str_sanitize(safe, sizeof safe, src));
		return EXIT_USAGE;
	}
	char as_of[32];
	if (import_as_of(cli_opt(a, O_AS_OF), -1, as_of, sizeof as_of) != 0)
		return bad_as_of(cli_opt(a, O_AS_OF)); /* checked before any work */
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.writer = 1;
	env.lock_fd = -1;
	struct http_opts ho;
	memset(&ho, 0, sizeof ho);
	int rc = cli_catalog_need(&env, CATALOG_ALL);
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (!rc)
		rc = cli_writer_guard(&env, a);
	if (!rc && kind == IMPORT_URL)
		rc = cli_http_opts(a, &ho);
	if (!rc)
		rc = run(&env, a, src, &ho);
	cli_env_release(&env);
	return rc;
}

static const char *const format_choices[] = {"skypilot", NULL};
static const struct opt_def opt_import_format = {.id = O_IMPORT_FORMAT, .name = "format",
	.type = OPT_ENUM, .arg = "FMT", .choices = format_choices,
	.help = "catalog format: skypilot (the default and only one)"};
static const struct opt_def opt_as_of = {.id = O_AS_OF, .name = "as-of", .type = OPT_STRING,
	.arg = "DATE",
	.help = "the date the catalog describes (YYYY-MM-DD or RFC 3339; default: its "
	"Last-Modified, "
	"else the file's time)"};
static const struct opt_def opt_import_provider = {.id = O_IMPORT_PROVIDER, .name = "provider",
	.type = OPT_STRING, .arg = "ID", .hint = HINT_PROVIDER,
	.help = "provider id of a single vms.csv (default: its folder's name)"};

static const struct opt_use import_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_import_format), OPT_USE(opt_as_of),
	OPT_USE(opt_import_provider), OPT_USE(opt_new_provider), OPT_USE(opt_timeout),
	OPT_USE(opt_retries), OPT_USE(opt_verbose), OPT_USE(opt_force), OPT_USE(opt_wait), OPT_END};
static const struct arg_hint import_args[] = {
	ARG_HINT(ARG_FILES, 1, "catalog folder or vms.csv"),
	ARG_END};

const struct cmd_entry cmd_import_entry = {
	.name = "import",
	.run = cmd_import,
	.usage = "import PATH|URL [--format skypilot] [--provider ID] [--new-provider]",
	.summary = "Load a price catalog (SkyPilot vms.csv format) into the cache.",
	.detail =
		"PATH is a folder laid out as <cloud>/vms.csv (each folder name becomes the\n"
		"provider id) or one vms.csv (--provider names it, else its folder's name).\n"
		"URL is one vms.csv over http(s). Imported offers have source 'import' and\n"
		"replace that provider's offers in one transaction.\n\n"
		"SkyPilot's and gpuhunt's names become gpucmp's ids (do: digitalocean,\n"
		"lambdalabs: lambda, datacrunch: verda, vastai: vast). An id with no profile\n"
		"(providers/ID.yaml) is refused unless --new-provider confirms it; in a\n"
		"folder the other providers are still imported.\n\n"
		"examples:\n"
		"  gpucmp import ~/skypilot-catalog/catalogs/v7\n"
		"  gpucmp import https://example.org/catalogs/v7/lambda/vms.csv --provider lambda",
	.opts = import_opts,
	.args = import_args,
};
