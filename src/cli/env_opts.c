/* env_opts.c - option values every subcommand reads: numbers, comma lists,
 * the --gpu and --provider filters, HTTP settings, config defaults. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/gpu_spec.h"
#include "gpucmp/query.h"
#include "gpucmp/strutil.h"

static void verbose_line(void *arg, const char *line)
{
	(void)arg;
	msg_verbose(line);
}

int cli_http_opts(const struct cli_args *a, struct http_opts *o)
{
	http_opts_default(o);
	if (cli_flag(a, O_TIMEOUT))
		o->timeout_ms = (long)(cli_num(a, O_TIMEOUT, 0) * 1000);
	o->max_retries = (int)cli_num(a, O_RETRIES, o->max_retries);
	if (cli_flag(a, O_VERBOSE))
		o->log = verbose_line;
	/* a smaller response cap, for constrained machines (and the tests) */
	const char *v = getenv("GPUCMP_HTTP_MAX_BYTES");
	long n;
	if (v && *v) {
		if (str_to_long(v, &n) != 0 || n < 1024) {
			msg_error("bad GPUCMP_HTTP_MAX_BYTES: expected a number of bytes, at least "
				  "1024");
			return EXIT_USAGE;
		}
		o->max_body = (size_t)n;
	}
	return EXIT_OK;
}

int cli_split(const struct cli_args *a, enum opt_id id, char **store, const char **out,
	      int max)
{
	size_t total = 0;
	*store = NULL;
	if (!a->nvalues[id])
		return 0;
	for (int i = 0; i < a->nvalues[id]; i++)
		total += strlen(cli_opt_at(a, id, i)) + 1;
	*store = malloc(total + 1);
	if (!*store) {
		msg_error("out of memory");
		return CLI_SPLIT_NOMEM;
	}
	char *p = *store;
	int n = 0;
	for (int i = 0; i < a->nvalues[id]; i++) {
		size_t len = strlen(cli_opt_at(a, id, i));
		memcpy(p, cli_opt_at(a, id, i), len + 1);
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

int cli_gpu_filter(const struct cli_env *env, const struct cli_args *a, struct query *q)
{
	struct gpu_spec spec;
	char *err = NULL;
	enum gc_status st = GC_OK;
	gpu_spec_init(&spec);
	for (int i = 0; i < a->nvalues[O_GPU] && st == GC_OK; i++)
		st = gpu_spec_add(env->cat.gpus, cli_opt_at(a, O_GPU, i), &spec, &err);
	if (st == GC_OK && a->nvalues[O_GPU])
		st = query_set_gpus(q, &spec, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read --gpu");
		free(err);
		return exit_code_for(st);
	}
	return EXIT_OK;
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
	/* ids are lowercase (ingest_valid_id): --provider AWS is aws */
	for (int i = 0; i < n; i++)
		for (char *c = *store + (q->providers[i] - *store); *c; c++)
			*c = (char)tolower((unsigned char)*c);
	/* a provider without a profile whose offers the cache holds (imported
	 * with --new-provider) is one too, once the cache is open */
	for (int i = 0; i < n; i++) {
		if (!profile_set_find(&env->cat.profiles, q->providers[i]) &&
		    !(env->cache && cache_has_provider(env->cache, q->providers[i])))
			return cli_unknown_provider(env, q->providers[i]);
	}
	return 0;
}

int cli_job_extras(const struct cli_args *a, double hours, double *disk_gb, double *egress_gb)
{
	*disk_gb = cli_num(a, O_DISK, *disk_gb);
	*egress_gb = cli_num(a, O_EGRESS, *egress_gb);
	if (isnan(hours) && (!isnan(*disk_gb) || !isnan(*egress_gb))) {
		msg_error("%s needs --hours H (the estimate it adds to)",
			  isnan(*disk_gb) ? "--egress" : "--disk");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
