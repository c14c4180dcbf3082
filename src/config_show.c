/* config_show.c - the effective settings with their sources (config show). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"
#include "gpucmp/cache.h"
#include "gpucmp/config.h"
#include "gpucmp/config_show.h"
#include "gpucmp/hosted.h"
#include "gpucmp/http.h"
#include "gpucmp/refresh.h"
#include "gpucmp/strutil.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* A top-level setting: the file's value, else the default `dflt`. */
static struct config_setting top(const char *key, const char *value, const char *dflt,
				 const char *unset)
{
	struct config_setting s = {key, value ? value : dflt, value ? "config" : "default",
				   unset};
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

/* A number of seconds as the config writes it: "6h", "1d", "90m", "45s". */
static void duration_text(long long secs, char *buf, size_t n)
{
	static const struct {
		long long unit;
		char suffix;
	} units[] = {{86400, 'd'}, {3600, 'h'}, {60, 'm'}};
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (secs % units[i].unit == 0) {
			snprintf(buf, n, "%lld%c", secs / units[i].unit, units[i].suffix);
			return;
		}
	snprintf(buf, n, "%llds", secs);
}

/* The settings past the first five: stale_after, legend, catalog and the
 * team snapshot's source and keys. */
static void more_settings(struct config_effective *e, const struct config *c)
{
	if (c->stale_after > 0)
		duration_text(c->stale_after, e->stale, sizeof e->stale);
	e->top[5] = top("stale_after", e->stale[0] ? e->stale : NULL, "24h", NULL);
	e->top[6] = top("legend", c->legend == 0 ? "false" : c->legend > 0 ? "true" : NULL,
			"true", NULL);
	e->top[7] = top("catalog", config_catalog_enabled(c) ? "true" : "false", NULL, NULL);
	e->top[7].from = c->catalog >= 0 ? "config" : "default";
	if (c->catalog != 0 && !config_catalog_enabled(c))
		e->top[7].from = "GPUCMP_CATALOG";
	/* a URL from the environment may carry user:password@ */
	http_url_redact(e->sky_url, sizeof e->sky_url,
			config_catalog_url(c, HOSTED_SKYPILOT, e->sky_from, sizeof e->sky_from),
			NULL);
	e->top[8] = top("skypilot_catalog_url", e->sky_url, NULL, NULL);
	e->top[8].from = e->sky_from;
	http_url_redact(e->hunt_url, sizeof e->hunt_url,
			config_catalog_url(c, HOSTED_GPUHUNT, e->hunt_from, sizeof e->hunt_from),
			NULL);
	e->top[9] = top("gpuhunt_catalog_url", e->hunt_url, NULL, NULL);
	e->top[9].from = e->hunt_from;
	e->top[10] = top("pull_from", c->pull_from, NULL, "none");
	size_t k = 0;
	for (size_t i = 0; i < c->ntrusted && k < sizeof e->keys_line; i++)
		k += (size_t)snprintf(e->keys_line + k, sizeof e->keys_line - k, "%s%s",
				      i ? "," : "", c->trusted_keys[i]);
	e->top[11] = top("trusted_keys", c->ntrusted ? e->keys_line : NULL, NULL, "none");
}

/* The effective base URL and key of adapter `ad` into *p; 0 when neither
 * the environment nor the config sets anything for it. */
static int provider_settings(struct config_shown_provider *p, const struct adapter *ad,
			     const struct config *c)
{
	const char *b = refresh_base_url(ad, c, p->base_from, sizeof p->base_from);
	const char *k = refresh_key(ad, c, p->key_from, sizeof p->key_from);
	if (!b && !k)
		return 0;
	/* a URL from the environment may carry user:password@ or a key */
	http_url_redact(p->url, sizeof p->url, b ? b : ad->base_url, k);
	p->id = ad->id;
	p->base_url = (struct config_setting){"base_url", p->url, b ? p->base_from : "default",
					      NULL};
	p->api_key = (struct config_setting){"api_key", k ? CONFIG_REDACTED : NULL,
					     k ? p->key_from : "default", NULL};
	return 1;
}

enum gc_status config_effective(struct config_effective *e, const struct config *c,
				char **err)
{
	memset(e, 0, sizeof *e);
	e->path = c->path;
	e->found = c->found;
	if (c->min_keep_percent >= 0)
		snprintf(e->keep, sizeof e->keep, "%d", c->min_keep_percent);
	e->top[0] = top("columns", c->columns, NULL, "auto");
	e->top[1] = top("sort", c->sort, "price", NULL);
	e->top[2] = top("currency", c->currency[0] ? c->currency : NULL, "USD", NULL);
	e->top[3] = top("providers", providers_line(c, e->providers_line,
						    sizeof e->providers_line), NULL, "all");
	e->top[4] = top("min_keep_percent", e->keep[0] ? e->keep : NULL,
			STR(CACHE_MIN_KEEP_PERCENT), NULL);
	more_settings(e, c);
	if (c->history_days >= 0)
		snprintf(e->days, sizeof e->days, "%d", c->history_days);
	e->top[12] = top("history_days", e->days[0] ? e->days : NULL, STR(CACHE_HISTORY_DAYS),
			NULL);
	e->provider = calloc(adapter_count + 1, sizeof *e->provider);
	if (!e->provider)
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < adapter_count; i++)
		e->nprovider += (size_t)provider_settings(&e->provider[e->nprovider], adapters[i],
							  c);
	return GC_OK;
}

void config_effective_release(struct config_effective *e)
{
	free(e->provider);
	memset(e, 0, sizeof *e);
}

/* A JSON string of `s` (NULL: null), broken UTF-8 as '?': a new reference,
 * or NULL when out of memory. */
static json_t *text_json(const char *s)
{
	if (!s)
		return json_null();
	json_t *v = json_string(s);
	if (v)
		return v;
	size_t n = strlen(s) + 1;
	char *safe = malloc(n); /* jansson refused it: broken UTF-8, or out of memory */
	if (safe)
		v = json_string(str_sanitize(safe, n, s));
	free(safe);
	return v;
}

/* {value, from} of one setting: a new reference, or NULL. */
static json_t *setting_json(const struct config_setting *s)
{
	return json_pack("{s:o, s:s}", "value", text_json(s->value), "from", s->from);
}

json_t *config_effective_json(const struct config_effective *e)
{
	json_t *root = json_object(), *prov = json_object();
	int bad = !root || !prov;
	if (!bad) {
		bad |= json_object_set_new(root, "path", text_json(e->path));
		bad |= json_object_set_new(root, "found", json_boolean(e->found));
	}
	for (size_t i = 0; !bad && i < CONFIG_SHOWN_TOP; i++)
		bad |= json_object_set_new(root, e->top[i].key, setting_json(&e->top[i]));
	for (size_t i = 0; !bad && i < e->nprovider; i++) {
		const struct config_shown_provider *p = &e->provider[i];
		bad |= json_object_set_new(prov, p->id,
					   json_pack("{s:o, s:o}", "base_url",
						     setting_json(&p->base_url), "api_key",
						     setting_json(&p->api_key)));
	}
	if (bad) {
		json_decref(prov);
	} else if (json_object_set_new(root, "provider", prov) == 0) {
		return root;
	}
	json_decref(root);
	return NULL;
}
