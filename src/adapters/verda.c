/* verda.c - Verda (formerly DataCrunch): OAuth2 client credentials, then
 * GET /v1/instance-types and GET /v1/instance-availability.
 *
 * Key: GPUCMP_VERDA_API_KEY holds "CLIENT_ID:CLIENT_SECRET" (the two halves
 * of a Verda API credential, split at the first ':').  Requests, in order:
 *   1. POST /v1/oauth2/token {"grant_type":"client_credentials",
 *      "client_id":..., "client_secret":...} -> {"access_token", ...}
 *      (datacrunch-python verda/authentication/_authentication.py).  The
 *      token is kept in run->secret2, so failure messages redact it.
 *   2. GET /v1/instance-types with "Authorization: Bearer TOKEN": a JSON
 *      array of instance types.
 *   3. GET /v1/instance-availability?isSpot=false (Bearer): a JSON array of
 *      {location_code, availabilities: [instance_type, ...]} -- the types
 *      that can be deployed on demand now, per location.
 * No pagination.  Both lists are kept in run->state and joined in finish().
 *
 * Field mapping (one instance type): sku = instance_type ("1H100.80S.30V");
 * gpu_name = gpu.description without its "Nx " prefix ("H100 SXM5 80GB"),
 * else name, else model; gpu_count = gpu.number_of_gpus (CPU types have 0
 * and are dropped); gpu_mem_gb = gpu_memory.size_in_gigabytes (the total)
 * / gpu_count; vcpus = cpu.number_of_cores; ram_gb =
 * memory.size_in_gigabytes; disk_gb = storage.size_in_gigabytes (absent for
 * "dynamic" storage); price_hr = price_per_hour, spot_price_hr = spot_price
 * (numeric strings, in `currency`, "usd").  Prices are the same in every
 * location: one offer per location that lists the type as available
 * (available 1), or one offer in region "unknown" marked unavailable when no
 * location does; without an availability response, region "unknown" and
 * availability unknown.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"

enum { VERDA_TOKEN, VERDA_TYPES, VERDA_AVAIL };

enum { MAX_TOKEN = 8192 };

static void wipe_free(char *s)
{
	if (s) {
		memset(s, 0, strlen(s));
		free(s);
	}
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	const char *key = run->key;
	const char *colon = key ? strchr(key, ':') : NULL;
	if (!colon || colon == key || !colon[1])
		return err_set(err, GC_EUSAGE,
			       "the Verda key must be CLIENT_ID:CLIENT_SECRET "
			       "(GPUCMP_VERDA_API_KEY)");
	char *id = strndup(key, (size_t)(colon - key));
	if (!id)
		return err_set(err, GC_ENOMEM, "out of memory");
	json_t *req = json_pack("{s:s, s:s, s:s}", "grant_type", "client_credentials",
				"client_id", id, "client_secret", colon + 1);
	wipe_free(id);
	if (!req)
		return err_set(err, GC_EUSAGE, "the Verda key is not valid UTF-8");
	char *body = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (!body)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum gc_status st =
		adapter_queue(run, VERDA_TOKEN, "POST", body, err, "%s/v1/oauth2/token", run->base);
	wipe_free(body);
	if (st == GC_OK)
		run->queue[run->nqueue - 1].no_key = 1; /* the secret travels in the body */
	return st;
}

/* A token we are willing to put in a header: printable, no spaces. */
static int token_ok(const char *t)
{
	size_t n = 0;
	for (; t[n]; n++)
		if (t[n] <= ' ' || t[n] > '~' || n >= MAX_TOKEN)
			return 0;
	return n > 0;
}

static enum gc_status got_token(struct adapter_run *run, json_t *root, char **err)
{
	const char *tok = aj_str(root, "access_token");
	if (!tok)
		return err_set(err, GC_EDATA, "no access_token in the token response");
	if (!token_ok(tok))
		return err_set(err, GC_EDATA,
			       "the access_token in the token response is malformed");
	wipe_free(run->secret2);
	run->secret2 = strdup(tok);
	size_t n = strlen(tok) + 32;
	char *hdr = malloc(n);
	if (!run->secret2 || !hdr) {
		free(hdr);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	snprintf(hdr, n, "Authorization: Bearer %s", tok);
	enum gc_status st =
		adapter_queue(run, VERDA_TYPES, NULL, NULL, err, "%s/v1/instance-types", run->base);
	if (st == GC_OK)
		st = adapter_queue_header(run, hdr, err);
	if (st == GC_OK)
		st = adapter_queue(run, VERDA_AVAIL, NULL, NULL, err,
				   "%s/v1/instance-availability?isSpot=false", run->base);
	if (st == GC_OK)
		st = adapter_queue_header(run, hdr, err);
	wipe_free(hdr);
	return st;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	enum gc_status st;
	if (req->kind == VERDA_TOKEN)
		st = got_token(run, root, err);
	else if (!json_is_array(root))
		st = err_set(err, GC_EDATA, "expected a JSON list of %s",
			     req->kind == VERDA_TYPES ? "instance types" : "locations");
	else
		st = adapter_keep(run, req->kind, root, err); /* joined in finish() */
	json_decref(root);
	return st;
}

/* "2x RTX A6000 48GB" -> "RTX A6000 48GB". */
static void strip_count(const char *d, char *out, size_t n)
{
	const char *p = d;
	while (isdigit((unsigned char)*p))
		p++;
	if (p != d && *p == 'x' && p[1] == ' ')
		d = p + 2;
	snprintf(out, n, "%s", d);
}

static int listed(json_t *location, const char *sku)
{
	json_t *list = json_object_get(location, "availabilities");
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v) {
		if (json_is_string(v) && strcmp(json_string_value(v), sku) == 0)
			return 1;
	}
	return 0;
}

static enum gc_status one_type(struct adapter_run *run, json_t *t, char **err)
{
	json_t *avail = adapter_kept(run, VERDA_AVAIL); /* NULL until received */
	const char *sku = aj_str(t, "instance_type");
	if (!json_is_object(t) || !sku || !*sku)
		return GC_OK;
	json_t *gpu = json_object_get(t, "gpu");
	char name[128] = "";
	const char *desc = aj_str(gpu, "description");
	if (desc)
		strip_count(desc, name, sizeof name);
	if (!*name)
		snprintf(name, sizeof name, "%s", aj_str(t, "name") ? aj_str(t, "name")
				  : aj_str(t, "model") ? aj_str(t, "model") : "");
	struct offer o;
	offer_init(&o);
	o.sku = sku;
	o.gpu_name = name;
	double count = aj_num(gpu, "number_of_gpus");
	if (!(count > 0 && count <= 1024))
		count = NAN;
	o.gpu_count = count;
	double mem = aj_num(json_object_get(t, "gpu_memory"), "size_in_gigabytes");
	if (mem > 0 && count > 0)
		o.gpu_mem_gb = mem / count;
	o.vcpus = aj_num(json_object_get(t, "cpu"), "number_of_cores");
	o.ram_gb = aj_num(json_object_get(t, "memory"), "size_in_gigabytes");
	o.disk_gb = aj_num(json_object_get(t, "storage"), "size_in_gigabytes");
	/* the currency is lower case ("usd") */
	const char *cur = aj_str(t, "currency");
	char code[8];
	size_t n = 0;
	for (; cur && cur[n] && n < sizeof code - 1; n++)
		code[n] = (char)toupper((unsigned char)cur[n]);
	code[n] = '\0';
	adapter_set_prices(&o, code, aj_num(t, "price_per_hour"), aj_num(t, "spot_price"));
	if (!avail)
		return adapter_emit(run, &o, err);
	size_t i, found = 0;
	json_t *loc;
	json_array_foreach(avail, i, loc) {
		const char *code_loc = aj_str(loc, "location_code");
		if (!code_loc || !listed(loc, sku))
			continue;
		struct offer copy = o;
		copy.region = code_loc;
		copy.available = 1;
		found++;
		enum gc_status st = adapter_emit(run, &copy, err);
		if (st != GC_OK)
			return st;
	}
	if (found)
		return GC_OK;
	o.available = 0;
	return adapter_emit(run, &o, err);
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	return adapter_each_kept(run, VERDA_TYPES, one_type, err);
}

const struct adapter adapter_verda = {
	.id = "verda",
	.base_url = "https://api.verda.com",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_CUSTOM,
	.endpoint = "POST /v1/oauth2/token, GET /v1/instance-types, /v1/instance-availability; "
		    "key CLIENT_ID:CLIENT_SECRET "
		    "(https://github.com/DataCrunch-io/datacrunch-python)",
	.stock = "verda: /v1/instance-availability",
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = adapter_kept_free,
};
