/* config.h - the user's settings file (docs/CONFIG.md).
 *
 * $GPUCMP_CONFIG, else $XDG_CONFIG_HOME/gpucmp/config.yaml, else
 * ~/.config/gpucmp/config.yaml, read with libyaml.  Every setting in it is
 * a default: a command-line flag or an environment variable wins over the
 * file, and the file wins over the built-in default.  A missing file is no
 * error.  The loader checks the whole file (unknown keys, fields, provider
 * ids, currencies, URLs) and reports problems as "FILE:LINE: message" with
 * status GC_ECONFIG; it refuses a file holding API keys that other users can
 * read, a file anyone can change, and a file owned by another user.
 */
#ifndef GPUCMP_CONFIG_H
#define GPUCMP_CONFIG_H

#include <stddef.h>
#include <sys/types.h>

#include "gpucmp/err.h"
#include "gpucmp/hosted.h"

/* Bytes a config file may hold; an API key and a base URL may hold. */
enum { CONFIG_MAX_BYTES = 1 << 20, CONFIG_MAX_KEY = 256, CONFIG_MAX_URL = 512 };

/* provider.<id>: settings of one provider with a live adapter. */
struct config_provider {
	char *id;       /* adapter id */
	char *base_url; /* http(s) URL without a trailing '/', or NULL */
	char *api_key;  /* secret: never print it; NULL when unset */
};

/* Every member is owned by the struct and read-only for callers; NULL (or
 * "") means the file does not set it. */
struct config {
	char *path;          /* the file read, or that would be read; NULL: no location */
	int found;           /* the file exists (and was read) */
	char *columns;       /* "provider,gpu,price_hr": checked field keys, comma-joined */
	char *sort;          /* "-gpu_count,price": checked keys, '-' for descending */
	char currency[4];    /* ISO 4217 code ("EUR"); "" = unset: use config_currency() */
	char **providers;    /* enabled adapter ids, in file order, no duplicates */
	size_t nproviders;   /* 0 with providers NULL: unset (every adapter) */
	struct config_provider *provider;
	size_t nprovider;
	int min_keep_percent; /* 0..100; -1 = unset (CACHE_MIN_KEEP_PERCENT) */
	int history_days;     /* price history kept, days; 0 off; -1 = unset (CACHE_HISTORY_DAYS) */
	long long stale_after; /* seconds; 0 = unset (QUERY_STALE_AFTER) */
	/* hosted catalogs (hosted.h): base URLs, NULL = unset; catalog: 0 off,
	 * 1 on, -1 unset (on) */
	char *skypilot_catalog_url, *gpuhunt_catalog_url;
	int catalog;
	int legend; /* the legend under a table on a terminal: 0 off, 1 on, -1 unset (on) */
	/* team snapshots (docs/TEAM.md): what `refresh` pulls when it names no
	 * provider (URL or folder), and the Ed25519 public keys (base64) a
	 * pulled snapshot must be signed by (none: unsigned ones are taken) */
	char *pull_from;
	char **trusted_keys;
	size_t ntrusted;
};

/* An empty config (every setting unset). */
void config_init(struct config *c);
/* Free what `c` holds (API keys are wiped first); leaves it as config_init. */
void config_release(struct config *c);

/* The path the config is read from (a new string): $GPUCMP_CONFIG, else
 * $XDG_CONFIG_HOME/gpucmp/config.yaml (an absolute XDG_CONFIG_HOME only),
 * else $HOME/.config/gpucmp/config.yaml.  NULL with *err when none is set. */
char *config_default_path(char **err);

/* Load the file at `path` (NULL: config_default_path(), and no location at
 * all is an empty config) into `c`, which must be config_init'ed; a file
 * that does not exist leaves every setting unset.  Errors are GC_ECONFIG
 * (GC_ENOMEM) with a message naming the file; on error `c` holds nothing
 * but its path. */
enum gc_status config_load(struct config *c, const char *path, char **err);

/* Parse and check the text of a config file named `file` (for messages)
 * into `c` (config_init'ed), without looking at the file itself. */
enum gc_status config_parse(struct config *c, const char *file, const char *data, size_t len,
			    char **err);

/* May a config file with this mode and owner be used by user `me`?
 * GC_OK, or GC_ECONFIG with the message saying how to fix it: refused when
 * it holds API keys (`has_keys`) and group or others may read or write it,
 * when anyone may write it, or when it belongs to someone other than `me`
 * or root. */
enum gc_status config_check_mode(const char *file, mode_t mode, uid_t owner, uid_t me,
				 int has_keys, char **err);

/* The display currency for tables: the file's, else "USD".  Borrowed from
 * `c` (static for a NULL c). */
const char *config_currency(const struct config *c);

/* provider.<id>.api_key and provider.<id>.base_url, or NULL (also for a
 * NULL c).  Borrowed from `c`. */
const char *config_api_key(const struct config *c, const char *id);
const char *config_base_url(const struct config *c, const char *id);

/* Does the file set any API key? */
int config_has_keys(const struct config *c);

/* The base URL of a catalog: GPUCMP_SKYPILOT_CATALOG_URL /
 * GPUCMP_GPUHUNT_CATALOG_URL, else the config's skypilot_catalog_url /
 * gpuhunt_catalog_url, else the public one.  `from` (NULL or n bytes) gets
 * the variable's name, "config" or "default". */
const char *config_catalog_url(const struct config *cfg, enum hosted_kind k, char *from,
			       size_t n);

/* Is the tier on?  Off with GPUCMP_CATALOG=0 or `catalog: false` in cfg. */
int config_catalog_enabled(const struct config *cfg);

#endif
