/* commands.c - the command table: one line per command, in --help order.
 *
 * X(name) stands for cmd_<name>_entry, the entry at the end of
 * cmd_<name>.c: its options, help texts, completion hints and run function.
 * Parsing, --help, `gpucmp help` and the completion scripts read only these.
 *
 * A new command: cmd_<name>.c with a static run function and, at its end,
 * `const struct cmd_entry cmd_<name>_entry` (its own options defined there,
 * shared ones referenced from opts.c, new O_* ids in cli.h); a line here;
 * its options in docs/gpucmp.1 (test_cli_entries checks); then
 * scripts/completions.sh regenerates completions/.
 */
#include "cli.h"

#define COMMANDS(X) \
	X(list)         \
	X(gpus)         \
	X(providers)    \
	X(show)         \
	X(compare)      \
	X(recommend)    \
	X(history)      \
	X(changes)      \
	X(refresh)      \
	X(cron)         \
	X(import)       \
	X(export)       \
	X(cache)        \
	X(config)       \
	X(mcp)          \
	X(completion)

#define DECLARE(name) extern const struct cmd_entry cmd_##name##_entry;
#define POINT(name) &cmd_##name##_entry,
COMMANDS(DECLARE)

static const struct cmd_entry *const commands[] = {COMMANDS(POINT)};

const struct cmd_entry *cli_command_at(size_t i)
{
	return i < sizeof commands / sizeof commands[0] ? commands[i] : NULL;
}

/* `gpucmp help`: not a command of the table (main.c answers it), but its
 * arguments complete like one's. */
static const struct arg_hint help_args[] = {
	{ARG_COMMANDS, 1, "topic", "fields where gpu values regions", NULL, NULL},
	ARG_END};

const struct cmd_entry cli_help = {
	.name = "help",
	.usage = "help [COMMAND | fields | where | gpu | values | regions]",
	.summary = "A command's options, the offer fields, the --where language, --gpu or "
		   "what the tables' words mean.",
	.args = help_args,
};
