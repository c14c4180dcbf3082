/* cmd_import.c - gpucmp import PATH|URL: SkyPilot catalogs into the cache.
 *
 * Each provider's rows are parsed inside the transaction that replaces its
 * offers (cache_store), so a malformed file changes nothing and a large
 * catalog never sits in memory twice.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "gpucmp/fileio.h"
#include "gpucmp/http.h"
#include "gpucmp/pipe.h"
#include "gpucmp/skypilot.h"
#include "gpucmp/strutil.h"

enum { CATALOG_MAX_BYTES = 512 << 20 };

struct one {
	const char *provider;
	const char *data;
	size_t len;
	struct skypilot_opts opts;
	struct skypilot_stats stats;
};

static enum gc_status parse(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct one *o = arg;
	memset(&o->stats, 0, sizeof o->stats);
	return skypilot_parse(o->data, o->len, &o->opts, cb, ctx, &o->stats, err);
}

/* Inside the transaction: a large catalog is parsed on a second thread
 * while SQLite inserts here; a small one is not worth a thread. */
static enum gc_status fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct one *o = arg;
	if (o->len < (1u << 20))
		return parse(arg, cb, ctx, err);
	return pipe_run(parse, arg, cb, ctx, err);
}

static int valid_id(const char *id)
{
	if (!*id || strlen(id) > 40)
		return 0;
	for (const char *p = id; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-')
			return 0;
	return 1;
}

/* Import one catalog file's bytes as `provider`; prints the outcome. */
/* The date the catalog describes: --as-of, else `known` (its
 * Last-Modified, or the file's time; < 0: none), else now.  Never later
 * than now.  Into out as RFC 3339 UTC; -1 after an error message. */
static int catalog_as_of(const struct cli_args *a, long long known, char *out, size_t n)
{
	const char *v = cli_opt(a, O_AS_OF);
	long long now = catalog_now(), t = v ? str_user_date(v) : known;
	if (v && (t < 0 || t > now)) {
		char safe[64];
		msg_error("bad date '%s' for --as-of: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, "
			  "not in the future",
			  str_sanitize(safe, sizeof safe, v));
		return -1;
	}
	str_time_format(t >= 0 && t <= now ? t : now, out, n);
	return 0;
}

static int import_one(struct cli_env *env, const struct cli_args *a, const char *provider,
		      const char *origin, const char *data, size_t len, long long known_as_of)
{
	char safe[64];
	str_sanitize(safe, sizeof safe, provider);
	if (!valid_id(provider)) {
		msg_error("'%s' is not a provider id (lowercase letters, digits and '-'); "
			  "name it with --provider", safe);
		return EXIT_USAGE;
	}
	if (!profile_set_find(&env->cat.profiles, provider))
		msg_warn("no profile for '%s': its offers are imported, its capabilities show as "
			 "unknown", safe);
	char now[32], as_of[32];
	str_time_format(catalog_now(), now, sizeof now);
	if (catalog_as_of(a, known_as_of, as_of, sizeof as_of) != 0)
		return EXIT_USAGE;
	struct one o;
	memset(&o, 0, sizeof o);
	o.provider = provider;
	o.data = data;
	o.len = len;
	o.opts.provider = provider;
	o.opts.gpus = env->cat.gpus;
	o.opts.types = env->cat.types;
	o.opts.source = "import";
	o.opts.origin = origin;
	o.opts.fetched_at = now;
	o.opts.as_of = as_of;
	struct cache_meta m = {"import", now, NULL, NULL, NULL, 0};
	size_t lines = 0;
	for (const char *p = data; (p = memchr(p, '\n', (size_t)(data + len - p))) != NULL; p++)
		lines++;
	cache_expect_rows(env->cache, lines);
	size_t inserted = 0;
	char *err = NULL;
	enum gc_status st = cache_store(env->cache, provider, &m, fill, &o, &inserted, &err);
	if (cli_cache_damaged(env, st)) { /* set it aside: the next run rebuilds */
		free(err);
		return cli_cache_failed(env, NULL, st, NULL, NULL);
	}
	if (st != GC_OK) {
		char where[256];
		str_sanitize(where, sizeof where, origin);
		msg_error("%s: %s; the cache is unchanged", where, err ? err : "import failed");
		free(err);
		return exit_code_for(st);
	}
	printf("%-14s %zu offers imported (%zu rows; skipped: %zu without a GPU, %zu without a "
	       "price, %zu other zones)\n",
	       safe, inserted, o.stats.rows, o.stats.cpu_only + o.stats.tpu, o.stats.no_price,
	       o.stats.duplicates);
	if (o.stats.spot_dropped)
		msg_note("%s: %zu spot prices at or above the on-demand price are not spot prices; "
			 "stored as unknown", safe, o.stats.spot_dropped);
	if (o.stats.retired)
		msg_note("%s: %zu rows skipped: retired sizes or a second name of another size "
			 "(data/retired.yaml)", safe, o.stats.retired);
	if (o.stats.placeholder)
		msg_note("%s: %zu rows carry the catalog's fixed 32 vCPUs / 64 GiB; stored as "
			 "unknown", safe, o.stats.placeholder);
	if (o.stats.unknown_gpu)
		msg_note("%s: %zu offers name a GPU gpucmp does not know; kept and flagged "
			 "(gpu_known false)", safe, o.stats.unknown_gpu);
	if (o.stats.bad_price)
		msg_note("%s: %zu rows skipped: their price is not a plain decimal number from %g "
			 "to %g USD per hour", safe, o.stats.bad_price, OFFER_MIN_PRICE_HR,
			 OFFER_MAX_PRICE_HR);
	if (o.stats.cleaned)
		msg_note("%s: %zu offers had control characters (stored as '?') or text longer "
			 "than %d bytes (cut)", safe, o.stats.cleaned, STR_FIELD_MAX);
	return EXIT_OK;
}

/* The last path segment before `end` ("/a/lambda/vms.csv" -> "lambda"). */
static void parent_name(const char *path, char *out, size_t n)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", path);
	char *slash = strrchr(tmp, '/');
	if (!slash) {
		snprintf(out, n, ".");
		return;
	}
	*slash = '\0';
	slash = strrchr(tmp, '/');
	const char *name = slash ? slash + 1 : tmp;
	size_t len = strlen(name);
	if (len >= n)
		len = n - 1;
	memcpy(out, name, len);
	out[len] = '\0';
}

static int import_file(struct cli_env *env, const struct cli_args *a, const char *path,
		       const char *provider)
{
	char *data = NULL, *err = NULL;
	size_t len;
	enum gc_status st = file_read_all(path, CATALOG_MAX_BYTES, &data, &len, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the catalog");
		free(err);
		return st == GC_ENOTFOUND ? EXIT_USAGE : exit_code_for(st);
	}
	char name[256];
	if (!provider) {
		parent_name(path, name, sizeof name);
		provider = name;
	}
	struct stat sb;
	long long mtime = stat(path, &sb) == 0 ? (long long)sb.st_mtime : -1;
	int rc = import_one(env, a, provider, path, data, len, mtime);
	free(data);
	return rc;
}

struct fetched {
	char *body; /* taken from the response, not copied */
	size_t len;
	long status;
	enum gc_status st;
	char *message;
	long long last_modified; /* -1: none */
};

static void on_done(void *user, struct http_response *resp)
{
	struct fetched *f = user;
	f->status = resp->status;
	f->st = resp->error;
	f->message = resp->message ? strdup(resp->message) : NULL;
	f->last_modified = str_http_date(resp->last_modified);
	if (resp->error == GC_OK && resp->status >= 200 && resp->status < 300) {
		f->len = resp->body.len;
		f->body = buf_steal(&resp->body);
		if (!f->body)
			f->st = GC_ENOMEM;
	}
}

static int import_url(struct cli_env *env, const char *url, const char *provider,
		      const struct cli_args *a)
{
	struct http_opts ho;
	int rc0 = cli_http_opts(a, &ho);
	if (rc0)
		return rc0;
	if (!getenv("GPUCMP_HTTP_MAX_BYTES"))
		ho.max_body = CATALOG_MAX_BYTES;
	char name[256];
	if (!provider) {
		char clean[4096];
		snprintf(clean, sizeof clean, "%s", url);
		clean[strcspn(clean, "?#")] = '\0';
		parent_name(clean, name, sizeof name);
		provider = name;
	}
	struct http_client *c = NULL;
	struct fetched f;
	memset(&f, 0, sizeof f);
	struct http_request req;
	memset(&req, 0, sizeof req);
	req.url = url;
	req.label = "import";
	char *err = NULL;
	enum gc_status st = http_client_new(&c, &ho, &err);
	if (st == GC_OK)
		st = http_add(c, &req, NULL, on_done, &f, &err);
	if (st == GC_OK)
		st = http_client_run(c, &err);
	http_client_free(c);
	int rc;
	/* the URL as shown and stored as the offers' origin: userinfo and
	 * credential-like query parameters masked */
	char shown[4096], where[256];
	http_url_redact(shown, sizeof shown, url, NULL);
	str_sanitize(where, sizeof where, shown);
	if (st != GC_OK) {
		msg_status(st, err, "cannot fetch the catalog");
		rc = exit_code_for(st);
	} else if (f.st != GC_OK) {
		msg_error("%s; the cache is unchanged", f.message ? f.message : "cannot fetch");
		rc = exit_code_for(f.st);
	} else if (f.status < 200 || f.status > 299) {
		msg_error("%s: HTTP %ld; the cache is unchanged", where, f.status);
		rc = EXIT_UNAVAILABLE;
	} else {
		rc = import_one(env, a, provider, shown, f.body, f.len, f.last_modified);
	}
	free(err);
	free(f.message);
	free(f.body);
	return rc;
}

/* A folder: PATH/vms.csv, or PATH/<cloud>/vms.csv for each cloud. */
static int import_dir(struct cli_env *env, const struct cli_args *a, const char *dir,
		      const char *provider)
{
	char one[4096];
	snprintf(one, sizeof one, "%s/vms.csv", dir);
	if (!file_is_dir(one) && file_is_file(one))
		return import_file(env, a, one, provider);
	if (provider) {
		msg_error("--provider names the provider of one vms.csv; %s holds a folder per "
			  "provider", dir);
		return EXIT_USAGE;
	}
	char **names, *err = NULL;
	size_t n;
	enum gc_status st = file_list(dir, "", &names, &n, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the folder");
		free(err);
		return st == GC_ENOTFOUND ? EXIT_USAGE : exit_code_for(st);
	}
	int rc = EXIT_OK;
	size_t found = 0;
	for (size_t i = 0; i < n; i++) {
		snprintf(one, sizeof one, "%s/vms.csv", names[i]);
		if (!file_is_dir(names[i]) || !file_is_file(one))
			continue;
		found++;
		int r = import_file(env, a, one, NULL);
		if (r && !rc)
			rc = r;
	}
	file_list_free(names, n);
	if (!found) {
		char safe[256];
		msg_error("%s holds no vms.csv and no <cloud>/vms.csv folders",
			  str_sanitize(safe, sizeof safe, dir));
		return EXIT_USAGE;
	}
	return rc;
}

static int cmd_import(struct cli_args *a)
{
	if (a->npos != 1) {
		msg_error(a->npos ? "'import' takes one PATH or URL"
				  : "'import' needs a PATH (catalog folder or vms.csv) or a URL");
		return EXIT_USAGE;
	}
	const char *src = a->pos[0];
	const char *provider = cli_opt(a, O_IMPORT_PROVIDER);
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.writer = 1;
	env.lock_fd = -1;
	int is_url = strncmp(src, "http://", 7) == 0 || strncmp(src, "https://", 8) == 0;
	if (!is_url && !file_is_dir(src) && !file_is_file(src)) {
		char safe[256];
		msg_error("cannot read '%s': no such file or folder",
			  str_sanitize(safe, sizeof safe, src));
		return EXIT_USAGE;
	}
	char as_of[32];
	if (catalog_as_of(a, -1, as_of, sizeof as_of) != 0) /* checked before any work */
		return EXIT_USAGE;
	int rc = cli_catalog_need(&env, CATALOG_ALL);
	if (!rc)
		rc = cli_open_cache(&env, a);
	if (!rc)
		rc = cli_writer_guard(&env, a);
	if (!rc) {
		if (is_url)
			rc = import_url(&env, src, provider, a);
		else if (file_is_dir(src))
			rc = import_dir(&env, a, src, provider);
		else
			rc = import_file(&env, a, src, provider);
	}
	cli_env_release(&env);
	return rc;
}

static const char *const format_choices[] = {"skypilot", NULL};
static const struct opt_def opt_import_format = {O_IMPORT_FORMAT, "format", 0, OPT_ENUM, "FMT",
	format_choices, HINT_NONE, "catalog format: skypilot (the default and only one)"};
static const struct opt_def opt_as_of = {O_AS_OF, "as-of", 0, OPT_STRING, "DATE", NULL, HINT_NONE,
	"the date the catalog describes (YYYY-MM-DD or RFC 3339; default: its Last-Modified, "
	"else the file's time)"};
static const struct opt_def opt_import_provider = {O_IMPORT_PROVIDER, "provider", 0, OPT_STRING,
	"ID", NULL, HINT_PROVIDER, "provider id of a single vms.csv (default: its folder's name)"};

static const struct opt_use import_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_import_format), OPT_USE(opt_as_of),
	OPT_USE(opt_import_provider), OPT_USE(opt_timeout), OPT_USE(opt_retries),
	OPT_USE(opt_verbose), OPT_USE(opt_force), OPT_USE(opt_wait), {NULL, NULL}};
static const struct arg_hint import_args[] = {
	{ARG_FILES, 1, "catalog folder or vms.csv", NULL, NULL, NULL},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

const struct cmd_entry cmd_import_entry = {
	.name = "import",
	.run = cmd_import,
	.usage = "import PATH|URL [--format skypilot] [--provider ID]",
	.summary = "Load a price catalog (SkyPilot vms.csv format) into the cache.",
	.detail =
		"PATH is a folder laid out as <cloud>/vms.csv (each folder name becomes the\n"
		"provider id) or one vms.csv (--provider names it, else its folder's name).\n"
		"URL is one vms.csv over http(s). Imported offers have source 'import' and\n"
		"replace that provider's offers in one transaction.\n\n"
		"examples:\n"
		"  gpucmp import ~/skypilot-catalog/catalogs/v7\n"
		"  gpucmp import https://example.org/catalogs/v7/lambda/vms.csv --provider lambda",
	.opts = import_opts,
	.args = import_args,
};
