/* offer.c - offer defaults. */
#include "gpucmp/offer.h"

#include <math.h>
#include <string.h>

void offer_init(struct offer *o)
{
	memset(o, 0, sizeof *o);
	o->currency = "USD";
	o->gpu_count = NAN;
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
