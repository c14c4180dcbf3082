/* refresh_plan.c - which providers a refresh takes, and from which tier
 * (docs/REFRESH.md, "Tiers"), decided before any I/O; the credentials and
 * base URLs it decides by. */
#include "gpucmp/refresh.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/config.h"
#include "gpucmp/strutil.h"

/* Credentials and base URLs: the environment, then the config file
 * (docs/REFRESH.md); the plan and refresh.c read them. */
void refresh_env_name(const struct adapter *ad, const char *suffix, char *out, size_t n)
{
	size_t j = (size_t)snprintf(out, n, "GPUCMP_");
	for (const char *p = ad->id; *p && j + 1 < n; p++)
		out[j++] = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
	snprintf(out + j, n > j ? n - j : 0, "_%s", suffix);
}

static const char *env_nonempty(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

const char *refresh_key(const struct adapter *ad, const struct config *cfg, char *from,
			size_t n)
{
	char name[96];
	refresh_env_name(ad, "API_KEY", name, sizeof name);
	const char *v = env_nonempty(name);
	for (size_t i = 0; !v && ad->key_envs && ad->key_envs[i]; i++)
		if ((v = env_nonempty(ad->key_envs[i])))
			snprintf(name, sizeof name, "%s", ad->key_envs[i]);
	if (!v && (v = config_api_key(cfg, ad->id)))
		snprintf(name, sizeof name, "config");
	if (from && n)
		snprintf(from, n, "%s", v ? name : "");
	return v;
}

const char *refresh_base_url(const struct adapter *ad, const struct config *cfg, char *from,
			     size_t n)
{
	char name[96];
	refresh_env_name(ad, "BASE_URL", name, sizeof name);
	const char *v = env_nonempty(name);
	if (!v && (v = config_base_url(cfg, ad->id)))
		snprintf(name, sizeof name, "config");
	if (from && n)
		snprintf(from, n, "%s", v ? name : "");
	return v;
}

/* The id of the live adapter or hosted catalog `name` names, or NULL. */
static const char *source_id(const char *name)
{
	const struct adapter *ad = adapter_find(name);
	const struct hosted_map *hm = hosted_find(name);
	return ad ? ad->id : hm ? hm->id : NULL;
}

static const char *nearest_id(const char *name)
{
	struct suggest s;
	suggest_init(&s, name);
	for (size_t k = 0; k < adapter_count; k++)
		suggest_try(&s, adapters[k]->id);
	for (size_t k = 0; k < hosted_map_count; k++)
		suggest_try(&s, hosted_maps[k].id);
	return suggest_best(&s);
}

static void add_once(const char **out, size_t max, size_t *n, const char *id)
{
	for (size_t k = 0; k < *n; k++)
		if (strcmp(out[k], id) == 0)
			return;
	if (*n < max)
		out[(*n)++] = id;
}

enum refresh_pick refresh_pick(const char *const *args, size_t nargs,
			       const struct profile_set *ps, const struct config *cfg,
			       const char **out, size_t max, size_t *nout, size_t *bad,
			       const char **best)
{
	*nout = 0;
	*best = NULL;
	for (size_t i = 0; i < nargs; i++) {
		const char *id = source_id(args[i]);
		*bad = i;
		if (!id && profile_set_find(ps, args[i]))
			return REFRESH_PICK_NO_SOURCE;
		if (!id) {
			*best = nearest_id(args[i]);
			return REFRESH_PICK_UNKNOWN;
		}
		add_once(out, max, nout, id);
	}
	/* no IDs: the config's enabled providers (checked ids), else all */
	for (size_t i = 0; !nargs && cfg && i < cfg->nproviders && i < max; i++)
		if (source_id(cfg->providers[i]))
			out[(*nout)++] = cfg->providers[i];
	return REFRESH_PICK_OK;
}

enum refresh_tiers refresh_tiers(struct refresh_opts *o, int no_catalog, int catalog_only,
				 const struct config *cfg)
{
	int catalog_on = !no_catalog && config_catalog_enabled(cfg);
	o->no_catalog = !catalog_on;
	o->catalog_only = catalog_only;
	if (!catalog_only || catalog_on)
		return REFRESH_TIERS_OK;
	return no_catalog ? REFRESH_TIERS_FLAG_OFF : REFRESH_TIERS_CONFIG_OFF;
}

enum gc_status refresh_env_caps(struct refresh_opts *o, char **err)
{
	static const struct {
		const char *name;
		size_t min;
	} caps[] = {{"GPUCMP_REFRESH_MAX_OFFERS", 1},
		    {"GPUCMP_REFRESH_MAX_BYTES", 1024},
		    {"GPUCMP_REFRESH_MAX_JSON_VALUES", 1000}};
	size_t *slots[] = {&o->max_offers, &o->max_bytes, &o->max_json_values};
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		const char *e = getenv(caps[i].name);
		long n;
		if (!e || !*e)
			continue;
		if (str_to_long(e, &n) != 0 || n < (long)caps[i].min)
			return err_set(err, GC_EUSAGE, "bad %s: expected a whole number, "
				       "at least %zu", caps[i].name, caps[i].min);
		*slots[i] = (size_t)n;
	}
	return GC_OK;
}

/* Why a live adapter cannot run: it needs a key and none is set; "" when it can. */
static void live_blocked(const struct adapter *ad, const char *key, char *why, size_t n)
{
	*why = '\0';
	if (ad->auth != ADAPTER_AUTH_REQUIRED || key)
		return;
	char name[96];
	refresh_env_name(ad, "API_KEY", name, sizeof name);
	int more = ad->key_envs && ad->key_envs[0];
	snprintf(why, n, "needs an API key: set %s%s%s", name, more ? " or " : "",
		 more ? ad->key_envs[0] : "");
}

/* "set GPUCMP_<ID>_API_KEY (or <usual variable>, or api_key in the config file)". */
static void key_hint(const struct adapter *ad, char *out, size_t n)
{
	char name[96];
	refresh_env_name(ad, "API_KEY", name, sizeof name);
	int more = ad->key_envs && ad->key_envs[0];
	snprintf(out, n, "set %s (or %s%sapi_key in the config file)", name,
		 more ? ad->key_envs[0] : "", more ? ", or " : "");
}

/* Neither live nor from a catalog: why, into p (skip and note). */
static void plan_skip(const struct adapter *ad, const char *why, enum hosted_kind k,
		      struct refresh_plan *p)
{
	const char *tail = k != HOSTED_NONE ? "the hosted catalog tier is off"
			 : "no hosted catalog covers it";
	p->skip = *why ? REFRESH_NO_KEY : REFRESH_NO_SOURCE;
	if (*why)
		key_hint(ad, p->hint, sizeof p->hint);
	if (*why && p->named)
		snprintf(p->note, sizeof p->note, "needs an API key: %s", p->hint);
	else if (*why)
		snprintf(p->note, sizeof p->note, "skipped: no key: %s; %s", p->hint, tail);
	else
		snprintf(p->note, sizeof p->note,
			 "no live price API in gpucmp and %s; 'gpucmp import' loads a "
			 "catalog for it",
			 tail);
}

void refresh_plan_one(const struct refresh_opts *o, const char *id, struct refresh_plan *p)
{
	const struct config *cfg = o->config;
	const struct adapter *ad = o->catalog_only ? NULL : adapter_find(id);
	int catalog_on = !o->no_catalog && config_catalog_enabled(cfg);
	enum hosted_kind k = hosted_kind_for(id);
	char why[256] = "";
	memset(p, 0, sizeof *p);
	p->id = id;
	p->named = o->ids != NULL;
	p->key = ad ? refresh_key(ad, cfg, NULL, 0) : NULL;
	if (ad)
		live_blocked(ad, p->key, why, sizeof why);
	if (ad && !*why) {
		p->live = ad;
		p->fallback = catalog_on ? k : HOSTED_NONE;
		return;
	}
	p->key = NULL;
	if (catalog_on && k != HOSTED_NONE) {
		p->catalog = k;
		snprintf(p->note, sizeof p->note, "from the %s catalog (%s)", hosted_kind_name(k),
			 *why ? why : o->catalog_only ? "--catalog-only"
						 : "no live price API in gpucmp");
		return;
	}
	plan_skip(ad, why, k, p);
}

static int id_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The providers of a run: the caller's, else every one with a live
 * adapter or (the tier on) a hosted catalog, sorted, once each. */
static const char **run_ids(const struct refresh_opts *opts, size_t *n)
{
	size_t cap = opts->ids ? opts->nids : opts->only ? opts->nonly
		   : adapter_count + hosted_map_count;
	const char **ids = calloc(cap ? cap : 1, sizeof *ids);
	*n = 0;
	if (!ids)
		return NULL;
	if (opts->ids) {
		for (size_t i = 0; i < opts->nids; i++)
			ids[(*n)++] = opts->ids[i];
		return ids;
	}
	if (opts->only) {
		for (size_t i = 0; i < opts->nonly; i++)
			ids[(*n)++] = opts->only[i]->id;
		return ids;
	}
	for (size_t i = 0; !opts->catalog_only && i < adapter_count; i++)
		ids[(*n)++] = adapters[i]->id;
	int catalog_on = !opts->no_catalog && config_catalog_enabled(opts->config);
	for (size_t i = 0; catalog_on && i < hosted_map_count; i++)
		if (hosted_kind_for(hosted_maps[i].id) != HOSTED_NONE &&
		    (opts->catalog_only || !adapter_find(hosted_maps[i].id)))
			ids[(*n)++] = hosted_maps[i].id;
	qsort(ids, *n, sizeof *ids, id_cmp);
	return ids;
}

enum gc_status refresh_plan(const struct refresh_opts *o, struct refresh_plan **plan, size_t *n,
			    char **err)
{
	size_t count = 0;
	const char **ids = run_ids(o, &count);
	*plan = ids ? calloc(count ? count : 1, sizeof **plan) : NULL;
	*n = 0;
	if (!*plan) {
		free(ids);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < count; i++)
		refresh_plan_one(o, ids[i], &(*plan)[i]);
	free(ids);
	*n = count;
	return GC_OK;
}
