/* cli_msg.h - messages on stderr (msg.c) and the exit codes
 * (exitcode.c), the two rooms every other one calls.  Included by cli.h. */
#ifndef GPUCMP_CLI_MSG_H
#define GPUCMP_CLI_MSG_H

#include "gpucmp/err.h"

/* Messages (stderr, "gpucmp: " prefix, one line). */
void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_set_quiet(int quiet);
/* --verbose: one diagnostic line, shown even with --quiet; control
 * characters in it become '?'. */
void msg_verbose(const char *line);
/* Print a library error (falls back to `fallback` if err is NULL). */
void msg_status(enum gc_status st, const char *err, const char *fallback);

/* Exit codes (docs/EXIT-CODES.md): one table, used only by main and the commands. */
enum {
	EXIT_OK = 0,
	EXIT_CHANGED = 3, /* refresh --exit-on-change: something that matches changed */
	EXIT_USAGE = 64,
	EXIT_DATAERR = 65,
	EXIT_UNAVAILABLE = 69,
	EXIT_SOFTWARE = 70,
	EXIT_OSERR = 71,
	EXIT_IOERR = 74,
	EXIT_TEMPFAIL = 75,
	EXIT_CONFIG = 78 /* the config file is malformed or unsafe (EX_CONFIG) */
};
int exit_code_for(enum gc_status st);

#endif
