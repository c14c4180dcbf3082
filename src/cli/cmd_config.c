/* cmd_config.c - gpucmp config path | show [--json].
 *
 * show prints the effective settings, each with where it comes from: the
 * config file ("config"), an environment variable (its name) or the
 * built-in default ("default"); config_effective (gpucmp/config_show.h)
 * answers, keys already redacted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/config_show.h"
#include "gpucmp/strutil.h"

static void print_line(int indent, const struct config_setting *s)
{
	char safe[600];
	const char *v = s->value ? s->value : s->unset ? s->unset : "none";
	printf("%*s%s: %s  # %s\n", indent, "", s->key, str_sanitize(safe, sizeof safe, v),
	       s->from);
}

static void print_text(const struct config_effective *e)
{
	for (size_t i = 0; i < CONFIG_SHOWN_TOP; i++)
		print_line(0, &e->top[i]);
	if (!e->nprovider)
		printf("provider: {}  # no base URL or API key set\n");
	else
		printf("provider:\n");
	for (size_t i = 0; i < e->nprovider; i++) {
		printf("  %s:\n", e->provider[i].id);
		print_line(4, &e->provider[i].base_url);
		print_line(4, &e->provider[i].api_key);
	}
}

static int show(const struct config *c, int as_json)
{
	struct config_effective e;
	char *err = NULL;
	enum gc_status st = config_effective(&e, c, &err);
	int rc = EXIT_OK; /* main reports text output it could not write */
	if (st != GC_OK) {
		msg_status(st, err, "cannot show the settings");
		rc = exit_code_for(st);
	} else if (as_json) {
		rc = cli_print_json(config_effective_json(&e), 0);
	} else {
		print_text(&e);
	}
	free(err);
	config_effective_release(&e);
	return rc;
}

static int print_path(void)
{
	char *err = NULL;
	char *path = config_default_path(&err);
	if (!path) {
		msg_status(GC_EUSAGE, err, "no config location");
		free(err);
		return EXIT_USAGE;
	}
	printf("%s\n", path);
	free(path);
	return EXIT_OK;
}

static int bad_action(const char *action)
{
	static const char *const actions[] = {"path", "show"};
	struct suggest s;
	suggest_init(&s, action);
	for (size_t i = 0; i < 2; i++)
		suggest_try(&s, actions[i]);
	return cli_unknown("action", action, suggest_best(&s), "'config' takes path or show");
}

static int cmd_config(struct cli_args *a)
{
	const char *action = a->npos ? a->pos[0] : NULL;
	if (!action) {
		msg_error("'config' needs an action: path or show");
		return EXIT_USAGE;
	}
	int is_show = strcmp(action, "show") == 0;
	if (!is_show && strcmp(action, "path") != 0)
		return bad_action(action);
	if (a->npos > 1) {
		char safe[64];
		msg_error("unexpected argument '%s' for 'config %s'",
			  str_sanitize(safe, sizeof safe, a->pos[1]), action);
		return EXIT_USAGE;
	}
	if (!is_show && cli_flag(a, O_JSON)) {
		msg_error("--json applies to 'config show', not 'config path'");
		return EXIT_USAGE;
	}
	if (!is_show)
		return print_path();
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.lock_fd = -1;
	int rc = cli_config(&env);
	if (!rc && !env.config.found)
		msg_note("no config file at %s; showing the built-in defaults and the environment",
			 env.config.path ? env.config.path : "(no location: set HOME)");
	if (!rc)
		rc = show(&env.config, cli_flag(a, O_JSON));
	cli_env_release(&env);
	return rc;
}

static const struct opt_use config_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_END};
static const struct arg_hint config_args[] = {
	{ARG_WORDS, 1, "action", "path show", NULL, NULL},
	ARG_END};

const struct cmd_entry cmd_config_entry = {
	.name = "config",
	.run = cmd_config,
	.usage = "config path | config show [--json]",
	.summary = "Print the config file's path, or the effective settings (keys redacted).",
	.detail =
		"The config file (docs/CONFIG.md) holds defaults: columns and sort for list,\n"
		"the currency of table prices, the providers refresh fetches without IDs,\n"
		"and per provider a base URL and an API key. A command-line flag or an\n"
		"environment variable wins over the file; the file wins over the built-in\n"
		"default. A file holding API keys must be readable by you alone (chmod 600);\n"
		"a bad or unsafe file is an error with exit code 78.\n\n"
		"path: $GPUCMP_CONFIG, else $XDG_CONFIG_HOME/gpucmp/config.yaml, else\n"
		"~/.config/gpucmp/config.yaml, printed whether or not the file exists.\n"
		"show: every setting with its source: config, default or the variable's name.\n\n"
		"examples:\n"
		"  gpucmp config show\n"
		"  $EDITOR \"$(gpucmp config path)\"",
	.opts = config_opts,
	.args = config_args,
};
