/* cmd_changes.c - gpucmp changes: what got cheaper or dearer, appeared or
 * disappeared since a time, from the price history (docs/HISTORY.md). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "gpucmp/query.h"
#include "gpucmp/strutil.h"

/* --since DURATION (default 1d) as the time that long before now. */
static int since_time(const struct cli_args *a, char *out, size_t n)
{
	const char *v = cli_opt(a, O_SINCE);
	long long secs = str_duration(v ? v : "1d");
	if (secs <= 0) {
		char safe[64];
		msg_error("bad duration '%s' for --since (examples: 6h, 1d, 7d, 30d)",
			  str_sanitize(safe, sizeof safe, v));
		return EXIT_USAGE;
	}
	str_time_format(catalog_now() - secs, out, n);
	return EXIT_OK;
}

static int run_changes(struct cli_env *env, const struct cli_args *a, const struct query *q,
		       void *since)
{
	size_t n;
	return cli_changes_print(env, a, q, since, 0, 1, &n);
}

static int cmd_changes(struct cli_args *a)
{
	char since[32];
	if (a->npos) {
		char safe[64];
		msg_error("unexpected argument '%s' for 'changes'; filters are options such as "
			  "--gpu h100", str_sanitize(safe, sizeof safe, a->pos[0]));
		return EXIT_USAGE;
	}
	int rc = since_time(a, since, sizeof since);
	return rc ? rc : cli_history_command(a, run_changes, since);
}

static const struct opt_def opt_since = {.id = O_SINCE, .name = "since", .type = OPT_STRING,
	.arg = "DURATION", .help = "changes in the last DURATION (default 1d; 6h, 7d, 30d)"};

static const struct opt_use changes_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_since), OPT_GROUP(opts_offer), OPT_GROUP(opts_filters),
	OPT_USE(opt_cuda), OPT_USE(opt_cuda_strict), OPT_USE(opt_available), OPT_USE(opt_limit),
	OPT_GROUP(opts_output), OPT_USE(opt_explain), OPT_END};

const struct cmd_entry cmd_changes_entry = {
	.name = "changes",
	.run = cmd_changes,
	.usage = "changes [--since DURATION] [options]",
	.summary = "What got cheaper or dearer, appeared or disappeared since a time.",
	.detail =
		"Every refresh and import records what it changed per offer (docs/HISTORY.md);\n"
		"this compares each offer's state before its first change in the window with\n"
		"its state after the last one.  Filters are list's, over the offers as they\n"
		"last changed (a gone offer as it was).\n\n"
		"examples:\n"
		"  gpucmp changes --since 1d\n"
		"  gpucmp changes --since 7d --gpu h100 --gpus 8 --max-price 20 --json",
	.opts = changes_opts,
};
