/* offer.c - offer defaults, and the checks every offer passes on its way in. */
#include "gpucmp/offer.h"

#include <math.h>
#include <string.h>

void offer_init(struct offer *o)
{
	memset(o, 0, sizeof *o);
	o->currency = "USD";
	o->gpu_count = NAN;
	o->gpu_fraction = 1;
	o->gpu_mem_gb = NAN;
	o->vcpus = NAN;
	o->ram_gb = NAN;
	o->disk_gb = NAN;
	o->price_hr = NAN;
	o->spot_price_hr = NAN;
	o->price_native = NAN;
	o->spot_native = NAN;
	o->node_bandwidth_gbps = NAN;
	o->available = -1;
	o->infiniband = -1;
	o->nvlink = -1;
}

int offer_spot_sane(struct offer *o)
{
	if (isnan(o->spot_price_hr) || isnan(o->price_hr) || o->spot_price_hr < o->price_hr)
		return 0;
	o->spot_price_hr = NAN;
	o->spot_native = NAN;
	return 1;
}

int offer_price_ok(double usd_hr)
{
	return usd_hr >= OFFER_MIN_PRICE_HR && usd_hr <= OFFER_MAX_PRICE_HR;
}

int offer_clean(const struct offer *in, struct offer *out, struct offer_text *t)
{
	*out = *in;
	const char **text[] = {&out->provider, &out->sku,    &out->gpu,        &out->gpu_name,
			       &out->region,   &out->currency, &out->source,   &out->origin,
			       &out->fetched_at, &out->rdma,   &out->driver_version, &out->max_cuda,
			       &out->as_of,    &out->price_kind};
	_Static_assert(sizeof text / sizeof text[0] == sizeof t->b / sizeof t->b[0],
		       "one buffer per text field");
	int n = 0;
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
		int changed = 0;
		*text[i] = str_field(t->b[i], *text[i], &changed);
		n += changed;
	}
	/* a slice of one GPU is one GPU of that fraction */
	if (out->gpu_count > 0 && out->gpu_count < 1 && out->gpu_fraction == 1) {
		out->gpu_fraction = out->gpu_count;
		out->gpu_count = 1;
	}
	if (!(out->gpu_fraction > 0 && out->gpu_fraction <= 1))
		out->gpu_fraction = 1;
	return n;
}

enum gc_status offer_deliver(offer_cb cb, void *ctx, const struct offer *o, size_t *cleaned,
			     char **err)
{
	struct offer_text t;
	struct offer c;
	if (offer_clean(o, &c, &t) && cleaned)
		(*cleaned)++;
	return cb ? cb(ctx, &c, err) : GC_OK;
}
