/* cli_opts.h - the options and the commands: option ids and
 * definitions (opts.c: the shared ones, the parser and --help), the entry of
 * a command (cmd_<name>.c) and the table of them (commands.c), and what a
 * parsed command line holds.  Included by cli.h. */
#ifndef GPUCMP_CLI_OPTS_H
#define GPUCMP_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

/* Option ids: what the command bodies ask cli_opt()/cli_flag() for. */
enum opt_id {
	O_HELP, O_VERSION, O_CACHE, O_QUIET, O_COLOR,
	O_GPU, O_GPUS, O_VRAM, O_MAX_PRICE, O_SPOT, O_REGION, O_PROVIDER,
	O_K8S, O_DOCKER, O_MIG, O_MPS, O_TIME_SLICING, O_IB, O_RDMA, O_NVLINK,
	O_AVAILABLE, O_SORT, O_LIMIT, O_COLUMNS, O_FORMAT, O_JSON, O_EXPLAIN, O_CHECK, O_FORCE,
	O_JOBS, O_MAX_AGE, O_TIMEOUT, O_DEADLINE, O_RETRIES, O_WAIT, O_DIFF, O_WHERE, O_CUDA,
	O_CUDA_STRICT, O_HOURS, O_NODES, O_WORKLOAD, O_BUDGET, O_IMPORT_FORMAT, O_IMPORT_PROVIDER,
	O_LIST_MAX_AGE, O_AS_OF, O_VERBOSE, O_NO_CATALOG, O_CATALOG_ONLY, O_NEW_PROVIDER,
	O_GROUP_BY, O_ALL_REGIONS, O_NO_LEGEND, O_SIGN, O_GEN_KEY, O_HTML, O_FROM, O_SINCE, O_DAYS,
	O_CHANGES, O_EXIT_ON_CHANGE, O_EVERY, O_LOG, O_ALERT, O_MAIL,
	O_INCLUDE_UNKNOWN, O_MODEL, O_PRECISION, O_NEED_VRAM, O_PRICE_KIND, O_PRICE_TYPE,
	O_DISK, O_EGRESS,
	O_NEED_GPUS, O_PICKS, /* recommend's --gpus and --limit */
	O_COUNT
};

/* What an option takes. */
enum opt_type {
	OPT_BOOL,   /* a flag, no value */
	OPT_STRING, /* text: a glob, a list, a date, a duration */
	OPT_NUMBER, /* a number within its range, in its unit: read by cli_num */
	OPT_ENUM    /* one of its choices */
};

/* What a number option counts: GB takes 80GB or 1.5TB, USD takes $2.5 (as
 * --where reads them); the others take a plain number, and name it in the
 * error ("a number of seconds"). */
enum opt_unit { UNIT_NONE, UNIT_GB, UNIT_USD, UNIT_SECONDS, UNIT_HOURS };

/* The values a number option takes: from min to max (more than min with
 * `above`), whole numbers only with `whole`, in its unit.  A max of
 * OPT_NO_MAX is a sanity cap the error does not name ("a number >= 0").
 * The parser reads and checks the value once (cli_num gives it). */
#define OPT_NO_MAX 1e12
struct opt_number {
	double min, max;
	unsigned char whole, above;
	enum opt_unit unit;
};
/* An OPT_NUMBER's .num: a count (a whole number) from min to max, a
 * number from min to max, or one more than min and at most max. */
#define OPT_WHOLE(min, max) (&(const struct opt_number){(min), (max), 1, 0, UNIT_NONE})
#define OPT_REAL(min, max, unit) (&(const struct opt_number){(min), (max), 0, 0, (unit)})
#define OPT_ABOVE(min, max, unit) (&(const struct opt_number){(min), (max), 0, 1, (unit)})

/* What a string option's value completes to in the shell scripts. */
enum opt_hint {
	HINT_NONE,      /* nothing to offer */
	HINT_FILE,      /* a path */
	HINT_GPUS,      /* comma list of GPU ids and families */
	HINT_PROVIDERS, /* comma list of provider ids */
	HINT_PROVIDER,  /* one provider id */
	HINT_FIELDS,    /* comma list of offer fields */
	HINT_SORT       /* comma list of offer fields, each maybe '-' */
};

/* One option.  An option several commands take is defined once, in opts.c;
 * one command's own options live in its cmd_<name>.c.  Two definitions may
 * share a name with different meanings (--format of list and of import). */
struct opt_def {
	enum opt_id id;
	const char *name;            /* long name without "--" */
	char short_name;             /* 0 = none */
	enum opt_type type;
	const char *arg;             /* metavar, NULL for a flag */
	const char *const *choices;  /* OPT_ENUM: the allowed values, NULL-terminated;
				      * OPT_STRING: the words of its comma list */
	enum opt_hint hint;          /* OPT_STRING: what the value completes to */
	const char *help;            /* lowercase, no full stop */
	const struct opt_number *num; /* OPT_NUMBER: its range and unit (OPT_WHOLE,
				       * OPT_REAL, OPT_ABOVE); the parser checks it */
};
/* Definitions name their fields (.id = O_GPUS, .name = "gpus", ...): a
 * field added later leaves every one of them as it was. */

/* One item of a command's option list: an option, or a group of them. */
struct opt_use {
	const struct opt_def *opt;
	const struct opt_def *const *group; /* NULL-terminated */
};
#define OPT_USE(o) {&(o), NULL}
#define OPT_GROUP(g) {NULL, (g)}
#define OPT_END {NULL, NULL} /* the end of a list of opt_use */

/* The options several commands share (opts.c). */
extern const struct opt_def *const opts_common[];  /* --help --version --cache --color --quiet */
extern const struct opt_def *const opts_filters[]; /* the capability filters and --where */
extern const struct opt_def *const opts_output[];  /* --format --json */
extern const struct opt_def opt_json, opt_gpu, opt_gpus, opt_provider, opt_hours, opt_nodes,
	opt_disk, opt_egress, opt_limit, opt_explain, opt_timeout, opt_retries, opt_verbose,
	opt_force, opt_wait, opt_no_legend, opt_new_provider;

/* What a command's positional argument completes to. */
enum arg_source {
	ARG_NONE,      /* ends the list */
	ARG_PROVIDERS, /* provider ids */
	ARG_ADAPTERS,  /* ids of providers with a live adapter */
	ARG_FILES,     /* files and directories */
	ARG_WORDS,     /* the fixed words of `words` */
	ARG_COMMANDS   /* the command names, then `words` */
};

/* A completion hint for positional arguments. */
struct arg_hint {
	enum arg_source source;
	int pos;                 /* the argument it completes (1, 2, ...); 0: any */
	const char *label;       /* what it is, for zsh ("provider id") */
	const char *words;       /* space-separated, for ARG_WORDS and ARG_COMMANDS */
	const char *after_word;  /* only when the first argument is this word */
	const char *after_opt;   /* only once this flag (a long name) was given */
};

/* A hint with no words or condition, and the end of a list of hints. */
#define ARG_HINT(source, pos, label) {(source), (pos), (label), NULL, NULL, NULL}
#define ARG_END {ARG_NONE, 0, NULL, NULL, NULL, NULL}

struct cli_args;

/* A subcommand, all of it: each cmd_<name>.c ends with its entry, and
 * commands.c lists the entries in --help order. */
struct cmd_entry {
	const char *name;
	const char *const *aliases;  /* other exact names, NULL-terminated; NULL = none
				      * (the completion scripts offer the name) */
	int (*run)(struct cli_args *a);
	const char *usage;           /* "list [options]" */
	const char *summary;         /* one line */
	const char *detail;          /* paragraphs for --help, may be NULL */
	const struct opt_use *opts;  /* in --help order, ending with {NULL, NULL} */
	const struct arg_hint *args; /* ending with ARG_NONE; NULL = none */
};

/* The command table (commands.c): entry i in --help order, or NULL past the
 * end (borrowed, static).  `help` is not in it.  The completion scripts
 * are made with room for CLI_MAX_COMMANDS of them (and the options before
 * the command); unit_cli_entries fails when the table outgrows it. */
const struct cmd_entry *cli_command_at(size_t i);
enum { CLI_MAX_COMMANDS = 31 };
/* The options accepted before the command name (opts.c), and `help`, which
 * main.c answers, for its summary and completion hints (commands.c). */
extern const struct cmd_entry cli_global, cli_help;

/* The options of `cmd` (groups expanded) in --help order into out[0..max);
 * returns their count.  The tables are fixed at build time: a command has
 * fewer than CLI_MAX_OPTS (unit_cli_entries checks each), so the callers'
 * arrays of that size hold them all. */
enum { CLI_MAX_OPTS = 64 };
size_t cli_options_of(const struct cmd_entry *cmd, const struct opt_def **out, size_t max);
/* The definition of option `id` (the first one, global options first, then
 * the commands in table order), or NULL. */
const struct opt_def *cli_option(enum opt_id id);

/* One option given: its text (borrowed from argv, "" for a flag) and, for
 * an OPT_NUMBER, the number the parser read from it. */
struct cli_value {
	enum opt_id id;
	const char *text;
	double num;
};

/* Parsed command line of one subcommand: both lists grow as argv needs
 * (cli_args_release frees them; a struct copy shares them). */
struct cli_args {
	const struct cmd_entry *cmd;
	struct cli_value *vals; /* every option given, in order */
	size_t nvals, capvals;
	int nvalues[O_COUNT];   /* how many times each option was given */
	const char **pos;       /* positional arguments (borrowed argv) */
	int npos;
	size_t cappos;
};
void cli_args_release(struct cli_args *a);

/* Last value of an option, or NULL; its i-th value (0 <= i < nvalues[id]). */
const char *cli_opt(const struct cli_args *a, enum opt_id id);
const char *cli_opt_at(const struct cli_args *a, enum opt_id id, int i);
int cli_flag(const struct cli_args *a, enum opt_id id);
/* The number a number option was given (its last value, read and checked
 * against its range by the parser), or `absent` when it was not given. */
double cli_num(const struct cli_args *a, enum opt_id id, double absent);

/* A config default for a string option the command line left out: `value`
 * (borrowed; NULL: none) then reads as if given.  Returns an exit code
 * (71 out of memory, printed). */
int cli_default(struct cli_args *a, enum opt_id id, const char *value);

/* Parse argv[first..argc) for `cmd` into *a; on a usage error prints the
 * message and returns 64. */
int cli_parse(const struct cmd_entry *cmd, int argc, char **argv, int first,
	      struct cli_args *a);
/* Parse the one option at argv[*i] (advancing *i past its value). */
int cli_parse_one(const struct cmd_entry *cmd, int argc, char **argv, int *i,
		  struct cli_args *a);
void cli_print_help(const struct cmd_entry *cmd, FILE *out);

#endif
