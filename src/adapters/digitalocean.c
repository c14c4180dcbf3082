/* digitalocean.c - DigitalOcean Droplet sizes: GET /v2/sizes (Bearer key).
 *
 * https://docs.digitalocean.com/reference/api/digitalocean/#tag/Sizes
 * `sizes[]` lists every Droplet plan: `slug` ("gpu-h100x8-640gb"), `vcpus`,
 * `memory` (MiB), `disk` (GB), `price_hourly` (USD for the whole Droplet),
 * `available` (bool), `regions[]` (slugs where the plan can be created) and,
 * for GPU plans only, `gpu_info{count, model ("nvidia_h100"), vram{amount,
 * unit}}` where vram is the total over all GPUs.  One offer per region, or
 * one offer in region "unknown" marked unavailable when the list is empty.
 * Plans without gpu_info are not GPU offers and are left to adapter_emit to
 * drop.  Pagination: `links.pages.next`, an absolute URL on the API host,
 * followed until absent (per_page=200, the documented maximum).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/adapter.h"

/* Host part of an absolute URL ("https://h:443/x" -> "h", length 1). */
static int url_host(const char *url, const char **host, size_t *len)
{
	const char *p = strstr(url, "://");
	if (!p)
		return -1;
	*host = p + 3;
	*len = strcspn(*host, ":/?#");
	return 0;
}

/* Queue a next-page link.  The API answers with absolute links on its own
 * host; they are re-rooted on run->base, so an overridden base URL (a proxy,
 * the test server) also serves the later pages.  A link to any other host is
 * refused: the API key must not follow it there.  Bytes a URL may not hold
 * raw (spaces, controls) are percent-encoded.  A link back to the page just
 * read ends the crawl instead of looping. */
static enum gc_status follow_next(struct adapter_run *run, const struct adapter_request *req,
				  const char *next, char **err)
{
	if (!next || !*next)
		return GC_OK;
	const char *rest = next;
	const char *h1, *h2;
	size_t n1, n2;
	if (url_host(next, &h1, &n1) == 0) {
		int same = url_host(run->ad->base_url, &h2, &n2) == 0 && n1 == n2 &&
			   strncasecmp(h1, h2, n1) == 0;
		if (!same && url_host(run->base, &h2, &n2) == 0 && n1 == n2 &&
		    strncasecmp(h1, h2, n1) == 0)
			same = 1;
		if (!same)
			return err_set(err, GC_EDATA, "next-page link to another host refused: %.100s",
				       next);
		rest = h1 + n1;
		rest += strcspn(rest, "/?#");
	} else if (next[0] != '/') {
		return adapter_follow(run, req->kind, next, err);
	}
	char url[4096];
	size_t j = (size_t)snprintf(url, sizeof url, "%s%s", run->base, rest[0] == '/' ? "" : "/");
	if (j >= sizeof url)
		return err_set(err, GC_EDATA, "next-page link too long");
	for (const unsigned char *s = (const unsigned char *)rest; *s; s++) {
		if (j + 4 >= sizeof url)
			return err_set(err, GC_EDATA, "next-page link too long");
		if (*s <= ' ' || *s >= 0x7f || *s == '"' || *s == '<' || *s == '>' || *s == '\\' ||
		    *s == '^' || *s == '`' || *s == '{' || *s == '|' || *s == '}')
			j += (size_t)snprintf(url + j, 4, "%%%02X", *s);
		else
			url[j++] = (char)*s;
	}
	url[j] = '\0';
	if (req->url && strcmp(url, req->url) == 0)
		return GC_OK;
	return adapter_queue(run, req->kind, NULL, NULL, err, "%s", url);
}

/* vram{amount, unit} in GB (GiB counted as GB, like every other source). */
static double vram_gb(const json_t *vram)
{
	double amount = aj_num(vram, "amount");
	const char *unit = aj_str(vram, "unit");
	if (!(amount > 0) || isinf(amount) || !unit)
		return NAN;
	if (strcasecmp(unit, "gib") == 0 || strcasecmp(unit, "gb") == 0)
		return amount;
	if (strcasecmp(unit, "mib") == 0 || strcasecmp(unit, "mb") == 0)
		return amount / 1024.0;
	if (strcasecmp(unit, "tib") == 0 || strcasecmp(unit, "tb") == 0)
		return amount * 1024.0;
	return NAN;
}

static enum gc_status one_size(struct adapter_run *run, json_t *size, char **err)
{
	const char *slug = aj_str(size, "slug");
	if (!json_is_object(size) || !slug)
		return GC_OK;
	json_t *gi = json_object_get(size, "gpu_info");
	double count = json_is_object(gi) ? aj_num(gi, "count") : NAN;
	double total = json_is_object(gi) ? vram_gb(json_object_get(gi, "vram")) : NAN;
	double mem_mib = aj_num(size, "memory");
	json_t *avail = json_object_get(size, "available");
	struct offer o;
	offer_init(&o);
	o.sku = slug;
	o.gpu_name = json_is_object(gi) ? aj_str(gi, "model") : NULL;
	o.gpu_count = count > 0 && count <= 1024 ? count : NAN; /* never trust sizes */
	o.gpu_mem_gb = o.gpu_count > 0 && total > 0 ? total / o.gpu_count : NAN;
	o.vcpus = aj_num(size, "vcpus");
	o.ram_gb = mem_mib > 0 ? mem_mib / 1024.0 : NAN;
	o.disk_gb = aj_num(size, "disk");
	o.price_hr = aj_num(size, "price_hourly");
	int available = json_is_boolean(avail) ? json_is_true(avail) : -1;
	json_t *regions = json_object_get(size, "regions");
	size_t i, nreg = 0;
	json_t *r;
	enum gc_status st = GC_OK;
	json_array_foreach(regions, i, r) {
		if (!json_is_string(r) || !*json_string_value(r))
			continue;
		struct offer copy = o;
		copy.region = json_string_value(r);
		copy.available = available;
		nreg++;
		if ((st = adapter_emit(run, &copy, err)) != GC_OK)
			return st;
	}
	if (nreg == 0) {
		o.region = "unknown";
		o.available = 0;
		st = adapter_emit(run, &o, err);
	}
	return st;
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, NULL, NULL, err, "%s/v2/sizes?per_page=200", run->base);
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	json_t *sizes = json_object_get(root, "sizes");
	enum gc_status st = GC_OK;
	if (!json_is_array(sizes)) {
		const char *msg = aj_str(root, "message");
		st = msg ? err_set(err, GC_EDATA, "API error: %.200s", msg)
			 : err_set(err, GC_EDATA, "no 'sizes' array in the response");
	}
	size_t i;
	json_t *s;
	json_array_foreach(sizes, i, s) {
		if (st != GC_OK)
			break;
		st = one_size(run, s, err);
	}
	if (st == GC_OK) {
		json_t *next = aj_path(root, "links.pages.next");
		if (json_is_string(next))
			st = follow_next(run, req, json_string_value(next), err);
	}
	json_decref(root);
	return st;
}

static const char *const key_envs[] = {"DIGITALOCEAN_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN", NULL};

const struct adapter adapter_digitalocean = {
	.id = "digitalocean",
	.base_url = "https://api.digitalocean.com",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "GET /v2/sizes (https://docs.digitalocean.com/reference/api/digitalocean/#tag/Sizes)",
	.conditional = 0,
	.start = start,
	.parse = parse,
};
