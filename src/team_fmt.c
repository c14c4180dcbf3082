/* team_fmt.c - the pieces of a team snapshot (team.h): an offer as a
 * payload line and back, SHA-256, Ed25519 keys and signatures.  Hashing
 * and signing go through OpenSSL's EVP. */
#include "gpucmp/team.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>

/* The stored columns of an offer, in the order a line lists them. */
enum kind { K_TEXT, K_NUM, K_TRI };
static const struct {
	const char *key;
	size_t at;
	enum kind kind;
	int required;
} fields[] = {
#define T(m, r) {#m, offsetof(struct offer, m), K_TEXT, r}
#define N(m, r) {#m, offsetof(struct offer, m), K_NUM, r}
#define B(m) {#m, offsetof(struct offer, m), K_TRI, 0}
	T(provider, 1), T(sku, 1), T(gpu, 0), T(gpu_name, 1), N(gpu_count, 1),
	N(gpu_mem_gb, 0), N(vcpus, 0), N(ram_gb, 0), N(disk_gb, 0), T(region, 1),
	N(price_hr, 0), N(spot_price_hr, 0), T(currency, 0), N(price_native, 0),
	N(spot_native, 0), B(available), B(infiniband), T(rdma, 0), B(nvlink),
	N(node_bandwidth_gbps, 0), T(driver_version, 0), T(max_cuda, 0), T(source, 1),
	T(origin, 0), T(fetched_at, 1), T(as_of, 0), T(price_kind, 0), N(gpu_fraction, 0),
#undef T
#undef N
#undef B
};
#define NFIELDS (sizeof fields / sizeof fields[0])

json_t *team_offer_json(const struct offer *o, int stale)
{
	json_t *j = json_object();
	int ok = j != NULL;
	for (size_t i = 0; ok && i < NFIELDS; i++) {
		const char *p = (const char *)o + fields[i].at;
		json_t *v = NULL;
		if (fields[i].kind == K_TEXT && *(const char *const *)p)
			v = json_string(*(const char *const *)p);
		else if (fields[i].kind == K_NUM && !isnan(*(const double *)p))
			v = json_real(*(const double *)p);
		else if (fields[i].kind == K_TRI && *(const int *)p >= 0)
			v = json_boolean(*(const int *)p);
		else
			continue;
		ok = json_object_set_new(j, fields[i].key, v) == 0;
	}
	if (ok && stale)
		ok = json_object_set_new(j, "stale", json_true()) == 0;
	if (!ok) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* One field of obj into o: 0, or -1 when it has the wrong type. */
static int read_field(json_t *obj, size_t i, struct offer *o)
{
	json_t *v = json_object_get(obj, fields[i].key);
	char *p = (char *)o + fields[i].at;
	if (!v || json_is_null(v))
		return fields[i].required ? -1 : 0;
	switch (fields[i].kind) {
	case K_TEXT:
		if (!json_is_string(v))
			return -1;
		*(const char **)p = json_string_value(v);
		return 0;
	case K_NUM:
		if (!json_is_number(v))
			return -1;
		*(double *)p = json_number_value(v);
		return 0;
	case K_TRI:
		if (!json_is_boolean(v))
			return -1;
		*(int *)p = json_is_true(v);
		return 0;
	}
	return -1;
}

enum gc_status team_offer_read(json_t *obj, struct offer *o, int *stale, char **err)
{
	offer_init(o);
	*stale = 0;
	if (!json_is_object(obj))
		return err_set(err, GC_EDATA, "a payload line is not an object");
	for (size_t i = 0; i < NFIELDS; i++)
		if (read_field(obj, i, o) != 0)
			return err_set(err, GC_EDATA, "an offer's '%s' is missing or of the "
				       "wrong type", fields[i].key);
	json_t *s = json_object_get(obj, "stale");
	*stale = json_is_true(s);
	/* the door's number rules (offer.h): a price out of bounds is none */
	if (!offer_price_ok(o->price_hr))
		o->price_hr = NAN;
	if (!offer_price_ok(o->spot_price_hr))
		o->spot_price_hr = NAN;
	if (!(o->gpu_count > 0 && o->gpu_count <= 1024) ||
	    !(o->gpu_fraction > 0 && o->gpu_fraction <= 1))
		return err_set(err, GC_EDATA, "an offer's GPU count or fraction is out of range");
	return GC_OK;
}

enum gc_status team_sha256(const void *data, size_t len, char hex[65], char **err)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	if (EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32)
		return err_set(err, GC_ENOMEM, "cannot compute SHA-256");
	for (unsigned int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return GC_OK;
}

/* base64 of n bytes into out (4 * ceil(n / 3) + 1 bytes). */
static void b64(const unsigned char *in, size_t n, char *out)
{
	EVP_EncodeBlock((unsigned char *)out, in, (int)n);
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
	int got = EVP_DecodeBlock(tmp, (const unsigned char *)text, (int)len);
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
	if (EVP_PKEY_get_raw_public_key(k, raw, &n) != 1 || n != 32)
		return err_set(err, GC_EUSAGE, "the key is not an Ed25519 key");
	b64(raw, n, pub);
	return GC_OK;
}

enum gc_status team_gen_key(const char *path, char pub[TEAM_KEY_LEN], char **err)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	if (!k)
		return err_set(err, GC_ENOMEM, "cannot make an Ed25519 key");
	enum gc_status st = public_b64(k, pub, err);
	int fd = st == GC_OK ? open(path, O_WRONLY | O_CREAT | O_EXCL, 0600) : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (st == GC_OK && !f)
		st = err_set(err, GC_EIO, "cannot create %s: %s (an existing key is never "
			     "replaced)", path, strerror(errno));
	if (f && PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL) != 1)
		st = err_set(err, GC_EIO, "cannot write %s", path);
	if (f && fclose(f) != 0 && st == GC_OK)
		st = err_set(err, GC_EIO, "cannot write %s: %s", path, strerror(errno));
	if (!f && fd >= 0)
		close(fd);
	EVP_PKEY_free(k);
	return st;
}

static enum gc_status read_key(const char *keyfile, EVP_PKEY **k, char **err)
{
	FILE *f = fopen(keyfile, "r");
	if (!f)
		return err_set(err, GC_EUSAGE, "cannot read the key %s: %s", keyfile,
			       strerror(errno));
	*k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	if (!*k || EVP_PKEY_get_base_id(*k) != EVP_PKEY_ED25519) {
		EVP_PKEY_free(*k);
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
	enum gc_status st = read_key(keyfile, &k, err);
	if (st == GC_OK)
		st = public_b64(k, pub, err);
	EVP_MD_CTX *ctx = st == GC_OK ? EVP_MD_CTX_new() : NULL;
	unsigned char raw[64];
	size_t n = sizeof raw;
	if (st == GC_OK && (!ctx || EVP_DigestSignInit(ctx, NULL, NULL, NULL, k) != 1 ||
			    EVP_DigestSign(ctx, raw, &n, data, len) != 1 || n != 64))
		st = err_set(err, GC_ENOMEM, "cannot sign with %s", keyfile);
	if (st == GC_OK && !(*sig = malloc(89)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	if (st == GC_OK)
		b64(raw, n, *sig);
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(k);
	return st;
}

int team_verify(const char *pub, const char *sig, const void *data, size_t len)
{
	unsigned char rk[32], rs[64];
	if (unb64(pub, rk, sizeof rk) != 0 || unb64(sig, rs, sizeof rs) != 0)
		return 0;
	EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, rk, sizeof rk);
	EVP_MD_CTX *ctx = k ? EVP_MD_CTX_new() : NULL;
	int ok = ctx && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, k) == 1 &&
		 EVP_DigestVerify(ctx, rs, sizeof rs, data, len) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(k);
	return ok;
}
