/* scaleway.c - Scaleway Instances: the public product catalog, per zone.
 *
 * https://www.scaleway.com/en/developers/api/instance/
 * GET /instance/v1/zones/{zone}/products/servers              (the types)
 * GET /instance/v1/zones/{zone}/products/servers/availability (the stock)
 * No key: both are readable anonymously.  Each answer is a map keyed by
 * the instance type, {"servers": {"H100-1-80G": {...}}}; a product has
 * `ncpus`, `ram` (bytes), `gpu` (count), `gpu_info{gpu_name, gpu_memory
 * (bytes)}`, `hourly_price` (EUR for the whole Instance),
 * `scratch_storage_max_size` (bytes of included local NVMe) and
 * `end_of_service`; an availability entry is {"availability":
 * "available" | "scarce" | "shortage"}.  Pagination: `page` / `per_page`
 * (<= 100).  The total comes in an X-Total-Count header, which a parser
 * does not see, so the next page is asked for until one comes back empty
 * (or a `total_count` in the body, should one appear, is reached): a
 * full-page rule would silently truncate if the server lowered its page
 * cap.  That costs one empty page per zone and endpoint.  Products and
 * availability are kept per zone in run->state and joined in finish(): one
 * offer per zone and GPU type, available when the zone reports "available"
 * or "scarce" (few left), not when "shortage", unknown when not listed.
 * Types at end of service can no longer be created and are left out.
 *
 * The zones are those the product-availability guide lists with GPU
 * Instances (providers/scaleway.yaml): fr-par-1, fr-par-2, pl-waw-2.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"

static const char *const zones[] = {"fr-par-1", "fr-par-2", "pl-waw-2"};
enum { NZONES = sizeof zones / sizeof zones[0], PER_PAGE = 100, MAX_PAGE = 50 };

/* A request's kind packs the page, the zone and the endpoint. */
enum { EP_PRODUCTS = 0, EP_AVAIL = 1 };
static int kind_of(int page, int zone, int ep)
{
	return ((page - 1) * NZONES + zone) * 2 + ep;
}

struct state {
	json_t *products[NZONES]; /* type -> product, merged over pages */
	json_t *avail[NZONES];    /* type -> {"availability": ...} */
};

static void free_state(void *p)
{
	struct state *s = p;
	for (int i = 0; i < NZONES; i++) {
		json_decref(s->products[i]);
		json_decref(s->avail[i]);
	}
	free(s);
}

static struct state *get_state(struct adapter_run *run, char **err)
{
	if (!run->state) {
		struct state *s = calloc(1, sizeof *s);
		for (int i = 0; s && i < NZONES; i++) {
			s->products[i] = json_object();
			s->avail[i] = json_object();
			if (!s->products[i] || !s->avail[i]) {
				free_state(s);
				s = NULL;
			}
		}
		if (!s) {
			err_set(err, GC_ENOMEM, "out of memory");
			return NULL;
		}
		run->state = s;
	}
	return run->state;
}

static enum gc_status queue_page(struct adapter_run *run, int page, int zone, int ep, char **err)
{
	return adapter_queue(run, kind_of(page, zone, ep), NULL, NULL, err,
			     "%s/instance/v1/zones/%s/products/servers%s?page=%d&per_page=%d",
			     run->base, zones[zone], ep == EP_AVAIL ? "/availability" : "", page,
			     PER_PAGE);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	enum gc_status st = GC_OK;
	for (int z = 0; z < NZONES && st == GC_OK; z++) {
		st = queue_page(run, 1, z, EP_PRODUCTS, err);
		if (st == GC_OK)
			st = queue_page(run, 1, z, EP_AVAIL, err);
	}
	return st;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	if (req->kind < 0)
		return err_set(err, GC_EUSAGE, "unknown request kind %d", req->kind);
	int ep = req->kind % 2, zone = (req->kind / 2) % NZONES;
	int page = req->kind / (2 * NZONES) + 1;
	struct state *s = get_state(run, err);
	if (!s)
		return GC_ENOMEM;
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	json_t *servers = json_object_get(root, "servers");
	enum gc_status st = GC_OK;
	if (!json_is_object(servers)) {
		const char *msg = aj_str(root, "message");
		st = msg ? adapter_api_error(err, "API error", msg)
			 : err_set(err, GC_EDATA, "no 'servers' object in the response");
	} else if (json_object_update(ep == EP_AVAIL ? s->avail[zone] : s->products[zone],
				      servers) != 0) {
		st = err_set(err, GC_ENOMEM, "out of memory");
	}
	if (st == GC_OK) {
		size_t got = json_object_size(servers);
		double total = aj_num(root, "total_count");
		int more = got > 0 && (isnan(total) || (double)page * PER_PAGE < total);
		if (more && page < MAX_PAGE)
			st = queue_page(run, page + 1, zone, ep, err);
	}
	json_decref(root);
	return st;
}

static int availability(json_t *avail, const char *type)
{
	const char *a = aj_str(json_object_get(avail, type), "availability");
	if (!a)
		return -1;
	if (strcmp(a, "available") == 0 || strcmp(a, "scarce") == 0)
		return 1;
	if (strcmp(a, "shortage") == 0)
		return 0;
	return -1;
}

static enum gc_status one_type(struct adapter_run *run, const char *zone, const char *type,
			       json_t *p, json_t *avail, char **err)
{
	if (!json_is_object(p) || json_is_true(json_object_get(p, "end_of_service")))
		return GC_OK;
	json_t *gi = json_object_get(p, "gpu_info");
	double gib = 1024.0 * 1024.0 * 1024.0;
	double ram = aj_num(p, "ram"), gmem = aj_num(gi, "gpu_memory");
	double scratch = aj_num(p, "scratch_storage_max_size"), gpus = aj_num(p, "gpu");
	struct offer o;
	offer_init(&o);
	o.sku = type;
	o.region = zone;
	o.gpu_name = aj_str(gi, "gpu_name");
	o.gpu_count = gpus > 0 && gpus <= 1024 ? gpus : NAN; /* never trust sizes */
	o.gpu_mem_gb = gmem > 0 ? gmem / gib : NAN;
	o.vcpus = aj_num(p, "ncpus");
	o.ram_gb = ram > 0 ? ram / gib : NAN;
	o.disk_gb = scratch > 0 ? scratch / 1e9 : NAN;
	o.currency = "EUR";
	o.price_native = aj_num(p, "hourly_price");
	o.available = availability(avail, type);
	return adapter_emit(run, &o, err);
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	struct state *s = run->state;
	if (!s)
		return GC_OK;
	enum gc_status st = GC_OK;
	for (int z = 0; z < NZONES && st == GC_OK; z++) {
		const char *type;
		json_t *p;
		json_object_foreach(s->products[z], type, p) {
			if ((st = one_type(run, zones[z], type, p, s->avail[z], err)) != GC_OK)
				break;
		}
	}
	return st;
}

const struct adapter adapter_scaleway = {
	.id = "scaleway",
	.base_url = "https://api.scaleway.com",
	.auth = ADAPTER_AUTH_NONE,
	.key_style = ADAPTER_KEY_HEADER,
	.key_name = "X-Auth-Token",
	.endpoint = "GET /instance/v1/zones/{zone}/products/servers (+ /availability) "
		    "(https://www.scaleway.com/en/developers/api/instance/)",
	.stock = "scaleway: /products/servers/availability",
	.conditional = 0,
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = free_state,
};
