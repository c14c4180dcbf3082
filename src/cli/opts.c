/* opts.c - the options several commands share, defined once, and the
 * parser and --help, which read each command's entry (struct cmd_entry). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/buf.h"
#include "gpucmp/strutil.h"

static const char *const k8s_choices[] = {"managed", "join", "any", "none", NULL};
static const char *const docker_choices[] = {"custom", "daemon", "base", NULL};
/* the --format choices: render.h's list of formats */
static const char *const format_choices[] = {RENDER_FORMATS(RENDER_FORMAT_CHOICE) NULL};
static const char *const color_choices[] = {"auto", "always", "never", NULL};

/* The options of every command (and before the command name). */
static const struct opt_def opt_help = {.id = O_HELP, .name = "help", .short_name = 'h',
	.type = OPT_BOOL, .help = "show help for the command and exit"};
static const struct opt_def opt_version = {.id = O_VERSION, .name = "version", .short_name = 'V',
	.type = OPT_BOOL, .help = "print the version and the snapshot date"};
static const struct opt_def opt_cache = {.id = O_CACHE, .name = "cache", .type = OPT_STRING,
	.arg = "PATH", .hint = HINT_FILE,
	.help = "cache database (default $GPUCMP_CACHE, $XDG_CACHE_HOME/gpucmp/cache.db)"};
static const struct opt_def opt_color = {.id = O_COLOR, .name = "color", .type = OPT_ENUM,
	.arg = "WHEN", .choices = color_choices,
	.help = "colour in tables: auto, always, never (NO_COLOR is honoured)"};
static const struct opt_def opt_quiet = {.id = O_QUIET, .name = "quiet", .short_name = 'q',
	.type = OPT_BOOL, .help = "no notes on stderr, only errors"};
const struct opt_def *const opts_common[] = {
	&opt_help, &opt_version, &opt_cache, &opt_color, &opt_quiet, NULL};

/* The capability filters of list and providers. */
static const struct opt_def opt_k8s = {.id = O_K8S, .name = "k8s", .type = OPT_ENUM, .arg = "MODE",
	.choices = k8s_choices, .help = "Kubernetes: managed (or both), join (or both), any, none"};
static const struct opt_def opt_docker = {.id = O_DOCKER, .name = "docker", .type = OPT_ENUM,
	.arg = "LEVEL", .choices = docker_choices,
	.help = "containers: custom (any image), daemon (real docker), base (vendor images or "
	"better)"};
static const struct opt_def opt_mig = {.id = O_MIG, .name = "mig", .type = OPT_BOOL,
	.help = "MIG possible (provider allows it and the GPU supports it)"};
static const struct opt_def opt_mps = {.id = O_MPS, .name = "mps", .type = OPT_BOOL,
	.help = "CUDA MPS possible"};
static const struct opt_def opt_time_slicing = {.id = O_TIME_SLICING, .name = "time-slicing",
	.type = OPT_BOOL, .help = "GPU time-slicing possible"};
static const struct opt_def opt_ib = {.id = O_IB, .name = "ib", .type = OPT_BOOL,
	.help = "InfiniBand between nodes"};
static const struct opt_def opt_rdma = {.id = O_RDMA, .name = "rdma", .type = OPT_BOOL,
	.help = "RDMA between nodes (InfiniBand, RoCE or EFA)"};
static const struct opt_def opt_nvlink = {.id = O_NVLINK, .name = "nvlink", .type = OPT_BOOL,
	.help = "NVLink between the offer's GPUs"};
static const struct opt_def opt_where = {.id = O_WHERE, .name = "where", .short_name = 'w',
	.type = OPT_STRING, .arg = "EXPR",
	.help = "filter expression, e.g. 'vram>=80 and price<2.5' (gpucmp help where)"};
const struct opt_def *const opts_filters[] = {&opt_k8s, &opt_docker, &opt_mig, &opt_mps,
	&opt_time_slicing, &opt_ib, &opt_rdma, &opt_nvlink, &opt_where, NULL};

/* Output formats. */
static const struct opt_def opt_format = {.id = O_FORMAT, .name = "format", .type = OPT_ENUM,
	.arg = "FMT", .choices = format_choices,
	.help = "output: table, json, csv, ndjson, markdown"};
const struct opt_def opt_json = {.id = O_JSON, .name = "json", .type = OPT_BOOL,
	.help = "same as --format json"};
const struct opt_def *const opts_output[] = {&opt_format, &opt_json, NULL};

/* Offer selection: list and recommend. */
const struct opt_def opt_gpu = {.id = O_GPU, .name = "gpu", .type = OPT_STRING, .arg = "SPEC",
	.hint = HINT_GPUS,
	.help = "GPUs: h100, a100-80gb, 4090, H100:8 (exactly 8), 24GB..80GB (gpucmp help gpu)"};
const struct opt_def opt_gpus = {.id = O_GPUS, .name = "gpus", .type = OPT_NUMBER, .arg = "N",
	.num = OPT_WHOLE(0, OPT_NO_MAX), .help = "at least N GPUs in the offer"};
const struct opt_def opt_provider = {.id = O_PROVIDER, .name = "provider", .type = OPT_STRING,
	.arg = "ID[,ID]", .hint = HINT_PROVIDERS, .help = "only these providers"};
const struct opt_def opt_hours = {.id = O_HOURS, .name = "hours", .type = OPT_NUMBER, .arg = "H",
	.num = OPT_ABOVE(0, OPT_NO_MAX, UNIT_HOURS),
	.help = "add est_cost_usd: price x H hours x nodes (+ control plane with --k8s managed)"};
/* at most 1e9: recommend counts nodes in an int */
const struct opt_def opt_nodes = {.id = O_NODES, .name = "nodes", .type = OPT_NUMBER, .arg = "N",
	.num = OPT_WHOLE(1, 1e9), .help = "nodes for --hours (default 1)"};
const struct opt_def opt_disk = {.id = O_DISK, .name = "disk", .type = OPT_NUMBER, .arg = "GB",
	.num = OPT_REAL(0, 1e12, UNIT_GB),
	.help = "with --hours: add GB of block storage (the whole job's) at the provider's rate"};
const struct opt_def opt_egress = {.id = O_EGRESS, .name = "egress", .type = OPT_NUMBER,
	.arg = "GB", .num = OPT_REAL(0, 1e12, UNIT_GB),
	.help = "with --hours: add GB of egress, less the provider's free monthly allowance"};
const struct opt_def opt_no_legend = {.id = O_NO_LEGEND, .name = "no-legend", .type = OPT_BOOL,
	.help = "no line of what the table's words mean under it (a terminal shows one)"};
const struct opt_def opt_explain = {.id = O_EXPLAIN, .name = "explain", .type = OPT_BOOL,
	.help = "print the SQL the query runs (parameters inlined) and exit"};
const struct opt_def opt_limit = {.id = O_LIMIT, .name = "limit", .type = OPT_NUMBER, .arg = "N",
	.num = OPT_WHOLE(0, OPT_NO_MAX), .help = "at most N rows (offers or groups)"};

/* Writing the cache: refresh and import (--wait: cache too). */
const struct opt_def opt_timeout = {.id = O_TIMEOUT, .name = "timeout", .type = OPT_NUMBER,
	.arg = "SECONDS", .num = OPT_ABOVE(0, 3600, UNIT_SECONDS),
	.help = "give up on one attempt of one request after SECONDS (default 60; "
	"--deadline bounds the whole refresh)"};
const struct opt_def opt_retries = {.id = O_RETRIES, .name = "retries", .type = OPT_NUMBER,
	.arg = "N", .num = OPT_WHOLE(0, 10),
	.help = "retry a timeout, 429 or 5xx up to N times (default 3)"};
const struct opt_def opt_verbose = {.id = O_VERBOSE, .name = "verbose", .short_name = 'v',
	.type = OPT_BOOL,
	.help = "log each HTTP attempt (keys masked) and what each provider's offers came to, on "
	"stderr"};
const struct opt_def opt_force = {.id = O_FORCE, .name = "force", .type = OPT_BOOL,
	.help = "store an answer even when it has no usable offer or shrinks a provider below 10% "
	"(min_keep_percent)"};
const struct opt_def opt_new_provider = {.id = O_NEW_PROVIDER, .name = "new-provider",
	.type = OPT_BOOL, .help = "store a provider id that has no profile (providers/ID.yaml; an "
	"import, a pull), else refused"};
const struct opt_def opt_wait = {.id = O_WAIT, .name = "wait", .type = OPT_NUMBER, .arg = "SECONDS",
	.num = OPT_REAL(0, 86400, UNIT_SECONDS),
	.help = "wait up to SECONDS for another refresh or import to finish (default 5)"};

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

/* The i-th value given of option id, or NULL. */
static const struct cli_value *value_at(const struct cli_args *a, enum opt_id id, int i)
{
	if (i < 0 || i >= a->nvalues[id])
		return NULL;
	for (size_t k = 0; k < a->nvals; k++)
		if (a->vals[k].id == id && i-- == 0)
			return &a->vals[k];
	return NULL;
}

const char *cli_opt_at(const struct cli_args *a, enum opt_id id, int i)
{
	const struct cli_value *v = value_at(a, id, i);
	return v ? v->text : NULL;
}

const char *cli_opt(const struct cli_args *a, enum opt_id id)
{
	return cli_opt_at(a, id, a->nvalues[id] - 1);
}

double cli_num(const struct cli_args *a, enum opt_id id, double absent)
{
	const struct cli_value *v = value_at(a, id, a->nvalues[id] - 1);
	return v ? v->num : absent;
}

int cli_flag(const struct cli_args *a, enum opt_id id)
{
	return a->nvalues[id] > 0;
}

void cli_args_release(struct cli_args *a)
{
	free(a->vals);
	free(a->pos);
	a->vals = NULL;
	a->pos = NULL;
	a->nvals = a->capvals = a->cappos = 0;
	a->npos = 0;
}

/* Room for one more element in the array at p (n used of *cap, each
 * `size` bytes); prints "out of memory" and returns 71 when there is none. */
static int grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (buf_grow_array(p, cap, n, size, 8) == GC_OK)
		return 0;
	msg_error("out of memory");
	return EXIT_OSERR;
}

/* Option id given with `text` (and its number). */
static int add_value(struct cli_args *a, enum opt_id id, const char *text, double num)
{
	int rc = grow(&a->vals, a->nvals, &a->capvals, sizeof *a->vals);
	if (rc)
		return rc;
	a->vals[a->nvals++] = (struct cli_value){id, text, num};
	a->nvalues[id]++;
	return 0;
}

int cli_default(struct cli_args *a, enum opt_id id, const char *value)
{
	return value && a->nvalues[id] == 0 ? add_value(a, id, value, 0) : EXIT_OK;
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

/* What a number option's error calls its value, and an example of its unit. */
static const struct {
	const char *noun, *example;
} units[] = {
	[UNIT_NONE] = {"a number", ""},
	[UNIT_GB] = {"a number", ", such as 80 or 80GB"},
	[UNIT_USD] = {"a number", ", such as 2.5 or $2.5"},
	[UNIT_SECONDS] = {"a number of seconds", ""},
	[UNIT_HOURS] = {"a number of hours", ""},
};

/* "bad value 'V' for --NAME (expected a whole number from 1 to 64)"; 64. */
static int bad_number(const struct opt_def *o, const char *v)
{
	const struct opt_number *r = o->num;
	char safe[64], range[96];
	if (r->max >= OPT_NO_MAX)
		snprintf(range, sizeof range, "%s %.15g", r->above ? "more than" : ">=", r->min);
	else
		snprintf(range, sizeof range, r->above ? "more than %.15g and at most %.15g"
						       : "from %.15g to %.15g", r->min, r->max);
	msg_error("bad value '%s' for --%s (expected %s %s%s)", str_sanitize(safe, sizeof safe, v),
		  o->name, r->whole ? "a whole number" : units[r->unit].noun, range,
		  units[r->unit].example);
	return EXIT_USAGE;
}

/* A number option's value, in its unit and range, into *out; else the
 * error and 64.  One without a range (num NULL) takes any number. */
static int read_number(const struct opt_def *o, const char *v, double *out)
{
	const struct opt_number *r = o->num;
	enum opt_unit unit = r ? r->unit : UNIT_NONE;
	enum str_unit want = unit == UNIT_GB ? SU_MEMORY : unit == UNIT_USD ? SU_MONEY : SU_NONE;
	enum str_unit got = SU_NONE;
	int ok = want == SU_NONE ? str_to_double(v, out) == 0 : str_to_quantity(v, out, &got) == 0;
	ok = ok && (got == SU_NONE || got == want);
	if (ok && r)
		ok = (r->above ? *out > r->min : *out >= r->min) && *out <= r->max &&
		     (!r->whole || *out == floor(*out));
	if (!ok && !r) {
		char safe[64];
		msg_error("bad value '%s' for --%s (expected a number)",
			  str_sanitize(safe, sizeof safe, v), o->name);
		return EXIT_USAGE;
	}
	return ok ? 0 : bad_number(o, v);
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
	double num = 0;
	if (v && o->type == OPT_NUMBER && read_number(o, v, &num))
		return EXIT_USAGE;
	return add_value(a, o->id, v ? v : "", num);
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
		} else if ((rc = grow(&a->pos, (size_t)a->npos, &a->cappos, sizeof *a->pos)) == 0) {
			a->pos[a->npos++] = arg;
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
