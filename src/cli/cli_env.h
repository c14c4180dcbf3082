/* cli_env.h - the run's shared state (struct cli_env) and env.c's calls:
 * the catalog, the config file, the cache, the writer lock.  Included by
 * cli.h, after the option table and the exit codes it uses. */
#ifndef GPUCMP_CLI_ENV_H
#define GPUCMP_CLI_ENV_H

/* Shared state of one run. */
struct cli_env {
	struct catalog cat;
	int cat_loaded;
	struct cache *cache;
	int color;       /* for stdout tables */
	int width;       /* of stdout, 0 when not a terminal */
	int writer;      /* set before cli_open_cache: a real file and the writer lock */
	int lock_later;  /* set with writer: cli_open_cache leaves the lock to cli_lock */
	long lock_wait_ms;
	int lock_fd;     /* held while writer (from cli_lock when lock_later) */
	struct money money; /* how tables show prices (zero: USD) */
	char money_note[96]; /* "prices in EUR at 1 EUR = ..." for footers; "" in USD */
	struct config config; /* the config file, once cli_config loaded it */
	int config_loaded;
};

/* --- env.c: the run's catalog, config, cache, writer lock and their release --- */

/* Load the config file into env->config (once; docs/CONFIG.md); prints the
 * error; returns an exit code (78 for a bad or unsafe file). */
int cli_config(struct cli_env *env);

/* Find the embedded catalog (once, without parsing); prints errors;
 * returns an exit code. */
int cli_catalog(struct cli_env *env);
/* ... and parse the CATALOG_* parts a command needs. */
int cli_catalog_need(struct cli_env *env, unsigned parts);
/* A command's start: *env emptied, then cli_catalog_need(env, parts).
 * cli_env_release(env) is safe after it, whatever it returned. */
int cli_env_start(struct cli_env *env, unsigned parts);
/* The cache path --cache (or the environment) names: a new string in
 * *path; prints the error; returns an exit code. */
int cli_cache_path(const struct cli_args *a, char **path);
/* Open the cache the options name (loading the catalog); prints notes and
 * errors; returns an exit code. */
int cli_open_cache(struct cli_env *env, const struct cli_args *a);
/* Take the writer lock (waiting --wait) for a writer that opened its
 * cache with lock_later; prints the error; returns an exit code (75 when
 * another gpucmp holds it).  cli_unlock drops it (cli_env_release too). */
int cli_lock(struct cli_env *env);
void cli_unlock(struct cli_env *env);
/* A writer's plausible-answer rule (cache_set_guard) from --force and the
 * config's min_keep_percent; loads the config; returns an exit code. */
int cli_writer_guard(struct cli_env *env, const struct cli_args *a);
void cli_env_release(struct cli_env *env);

/* After an operation on env->cache failed with st and err, every command's
 * one way out: when it met a damaged page (cli_cache_damaged), the file
 * is moved aside (kept, under the writer lock: cache_recover) and either
 * the cache is reopened with the options `rebuild`, built afresh from the
 * snapshot (cache clear; that exit code), or, with rebuild NULL, one line
 * says the next run rebuilds it (74); otherwise err (or `fallback`) is
 * printed.  Returns the exit code. */
int cli_cache_failed(struct cli_env *env, const struct cli_args *rebuild, enum gc_status st,
		     const char *err, const char *fallback);
/* Did the operation that failed with st meet a damaged page of env->cache? */
int cli_cache_damaged(const struct cli_env *env, enum gc_status st);

/* Days from `date` (YYYY-MM-DD) to the catalog's today; -1 if malformed. */
long cli_days_ago(const struct cli_env *env, const char *date);

#endif
