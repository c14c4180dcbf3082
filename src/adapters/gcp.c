/* gcp.c - Google Cloud: Cloud Billing Catalog API, Compute Engine SKUs.
 *
 * GET /v1/services/6F81-5844-456A/skus?pageSize=5000 (6F81-5844-456A is
 * Compute Engine) with the API key as the query parameter `key` (required;
 * the Cloud Billing API must be enabled on the key's project).  Pagination:
 * a non-empty `nextPageToken` in the body is sent back as `pageToken`.
 *
 * What is priced: the catalog prices a machine's parts separately -- per
 * GPU-hour, per vCPU-hour and per GiB-hour of the machine family, and per
 * GiB-month of bundled Local SSD -- and knows nothing of machine types.
 * Google bills an accelerator-optimized machine type "for their attached
 * GPUs, predefined vCPU, memory, and bundled Local SSD (if applicable)"
 * (https://cloud.google.com/compute/docs/accelerator-optimized-machines),
 * and SkyPilot (fetch_gcp.py) and gpuhunt (providers/gcp.py) compose the
 * price the same way.  So one offer is one machine type of `machines[]`
 * below (A2, A3 High/Mega, A4, G2, G4) in one region: sku = the machine
 * type, price_hr = gpus x GPU + vcpus x "<family> Instance Core" + ram_gib x
 * "<family> Instance Ram" (+ lssd_gib x Local SSD / 730 h), spot_price_hr
 * = the same sum of the "Spot Preemptible" SKUs.  A part with no price in
 * the region makes that price unknown, never a smaller sum.  A4 (B200) is
 * priced by "A4 Nvidia B200 (1 gpu slice)" SKUs, a slice being one GPU with
 * its share of the machine: price = gpus x slice; only the Spot slice is
 * read (gpuhunt reads Spot and DWS Calendar Mode slices; DWS is a
 * reservation, skipped), so A4 has a spot price only.
 *
 * GPUs that attach to N1 machines (T4, V100, P100, P4, K80) have no machine
 * type of their own: they stay offers for the accelerator alone (sku = the
 * accelerator type, "nvidia-tesla-t4", gpu_count 1, vCPUs, RAM and the host
 * VM's cost NOT included).  A GPU that only comes inside a machine type
 * (the `bound[]` list) is never an offer on its own.  The accelerator type
 * is built from the SKU description: "[Spot Preemptible ]Nvidia Tesla A100
 * GPU running in Americas" -> "Nvidia Tesla A100" (gpu_name) -> lowercased,
 * spaces as '-' -> "nvidia-tesla-a100", with the spellings that differ from
 * the accelerator type mapped ("... A100 80GB" -> nvidia-a100-80gb,
 * "... H100 80GB Mega|Plus" -> nvidia-h100-mega-80gb, "RTX 6000 96GB" ->
 * nvidia-rtx-pro-6000), as gpuhunt's gcp.py does.
 *
 * A SKU counts when category.usageType is "OnDemand", "Preemptible"
 * (Spot), "Commit1Yr" or "Commit3Yr" (committed use, resource-based: a
 * price per unit-hour for a 1- or 3-year commitment; then the description
 * starts "Commitment v1: ", read without it, and the parts are spelt
 * "A2 Cpu in ...", "A2 Ram in ...", "Local SSD in ...", "Nvidia Tesla A100
 * GPU running in ... for 1 Year"), and the description names none of:
 * Sole Tenancy, Reserved, Premium, Custom, suspended, DWS / Calendar Mode,
 * Virtual Workstation (a licence add-on), Commitment.  A machine type's
 * committed price is composed as its on-demand one, of the same term's
 * parts (bundled Local SSD at its committed price, else none); it rides
 * on the offer as a reservation of 12 or 36 months (offer_commit, USD
 * only), which the door refuses at or above the on-demand price.  The A4
 * slice's commitment is not read (no A4 on-demand price to compare).
 * It is a GPU when the last resource word of its description
 * is "GPU" (not "Ram" or "Core") and category.resourceGroup is not CPU or
 * RAM; a family part when the description (after "Spot Preemptible ") is
 * exactly "<family> Instance Core|Ram running in ..." for a family of
 * `families[]`; Local SSD when it starts "SSD backed Local Storage".
 * Price: pricingInfo[0].pricingExpression with usageUnit "h" (GPU, core,
 * slice), "GiBy.h" (RAM) or "GiBy.mo" (Local SSD, / 730 hours as gpuhunt
 * does), the tier of tieredRates starting at 0: unitPrice.units + nanos /
 * 1e9 in unitPrice.currencyCode.  Regions: serviceRegions[].  The parts of
 * all pages are kept per (part, region) in run->state; the offers are
 * composed in finish(), each only of parts in one currency.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"

#define SKUS_PATH "/v1/services/6F81-5844-456A/skus?pageSize=5000"

/* A machine type: its GPUs and the family parts it is billed for.  vcpus
 * and ram_gib are Compute Engine's machineTypes.list guestCpus and
 * memoryMb / 1024, as recorded in the SkyPilot-format GCP catalog of
 * 2026-05-20 (/work/shared/reference/catalogs/skypilot/gcp/vms.csv, the
 * anycloud-sh/catalog mirror); the GPU count is the "-<N>g" of the A2/A3/A4
 * names and, for G2, Google's table
 * (https://cloud.google.com/compute/docs/accelerator-optimized-machines#g2-vms,
 * as PerfKitBenchmarker's gce_virtual_machine.py records it: g2-standard-24
 * 2, -48 4, -96 8, the others 1).  G4 shapes (3.75 GiB per vCPU; 48, 96,
 * 192, 384 vCPUs with 1, 2, 4, 8 RTX PRO 6000) are from gpuhunt's
 * src/tests/providers/test_gcp.py.  The fractional G4 shapes (a vGPU
 * slice of one RTX PRO 6000 96 GB) are from Google's "GPU machine types"
 * table (https://cloud.google.com/compute/docs/gpus#rtx-6000-gpus, the
 * copy "Last updated 2026-08-26", checked 2026-12-03): g4-standard-6 6
 * vCPUs, 22 GB, 1/8 GPU with 12 GB; -12 12, 45 GB, 1/4, 24 GB; -24 24,
 * 90 GB, 1/2, 48 GB; gpuhunt's test records the same GPU memory
 * (12/24/48/96).  A slice is priced as its fraction of the GPU SKU plus
 * the family's vCPU and RAM, and emitted with that fraction as gpu_count
 * and the slice's memory (as Vultr's and Azure's slices).
 * lssd_gib is the bundled Local SSD
 * (https://cloud.google.com/compute/docs/disks/local-ssd#lssd_disks_fixed,
 * gpuhunt's local_ssd_sizes_gib).  Left out, their parts unverified:
 * a3-highgpu-1g/2g/4g (bundled Local SSD size), a3-ultragpu and
 * a3-edgegpu (family SKUs), A4X.  family NULL: priced per GPU slice. */
struct machine {
	const char *name, *family, *accel;
	double gpus, vcpus, ram_gib, lssd_gib;
};

static const struct machine machines[] = {
	{"a2-highgpu-1g", "A2 Instance", "nvidia-tesla-a100", 1, 12, 85, 0},
	{"a2-highgpu-2g", "A2 Instance", "nvidia-tesla-a100", 2, 24, 170, 0},
	{"a2-highgpu-4g", "A2 Instance", "nvidia-tesla-a100", 4, 48, 340, 0},
	{"a2-highgpu-8g", "A2 Instance", "nvidia-tesla-a100", 8, 96, 680, 0},
	{"a2-megagpu-16g", "A2 Instance", "nvidia-tesla-a100", 16, 96, 1360, 0},
	{"a2-ultragpu-1g", "A2 Instance", "nvidia-a100-80gb", 1, 12, 170, 375},
	{"a2-ultragpu-2g", "A2 Instance", "nvidia-a100-80gb", 2, 24, 340, 750},
	{"a2-ultragpu-4g", "A2 Instance", "nvidia-a100-80gb", 4, 48, 680, 1500},
	{"a2-ultragpu-8g", "A2 Instance", "nvidia-a100-80gb", 8, 96, 1360, 3000},
	{"a3-highgpu-8g", "A3 Instance", "nvidia-h100-80gb", 8, 208, 1872, 6000},
	/* gpuhunt: "A3Plus Instance" SKUs are the a3-megagpu family's */
	{"a3-megagpu-8g", "A3Plus Instance", "nvidia-h100-mega-80gb", 8, 208, 1872, 6000},
	{"a4-highgpu-8g", NULL, "nvidia-b200", 8, 224, 3968, 0},
	{"g2-standard-4", "G2 Instance", "nvidia-l4", 1, 4, 16, 0},
	{"g2-standard-8", "G2 Instance", "nvidia-l4", 1, 8, 32, 0},
	{"g2-standard-12", "G2 Instance", "nvidia-l4", 1, 12, 48, 0},
	{"g2-standard-16", "G2 Instance", "nvidia-l4", 1, 16, 64, 0},
	{"g2-standard-24", "G2 Instance", "nvidia-l4", 2, 24, 96, 0},
	{"g2-standard-32", "G2 Instance", "nvidia-l4", 1, 32, 128, 0},
	{"g2-standard-48", "G2 Instance", "nvidia-l4", 4, 48, 192, 0},
	{"g2-standard-96", "G2 Instance", "nvidia-l4", 8, 96, 384, 0},
	/* the "G4 Instance Core|Ram" descriptions follow the A2/A3/G2 pattern;
	 * no recorded G4 SKU was seen: without them G4 has no offer */
	{"g4-standard-6", "G4 Instance", "nvidia-rtx-pro-6000", 0.125, 6, 22, 0},
	{"g4-standard-12", "G4 Instance", "nvidia-rtx-pro-6000", 0.25, 12, 45, 0},
	{"g4-standard-24", "G4 Instance", "nvidia-rtx-pro-6000", 0.5, 24, 90, 0},
	{"g4-standard-48", "G4 Instance", "nvidia-rtx-pro-6000", 1, 48, 180, 0},
	{"g4-standard-96", "G4 Instance", "nvidia-rtx-pro-6000", 2, 96, 360, 0},
	{"g4-standard-192", "G4 Instance", "nvidia-rtx-pro-6000", 4, 192, 720, 0},
	{"g4-standard-384", "G4 Instance", "nvidia-rtx-pro-6000", 8, 384, 1440, 0},
};

/* Accelerators sold only inside an accelerator-optimized machine type
 * (https://cloud.google.com/compute/docs/gpus: N1 takes T4, V100, P100,
 * P4): never an offer alone. */
static const char *const bound[] = {
	"nvidia-tesla-a100", "nvidia-a100-80gb", "nvidia-h100-80gb", "nvidia-h100-mega-80gb",
	"nvidia-h200-141gb", "nvidia-b200", "nvidia-gb200", "nvidia-gb300", "nvidia-l4",
	"nvidia-rtx-pro-6000", NULL,
};

#define HOURS_PER_MONTH 730.0 /* the Local SSD monthly price per hour (gpuhunt) */

/* The prices a part has: on demand, Spot, and committed use for 1 and 3
 * years (category.usageType OnDemand, Preemptible, Commit1Yr, Commit3Yr). */
enum kind { K_OD, K_SPOT, K_C12, K_C36, NKINDS };
static const int kind_months[NKINDS] = {0, 0, 12, 36};

struct gcp_entry {
	char *sku;      /* the part: "gpu:<accelerator type>", "core:<family>",
			   "ram:<family>", "lssd", "slice:<accelerator type>" */
	char *gpu_name; /* a GPU's, as the description writes it */
	char *region;
	char currency[8];
	double p[NKINDS]; /* per unit, in currency, NAN if none: by enum kind */
};

struct gcp_state {
	struct gcp_entry *items;
	size_t n, cap;
};

static void free_state(void *p)
{
	struct gcp_state *s = p;
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->items[i].sku);
		free(s->items[i].gpu_name);
		free(s->items[i].region);
	}
	free(s->items);
	free(s);
}

/* Case-insensitive strstr. */
static const char *ci_find(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return hay;
	}
	return NULL;
}

static const char *const skip_words[] = {
	"Sole Tenancy", "Reserved", "Premium", "Custom", "suspended", "DWS",
	"Calendar Mode", "Virtual Workstation", "Commitment", NULL,
};

/* Offset of the last word `w` in `s` (after a space, before a space or the
 * end), or -1. */
static long last_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	long best = -1;
	for (const char *p = s; (p = ci_find(p, w)) != NULL; p++)
		if (p > s && p[-1] == ' ' && (p[n] == ' ' || p[n] == '\0'))
			best = (long)(p - s);
	return best;
}

/* The GPU part of a description and its accelerator type; 0 if none.  The
 * description's last resource word decides what it prices ("... GPU
 * Instance Ram" is memory). */
static int accelerator(const char *desc, char *name, size_t nn, char *type, size_t tn)
{
	const char *d = desc;
	if (ci_find(d, "Spot Preemptible ") == d)
		d += strlen("Spot Preemptible ");
	long gpu = last_word(d, "GPU"), ram = last_word(d, "Ram"), core = last_word(d, "Core");
	if (ram > gpu || core > gpu)
		return 0;
	if (ci_find(d, "RTX 6000 96GB")) {
		snprintf(name, nn, "RTX PRO 6000");
		snprintf(type, tn, "nvidia-rtx-pro-6000");
		return 1;
	}
	if (gpu <= 0 || (size_t)gpu >= nn)
		return 0;
	const char *end = d + gpu - 1; /* the space before "GPU" */
	snprintf(name, nn, "%.*s", (int)(end - d), d);
	size_t j = 0;
	for (const char *p = name; *p && j + 1 < tn; p++) {
		unsigned char c = (unsigned char)*p;
		if (isalnum(c))
			type[j++] = (char)tolower(c);
		else if (j && type[j - 1] != '-')
			type[j++] = '-';
	}
	while (j && type[j - 1] == '-')
		j--;
	type[j] = '\0';
	static const char *const renames[][2] = {
		{"nvidia-tesla-a100-80gb", "nvidia-a100-80gb"},
		{"nvidia-h100-80gb-mega", "nvidia-h100-mega-80gb"},
		{"nvidia-h100-80gb-plus", "nvidia-h100-mega-80gb"},
	};
	for (size_t i = 0; i < sizeof renames / sizeof renames[0]; i++)
		if (strcmp(type, renames[i][0]) == 0)
			snprintf(type, tn, "%s", renames[i][1]);
	return j > 0;
}

/* Price of one usage unit from pricingInfo[0], when the unit is `want`
 * (a missing usageUnit is taken as it); NAN when unusable. */
static double unit_price(json_t *sku, const char *want, const char **currency)
{
	json_t *info = json_array_get(json_object_get(sku, "pricingInfo"), 0);
	json_t *expr = json_object_get(info, "pricingExpression");
	const char *unit = aj_str(expr, "usageUnit");
	if (!json_is_object(expr) || (unit && strcmp(unit, want) != 0))
		return NAN;
	json_t *rates = json_object_get(expr, "tieredRates");
	json_t *best = NULL, *r;
	size_t i;
	json_array_foreach(rates, i, r) {
		double start = aj_num(r, "startUsageAmount");
		if (isnan(start))
			start = 0; /* proto3 JSON leaves zero values out */
		if (start == 0) {
			best = r;
			break;
		}
	}
	json_t *up = json_object_get(best, "unitPrice");
	if (!json_is_object(up))
		return NAN;
	json_t *u = json_object_get(up, "units"), *n = json_object_get(up, "nanos");
	double units = u ? aj_num(up, "units") : 0;
	double nanos = n ? aj_num(up, "nanos") : 0;
	if (isnan(units) || isnan(nanos) || fabs(nanos) >= 1e9)
		return NAN;
	*currency = aj_str(up, "currencyCode");
	return units + nanos / 1e9;
}

static struct gcp_entry *entry(struct gcp_state *s, const char *sku, const char *region)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].sku, sku) == 0 && strcmp(s->items[i].region, region) == 0)
			return &s->items[i];
	if (buf_grow_array(&s->items, &s->cap, s->n, sizeof *s->items, 64))
		return NULL;
	struct gcp_entry *e = &s->items[s->n];
	memset(e, 0, sizeof *e);
	e->sku = strdup(sku);
	e->region = strdup(region);
	for (int k = 0; k < NKINDS; k++)
		e->p[k] = NAN;
	if (!e->sku || !e->region) {
		free(e->sku);
		free(e->region);
		return NULL;
	}
	s->n++;
	return e;
}

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The machine-family part `d` prices (description without "Spot
 * Preemptible " or "Commitment v1: "): "core:<family>" or "ram:<family>"
 * into part[]; 0 if none.  Exactly "<family> Instance Core running in ...",
 * so "A2 Custom Instance Core" or "A3 Ultra GPU Instance Ram" never stand
 * in; a commitment (`commit`) exactly "<family less ' Instance'> Cpu|Ram
 * in ..." ("A2 Cpu in Americas for 1 Year"). */
static int family_part(const char *d, int commit, char *part, size_t n)
{
	for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++) {
		const char *f = machines[i].family;
		size_t fl = f ? strlen(f) : 0;
		if (f && commit) {
			if (fl <= 9 || strcmp(f + fl - 9, " Instance") != 0)
				continue;
			fl -= 9;
		}
		if (!f || strncmp(d, f, fl) != 0)
			continue;
		const char *rest = d + fl;
		if (starts(rest, commit ? " Cpu in " : " Core running in ")) {
			snprintf(part, n, "core:%s", f);
			return 1;
		}
		if (starts(rest, commit ? " Ram in " : " Ram running in ")) {
			snprintf(part, n, "ram:%s", f);
			return 1;
		}
	}
	return 0;
}

/* Keep `price` (per unit, in `currency`) as the `kind` price (on demand,
 * spot, committed) of `part` in every region of the SKU. */
static enum gc_status keep_part(struct gcp_state *s, json_t *sku, const char *part,
				const char *gpu_name, enum kind kind, double price,
				const char *currency, char **err)
{
	json_t *regions = json_object_get(sku, "serviceRegions");
	size_t i;
	json_t *r;
	json_array_foreach(regions, i, r) {
		const char *region = json_string_value(r);
		if (!region || !*region || strlen(region) > 64)
			continue;
		struct gcp_entry *e = entry(s, part, region);
		if (!e)
			return err_set(err, GC_ENOMEM, "out of memory");
		if (gpu_name && (!e->gpu_name || (kind == K_OD && isnan(e->p[K_OD])))) {
			free(e->gpu_name);
			e->gpu_name = strdup(gpu_name);
			if (!e->gpu_name)
				return err_set(err, GC_ENOMEM, "out of memory");
		}
		if (!e->currency[0])
			snprintf(e->currency, sizeof e->currency, "%s", currency);
		else if (strcmp(e->currency, currency) != 0)
			continue; /* never mix currencies in one offer */
		double *slot = &e->p[kind];
		if (isnan(*slot))
			*slot = price; /* the first SKU of a kind wins */
	}
	return GC_OK;
}

#define COMMIT_PREFIX "Commitment v1: "

/* The kind of price category.usageType gives; -1: none read. */
static int usage_kind(const char *usage)
{
	static const char *const names[NKINDS] = {"OnDemand", "Preemptible", "Commit1Yr",
						  "Commit3Yr"};
	for (int k = 0; k < NKINDS; k++)
		if (strcmp(usage, names[k]) == 0)
			return k;
	return -1;
}

/* The part a SKU prices into part[], its usage unit and units per price
 * (730 for a monthly price); 0 if none.  `d` is the description without
 * "Spot Preemptible " or "Commitment v1: ". */
static int part_of(const char *d, const char *group, enum kind kind, char *part, size_t n,
		   char *name, size_t nn, const char **unit, double *per)
{
	int commit = kind == K_C12 || kind == K_C36;
	char type[128];
	*unit = "h";
	*per = 1;
	if (family_part(d, commit, part, n)) {
		if (starts(part, "ram:"))
			*unit = "GiBy.h";
	} else if (starts(d, commit ? "Local SSD in " : "SSD backed Local Storage")) {
		snprintf(part, n, "lssd");
		*unit = "GiBy.mo";
		*per = HOURS_PER_MONTH;
	} else if (starts(d, "A4 Nvidia B200 (1 gpu slice) ")) {
		if (kind != K_SPOT || !starts(d, "A4 Nvidia B200 (1 gpu slice) running in "))
			return 0; /* as gpuhunt: only the Spot slice is an A4 price */
		snprintf(part, n, "slice:nvidia-b200");
	} else if (ci_find(d, "gpu slice")) {
		return 0; /* a slice of another machine: not known here */
	} else {
		if (group && (strcmp(group, "CPU") == 0 || strcmp(group, "RAM") == 0))
			return 0;
		if (!accelerator(d, name, nn, type, sizeof type))
			return 0;
		snprintf(part, n, "gpu:%s", type);
		return 2;
	}
	return 1;
}

static enum gc_status one_sku(struct adapter_run *run, json_t *sku, char **err)
{
	struct gcp_state *s = run->state;
	json_t *cat = json_object_get(sku, "category");
	const char *desc = aj_str(sku, "description");
	const char *usage = aj_str(cat, "usageType");
	const char *group = aj_str(cat, "resourceGroup");
	int kind = usage ? usage_kind(usage) : -1;
	if (!desc || kind < 0)
		return GC_OK;
	const char *d = desc;
	if (kind == K_C12 || kind == K_C36) {
		if (!starts(desc, COMMIT_PREFIX))
			return GC_OK; /* another commitment's spelling: not read */
		d += strlen(COMMIT_PREFIX);
	}
	for (size_t i = 0; skip_words[i]; i++)
		if (ci_find(d, skip_words[i]))
			return GC_OK;
	if (starts(d, "Spot Preemptible "))
		d += strlen("Spot Preemptible ");
	char part[160], name[128];
	const char *unit;
	double per;
	int what = part_of(d, group, (enum kind)kind, part, sizeof part, name, sizeof name, &unit,
			   &per);
	if (!what)
		return GC_OK;
	const char *currency = NULL;
	double price = unit_price(sku, unit, &currency);
	if (isnan(price))
		return GC_OK;
	if (!currency || !*currency || strlen(currency) >= sizeof s->items[0].currency)
		currency = "USD";
	return keep_part(s, sku, part, what == 2 ? name : NULL, (enum kind)kind, price / per,
			 currency, err);
}

static enum gc_status start(struct adapter_run *run, char **err)
{
	return adapter_queue(run, 0, NULL, NULL, err, "%s" SKUS_PATH, run->base);
}

/* a non-empty nextPageToken goes back as pageToken */
static const struct adapter_pager next_page = {
	.style = ADAPTER_PAGE_TOKEN,
	.next = "nextPageToken",
	.url = SKUS_PATH,
	.param = "pageToken",
};

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	enum gc_status st = GC_OK;
	json_t *skus = json_object_get(root, "skus");
	struct gcp_state *s = run->state;
	if (!json_is_object(root)) {
		st = err_set(err, GC_EDATA, "expected a JSON object with 'skus'");
	} else if (json_is_object(json_object_get(root, "error"))) {
		const char *m = aj_str(json_object_get(root, "error"), "message");
		st = adapter_api_error(err, "API error", m ? m : "(no message)");
	} else if (skus && !json_is_array(skus)) {
		st = err_set(err, GC_EDATA, "'skus' is not a list");
	} else if (!s && !(s = run->state = calloc(1, sizeof *s))) {
		st = err_set(err, GC_ENOMEM, "out of memory");
	}
	if (st == GC_OK)
		st = adapter_each(run, skus, one_sku, err);
	if (st == GC_OK)
		st = adapter_next_page(run, req, root, &next_page, NULL, err);
	json_decref(root);
	return st;
}

static const struct gcp_entry *part_in(const struct gcp_state *s, const char *kind,
				       const char *what, const char *region)
{
	char key[160];
	snprintf(key, sizeof key, "%s%s%s", kind, what ? ":" : "", what ? what : "");
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].sku, key) == 0 && strcmp(s->items[i].region, region) == 0)
			return &s->items[i];
	return NULL;
}

/* n x the part's `kind` price added to *sum; *sum becomes NAN when the
 * part is unknown or in another currency. */
static void add(double *sum, double n, const struct gcp_entry *e, int kind, const char *cur)
{
	double p = e ? e->p[kind] : NAN;
	if (!e || strcmp(e->currency, cur) != 0)
		p = NAN;
	*sum += n * p;
}

/* An offer `sku` of `count` GPUs of part `p` (its name and region), the
 * GPU worked out by its accelerator type (the spelling gpus.yaml lists for
 * GCP), not by the SKU description's name: gpu and memory (gpu_infer; a
 * slice's share), left to adapter_emit when the table does not know it. */
static void part_offer(const struct adapter_run *run, struct offer *o, const char *sku,
		       const struct gcp_entry *p, const char *accel, double count)
{
	offer_init(o);
	o->sku = sku;
	o->gpu_name = p->gpu_name;
	o->region = p->region;
	o->gpu_count = count;
	struct gpu_hint h = {.name = accel, .sku = accel, .count = count, .mem_gb = NAN};
	struct gpu_guess g;
	gpu_infer(run->gpus, &h, &g);
	if (g.model) {
		o->gpu = g.model->id;
		o->gpu_mem_gb = g.mem_gb;
	}
}

/* The committed prices of `price` (by kind) as reservations of 12 and 36
 * months into c[]; in USD only (an offer_commit is USD per hour); the
 * catalog's commitment price is per hour already. */
static size_t commits_of(const double *price, const char *currency, struct offer_commit *c)
{
	size_t n = 0;
	if (strcmp(currency, "USD") != 0)
		return 0;
	for (int k = K_C12; k <= K_C36; k++)
		if (!isnan(price[k]))
			c[n++] = (struct offer_commit){"reserved", kind_months[k], price[k], NULL,
						       NULL};
	return n;
}

/* One machine type in the region of its GPU (or slice) part `g`. */
static enum gc_status emit_machine(struct adapter_run *run, const struct gcp_state *s,
				   const struct machine *m, const struct gcp_entry *g,
				   char **err)
{
	double price[NKINDS];
	for (int k = 0; k < NKINDS; k++) {
		double sum = 0;
		add(&sum, m->gpus, g, k, g->currency);
		if (m->family) {
			add(&sum, m->vcpus, part_in(s, "core", m->family, g->region), k,
			    g->currency);
			add(&sum, m->ram_gib, part_in(s, "ram", m->family, g->region), k,
			    g->currency);
		}
		if (m->lssd_gib > 0)
			add(&sum, m->lssd_gib, part_in(s, "lssd", NULL, g->region), k,
			    g->currency);
		price[k] = sum;
	}
	if (isnan(price[K_OD]) && isnan(price[K_SPOT]))
		return GC_OK; /* a part is missing: no whole price to offer */
	struct offer o;
	struct offer_commit commits[2];
	part_offer(run, &o, m->name, g, m->accel, m->gpus);
	o.vcpus = m->vcpus;
	o.ram_gb = m->ram_gib;
	adapter_set_prices(&o, g->currency, price[K_OD], price[K_SPOT]);
	o.commits = commits;
	o.ncommits = commits_of(price, g->currency, commits);
	return adapter_emit(run, &o, err);
}

static int is_bound(const char *type)
{
	for (size_t i = 0; bound[i]; i++)
		if (strcmp(type, bound[i]) == 0)
			return 1;
	return 0;
}

static enum gc_status finish(struct adapter_run *run, char **err)
{
	struct gcp_state *s = run->state;
	enum gc_status st = GC_OK;
	/* machine types, per region of their GPU's price */
	for (size_t k = 0; s && k < sizeof machines / sizeof machines[0] && st == GC_OK; k++) {
		const struct machine *m = &machines[k];
		char key[160];
		snprintf(key, sizeof key, "%s:%s", m->family ? "gpu" : "slice", m->accel);
		for (size_t i = 0; i < s->n && st == GC_OK; i++)
			if (strcmp(s->items[i].sku, key) == 0)
				st = emit_machine(run, s, m, &s->items[i], err);
	}
	/* GPUs attached to N1 machines: the accelerator alone */
	for (size_t i = 0; s && i < s->n && st == GC_OK; i++) {
		struct gcp_entry *e = &s->items[i];
		if (!starts(e->sku, "gpu:") || is_bound(e->sku + 4))
			continue;
		if (isnan(e->p[K_OD]) && isnan(e->p[K_SPOT]))
			continue; /* committed prices alone: nothing to rent by the hour */
		struct offer o;
		struct offer_commit commits[2];
		part_offer(run, &o, e->sku + 4, e, e->sku + 4, 1);
		adapter_set_prices(&o, e->currency, e->p[K_OD], e->p[K_SPOT]);
		o.commits = commits;
		o.ncommits = commits_of(e->p, e->currency, commits);
		st = adapter_emit(run, &o, err);
	}
	return st;
}

const struct adapter adapter_gcp = {
	.id = "gcp",
	.base_url = "https://cloudbilling.googleapis.com",
	.auth = ADAPTER_AUTH_REQUIRED,
	.key_style = ADAPTER_KEY_QUERY,
	.key_name = "key",
	.endpoint = "GET /v1/services/6F81-5844-456A/skus, GPU machine types priced as GPUs + "
		    "family vCPU + RAM SKUs "
		    "(https://cloud.google.com/billing/docs/reference/rest/v1/services.skus/list)",
	.start = start,
	.parse = parse,
	.finish = finish,
	.free_state = free_state,
};
