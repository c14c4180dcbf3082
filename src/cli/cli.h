/* cli.h - the command-line front, one include for every room of it: each
 * header below is one job, with the files that define it.
 *
 *   cli_opts.h     options, commands and the parsed command line (opts.c,
 *                  commands.c)
 *   cli_msg.h      messages and exit codes (msg.c, exitcode.c)
 *   cli_env.h      the run's state: catalog, config, cache, lock (env.c)
 *   cli_values.h   option values: HTTP settings, lists, --gpu, --provider
 *                  (env_opts.c)
 *   cli_output.h   colour, format, currency, the render spec, unknown
 *                  names, JSON out (env_output.c, profile_view.c)
 *   cli_filter.h   list's offer filters, --where, help regions
 *                  (offer_filter.c, where_opt.c, help_regions.c)
 *   cli_history.h  what changes, history and refresh --changes share
 *                  (history_common.c)
 *
 * The front only parses, calls the library and renders; every subcommand
 * lives in its own cmd_<name>.c and is found through the table in
 * commands.c; main.c parses the global options and dispatches.
 */
#ifndef GPUCMP_CLI_H
#define GPUCMP_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/config.h"
#include "gpucmp/err.h"
#include "gpucmp/http.h"
#include "gpucmp/profile.h"
#include "gpucmp/render.h"
#include "gpucmp/where.h"

#include "cli_opts.h"
#include "cli_msg.h"
#include "cli_env.h"
#include "cli_values.h"
#include "cli_output.h"
#include "cli_filter.h"
#include "cli_history.h"

/* refresh --from URL|DIR (or the config's pull_from): pull a team
 * snapshot into env's open cache (refresh_pull.c): the network part
 * within deadline_s seconds and without the writer lock, then the lock
 * (cli_lock) for the store alone; prints; returns an exit code as
 * refresh's. */
int cli_refresh_pull(const struct cli_args *a, struct cli_env *env, const struct http_opts *ho,
		     const char *from, double deadline_s);

/* `providers --check`, run by cmd_providers.  A command's run function is
 * static in its file; list, providers and recommend are not yet. */
int cmd_list(struct cli_args *a);
int cmd_providers(struct cli_args *a);
int cmd_providers_check(struct cli_args *a);
int cmd_recommend(struct cli_args *a);

#endif
