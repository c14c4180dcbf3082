/* offer.c - offer defaults, and the checks every offer passes on its way in. */
#include "gpucmp/offer.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The ranges: a GPU's memory up to 10 TB, a machine's vCPUs up to 10^5
 * and RAM up to 10 PB, disks up to 10^9 GB, links up to 10^6 Gbit/s; a
 * share of one GPU no smaller than 1/100 (a MIG slice is 1/7, a vGPU
 * 1/16); prices by offer_price_ok (a native one up to 10^9 of its
 * currency, for currencies worth less than a dollar). */
#define T(m, r) {#m, offsetof(struct offer, m), OFFER_TEXT, r, 0, 0, ""}
#define N(m, r, lo, hi, u) {#m, offsetof(struct offer, m), OFFER_NUM, r, lo, hi, u}
#define B(m) {#m, offsetof(struct offer, m), OFFER_TRI, 0, 0, 1, ""}
const struct offer_col offer_cols[] = {
	T(provider, 1), T(sku, 1), T(gpu, 0), T(gpu_name, 1),
	N(gpu_count, 1, 1e-3, OFFER_MAX_GPUS, "GPUs"), N(gpu_mem_gb, 0, 1e-3, 1e4, "GB"),
	N(vcpus, 0, 1e-3, 1e5, "vCPUs"), N(ram_gb, 0, 1e-3, 1e7, "GB"),
	N(disk_gb, 0, 0, 1e9, "GB"), T(region, 1),
	N(price_hr, 0, OFFER_MIN_PRICE_HR, OFFER_MAX_PRICE_HR, "USD/h"),
	N(spot_price_hr, 0, OFFER_MIN_PRICE_HR, OFFER_MAX_PRICE_HR, "USD/h"), T(currency, 0),
	N(price_native, 0, OFFER_MIN_PRICE_HR, 1e9, "currency/h"),
	N(spot_native, 0, OFFER_MIN_PRICE_HR, 1e9, "currency/h"), B(available), B(infiniband),
	T(rdma, 0), B(nvlink), N(node_bandwidth_gbps, 0, 1e-3, 1e6, "Gbit/s"),
	T(driver_version, 0), T(max_cuda, 0), T(source, 1), T(origin, 0), T(fetched_at, 1),
	T(as_of, 0), T(price_kind, 0), N(gpu_fraction, 0, 0.01, 1, "of one GPU"),
};
#undef T
#undef N
#undef B
const size_t offer_ncols = sizeof offer_cols / sizeof offer_cols[0];

const char *offer_col_text(const struct offer *o, const struct offer_col *c)
{
	return *(const char *const *)(const void *)((const char *)o + c->at);
}

double offer_col_num(const struct offer *o, const struct offer_col *c)
{
	return *(const double *)(const void *)((const char *)o + c->at);
}

int offer_col_tri(const struct offer *o, const struct offer_col *c)
{
	return *(const int *)(const void *)((const char *)o + c->at);
}

size_t offer_sizes_sane(struct offer *o)
{
	static const size_t sizes[] = {
		offsetof(struct offer, gpu_mem_gb), offsetof(struct offer, vcpus),
		offsetof(struct offer, ram_gb), offsetof(struct offer, disk_gb),
		offsetof(struct offer, node_bandwidth_gbps)};
	size_t n = 0;
	for (size_t i = 0; i < offer_ncols; i++) {
		const struct offer_col *c = &offer_cols[i];
		int size = 0;
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
			size |= c->at == sizes[k];
		double v = size ? offer_col_num(o, c) : NAN;
		if (isnan(v) || (v >= c->lo && v <= c->hi))
			continue;
		offer_col_set_num(o, c, NAN);
		n++;
	}
	return n;
}

void offer_col_set_text(struct offer *o, const struct offer_col *c, const char *v)
{
	*(const char **)(void *)((char *)o + c->at) = v;
}

void offer_col_set_num(struct offer *o, const struct offer_col *c, double v)
{
	*(double *)(void *)((char *)o + c->at) = v;
}

void offer_col_set_tri(struct offer *o, const struct offer_col *c, int v)
{
	*(int *)(void *)((char *)o + c->at) = v;
}

int offer_term_ok(int months)
{
	static const int terms[] = OFFER_TERMS;
	for (size_t i = 0; i < sizeof terms / sizeof *terms; i++)
		if (terms[i] == months)
			return 1;
	return 0;
}

double offer_term_hourly(double total, int months)
{
	if (!offer_term_ok(months) || isnan(total) || isinf(total))
		return NAN;
	/* to a millionth of a dollar, as a source's hourly prices are given */
	return round(total / (months * OFFER_HOURS_PER_MONTH) * 1e6) / 1e6;
}

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
	int n = 0;
	size_t k = 0;
	for (size_t i = 0; i < offer_ncols; i++) {
		const struct offer_col *c = &offer_cols[i];
		if (c->kind != OFFER_TEXT || k >= OFFER_NTEXT)
			continue;
		int changed = 0;
		offer_col_set_text(out, c, str_field(t->b[k++], offer_col_text(out, c), &changed));
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
