/* snapshot.c - read and write the built-in offer snapshot CSV. */
#include "gpucmp/snapshot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpucmp/csv.h"
#include "gpucmp/embedded.h"
#include "gpucmp/retired.h"
#include "gpucmp/strutil.h"

enum {
	C_PROVIDER, C_SKU, C_GPU, C_GPU_NAME, C_GPU_COUNT, C_GPU_MEM, C_VCPUS, C_RAM,
	C_DISK, C_REGION, C_PRICE, C_SPOT, C_CURRENCY, C_IB, C_RDMA, C_NVLINK, C_BW,
	C_ORIGIN, C_AS_OF, C_COUNT
};

const char *snapshot_embedded(size_t *len)
{
	const struct embedded_file *f = embedded_find("data/snapshot.csv");
	*len = f ? f->len : 0;
	return f ? (const char *)f->data : "";
}

static int num(const char *s, double *out)
{
	if (!*s) {
		*out = NAN;
		return 0;
	}
	return str_to_double(s, out);
}

/* An empty price is none; a written one must be a price (offer_price_ok). */
static int price(const char *s, double *out)
{
	return num(s, out) || (!isnan(*out) && !offer_price_ok(*out));
}

static int tri(const char *s, int *out)
{
	if (!*s)
		*out = -1;
	else if (strcmp(s, "true") == 0)
		*out = 1;
	else if (strcmp(s, "false") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

static int empty(const char *s)
{
	return !s || !*s;
}

static enum gc_status row_to_offer(char **f, struct offer *o, char *fetched,
				   size_t fetched_sz, size_t line, char **err)
{
	offer_init(o);
	o->provider = f[C_PROVIDER];
	o->sku = f[C_SKU];
	o->gpu = empty(f[C_GPU]) ? NULL : f[C_GPU];
	o->gpu_name = f[C_GPU_NAME];
	o->region = f[C_REGION];
	o->currency = f[C_CURRENCY];
	o->origin = f[C_ORIGIN];
	o->rdma = empty(f[C_RDMA]) ? NULL : f[C_RDMA];
	o->source = "snapshot";
	const char *bad = NULL;
	if (empty(o->provider) || empty(o->sku) || empty(o->gpu_name) ||
	    empty(o->region) || empty(o->currency))
		bad = "an empty required field";
	else if (num(f[C_GPU_COUNT], &o->gpu_count) || !(o->gpu_count > 0))
		bad = "a bad gpu_count";
	else if (num(f[C_GPU_MEM], &o->gpu_mem_gb) || num(f[C_VCPUS], &o->vcpus) ||
		 num(f[C_RAM], &o->ram_gb) || num(f[C_DISK], &o->disk_gb) ||
		 num(f[C_BW], &o->node_bandwidth_gbps))
		bad = "a bad number";
	else if (price(f[C_PRICE], &o->price_hr) || price(f[C_SPOT], &o->spot_price_hr) ||
		 (isnan(o->price_hr) && isnan(o->spot_price_hr)))
		bad = "a bad or missing price";
	else if (tri(f[C_IB], &o->infiniband) || tri(f[C_NVLINK], &o->nvlink))
		bad = "a bad true/false field";
	else if (o->rdma && strcmp(o->rdma, "ib") && strcmp(o->rdma, "roce") &&
		 strcmp(o->rdma, "efa") && strcmp(o->rdma, "no"))
		bad = "a bad rdma value";
	else if (strlen(f[C_AS_OF]) != 10 || str_date_days(f[C_AS_OF]) < 0)
		bad = "a bad as_of date";
	if (bad)
		return err_set(err, GC_EDATA, "data/snapshot.csv:%zu: row has %s", line, bad);
	snprintf(fetched, fetched_sz, "%sT00:00:00Z", f[C_AS_OF]);
	o->fetched_at = fetched;
	o->as_of = fetched; /* the catalogs' date: the data's, not a fetch's */
	return GC_OK;
}

static void note_date(struct snapshot_info *info, const char *d)
{
	if (!info->oldest[0] || strcmp(d, info->oldest) < 0)
		snprintf(info->oldest, sizeof info->oldest, "%s", d);
	if (!info->newest[0] || strcmp(d, info->newest) > 0)
		snprintf(info->newest, sizeof info->newest, "%s", d);
}

enum gc_status snapshot_parse(const char *data, size_t len, offer_cb cb, void *ctx,
			      struct snapshot_info *info, char **err)
{
	struct csv_reader r;
	struct snapshot_info local;
	enum gc_status st = GC_OK;
	if (!info)
		info = &local;
	memset(info, 0, sizeof *info);
	csv_init(&r, data, len);
	int rc = csv_next(&r, err);
	if (rc <= 0) {
		csv_release(&r);
		if (rc == 0)
			return err_set(err, GC_EDATA, "data/snapshot.csv: empty");
		return rc == CSV_NOMEM ? GC_ENOMEM : GC_EDATA;
	}
	/* the header must be exactly ours: columns are positional below */
	struct buf h;
	buf_init(&h, 0);
	for (size_t i = 0; i < r.nfields; i++)
		if (buf_printf(&h, "%s%s", i ? "," : "", r.fields[i]) != GC_OK)
			st = err_set(err, GC_ENOMEM, "out of memory");
	if (st == GC_OK && (!h.ptr || strcmp(h.ptr, SNAPSHOT_HEADER) != 0))
		st = err_set(err, GC_EDATA, "data/snapshot.csv: unexpected header");
	buf_free(&h);
	while (st == GC_OK && (rc = csv_next(&r, err)) > 0) {
		if (r.nfields != C_COUNT) {
			st = err_set(err, GC_EDATA,
				     "data/snapshot.csv:%zu: %zu fields, expected %d", r.line,
				     r.nfields, C_COUNT);
			break;
		}
		struct offer o;
		char fetched[32];
		st = row_to_offer(r.fields, &o, fetched, sizeof fetched, r.line, err);
		/* a size retired since the snapshot was built (data/retired.yaml) */
		enum retired_verdict v = st == GC_OK ? offer_retired(o.provider, o.sku, o.region)
						     : RETIRED_KEEP;
		if (v == RETIRED_ERROR) {
			st = err_set(err, GC_ENOMEM, "out of memory");
			break;
		}
		if (v != RETIRED_KEEP) {
			info->retired++;
			continue;
		}
		/* through the cache's door, as every source: text cleaned, cut,
		 * and a spot price at or above on-demand is none */
		if (st == GC_OK)
			offer_spot_sane(&o);
		if (st == GC_OK && cb)
			st = offer_deliver(cb, ctx, &o, NULL, err);
		if (st == GC_OK) {
			info->rows++;
			note_date(info, r.fields[C_AS_OF]);
		}
	}
	if (rc < 0 && st == GC_OK)
		st = rc == CSV_NOMEM ? GC_ENOMEM : GC_EDATA;
	csv_release(&r);
	return st;
}

enum gc_status snapshot_scan(const char *data, size_t len, struct snapshot_info *info,
			     char **err)
{
	return snapshot_parse(data, len, NULL, NULL, info, err);
}

static enum gc_status put_num(struct buf *b, double v)
{
	if (isnan(v))
		return GC_OK;
	char tmp[48];
	snprintf(tmp, sizeof tmp, "%.10g", v);
	return buf_addstr(b, tmp);
}

static const char *tri_text(int v)
{
	return v < 0 ? "" : v ? "true" : "false";
}

enum gc_status snapshot_write_row(struct buf *out, const struct offer *o)
{
	char as_of[11];
	snprintf(as_of, sizeof as_of, "%.10s", o->fetched_at ? o->fetched_at : "");
	const char *text[] = {o->provider, o->sku, o->gpu ? o->gpu : "", o->gpu_name};
	enum gc_status st = GC_OK;
	for (size_t i = 0; i < 4 && st == GC_OK; i++) {
		st = csv_quote(out, text[i]);
		if (st == GC_OK)
			st = buf_addc(out, ',');
	}
	/* a slice is written as its fraction of a GPU, as the sources give it */
	const double nums[] = {o->gpu_count * o->gpu_fraction, o->gpu_mem_gb, o->vcpus, o->ram_gb,
			       o->disk_gb};
	for (size_t i = 0; i < 5 && st == GC_OK; i++) {
		st = put_num(out, nums[i]);
		if (st == GC_OK)
			st = buf_addc(out, ',');
	}
	if (st == GC_OK)
		st = csv_quote(out, o->region);
	if (st == GC_OK)
		st = buf_addc(out, ',');
	if (st == GC_OK)
		st = put_num(out, o->price_hr);
	if (st == GC_OK)
		st = buf_addc(out, ',');
	if (st == GC_OK)
		st = put_num(out, o->spot_price_hr);
	if (st == GC_OK)
		st = buf_printf(out, ",%s,%s,%s,%s,", o->currency, tri_text(o->infiniband),
				o->rdma ? o->rdma : "", tri_text(o->nvlink));
	if (st == GC_OK)
		st = put_num(out, o->node_bandwidth_gbps);
	if (st == GC_OK)
		st = buf_addc(out, ',');
	if (st == GC_OK)
		st = csv_quote(out, o->origin ? o->origin : "");
	if (st == GC_OK)
		st = buf_printf(out, ",%s\n", as_of);
	return st;
}
