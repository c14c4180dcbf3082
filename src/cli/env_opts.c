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
	const char *v = cli_opt(a, O_TIMEOUT);
	double t;
	if (v && (str_to_double(v, &t) != 0 || !(t > 0) || t > 3600)) {
		msg_error("bad value for --timeout: expected seconds, more than 0 and at most "
			  "3600");
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
			msg_error("bad GPUCMP_HTTP_MAX_BYTES: expected a number of bytes, at least "
				  "1024");
			return EXIT_USAGE;
		}
		o->max_body = (size_t)n;
	}
	return EXIT_OK;
}

void cli_default(struct cli_args *a, enum opt_id id, const char *value)
{
	if (value && a->nvalues[id] == 0)
		a->values[id][a->nvalues[id]++] = value;
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

int cli_gpu_filter(const struct cli_env *env, const struct cli_args *a, struct query *q)
{
	struct gpu_spec spec;
	char *err = NULL;
	enum gc_status st = GC_OK;
	gpu_spec_init(&spec);
	for (int i = 0; i < a->nvalues[O_GPU] && st == GC_OK; i++)
		st = gpu_spec_add(env->cat.gpus, a->values[O_GPU][i], &spec, &err);
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

/* The unit an option's value may carry, from its metavar: GB takes 80GB or
 * 1.5TB, USD takes $2.5 (str_to_quantity, as --where reads them); a count
 * (N), hours or seconds take a plain number. */
static enum str_unit option_unit(const struct opt_def *o)
{
	if (o && o->arg && strcmp(o->arg, "GB") == 0)
		return SU_MEMORY;
	if (o && o->arg && strcmp(o->arg, "USD") == 0)
		return SU_MONEY;
	return SU_NONE;
}

int cli_number(const struct cli_args *a, enum opt_id id, int whole, double min, double max,
	       double *out)
{
	const char *v = cli_opt(a, id);
	if (!v)
		return EXIT_OK;
	const struct opt_def *o = cli_option(id);
	enum str_unit want = option_unit(o), got = SU_NONE;
	double d;
	int ok = want == SU_NONE ? str_to_double(v, &d) == 0
				 : str_to_quantity(v, &d, &got) == 0;
	ok = ok && (got == SU_NONE || got == want);
	if (ok && d >= min && d <= max && (!whole || d == floor(d))) {
		*out = d;
		return EXIT_OK;
	}
	char safe[64];
	static const char *const examples[] = {"", ", such as 80 or 80GB", ", such as 2.5 or $2.5"};
	msg_error("bad value '%s' for --%s (expected %s >= %g%s)",
		  str_sanitize(safe, sizeof safe, v), o ? o->name : "?",
		  whole ? "a whole number" : "a number", min, examples[want]);
	return EXIT_USAGE;
}

int cli_job_extras(const struct cli_args *a, double hours, double *disk_gb, double *egress_gb)
{
	int rc = cli_number(a, O_DISK, 0, 0, 1e12, disk_gb);
	if (!rc)
		rc = cli_number(a, O_EGRESS, 0, 0, 1e12, egress_gb);
	if (rc)
		return rc;
	if (isnan(hours) && (!isnan(*disk_gb) || !isnan(*egress_gb))) {
		msg_error("%s needs --hours H (the estimate it adds to)",
			  isnan(*disk_gb) ? "--egress" : "--disk");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}
