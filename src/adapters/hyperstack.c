/* hyperstack.c - Hyperstack (NexGen Cloud): flavors joined with the pricebook.
 *
 * https://docs.hyperstack.cloud/docs/api-reference/
 * GET /v1/core/flavors  {status, message, data: [{gpu, region_name,
 *     flavors: [{id, name, display_name, region_name, cpu, ram (GB), disk
 *     (GB root), ephemeral (GB), gpu, gpu_count, stock_available, ...}]}]}
 * GET /v1/pricebook     a bare array [{id, name, value, original_value,
 *     discount_applied, start_time, end_time}]: hourly USD prices of every
 *     resource, the GPU models among them under the same name a flavor
 *     group's `gpu` carries ("A100-80G-PCIe").
 * Auth: header `api_key: KEY`, required.  No pagination.
 *
 * An offer is one flavor in one region; its price is the pricebook `value`
 * (the price charged to the key's organization; `original_value` when
 * absent) of its GPU model times gpu_count, the join SkyPilot's
 * fetch_hyperstack.py also makes.  Storage and public IP, billed separately
 * in the pricebook, are not added.  disk_gb is root disk plus ephemeral
 * disk.  Both documents are kept in run->state and joined in finish();
 * flavors whose GPU has no price (or no GPU) yield no offer.
 *
 * Spot: a flavor named "<base>-spot" (its GPU "<model>-spot", priced under
 * that name in the pricebook) is the spot lease of flavor <base>.  It is
 * not an offer of its own: it is the spot_price_hr of <base> in the same
 * region when the GPU model (without "-spot") and count are the same; a
 * "-spot" flavor with no <base> in its region is an offer under <base>'s
 * name with a spot price only; one whose <base> differs in GPU or count is
 * dropped.  The spot price is the pricebook's "<model>-spot" entry, never
 * the on-demand one.
 *
 * Unverified: no recorded response of either endpoint was found; the
 * shapes follow the documented schemas (Flavor_Item_Get_Response,
 * PricebookModel) and the two known consumers above.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"

enum { KIND_FLAVORS = 0, KIND_PRICEBOOK = 1 };

static enum gc_status start(struct adapter_run *run, char **err)
{
	enum gc_status st =
		adapter_queue(run, KIND_FLAVORS, NULL, NULL, err, "%s/v1/core/flavors", run->base);
	if (st == GC_OK)
		st = adapter_queue(run, KIND_PRICEBOOK, NULL, NULL, err, "%s/v1/pricebook",
				   run->base);
	return st;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	if (req->kind != KIND_FLAVORS && req->kind != KIND_PRICEBOOK)
		return err_set(err, GC_EUSAGE, "unknown request kind %d", req->kind);
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	enum gc_status st = GC_OK;
	json_t *status = json_object_get(root, "status");
	const char *msg = aj_str(root, "message");
	if (json_is_false(status))
		st = adapter_api_error(err, "API error", msg ? msg : "status false");
	else if (req->kind == KIND_FLAVORS) {
		json_t *data = json_object_get(root, "data");
		if (!json_is_array(data))
			st = err_set(err, GC_EDATA, "no 'data' array in the flavors response");
		else
			st = adapter_keep(run, KIND_FLAVORS, data, err); /* the flavor groups */
	} else {
		if (!json_is_array(root))
			st = msg ? adapter_api_error(err, "API error", msg)
				 : err_set(err, GC_EDATA, "the pricebook is not an array");
		else
			st = adapter_keep(run, KIND_PRICEBOOK, root, err);
	}
	json_decref(root);
	return st;
}

/* Hourly price of the pricebook entry `name`, NAN if none. */
static double price_of(json_t *pricebook, const char *name)
{
	size_t i;
	json_t *e;
	if (!name || !*name)
		return NAN;
	json_array_foreach(pricebook, i, e) {
		const char *n = aj_str(e, "name");
		if (!n || strcmp(n, name) != 0)
			continue;
		double v = aj_num(e, "value");
		return isnan(v) ? aj_num(e, "original_value") : v;
	}
	return NAN;
}

#define SPOT "-spot"

/* The length of `s` without a trailing "-spot"; *spot says if it had one. */
static size_t base_len(const char *s, int *spot)
{
	size_t n = strlen(s), k = strlen(SPOT);
	*spot = n > k && strcmp(s + n - k, SPOT) == 0;
	return *spot ? n - k : n;
}

/* A flavor's fields, its group's where it leaves them out. */
struct flav {
	json_t *f;
	const char *name, *gpu, *region;
	size_t name_len, gpu_len; /* without "-spot" */
	int spot;
	double count;
};

static int flav_get(json_t *group, json_t *f, struct flav *v)
{
	memset(v, 0, sizeof *v);
	v->f = f;
	v->name = aj_str(f, "name");
	if (!json_is_object(f) || !v->name)
		return 0;
	v->gpu = aj_str(f, "gpu");
	if (!v->gpu || !*v->gpu)
		v->gpu = aj_str(group, "gpu");
	v->region = aj_str(f, "region_name");
	if (!v->region || !*v->region)
		v->region = aj_str(group, "region_name");
	int gspot = 0;
	v->name_len = base_len(v->name, &v->spot);
	v->gpu_len = v->gpu ? base_len(v->gpu, &gspot) : 0;
	v->spot |= gspot; /* a "-spot" GPU's price is a spot price whatever the name */
	double gpus = aj_num(f, "gpu_count");
	v->count = gpus > 0 && gpus <= 1024 ? gpus : NAN; /* never trust sizes */
	return 1;
}

static int same_region(const struct flav *a, const struct flav *b)
{
	return (!a->region && !b->region) ||
	       (a->region && b->region && strcmp(a->region, b->region) == 0);
}

/* `b` is the base flavor of the spot flavor `s`: the same name without
 * "-spot", in the same region. */
static int base_of(const struct flav *s, const struct flav *b)
{
	return s->spot && !b->spot && b->name_len == s->name_len &&
	       strncmp(b->name, s->name, s->name_len) == 0 && same_region(s, b);
}

/* ... and with the same GPU model and count: its spot lease. */
static int spot_of(const struct flav *s, const struct flav *b)
{
	return base_of(s, b) && s->gpu && b->gpu && s->gpu_len == b->gpu_len &&
	       strncmp(s->gpu, b->gpu, s->gpu_len) == 0 && s->count == b->count;
}

/* The spot price of one GPU of spot flavor `s`: its "<model>-spot" entry. */
static double spot_unit(json_t *pricebook, const struct flav *s)
{
	char name[256];
	if (!s->gpu || s->gpu_len >= sizeof name - strlen(SPOT))
		return NAN;
	snprintf(name, sizeof name, "%.*s" SPOT, (int)s->gpu_len, s->gpu);
	return price_of(pricebook, name);
}

/* All flavors, and the same sorted by (name without "-spot", region) to
 * find a flavor's base or spot lease in O(log n) (a hostile answer of many
 * flavors must not make this quadratic). */
struct flavs {
	struct flav *v, *sorted;
	size_t n;
};

static int key_cmp(const struct flav *a, const struct flav *b)
{
	size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = strncmp(a->name, b->name, n);
	if (!c)
		c = (a->name_len > b->name_len) - (a->name_len < b->name_len);
	if (!c)
		c = strcmp(a->region ? a->region : "", b->region ? b->region : "");
	return c;
}

static int flav_cmp(const void *x, const void *y)
{
	return key_cmp(x, y);
}

static enum gc_status flavs_load(struct adapter_run *run, struct flavs *fs, char **err)
{
	size_t i, j, n = 0;
	json_t *g, *f;
	memset(fs, 0, sizeof *fs);
	json_t *groups = adapter_kept(run, KIND_FLAVORS);
	json_array_foreach(groups, i, g)
		n += json_array_size(json_object_get(g, "flavors"));
	if (n == 0)
		return GC_OK;
	fs->v = calloc(n, sizeof *fs->v);
	fs->sorted = calloc(n, sizeof *fs->sorted);
	if (!fs->v || !fs->sorted) {
		free(fs->v);
		free(fs->sorted);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	json_array_foreach(groups, i, g) {
		json_array_foreach(json_object_get(g, "flavors"), j, f) {
			if (flav_get(g, f, &fs->v[fs->n]))
				fs->n++;
		}
	}
	memcpy(fs->sorted, fs->v, fs->n * sizeof *fs->v);
	qsort(fs->sorted, fs->n, sizeof *fs->sorted, flav_cmp);
	return GC_OK;
}

/* The other side of `of` (its base when it is a spot flavor, else its spot
 * flavor) in the same region, if `match` holds for it. */
static int find_flavor(const struct flavs *fs, const struct flav *of,
		       int (*match)(const struct flav *, const struct flav *), struct flav *hit)
{
	size_t lo = 0, hi = fs->n;
	while (lo < hi) { /* the first of of's key */
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(&fs->sorted[mid], of) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < fs->n && key_cmp(&fs->sorted[i], of) == 0; i++) {
		const struct flav *v = &fs->sorted[i];
		if (v->spot != of->spot && (of->spot ? match(of, v) : match(v, of))) {
			*hit = *v;
			return 1;
		}
	}
	return 0;
}

static enum gc_status one_flavor(struct adapter_run *run, const struct flavs *fs,
				 const struct flav *v, char **err)
{
	json_t *pricebook = adapter_kept(run, KIND_PRICEBOOK);
	struct flav other;
	char sku[256], gpu[256];
	double price = NAN, spot = NAN;
	if (v->spot) {
		if (find_flavor(fs, v, base_of, &other))
			return GC_OK; /* its base's spot price, or not comparable: dropped */
		spot = spot_unit(pricebook, v) * v->count;
	} else {
		price = price_of(pricebook, v->gpu) * v->count;
		if (find_flavor(fs, v, spot_of, &other))
			spot = spot_unit(pricebook, &other) * v->count;
	}
	snprintf(sku, sizeof sku, "%.*s", (int)v->name_len, v->name);
	snprintf(gpu, sizeof gpu, "%.*s", (int)v->gpu_len, v->gpu ? v->gpu : "");
	json_t *f = v->f;
	double disk = aj_num(f, "disk"), eph = aj_num(f, "ephemeral");
	json_t *stock = json_object_get(f, "stock_available");
	struct offer o;
	offer_init(&o);
	o.sku = sku;
	o.gpu_name = gpu;
	o.region = v->region;
	o.gpu_count = v->count;
	o.vcpus = aj_num(f, "cpu");
	o.ram_gb = aj_num(f, "ram");
	o.disk_gb = disk >= 0 ? disk + (eph > 0 ? eph : 0) : NAN;
	o.available = json_is_boolean(stock) ? json_is_true(stock) : -1;
	o.price_hr = price;
	o.spot_price_hr = spot;
	return adapter_emit(run, &o, err);
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	struct flavs fs;
	enum gc_status st = flavs_load(run, &fs, err);
	for (size_t i = 0; st == GC_OK && i < fs.n; i++)
		st = one_flavor(run, &fs, &fs.v[i], err);
	free(fs.v);
	free(fs.sorted);
	return st;
}

static const char *const key_envs[] = {"HYPERSTACK_API_KEY", NULL};

const struct adapter adapter_hyperstack = {
	.id = "hyperstack",
	.base_url = "https://infrahub-api.nexgencloud.com",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_HEADER,
	.key_name = "api_key",
	.key_envs = key_envs,
	.endpoint = "GET /v1/core/flavors + /v1/pricebook "
		    "(https://docs.hyperstack.cloud/docs/api-reference/)",
	.stock = "hyperstack: /v1/core/flavors stock_available",
	.conditional = 0,
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = adapter_kept_free,
};
