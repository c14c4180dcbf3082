/* cmd_config.c - gpucmp config path | show [--json].
 *
 * show prints the effective settings, each with where it comes from: the
 * config file ("config"), an environment variable (its name) or the
 * built-in default ("default").  API keys are never printed, not even in
 * part: only "(redacted)" and their source.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/adapter.h"
#include "gpucmp/cache.h"
#include "gpucmp/refresh.h"
#include "gpucmp/strutil.h"

#define REDACTED "(redacted)"

/* One setting as shown: its text (NULL: unset) and where it came from. */
struct shown {
	const char *value;
	const char *from;
};

#define STR_(x) #x
#define STR(x) STR_(x)

static struct shown top(const char *value, const char *dflt)
{
	struct shown s = {value ? value : dflt, value ? "config" : "default"};
	return s;
}

/* The providers list as one comma-joined line into buf, or NULL when unset. */
static const char *providers_line(const struct config *c, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < c->nproviders && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "," : "", c->providers[i]);
	return c->nproviders ? buf : NULL;
}

/* A provider's effective base URL and key; 0 when neither the environment
 * nor the config sets anything for it. */
static int provider_settings(const struct adapter *ad, const struct config *c,
			     struct shown *base, struct shown *key, char *base_from,
			     char *key_from, size_t n, char *url, size_t urln)
{
	const char *b = refresh_base_url(ad, c, base_from, n);
	const char *k = refresh_key(ad, c, key_from, n);
	if (!b && !k)
		return 0;
	/* a URL from the environment may carry user:password@ or a key */
	http_url_redact(url, urln, b ? b : ad->base_url, k);
	base->value = url;
	base->from = b ? base_from : "default";
	key->value = k ? REDACTED : NULL;
	key->from = k ? key_from : "default";
	return 1;
}

static void print_line(int indent, const char *key, const struct shown *s)
{
	char safe[600];
	printf("%*s%s: %s  # %s\n", indent, "", key,
	       s->value ? str_sanitize(safe, sizeof safe, s->value) : "none", s->from);
}

static json_t *shown_json(const struct shown *s)
{
	return json_pack("{s:o, s:s}", "value", s->value ? json_string(s->value) : json_null(),
			 "from", s->from);
}

static int show(const struct config *c, int as_json)
{
	char line[1024], keep[16] = "";
	if (c->min_keep_percent >= 0)
		snprintf(keep, sizeof keep, "%d", c->min_keep_percent);
	struct shown set[5] = {top(c->columns, NULL), top(c->sort, "price"),
			       top(c->currency[0] ? c->currency : NULL, "USD"),
			       top(providers_line(c, line, sizeof line), NULL),
			       top(keep[0] ? keep : NULL, STR(CACHE_MIN_KEEP_PERCENT))};
	static const char *const names[5] = {"columns", "sort", "currency", "providers",
					     "min_keep_percent"};
	static const char *const dflt_text[5] = {"auto", NULL, NULL, "all", NULL};
	json_t *root = as_json ? json_object() : NULL, *prov = as_json ? json_object() : NULL;
	if (as_json) {
		json_object_set_new(root, "path", c->path ? json_string(c->path) : json_null());
		json_object_set_new(root, "found", json_boolean(c->found));
	}
	for (int i = 0; i < 5; i++) {
		struct shown s = set[i];
		if (as_json) {
			json_object_set_new(root, names[i], shown_json(&s));
			continue;
		}
		if (!s.value)
			s.value = dflt_text[i];
		print_line(0, names[i], &s);
	}
	int header = 0;
	for (size_t i = 0; i < adapter_count; i++) {
		struct shown base, key;
		char base_from[96], key_from[96], url[600];
		if (!provider_settings(adapters[i], c, &base, &key, base_from, key_from,
				       sizeof base_from, url, sizeof url))
			continue;
		if (as_json) {
			json_object_set_new(prov, adapters[i]->id,
					    json_pack("{s:o, s:o}", "base_url", shown_json(&base),
						      "api_key", shown_json(&key)));
			continue;
		}
		if (!header++)
			printf("provider:\n");
		printf("  %s:\n", adapters[i]->id);
		print_line(4, "base_url", &base);
		print_line(4, "api_key", &key);
	}
	if (!as_json) {
		if (!header)
			printf("provider: {}  # no base URL or API key set\n");
		return EXIT_OK; /* main reports output it could not write */
	}
	json_object_set_new(root, "provider", prov);
	return cli_print_json(root, 0);
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
	OPT_GROUP(opts_common), OPT_USE(opt_json), {NULL, NULL}};
static const struct arg_hint config_args[] = {
	{ARG_WORDS, 1, "action", "path show", NULL, NULL},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

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
