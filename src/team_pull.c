/* team_pull.c - a published team snapshot into the cache (team.h,
 * docs/TEAM.md).  The network part first, with no lock held: the manifest
 * (conditionally, its size capped), its signature verified over its bytes
 * before they are parsed, then parsed under a value cap, the payload
 * fetched and checked against it, all under one deadline.  Then the store
 * part: the payload streamed line by line into the cache in one
 * transaction (team_merge.c), matched against the manifest. */
#include "gpucmp/team.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/adapter.h"
#include "gpucmp/fileio.h"
#include "gpucmp/import.h"
#include "gpucmp/strutil.h"

struct team_fetch {
	struct team_manifest m;
	char *payload; /* gzip, its size and sha256 the manifest's */
	size_t len;
	int is_url;
	char shown[4096];
	char *etag, *last_modified; /* the manifest's validators (a URL's) */
};

/* The pull of one source. */
struct pull {
	const struct team_pull_opts *o;
	char base[4096];  /* the URL or folder, without a trailing / or manifest.json */
	char shown[4096]; /* the base as shown and used as a key: credentials masked */
	int is_url;
	double deadline;  /* http_now() after which no request runs; 0 none */
	struct team_pull_result *r;
};

/* *err as "[<where>: ]<it>; the cache is unchanged". */
static enum gc_status unchanged_at(const char *where, enum gc_status st, char **err)
{
	if (!err || !*err)
		return st;
	char *it = *err;
	*err = NULL;
	err_set(err, st, "%s%s%s; the cache is unchanged", where ? where : "", where ? ": " : "",
		it);
	free(it);
	return st;
}

static enum gc_status unchanged(enum gc_status st, char **err)
{
	return unchanged_at(NULL, st, err);
}

static enum gc_status fetch(struct pull *p, const char *url, size_t max, const char *inm,
			    const char *ims, struct http_got *g, char **err)
{
	struct http_opts ho = *p->o->http;
	if (!ho.max_body || ho.max_body > max)
		ho.max_body = max;
	struct http_request req;
	memset(&req, 0, sizeof req);
	req.url = url;
	req.label = "pull";
	req.if_none_match = inm;
	req.if_modified_since = ims;
	req.deadline = p->deadline;
	return http_get_one(&ho, &req, g, err);
}

/* A transfer that failed, in words: an HTTP error status or the server
 * down is GC_EUNAVAILABLE, the deadline named with its option. */
static enum gc_status fetch_failed(const struct pull *p, const struct http_got *g, char **err)
{
	enum gc_status st = g->status >= 400 ? GC_EUNAVAILABLE : g->st;
	const char *m = g->message ? g->message : "cannot fetch the snapshot";
	/* the transfer's own word first: curl's clamped timeout can end a
	 * hair before the clock reaches the deadline */
	if (g->past_deadline || (p->deadline > 0 && http_now() >= p->deadline))
		return err_set(err, st, "%s (the pull's deadline of %g s; raise it with "
			       "--deadline); the cache is unchanged", m, p->o->deadline_s);
	return err_set(err, st, "%s; the cache is unchanged", m);
}

/* The file `name` of the snapshot (at most max bytes) into *g (a URL's
 * stored validators sent when `conditional`: *validated says whether any
 * was); GC_OK with g->status saying what came: 200, 304, or 404. */
static enum gc_status get(struct pull *p, const char *name, size_t max, int conditional,
			  struct http_got *g, int *validated, char **err)
{
	char where[4200];
	snprintf(where, sizeof where, "%s/%s", p->base, name);
	memset(g, 0, sizeof *g);
	if (validated)
		*validated = 0;
	if (!p->is_url) {
		enum gc_status st = file_read_all(where, max, &g->body, &g->len, err);
		g->status = st == GC_OK ? 200 : st == GC_ENOTFOUND ? 404 : 0;
		if (st == GC_ENOTFOUND)
			return GC_OK;
		return st == GC_OK ? st : unchanged(st, err); /* the message names the file */
	}
	char *inm = NULL, *ims = NULL;
	if (conditional) {
		char key[4300];
		snprintf(key, sizeof key, "pull.etag %s", p->shown);
		inm = cache_value_get(p->o->cache, key);
		snprintf(key, sizeof key, "pull.last_modified %s", p->shown);
		ims = cache_value_get(p->o->cache, key);
		/* only what http_add sends: a 304 answers nothing else */
		if (validated)
			*validated = http_validator_ok(inm) || http_validator_ok(ims);
	}
	enum gc_status st = fetch(p, where, max, inm, ims, g, err);
	free(inm);
	free(ims);
	if (st == GC_OK && g->st != GC_OK && g->status != 404)
		st = fetch_failed(p, g, err);
	return st;
}

/* The manifest's bytes into *g, and whether they came (r->not_modified:
 * a 304 to the validators sent). */
static enum gc_status get_manifest(struct pull *p, struct http_got *g, char **err)
{
	int validated;
	enum gc_status st = get(p, TEAM_MANIFEST, TEAM_MAX_MANIFEST, 1, g, &validated, err);
	if (st == GC_OK && g->status == 304 && validated)
		p->r->not_modified = 1;
	else if (st == GC_OK && g->status == 304)
		/* nothing was asked: a 304 cannot say the cache holds this snapshot */
		st = err_set(err, GC_EUNAVAILABLE, "%s/%s: HTTP 304 Not Modified to a request "
			     "without a validator (a broken server or proxy?); the cache is "
			     "unchanged", p->shown, TEAM_MANIFEST);
	else if (st == GC_OK && g->status == 404)
		st = err_set(err, p->is_url ? GC_EUNAVAILABLE : GC_EUSAGE,
			     "no snapshot at %s (no %s; 'gpucmp export' writes one)", p->shown,
			     TEAM_MANIFEST);
	else if (st == GC_OK && g->status != 200)
		st = err_set(err, GC_EUNAVAILABLE, "%s/%s: HTTP %ld; the cache is unchanged",
			     p->shown, TEAM_MANIFEST, g->status);
	return st;
}

static int trusted(const struct team_pull_opts *o, const char *key)
{
	for (size_t i = 0; key && i < o->ntrusted; i++)
		if (strcmp(o->trusted_keys[i], key) == 0)
			return 1;
	return 0;
}

/* A signature file's text (parsed under its cap) by a trusted key over
 * the manifest's bytes m: GC_OK with the key into p->r->key. */
static enum gc_status verify(struct pull *p, const struct http_got *s, const struct http_got *m,
			     char **err)
{
	json_t *sig = NULL;
	enum gc_status st = adapter_json_capped(s->body, s->len, TEAM_SIGNATURE_MAX_VALUES,
						JSON_REJECT_DUPLICATES, &sig, err);
	const char *key = json_string_value(json_object_get(sig, "key"));
	const char *alg = json_string_value(json_object_get(sig, "algorithm"));
	const char *text = json_string_value(json_object_get(sig, "signature"));
	char safe[64];
	if (st == GC_ENOMEM)
		return st;
	if (st != GC_OK || !key || !alg || !text || strcmp(alg, "ed25519") != 0)
		st = err_set(err, GC_EDATA, "%s/%s is not an Ed25519 signature; the cache is "
			     "unchanged", p->shown, TEAM_SIGNATURE);
	else if (!trusted(p->o, key))
		st = err_set(err, GC_EDATA, "%s is signed by the unknown key %s (not in "
			     "trusted_keys); the cache is unchanged", p->shown,
			     str_sanitize(safe, sizeof safe, key));
	else if (!team_verify(key, text, m->body, m->len))
		st = err_set(err, GC_EDATA, "%s: the signature does not match the manifest "
			     "(tampered?); the cache is unchanged", p->shown);
	if (st == GC_OK)
		snprintf(p->r->key, sizeof p->r->key, "%s", key);
	json_decref(sig);
	return st;
}

/* With trusted keys set: the manifest's bytes m signed by one of them,
 * checked before anything parses them. */
static enum gc_status check_signature(struct pull *p, const struct http_got *m, char **err)
{
	if (!p->o->ntrusted)
		return GC_OK;
	/* team_verify answers yes or no: without libcrypto it would say
	 * "tampered" where the truth is what to install */
	enum gc_status st = team_crypto_load(err);
	if (st != GC_OK)
		return st;
	struct http_got g;
	st = get(p, TEAM_SIGNATURE, TEAM_MAX_SIGNATURE, 0, &g, NULL, err);
	if (st == GC_OK && g.status != 200)
		st = err_set(err, GC_EDATA, "%s is not signed (no %s) and trusted_keys asks for a "
			     "signature; the cache is unchanged", p->shown, TEAM_SIGNATURE);
	else if (st == GC_OK)
		st = verify(p, &g, m, err);
	http_got_release(&g);
	return st;
}

/* The payload's bytes, checked against the manifest, into f. */
static enum gc_status get_payload(struct pull *p, struct team_fetch *f, char **err)
{
	size_t size = f->m.payload_bytes;
	if (size > TEAM_MAX_PAYLOAD)
		return err_set(err, GC_EDATA, "%s: the manifest names a payload of %zu bytes, more "
			       "than a pull takes (%zu); the cache is unchanged", p->shown, size,
			       TEAM_MAX_PAYLOAD);
	struct http_got g;
	enum gc_status st = get(p, TEAM_PAYLOAD, size, 0, &g, NULL, err);
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
	if (st == GC_OK && strcmp(have, f->m.sha256) != 0)
		st = err_set(err, GC_EDATA, "%s: the payload does not match the manifest's sha256 "
			     "(tampered, or a publish in progress); the cache is unchanged",
			     p->shown);
	p->r->payload_bytes = g.len;
	if (st == GC_OK) {
		f->payload = g.body;
		f->len = g.len;
		g.body = NULL;
	}
	http_got_release(&g);
	return st;
}

/* "%XX" escapes of a file:// URL's path decoded into out: 0, or -1 for
 * a bad escape, a NUL or a path too long. */
static int unescape(const char *s, char *out, size_t n)
{
	size_t o = 0;
	for (; *s; s++) {
		int c = (unsigned char)*s;
		if (c == '%') {
			unsigned v = 0;
			for (int i = 1; i <= 2; i++) {
				int h = s[i];
				int d = h >= '0' && h <= '9' ? h - '0'
				      : h >= 'a' && h <= 'f' ? h - 'a' + 10
				      : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
				if (d < 0)
					return -1;
				v = v * 16 + (unsigned)d;
			}
			if (!v)
				return -1;
			c = (int)v;
			s += 2;
		}
		if (o + 1 >= n)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

/* Does s start with a URL scheme ("name://")?  Its length, else 0. */
static size_t scheme_len(const char *s)
{
	size_t n = 0;
	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
	       (n && ((s[n] >= '0' && s[n] <= '9') || s[n] == '+' || s[n] == '-' || s[n] == '.')))
		n++;
	return n && strncmp(s + n, "://", 3) == 0 ? n : 0;
}

/* o->from into p: an http(s) URL, a file:// URL's path or a folder,
 * without a trailing '/' or '/manifest.json'. */
static enum gc_status set_base(struct pull *p, const char *from, char **err)
{
	size_t sl = scheme_len(from);
	char safe[96];
	p->is_url = (sl == 4 && strncasecmp(from, "http", 4) == 0) ||
		    (sl == 5 && strncasecmp(from, "https", 5) == 0);
	if (sl == 4 && strncasecmp(from, "file", 4) == 0) {
		const char *path = from + 7;
		if (strncasecmp(path, "localhost/", 10) == 0)
			path += 9;
		if (*path != '/' || unescape(path, p->base, sizeof p->base) != 0)
			return err_set(err, GC_EUSAGE, "'%s' is not a file:// URL of a local "
				       "folder (file:///path/to/folder)",
				       str_sanitize(safe, sizeof safe, from));
	} else if (sl && !p->is_url) {
		return err_set(err, GC_EUSAGE, "cannot pull from '%s': a snapshot is an http:// "
			       "or https:// URL, a file:// URL or a folder",
			       str_sanitize(safe, sizeof safe, from));
	} else {
		snprintf(p->base, sizeof p->base, "%s", from);
	}
	size_t n = strlen(p->base), m = strlen("/" TEAM_MANIFEST);
	if (n > m && strcmp(p->base + n - m, "/" TEAM_MANIFEST) == 0)
		p->base[n -= m] = '\0';
	while (n > 1 && p->base[n - 1] == '/')
		p->base[--n] = '\0';
	if (p->is_url)
		http_url_redact(p->shown, sizeof p->shown, p->base, NULL);
	else
		snprintf(p->shown, sizeof p->shown, "%s", p->base);
	return GC_OK;
}

/* The manifest's format and version: GC_OK when this build reads it. */
static enum gc_status check_version(json_t *j, char **err)
{
	const char *fmt = json_string_value(json_object_get(j, "format"));
	json_t *v = json_object_get(j, "version");
	if (!json_is_object(j) || !fmt || strcmp(fmt, TEAM_FORMAT) != 0)
		return err_set(err, GC_EDATA, "not a gpucmp snapshot manifest");
	json_int_t n = json_integer_value(v);
	if (json_is_integer(v) && n == TEAM_VERSION)
		return GC_OK;
	if (json_is_integer(v) && n > TEAM_VERSION)
		return err_set(err, GC_EDATA, "snapshot format version %" JSON_INTEGER_FORMAT " is "
			       "of a newer gpucmp (this one reads version %d): upgrade gpucmp", n,
			       TEAM_VERSION);
	char shown[32] = "(none)";
	if (json_is_integer(v))
		snprintf(shown, sizeof shown, "%" JSON_INTEGER_FORMAT, n);
	else if (v)
		snprintf(shown, sizeof shown, "(not a whole number)");
	return err_set(err, GC_EDATA, "unknown snapshot format version %s (this gpucmp reads "
		       "version %d)", shown, TEAM_VERSION);
}

/* The payload's size and sha256 into m. */
static enum gc_status read_payload_entry(json_t *j, struct team_manifest *m, char **err)
{
	json_t *pl = json_object_get(j, "payload");
	const char *sum = json_string_value(json_object_get(pl, "sha256"));
	json_t *bytes = json_object_get(pl, "bytes");
	if (!sum || strlen(sum) != 64 || strspn(sum, "0123456789abcdef") != 64 ||
	    !json_is_integer(bytes) || json_integer_value(bytes) < 1)
		return err_set(err, GC_EDATA, "the manifest names no payload sha256 and size");
	snprintf(m->sha256, sizeof m->sha256, "%s", sum);
	m->payload_bytes = (size_t)json_integer_value(bytes);
	const char *at = json_string_value(json_object_get(j, "created_at"));
	snprintf(m->created_at, sizeof m->created_at, "%s", at ? at : "");
	return GC_OK;
}

/* The manifest's providers, each once, adding up to its `offers`. */
static enum gc_status read_providers(json_t *j, struct team_manifest *m, char **err)
{
	json_t *list = json_object_get(j, "providers"), *total = json_object_get(j, "offers");
	if (!json_is_array(list) || !json_is_integer(total) || json_integer_value(total) < 0)
		return err_set(err, GC_EDATA, "the manifest lists no providers and offer count");
	size_t n = json_array_size(list), sum = 0;
	if (!(m->providers = calloc(n ? n : 1, sizeof *m->providers)))
		return err_set(err, GC_ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(list, i), *c = json_object_get(e, "offers");
		const char *id = json_string_value(json_object_get(e, "provider"));
		json_int_t k = json_integer_value(c);
		if (!id || !import_valid_id(id) || !json_is_integer(c) || k < 0 ||
		    (json_int_t)TEAM_MAX_INFLATED < k)
			return err_set(err, GC_EDATA, "the manifest's provider #%zu has no valid "
				       "id and offer count", i + 1);
		for (size_t x = 0; x < i; x++)
			if (strcmp(m->providers[x].id, id) == 0)
				return err_set(err, GC_EDATA, "the manifest lists provider '%s' "
					       "twice", id);
		snprintf(m->providers[i].id, sizeof m->providers[i].id, "%s", id);
		m->providers[i].offers = (size_t)k;
		m->nproviders++;
		sum += (size_t)k;
	}
	if ((json_int_t)sum != json_integer_value(total))
		return err_set(err, GC_EDATA, "the manifest's providers hold %zu offers, its total "
			       "says %" JSON_INTEGER_FORMAT, sum, json_integer_value(total));
	m->offers = sum;
	return GC_OK;
}

enum gc_status team_manifest_read(const char *text, size_t len, struct team_manifest *m,
				  char **err)
{
	memset(m, 0, sizeof *m);
	json_t *j = NULL;
	enum gc_status st = len > TEAM_MAX_MANIFEST
		? err_set(err, GC_EDATA, "larger than %zu bytes (a manifest is a few KB)",
			  TEAM_MAX_MANIFEST)
		: adapter_json_capped(text, len, TEAM_MANIFEST_MAX_VALUES, JSON_REJECT_DUPLICATES,
				      &j, err);
	if (st == GC_OK)
		st = check_version(j, err);
	if (st == GC_OK)
		st = read_payload_entry(j, m, err);
	if (st == GC_OK)
		st = read_providers(j, m, err);
	json_decref(j);
	if (st != GC_OK)
		team_manifest_release(m);
	return st;
}

void team_manifest_release(struct team_manifest *m)
{
	free(m->providers);
	m->providers = NULL;
	m->nproviders = 0;
}

/* Manifest, signature, manifest parsed, payload: into f. */
static enum gc_status fetch_all(struct pull *p, struct team_fetch *f, char **err)
{
	struct http_got m;
	enum gc_status st = get_manifest(p, &m, err);
	if (st == GC_OK && !p->r->not_modified)
		st = check_signature(p, &m, err);
	if (st == GC_OK && !p->r->not_modified) {
		char where[4200];
		snprintf(where, sizeof where, "%s/%s", p->shown, TEAM_MANIFEST);
		st = team_manifest_read(m.body, m.len, &f->m, err);
		if (st != GC_OK)
			st = unchanged_at(where, st, err);
	}
	if (st == GC_OK && !p->r->not_modified) {
		snprintf(p->r->created_at, sizeof p->r->created_at, "%s", f->m.created_at);
		st = get_payload(p, f, err);
	}
	f->etag = m.etag;
	f->last_modified = m.last_modified;
	m.etag = m.last_modified = NULL;
	http_got_release(&m);
	return st;
}

enum gc_status team_pull_fetch(const struct team_pull_opts *o, struct team_pull_result *r,
			       struct team_fetch **out, char **err)
{
	memset(r, 0, sizeof *r);
	*out = NULL;
	struct pull p;
	memset(&p, 0, sizeof p);
	p.o = o;
	p.r = r;
	p.deadline = o->deadline_s > 0 ? http_now() + o->deadline_s : 0;
	struct team_fetch *f = calloc(1, sizeof *f);
	if (!f)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum gc_status st = set_base(&p, o->from, err);
	snprintf(r->from, sizeof r->from, "%s", st == GC_OK ? p.shown : "");
	f->is_url = p.is_url;
	snprintf(f->shown, sizeof f->shown, "%s", p.shown);
	if (st == GC_OK)
		st = fetch_all(&p, f, err);
	if (st != GC_OK || r->not_modified) {
		team_fetch_free(f);
		return st;
	}
	*out = f;
	return GC_OK;
}

/* Keep a URL's manifest validators for the next pull. */
static enum gc_status keep_validators(struct cache *c, const struct team_fetch *f, char **err)
{
	if (!f->is_url)
		return GC_OK;
	char key[4300];
	const char *v[2] = {f->etag, f->last_modified};
	static const char *const names[2] = {"pull.etag", "pull.last_modified"};
	enum gc_status st = GC_OK;
	for (int i = 0; st == GC_OK && i < 2; i++) {
		snprintf(key, sizeof key, "%s %s", names[i], f->shown);
		st = cache_value_set(c, key, v[i] && http_validator_ok(v[i]) ? v[i] : "", err);
	}
	return st;
}

enum gc_status team_pull_store(const struct team_pull_opts *o, struct team_fetch *f,
			       struct team_pull_result *r, char **err)
{
	struct team_lines *l = NULL;
	enum gc_status st = team_lines_open(&l, f->payload, f->len, 1, err);
	if (st == GC_OK)
		st = cache_begin(o->cache, err);
	if (st == GC_OK) {
		st = team_merge_lines(o->cache, l, &f->m, o->force, r, err);
		if (st == GC_EDATA)
			st = unchanged_at(f->shown, st, err);
		if (st == GC_OK)
			st = keep_validators(o->cache, f, err);
		st = cache_end(o->cache, st, err);
	}
	team_lines_close(l);
	if (st != GC_OK)
		team_pull_result_release(r);
	return st;
}

void team_fetch_free(struct team_fetch *f)
{
	if (!f)
		return;
	team_manifest_release(&f->m);
	free(f->payload);
	free(f->etag);
	free(f->last_modified);
	free(f);
}

enum gc_status team_pull(const struct team_pull_opts *o, struct team_pull_result *r, char **err)
{
	struct team_fetch *f = NULL;
	enum gc_status st = team_pull_fetch(o, r, &f, err);
	if (st == GC_OK && f)
		st = team_pull_store(o, f, r, err);
	team_fetch_free(f);
	return st;
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
