/* team_fmt.c - the pieces of a team snapshot (team.h): an offer as a
 * payload line and back, SHA-256, Ed25519 keys and signatures.  Hashing
 * and signing go through OpenSSL's EVP (libcrypto, loaded when first
 * needed). */
#include "gpucmp/team.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "gpucmp/dynlib.h"
#include "gpucmp/fileio.h"

/* libcrypto is loaded when a team snapshot is first hashed, signed or
 * checked, not at start-up: mapping and relocating it was a fifth of
 * every `gpucmp --version` (issue 23), and a binary that never exports
 * or pulls runs without it. */
static struct {
	int (*bio_free)(BIO *);
	BIO *(*bio_new_mem_buf)(const void *, int);
	int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *,
		      ENGINE *);
	int (*digest_final)(EVP_MD_CTX *, unsigned char *, unsigned int *);
	int (*digest_init)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
	int (*digest_sign)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *,
			   size_t);
	int (*digest_sign_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *,
				EVP_PKEY *);
	int (*digest_update)(EVP_MD_CTX *, const void *, size_t);
	int (*digest_verify)(EVP_MD_CTX *, const unsigned char *, size_t, const unsigned char *,
			     size_t);
	int (*digest_verify_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *,
				  EVP_PKEY *);
	int (*decode_block)(unsigned char *, const unsigned char *, int);
	int (*encode_block)(unsigned char *, const unsigned char *, int);
	EVP_MD_CTX *(*md_ctx_new)(void);
	void (*md_ctx_free)(EVP_MD_CTX *);
	void (*cleanse)(void *, size_t);
	void (*pkey_free)(EVP_PKEY *);
	int (*pkey_base_id)(const EVP_PKEY *);
	int (*pkey_raw_public)(const EVP_PKEY *, unsigned char *, size_t *);
	EVP_PKEY *(*pkey_new_raw_public)(int, ENGINE *, const unsigned char *, size_t);
	EVP_PKEY *(*pkey_keygen)(OSSL_LIB_CTX *, const char *, const char *, ...);
	EVP_PKEY *(*pem_read_bio_key)(BIO *, EVP_PKEY **, pem_password_cb *, void *);
	int (*pem_write_key)(FILE *, const EVP_PKEY *, const EVP_CIPHER *, const unsigned char *,
			     int, pem_password_cb *, void *);
	const EVP_MD *(*sha256)(void);
} ssl;

enum gc_status team_crypto_load(char **err)
{
	static const char *const sonames[] = {"libcrypto.so.3", NULL};
	static const struct dynlib_sym syms[] = {
		{"BIO_free", (void **)&ssl.bio_free},
		{"BIO_new_mem_buf", (void **)&ssl.bio_new_mem_buf},
		{"EVP_Digest", (void **)&ssl.digest},
		{"EVP_DigestFinal_ex", (void **)&ssl.digest_final},
		{"EVP_DigestInit_ex", (void **)&ssl.digest_init},
		{"EVP_DigestSign", (void **)&ssl.digest_sign},
		{"EVP_DigestSignInit", (void **)&ssl.digest_sign_init},
		{"EVP_DigestUpdate", (void **)&ssl.digest_update},
		{"EVP_DigestVerify", (void **)&ssl.digest_verify},
		{"EVP_DigestVerifyInit", (void **)&ssl.digest_verify_init},
		{"EVP_DecodeBlock", (void **)&ssl.decode_block},
		{"EVP_EncodeBlock", (void **)&ssl.encode_block},
		{"EVP_MD_CTX_new", (void **)&ssl.md_ctx_new},
		{"EVP_MD_CTX_free", (void **)&ssl.md_ctx_free},
		{"OPENSSL_cleanse", (void **)&ssl.cleanse},
		{"EVP_PKEY_free", (void **)&ssl.pkey_free},
		{"EVP_PKEY_get_base_id", (void **)&ssl.pkey_base_id},
		{"EVP_PKEY_get_raw_public_key", (void **)&ssl.pkey_raw_public},
		{"EVP_PKEY_new_raw_public_key", (void **)&ssl.pkey_new_raw_public},
		{"EVP_PKEY_Q_keygen", (void **)&ssl.pkey_keygen},
		{"PEM_read_bio_PrivateKey", (void **)&ssl.pem_read_bio_key},
		{"PEM_write_PrivateKey", (void **)&ssl.pem_write_key},
		{"EVP_sha256", (void **)&ssl.sha256},
	};
	static struct dynlib lib = {"libcrypto",
				    "install libssl3 to sign or verify team snapshots",
				    sonames, syms, sizeof syms / sizeof syms[0], NULL};
	return dynlib_load(&lib, err);
}

/* A payload line lists an offer's stored columns (offer.h, offer_cols[])
 * by name; unknown ones are null and left out. */
json_t *team_offer_json(const struct offer *o, int stale)
{
	json_t *j = json_object();
	int ok = j != NULL;
	for (size_t i = 0; ok && i < offer_ncols; i++) {
		const struct offer_col *c = &offer_cols[i];
		json_t *v = NULL;
		if (c->kind == OFFER_TEXT && offer_col_text(o, c))
			v = json_string(offer_col_text(o, c));
		else if (c->kind == OFFER_NUM && !isnan(offer_col_num(o, c)))
			v = json_real(offer_col_num(o, c));
		else if (c->kind == OFFER_TRI && offer_col_tri(o, c) >= 0)
			v = json_boolean(offer_col_tri(o, c));
		else
			continue;
		ok = json_object_set_new(j, c->name, v) == 0;
	}
	if (ok && stale)
		ok = json_object_set_new(j, "stale", json_true()) == 0;
	if (!ok) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* One column of obj into o: 0, or -1 when it has the wrong type (or a
 * required one is missing). */
static int read_field(json_t *obj, const struct offer_col *c, struct offer *o)
{
	json_t *v = json_object_get(obj, c->name);
	if (!v || json_is_null(v))
		return c->required ? -1 : 0;
	switch (c->kind) {
	case OFFER_TEXT:
		if (!json_is_string(v))
			return -1;
		offer_col_set_text(o, c, json_string_value(v));
		return 0;
	case OFFER_NUM:
		if (!json_is_number(v))
			return -1;
		offer_col_set_num(o, c, json_number_value(v));
		return 0;
	case OFFER_TRI:
		if (!json_is_boolean(v))
			return -1;
		offer_col_set_tri(o, c, json_is_true(v));
		return 0;
	}
	return -1;
}

/* The values themselves (ranges, dates, words, provider) are checked by
 * the door every stored row passes (ingest.h), as for any other source. */
enum gc_status team_offer_read(json_t *obj, struct offer *o, int *stale, char **err)
{
	offer_init(o);
	*stale = 0;
	if (!json_is_object(obj))
		return err_set(err, GC_EDATA, "a payload line is not an object");
	for (size_t i = 0; i < offer_ncols; i++)
		if (read_field(obj, &offer_cols[i], o) != 0)
			return err_set(err, GC_EDATA, "an offer's '%s' is missing or of the "
				       "wrong type", offer_cols[i].name);
	*stale = json_is_true(json_object_get(obj, "stale"));
	return GC_OK;
}

/* The length of p's URL scheme and "://" ("https://": 8), or 0. */
static size_t scheme_len(const char *p)
{
	size_t i = 0;
	while ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
	       (i > 0 && ((p[i] >= '0' && p[i] <= '9') || p[i] == '+' || p[i] == '-' ||
			  p[i] == '.')))
		i++;
	return i > 0 && strncmp(p + i, "://", 3) == 0 ? i + 3 : 0;
}

const char *team_public_origin(const char *origin, char *out, size_t n)
{
	if (!origin || !n)
		return NULL;
	size_t sl = scheme_len(origin);
	if (sl && strncasecmp(origin, "file://", 7) != 0) {
		http_url_redact(out, n, origin, NULL);
		return out;
	}
	/* a path: its last component (a file: URL's too, query and all cut) */
	const char *p = origin + sl;
	size_t len = strcspn(p, sl ? "?#" : "");
	while (len > 0 && p[len - 1] == '/')
		len--;
	size_t start = len;
	while (start > 0 && p[start - 1] != '/')
		start--;
	if (start == len)
		return NULL;
	snprintf(out, n, "%.*s", (int)(len - start), p + start);
	return out;
}

static void hex32(const unsigned char md[32], char hex[65])
{
	for (unsigned int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

enum gc_status team_sha256(const void *data, size_t len, char hex[65], char **err)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	enum gc_status st = team_crypto_load(err);
	if (st != GC_OK)
		return st;
	if (ssl.digest(data, len, md, &n, ssl.sha256(), NULL) != 1 || n != 32)
		return err_set(err, GC_ENOMEM, "cannot compute SHA-256");
	hex32(md, hex);
	return GC_OK;
}

struct team_hash {
	EVP_MD_CTX *md;
	int failed;
};

enum gc_status team_hash_begin(struct team_hash **h, char **err)
{
	enum gc_status st = team_crypto_load(err);
	*h = st == GC_OK ? calloc(1, sizeof **h) : NULL;
	if (st == GC_OK && !*h)
		st = err_set(err, GC_ENOMEM, "out of memory");
	if (st == GC_OK && (!((*h)->md = ssl.md_ctx_new()) ||
			    ssl.digest_init((*h)->md, ssl.sha256(), NULL) != 1)) {
		team_hash_end(*h, NULL);
		*h = NULL;
		st = err_set(err, GC_ENOMEM, "cannot compute SHA-256");
	}
	return st;
}

void team_hash_add(struct team_hash *h, const void *data, size_t len)
{
	if (h && !h->failed && len && ssl.digest_update(h->md, data, len) != 1)
		h->failed = 1;
}

int team_hash_end(struct team_hash *h, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	if (!h)
		return -1;
	int ok = !h->failed && hex && h->md && ssl.digest_final(h->md, md, &n) == 1 && n == 32;
	if (ok)
		hex32(md, hex);
	if (h->md)
		ssl.md_ctx_free(h->md);
	free(h);
	return ok ? 0 : -1;
}

/* base64 of n bytes into out (4 * ceil(n / 3) + 1 bytes). */
static void b64(const unsigned char *in, size_t n, char *out)
{
	ssl.encode_block((unsigned char *)out, in, (int)n);
}

/* Decode base64 text of exactly `want` bytes into out: 0, or -1. */
static int unb64(const char *text, unsigned char *out, size_t want)
{
	size_t len = text ? strlen(text) : 0;
	if (len != 4 * ((want + 2) / 3))
		return -1;
	unsigned char tmp[128];
	if (len / 4 * 3 > sizeof tmp)
		return -1;
	int got = ssl.decode_block(tmp, (const unsigned char *)text, (int)len);
	size_t pad = (text[len - 1] == '=') + (text[len - 2] == '=');
	if (got < 0 || (size_t)got - pad != want)
		return -1;
	memcpy(out, tmp, want);
	return 0;
}

static enum gc_status public_b64(EVP_PKEY *k, char pub[TEAM_KEY_LEN], char **err)
{
	unsigned char raw[32];
	size_t n = sizeof raw;
	if (ssl.pkey_raw_public(k, raw, &n) != 1 || n != 32)
		return err_set(err, GC_EUSAGE, "the key is not an Ed25519 key");
	b64(raw, n, pub);
	return GC_OK;
}

enum gc_status team_gen_key(const char *path, char pub[TEAM_KEY_LEN], char **err)
{
	enum gc_status st = team_crypto_load(err);
	if (st != GC_OK)
		return st;
	EVP_PKEY *k = ssl.pkey_keygen(NULL, NULL, "ED25519");
	if (!k)
		return err_set(err, GC_ENOMEM, "cannot make an Ed25519 key");
	st = public_b64(k, pub, err);
	/* O_EXCL: never over an existing file, nor through a link planted at
	 * path (O_NOFOLLOW says so twice); 0600 whatever the umask */
	int fd = st == GC_OK ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
					      O_NOCTTY, 0600)
			     : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (st == GC_OK && !f)
		st = err_set(err, GC_EIO, "cannot create %s: %s (an existing key is never "
			     "replaced)", path, strerror(errno));
	if (f && ssl.pem_write_key(f, k, NULL, NULL, 0, NULL, NULL) != 1)
		st = err_set(err, GC_EIO, "cannot write %s", path);
	if (f && fclose(f) != 0 && st == GC_OK)
		st = err_set(err, GC_EIO, "cannot write %s: %s", path, strerror(errno));
	if (!f && fd >= 0)
		close(fd);
	if (fd >= 0 && st != GC_OK)
		unlink(path); /* ours, half written */
	ssl.pkey_free(k);
	return st;
}

/* The largest key file read: a PEM Ed25519 key is 119 bytes. */
enum { KEY_MAX_BYTES = 64 << 10 };

/* The private key at keyfile: a regular file of this user, not readable
 * by others (file_read_private: never waited on, as a FIFO would be). */
static enum gc_status read_key(const char *keyfile, EVP_PKEY **k, char **err)
{
	char *pem = NULL;
	size_t len = 0;
	*k = NULL;
	enum gc_status st = file_read_private(keyfile, "signing key", KEY_MAX_BYTES, &pem, &len,
					      err);
	if (st == GC_ENOTFOUND || st == GC_EIO)
		st = GC_EUSAGE;
	if (st != GC_OK)
		return st;
	BIO *b = ssl.bio_new_mem_buf(pem, (int)len);
	*k = b ? ssl.pem_read_bio_key(b, NULL, NULL, NULL) : NULL;
	ssl.bio_free(b);
	ssl.cleanse(pem, len);
	free(pem);
	if (!*k || ssl.pkey_base_id(*k) != EVP_PKEY_ED25519) {
		ssl.pkey_free(*k);
		*k = NULL;
		return err_set(err, GC_EUSAGE,
			       "%s is not an Ed25519 private key in PEM ('gpucmp export --gen-key "
			       "FILE' makes one)", keyfile);
	}
	return GC_OK;
}

enum gc_status team_sign(const char *keyfile, const void *data, size_t len, char **sig,
			 char pub[TEAM_KEY_LEN], char **err)
{
	EVP_PKEY *k = NULL;
	*sig = NULL;
	enum gc_status st = team_crypto_load(err);
	if (st != GC_OK)
		return st;
	st = read_key(keyfile, &k, err);
	if (st == GC_OK)
		st = public_b64(k, pub, err);
	EVP_MD_CTX *ctx = st == GC_OK ? ssl.md_ctx_new() : NULL;
	unsigned char raw[64];
	size_t n = sizeof raw;
	if (st == GC_OK && (!ctx || ssl.digest_sign_init(ctx, NULL, NULL, NULL, k) != 1 ||
			    ssl.digest_sign(ctx, raw, &n, data, len) != 1 || n != 64))
		st = err_set(err, GC_ENOMEM, "cannot sign with %s", keyfile);
	if (st == GC_OK && !(*sig = malloc(89)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	if (st == GC_OK)
		b64(raw, n, *sig);
	ssl.md_ctx_free(ctx);
	ssl.pkey_free(k);
	return st;
}

int team_verify(const char *pub, const char *sig, const void *data, size_t len)
{
	unsigned char rk[32], rs[64];
	if (team_crypto_load(NULL) != GC_OK || unb64(pub, rk, sizeof rk) != 0 ||
	    unb64(sig, rs, sizeof rs) != 0)
		return 0;
	EVP_PKEY *k = ssl.pkey_new_raw_public(EVP_PKEY_ED25519, NULL, rk, sizeof rk);
	EVP_MD_CTX *ctx = k ? ssl.md_ctx_new() : NULL;
	int ok = ctx && ssl.digest_verify_init(ctx, NULL, NULL, NULL, k) == 1 &&
		 ssl.digest_verify(ctx, rs, sizeof rs, data, len) == 1;
	ssl.md_ctx_free(ctx);
	ssl.pkey_free(k);
	return ok;
}
