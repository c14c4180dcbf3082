/* opts.c - the one option table: parsing and --help come from it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"

static const char *const k8s_choices[] = {"managed", "join", "any", "none", NULL};
static const char *const docker_choices[] = {"custom", "daemon", "base", NULL};
static const char *const format_choices[] = {"table", "json", "csv", "ndjson", NULL};
static const char *const color_choices[] = {"auto", "always", "never", NULL};
static const char *const import_choices[] = {"skypilot", NULL};
static const char *const workload_choices[] = {"inference", "training", "batch", "notebook", NULL};

#define LISTLIKE (CMD_LIST | CMD_PROVIDERS)

/* Sorted by long name within each group; `cmds` says which subcommands
 * accept the option.  Help text: lowercase, no full stop. */
const struct opt_def cli_options[] = {
	{O_HELP, "help", 'h', NULL, NULL, CMD_ALL, "show help for the command and exit"},
	{O_VERSION, "version", 'V', NULL, NULL, CMD_ALL, "print the version and the snapshot date"},
	{O_CACHE, "cache", 0, "PATH", NULL, CMD_ALL, "cache database (default $GPUCMP_CACHE, $XDG_CACHE_HOME/gpucmp/cache.db)"},
	{O_COLOR, "color", 0, "WHEN", color_choices, CMD_ALL, "colour in tables: auto, always, never (NO_COLOR is honoured)"},
	{O_QUIET, "quiet", 'q', NULL, NULL, CMD_ALL, "no notes on stderr, only errors"},
	{O_GPU, "gpu", 0, "NAME[,NAME]", NULL, CMD_LIST | CMD_RECOMMEND, "GPU model or family (h100 = every H100; h100-sxm = that one)"},
	{O_GPUS, "gpus", 0, "N", NULL, CMD_LIST | CMD_RECOMMEND, "at least N GPUs in the offer"},
	{O_VRAM, "vram", 0, "GB", NULL, CMD_LIST, "at least GB of memory per GPU"},
	{O_MAX_PRICE, "max-price", 0, "USD", NULL, CMD_LIST, "at most USD per hour for the whole offer (spot price with --spot)"},
	{O_SPOT, "spot", 0, NULL, NULL, CMD_LIST, "only offers with a spot price; prices, --max-price and the default sort use it"},
	{O_REGION, "region", 0, "GLOB", NULL, CMD_LIST, "region matches GLOB, case-insensitive ('us-*', '*europe*')"},
	{O_PROVIDER, "provider", 0, "ID[,ID]", NULL, CMD_LIST | CMD_RECOMMEND, "only these providers"},
	{O_K8S, "k8s", 0, "MODE", k8s_choices, LISTLIKE, "Kubernetes: managed (or both), join (or both), any, none"},
	{O_DOCKER, "docker", 0, "LEVEL", docker_choices, LISTLIKE, "containers: custom (any image), daemon (real docker), base (vendor images or better)"},
	{O_MIG, "mig", 0, NULL, NULL, LISTLIKE, "MIG possible (provider allows it and the GPU supports it)"},
	{O_MPS, "mps", 0, NULL, NULL, LISTLIKE, "CUDA MPS possible"},
	{O_TIME_SLICING, "time-slicing", 0, NULL, NULL, LISTLIKE, "GPU time-slicing possible"},
	{O_IB, "ib", 0, NULL, NULL, LISTLIKE, "InfiniBand between nodes"},
	{O_RDMA, "rdma", 0, NULL, NULL, LISTLIKE, "RDMA between nodes (InfiniBand, RoCE or EFA)"},
	{O_NVLINK, "nvlink", 0, NULL, NULL, LISTLIKE, "NVLink between the offer's GPUs"},
	{O_WHERE, "where", 'w', "EXPR", NULL, LISTLIKE, "filter expression, e.g. 'vram>=80 and price<2.5' (gpucmp help where)"},
	{O_CUDA, "cuda", 0, "VERSION", NULL, CMD_LIST, "keep offers whose host driver runs this CUDA (12.4); unknown drivers kept, flagged"},
	{O_CUDA_STRICT, "cuda-strict", 0, NULL, NULL, CMD_LIST, "with --cuda: drop offers whose driver is unknown"},
	{O_HOURS, "hours", 0, "H", NULL, CMD_LIST | CMD_RECOMMEND, "add est_cost_usd: price x H hours x nodes (+ control plane with --k8s managed)"},
	{O_NODES, "nodes", 0, "N", NULL, CMD_LIST | CMD_RECOMMEND, "nodes for --hours (default 1)"},
	{O_AVAILABLE, "available", 0, NULL, NULL, CMD_LIST, "only offers known to be in stock"},
	{O_SORT, "sort", 0, "FIELD[,-FIELD]", NULL, CMD_LIST, "sort keys, '-' for descending (default: price)"},
	{O_LIMIT, "limit", 0, "N", NULL, CMD_LIST | CMD_RECOMMEND, "at most N offers"},
	{O_COLUMNS, "columns", 0, "FIELD[,FIELD]", NULL, CMD_LIST, "fields to print (see 'gpucmp help fields')"},
	{O_FORMAT, "format", 0, "FMT", format_choices, CMD_LIST | CMD_GPUS | CMD_PROVIDERS, "output: table, json, csv, ndjson"},
	{O_IMPORT_FORMAT, "format", 0, "FMT", import_choices, CMD_IMPORT, "catalog format: skypilot (the default and only one)"},
	{O_AS_OF, "as-of", 0, "DATE", NULL, CMD_IMPORT, "the date the catalog describes (YYYY-MM-DD or RFC 3339; default: its Last-Modified, else the file's time)"},
	{O_IMPORT_PROVIDER, "provider", 0, "ID", NULL, CMD_IMPORT, "provider id of a single vms.csv (default: its folder's name)"},
	{O_JSON, "json", 0, NULL, NULL, CMD_LIST | CMD_GPUS | CMD_PROVIDERS | CMD_SHOW | CMD_COMPARE | CMD_REFRESH | CMD_CACHE | CMD_RECOMMEND | CMD_CONFIG, "same as --format json"},
	{O_WORKLOAD, "workload", 0, "KIND", workload_choices, CMD_RECOMMEND, "inference, training, batch or notebook"},
	{O_BUDGET, "budget", 0, "USD", NULL, CMD_RECOMMEND, "leave out picks whose estimate (needs --hours) is above USD"},
	{O_DIFF, "diff", 0, NULL, NULL, CMD_COMPARE, "only the fields where the providers differ"},
	{O_JOBS, "jobs", 'j', "N", NULL, CMD_REFRESH, "fetch N providers at once (default 16)"},
	{O_LIST_MAX_AGE, "max-age", 0, "DURATION", NULL, CMD_LIST, "data older than DURATION is stale (default 24h, or the config's stale_after)"},
	{O_MAX_AGE, "max-age", 0, "DURATION", NULL, CMD_REFRESH, "skip providers refreshed less than DURATION ago (30m, 6h, 1d)"},
	{O_TIMEOUT, "timeout", 0, "SECONDS", NULL, CMD_REFRESH | CMD_IMPORT, "give up on one attempt of one request after SECONDS (default 60; --deadline bounds the whole refresh)"},
	{O_DEADLINE, "deadline", 0, "SECONDS", NULL, CMD_REFRESH, "end the whole refresh (every provider: attempts, retries, pages) by SECONDS (default 300)"},
	{O_NO_CATALOG, "no-catalog", 0, NULL, NULL, CMD_REFRESH, "take no provider from a hosted catalog (SkyPilot, gpuhunt): live APIs only"},
	{O_CATALOG_ONLY, "catalog-only", 0, NULL, NULL, CMD_REFRESH, "take every provider from its hosted catalog, even one whose live API could run (scripts/make-snapshot.sh)"},
	{O_RETRIES, "retries", 0, "N", NULL, CMD_REFRESH | CMD_IMPORT, "retry a timeout, 429 or 5xx up to N times (default 3)"},
	{O_VERBOSE, "verbose", 'v', NULL, NULL, CMD_REFRESH | CMD_IMPORT, "log each HTTP attempt (keys masked) and what each provider's offers came to, on stderr"},
	{O_FORCE, "force", 0, NULL, NULL, CMD_REFRESH | CMD_IMPORT, "store an answer even when it has no usable offer or shrinks a provider below 10% (min_keep_percent)"},
	{O_WAIT, "wait", 0, "SECONDS", NULL, CMD_REFRESH | CMD_IMPORT | CMD_CACHE, "wait up to SECONDS for another refresh or import to finish (default 5)"},
	{O_CHECK, "check", 0, NULL, NULL, CMD_PROVIDERS, "validate profiles (the built-in ones, or FILE/DIR arguments) and exit"},
	{O_EXPLAIN, "explain", 0, NULL, NULL, CMD_LIST, "print the SQL the query runs (parameters inlined) and exit"},
};
const size_t cli_option_count = sizeof cli_options / sizeof cli_options[0];

const char *cli_opt(const struct cli_args *a, enum opt_id id)
{
	return a->nvalues[id] ? a->values[id][a->nvalues[id] - 1] : NULL;
}

int cli_flag(const struct cli_args *a, enum opt_id id)
{
	return a->nvalues[id] > 0;
}

/* The entry named `name` that applies to `cmd` (two commands may give one
 * name different meanings, like --format), else any entry of that name. */
static const struct opt_def *find_long(const char *name, size_t len, unsigned cmd)
{
	const struct opt_def *any = NULL;
	for (size_t i = 0; i < cli_option_count; i++)
		if (strlen(cli_options[i].name) == len &&
		    strncmp(cli_options[i].name, name, len) == 0) {
			if (cli_options[i].cmds & cmd)
				return &cli_options[i];
			if (!any)
				any = &cli_options[i];
		}
	return any;
}

static const struct opt_def *find_short(char c)
{
	for (size_t i = 0; i < cli_option_count; i++)
		if (cli_options[i].short_name == c)
			return &cli_options[i];
	return NULL;
}

static int unknown_option(const struct cmd_def *cmd, const char *arg, size_t len)
{
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), arg);
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < cli_option_count; i++)
		if (cli_options[i].cmds & cmd->bit)
			suggest_try(&s, cli_options[i].name);
	char safe[80];
	str_sanitize(safe, sizeof safe, name);
	const char *best = suggest_best(&s);
	if (best)
		msg_error("unknown option '--%s' for '%s'; did you mean '--%s'?", safe, cmd->name, best);
	else
		msg_error("unknown option '--%s' for '%s'; see 'gpucmp %s --help'", safe, cmd->name,
			  cmd->name);
	return EXIT_USAGE;
}

static int check_choice(const struct opt_def *o, const char *v)
{
	if (!o->choices)
		return 0;
	struct suggest s;
	suggest_init(&s, v);
	for (const char *const *c = o->choices; *c; c++) {
		if (strcmp(*c, v) == 0)
			return 0;
		suggest_try(&s, *c);
	}
	char safe[64], list[128] = "";
	size_t n = 0;
	for (const char *const *c = o->choices; *c; c++)
		n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", *c);
	str_sanitize(safe, sizeof safe, v);
	const char *best = suggest_best(&s);
	if (best)
		msg_error("bad value '%s' for --%s (expected %s); did you mean '%s'?", safe, o->name,
			  list, best);
	else
		msg_error("bad value '%s' for --%s (expected %s)", safe, o->name, list);
	return EXIT_USAGE;
}

static int store(const struct cmd_def *cmd, const struct opt_def *o, const char *v,
		 struct cli_args *a)
{
	if (!(o->cmds & cmd->bit) && cmd->bit == CMD_GLOBAL) {
		msg_error("option '--%s' belongs after the command, as in 'gpucmp list --%s'",
			  o->name, o->name);
		return EXIT_USAGE;
	}
	if (!(o->cmds & cmd->bit)) {
		msg_error("option '--%s' does not apply to '%s'", o->name, cmd->name);
		return EXIT_USAGE;
	}
	if (v && check_choice(o, v))
		return EXIT_USAGE;
	if (a->nvalues[o->id] >= 16) {
		msg_error("option '--%s' given too many times", o->name);
		return EXIT_USAGE;
	}
	a->values[o->id][a->nvalues[o->id]++] = v ? v : "";
	return 0;
}

static int parse_long(const struct cmd_def *cmd, int argc, char **argv, int *i,
		      struct cli_args *a)
{
	const char *arg = argv[*i] + 2;
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt_def *o = find_long(arg, len, cmd->bit);
	if (!o)
		return unknown_option(cmd, arg, len);
	const char *v = NULL;
	if (o->arg) {
		if (eq)
			v = eq + 1;
		else if (*i + 1 < argc)
			v = argv[++*i];
		else {
			msg_error("option '--%s' needs a value (%s)", o->name, o->arg);
			return EXIT_USAGE;
		}
	} else if (eq) {
		msg_error("option '--%s' takes no value", o->name);
		return EXIT_USAGE;
	}
	return store(cmd, o, v, a);
}

static int parse_short(const struct cmd_def *cmd, int argc, char **argv, int *i,
		       struct cli_args *a)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct opt_def *o = find_short(*p);
		if (!o) {
			char safe[8];
			char c[2] = {*p, 0};
			msg_error("unknown option '-%s' for '%s'; see 'gpucmp %s --help'",
				  str_sanitize(safe, sizeof safe, c), cmd->name, cmd->name);
			return EXIT_USAGE;
		}
		const char *v = NULL;
		if (o->arg) {
			if (p[1])
				v = p + 1;
			else if (*i + 1 < argc)
				v = argv[++*i];
			else {
				msg_error("option '-%c' needs a value (%s)", *p, o->arg);
				return EXIT_USAGE;
			}
			int rc = store(cmd, o, v, a);
			return rc;
		}
		int rc = store(cmd, o, NULL, a);
		if (rc)
			return rc;
	}
	return 0;
}

int cli_parse_one(const struct cmd_def *cmd, int argc, char **argv, int *i,
		  struct cli_args *a)
{
	const char *arg = argv[*i];
	if (arg[0] == '-' && arg[1] == '-')
		return parse_long(cmd, argc, argv, i, a);
	return parse_short(cmd, argc, argv, i, a);
}

int cli_parse(const struct cmd_def *cmd, int argc, char **argv, int first,
	      struct cli_args *a)
{
	int only_pos = 0;
	a->cmd = cmd;
	for (int i = first; i < argc; i++) {
		const char *arg = argv[i];
		int rc = 0;
		if (!only_pos && strcmp(arg, "--") == 0) {
			only_pos = 1;
		} else if (!only_pos && arg[0] == '-' && arg[1]) {
			rc = cli_parse_one(cmd, argc, argv, &i, a);
		} else if (a->npos < (int)(sizeof a->pos / sizeof a->pos[0])) {
			a->pos[a->npos++] = arg;
		} else {
			msg_error("too many arguments for '%s'", cmd->name);
			rc = EXIT_USAGE;
		}
		if (rc)
			return rc;
	}
	return 0;
}

static void print_wrapped(FILE *out, const char *text, int indent)
{
	fprintf(out, "%*s%s\n", indent, "", text);
}

void cli_print_help(const struct cmd_def *cmd, FILE *out)
{
	fprintf(out, "usage: gpucmp %s\n\n%s\n", cmd->usage, cmd->summary);
	if (cmd->detail)
		fprintf(out, "\n%s\n", cmd->detail);
	fprintf(out, "\noptions:\n");
	for (size_t i = 0; i < cli_option_count; i++) {
		const struct opt_def *o = &cli_options[i];
		if (!(o->cmds & cmd->bit))
			continue;
		char left[64];
		int n = 0;
		if (o->short_name)
			n = snprintf(left, sizeof left, "-%c, ", o->short_name);
		snprintf(left + n, sizeof left - (size_t)n, "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		if (strlen(left) > 24) {
			fprintf(out, "  %s\n", left);
			print_wrapped(out, o->help, 28);
		} else {
			fprintf(out, "  %-24s  %s\n", left, o->help);
		}
	}
}
