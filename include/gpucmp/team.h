/* team.h - team snapshots: one refreshed cache published for everyone
 * (docs/TEAM.md).
 *
 * `gpucmp export DIR` writes DIR/offers.ndjson.gz (the payload: one JSON
 * object per line, gzip without a time or a name, so the same cache gives
 * the same bytes), DIR/manifest.json (format version, created_at, each
 * provider's refresh record, as_of and offer count, the payload's size and
 * SHA-256) and, signed, DIR/manifest.sig (Ed25519 over the manifest's
 * bytes, with the signer's public key).  `gpucmp refresh --from URL|DIR`
 * fetches the manifest conditionally, checks the signature against the
 * trusted keys, the payload against the manifest, and merges it per
 * provider in one transaction through cache_store.
 *
 * Formats: team_fmt.c; export: team_export.c; pull: team_pull.c (fetch
 * and check) and team_merge.c (the payload, streamed line by line, into
 * the cache); their JSON answers: team_json.c.
 */
#ifndef GPUCMP_TEAM_H
#define GPUCMP_TEAM_H

#include <stddef.h>

#include "gpucmp/buf.h"
#include "gpucmp/cache.h"
#include "gpucmp/err.h"
#include "gpucmp/http.h"
#include "gpucmp/offer.h"
#include "gpucmp/page.h"

struct json_t;

#define TEAM_FORMAT "gpucmp-snapshot"
#define TEAM_VERSION 1
#define TEAM_MANIFEST "manifest.json"
#define TEAM_PAYLOAD "offers.ndjson.gz"
#define TEAM_SIGNATURE "manifest.sig"
#define TEAM_PAGE "index.html"
/* What a pull reads at most (docs/TEAM.md, "Limits").  A real manifest
 * is a few KB (200 bytes a provider) and a signature 150 bytes: both
 * are refused past their caps before a byte of them is parsed.  The
 * payload is held compressed (1.3 MB for 10^5 offers), inflated as it is
 * read, never whole: a line at most TEAM_MAX_LINE bytes (a real one is
 * about 600), the whole at most TEAM_MAX_INFLATED (the time a pull may
 * take; its memory does not grow with it).  Every line and the manifest
 * are parsed under a cap on their JSON values (adapter_json_capped: an
 * offer line weighs about 160, a manifest about 45 a provider). */
#define TEAM_MAX_MANIFEST ((size_t)64 << 10)
#define TEAM_MAX_SIGNATURE ((size_t)4 << 10)
#define TEAM_MAX_PAYLOAD ((size_t)64 << 20)
#define TEAM_MAX_INFLATED ((size_t)2 << 30)
#define TEAM_MAX_LINE ((size_t)64 << 10)
#define TEAM_MANIFEST_MAX_VALUES ((size_t)32768)
#define TEAM_SIGNATURE_MAX_VALUES ((size_t)64)
#define TEAM_LINE_MAX_VALUES ((size_t)4096)
/* An Ed25519 public key in base64 (44 characters) and a NUL. */
enum { TEAM_KEY_LEN = 45 };

/* --- team_fmt.c: the pieces of the format --- */

/* libcrypto (OpenSSL 3), loaded on first use: hashing, signing and
 * checking a snapshot need it, nothing else does.  The functions below
 * load it themselves; GC_EUNAVAILABLE "cannot load libcrypto ...: install
 * libssl3 to sign or verify team snapshots" when it is not installed. */
enum gc_status team_crypto_load(char **err);

/* SHA-256 of data as 64 lowercase hex digits and a NUL into hex. */
enum gc_status team_sha256(const void *data, size_t len, char hex[65], char **err);
/* SHA-256 over pieces: begin (GC_EUNAVAILABLE, GC_ENOMEM), add each, then
 * end, which frees h and puts the digest into hex: 0, or -1 when a piece
 * failed (h NULL: -1). */
struct team_hash;
enum gc_status team_hash_begin(struct team_hash **h, char **err);
void team_hash_add(struct team_hash *h, const void *data, size_t len);
int team_hash_end(struct team_hash *h, char hex[65]);

/* One offer (with its stale flag) as a payload line's object: a new
 * reference, or NULL when memory ran out.  Unknown values are left out. */
struct json_t *team_offer_json(const struct offer *o, int stale);
/* A payload object as an offer: its strings borrowed from `obj`; *stale.
 * GC_EDATA with the message when a required field (provider, sku,
 * gpu_name, region, source, fetched_at, gpu_count) is missing or any field
 * has the wrong type. */
enum gc_status team_offer_read(struct json_t *obj, struct offer *o, int *stale, char **err);

/* An offer's `origin` as an export publishes it, into out (size n): a
 * URL with its credentials masked (http_url_redact), a local path (or a
 * file: URL) as its last component only ("vms.csv"), never the folders
 * above it (the publisher's home, their user name).  NULL for no origin
 * (or none left), else out.  The same for what it returns, so a pulled
 * cache exports the same bytes. */
const char *team_public_origin(const char *origin, char *out, size_t n);

/* A new Ed25519 key pair: the private key (PEM, PKCS#8) written to path
 * (created 0600 whatever the umask, never over an existing file nor
 * through a link: GC_EIO) and the public key in base64 into pub. */
enum gc_status team_gen_key(const char *path, char pub[TEAM_KEY_LEN], char **err);
/* Sign data with the PEM private key at keyfile: the signature in base64
 * into sig (a new string) and its public key into pub.  GC_EUSAGE for a
 * key file that is missing, not a regular file (a FIFO is never waited
 * on), another user's, readable or writable by other users (the config
 * file's rule, file_read_private), or not an Ed25519 private key. */
enum gc_status team_sign(const char *keyfile, const void *data, size_t len, char **sig,
			 char pub[TEAM_KEY_LEN], char **err);
/* Does sig (base64) sign data with the public key pub (base64)?  1 yes,
 * 0 no (also for malformed keys or signatures, and when libcrypto cannot
 * be loaded: team_crypto_load first says why). */
int team_verify(const char *pub, const char *sig, const void *data, size_t len);

/* --- team_export.c --- */

struct team_export_result {
	size_t offers;
	size_t providers;
	size_t payload_bytes;
	char sha256[65];
	char created_at[32];      /* the newest fetched_at of the providers */
	char key[TEAM_KEY_LEN];   /* the signer's public key; "" unsigned */
};

/* Write the snapshot of c into dir (created 0755 if missing): the payload,
 * then the signature (keyfile not NULL) and the manifest, each to a new
 * temporary file of a random name in dir (file_temp_at: never through a
 * link or over a file someone put there) renamed into place; each offer's
 * origin as team_public_origin gives it.  GC_EIO (files; a full disk says
 * "no space left on device"), GC_EUSAGE (a key file team_sign refuses; a
 * dir that is not a folder, or that another user could change: theirs,
 * a link of theirs, or writable by any user without the sticky bit). */
enum gc_status team_export(struct cache *c, const char *dir, const char *keyfile,
			   struct team_export_result *r, char **err);
/* The page of c (page_write, o names the snapshot) into dir/index.html
 * the way team_export writes its files (the same folder checks, a
 * temporary file renamed into place): after team_export, beside it. */
enum gc_status team_export_page(struct cache *c, const char *dir, const struct page_opts *o,
				struct page_result *r, char **err);
/* The JSON of an export (docs/export-result.schema.json), with the page
 * written (page not NULL): new reference or NULL. */
struct json_t *team_export_json(const char *dir, const struct team_export_result *r,
				const struct page_result *page);

/* --- team_pull.c: fetch and check, then store --- */

enum team_outcome {
	TEAM_STORED,     /* the snapshot's offers replaced the local ones */
	TEAM_CURRENT,    /* local data describes the same time: left as it is */
	TEAM_KEPT_NEWER  /* local data is newer (without force): kept */
};

struct team_provider {
	char id[48];
	enum team_outcome outcome;
	size_t offers;        /* in the snapshot */
	char as_of[32];       /* the snapshot's */
	char local_as_of[32]; /* the cache's before the pull ("" none) */
};

struct team_pull_result {
	char from[4096];              /* the source, credentials masked */
	int not_modified;             /* 304: nothing read, nothing changed */
	char created_at[32];
	char key[TEAM_KEY_LEN];       /* the trusted key that signed it; "" unchecked */
	size_t payload_bytes;
	struct team_provider *providers;
	size_t nproviders;
};

struct team_pull_opts {
	struct cache *cache;            /* open for writing, its guard set */
	const char *from;               /* http(s) URL, file:// URL or folder of an export (a
					 * URL or path ending in /manifest.json is taken too) */
	int force;                      /* store a provider even when local data is newer */
	const char *const *trusted_keys; /* base64 Ed25519 public keys; none: unsigned is taken */
	size_t ntrusted;
	const struct http_opts *http;
	double deadline_s;              /* > 0: no request of the pull starts or runs past
					 * this many seconds from its start (manifest,
					 * signature and payload together) */
};

/* A pull's manifest as read: what the payload must match. */
struct team_manifest_provider {
	char id[48];
	size_t offers;
};
struct team_manifest {
	char created_at[32];
	size_t payload_bytes;
	char sha256[65];
	size_t offers;                   /* the sum of the providers' */
	struct team_manifest_provider *providers;
	size_t nproviders;
};
/* A manifest's text (at most TEAM_MAX_MANIFEST bytes, parsed under
 * TEAM_MANIFEST_MAX_VALUES) into *m (release it): GC_EDATA with the
 * reason (not a manifest, a format version this build does not read, no
 * payload size or sha256, a provider list that is malformed, names one
 * twice or does not add up to `offers`). */
enum gc_status team_manifest_read(const char *text, size_t len, struct team_manifest *m,
				  char **err);
void team_manifest_release(struct team_manifest *m);

/* What the network part of a pull brought, checked (opaque). */
struct team_fetch;

/* The network part of a pull, before the cache is written (no writer lock
 * is needed): the manifest fetched conditionally (its validators read
 * from o->cache) or read from the folder, its size capped, its signature
 * verified over its bytes (trusted keys set) before it is parsed, the
 * payload fetched and its size and sha256 checked; every request under
 * one deadline.  GC_OK with *f to store, or *f NULL and r->not_modified
 * (a 304 to the validators sent).  Errors: GC_EDATA (a manifest or
 * signature refused, a payload that does not match its manifest),
 * GC_EUNAVAILABLE (the server is down or answers an error: 4xx, 5xx, a
 * 304 to a request that sent no validator, the deadline), GC_EUSAGE (no
 * export in a folder, a URL scheme other than http, https or file).
 * r->from, created_at, key and payload_bytes are filled. */
enum gc_status team_pull_fetch(const struct team_pull_opts *o, struct team_pull_result *r,
			       struct team_fetch **f, char **err);
/* The store part: the payload of f inflated and read line by line into
 * o->cache in one transaction (the caller holds the writer lock), checked
 * against the manifest as it goes, and the manifest's validators kept.
 * Nothing changes unless all of it is good (GC_EDATA for a line that is
 * not a record or an offer of its provider, a provider twice, counts the
 * manifest does not list).  r->providers filled (release r). */
enum gc_status team_pull_store(const struct team_pull_opts *o, struct team_fetch *f,
			       struct team_pull_result *r, char **err);
void team_fetch_free(struct team_fetch *f);

/* Both parts in turn (no lock between them): GC_OK with *r filled,
 * r->not_modified on a 304.  Release r with team_pull_result_release. */
enum gc_status team_pull(const struct team_pull_opts *o, struct team_pull_result *r, char **err);
/* (team_merge.c, which fills r too) */
void team_pull_result_release(struct team_pull_result *r);

/* --- team_merge.c: the payload, line by line --- */

/* A payload's lines, read one at a time from gzip inflated as it goes (or
 * from plain text): at most TEAM_MAX_LINE bytes of it held at once,
 * whatever its size (opaque). */
struct team_lines;
/* Lines of data (gzip: a gzip stream, else plain text); borrowed, it must
 * outlive *l.  GC_ENOMEM only. */
enum gc_status team_lines_open(struct team_lines **l, const void *data, size_t len, int gzip,
			       char **err);
/* The next line parsed (under TEAM_LINE_MAX_VALUES, duplicate keys
 * refused): GC_OK with a new reference in *out, or NULL at the end; GC_EDATA
 * "payload line N ..." for a line longer than TEAM_MAX_LINE, one that is
 * not JSON or holds too many values, gzip that is broken, cut short or
 * inflates past TEAM_MAX_INFLATED. */
enum gc_status team_lines_next(struct team_lines *l, struct json_t **out, char **err);
void team_lines_close(struct team_lines *l);
/* Lower the inflated cap of l below TEAM_MAX_INFLATED (tests). */
void team_lines_cap(struct team_lines *l, size_t max_inflated);

/* The merge of an inflated payload (data, len) alone, as team_pull_store
 * does it but with no manifest to match: each provider record and its
 * offers into c in one transaction (nothing changes unless all of it is
 * good); the providers into r (release it).  For tests and fuzzing. */
enum gc_status team_merge(struct cache *c, const char *data, size_t len, int force,
			  struct team_pull_result *r, char **err);
/* The merge of lines l into c (in the caller's transaction), matched
 * against m (NULL: nothing to match). */
enum gc_status team_merge_lines(struct cache *c, struct team_lines *l,
				const struct team_manifest *m, int force,
				struct team_pull_result *r, char **err);
/* "stored", "current", "kept-newer" (static). */
const char *team_outcome_name(enum team_outcome o);
/* The JSON of a pull (docs/pull-result.schema.json): new reference or NULL. */
struct json_t *team_pull_json(const struct team_pull_result *r);

#endif
