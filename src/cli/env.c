/* env.c - what every subcommand needs: catalog, cache, colour, format. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/buf.h"
#include "gpucmp/csv.h"
#include "gpucmp/gpu.h"
#include "gpucmp/lock.h"
#include "gpucmp/query.h"
#include "gpucmp/rates.h"
#include "gpucmp/strutil.h"

int cli_catalog(struct cli_env *env)
{
	if (env->cat_loaded)
		return EXIT_OK;
	char *err = NULL;
	enum gc_status st = catalog_init(&env->cat, catalog_today(), &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot load the built-in catalog");
		free(err);
		return exit_code_for(st);
	}
	env->cat_loaded = 1;
	return EXIT_OK;
}

int cli_catalog_need(struct cli_env *env, unsigned parts)
{
	int rc = cli_catalog(env);
	if (rc)
		return rc;
	char *err = NULL;
	enum gc_status st = catalog_need(&env->cat, parts, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot load the built-in catalog");
		free(err);
		return exit_code_for(st);
	}
	return EXIT_OK;
}

long cli_days_ago(const struct cli_env *env, const char *date)
{
	long d = str_date_days(date);
	return d < 0 ? -1 : env->cat.today - d;
}

static void open_notes(const struct cli_env *env, const char *path,
		       const struct cache_open_info *info, int memory)
{
	/* once a run: a rebuild after a damaged page opens the cache again */
	static int warned_dir;
	if (info->open_dir && !warned_dir++)
		msg_warn("cache directory %s can be written by any user, who could replace the "
			 "cache or plant files beside it; run: chmod o-w %s, or move the cache "
			 "(--cache PATH)", info->open_dir, info->open_dir);
	if (info->moved_aside)
		msg_warn("cache %s was not a usable database; moved it to %s and rebuilt it "
			 "from the built-in snapshot", path, info->moved_aside);
	if (memory && info->seeded)
		msg_note("answering from the built-in snapshot of %s (%ld days old)",
			 info->snapshot_date, cli_days_ago(env, info->snapshot_date));
	else if (info->seeded)
		msg_note("created cache %s from the built-in snapshot of %s (%zu offers, %ld days old) "
			 "and %zu list prices",
			 path, info->snapshot_date, info->snapshot_rows,
			 cli_days_ago(env, info->snapshot_date), info->list_rows);
	else if (info->snapshot_updated)
		msg_note("updated the built-in snapshot offers in %s to %s", path,
			 info->snapshot_date);
}

int cli_money(struct cli_env *env, const char *code)
{
	static const struct {
		const char *code, *sign;
	} signs[] = {{"EUR", "\xE2\x82\xAC"}, {"GBP", "\xC2\xA3"}, {"JPY", "\xC2\xA5"}};
	static char sign[8];
	memset(&env->money, 0, sizeof env->money);
	env->money_note[0] = '\0';
	if (!code || strcmp(code, "USD") == 0)
		return EXIT_OK;
	struct rate_table t;
	char *err = NULL;
	enum gc_status st = rates_load_embedded(&t, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the exchange rates");
		free(err);
		return exit_code_for(st);
	}
	double usd = rates_usd(&t, code);
	if (!(usd > 0)) {
		char safe[16];
		msg_error("currency '%s' is not in the exchange-rate table; USD or one of data/rates.yaml",
			  str_sanitize(safe, sizeof safe, code));
		rates_free(&t);
		return EXIT_USAGE;
	}
	snprintf(sign, sizeof sign, "%.3s ", code);
	for (size_t i = 0; i < sizeof signs / sizeof signs[0]; i++)
		if (strcmp(signs[i].code, code) == 0)
			snprintf(sign, sizeof sign, "%s", signs[i].sign);
	env->money.symbol = sign;
	env->money.per_usd = 1 / usd;
	snprintf(env->money_note, sizeof env->money_note, "prices in %.3s at 1 %.3s = %g USD (%s)",
		 code, code, usd, t.date);
	rates_free(&t);
	return EXIT_OK;
}

static void verbose_line(void *arg, const char *line)
{
	(void)arg;
	msg_verbose(line);
}

int cli_http_opts(const struct cli_args *a, struct http_opts *o)
{
	http_opts_default(o);
	const char *v = cli_opt(a, O_TIMEOUT);
	double t;
	if (v && (str_to_double(v, &t) != 0 || !(t > 0) || t > 3600)) {
		msg_error("bad value for --timeout: expected seconds, more than 0 and at most 3600");
		return EXIT_USAGE;
	}
	if (v)
		o->timeout_ms = (long)(t * 1000);
	long n;
	v = cli_opt(a, O_RETRIES);
	if (v && (str_to_long(v, &n) != 0 || n < 0 || n > 10)) {
		msg_error("bad value for --retries: expected a whole number from 0 to 10");
		return EXIT_USAGE;
	}
	if (v)
		o->max_retries = (int)n;
	if (cli_flag(a, O_VERBOSE))
		o->log = verbose_line;
	/* a smaller response cap, for constrained machines (and the tests) */
	v = getenv("GPUCMP_HTTP_MAX_BYTES");
	if (v && *v) {
		if (str_to_long(v, &n) != 0 || n < 1024) {
			msg_error("bad GPUCMP_HTTP_MAX_BYTES: expected a number of bytes, at least 1024");
			return EXIT_USAGE;
		}
		o->max_body = (size_t)n;
	}
	return EXIT_OK;
}

int cli_open_cache(struct cli_env *env, const struct cli_args *a)
{
	int rc = cli_catalog(env);
	if (rc)
		return rc;
	if (env->writer) {
		const char *w = cli_opt(a, O_WAIT);
		double secs = 5;
		if (w && (str_to_double(w, &secs) != 0 || secs < 0 || secs > 86400)) {
			msg_error("bad value for --wait: expected seconds from 0 to 86400");
			return EXIT_USAGE;
		}
		env->lock_wait_ms = (long)(secs * 1000);
	}
	char *err = NULL, *path;
	enum gc_status st = cache_locate(cli_opt(a, O_CACHE), &path, &err);
	if (st != GC_OK) {
		msg_status(st, err, "no cache location");
		free(err);
		return exit_code_for(st);
	}
	struct cache_open_info info;
	st = cache_open(&env->cache, path, &env->cat, &info, &err);
	int memory = 0;
	if (st == GC_EIO && !env->writer &&
	    (info.unusable || (access(path, F_OK) != 0 &&
			       (errno == ENOENT || errno == ENOTDIR || errno == EACCES)))) {
		/* cannot create the cache (read-only home, say) or the path holds
		 * a directory, FIFO or link: still answer */
		msg_warn("%s; answering from the built-in snapshot", err ? err : "cannot create cache");
		free(err);
		err = NULL;
		cache_open_info_release(&info);
		st = cache_open(&env->cache, NULL, &env->cat, &info, &err);
		memory = 1;
	} else if (st == GC_EIO && !env->writer) {
		/* a seeded cache we cannot write (read-only file or directory):
		 * read it as it is; if that fails too, the first error stands */
		char *e2 = NULL;
		if (cache_open_readonly(&env->cache, path, &env->cat, &e2) == GC_OK) {
			free(err);
			err = NULL;
			st = GC_OK;
		}
		free(e2);
	}
	if (st != GC_OK) {
		msg_status(st, err, "cannot open the cache");
		free(err);
		free(path);
		cache_open_info_release(&info);
		return exit_code_for(st);
	}
	open_notes(env, path, &info, memory);
	cache_open_info_release(&info);
	free(path);
	if (env->writer) {
		/* one writer at a time; the lock file sits beside the cache */
		st = lock_acquire(cache_path(env->cache), env->lock_wait_ms, &env->lock_fd, &err);
		if (st != GC_OK) {
			msg_status(st, err, "cannot lock the cache");
			free(err);
			return exit_code_for(st);
		}
	}
	return EXIT_OK;
}

void cli_env_release(struct cli_env *env)
{
	if (env->writer && env->lock_fd >= 0)
		lock_release(env->lock_fd);
	env->lock_fd = -1;
	cache_close(env->cache);
	env->cache = NULL;
	if (env->cat_loaded)
		catalog_release(&env->cat);
	env->cat_loaded = 0;
	if (env->config_loaded)
		config_release(&env->config);
	env->config_loaded = 0;
}

int cli_config(struct cli_env *env)
{
	if (env->config_loaded)
		return EXIT_OK;
	char *err = NULL;
	config_init(&env->config);
	env->config_loaded = 1;
	enum gc_status st = config_load(&env->config, NULL, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read the config file");
		free(err);
		return exit_code_for(st);
	}
	return EXIT_OK;
}

int cli_cache_corrupt(struct cli_env *env, const struct cli_args *rebuild, const char *problem)
{
	char *path = strdup(cache_path(env->cache)), *moved = NULL, *err = NULL;
	if (!path) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	/* a reader takes the writer lock for the move, never from under a
	 * refresh that is writing the file */
	int fd = -1;
	enum gc_status st = env->writer ? GC_OK : lock_acquire(path, 0, &fd, &err);
	if (st == GC_ETEMPFAIL) {
		msg_error("cache %s is not a usable database (%s); another gpucmp is updating it: "
			  "run 'gpucmp cache clear' when it has finished", path, problem);
		free(path);
		free(err);
		return EXIT_TEMPFAIL;
	}
	if (st == GC_OK)
		st = cache_set_aside(env->cache, &moved, &err);
	else
		cache_close(env->cache);
	env->cache = NULL;
	lock_release(fd); /* -1 for a writer, which keeps its own */
	int rc = EXIT_IOERR;
	if (st != GC_OK) {
		msg_status(st, err, "cannot move the damaged cache aside");
		rc = exit_code_for(st);
	} else if (!rebuild) {
		msg_error("cache %s is not a usable database (%s); moved it to %s; the next run "
			  "rebuilds it from the built-in snapshot", path, problem, moved);
	} else {
		/* reopen under the writer lock this command may already hold */
		int writer = env->writer;
		env->writer = 0;
		rc = cli_open_cache(env, rebuild);
		env->writer = writer;
		if (rc == EXIT_OK)
			msg_warn("cache %s was not a usable database; moved it to %s and rebuilt it "
				 "from the built-in snapshot", path, moved);
		else
			msg_error("the damaged cache %s is kept as %s", path, moved);
	}
	free(path);
	free(moved);
	free(err);
	return rc;
}

int cli_currency(struct cli_env *env)
{
	int rc = cli_config(env);
	return rc ? rc : cli_money(env, config_currency(&env->config));
}

void cli_default(struct cli_args *a, enum opt_id id, const char *value)
{
	if (value && a->nvalues[id] == 0)
		a->values[id][a->nvalues[id]++] = value;
}

int cli_use_color(const struct cli_args *a, FILE *f)
{
	const char *when = cli_opt(a, O_COLOR);
	if (when && strcmp(when, "always") == 0)
		return 1;
	if (when && strcmp(when, "never") == 0)
		return 0;
	const char *no = getenv("NO_COLOR");
	const char *term = getenv("TERM");
	if ((no && *no) || (term && strcmp(term, "dumb") == 0))
		return 0;
	return isatty(fileno(f));
}

enum render_format cli_format(const struct cli_args *a)
{
	const char *f = cli_opt(a, O_FORMAT);
	if (cli_flag(a, O_JSON) && !f)
		return RF_JSON;
	if (!f || strcmp(f, "table") == 0)
		return cli_flag(a, O_JSON) ? RF_JSON : RF_TABLE;
	if (strcmp(f, "json") == 0)
		return RF_JSON;
	if (strcmp(f, "csv") == 0)
		return RF_CSV;
	return RF_NDJSON;
}

int cli_split(const struct cli_args *a, enum opt_id id, char **store, const char **out,
	      int max)
{
	size_t total = 0;
	*store = NULL;
	if (!a->nvalues[id])
		return 0;
	for (int i = 0; i < a->nvalues[id]; i++)
		total += strlen(a->values[id][i]) + 1;
	*store = malloc(total + 1);
	if (!*store) {
		msg_error("out of memory");
		return CLI_SPLIT_NOMEM;
	}
	char *p = *store;
	int n = 0;
	for (int i = 0; i < a->nvalues[id]; i++) {
		size_t len = strlen(a->values[id][i]);
		memcpy(p, a->values[id][i], len + 1);
		char *save = NULL;
		for (char *tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			while (*tok == ' ')
				tok++;
			size_t tl = strlen(tok);
			while (tl && tok[tl - 1] == ' ')
				tok[--tl] = '\0';
			if (!*tok)
				continue;
			if (n >= max)
				return -1;
			out[n++] = tok;
		}
		p += len + 1;
	}
	return n;
}

/* A table cell as CSV wants it: "-" (none) empty, "?" spelt "unknown",
 * "$2.49" without its currency sign. */
static const char *csv_cell(const char *v)
{
	if (strcmp(v, "-") == 0)
		return "";
	if (strcmp(v, "?") == 0)
		return "unknown";
	if (v[0] == '$' && v[1] >= '0' && v[1] <= '9')
		return v + 1;
	return v;
}

int cli_print_csv(const char *header, const char *const *cells, size_t nrows, size_t ncols)
{
	struct buf b;
	buf_init(&b, 0);
	enum gc_status st = buf_printf(&b, "%s\n", header);
	for (size_t i = 0; i < nrows * ncols && st == GC_OK; i++) {
		st = csv_quote(&b, csv_cell(cells[i]));
		if (st == GC_OK)
			st = buf_addc(&b, (i + 1) % ncols ? ',' : '\n');
	}
	int rc = EXIT_OK;
	if (st != GC_OK) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
	} else if (fwrite(b.ptr, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	}
	buf_free(&b);
	return rc;
}

int cli_gpu_filter(const struct cli_env *env, const struct cli_args *a, char **store,
		   struct query *q)
{
	const char *words[QUERY_MAX_LIST];
	int n = cli_split(a, O_GPU, store, words, QUERY_MAX_LIST);
	if (n == CLI_SPLIT_NOMEM)
		return EXIT_OSERR;
	if (n < 0) {
		msg_error("too many --gpu values (at most %d)", QUERY_MAX_LIST);
		return EXIT_USAGE;
	}
	for (int i = 0; i < n; i++) {
		size_t room = QUERY_MAX_LIST - q->ngpus;
		size_t got = gpu_match(env->cat.gpus, words[i], q->gpus + q->ngpus, room);
		if (got == 0)
			return cli_unknown("GPU", words[i], gpu_suggest(env->cat.gpus, words[i]),
					   "'gpucmp gpus' lists the known ones");
		q->ngpus += got;
	}
	return 0;
}

int cli_provider_filter(const struct cli_env *env, const struct cli_args *a, char **store,
			struct query *q)
{
	int n = cli_split(a, O_PROVIDER, store, q->providers, QUERY_MAX_LIST);
	if (n == CLI_SPLIT_NOMEM)
		return EXIT_OSERR;
	if (n < 0) {
		msg_error("too many --provider values (at most %d)", QUERY_MAX_LIST);
		return EXIT_USAGE;
	}
	q->nproviders = (size_t)n;
	for (int i = 0; i < n; i++) {
		if (!profile_set_find(&env->cat.profiles, q->providers[i]))
			return cli_unknown_provider(env, q->providers[i]);
	}
	return 0;
}

int cli_unknown(const char *what, const char *name, const char *best, const char *hint)
{
	char safe[64];
	str_sanitize(safe, sizeof safe, name);
	if (best)
		msg_error("unknown %s '%s'; did you mean '%s'?", what, safe, best);
	else
		msg_error("unknown %s '%s'; %s", what, safe, hint);
	return EXIT_USAGE;
}

int cli_unknown_provider(const struct cli_env *env, const char *id)
{
	return cli_unknown("provider", id, profile_set_suggest(&env->cat.profiles, id),
			   "'gpucmp providers' lists them");
}

int cli_number(const struct cli_args *a, enum opt_id id, int whole, double min, double max,
	       double *out)
{
	const char *v = cli_opt(a, id);
	double d;
	if (!v)
		return EXIT_OK;
	if (str_to_double(v, &d) == 0 && d >= min && d <= max && (!whole || d == floor(d))) {
		*out = d;
		return EXIT_OK;
	}
	const char *name = "?";
	for (size_t i = 0; i < cli_option_count; i++)
		if (cli_options[i].id == id)
			name = cli_options[i].name;
	char safe[64];
	msg_error("bad value '%s' for --%s (expected %s >= %g)", str_sanitize(safe, sizeof safe, v),
		  name, whole ? "a whole number" : "a number", min);
	return EXIT_USAGE;
}

int cli_writer_guard(struct cli_env *env, const struct cli_args *a)
{
	int rc = cli_config(env);
	if (rc)
		return rc;
	int keep = env->config.min_keep_percent;
	cache_set_guard(env->cache, cli_flag(a, O_FORCE), keep < 0 ? CACHE_MIN_KEEP_PERCENT : keep);
	return EXIT_OK;
}
