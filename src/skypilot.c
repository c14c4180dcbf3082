/* skypilot.c - SkyPilot vms.csv catalogs -> normalized offers. */
#include "gpucmp/skypilot.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/buf.h"
#include "gpucmp/catalog.h"
#include "gpucmp/retired.h"
#include "gpucmp/csv.h"
#include "gpucmp/strutil.h"

struct cols {
	int type, acc, cnt, vcpus, mem, info, price, spot, region, zone, storage;
};

struct row {
	const char *type, *acc, *region, *zone;
	double count, vcpus, mem, price, spot, storage;
	double info_mib; /* MemoryInfo.SizeInMiB, NAN if absent */
	char info_name[96];
	int price_bad;   /* a Price or SpotPrice written, but not a price */
};

/* GCP prices an accelerator apart from the VM it is attached to: the
 * accelerator-only rows (empty InstanceType) are paired here with the host
 * machine type that carries them.  Fixed pairings follow GCP's GPU machine
 * types page (https://cloud.google.com/compute/docs/gpus); N1 accelerators
 * (T4, V100, P100, P4) attach to any N1 VM, and the snapshot pairs them with
 * an n1-standard VM of 8 vCPUs per GPU. */
static const struct host_rule {
	const char *type, *acc;
	int count;
} gcp_hosts[] = {
	{"a2-highgpu-1g", "A100", 1}, {"a2-highgpu-2g", "A100", 2},
	{"a2-highgpu-4g", "A100", 4}, {"a2-highgpu-8g", "A100", 8},
	{"a2-megagpu-16g", "A100", 16}, {"a2-ultragpu-1g", "A100-80GB", 1},
	{"a2-ultragpu-2g", "A100-80GB", 2}, {"a2-ultragpu-4g", "A100-80GB", 4},
	{"a2-ultragpu-8g", "A100-80GB", 8}, {"a3-highgpu-1g", "H100", 1},
	{"a3-highgpu-2g", "H100", 2}, {"a3-highgpu-4g", "H100", 4},
	{"a3-highgpu-8g", "H100", 8}, {"a3-edgegpu-8g", "H100", 8},
	{"a3-edgegpu-8g-nolssd", "H100", 8}, {"a3-megagpu-8g", "H100-MEGA", 8},
	{"a3-ultragpu-8g", "H200", 8}, {"a3-ultragpu-8g-nolssd", "H200", 8},
	{"a4-highgpu-8g", "B200", 8}, {"g2-standard-4", "L4", 1},
	{"g2-standard-8", "L4", 1}, {"g2-standard-12", "L4", 1},
	{"g2-standard-16", "L4", 1}, {"g2-standard-32", "L4", 1},
	{"g2-standard-24", "L4", 2}, {"g2-standard-48", "L4", 4},
	{"g2-standard-96", "L4", 8},
};
static const char *const n1_accels[] = {"T4", "V100", "P100", "P4", NULL};

/* One offer of a zone catalog: the lowest on-demand and spot price over
 * the region's regular zones (docs/CATALOGS.md, "Zones"), found by the
 * pricing pass, and whether the offer was handed on. */
struct zone_best {
	char *key; /* "sku|region", NULL: an empty slot */
	double price, spot;
	int emitted;
};

struct host {
	char *key; /* "type|zone" */
	double vcpus, mem, price, spot;
};

struct state {
	const struct skypilot_opts *o;
	struct skypilot_stats *st;
	offer_cb cb;
	void *ctx;
	struct cols c;
	int mem_is_total;     /* the catalog gives memory per instance, not per GPU */
	int votes_total, votes_per_gpu;
	int has_accel_rows;   /* accelerator-only rows (GCP) */
	struct host *hosts;
	size_t nhosts, hosts_cap;
	struct zone_best *seen; /* "sku|region" -> best regular-zone prices (zone catalogs) */
	size_t nseen, seen_slots;
	int collect;          /* the pricing pass: record zone prices, emit nothing */
	struct gpu_memo *memo; /* GPU lookups by (sku, names, memory); may be NULL */
};

/* Catalogs repeat an instance type once per region, and the instance-type
 * globs and name normalization cost more than the rest of a row: remember
 * the last lookups, direct-mapped by a hash of the inputs. */
enum { MEMO_SLOTS = 4096, MEMO_KEY = 120 };
struct gpu_memo {
	char key[MEMO_KEY];
	double mem;
	const struct insttype *it;
	const struct gpu_model *m;
};

static enum gc_status find_cols(const struct csv_reader *r, struct cols *c, char **err)
{
	const struct csv_col want[] = {
		{"InstanceType", &c->type, 1}, {"AcceleratorName", &c->acc, 1},
		{"AcceleratorCount", &c->cnt, 1}, {"vCPUs", &c->vcpus, 0},
		{"MemoryGiB", &c->mem, 0}, {"GpuInfo", &c->info, 0},
		{"Price", &c->price, 1}, {"SpotPrice", &c->spot, 0},
		{"Region", &c->region, 1}, {"AvailabilityZone", &c->zone, 0},
		{"StorageGiB", &c->storage, 0}};
	const char *missing = csv_columns(r, want, sizeof want / sizeof want[0]);
	if (missing)
		return err_set(err, GC_EDATA, "not a SkyPilot catalog: no '%s' column", missing);
	return GC_OK;
}

static const char *field(char **f, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? f[i] : "";
}

/* A plain decimal (str_to_double: no hex, inf or nan), else NAN. */
static double number_or_nan(const char *s)
{
	double v;
	return *s && str_to_double(s, &v) == 0 ? v : NAN;
}

/* A price column: NAN when empty, or (and *bad set) when it is not a
 * number or below zero.  Zero stays: a GCP accelerator row may add
 * nothing to its host's price; emit() judges the offer's sum. */
static double price_or_nan(const char *s, int *bad)
{
	double v = number_or_nan(s);
	if (*s && !(v >= 0)) {
		*bad = 1;
		return NAN;
	}
	return v;
}

/* Pull 'Name' and 'SizeInMiB' out of GpuInfo, written either as a Python
 * dict literal or as JSON; a bare name ("A10") carries neither. */
static void parse_info(const char *s, struct row *r)
{
	r->info_mib = NAN;
	r->info_name[0] = '\0';
	const char *p = strstr(s, "SizeInMiB");
	if (p) {
		p += 9;
		while (*p && !isdigit((unsigned char)*p) && *p != ',' && *p != '}')
			p++;
		const char *end;
		double v;
		if (str_decimal_prefix(p, &v, &end) == 0 && v > 0)
			r->info_mib = v;
	}
	p = strstr(s, "Name");
	if (!p)
		return;
	p += 4;
	while (*p == '\'' || *p == '"' || *p == ':' || *p == ' ')
		if (*p++ == ':')
			break;
	while (*p == ' ')
		p++;
	if (*p != '\'' && *p != '"')
		return;
	char q = *p++;
	size_t n = 0;
	while (*p && *p != q && n + 1 < sizeof r->info_name)
		r->info_name[n++] = *p++;
	r->info_name[n] = '\0';
}

static void read_row(char **f, size_t n, const struct cols *c, struct row *r)
{
	r->type = field(f, n, c->type);
	r->acc = field(f, n, c->acc);
	r->region = field(f, n, c->region);
	r->zone = field(f, n, c->zone);
	/* vast writes ", CA, NA" when the city is unknown */
	while (*r->region == ',' || *r->region == ' ')
		r->region++;
	r->count = number_or_nan(field(f, n, c->cnt));
	r->vcpus = number_or_nan(field(f, n, c->vcpus));
	r->mem = number_or_nan(field(f, n, c->mem));
	r->price_bad = 0;
	r->price = price_or_nan(field(f, n, c->price), &r->price_bad);
	r->spot = price_or_nan(field(f, n, c->spot), &r->price_bad);
	r->storage = number_or_nan(field(f, n, c->storage));
	if (!(r->spot > 0)) /* empty or 0 means no spot price */
		r->spot = NAN;
	parse_info(field(f, n, c->info), r);
}

static int mem_close(double a, double b)
{
	double tol = a * 0.08;
	return fabs(a - b) <= (tol < 2 ? 2 : tol);
}

static const char *gpu_name_of(const struct row *r)
{
	return *r->acc ? r->acc : r->info_name;
}

/* Does the catalog give GPU memory per GPU or per instance?  Vote on the
 * multi-GPU rows whose memory only fits one reading. */
static void vote_memory(struct state *s, const struct row *r)
{
	if (!(r->count > 1) || isnan(r->info_mib) || !*gpu_name_of(r))
		return;
	const char *name = *r->info_name ? r->info_name : r->acc;
	double as_is = r->info_mib / 1024.0, split = as_is / r->count;
	const struct gpu_model *a = gpu_normalize(s->o->gpus, name, as_is, r->type);
	const struct gpu_model *b = gpu_normalize(s->o->gpus, name, split, r->type);
	int fits_as_is = a && mem_close(a->memory_gb, as_is);
	int fits_split = b && mem_close(b->memory_gb, split);
	if (fits_split && !fits_as_is)
		s->votes_total++;
	else if (fits_as_is && !fits_split)
		s->votes_per_gpu++;
}

static const struct host_rule *host_rule_for_type(const char *type)
{
	for (size_t i = 0; i < sizeof gcp_hosts / sizeof gcp_hosts[0]; i++)
		if (strcmp(gcp_hosts[i].type, type) == 0)
			return &gcp_hosts[i];
	return NULL;
}

static int is_n1(const char *type)
{
	return strncmp(type, "n1-standard-", 12) == 0;
}

static enum gc_status add_host(struct state *s, const struct row *r, char **err)
{
	if (buf_grow_array(&s->hosts, &s->hosts_cap, s->nhosts, sizeof *s->hosts, 256))
		return err_set(err, GC_ENOMEM, "out of memory");
	size_t klen = strlen(r->type) + strlen(r->zone) + 2;
	struct host *h = &s->hosts[s->nhosts];
	if (!(h->key = malloc(klen)))
		return err_set(err, GC_ENOMEM, "out of memory");
	snprintf(h->key, klen, "%s|%s", r->type, r->zone);
	h->vcpus = r->vcpus;
	h->mem = r->mem;
	h->price = r->price;
	h->spot = r->spot;
	s->nhosts++;
	return GC_OK;
}

static int host_cmp(const void *a, const void *b)
{
	return strcmp(((const struct host *)a)->key, ((const struct host *)b)->key);
}

static const struct host *find_host(const struct state *s, const char *type,
				    const char *zone)
{
	char key[256];
	if (!s->nhosts)
		return NULL; /* hosts is NULL then, which bsearch may not be given */
	snprintf(key, sizeof key, "%s|%s", type, zone);
	struct host probe = {key, 0, 0, 0, 0};
	return bsearch(&probe, s->hosts, s->nhosts, sizeof *s->hosts, host_cmp);
}

/* Slot of `key` in the open-addressing map: where it is, or the empty slot
 * where it would go.  seen_slots is a power of two. */
static size_t seen_slot(const struct state *s, const char *key)
{
	size_t mask = s->seen_slots - 1;
	size_t i = (size_t)catalog_hash(CATALOG_HASH_INIT, key, strlen(key)) & mask;
	while (s->seen[i].key && strcmp(s->seen[i].key, key) != 0)
		i = (i + 1) & mask;
	return i;
}

static int seen_grow(struct state *s)
{
	size_t old = s->seen_slots;
	struct zone_best *was = s->seen;
	s->seen_slots = old ? old * 2 : 1024;
	if (!(s->seen = calloc(s->seen_slots, sizeof *s->seen))) {
		s->seen = was;
		s->seen_slots = old;
		return -1;
	}
	for (size_t i = 0; i < old; i++)
		if (was[i].key)
			s->seen[seen_slot(s, was[i].key)] = was[i];
	free(was);
	return 0;
}

/* The entry of "sku|region" (the same offer in every zone of a region),
 * made when new; NULL when out of memory. */
static struct zone_best *zone_entry(struct state *s, const char *sku, const char *region)
{
	char key[2 * (STR_FIELD_MAX + 1)]; /* both cleaned, so cut: never truncated */
	snprintf(key, sizeof key, "%s|%s", sku, region);
	if ((s->nseen + 1) * 2 > s->seen_slots && seen_grow(s) != 0)
		return NULL;
	struct zone_best *e = &s->seen[seen_slot(s, key)];
	if (e->key)
		return e;
	if (!(e->key = strdup(key)))
		return NULL;
	e->price = e->spot = NAN;
	e->emitted = 0;
	s->nseen++;
	return e;
}

static int all_digits(const char *p)
{
	if (!*p)
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return !*p;
}

/* Is `zone` one of its region's regular availability zones?  Not so an
 * AWS Local Zone or Wavelength Zone, by name (region us-east-1, zone
 * us-east-1-atl-2a or us-east-1-wl1-bos-wlz-1, where a regular zone is
 * us-east-1a) or by zone ID (use1-atl2-az1, use1-wl1-bos-wlz1, where a
 * regular one is use1-az1).  GCP zones (us-central1-a) and RunPod's
 * data centres (CA-MTL-1 of region CA) are all regular; so is a row
 * without a zone.  docs/CATALOGS.md, "Zones". */
int skypilot_zone_regular(const char *region, const char *zone)
{
	size_t n = strlen(region);
	if (!*zone || !n || !isdigit((unsigned char)region[n - 1]))
		return 1;
	if (strncmp(zone, region, n) == 0)
		return zone[n] != '-' || strlen(zone + n + 1) <= 1;
	const char *p = zone;
	while (islower((unsigned char)*p))
		p++;
	if (p == zone || !isdigit((unsigned char)*p))
		return 1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p != '-')
		return 1;
	return strncmp(p + 1, "az", 2) == 0 && all_digits(p + 3);
}

static double per_gpu_mem(const struct state *s, const struct row *r)
{
	if (isnan(r->info_mib))
		return NAN;
	double gb = r->info_mib / 1024.0;
	return s->mem_is_total && r->count > 0 ? gb / r->count : gb;
}

/* Fill the GPU fields of `o` from the row (and the instance-type table). */
static void lookup_gpu(struct state *s, const struct row *r, const char *sku, double mem,
		       const struct insttype **itp, const struct gpu_model **mp)
{
	const struct insttype *it = insttype_lookup(s->o->types, s->o->provider, sku);
	const struct gpu_model *m = NULL;
	if (it && it->gpu)
		m = gpu_find(s->o->gpus, it->gpu);
	if (!m && *r->info_name)
		m = gpu_normalize(s->o->gpus, r->info_name, mem, sku);
	if (!m)
		m = gpu_normalize(s->o->gpus, gpu_name_of(r), mem, sku);
	*itp = it;
	*mp = m;
}

static void resolve_gpu(struct state *s, const struct row *r, const char *sku,
			struct offer *o)
{
	double mem = per_gpu_mem(s, r);
	const struct insttype *it;
	const struct gpu_model *m;
	char key[MEMO_KEY];
	size_t a = strlen(sku), b = strlen(r->info_name), c = strlen(r->acc);
	int n = -1;
	if (s->memo && a + b + c + 3 <= sizeof key) {
		/* "sku\x1finfo\x1facc" without snprintf: this runs once per row */
		memcpy(key, sku, a);
		key[a] = '\x1f';
		memcpy(key + a + 1, r->info_name, b);
		key[a + 1 + b] = '\x1f';
		memcpy(key + a + 2 + b, r->acc, c + 1);
		n = (int)(a + b + c + 2);
	}
	if (n < 0) {
		lookup_gpu(s, r, sku, mem, &it, &m);
	} else {
		uint64_t h = catalog_hash(CATALOG_HASH_INIT, key, (size_t)n);
		struct gpu_memo *e = &s->memo[h % MEMO_SLOTS];
		int same_mem = (isnan(mem) && isnan(e->mem)) || mem == e->mem;
		if (same_mem && strcmp(e->key, key) == 0) {
			it = e->it;
			m = e->m;
		} else {
			lookup_gpu(s, r, sku, mem, &it, &m);
			memcpy(e->key, key, (size_t)n + 1);
			e->mem = mem;
			e->it = it;
			e->m = m;
		}
	}
	o->gpu = m ? m->id : NULL;
	o->gpu_name = *gpu_name_of(r) ? gpu_name_of(r) : (it && it->gpu ? it->gpu : "");
	/* the curated table wins: catalogs list partial GPUs as whole ones */
	o->gpu_count = it && it->gpu_count > 0 ? it->gpu_count : r->count > 0 ? r->count : NAN;
	if (m && o->gpu_count < 1)
		o->gpu_mem_gb = m->memory_gb * o->gpu_count; /* a vGPU slice */
	else if (m)
		o->gpu_mem_gb = m->memory_gb;
	else
		o->gpu_mem_gb = mem;
	if (it) {
		o->infiniband = it->infiniband;
		o->nvlink = it->nvlink;
		o->rdma = it->rdma;
		o->node_bandwidth_gbps =
			it->node_bandwidth_gbps > 0 ? it->node_bandwidth_gbps : NAN;
	}
}

/* The prices of an offer of a zone catalog: in the pricing pass, fold
 * this zone's into the region's lowest and return 1 (nothing is handed
 * on); in the emitting pass, 1 for every zone row after the first (counted
 * as folded), else the region's prices put into `o` and 0. */
static int zone_fold(struct state *s, struct offer *o, int *oom)
{
	struct zone_best *e = zone_entry(s, o->sku, o->region);
	if (!e) {
		*oom = 1;
		return 1;
	}
	if (s->collect) {
		e->price = fmin(e->price, o->price_hr); /* fmin skips a NAN */
		e->spot = fmin(e->spot, o->spot_price_hr);
		return 1;
	}
	if (e->emitted) {
		s->st->duplicates++;
		return 1;
	}
	e->emitted = 1;
	o->price_hr = e->price;
	o->spot_price_hr = e->spot;
	return 0;
}

/* Hand on one offer of row `r`: its prices checked (offer_price_ok: a
 * price below OFFER_MIN_PRICE_HR or above OFFER_MAX_PRICE_HR is none), its
 * text cleaned and cut (offer_clean, the cache's door), its zone's prices
 * folded into its region's (zone_fold), counted. */
static enum gc_status emit(struct state *s, const struct row *r, struct offer *raw)
{
	int bad = r->price_bad;
	/* a retired size or a second name of another one (data/retired.yaml) */
	enum retired_verdict v = raw->sku ? offer_retired(s->o->provider, raw->sku, raw->region)
					  : RETIRED_KEEP;
	if (v == RETIRED_ERROR)
		return GC_ENOMEM;
	if (v != RETIRED_KEEP) {
		s->st->retired++;
		return GC_OK;
	}
	if (!isnan(raw->price_hr) && !offer_price_ok(raw->price_hr)) {
		raw->price_hr = NAN;
		bad = 1;
	}
	if (!isnan(raw->spot_price_hr) && !offer_price_ok(raw->spot_price_hr)) {
		raw->spot_price_hr = NAN;
		bad = 1;
	}
	if (isnan(raw->price_hr) && isnan(raw->spot_price_hr)) {
		s->st->no_price++;
		s->st->bad_price += bad;
		return GC_OK;
	}
	int zoned = *s->o->provider && s->c.zone >= 0;
	if (zoned && !skypilot_zone_regular(r->region, r->zone)) {
		s->st->outlying_zone++;
		return GC_OK;
	}
	struct offer_text t;
	struct offer c;
	struct offer *o = &c;
	int dirty = offer_clean(raw, &c, &t) > 0, oom = 0;
	if (zoned && zone_fold(s, o, &oom))
		return oom ? GC_ENOMEM : GC_OK;
	s->st->spot_dropped += (size_t)offer_spot_sane(o);
	if (!o->gpu)
		s->st->unknown_gpu++;
	s->st->cleaned += dirty;
	s->st->offers++;
	return s->cb ? s->cb(s->ctx, o, NULL) : GC_OK;
}

static void base_offer(const struct state *s, const struct row *r, struct offer *o)
{
	offer_init(o);
	o->provider = s->o->provider;
	o->source = s->o->source;
	o->origin = s->o->origin;
	o->fetched_at = s->o->fetched_at;
	o->as_of = s->o->as_of;
	o->region = *r->region ? r->region : "unknown";
	o->disk_gb = r->storage;
}

/* An accelerator-only GCP row: one offer per host VM that carries it. */
static enum gc_status emit_paired(struct state *s, const struct row *r, char **err)
{
	int paired = 0;
	enum gc_status st = GC_OK;
	char sku[128];
	/* no VM carries more than 64 (nor a missing or absurd number, which
	 * would not even convert to int below) */
	if (!(r->count >= 1 && r->count <= 64)) {
		s->st->unpaired++;
		return GC_OK;
	}
	for (size_t i = 0; i < sizeof gcp_hosts / sizeof gcp_hosts[0] && st == GC_OK; i++) {
		const struct host_rule *h = &gcp_hosts[i];
		if (strcmp(h->acc, r->acc) != 0 || h->count != (int)r->count)
			continue;
		const struct host *vm = find_host(s, h->type, r->zone);
		if (!vm)
			continue;
		paired = 1;
		if (!(vm->price > 0)) {
			/* a host VM priced at $0 (A4) or not at all: the sum would be
			 * the GPUs' price alone, passed off as the VM's */
			s->st->host_unpriced++;
			continue;
		}
		struct offer o;
		base_offer(s, r, &o);
		snprintf(sku, sizeof sku, "%s", h->type);
		o.sku = sku;
		resolve_gpu(s, r, sku, &o);
		o.vcpus = vm->vcpus;
		o.ram_gb = vm->mem;
		o.price_hr = vm->price + r->price;
		o.spot_price_hr = vm->spot + r->spot; /* NAN if either is missing */
		st = emit(s, r, &o);
	}
	for (const char *const *a = n1_accels; *a && st == GC_OK && !paired; a++) {
		if (strcmp(*a, r->acc) != 0)
			continue;
		char type[32];
		snprintf(type, sizeof type, "n1-standard-%d", 8 * (int)r->count);
		const struct host *vm = find_host(s, type, r->zone);
		if (!vm)
			break;
		paired = 1;
		if (!(vm->price > 0)) {
			s->st->host_unpriced++;
			break;
		}
		struct offer o;
		base_offer(s, r, &o);
		snprintf(sku, sizeof sku, "%s+%dx%s", type, (int)r->count, r->acc);
		o.sku = sku;
		resolve_gpu(s, r, sku, &o);
		o.vcpus = vm->vcpus;
		o.ram_gb = vm->mem;
		o.price_hr = vm->price + r->price;
		o.spot_price_hr = vm->spot + r->spot;
		st = emit(s, r, &o);
	}
	if (!paired)
		s->st->unpaired++;
	if (st == GC_ENOMEM)
		err_set(err, st, "out of memory");
	return st;
}

static enum gc_status emit_row(struct state *s, const struct row *r, char **err)
{
	if (strncmp(r->acc, "tpu-", 4) == 0) {
		s->st->tpu++;
		return GC_OK;
	}
	if (!*r->type && *r->acc)
		return emit_paired(s, r, err);
	int gpu_row = *r->acc && r->count > 0;
	/* a row without an accelerator is a GPU offer only if the table says so */
	const struct insttype *it =
		gpu_row ? NULL : insttype_lookup(s->o->types, s->o->provider, r->type);
	if (!gpu_row && !(it && it->gpu && it->gpu_count > 0)) {
		s->st->cpu_only++;
		return GC_OK;
	}
	struct offer o;
	base_offer(s, r, &o);
	o.sku = r->type;
	resolve_gpu(s, r, r->type, &o);
	o.vcpus = r->vcpus;
	o.ram_gb = r->mem;
	/* Vast rows of SkyPilot-format catalogs all carry 32 vCPUs and 64 GiB,
	 * whatever the GPU count (1 to 8 GPUs alike, instance names ending
	 * -32-65536): a fixed search value, not the host; unknown instead
	 * (docs/SNAPSHOT.md).  The live vast adapter reports real values. */
	if (strcmp(s->o->provider, "vast") == 0 && o.vcpus == SKYPILOT_VAST_VCPUS &&
	    o.ram_gb == SKYPILOT_VAST_RAM_GB) {
		o.vcpus = o.ram_gb = NAN;
		s->st->placeholder++;
	}
	o.price_hr = r->price;
	o.spot_price_hr = r->spot;
	enum gc_status st = emit(s, r, &o);
	if (st == GC_ENOMEM)
		err_set(err, st, "out of memory");
	return st;
}

/* First pass: memory convention votes and (GCP) the host VM rows. */
static enum gc_status first_pass(struct state *s, const char *data, size_t len, char **err)
{
	struct csv_reader rd;
	enum gc_status st = GC_OK;
	int rc;
	csv_init(&rd, data, len);
	rc = csv_next(&rd, err); /* header, checked by the caller */
	while (rc > 0 && (rc = csv_next(&rd, err)) > 0) {
		struct row r;
		read_row(rd.fields, rd.nfields, &s->c, &r);
		if (!*r.type && *r.acc)
			s->has_accel_rows = 1;
		else if (*r.acc)
			vote_memory(s, &r);
		else if (s->c.zone >= 0 && (host_rule_for_type(r.type) || is_n1(r.type)) &&
			 !isnan(r.price) && (st = add_host(s, &r, err)) != GC_OK)
			break;
	}
	if (rc < 0 && st == GC_OK)
		st = rc == CSV_NOMEM ? GC_ENOMEM : GC_EDATA;
	csv_release(&rd);
	if (st == GC_OK && s->nhosts)
		qsort(s->hosts, s->nhosts, sizeof *s->hosts, host_cmp);
	s->mem_is_total = s->votes_total > s->votes_per_gpu;
	return st;
}

/* Every row after the header of `rd`, emitted (or, in the pricing pass,
 * folded into its region's prices). */
static enum gc_status emit_rows(struct state *s, struct csv_reader *rd, char **err)
{
	enum gc_status st = GC_OK;
	int rc;
	while (st == GC_OK && (rc = csv_next(rd, err)) > 0) {
		struct row r;
		s->st->rows++;
		read_row(rd->fields, rd->nfields, &s->c, &r);
		st = emit_row(s, &r, err);
		if (st != GC_OK)
			err_prefix(err, "line %zu", rd->line);
	}
	if (rc < 0 && st == GC_OK)
		st = rc == CSV_NOMEM ? GC_ENOMEM : GC_EDATA;
	return st;
}

/* Zone catalogs: a pass that finds each offer's lowest prices over its
 * region's regular zones before any offer is handed on; its counts are
 * thrown away (the emitting pass counts every row). */
static enum gc_status pricing_pass(struct state *s, const char *data, size_t len, char **err)
{
	struct skypilot_stats scratch, *keep = s->st;
	struct csv_reader rd;
	memset(&scratch, 0, sizeof scratch);
	csv_init(&rd, data, len);
	int rc = csv_next(&rd, err); /* header, checked by the caller */
	s->st = &scratch;
	s->collect = 1;
	enum gc_status st = rc > 0 ? emit_rows(s, &rd, err) : GC_EDATA;
	s->collect = 0;
	s->st = keep;
	csv_release(&rd);
	return st;
}

/* Does the row's GPU memory per GPU depend on the catalog's convention
 * (the vote of every row)?  Only with a size given and more than one GPU. */
static int waits_for_vote(const struct row *r)
{
	return !isnan(r->info_mib) && r->count > 0 && r->count != 1;
}

/* Where a row that waits for the vote starts, to read it again. */
struct later {
	size_t off, line;
};

/* The rows of `later`, read again from `data` and emitted, in file order. */
static enum gc_status emit_later(struct state *s, const char *data, size_t len,
				 const struct later *l, size_t n, char **err)
{
	enum gc_status st = GC_OK;
	struct csv_reader rd;
	csv_init(&rd, data, len);
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		rd.p = data + l[i].off; /* one reader, moved to each row */
		rd.next_line = l[i].line;
		struct row r;
		int rc = csv_next(&rd, err); /* it was read once: only memory can fail */
		if (rc > 0) {
			read_row(rd.fields, rd.nfields, &s->c, &r);
			st = emit_row(s, &r, err);
			if (st != GC_OK)
				err_prefix(err, "line %zu", rd.line);
		} else {
			st = rc == CSV_NOMEM ? GC_ENOMEM
			     : rc < 0   ? GC_EDATA
					: err_set(err, GC_EDATA, "line %zu: cannot read it again",
						  l[i].line);
		}
	}
	csv_release(&rd);
	return st;
}

/* A catalog without zones in one pass: the memory vote as the rows go by,
 * and each row handed on at once unless its reading waits for the vote
 * (waits_for_vote); those are read again once every row has voted.  A
 * key's rows share a SKU, so its first row still comes first. */
static enum gc_status one_pass(struct state *s, struct csv_reader *rd, const char *data,
			       size_t len, char **err)
{
	struct later *l = NULL;
	size_t n = 0, cap = 0;
	enum gc_status st = GC_OK;
	int rc;
	for (;;) {
		size_t off = (size_t)(rd->p - data), line = rd->next_line;
		if ((rc = csv_next(rd, err)) <= 0)
			break;
		struct row r;
		read_row(rd->fields, rd->nfields, &s->c, &r);
		if (*r.type && *r.acc)
			vote_memory(s, &r);
		s->st->rows++;
		if (waits_for_vote(&r)) {
			if (buf_grow_array(&l, &cap, n, sizeof *l, 1024)) {
				st = err_set(err, GC_ENOMEM, "out of memory");
				break;
			}
			l[n++] = (struct later){off, line};
		} else if ((st = emit_row(s, &r, err)) != GC_OK) {
			err_prefix(err, "line %zu", rd->line);
			break;
		}
	}
	if (rc < 0 && st == GC_OK)
		st = rc == CSV_NOMEM ? GC_ENOMEM : GC_EDATA;
	s->mem_is_total = s->votes_total > s->votes_per_gpu;
	if (st == GC_OK)
		st = emit_later(s, data, len, l, n, err);
	free(l);
	return st;
}

static void state_release(struct state *s)
{
	for (size_t i = 0; i < s->nhosts; i++)
		free(s->hosts[i].key);
	free(s->hosts);
	for (size_t i = 0; i < s->seen_slots; i++)
		free(s->seen[i].key);
	free(s->seen);
}

enum gc_status skypilot_parse(const char *data, size_t len,
			      const struct skypilot_opts *opts, offer_cb cb, void *ctx,
			      struct skypilot_stats *stats, char **err)
{
	struct skypilot_stats local;
	struct state s;
	memset(&s, 0, sizeof s);
	s.o = opts;
	s.st = stats ? stats : &local;
	memset(s.st, 0, sizeof *s.st);
	s.cb = cb;
	s.ctx = ctx;
	s.memo = calloc(MEMO_SLOTS, sizeof *s.memo); /* only a cache: NULL is fine */

	struct csv_reader rd;
	csv_init(&rd, data, len);
	int rc = csv_next(&rd, err);
	enum gc_status st = rc < 0 ? (rc == CSV_NOMEM ? GC_ENOMEM : GC_EDATA)
			  : rc == 0 ? err_set(err, GC_EDATA, "empty catalog")
				    : find_cols(&rd, &s.c, err);
	if (st == GC_OK && s.c.zone < 0)
		st = one_pass(&s, &rd, data, len, err);
	else if (st == GC_OK)
		st = first_pass(&s, data, len, err);
	if (st == GC_OK && *opts->provider && s.c.zone >= 0)
		st = pricing_pass(&s, data, len, err);
	if (st == GC_OK && s.c.zone >= 0)
		st = emit_rows(&s, &rd, err);
	csv_release(&rd);
	state_release(&s);
	free(s.memo);
	return st;
}
