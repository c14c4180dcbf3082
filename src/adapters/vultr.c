/* vultr.c - Vultr: GET /v2/plans?type=all&per_page=500 and
 * GET /v2/plans-metal?per_page=500 (no key needed).
 *
 * Both lists are cursor-paginated: `meta.links.next` is an opaque cursor
 * (empty on the last page) that goes back as &cursor=.  The two endpoints
 * are independent; each page's offers are emitted as it is parsed.
 *
 * /v2/plans {"plans": [...]}: Cloud GPU plans ("vcg-a100-12c-120g-80vram")
 * carry gpu_type ("NVIDIA_A100") and gpu_vram_gb, the plan's TOTAL GPU
 * memory; some GPU plans list neither (gpuhunt's "vdm" plans), and then both
 * come from the id ("vcg-<gpu>-...-<N>vram").  Plans without a GPU (vc2,
 * vhf, ...) are dropped.  The GPU count is not given: gpu_infer's by_total
 * rule (gpu.h) works it out with the model, once, from the total memory:
 * the number k of whole GPUs (1, 2, 4, 8, 16) of which the table knows a
 * model with gpu_vram_gb / k GB; below one GPU the plan is a slice
 * (fractional count) of the family's largest model.  A100 plans are cut
 * from the 80 GB card: under 80 GB a slice of it, so "...-40vram" is 0.5
 * of an A100 80GB with 40 GB (not one A100 40GB), and k x 80 GB k whole
 * cards.  A slice is a fractional gpu_count (the door makes it a
 * gpu_fraction), gpu_mem_gb the slice's memory and gpu the full card's id;
 * a GPU the table does not know counts 1.
 * vcpus = vcpu_count, ram_gb = ram (MB) / 1024, disk_gb = disk x disk_count,
 * price_hr = hourly_cost.
 *
 * /v2/plans-metal {"plans_metal": [...]}: the GPU is only in the id
 * ("vbm-112c-2048gb-8-h100-gpu": 8x h100; a missing count stays unknown, so
 * such a plan is kept only if data/instance-types.yaml gives the count)
 * unless gpu_count / gpu_vram_gb (total) are present.  vcpus = cpu_threads,
 * spot_price_hr = hourly_cost_preemptible.
 *
 * `locations` (region ids) are where the plan can be deployed: one offer per
 * location, available; a plan with no location is one unavailable offer in
 * region "unknown".  deploy_ondemand false: no on-demand price.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"
#include "gpucmp/strutil.h"

enum { KIND_PLANS, KIND_METAL };


/* Token i (0-based) of a '-'-separated id into out; 0 if there is none. */
static int id_token(const char *id, int i, char *out, size_t n)
{
	for (; id && i > 0; i--) {
		id = strchr(id, '-');
		if (id)
			id++;
	}
	if (!id || !*id || n == 0)
		return 0;
	size_t len = strcspn(id, "-");
	if (len == 0 || len >= n)
		return 0;
	memcpy(out, id, len);
	out[len] = '\0';
	return 1;
}

static int count_tokens(const char *id)
{
	int n = id && *id ? 1 : 0;
	for (; id && *id; id++)
		n += *id == '-';
	return n;
}

/* "<N>vram" anywhere in the id: N, else NAN. */
static double vram_from_id(const char *id)
{
	char tok[32];
	for (int i = 0, n = count_tokens(id); i < n && i < 32; i++) {
		if (!id_token(id, i, tok, sizeof tok))
			continue;
		size_t len = strlen(tok);
		if (len > 4 && strcmp(tok + len - 4, "vram") == 0 &&
		    isdigit((unsigned char)tok[0])) {
			const char *end;
			double v;
			/* plain decimals only: strtod read "0x50vram" as 80 */
			if (str_decimal_prefix(tok, &v, &end) == 0 && end == tok + len - 4 &&
			    v > 0 && v < 1e6)
				return v;
		}
	}
	return NAN;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* One offer per location: a plan can be deployed where it is listed (or
 * one unavailable offer when it is listed nowhere). */
static enum gc_status emit_locations(struct adapter_run *run, json_t *plan, struct offer *o,
				     char **err)
{
	o->available = 1;
	return adapter_emit_regions(run, o, json_object_get(plan, "locations"), err);
}

/* What VM and metal plans share; the plan's id, NULL when it has none (and
 * is skipped). */
static const char *common(json_t *plan, struct offer *o)
{
	const char *id = aj_str(plan, "id");
	offer_init(o);
	o->sku = id;
	double ram = aj_num(plan, "ram");
	double disk = aj_num(plan, "disk");
	double ndisk = aj_num(plan, "disk_count");
	o->ram_gb = ram > 0 && ram < 1e10 ? ram / 1024.0 : NAN;
	if (disk >= 0 && disk < 1e9)
		o->disk_gb = disk * (ndisk >= 1 && ndisk <= 1000 ? ndisk : 1);
	o->price_hr = aj_num(plan, "hourly_cost");
	o->spot_price_hr = aj_num(plan, "hourly_cost_preemptible");
	if (json_is_false(json_object_get(plan, "deploy_ondemand")))
		o->price_hr = NAN;
	return id;
}

static enum gc_status vm_plan(struct adapter_run *run, json_t *plan, char **err)
{
	struct offer o;
	const char *id = common(plan, &o);
	if (!id)
		return GC_OK;
	double vcpu = aj_num(plan, "vcpu_count");
	o.vcpus = vcpu > 0 && vcpu < 1e5 ? vcpu : NAN;
	char tok[64];
	const char *name = aj_str(plan, "gpu_type");
	if (!name && strncmp(id, "vcg-", 4) == 0 && id_token(id, 1, tok, sizeof tok))
		name = tok;
	double vram = aj_num(plan, "gpu_vram_gb");
	if (!(vram > 0 && vram < 1e6))
		vram = vram_from_id(id);
	if (!name || !*name) {
		o.gpu_count = 0; /* not a GPU plan: dropped once, not per location */
		return adapter_emit(run, &o, err);
	}
	o.gpu_name = name;
	/* the count and the model decide each other: worked out here, by the
	 * total memory, so that adapter_emit (by the memory per GPU) never
	 * reads a 40 GB slice of an A100 80GB as an A100 40GB */
	struct gpu_hint h = {.name = name, .sku = id, .count = aj_num(plan, "gpu_count"),
			     .by_total = 1, .total_gb = vram};
	struct gpu_guess g;
	gpu_infer(run->gpus, &h, &g);
	o.gpu = g.model ? g.model->id : NULL;
	o.gpu_count = g.count;
	o.gpu_mem_gb = g.mem_gb;
	return emit_locations(run, plan, &o, err);
}

static enum gc_status metal_plan(struct adapter_run *run, json_t *plan, char **err)
{
	struct offer o;
	const char *id = common(plan, &o);
	if (!id)
		return GC_OK;
	double threads = aj_num(plan, "cpu_threads");
	if (!(threads > 0))
		threads = aj_num(plan, "cpu_count");
	o.vcpus = threads > 0 && threads < 1e5 ? threads : NAN;
	/* "vbm-112c-2048gb-8-h100-gpu": ... <count>-<gpu>-gpu */
	char last[16], gpu[64], cnt[16];
	int n = count_tokens(id);
	const char *name = aj_str(plan, "gpu_type");
	double count = NAN;
	if (n >= 3 && id_token(id, n - 1, last, sizeof last) && strcmp(last, "gpu") == 0 &&
	    id_token(id, n - 2, gpu, sizeof gpu)) {
		if (!name)
			name = gpu;
		long k;
		if (n >= 4 && id_token(id, n - 3, cnt, sizeof cnt) && all_digits(cnt) &&
		    strlen(cnt) < 5 && str_to_long(cnt, &k) == 0)
			count = (double)k;
	}
	double given = aj_num(plan, "gpu_count");
	if (given > 0 && given < 1e4)
		count = given;
	if (!name || !*name) {
		o.gpu_count = 0;
		return adapter_emit(run, &o, err);
	}
	double vram = aj_num(plan, "gpu_vram_gb");
	o.gpu_name = name;
	o.gpu_count = count > 0 ? count : NAN;
	o.gpu_mem_gb = vram > 0 && vram < 1e6 && count > 0 ? vram / count : NAN;
	return emit_locations(run, plan, &o, err);
}

/* {"plans": [...], "meta": {"links": {"next": CURSOR}}} or {"error": ...};
 * the cursor is empty on the last page.  A real one is ~50 bytes: one of
 * more than CURSOR_MAX fails instead of being cut. */
#define CURSOR_MAX 341
static const struct adapter_list lists[] = {
	[KIND_PLANS] = {.path = "plans", .type = JSON_ARRAY, .each = vm_plan,
			.error = "error", .what = "Vultr error",
			.pager = {.style = ADAPTER_PAGE_TOKEN, .next = "meta.links.next",
				  .url = "/v2/plans?type=all&per_page=500", .param = "cursor",
				  .max_token = CURSOR_MAX}},
	[KIND_METAL] = {.path = "plans_metal", .type = JSON_ARRAY, .each = metal_plan,
			.error = "error", .what = "Vultr error",
			.pager = {.style = ADAPTER_PAGE_TOKEN, .next = "meta.links.next",
				  .url = "/v2/plans-metal?per_page=500", .param = "cursor",
				  .max_token = CURSOR_MAX}},
};

static enum gc_status start(struct adapter_run *run, char **err)
{
	enum gc_status st = GC_OK;
	for (int k = KIND_PLANS; k <= KIND_METAL && st == GC_OK; k++)
		st = adapter_queue(run, k, NULL, NULL, err, "%s%s", run->base, lists[k].pager.url);
	return st;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	struct adapter_request r = *req;
	r.kind = req->kind == KIND_METAL ? KIND_METAL : KIND_PLANS;
	return adapter_parse_page(run, &r, body, len, &lists[r.kind], err);
}

static const char *const key_envs[] = {"VULTR_API_KEY", NULL};

const struct adapter adapter_vultr = {
	.id = "vultr",
	.base_url = "https://api.vultr.com",
	.auth = ADAPTER_AUTH_NONE,
	.key_style = ADAPTER_KEY_BEARER,
	.key_envs = key_envs,
	.endpoint = "GET /v2/plans?type=all and /v2/plans-metal "
		    "(https://www.vultr.com/api/#tag/plans)",
	.stock = "vultr: /v2/plans locations",
	.conditional = 0,
	.start = start,
	.parse = parse,
};
