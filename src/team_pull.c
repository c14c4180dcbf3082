/* team_pull.c - a published team snapshot into the cache (team.h,
 * docs/TEAM.md): fetch or read the manifest (conditionally), check its
 * format, signature and payload, then merge it per provider in one
 * transaction through cache_store, so that every write's bookkeeping
 * happens for a pull too. */
#include "gpucmp/team.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/fileio.h"
#include "gpucmp/import.h"
#include "gpucmp/strutil.h"

/* The pull of one source. */
struct pull {
	const struct team_pull_opts *o;
	char base[4096];  /* the URL or folder, without a trailing / or manifest.json */
	char shown[4096]; /* the base as shown and used as a key: credentials masked */
	int is_url;
	struct team_pull_result *r;
	json_t *manifest;
};

static enum gc_status fetch(struct pull *p, const char *url, size_t max, const char *inm,
			    const char *ims, struct http_got *g, char **err)
{
	struct http_opts ho = *p->o->http;
	if (!getenv("GPUCMP_HTTP_MAX_BYTES"))
		ho.max_body = max;
	struct http_request req;
	memset(&req, 0, sizeof req);
	req.url = url;
	req.label = "pull";
	req.if_none_match = inm;
	req.if_modified_since = ims;
	return http_get_one(&ho, &req, g, err);
}

/* The file `name` of the snapshot into *g (a URL's validators when
 * `conditional`); GC_OK with g->status saying what came. */
static enum gc_status get(struct pull *p, const char *name, size_t max, int conditional,
			  struct http_got *g, char **err)
{
	char where[4200];
	snprintf(where, sizeof where, "%s/%s", p->base, name);
	memset(g, 0, sizeof *g);
	if (!p->is_url) {
		enum gc_status st = file_read_all(where, max, &g->body, &g->len, err);
		g->status = st == GC_OK ? 200 : st == GC_ENOTFOUND ? 404 : 0;
		return st == GC_ENOTFOUND ? GC_OK : st;
	}
	char *inm = NULL, *ims = NULL;
	if (conditional) {
		char key[4300];
		snprintf(key, sizeof key, "pull.etag %s", p->shown);
		inm = cache_value_get(p->o->cache, key);
		snprintf(key, sizeof key, "pull.last_modified %s", p->shown);
		ims = cache_value_get(p->o->cache, key);
	}
	enum gc_status st = fetch(p, where, max, inm, ims, g, err);
	free(inm);
	free(ims);
	if (st == GC_OK && g->st != GC_OK && g->status != 404) {
		st = err_set(err, g->st, "%s; the cache is unchanged",
			     g->message ? g->message : "cannot fetch the snapshot");
	}
	return st;
}

/* The manifest's text as JSON of a format this build reads. */
static enum gc_status read_manifest(struct pull *p, const struct http_got *g, char **err)
{
	json_error_t je;
	p->manifest = json_loadb(g->body, g->len, 0, &je);
	json_t *m = p->manifest;
	const char *fmt = json_string_value(json_object_get(m, "format"));
	json_t *v = json_object_get(m, "version");
	if (!m || !fmt || strcmp(fmt, TEAM_FORMAT) != 0)
		return err_set(err, GC_EDATA, "%s/%s is not a gpucmp snapshot manifest; "
			       "the cache is unchanged", p->shown, TEAM_MANIFEST);
	if (!json_is_integer(v) || json_integer_value(v) != TEAM_VERSION)
		return err_set(err, GC_EDATA, "%s: unknown snapshot format version %s (this gpucmp "
			       "reads %d): upgrade gpucmp; the cache is unchanged", p->shown,
			       json_is_integer(v) ? "of a newer gpucmp" : "(none)", TEAM_VERSION);
	const char *at = json_string_value(json_object_get(m, "created_at"));
	snprintf(p->r->created_at, sizeof p->r->created_at, "%s", at ? at : "");
	return GC_OK;
}

static int trusted(const struct team_pull_opts *o, const char *key)
{
	for (size_t i = 0; key && i < o->ntrusted; i++)
		if (strcmp(o->trusted_keys[i], key) == 0)
			return 1;
	return 0;
}

/* With trusted keys set: the manifest's signature by one of them. */
static enum gc_status check_signature(struct pull *p, const struct http_got *m, char **err)
{
	if (!p->o->ntrusted)
		return GC_OK;
	struct http_got g;
	enum gc_status st = get(p, TEAM_SIGNATURE, 65536, 0, &g, err);
	json_t *sig = st == GC_OK && g.status == 200 ? json_loadb(g.body, g.len, 0, NULL) : NULL;
	const char *key = json_string_value(json_object_get(sig, "key"));
	const char *alg = json_string_value(json_object_get(sig, "algorithm"));
	char safe[64];
	if (st == GC_OK && g.status != 200)
		st = err_set(err, GC_EDATA, "%s is not signed (no %s) and trusted_keys asks for a "
			     "signature; the cache is unchanged", p->shown, TEAM_SIGNATURE);
	else if (st == GC_OK && (!key || !alg || strcmp(alg, "ed25519") != 0))
		st = err_set(err, GC_EDATA, "%s/%s is not an Ed25519 signature; the cache is "
			     "unchanged", p->shown, TEAM_SIGNATURE);
	else if (st == GC_OK && !trusted(p->o, key))
		st = err_set(err, GC_EDATA, "%s is signed by the unknown key %s (not in "
			     "trusted_keys); the cache is unchanged", p->shown,
			     str_sanitize(safe, sizeof safe, key));
	else if (st == GC_OK && !team_verify(key, json_string_value(json_object_get(sig,
			"signature")), m->body, m->len))
		st = err_set(err, GC_EDATA, "%s: the signature does not match the manifest "
			     "(tampered?); the cache is unchanged", p->shown);
	if (st == GC_OK)
		snprintf(p->r->key, sizeof p->r->key, "%s", key);
	json_decref(sig);
	http_got_release(&g);
	return st;
}

/* The payload, checked against the manifest and inflated into out. */
static enum gc_status read_payload(struct pull *p, struct buf *out, char **err)
{
	json_t *pl = json_object_get(p->manifest, "payload");
	const char *want = json_string_value(json_object_get(pl, "sha256"));
	json_t *bytes = json_object_get(pl, "bytes");
	if (!want || !json_is_integer(bytes) || json_integer_value(bytes) < 0)
		return err_set(err, GC_EDATA, "%s: the manifest names no payload sha256 and size; "
			       "the cache is unchanged", p->shown);
	size_t size = (size_t)json_integer_value(bytes);
	struct http_got g;
	enum gc_status st = get(p, TEAM_PAYLOAD, TEAM_MAX_PAYLOAD, 0, &g, err);
	char have[65] = "";
	if (st == GC_OK && g.status != 200)
		st = err_set(err, GC_EDATA, "%s: no %s next to the manifest; the cache is "
			     "unchanged", p->shown, TEAM_PAYLOAD);
	if (st == GC_OK && g.len != size)
		st = err_set(err, GC_EDATA, "%s: the payload has %zu bytes, the manifest says %zu "
			     "(cut short, or a publish in progress); the cache is unchanged",
			     p->shown, g.len, size);
	if (st == GC_OK)
		st = team_sha256(g.body, g.len, have, err);
	if (st == GC_OK && strcmp(have, want) != 0)
		st = err_set(err, GC_EDATA, "%s: the payload does not match the manifest's sha256 "
			     "(tampered, or a publish in progress); the cache is unchanged",
			     p->shown);
	p->r->payload_bytes = g.len;
	if (st == GC_OK)
		st = team_gunzip(g.body, g.len, out, err);
	http_got_release(&g);
	return st;
}

/* The payload's lines, read in order. */
struct lines {
	const char *p, *end;
	size_t line; /* of the last one read, from 1 */
};

/* The next line as JSON (a new reference), or NULL at the end (*st GC_OK)
 * or on a line that is not JSON (*st GC_EDATA). */
static json_t *next_line(struct lines *l, enum gc_status *st, char **err)
{
	*st = GC_OK;
	if (l->p >= l->end)
		return NULL;
	const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	size_t n = nl ? (size_t)(nl - l->p) : (size_t)(l->end - l->p);
	l->line++;
	json_t *j = json_loadb(l->p, n, 0, NULL);
	l->p += n + (nl != NULL);
	if (!j)
		*st = err_set(err, GC_EDATA, "payload line %zu is not JSON", l->line);
	return j;
}

/* One provider's group of lines: its record, then `offers` offer lines. */
struct group {
	struct lines *l;
	const char *provider;
	size_t offers;
};

/* cache_fill_fn: the group's offers through the door into the cache. */
static enum gc_status fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct group *g = arg;
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < g->offers; i++) {
		json_t *j = next_line(g->l, &st, err);
		struct offer o;
		int stale;
		if (!j && st == GC_OK)
			st = err_set(err, GC_EDATA, "the payload ends inside %s's offers",
				     g->provider);
		if (st == GC_OK)
			st = team_offer_read(j, &o, &stale, err);
		if (st == GC_OK && strcmp(o.provider, g->provider) != 0)
			st = err_set(err, GC_EDATA, "payload line %zu: an offer of '%s' among %s's",
				     g->l->line, o.provider, g->provider);
		if (st == GC_OK)
			st = offer_deliver(cb, ctx, &o, NULL, err);
		json_decref(j);
	}
	return st;
}

static enum gc_status skip(struct group *g, char **err)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < g->offers; i++) {
		json_t *j = next_line(g->l, &st, err);
		if (!j && st == GC_OK)
			st = err_set(err, GC_EDATA, "the payload ends inside %s's offers",
				     g->provider);
		json_decref(j);
	}
	return st;
}

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The provider record `rec` (a payload line) into t and *g. */
static enum gc_status read_record(json_t *rec, struct lines *l, struct team_provider *t,
				  struct group *g, char **err)
{
	const char *id = jstr(rec, "provider"), *type = jstr(rec, "type");
	json_t *n = json_object_get(rec, "offers");
	if (!type || strcmp(type, "provider") != 0 || !id || !import_valid_id(id) ||
	    !json_is_integer(n) || json_integer_value(n) < 0 || !jstr(rec, "source") ||
	    !jstr(rec, "fetched_at"))
		return err_set(err, GC_EDATA, "payload line %zu is not a provider record", l->line);
	memset(t, 0, sizeof *t);
	snprintf(t->id, sizeof t->id, "%s", id);
	const char *as_of = jstr(rec, "as_of");
	snprintf(t->as_of, sizeof t->as_of, "%s", as_of ? as_of : jstr(rec, "fetched_at"));
	t->offers = (size_t)json_integer_value(n);
	*g = (struct group){l, t->id, t->offers};
	return GC_OK;
}

/* Store or keep one provider as its dates and `force` say. */
static enum gc_status merge_one(struct cache *c, int force, json_t *rec, struct team_provider *t,
				struct group *g, char **err)
{
	enum gc_status st = cache_provider_as_of(c, t->id, t->local_as_of, sizeof t->local_as_of,
						 err);
	int cmp = t->local_as_of[0] ? strcmp(t->local_as_of, t->as_of) : -1;
	t->outcome = force || cmp < 0 ? TEAM_STORED : cmp > 0 ? TEAM_KEPT_NEWER
								    : TEAM_CURRENT;
	if (st != GC_OK || t->outcome != TEAM_STORED)
		return st == GC_OK ? skip(g, err) : st;
	int stale = json_is_true(json_object_get(rec, "stale"));
	struct cache_meta m = {jstr(rec, "source"), jstr(rec, "fetched_at"), NULL, NULL,
			       jstr(rec, "last_error"), stale, 0};
	cache_expect_rows(c, t->offers);
	st = cache_store(c, t->id, &m, fill, g, NULL, err);
	if (st != GC_OK)
		err_prefix(err, "%s", t->id);
	return st;
}

/* Every group of the payload (in the caller's transaction).  A pull
 * mirrors the publisher, whose own refresh ran the plausible-answer guard
 * against its previous data: here the dates decide, so min_keep_percent is
 * not applied again (a client still on the built-in snapshot's 391 lambda
 * rows took no team snapshot of lambda's real 20). */
static enum gc_status merge(struct cache *c, const char *data, size_t len, int force,
			    struct team_pull_result *r, char **err)
{
	cache_set_guard(c, force, 0);
	if (!data)
		data = "", len = 0;
	struct lines l = {data, data + len, 0};
	size_t cap = 0;
	enum gc_status st = GC_OK;
	json_t *rec;
	while (st == GC_OK && (rec = next_line(&l, &st, err)) != NULL) {
		struct group g;
		if (buf_grow_array(&r->providers, &cap, r->nproviders, sizeof *r->providers,
				   16) != GC_OK)
			st = err_set(err, GC_ENOMEM, "out of memory");
		struct team_provider *t = &r->providers[r->nproviders];
		if (st == GC_OK)
			st = read_record(rec, &l, t, &g, err);
		if (st == GC_OK && (st = merge_one(c, force, rec, t, &g, err)) == GC_OK)
			r->nproviders++;
		json_decref(rec);
	}
	return st;
}

enum gc_status team_merge(struct cache *c, const char *data, size_t len, int force,
			  struct team_pull_result *r, char **err)
{
	memset(r, 0, sizeof *r);
	enum gc_status st = cache_begin(c, err);
	if (st == GC_OK)
		st = cache_end(c, merge(c, data, len, force, r, err), err);
	if (st != GC_OK)
		team_pull_result_release(r);
	return st;
}

/* Keep a URL's manifest validators for the next pull. */
static enum gc_status keep_validators(struct pull *p, const struct http_got *g, char **err)
{
	if (!p->is_url)
		return GC_OK;
	char key[4300];
	const char *v[2] = {g->etag, g->last_modified};
	static const char *const names[2] = {"pull.etag", "pull.last_modified"};
	enum gc_status st = GC_OK;
	for (int i = 0; st == GC_OK && i < 2; i++) {
		snprintf(key, sizeof key, "%s %s", names[i], p->shown);
		st = cache_value_set(p->o->cache, key, v[i] && http_validator_ok(v[i]) ? v[i] : "",
				     err);
	}
	return st;
}

/* o->from without a trailing '/' or '/manifest.json', into p. */
static void set_base(struct pull *p, const char *from)
{
	p->is_url = strncmp(from, "http://", 7) == 0 || strncmp(from, "https://", 8) == 0;
	snprintf(p->base, sizeof p->base, "%s", from);
	size_t n = strlen(p->base), m = strlen("/" TEAM_MANIFEST);
	if (n > m && strcmp(p->base + n - m, "/" TEAM_MANIFEST) == 0)
		p->base[n -= m] = '\0';
	while (n > 1 && p->base[n - 1] == '/')
		p->base[--n] = '\0';
	if (p->is_url)
		http_url_redact(p->shown, sizeof p->shown, p->base, NULL);
	else
		snprintf(p->shown, sizeof p->shown, "%s", p->base);
}

/* The manifest: *g, and whether it came (0: 304, nothing to do). */
static enum gc_status get_manifest(struct pull *p, struct http_got *g, char **err)
{
	enum gc_status st = get(p, TEAM_MANIFEST, TEAM_MAX_MANIFEST, 1, g, err);
	if (st == GC_OK && g->status == 304)
		p->r->not_modified = 1;
	else if (st == GC_OK && g->status == 404)
		st = err_set(err, p->is_url ? GC_EDATA : GC_EUSAGE,
			     "no snapshot at %s (no %s; 'gpucmp export' writes one)", p->shown,
			     TEAM_MANIFEST);
	else if (st == GC_OK && g->status != 200)
		st = err_set(err, GC_EDATA, "%s/%s: HTTP %ld; the cache is unchanged", p->shown,
			     TEAM_MANIFEST, g->status);
	return st;
}

enum gc_status team_pull(const struct team_pull_opts *o, struct team_pull_result *r, char **err)
{
	memset(r, 0, sizeof *r);
	struct pull p;
	memset(&p, 0, sizeof p);
	p.o = o;
	p.r = r;
	set_base(&p, o->from);
	snprintf(r->from, sizeof r->from, "%s", p.shown);
	struct http_got m;
	struct buf data;
	buf_init(&data, TEAM_MAX_INFLATED);
	enum gc_status st = get_manifest(&p, &m, err);
	if (st == GC_OK && !r->not_modified) {
		st = read_manifest(&p, &m, err);
		if (st == GC_OK)
			st = check_signature(&p, &m, err);
		if (st == GC_OK)
			st = read_payload(&p, &data, err);
		if (st == GC_OK)
			st = cache_begin(o->cache, err);
		if (st == GC_OK) {
			st = merge(o->cache, data.ptr, data.len, o->force, r, err);
			if (st == GC_OK)
				st = keep_validators(&p, &m, err);
			st = cache_end(o->cache, st, err);
		}
	}
	http_got_release(&m);
	buf_free(&data);
	json_decref(p.manifest);
	if (st != GC_OK)
		team_pull_result_release(r);
	return st;
}

void team_pull_result_release(struct team_pull_result *r)
{
	free(r->providers);
	r->providers = NULL;
	r->nproviders = 0;
}

const char *team_outcome_name(enum team_outcome o)
{
	switch (o) {
	case TEAM_STORED:
		return "stored";
	case TEAM_CURRENT:
		return "current";
	case TEAM_KEPT_NEWER:
		return "kept-newer";
	}
	return "stored";
}
