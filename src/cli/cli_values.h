/* cli_values.h - option values every command reads
 * (env_opts.c): HTTP settings, comma lists, --gpu and --provider into a
 * query.  Included by cli.h, after cli_env.h. */
#ifndef GPUCMP_CLI_VALUES_H
#define GPUCMP_CLI_VALUES_H

/* --- env_opts.c: option values, comma lists, filters --- */

/* HTTP settings from --timeout, --retries and GPUCMP_HTTP_MAX_BYTES;
 * prints the error; returns an exit code. */
struct http_opts;
int cli_http_opts(const struct cli_args *a, struct http_opts *o);

/* Split a comma list option into `out` (pointers into a copy kept in
 * `store`, which the caller frees); returns the count, -1 if more than
 * `max`, or CLI_SPLIT_NOMEM after printing "out of memory". */
enum { CLI_SPLIT_NOMEM = -2 };
int cli_split(const struct cli_args *a, enum opt_id id, char **store, const char **out,
	      int max);
/* --disk GB and --egress GB (list, recommend) into *disk_gb and *egress_gb,
 * left alone when absent; either without --hours (`hours` NAN) is a usage
 * error.  Returns an exit code. */
int cli_job_extras(const struct cli_args *a, double hours, double *disk_gb, double *egress_gb);


/* --gpu (gpu_spec_add: every model the names fit, and a GPU count; after
 * --gpus is read) and --provider into q, with "did you mean"; the catalog
 * parts they need must be loaded.  Return exit codes. */
struct query;
int cli_gpu_filter(const struct cli_env *env, const struct cli_args *a, struct query *q);
int cli_provider_filter(const struct cli_env *env, const struct cli_args *a, char **store,
			struct query *q);

#endif
