/* env.c - the run's shared state: the built-in catalog, the config file,
 * the cache (open, notes, damaged-file recovery), the writer lock and the
 * guard, release.
 * Option values live in env_opts.c, output helpers in env_output.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/cache_recover.h"
#include "gpucmp/lock.h"
#include "gpucmp/refresh.h"
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

int cli_env_start(struct cli_env *env, unsigned parts)
{
	memset(env, 0, sizeof *env);
	return cli_catalog_need(env, parts);
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
		msg_note("created cache %s from the built-in snapshot of %s (%zu offers, "
			 "%ld days old) and %zu list prices",
			 path, info->snapshot_date, info->snapshot_rows,
			 cli_days_ago(env, info->snapshot_date), info->list_rows);
	else if (info->snapshot_updated)
		msg_note("updated the built-in snapshot offers in %s to %s", path,
			 info->snapshot_date);
}

int cli_cache_path(const struct cli_args *a, char **path)
{
	char *err = NULL;
	enum gc_status st = cache_locate(cli_opt(a, O_CACHE), path, &err);
	if (st != GC_OK) {
		msg_status(st, err, "no cache location");
		free(err);
		return exit_code_for(st);
	}
	return EXIT_OK;
}

/* A reader whose cache would not open for writing (a read-only file,
 * directory or medium, a full disk, an I/O error, a lock): it never needs
 * to write, so it reads the file as it is, or else answers from the
 * built-in snapshot; either with a warning, except for a file it may not
 * write (permissions say so, not a failure).  A file refused for what it
 * holds (newer, foreign) is not read another way: that error stands. */
static enum gc_status reader_fallback(struct cli_env *env, const char *path,
				      struct cache_open_info *info, char **err, int *memory)
{
	const char *why = *err ? *err : "cannot open cache";
	/* nothing at the path (a read-only home, say), or a link, directory
	 * or FIFO there: nothing to read */
	int none = info->unusable || (access(path, F_OK) != 0 && (errno == ENOENT ||
								  errno == ENOTDIR ||
								  errno == EACCES));
	char *e2 = NULL;
	enum gc_status st = none ? GC_EIO : cache_open_readonly(&env->cache, path, &env->cat, &e2);
	if (st == GC_ENOMEM) { /* not a reason to answer from elsewhere */
		free(*err);
		*err = e2;
		return st;
	}
	free(e2);
	if (st == GC_OK && !info->readonly)
		msg_warn("%s; reading the cache without updating it", why);
	if (st != GC_OK) {
		msg_warn("%s; answering from the built-in snapshot", why);
		cache_open_info_release(info);
		*memory = 1;
	}
	free(*err);
	*err = NULL;
	return st == GC_OK ? GC_OK : cache_open(&env->cache, NULL, &env->cat, info, err);
}

int cli_open_cache(struct cli_env *env, const struct cli_args *a)
{
	int rc = cli_catalog(env);
	if (rc)
		return rc;
	if (env->writer) {
		env->lock_wait_ms = (long)(cli_num(a, O_WAIT, 5) * 1000);
	}
	char *err = NULL, *path;
	if ((rc = cli_cache_path(a, &path)) != EXIT_OK)
		return rc;
	struct cache_open_info info;
	enum gc_status st = cache_open(&env->cache, path, &env->cat, &info, &err);
	int memory = 0;
	if (st == GC_EIO && !env->writer && !info.refused)
		st = reader_fallback(env, path, &info, &err, &memory);
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
	return env->writer && !env->lock_later ? cli_lock(env) : EXIT_OK;
}

int cli_lock(struct cli_env *env)
{
	if (!env->writer || env->lock_fd >= 0)
		return EXIT_OK;
	/* one writer at a time; the lock file sits beside the cache */
	char *err = NULL;
	enum gc_status st = lock_acquire(cache_path(env->cache), env->lock_wait_ms, &env->lock_fd,
					 &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot lock the cache");
		free(err);
		return exit_code_for(st);
	}
	return EXIT_OK;
}

void cli_unlock(struct cli_env *env)
{
	if (env->writer && env->lock_fd >= 0)
		lock_release(env->lock_fd);
	env->lock_fd = -1;
}

void cli_env_release(struct cli_env *env)
{
	cli_unlock(env);
	cache_close(env->cache);
	env->cache = NULL;
	if (env->cat_loaded)
		catalog_release(&env->cat);
	env->cat_loaded = 0;
	if (env->config_loaded)
		config_release(&env->config);
	env->config_loaded = 0;
}

/* After an operation on env->cache found a damaged page: move the file
 * aside (kept, under the writer lock), then either reopen the cache with
 * the options `rebuild` (built afresh from the snapshot; returns that exit
 * code) or, with rebuild NULL, say with `problem` (SQLite's words) that
 * the next run rebuilds it and return 74. */
static int cache_corrupt_recover(struct cli_env *env, const struct cli_args *rebuild,
				 const char *problem)
{
	struct cache_recovery r;
	char *err = NULL, why[128];
	/* copied: SQLite's words go with the connection */
	snprintf(why, sizeof why, "%s", problem ? problem : "");
	problem = why;
	enum gc_status st = cache_recover(&env->cache, env->writer, &r, &err);
	int rc = EXIT_IOERR;
	if (r.busy) {
		msg_error("cache %s is not a usable database (%s); another gpucmp is updating it: "
			  "run 'gpucmp cache clear' when it has finished", r.path, problem);
		rc = EXIT_TEMPFAIL;
	} else if (st != GC_OK) {
		msg_status(st, err, "cannot move the damaged cache aside");
		rc = exit_code_for(st);
	} else if (!rebuild) {
		msg_error("cache %s is not a usable database (%s); moved it to %s; the next run "
			  "rebuilds it from the built-in snapshot", r.path, problem, r.moved);
	} else {
		/* reopen under the writer lock this command may already hold */
		int writer = env->writer;
		env->writer = 0;
		rc = cli_open_cache(env, rebuild);
		env->writer = writer;
		if (rc == EXIT_OK)
			msg_warn("cache %s was not a usable database; moved it to %s and rebuilt "
				 "it from the built-in snapshot", r.path, r.moved);
		else
			msg_error("the damaged cache %s is kept as %s", r.path, r.moved);
	}
	cache_recovery_release(&r);
	free(err);
	return rc;
}

int cli_cache_damaged(const struct cli_env *env, enum gc_status st)
{
	/* a damaged page is an I/O error; not out of memory, nor bad data */
	return st == GC_EIO && env->cache && cache_corrupt(env->cache);
}

int cli_cache_failed(struct cli_env *env, const struct cli_args *rebuild, enum gc_status st,
		     const char *err, const char *fallback)
{
	if (cli_cache_damaged(env, st))
		return cache_corrupt_recover(env, rebuild, cache_problem(env->cache));
	msg_status(st, err, fallback);
	return exit_code_for(st);
}

int cli_writer_guard(struct cli_env *env, const struct cli_args *a)
{
	int rc = cli_config(env);
	if (rc)
		return rc;
	int keep = env->config.min_keep_percent;
	cache_set_guard(env->cache, cli_flag(a, O_FORCE), keep < 0 ? CACHE_MIN_KEEP_PERCENT : keep);
	cache_set_history(env->cache, env->config.history_days);
	/* the door's cap of rows per provider: GPUCMP_REFRESH_MAX_OFFERS when
	 * set, for every way in (a pull and an import too) */
	struct refresh_opts caps;
	memset(&caps, 0, sizeof caps);
	char *err = NULL;
	enum gc_status st = refresh_env_caps(&caps, &err);
	if (st != GC_OK) {
		msg_status(st, err, NULL);
		free(err);
		return exit_code_for(st);
	}
	cache_set_ingest(env->cache, cli_flag(a, O_NEW_PROVIDER), caps.max_offers);
	return EXIT_OK;
}
