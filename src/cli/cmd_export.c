/* cmd_export.c - gpucmp export DIR [--sign KEYFILE] | export --gen-key KEYFILE:
 * the cache as a team snapshot (docs/TEAM.md).
 *
 * The library writes the files (team.h); this file reads the options and
 * prints one line (or --json) on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"
#include "gpucmp/team.h"

static int gen_key(const char *path)
{
	char pub[TEAM_KEY_LEN], *err = NULL;
	enum gc_status st = team_gen_key(path, pub, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot make a key");
		free(err);
		return exit_code_for(st);
	}
	printf("%s\n", pub);
	msg_note("private key in %s (keep it secret); the public key above goes in the "
		 "clients' trusted_keys", path);
	return EXIT_OK;
}

static void print_result(const struct cli_args *a, const char *dir,
			 const struct team_export_result *r)
{
	char safe[256];
	str_sanitize(safe, sizeof safe, dir);
	printf("exported %zu offer%s of %zu provider%s to %s (%s, %zu bytes, sha256 %.16s...)\n",
	       r->offers, r->offers == 1 ? "" : "s", r->providers, r->providers == 1 ? "" : "s",
	       safe, TEAM_PAYLOAD, r->payload_bytes, r->sha256);
	if (r->key[0] && !cli_flag(a, O_QUIET))
		printf("signed by %s\n", r->key);
}

/* --html: the page beside the snapshot, naming it. */
static enum gc_status write_page(struct cli_env *env, const char *dir,
				 const struct team_export_result *r, struct page_result *pr,
				 char **err)
{
	struct page_opts o = {.gpus = env->cat.gpus, .now = catalog_now(),
			      .stale_after = env->config.stale_after, .history_days = 30,
			      .created_at = r->created_at, .sha256 = r->sha256, .key = r->key,
			      .snapshot_offers = r->offers};
	return team_export_page(env->cache, dir, &o, pr, err);
}

static int export_to(const struct cli_args *a, struct cli_env *env, const char *dir)
{
	struct team_export_result r;
	struct page_result pr;
	char *err = NULL;
	int html = cli_flag(a, O_HTML);
	enum gc_status st = team_export(env->cache, dir, cli_opt(a, O_SIGN), &r, &err);
	if (st == GC_OK && html)
		st = write_page(env, dir, &r, &pr, &err);
	if (st != GC_OK) {
		int rc = cli_cache_failed(env, NULL, st, err, "export failed");
		free(err);
		return rc;
	}
	if (cli_flag(a, O_JSON))
		return cli_print_json(team_export_json(dir, &r, html ? &pr : NULL), 0);
	print_result(a, dir, &r);
	if (html) {
		char safe[256];
		printf("page %s/%s: %zu rows for %lld offers, %zu history and %zu "
		       "price-performance plots\n", str_sanitize(safe, sizeof safe, dir), TEAM_PAGE,
		       pr.rows, pr.offers, pr.history_plots, pr.scatter_plots);
	}
	return EXIT_OK;
}

static int cmd_export(struct cli_args *a)
{
	const char *key = cli_opt(a, O_GEN_KEY);
	if (key && a->npos == 0)
		return gen_key(key);
	if (a->npos != 1 || key) {
		msg_error(key ? "--gen-key makes a key and exports nothing: give no folder"
			      : "'export' needs one folder to write the snapshot into");
		return EXIT_USAGE;
	}
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.lock_fd = -1;
	int rc = cli_catalog_need(&env, CATALOG_ALL);
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (!rc)
		rc = export_to(a, &env, a->pos[0]);
	cli_env_release(&env);
	return rc;
}

static const struct opt_def opt_sign = {.id = O_SIGN, .name = "sign", .type = OPT_STRING,
	.arg = "KEYFILE", .hint = HINT_FILE,
	.help = "sign the manifest with this Ed25519 private key (PEM)"};
static const struct opt_def opt_gen_key = {.id = O_GEN_KEY, .name = "gen-key", .type = OPT_STRING,
	.arg = "KEYFILE", .hint = HINT_FILE,
	.help = "make an Ed25519 key pair: the private key into KEYFILE (0600), the public "
	"key on stdout"};

static const struct opt_def opt_html = {.id = O_HTML, .name = "html", .type = OPT_BOOL,
	.help = "also write index.html: the offers as one self-contained web page with plots"};

static const struct opt_use export_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_USE(opt_sign), OPT_USE(opt_html),
	OPT_USE(opt_gen_key), OPT_END};
static const struct arg_hint export_args[] = {ARG_HINT(ARG_FILES, 1, "folder"), ARG_END};

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.run = cmd_export,
	.usage = "export DIR [--sign KEYFILE] [--html] [--json] | export --gen-key KEYFILE",
	.summary = "Write the cache as a team snapshot that 'refresh --from' pulls.",
	.detail =
		"DIR (created if missing) gets offers.ndjson.gz (every offer of the providers\n"
		"this cache refreshed or imported, with its source, as_of and fetched_at, and\n"
		"each provider's refresh record), manifest.json (format version, created_at,\n"
		"per provider its as_of and offer count, the payload's sha256) and, with\n"
		"--sign, manifest.sig. The same cache gives the same bytes. Upload the folder\n"
		"to any static web server or bucket (docs/TEAM.md).\n\n"
		"--html also writes index.html: the offers as 'list --group-by sku' gives them\n"
		"(one row per provider and SKU) in one self-contained web page that names the\n"
		"snapshot and its key, sorts and filters in the browser (a plain sorted table\n"
		"without JavaScript), with price-history and price-performance plots.\n\n"
		"The key file must be yours and private (chmod 600); DIR must not be another\n"
		"user's or writable by any user (without the sticky bit).\n\n"
		"exit: 0 written, 64 a bad or unsafe key file or folder, 65 nothing to\n"
		"export, 74 cannot write (a full disk says so).\n\n"
		"examples:\n"
		"  gpucmp export --gen-key ~/.config/gpucmp/team.key\n"
		"  gpucmp export /srv/www/gpucmp --sign ~/.config/gpucmp/team.key --html",
	.opts = export_opts,
	.args = export_args,
};
