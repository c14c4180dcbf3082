/* config.c - the user's settings file: find, read safely, parse, check. */
#include "gpucmp/config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpucmp/adapter.h"
#include "gpucmp/field.h"
#include "gpucmp/fileio.h"
#include "gpucmp/hosted.h"
#include "gpucmp/query.h"
#include "gpucmp/rates.h"
#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

enum { MAX_WORDS = 64 };

void config_init(struct config *c)
{
	memset(c, 0, sizeof *c);
	c->min_keep_percent = -1;
	c->history_days = -1;
	c->catalog = -1;
	c->legend = -1;
}

/* Free a string that may hold a secret, wiping it first. */
static void free_secret(char *s)
{
	if (!s)
		return;
	volatile char *p = s;
	while (*p)
		*p++ = '\0';
	free(s);
}

/* Everything but the path. */
static void release_settings(struct config *c)
{
	free(c->columns);
	free(c->sort);
	for (size_t i = 0; i < c->nproviders; i++)
		free(c->providers[i]);
	free(c->providers);
	for (size_t i = 0; i < c->nprovider; i++) {
		free(c->provider[i].id);
		free(c->provider[i].base_url);
		free_secret(c->provider[i].api_key);
	}
	free(c->provider);
	free(c->skypilot_catalog_url);
	free(c->gpuhunt_catalog_url);
	free(c->pull_from);
	for (size_t i = 0; i < c->ntrusted; i++)
		free(c->trusted_keys[i]);
	free(c->trusted_keys);
	char *path = c->path;
	int found = c->found;
	config_init(c);
	c->path = path;
	c->found = found;
}

void config_release(struct config *c)
{
	release_settings(c);
	free(c->path);
	config_init(c);
}

/* The path into *out (new); NULL with GC_OK when there is no location. */
static enum gc_status default_path(char **out, char **err)
{
	if (str_user_path("GPUCMP_CONFIG", "XDG_CONFIG_HOME", ".config", "config.yaml", out) != 0)
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

char *config_default_path(char **err)
{
	char *p = NULL;
	if (default_path(&p, err) == GC_OK && !p)
		err_set(err, GC_EUSAGE, "cannot find a config location: set HOME, "
			"XDG_CONFIG_HOME or GPUCMP_CONFIG");
	return p;
}

enum gc_status config_check_mode(const char *file, mode_t mode, uid_t owner, uid_t me,
				 int has_keys, char **err)
{
	if (owner != me && owner != 0)
		return err_set(err, GC_ECONFIG,
			       "config %s belongs to another user (uid %ld); use your own "
			       "(GPUCMP_CONFIG names another file)", file, (long)owner);
	if (has_keys && (mode & 044))
		return err_set(err, GC_ECONFIG, "config %s holds API keys but is readable by other "
			       "users; run: chmod 600 %s", file, file);
	if (has_keys && (mode & 077))
		return err_set(err, GC_ECONFIG, "config %s holds API keys but other users can "
			       "change it; run: chmod 600 %s", file, file);
	/* a base_url anyone may set would send the environment's keys elsewhere */
	if (mode & 002)
		return err_set(err, GC_ECONFIG, "config %s can be changed by any user; run: chmod "
			       "go-w %s", file, file);
	return GC_OK;
}

/* --- words: "a, b" or [a, b] ---------------------------------------------- */

typedef enum gc_status (*word_fn)(struct ydoc *d, const yaml_node_t *at, const char *w,
				  char **err);

/* Append the comma-separated words of scalar `n` to words[] (copies in
 * one new string each), checking each with `check`. */
static enum gc_status add_words(struct ydoc *d, const yaml_node_t *n, const char *key,
				word_fn check, char **words, size_t *nw, char **err)
{
	const char *s = ydoc_str(n);
	if (!s || ydoc_is_null(n))
		return ydoc_error(d, n, err, "'%s' must be a list of names or one comma-separated "
				  "line of them", key);
	char *copy = strdup(s);
	if (!copy)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum gc_status st = GC_OK;
	char *save = NULL;
	for (char *w = strtok_r(copy, ",", &save); w && st == GC_OK;
	     w = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*w))
			w++;
		size_t len = strlen(w);
		while (len && isspace((unsigned char)w[len - 1]))
			w[--len] = '\0';
		if (!*w)
			continue;
		if (*nw >= MAX_WORDS)
			st = ydoc_error(d, n, err, "too many names in '%s' (at most %d)", key,
					MAX_WORDS);
		else if ((st = check(d, n, w, err)) == GC_OK &&
			 !(words[(*nw)++] = strdup(w)))
			st = err_set(err, GC_ENOMEM, "out of memory");
	}
	free(copy);
	return st;
}

/* The words of `n` (a scalar or a list of scalars), checked, as a new
 * array of new strings in *words (free with free_words). */
static enum gc_status word_list(struct ydoc *d, yaml_node_t *n, const char *key, word_fn check,
				char **words, size_t *nw, char **err)
{
	enum gc_status st = GC_OK;
	*nw = 0;
	if (n->type == YAML_SEQUENCE_NODE) {
		size_t len = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
		for (size_t i = 0; i < len && st == GC_OK; i++)
			st = add_words(d, ydoc_item(d, n, i), key, check, words, nw, err);
	} else {
		st = add_words(d, n, key, check, words, nw, err);
	}
	if (st == GC_OK && *nw == 0)
		st = ydoc_error(d, n, err, "'%s' is empty; leave it out for the default", key);
	return st;
}

static void free_words(char **words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(words[i]);
}

/* words joined by ',' (new), or NULL when out of memory */
static char *join_words(char **words, size_t n)
{
	size_t total = 1;
	for (size_t i = 0; i < n; i++)
		total += strlen(words[i]) + 1;
	char *s = malloc(total), *p = s;
	for (size_t i = 0; s && i < n; i++)
		p += snprintf(p, total - (size_t)(p - s), "%s%s", i ? "," : "", words[i]);
	if (s && !n)
		*s = '\0';
	return s;
}

static enum gc_status unknown_field(struct ydoc *d, const yaml_node_t *at, const char *w,
				    const char *key, char **err)
{
	char safe[64];
	str_sanitize(safe, sizeof safe, w);
	const char *best = field_suggest(w);
	if (best)
		return ydoc_error(d, at, err, "unknown field '%s' in %s; did you mean '%s'?", safe,
				  key, best);
	return ydoc_error(d, at, err, "unknown field '%s' in %s; 'gpucmp help fields' lists them",
			  safe, key);
}

static enum gc_status check_column(struct ydoc *d, const yaml_node_t *at, const char *w,
				   char **err)
{
	return field_find(w) ? GC_OK : unknown_field(d, at, w, "columns", err);
}

static enum gc_status check_sort(struct ydoc *d, const yaml_node_t *at, const char *w,
				 char **err)
{
	if (*w == '-' || *w == '+')
		w++;
	return field_find(w) ? GC_OK : unknown_field(d, at, w, "sort", err);
}

static enum gc_status check_adapter(struct ydoc *d, const yaml_node_t *at, const char *w,
				    char **err);

/* An id refresh can fetch: a live adapter's or a hosted catalog's. */
static enum gc_status check_refreshable(struct ydoc *d, const yaml_node_t *at, const char *w,
					char **err)
{
	return hosted_find(w) ? GC_OK : check_adapter(d, at, w, err);
}

/* An id with a live adapter, else "did you mean" or the list of them. */
static enum gc_status check_adapter(struct ydoc *d, const yaml_node_t *at, const char *w,
				    char **err)
{
	if (adapter_find(w))
		return GC_OK;
	struct suggest s;
	suggest_init(&s, w);
	char list[512] = "";
	size_t n = 0;
	for (size_t i = 0; i < adapter_count; i++) {
		suggest_try(&s, adapters[i]->id);
		if (n < sizeof list)
			n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "",
					      adapters[i]->id);
	}
	char safe[64];
	str_sanitize(safe, sizeof safe, w);
	const char *best = suggest_best(&s);
	if (best)
		return ydoc_error(d, at, err, "provider '%s' has no live price adapter; did you "
				  "mean '%s'?", safe, best);
	return ydoc_error(d, at, err, "provider '%s' has no live price adapter (these do: %s)",
			  safe, list);
}

/* --- the settings -------------------------------------------------------- */

/* columns or sort: checked words joined by ',' into *out (new). */
static enum gc_status parse_words(struct ydoc *d, yaml_node_t *n, const char *key,
				  word_fn check, size_t max, char **out, char **err)
{
	char *words[MAX_WORDS];
	size_t nw = 0;
	enum gc_status st = word_list(d, n, key, check, words, &nw, err);
	if (st == GC_OK && nw > max)
		st = ydoc_error(d, n, err, "too many names in '%s' (at most %zu)", key, max);
	if (st == GC_OK && !(*out = join_words(words, nw)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	free_words(words, nw);
	return st;
}

static enum gc_status parse_providers(struct config *c, struct ydoc *d, yaml_node_t *n,
				      char **err)
{
	if (n->type == YAML_MAPPING_NODE)
		return ydoc_error(d, n, err, "'providers' is the list of providers refresh "
				  "fetches; the settings of one go under "
				  "'provider: {ID: {base_url, api_key}}'");
	char *words[MAX_WORDS];
	size_t nw = 0;
	enum gc_status st = word_list(d, n, "providers", check_refreshable, words, &nw, err);
	if (st == GC_OK && !(c->providers = calloc(nw, sizeof *c->providers)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; st == GC_OK && i < nw; i++) {
		int dup = 0;
		for (size_t k = 0; k < c->nproviders; k++)
			dup |= strcmp(c->providers[k], words[i]) == 0;
		if (!dup) {
			c->providers[c->nproviders++] = words[i];
			words[i] = NULL;
		}
	}
	free_words(words, nw);
	return st;
}

static enum gc_status parse_currency(struct config *c, struct ydoc *d, yaml_node_t *n,
				     char **err)
{
	const char *s = ydoc_str(n);
	char code[4] = "";
	size_t len = s ? strlen(s) : 0;
	for (size_t i = 0; i < len && i < 3; i++)
		code[i] = (char)toupper((unsigned char)s[i]);
	struct rate_table t;
	enum gc_status st = rates_load_embedded(&t, err);
	if (st != GC_OK)
		return st;
	int ok = len == 3 && (strcmp(code, "USD") == 0 || rates_usd(&t, code) > 0);
	if (ok) {
		memcpy(c->currency, code, sizeof code);
	} else {
		char list[128] = "USD", safe[32];
		size_t k = 3;
		for (size_t i = 0; i < t.n && k < sizeof list; i++)
			k += (size_t)snprintf(list + k, sizeof list - k, ", %s",
					      t.items[i].currency);
		str_sanitize(safe, sizeof safe, s ? s : "");
		st = ydoc_error(d, n, err, "unknown currency '%s' (expected %s)", safe, list);
	}
	rates_free(&t);
	return st;
}

/* http:// or https://, a host, no spaces, controls, query or fragment. */
static int url_ok(const char *u)
{
	size_t skip = strncasecmp(u, "https://", 8) == 0 ? 8
		    : strncasecmp(u, "http://", 7) == 0  ? 7
							 : 0;
	if (!skip || !u[skip] || u[skip] == '/' || strlen(u) > CONFIG_MAX_URL)
		return 0;
	for (const unsigned char *p = (const unsigned char *)u; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == '?' || *p == '#')
			return 0;
	return 1;
}

/* A scalar that is set: non-null text; *s is NULL for a null (unset). */
static enum gc_status scalar(struct ydoc *d, yaml_node_t *n, const char *what, const char **s,
			     char **err)
{
	*s = NULL;
	if (ydoc_is_null(n))
		return GC_OK;
	*s = ydoc_str(n);
	if (!*s || !**s)
		return ydoc_error(d, n, err, "%s must be non-empty text", what);
	return GC_OK;
}

static enum gc_status parse_base_url(struct config_provider *p, struct ydoc *d, yaml_node_t *n,
				     char **err)
{
	char what[96];
	const char *s;
	snprintf(what, sizeof what, "provider.%s.base_url", p->id);
	enum gc_status st = scalar(d, n, what, &s, err);
	if (st != GC_OK || !s)
		return st;
	const char *scheme_end = strstr(s, "://");
	size_t host = strncasecmp(s, "http", 4) == 0 && scheme_end ? scheme_end + 3 - s : 0;
	if (host && memchr(s + host, '@', strcspn(s + host, "/?#"))) /* not echoed: a password */
		return ydoc_error(d, n, err, "%s must not hold a user or password; put the key in "
				  "api_key", what);
	if (!url_ok(s)) {
		char safe[96];
		str_sanitize(safe, sizeof safe, s);
		return ydoc_error(d, n, err, "bad %s '%s' (expected http:// or https://, a host "
				  "and an optional path)", what, safe);
	}
	if (!(p->base_url = strdup(s)))
		return err_set(err, GC_ENOMEM, "out of memory");
	size_t len = strlen(p->base_url);
	while (len && p->base_url[len - 1] == '/')
		p->base_url[--len] = '\0';
	return GC_OK;
}

/* The key goes into an HTTP header or query: printable ASCII, no spaces.
 * Messages never quote it. */
static enum gc_status parse_api_key(struct config_provider *p, struct ydoc *d, yaml_node_t *n,
				    char **err)
{
	char what[96];
	const char *s;
	snprintf(what, sizeof what, "provider.%s.api_key", p->id);
	enum gc_status st = scalar(d, n, what, &s, err);
	if (st != GC_OK || !s)
		return st;
	if (strlen(s) > CONFIG_MAX_KEY)
		return ydoc_error(d, n, err, "%s is longer than %d bytes", what, CONFIG_MAX_KEY);
	for (const unsigned char *q = (const unsigned char *)s; *q; q++)
		if (*q <= ' ' || *q >= 0x7f)
			return ydoc_error(d, n, err, "%s holds a space, a control character or "
					  "non-ASCII text", what);
	if (!(p->api_key = strdup(s)))
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

static enum gc_status parse_one_provider(struct config_provider *p, struct ydoc *d,
					 yaml_node_t *v, char **err)
{
	static const char *const keys[] = {"base_url", "api_key", NULL};
	if (!v || v->type != YAML_MAPPING_NODE)
		return ydoc_error(d, v, err, "provider.%s must be a mapping with base_url and/or "
				  "api_key", p->id);
	enum gc_status st = ydoc_check_keys(d, v, keys, err);
	yaml_node_t *n;
	if (st == GC_OK && (n = ydoc_get(d, v, "base_url")))
		st = parse_base_url(p, d, n, err);
	if (st == GC_OK && (n = ydoc_get(d, v, "api_key")))
		st = parse_api_key(p, d, n, err);
	return st;
}

static enum gc_status parse_provider_map(struct config *c, struct ydoc *d, yaml_node_t *map,
					 char **err)
{
	if (map->type == YAML_SEQUENCE_NODE)
		return ydoc_error(d, map, err, "'provider' holds settings per provider (provider: "
				  "{ID: {base_url, api_key}}); the list of providers to refresh is "
				  "'providers'");
	if (map->type != YAML_MAPPING_NODE)
		return ydoc_error(d, map, err, "'provider' must be a mapping of provider ids to "
				  "settings");
	enum gc_status st = ydoc_check_keys(d, map, NULL, err);
	size_t n = (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
	if (st == GC_OK && n && !(c->provider = calloc(n, sizeof *c->provider)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		yaml_node_pair_t *pair = &map->data.mapping.pairs.start[i];
		yaml_node_t *kn = ydoc_node(d, pair->key);
		const char *id = ydoc_str(kn);
		if ((st = check_adapter(d, kn, id, err)) != GC_OK)
			break;
		struct config_provider *p = &c->provider[c->nprovider++];
		if (!(p->id = strdup(id)))
			st = err_set(err, GC_ENOMEM, "out of memory");
		else
			st = parse_one_provider(p, d, ydoc_node(d, pair->value), err);
	}
	return st;
}

/* min_keep_percent: a whole number 0..100 (cache.h, the plausible-answer rule). */
static enum gc_status parse_min_keep(struct config *c, struct ydoc *d, yaml_node_t *n,
				     char **err)
{
	const char *s = ydoc_str(n);
	long v = -1;
	if (s && *s && strlen(s) <= 3 && strspn(s, "0123456789") == strlen(s))
		v = strtol(s, NULL, 10);
	if (v < 0 || v > 100) {
		char safe[32];
		str_sanitize(safe, sizeof safe, s ? s : "");
		return ydoc_error(d, n, err,
				  "min_keep_percent must be a whole number from 0 to 100, not '%s'",
				  safe);
	}
	c->min_keep_percent = (int)v;
	return GC_OK;
}

/* history_days: a whole number of days 0..3650 (cache.h, the price history). */
static enum gc_status parse_history_days(struct config *c, struct ydoc *d, yaml_node_t *n,
					 char **err)
{
	const char *s = ydoc_str(n);
	long v = -1;
	if (s && *s && strlen(s) <= 4 && strspn(s, "0123456789") == strlen(s))
		v = strtol(s, NULL, 10);
	if (v < 0 || v > 3650) {
		char safe[32];
		str_sanitize(safe, sizeof safe, s ? s : "");
		return ydoc_error(d, n, err,
				  "history_days must be a whole number of days from 0 (no history) "
				  "to 3650, not '%s'", safe);
	}
	c->history_days = (int)v;
	return GC_OK;
}

/* stale_after: a duration ("24h", "2d"), at least a minute. */
static enum gc_status parse_stale_after(struct config *c, struct ydoc *d, yaml_node_t *n,
					char **err)
{
	const char *s = ydoc_str(n);
	long long v = s ? str_duration(s) : -1;
	if (v < 60) {
		char safe[32];
		str_sanitize(safe, sizeof safe, s ? s : "");
		return ydoc_error(d, n, err,
				  "stale_after must be a duration of a minute or more "
				  "(30m, 24h, 7d), not '%s'",
				  safe);
	}
	c->stale_after = v;
	return GC_OK;
}

/* skypilot_catalog_url / gpuhunt_catalog_url: an http(s) URL (hosted.h). */
static enum gc_status parse_catalog_url(char **out, struct ydoc *d, yaml_node_t *n,
					const char *what, char **err)
{
	const char *s = ydoc_str(n);
	if (!s || !url_ok(s)) {
		char safe[96];
		str_sanitize(safe, sizeof safe, s ? s : "");
		return ydoc_error(d, n, err, "bad %s '%s' (expected http:// or https://, a host "
				  "and an optional path)", what, safe);
	}
	if (strchr(s, '@'))
		return ydoc_error(d, n, err, "%s must not hold a user or password", what);
	if (!(*out = strdup(s)))
		return err_set(err, GC_ENOMEM, "out of memory");
	size_t len = strlen(*out);
	while (len && (*out)[len - 1] == '/')
		(*out)[--len] = '\0';
	return GC_OK;
}

/* pull_from: a team snapshot's URL (as a catalog URL), file:/// URL (a
 * folder, team_pull reads it) or folder; another scheme is refused. */
static enum gc_status parse_pull_from(struct config *c, struct ydoc *d, yaml_node_t *n,
				      char **err)
{
	const char *s = ydoc_str(n);
	if (s && (strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0))
		return parse_catalog_url(&c->pull_from, d, n, "pull_from", err);
	size_t scheme = s ? strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789+-.") : 0;
	int file = s && (strncasecmp(s, "file:///", 8) == 0 ||
			 strncasecmp(s, "file://localhost/", 17) == 0);
	if (!s || !*s || strlen(s) > CONFIG_MAX_URL ||
	    (!file && scheme && strncmp(s + scheme, "://", 3) == 0))
		return ydoc_error(d, n, err, "pull_from must be an http(s) URL, a file:/// URL or "
				  "a folder that 'gpucmp export' wrote");
	return (c->pull_from = strdup(s)) ? GC_OK : err_set(err, GC_ENOMEM, "out of memory");
}

/* An Ed25519 public key in base64: 43 characters and '='. */
static enum gc_status check_key(struct ydoc *d, const yaml_node_t *at, const char *w,
				char **err)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	if (strlen(w) == 44 && w[43] == '=' && strspn(w, b64) == 43)
		return GC_OK;
	char safe[64];
	return ydoc_error(d, at, err, "trusted_keys: '%s' is not an Ed25519 public key in base64 "
			  "(44 characters; 'gpucmp export --gen-key FILE' prints one)",
			  str_sanitize(safe, sizeof safe, w));
}

static enum gc_status parse_trusted(struct config *c, struct ydoc *d, yaml_node_t *n,
				    char **err)
{
	char *words[MAX_WORDS];
	size_t nw = 0;
	enum gc_status st = word_list(d, n, "trusted_keys", check_key, words, &nw, err);
	if (st == GC_OK && !(c->trusted_keys = calloc(nw, sizeof *c->trusted_keys)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; st == GC_OK && i < nw; i++) {
		c->trusted_keys[c->ntrusted++] = words[i];
		words[i] = NULL;
	}
	free_words(words, nw);
	return st;
}

/* catalog (the hosted catalog tier of refresh), legend (the line under a
 * table): true or false into *out. */
static enum gc_status parse_bool(int *out, struct ydoc *d, yaml_node_t *n, const char *key,
				 char **err)
{
	const char *s = ydoc_str(n);
	if (s && (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)) {
		*out = s[0] == 't';
		return GC_OK;
	}
	return ydoc_error(d, n, err, "%s must be true or false", key);
}

static enum gc_status parse_root(struct config *c, struct ydoc *d, yaml_node_t *root,
				 char **err)
{
	static const char *const keys[] = {"columns", "sort", "currency", "providers",
					   "provider", "min_keep_percent", "stale_after",
					   "catalog", "skypilot_catalog_url",
					   "gpuhunt_catalog_url", "legend", "pull_from",
					   "trusted_keys", "history_days", NULL};
	if (root->type != YAML_MAPPING_NODE)
		return ydoc_error(d, root, err, "expected settings as 'key: value' lines (columns, "
				  "sort, currency, providers, provider)");
	enum gc_status st = ydoc_check_keys(d, root, keys, err);
	yaml_node_t *n;
	if (st == GC_OK && (n = ydoc_get(d, root, "columns")) && !ydoc_is_null(n))
		st = parse_words(d, n, "columns", check_column, MAX_WORDS, &c->columns, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "sort")) && !ydoc_is_null(n))
		st = parse_words(d, n, "sort", check_sort, QUERY_MAX_SORT, &c->sort, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "currency")) && !ydoc_is_null(n))
		st = parse_currency(c, d, n, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "providers")) && !ydoc_is_null(n))
		st = parse_providers(c, d, n, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "provider")) && !ydoc_is_null(n))
		st = parse_provider_map(c, d, n, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "min_keep_percent")) && !ydoc_is_null(n))
		st = parse_min_keep(c, d, n, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "stale_after")) && !ydoc_is_null(n))
		st = parse_stale_after(c, d, n, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "history_days")) && !ydoc_is_null(n))
		st = parse_history_days(c, d, n, err);
	if (st == GC_OK && (n = ydoc_get(d, root, "catalog")) && !ydoc_is_null(n))
		st = parse_bool(&c->catalog, d, n, "catalog", err);
	if (st == GC_OK && (n = ydoc_get(d, root, "legend")) && !ydoc_is_null(n))
		st = parse_bool(&c->legend, d, n, "legend", err);
	if (st == GC_OK && (n = ydoc_get(d, root, "skypilot_catalog_url")) && !ydoc_is_null(n))
		st = parse_catalog_url(&c->skypilot_catalog_url, d, n, "skypilot_catalog_url", err);
	if (st == GC_OK && (n = ydoc_get(d, root, "gpuhunt_catalog_url")) && !ydoc_is_null(n))
		st = parse_catalog_url(&c->gpuhunt_catalog_url, d, n, "gpuhunt_catalog_url", err);
	if (st == GC_OK && (n = ydoc_get(d, root, "pull_from")) && !ydoc_is_null(n))
		st = parse_pull_from(c, d, n, err);
	/* a bare 'trusted_keys:' must not turn the signature check off unsaid */
	if (st == GC_OK && (n = ydoc_get(d, root, "trusted_keys")))
		st = ydoc_is_null(n) ? ydoc_error(d, n, err, "'trusted_keys' is empty; leave it "
						  "out for the default")
				     : parse_trusted(c, d, n, err);
	return st;
}

/* Only blank lines and comments: an empty config, not an empty document. */
static int is_blank(const char *data, size_t len)
{
	int comment = 0;
	for (size_t i = 0; i < len; i++) {
		char ch = data[i];
		if (ch == '\n')
			comment = 0;
		else if (ch == '#' && !comment)
			comment = 1;
		else if (!comment && !isspace((unsigned char)ch))
			return 0;
	}
	return 1;
}

enum gc_status config_parse(struct config *c, const char *file, const char *data, size_t len,
			    char **err)
{
	if (is_blank(data, len))
		return GC_OK;
	struct ydoc d;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st == GC_OK) {
		st = parse_root(c, &d, ydoc_root(&d), err);
		ydoc_free(&d);
	}
	if (st != GC_OK)
		release_settings(c);
	return st == GC_EDATA ? GC_ECONFIG : st;
}

/* Open and read `path` (at most CONFIG_MAX_BYTES); *missing when it does not exist. */
static enum gc_status read_file(const char *path, struct stat *sb, char **data, size_t *len,
				int *missing, char **err)
{
	*data = NULL;
	*len = 0;
	*missing = 0;
	/* O_NONBLOCK: a FIFO would otherwise block the open until a writer
	 * comes; it is refused below.  Symbolic links are followed (dotfile
	 * managers link the file in); the checks are on the file opened. */
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		*missing = 1;
		return GC_OK;
	}
	if (fd < 0)
		return err_set(err, GC_ECONFIG, "cannot read config %s: %s", path, strerror(errno));
	enum gc_status st = GC_OK;
	if (fstat(fd, sb) != 0)
		st = err_set(err, GC_ECONFIG, "cannot read config %s: %s", path, strerror(errno));
	else if (!S_ISREG(sb->st_mode))
		st = err_set(err, GC_ECONFIG, "config %s is not a regular file (%s); replace "
			     "it with one, or remove it", path, file_kind(sb->st_mode));
	else if (sb->st_size > CONFIG_MAX_BYTES)
		st = err_set(err, GC_ECONFIG, "config %s is larger than %d bytes", path,
			     CONFIG_MAX_BYTES);
	else if (!(*data = malloc((size_t)sb->st_size + 1)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	*len = 0;
	while (st == GC_OK) {
		ssize_t got = read(fd, *data + *len, (size_t)sb->st_size - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			st = err_set(err, GC_ECONFIG, "cannot read config %s: %s", path,
				     strerror(errno));
		if (got <= 0)
			break;
		*len += (size_t)got;
	}
	close(fd);
	if (st == GC_OK) {
		(*data)[*len] = '\0';
	} else if (*data) { /* what was read may hold keys */
		memset(*data, 0, *len);
		free(*data);
		*data = NULL;
		*len = 0;
	}
	return st;
}

enum gc_status config_load(struct config *c, const char *path, char **err)
{
	if (path && !(c->path = strdup(path)))
		return err_set(err, GC_ENOMEM, "out of memory");
	if (!path && default_path(&c->path, err) != GC_OK)
		return GC_ENOMEM;
	if (!c->path)
		return GC_OK; /* no location: nothing to read */
	struct stat sb;
	char *data = NULL;
	size_t len = 0;
	int missing = 0;
	enum gc_status st = read_file(c->path, &sb, &data, &len, &missing, err);
	if (st != GC_OK || missing)
		return st;
	c->found = 1;
	st = config_check_mode(c->path, sb.st_mode, sb.st_uid, geteuid(), 0, err);
	if (st == GC_OK)
		st = config_parse(c, c->path, data, len, err);
	if (st == GC_OK)
		st = config_check_mode(c->path, sb.st_mode, sb.st_uid, geteuid(),
				       config_has_keys(c), err);
	if (st != GC_OK)
		release_settings(c);
	/* the text held the keys too */
	memset(data, 0, len);
	free(data);
	return st;
}

const char *config_currency(const struct config *c)
{
	return c && c->currency[0] ? c->currency : "USD";
}

static const struct config_provider *find_provider(const struct config *c, const char *id)
{
	for (size_t i = 0; c && i < c->nprovider; i++)
		if (strcmp(c->provider[i].id, id) == 0)
			return &c->provider[i];
	return NULL;
}

const char *config_api_key(const struct config *c, const char *id)
{
	const struct config_provider *p = find_provider(c, id);
	return p ? p->api_key : NULL;
}

const char *config_base_url(const struct config *c, const char *id)
{
	const struct config_provider *p = find_provider(c, id);
	return p ? p->base_url : NULL;
}

int config_has_keys(const struct config *c)
{
	for (size_t i = 0; c && i < c->nprovider; i++)
		if (c->provider[i].api_key)
			return 1;
	return 0;
}

const char *config_catalog_url(const struct config *cfg, enum hosted_kind k, char *from, size_t n)
{
	const char *var = k == HOSTED_SKYPILOT ? "GPUCMP_SKYPILOT_CATALOG_URL"
					       : "GPUCMP_GPUHUNT_CATALOG_URL";
	const char *v = getenv(var), *src = var;
	if (!v || !*v) {
		v = cfg ? (k == HOSTED_SKYPILOT ? cfg->skypilot_catalog_url
						: cfg->gpuhunt_catalog_url)
			: NULL;
		src = "config";
	}
	if (!v || !*v) {
		v = k == HOSTED_SKYPILOT ? HOSTED_SKYPILOT_URL : HOSTED_GPUHUNT_URL;
		src = "default";
	}
	if (from && n)
		snprintf(from, n, "%s", src);
	return v;
}

int config_catalog_enabled(const struct config *cfg)
{
	return !cfg || cfg->catalog != 0;
}
