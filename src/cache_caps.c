/* cache_caps.c - offer_v's capability columns, made from one table.
 *
 * A capability (Kubernetes mode, MIG, InfiniBand, NVLink ...) can be known
 * at four layers, and the view asks them in one order for every capability:
 *
 *   1. the offer       what its source said of this offer (table offer, o)
 *   2. the type        the first data/instance-types.yaml entry whose glob
 *                      matches the SKU (table insttype, t)
 *   3. the GPU model   data/gpus.yaml (table gpu, g)
 *   4. the provider    providers/<id>.yaml (table provider, p)
 *
 * then a default.  A layer is either a value, NULL where that layer says
 * nothing ("t.k8s"), or arms, "WHEN cond THEN value ...", whose values are
 * never NULL; the column is the first layer that answers, so a fact a
 * provider limits to some machines is answered per machine and what an
 * offer says of itself wins.  A layer may read the layers below it to
 * qualify its answer (the profile's MIG holds for a GPU the table knows),
 * never to override one above it.  The SQL made is one CASE of the layers'
 * arms in order (a value layer: WHEN v IS NOT NULL THEN v), or COALESCE
 * where every layer is a value: what was written by hand before, so the
 * view costs SQLite no more to parse and run.  Adding a capability is one
 * row here plus its data (HACKING.md, "Add a capability").  Calls buf.c and
 * catalog_hash. */
#include <string.h>

#include "cache_int.h"
#include "gpucmp/buf.h"
#include "gpucmp/catalog.h"

enum { CAP_OFFER, CAP_TYPE, CAP_GPU, CAP_PROFILE, CAP_LAYERS };

struct cap_rule {
	const char *name;              /* the view's column */
	const char *layer[CAP_LAYERS]; /* a value or "WHEN ..." arms; NULL: silent */
	const char *otherwise;         /* SQL when no layer answers, or NULL */
};

/* In the view's column order (docs/OUTPUT.md keeps the JSON order apart). */
static const struct cap_rule cap_rules[] = {
	{"k8s", {NULL, "t.k8s", NULL, "p.kubernetes_mode"}, "'unknown'"},
	{"docker_custom_image",
	 {NULL, NULL, NULL, "CASE p.docker_custom_image WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END"},
	 NULL},
	{"docker_daemon", {NULL, NULL, NULL, "p.docker_daemon"}, "'unknown'"},
	{"docker_base_images_only",
	 {NULL, NULL, NULL,
	  "CASE p.docker_base_images_only WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END"},
	 NULL},
	/* a slice of a GPU has no MIG of its own; the type may forbid it, the
	 * GPU may lack it; the profile's answer holds for a GPU the table
	 * knows (its "no" for any).  The type's "no" and the GPU's are one
	 * answer, asked GPU first: SQLite reads the type's row only when one
	 * of its columns is asked, and most GPUs have no MIG (asked type
	 * first, `list --k8s managed --mig` ran 1% more instructions) */
	{"mig",
	 {"WHEN o.gpu_count < 1 THEN 'no'", "WHEN g.mig = 0 OR t.mig = 0 THEN 'no'", NULL,
	  "WHEN p.sharing_mig IS NOT NULL AND (g.id IS NOT NULL OR p.sharing_mig = 'no')"
	  " THEN p.sharing_mig"},
	 "'unknown'"},
	/* What the GPU model rules out, from its vendor and architecture in
	 * data/gpus.yaml (checked 2026-12-03; docs/GPUS.md "What a GPU can
	 * share"): MPS as a shared GPU uses it (per-client address spaces and
	 * limits) is Volta MPS, NVIDIA Volta or later
	 * (https://docs.nvidia.com/deploy/mps/index.html); time-slicing is the
	 * NVIDIA device plugin's (https://github.com/NVIDIA/k8s-device-plugin);
	 * a GPU the table does not know keeps the provider's answer. */
	{"mps",
	 {NULL, NULL,
	  "WHEN g.vendor <> 'nvidia' THEN 'no'"
	  " WHEN g.architecture IN ('kepler', 'maxwell', 'pascal') THEN 'no'",
	  "p.sharing_mps"},
	 "'unknown'"},
	{"time_slicing",
	 {NULL, NULL, "WHEN g.vendor <> 'nvidia' THEN 'no'", "p.sharing_time_slicing"},
	 "'unknown'"},
	/* the last CUDA major the GPU runs: none off NVIDIA; CUDA 12.0 dropped
	 * Kepler, CUDA 13.0 Maxwell, Pascal and Volta (compute capability below
	 * 7.5: developer.nvidia.com/blog/navigating-gpu-architecture-support-a-
	 * guide-for-nvidia-cuda-developers); NULL: no limit known */
	{"gpu_cuda_last",
	 {NULL, NULL,
	  "WHEN g.vendor <> 'nvidia' THEN 0 WHEN g.architecture = 'kepler' THEN 11"
	  " WHEN g.architecture IN ('maxwell', 'pascal', 'volta') THEN 12",
	  NULL},
	 NULL},
	{"infiniband",
	 {"o.infiniband", "t.infiniband", NULL,
	  "WHEN p.interconnect_infiniband = 'no' THEN 0"
	  " WHEN p.interconnect_infiniband = 'yes' THEN 1"},
	 NULL},
	/* InfiniBand is RDMA over InfiniBand, at the layer that says so */
	{"rdma",
	 {"WHEN o.rdma IS NOT NULL THEN o.rdma WHEN o.infiniband = 1 THEN 'ib'",
	  "WHEN t.rdma IS NOT NULL THEN t.rdma WHEN t.infiniband = 1 THEN 'ib'", NULL,
	  "WHEN p.interconnect_rdma = 'no' THEN 'no'"
	  " WHEN p.interconnect_infiniband = 'yes' THEN COALESCE(p.interconnect_rdma, 'unknown')"},
	 "'unknown'"},
	/* a whole NVSwitch baseboard (data/gpus.yaml nvswitch_board: the HGX
	 * 8-GPU boards) is GPUs that all reach each other over NVLink; other
	 * counts and parts are left to the instance type and the profile */
	{"nvlink",
	 {"o.nvlink", "t.nvlink",
	  "WHEN o.gpu_count < 2 OR g.nvlink = 'no' THEN 0"
	  " WHEN o.gpu_count = g.nvswitch_board THEN 1",
	  "WHEN g.nvlink = 'yes' AND p.interconnect_nvlink = 'yes' THEN 1"},
	 NULL},
	/* GPUs that reach each other over NVLink, the offer's among them: 1
	 * where the offer's GPUs have none between them (one GPU, a model
	 * without NVLink, or an offer or type that says no); a whole NVSwitch
	 * baseboard's GPUs (data/gpus.yaml nvswitch_board: 8 for HGX A100,
	 * H100, H200, B200, B300).  A bridge (nvlink: bridge) may join two or
	 * four cards or none; a rack (GB200/GB300 NVL72: 72) is a system's
	 * fact, not the GPU model's: both stay unknown until a source says. */
	{"nvlink_domain",
	 {"WHEN o.nvlink = 0 THEN 1", "WHEN t.nvlink = 0 THEN 1",
	  "WHEN o.gpu_count < 2 OR g.nvlink = 'no' THEN 1"
	  " WHEN o.gpu_count = g.nvswitch_board THEN g.nvswitch_board",
	  NULL},
	 NULL},
};

static int is_arms(const char *layer)
{
	return strncmp(layer, "WHEN ", 5) == 0;
}

/* The values v[0..n) (the trailing ones and the default), one expression after
 * `lead` (" " or " ELSE "); nothing when there are none. */
static enum gc_status cap_values(struct buf *b, const char *const *v, size_t n, const char *lead)
{
	if (n == 0)
		return GC_OK;
	enum gc_status st = buf_addstr(b, lead);
	/* SQLite's COALESCE wants two arguments: one answer is itself */
	if (st == GC_OK && n > 1)
		st = buf_addstr(b, "COALESCE(");
	for (size_t i = 0; i < n && st == GC_OK; i++) {
		st = buf_addstr(b, i ? ", " : "");
		if (st == GC_OK)
			st = buf_addstr(b, v[i]);
	}
	if (st == GC_OK && n > 1)
		st = buf_addc(b, ')');
	return st;
}

/* One column: CASE over the layers up to the last with arms, the values
 * after it and the default as its ELSE (COALESCE when all are values). */
static enum gc_status cap_column(struct buf *b, const struct cap_rule *r)
{
	const char *arg[CAP_LAYERS + 1];
	size_t n = 0, arms = 0; /* arms: how many of arg[] the CASE takes */
	for (size_t i = 0; i < CAP_LAYERS; i++) {
		if (!r->layer[i])
			continue;
		arg[n++] = r->layer[i];
		if (is_arms(r->layer[i]))
			arms = n;
	}
	if (r->otherwise)
		arg[n++] = r->otherwise;
	enum gc_status st = GC_OK;
	if (arms == 0 && n == 0)
		st = buf_addstr(b, " NULL");
	else if (arms == 0)
		st = cap_values(b, arg, n, " ");
	else
		st = buf_addstr(b, " CASE");
	for (size_t i = 0; i < arms && st == GC_OK; i++) {
		if (is_arms(arg[i]))
			st = buf_printf(b, " %s", arg[i]);
		else
			st = buf_printf(b, " WHEN %s IS NOT NULL THEN %s", arg[i], arg[i]);
	}
	if (st == GC_OK && arms > 0)
		st = cap_values(b, arg + arms, n - arms, " ELSE ");
	if (st == GC_OK && arms > 0)
		st = buf_addstr(b, " END");
	if (st == GC_OK)
		st = buf_printf(b, " AS %s,", r->name);
	return st;
}

/* What cache_caps_sql() writes depends on these strings alone: the view's
 * hash reads them (every open) instead of the text made from them. */
uint64_t cache_caps_hash(uint64_t h)
{
	static const char none[] = "\1";
	for (size_t i = 0; i < sizeof cap_rules / sizeof cap_rules[0]; i++) {
		const struct cap_rule *r = &cap_rules[i];
		h = catalog_hash(h, r->name, strlen(r->name) + 1);
		for (size_t l = 0; l < CAP_LAYERS; l++) {
			const char *x = r->layer[l] ? r->layer[l] : none;
			h = catalog_hash(h, x, strlen(x) + 1);
		}
		const char *x = r->otherwise ? r->otherwise : none;
		h = catalog_hash(h, x, strlen(x) + 1);
	}
	return h;
}

enum gc_status cache_caps_sql(struct buf *b)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; i < sizeof cap_rules / sizeof cap_rules[0] && st == GC_OK; i++)
		st = cap_column(b, &cap_rules[i]);
	return st;
}
