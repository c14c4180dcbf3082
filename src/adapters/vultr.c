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
 * vhf, ...) are dropped.  The GPU count is not given: it is the number k of
 * whole GPUs (1, 2, 4, 8, 16) of which the table knows a model with
 * gpu_vram_gb / k GB; below one GPU the plan is a slice (fractional count)
 * of the family's largest model.  A100 plans are cut from the 80 GB card
 * (sliced_families below): under 80 GB a slice of it, so "...-40vram" is
 * 0.5 of an A100 80GB with 40 GB (not one A100 40GB), and k x 80 GB k whole
 * cards.  Until offers carry a GPU fraction of their own, a slice is a
 * fractional gpu_count, gpu_mem_gb the slice's memory and gpu the full
 * card's id.  The model is worked out once, here, with the count; a GPU the
 * table does not know counts 1.
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

static const char *const list_key[] = {"plans", "plans_metal"};
static const char *const list_path[] = {"/v2/plans?type=all&per_page=500",
					"/v2/plans-metal?per_page=500"};

static int mem_fits(double model_gb, double gb)
{
	double tol = model_gb * 0.08;
	if (tol < 2)
		tol = 2;
	return fabs(model_gb - gb) <= tol;
}

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

/* The largest model of m's family (the first of them in the table). */
static const struct gpu_model *largest_of(const struct gpu_table *t, const struct gpu_model *m)
{
	const struct gpu_model *best = m;
	for (size_t i = 0, n = gpu_table_count(t); i < n; i++) {
		const struct gpu_model *c = gpu_table_at(t, i);
		if (strcmp(c->family, m->family) == 0 && c->memory_gb > best->memory_gb)
			best = c;
	}
	return best;
}

/* GPU families whose Cloud GPU plans Vultr cuts from one card size: a plan
 * is a slice of that card (1/20 .. 1/2) or k whole cards.  A100: the 80 GB
 * card ("vcg-a100-12c-120g-80vram" is one A100 at the $1,750 a month Vultr
 * announced for a whole A100; "vcg-a100-6c-60g-40vram" half of one, which
 * Vultr's console lists as "NVIDIA A100 (1/2 GPU, 40GB)").  Vultr's page on
 * its GPU variants, https://docs.vultr.com/products/compute/cloud-gpu/explore-gpu-variants,
 * could not be read here: the SXM or PCIe form factor stays the table's
 * default for the family. */
static const char *const sliced_families[] = {"a100"};

static int sliced(const struct gpu_model *m)
{
	for (size_t i = 0; i < sizeof sliced_families / sizeof sliced_families[0]; i++)
		if (strcmp(m->family, sliced_families[i]) == 0)
			return 1;
	return 0;
}

/* A plan of `vram` GB as k whole `card`s (k = 1, 2, 4, 8, 16), or else,
 * when `slice_ok` and vram is less than one card, a slice of it; 0 when
 * neither fits. */
static int as_cards(const struct gpu_model *card, double vram, int slice_ok, double *count,
		    double *mem)
{
	static const int ks[] = {1, 2, 4, 8, 16};
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		if (mem_fits(card->memory_gb, vram / ks[i])) {
			*count = ks[i];
			*mem = vram / ks[i];
			return 1;
		}
	}
	if (slice_ok && card->memory_gb > 0 && vram < card->memory_gb) {
		*count = vram / card->memory_gb;
		*mem = vram;
		return 1;
	}
	return 0;
}

/* The model of a VM plan with `vram` GB of GPU memory in all, worked out
 * here once (count and model decide each other), so that adapter_emit,
 * which normalizes by the memory per GPU, never reads a 40 GB slice of an
 * A100 80GB as an A100 40GB.  Sets the count (whole GPUs, or a slice) and
 * the memory per GPU / slice.  `given` is the API's own gpu_count, if any. */
static const struct gpu_model *resolve_vm(const struct adapter_run *run, const char *name,
					  double vram, double given, const char *sku,
					  double *count, double *mem)
{
	*count = 1;
	*mem = vram > 0 ? vram : NAN;
	if (given > 0 && given < 1e4) {
		*count = given;
		*mem = vram > 0 ? vram / given : NAN;
		return run->gpus ? gpu_normalize(run->gpus, name, *mem, sku) : NULL;
	}
	if (!run->gpus || !name)
		return NULL;
	const struct gpu_model *m = gpu_normalize(run->gpus, name, 0, sku);
	if (!(vram > 0))
		return m;
	if (m && sliced(m)) {
		const struct gpu_model *card = largest_of(run->gpus, m);
		if (as_cards(card, vram, 1, count, mem))
			return card;
	}
	static const int ks[] = {1, 2, 4, 8, 16};
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		double per = vram / ks[i];
		const struct gpu_model *c = gpu_normalize(run->gpus, name, per, sku);
		if (c && mem_fits(c->memory_gb, per)) {
			*count = ks[i];
			*mem = per;
			return c;
		}
	}
	if (!m)
		return NULL;
	/* below one GPU: a slice of the family's largest model */
	const struct gpu_model *best = largest_of(run->gpus, m);
	if (as_cards(best, vram, 1, count, mem))
		return best;
	return m; /* more memory than k whole GPUs explain: count stays 1 */
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
	double count, mem;
	const struct gpu_model *m =
		resolve_vm(run, name, vram, aj_num(plan, "gpu_count"), id, &count, &mem);
	o.gpu = m ? m->id : NULL;
	o.gpu_count = count;
	o.gpu_mem_gb = mem;
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
		if (n >= 4 && id_token(id, n - 3, cnt, sizeof cnt) && all_digits(cnt) &&
		    strlen(cnt) < 5)
			count = atoi(cnt);
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

static enum gc_status start(struct adapter_run *run, char **err)
{
	enum gc_status st = adapter_queue(run, KIND_PLANS, NULL, NULL, err, "%s%s", run->base,
					  list_path[KIND_PLANS]);
	if (st == GC_OK)
		st = adapter_queue(run, KIND_METAL, NULL, NULL, err, "%s%s", run->base,
				   list_path[KIND_METAL]);
	return st;
}

static enum gc_status parse(struct adapter_run *run, const struct adapter_request *req,
			    const char *body, size_t len, char **err)
{
	int kind = req->kind == KIND_METAL ? KIND_METAL : KIND_PLANS;
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	json_t *plans = json_object_get(root, list_key[kind]);
	enum gc_status st;
	if (json_is_array(plans)) {
		st = adapter_each(run, plans, kind == KIND_METAL ? metal_plan : vm_plan, err);
	} else {
		const char *msg = aj_str(root, "error");
		st = msg ? adapter_api_error(err, "Vultr error", msg)
			 : err_set(err, GC_EDATA, "no '%s' array in the response", list_key[kind]);
	}
	/* the next page: an opaque cursor, empty on the last page */
	const char *next = aj_str(aj_path(root, "meta.links"), "next");
	if (st == GC_OK && next && *next) {
		char enc[1024];
		if (strlen(next) * 3 + 1 > sizeof enc)
			st = err_set(err, GC_EDATA, "pagination cursor too long");
		else {
			adapter_urlencode(enc, sizeof enc, next);
			st = adapter_queue(run, kind, NULL, NULL, err, "%s%s&cursor=%s", run->base,
					   list_path[kind], enc);
		}
	}
	json_decref(root);
	return st;
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
	.conditional = 0,
	.start = start,
	.parse = parse,
};
