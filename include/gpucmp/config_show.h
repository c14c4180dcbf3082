/* config_show.h - the effective settings `config show` answers: each
 * setting with where it comes from, the config file ("config"), an
 * environment variable (its name) or the built-in default ("default").
 * API keys are never shown, not even in part: only CONFIG_REDACTED and
 * their source; a base URL from the environment has its userinfo and
 * credentials masked (http_url_redact).
 *
 * A module of its own above config.c: the provider settings are the ones
 * refresh uses (refresh_base_url, refresh_key).
 */
#ifndef GPUCMP_CONFIG_SHOW_H
#define GPUCMP_CONFIG_SHOW_H

#include <stddef.h>

#include "gpucmp/config.h"
#include "gpucmp/err.h"

#define CONFIG_REDACTED "(redacted)"

/* One setting.  Strings are borrowed from the config, the environment or
 * the struct config_effective holding it. */
struct config_setting {
	const char *key;   /* "columns", "base_url" */
	const char *value; /* the effective value; NULL: unset */
	const char *from;  /* "config", "default" or an environment variable's name */
	const char *unset; /* what people read for an unset value ("auto"); NULL: "none" */
};

/* provider.<id>: a provider with a base URL or an API key set. */
struct config_shown_provider {
	const char *id; /* the adapter's id (static) */
	struct config_setting base_url, api_key;
	char url[600], base_from[96], key_from[96];
};

/* The top-level settings, in the order they are shown. */
enum { CONFIG_SHOWN_TOP = 13 }; /* columns, sort, currency, providers, min_keep_percent,
				 * stale_after, legend, catalog, skypilot_catalog_url,
				 * gpuhunt_catalog_url, pull_from, trusted_keys,
				 * history_days */

struct config_effective {
	const char *path; /* the config file's path, borrowed; NULL: no location */
	int found;        /* the file exists */
	struct config_setting top[CONFIG_SHOWN_TOP];
	struct config_shown_provider *provider; /* owned, in adapter order */
	size_t nprovider;
	char providers_line[1024], keep[16], stale[24], keys_line[1024], days[16];
	char sky_from[64], hunt_from[64], sky_url[600], hunt_url[600];
};

/* The effective settings of config `c` (borrowed: it must outlive *e) and
 * the environment into *e: GC_OK, or GC_ENOMEM with *err.  Release with
 * config_effective_release(), also after an error. */
enum gc_status config_effective(struct config_effective *e, const struct config *c,
				char **err);
void config_effective_release(struct config_effective *e);

/* The config show --json document: {path, found, columns: {value, from},
 * ..., provider: {ID: {base_url, api_key}}}.  A new reference, or NULL when
 * out of memory.  Text that is not valid UTF-8 (a path, a variable's URL)
 * has each broken byte as '?'. */
struct json_t *config_effective_json(const struct config_effective *e);

#endif
