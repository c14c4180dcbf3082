/* opts.c - the options several commands share, defined once, and the
 * parser and --help, which read each command's entry (struct cmd_entry). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"

static const char *const k8s_choices[] = {"managed", "join", "any", "none", NULL};
static const char *const docker_choices[] = {"custom", "daemon", "base", NULL};
/* the --format choices: render.h's list of formats */
static const char *const format_choices[] = {RENDER_FORMATS(RENDER_FORMAT_CHOICE) NULL};
static const char *const color_choices[] = {"auto", "always", "never", NULL};

/* The options of every command (and before the command name). */
static const struct opt_def opt_help = {
	O_HELP, "help", 'h', OPT_BOOL, NULL, NULL, HINT_NONE, "show help for the command and exit"};
static const struct opt_def opt_version = {O_VERSION, "version", 'V', OPT_BOOL, NULL, NULL,
	HINT_NONE, "print the version and the snapshot date"};
static const struct opt_def opt_cache = {O_CACHE, "cache", 0, OPT_STRING, "PATH", NULL, HINT_FILE,
	"cache database (default $GPUCMP_CACHE, $XDG_CACHE_HOME/gpucmp/cache.db)"};
static const struct opt_def opt_color = {O_COLOR, "color", 0, OPT_ENUM, "WHEN", color_choices,
	HINT_NONE, "colour in tables: auto, always, never (NO_COLOR is honoured)"};
static const struct opt_def opt_quiet = {
	O_QUIET, "quiet", 'q', OPT_BOOL, NULL, NULL, HINT_NONE, "no notes on stderr, only errors"};
const struct opt_def *const opts_common[] = {
	&opt_help, &opt_version, &opt_cache, &opt_color, &opt_quiet, NULL};

/* The capability filters of list and providers. */
static const struct opt_def opt_k8s = {O_K8S, "k8s", 0, OPT_ENUM, "MODE", k8s_choices, HINT_NONE,
	"Kubernetes: managed (or both), join (or both), any, none"};
static const struct opt_def opt_docker = {O_DOCKER, "docker", 0, OPT_ENUM, "LEVEL",
	docker_choices, HINT_NONE,
	"containers: custom (any image), daemon (real docker), base (vendor images or better)"};
static const struct opt_def opt_mig = {O_MIG, "mig", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"MIG possible (provider allows it and the GPU supports it)"};
static const struct opt_def opt_mps = {
	O_MPS, "mps", 0, OPT_BOOL, NULL, NULL, HINT_NONE, "CUDA MPS possible"};
static const struct opt_def opt_time_slicing = {O_TIME_SLICING, "time-slicing", 0, OPT_BOOL,
	NULL, NULL, HINT_NONE, "GPU time-slicing possible"};
static const struct opt_def opt_ib = {
	O_IB, "ib", 0, OPT_BOOL, NULL, NULL, HINT_NONE, "InfiniBand between nodes"};
static const struct opt_def opt_rdma = {O_RDMA, "rdma", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"RDMA between nodes (InfiniBand, RoCE or EFA)"};
static const struct opt_def opt_nvlink = {O_NVLINK, "nvlink", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"NVLink between the offer's GPUs"};
static const struct opt_def opt_where = {O_WHERE, "where", 'w', OPT_STRING, "EXPR", NULL,
	HINT_NONE, "filter expression, e.g. 'vram>=80 and price<2.5' (gpucmp help where)"};
const struct opt_def *const opts_filters[] = {&opt_k8s, &opt_docker, &opt_mig, &opt_mps,
	&opt_time_slicing, &opt_ib, &opt_rdma, &opt_nvlink, &opt_where, NULL};

/* Output formats. */
static const struct opt_def opt_format = {O_FORMAT, "format", 0, OPT_ENUM, "FMT", format_choices,
	HINT_NONE, "output: table, json, csv, ndjson, markdown"};
const struct opt_def opt_json = {
	O_JSON, "json", 0, OPT_BOOL, NULL, NULL, HINT_NONE, "same as --format json"};
const struct opt_def *const opts_output[] = {&opt_format, &opt_json, NULL};

/* Offer selection: list and recommend. */
const struct opt_def opt_gpu = {O_GPU, "gpu", 0, OPT_STRING, "SPEC", NULL, HINT_GPUS,
	"GPUs: h100, a100-80gb, 4090, H100:8 (exactly 8), 24GB..80GB (gpucmp help gpu)"};
const struct opt_def opt_gpus = {
	O_GPUS, "gpus", 0, OPT_NUMBER, "N", NULL, HINT_NONE, "at least N GPUs in the offer"};
const struct opt_def opt_provider = {O_PROVIDER, "provider", 0, OPT_STRING, "ID[,ID]", NULL,
	HINT_PROVIDERS, "only these providers"};
const struct opt_def opt_hours = {O_HOURS, "hours", 0, OPT_NUMBER, "H", NULL, HINT_NONE,
	"add est_cost_usd: price x H hours x nodes (+ control plane with --k8s managed)"};
const struct opt_def opt_nodes = {
	O_NODES, "nodes", 0, OPT_NUMBER, "N", NULL, HINT_NONE, "nodes for --hours (default 1)"};
const struct opt_def opt_disk = {O_DISK, "disk", 0, OPT_NUMBER, "GB", NULL, HINT_NONE,
	"with --hours: add GB of block storage (the whole job's) at the provider's rate"};
const struct opt_def opt_egress = {O_EGRESS, "egress", 0, OPT_NUMBER, "GB", NULL, HINT_NONE,
	"with --hours: add GB of egress, less the provider's free monthly allowance"};
const struct opt_def opt_no_legend = {O_NO_LEGEND, "no-legend", 0, OPT_BOOL, NULL, NULL,
	HINT_NONE, "no line of what the table's words mean under it (a terminal shows one)"};
const struct opt_def opt_explain = {O_EXPLAIN, "explain", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"print the SQL the query runs (parameters inlined) and exit"};
const struct opt_def opt_limit = {
	O_LIMIT, "limit", 0, OPT_NUMBER, "N", NULL, HINT_NONE, "at most N rows (offers or groups)"};

/* Writing the cache: refresh and import (--wait: cache too). */
const struct opt_def opt_timeout = {O_TIMEOUT, "timeout", 0, OPT_NUMBER, "SECONDS", NULL,
	HINT_NONE, "give up on one attempt of one request after SECONDS (default 60; "
	"--deadline bounds the whole refresh)"};
const struct opt_def opt_retries = {O_RETRIES, "retries", 0, OPT_NUMBER, "N", NULL, HINT_NONE,
	"retry a timeout, 429 or 5xx up to N times (default 3)"};
const struct opt_def opt_verbose = {O_VERBOSE, "verbose", 'v', OPT_BOOL, NULL, NULL, HINT_NONE,
	"log each HTTP attempt (keys masked) and what each provider's offers came to, on stderr"};
const struct opt_def opt_force = {O_FORCE, "force", 0, OPT_BOOL, NULL, NULL, HINT_NONE,
	"store an answer even when it has no usable offer or shrinks a provider below 10% "
	"(min_keep_percent)"};
const struct opt_def opt_new_provider = {O_NEW_PROVIDER, "new-provider", 0, OPT_BOOL, NULL,
	NULL, HINT_NONE, "store a provider id that has no profile (providers/ID.yaml; an "
	"import, a pull), else refused"};
const struct opt_def opt_wait = {O_WAIT, "wait", 0, OPT_NUMBER, "SECONDS", NULL, HINT_NONE,
	"wait up to SECONDS for another refresh or import to finish (default 5)"};

/* Before the command name: `gpucmp --cache x.db list`. */
static const struct opt_use global_opts[] = {OPT_GROUP(opts_common), OPT_END};
const struct cmd_entry cli_global = {
	.name = "gpucmp", .usage = "", .summary = "", .opts = global_opts};

size_t cli_options_of(const struct cmd_entry *cmd, const struct opt_def **out, size_t max)
{
	size_t n = 0;
	for (const struct opt_use *u = cmd->opts; u && (u->opt || u->group); u++) {
		if (u->opt && n < max)
			out[n++] = u->opt;
		for (const struct opt_def *const *g = u->group; g && *g && n < max; g++)
			out[n++] = *g;
	}
	return n;
}

/* The option `cmd` takes named `name` (or `short_name`, when not 0), else NULL. */
static const struct opt_def *opt_of(const struct cmd_entry *cmd, const char *name, size_t len,
				    char short_name)
{
	const struct opt_def *o[CLI_MAX_OPTS];
	size_t n = cli_options_of(cmd, o, CLI_MAX_OPTS);
	for (size_t i = 0; i < n; i++)
		if (short_name ? o[i]->short_name == short_name
			       : strlen(o[i]->name) == len && strncmp(o[i]->name, name, len) == 0)
			return o[i];
	return NULL;
}

/* The option `cmd` takes, else the first of that name anywhere (two commands may
 * give one name different meanings, like --format), else NULL. */
static const struct opt_def *find_opt(const struct cmd_entry *cmd, const char *name, size_t len,
				      char short_name)
{
	const struct opt_def *o = opt_of(cmd, name, len, short_name);
	if (o)
		return o;
	o = opt_of(&cli_global, name, len, short_name);
	const struct cmd_entry *c;
	for (size_t i = 0; !o && (c = cli_command_at(i)) != NULL; i++)
		o = opt_of(c, name, len, short_name);
	return o;
}

const struct opt_def *cli_option(enum opt_id id)
{
	const struct opt_def *o[CLI_MAX_OPTS];
	const struct cmd_entry *c = &cli_global;
	for (size_t i = 0; c; c = cli_command_at(i++)) {
		size_t n = cli_options_of(c, o, CLI_MAX_OPTS);
		for (size_t k = 0; k < n; k++)
			if (o[k]->id == id)
				return o[k];
	}
	return NULL;
}

const char *cli_opt(const struct cli_args *a, enum opt_id id)
{
	return a->nvalues[id] ? a->values[id][a->nvalues[id] - 1] : NULL;
}

int cli_flag(const struct cli_args *a, enum opt_id id)
{
	return a->nvalues[id] > 0;
}

static int unknown_option(const struct cmd_entry *cmd, const char *arg, size_t len)
{
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), arg);
	struct suggest s;
	suggest_init(&s, name);
	const struct opt_def *o[CLI_MAX_OPTS];
	size_t n = cli_options_of(cmd, o, CLI_MAX_OPTS);
	for (size_t i = 0; i < n; i++)
		suggest_try(&s, o[i]->name);
	char safe[80];
	str_sanitize(safe, sizeof safe, name);
	const char *best = suggest_best(&s);
	if (best)
		msg_error("unknown option '--%s' for '%s'; did you mean '--%s'?", safe, cmd->name,
			  best);
	else
		msg_error("unknown option '--%s' for '%s'; see 'gpucmp %s --help'", safe, cmd->name,
			  cmd->name);
	return EXIT_USAGE;
}

static int check_one(const struct opt_def *o, const char *v)
{
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
		msg_error("bad value '%s' for --%s (expected %s); did you mean '%s'?", safe,
			  o->name, list, best);
	else
		msg_error("bad value '%s' for --%s (expected %s)", safe, o->name, list);
	return EXIT_USAGE;
}

/* An enum's value is one of its choices; a string option with choices
 * takes a comma list of them (list --price-kind fixed,marketplace). */
static int check_choice(const struct opt_def *o, const char *v)
{
	if (!o->choices)
		return 0;
	if (o->type != OPT_STRING)
		return check_one(o, v);
	char item[64];
	for (const char *p = v;; p++) {
		size_t n = strcspn(p, ","), k = n < sizeof item ? n : sizeof item - 1;
		snprintf(item, sizeof item, "%.*s", (int)k, p);
		if (check_one(o, item))
			return EXIT_USAGE;
		p += n;
		if (!*p)
			return 0;
	}
}

static int store(const struct cmd_entry *cmd, const struct opt_def *o, const char *v,
		 struct cli_args *a)
{
	int takes = opt_of(cmd, o->name, strlen(o->name), 0) == o;
	if (!takes && cmd == &cli_global) {
		msg_error("option '--%s' belongs after the command, as in 'gpucmp list --%s'",
			  o->name, o->name);
		return EXIT_USAGE;
	}
	if (!takes) {
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

static int parse_long(const struct cmd_entry *cmd, int argc, char **argv, int *i,
		      struct cli_args *a)
{
	const char *arg = argv[*i] + 2;
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct opt_def *o = find_opt(cmd, arg, len, 0);
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

static int parse_short(const struct cmd_entry *cmd, int argc, char **argv, int *i,
		       struct cli_args *a)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct opt_def *o = find_opt(cmd, NULL, 0, *p);
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

int cli_parse_one(const struct cmd_entry *cmd, int argc, char **argv, int *i,
		  struct cli_args *a)
{
	const char *arg = argv[*i];
	if (arg[0] == '-' && arg[1] == '-')
		return parse_long(cmd, argc, argv, i, a);
	return parse_short(cmd, argc, argv, i, a);
}

int cli_parse(const struct cmd_entry *cmd, int argc, char **argv, int first,
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

void cli_print_help(const struct cmd_entry *cmd, FILE *out)
{
	fprintf(out, "usage: gpucmp %s\n\n%s\n", cmd->usage, cmd->summary);
	if (cmd->detail)
		fprintf(out, "\n%s\n", cmd->detail);
	fprintf(out, "\noptions:\n");
	const struct opt_def *opts[CLI_MAX_OPTS];
	size_t nopts = cli_options_of(cmd, opts, CLI_MAX_OPTS);
	for (size_t i = 0; i < nopts; i++) {
		const struct opt_def *o = opts[i];
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
