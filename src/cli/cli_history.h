/* cli_history.h - what the history commands share (history_common.c):
 * changes, history and refresh --changes.  Included by cli.h, after the
 * option table, struct cli_env and the offer filters it uses. */
#ifndef GPUCMP_CLI_HISTORY_H
#define GPUCMP_CLI_HISTORY_H

/* --- history_common.c: what changes, history and refresh --changes share --- */

/* A query from list's filters and --limit (cli_offer_numbers,
 * cli_offer_filters); the fields prepared.  Returns an exit code. */
int cli_changes_query(struct cli_env *env, const struct cli_args *a, struct query *q);
/* A command over the price history (history, changes): the catalog, list's
 * filters and --limit into a query, the cache (not for --explain), --where,
 * then run(env, a, q, ctx); releases all.  Returns an exit code. */
struct query;
typedef int (*cli_history_fn)(struct cli_env *env, const struct cli_args *a,
			      const struct query *q, void *ctx);
int cli_history_command(struct cli_args *a, cli_history_fn run, void *ctx);
/* A question over the history failed with st and err (freed here): the
 * message, or the damaged-cache path (cli_cache_failed); an exit code. */
int cli_history_failed(struct cli_env *env, enum gc_status st, char *err);
/* --explain: print qs with its parameters inlined, then release it;
 * returns an exit code. */
struct query_sql;
int cli_explain_sql(struct query_sql *qs);
/* What changed since `since` (RFC 3339 UTC; NULL: in the events after
 * event `after`) among the offers q selects: printed as --format says when
 * `print`, counted in *count.  With --explain the SQL only.  Returns an
 * exit code. */
int cli_changes_print(struct cli_env *env, const struct cli_args *a, const struct query *q,
		      const char *since, long long after, int print, size_t *count);
/* The filters refresh --changes takes: --gpu, --gpus, --vram, --max-price,
 * --spot, --region, --available (refresh's IDs name the providers). */
extern const struct opt_def *const opts_offer_changes[];

#endif
