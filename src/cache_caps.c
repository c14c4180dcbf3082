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
 * then a default.  Each layer's expression is that layer's answer, or NULL
 * where it says nothing, and the column is the first answer that is not
 * NULL (COALESCE), so a fact a provider limits to some machines is answered
 * per machine and what an offer says of itself wins.  A layer may read the
 * layers below it to qualify its answer (the profile's MIG holds for a GPU
 * the table knows), never to override one above it.  Adding a capability is
 * one row here plus its data (HACKING.md, "Add a capability").  Calls
 * buf.c. */
#include "cache_int.h"
#include "gpucmp/buf.h"

enum { CAP_OFFER, CAP_TYPE, CAP_GPU, CAP_PROFILE, CAP_LAYERS };

struct cap_rule {
	const char *name;              /* the view's column */
	const char *layer[CAP_LAYERS]; /* SQL, NULL where the layer says nothing */
	const char *otherwise;         /* SQL when no layer answers, or NULL */
};

/* Eight SXM GPUs of the families NVIDIA lists as "HGX ... 8-GPU baseboard"
 * with NVSwitch (A100, H100, H200, B200, B300; NVIDIA AI Enterprise docs,
 * docs.nvidia.com/ai-enterprise/release-9/latest/infra-software/vgpu/
 * features/nvswitch.html, checked 2026-12-04) are such a baseboard, whose
 * GPUs all reach each other over NVLink.  Other families (V100's cube mesh,
 * H20), PCIe and OAM parts and other counts are left to the instance type
 * and the profile. */
#define HGX_8GPU                                                                 \
	"o.gpu_count = 8 AND g.form_factor = 'sxm'"                              \
	" AND g.family IN ('a100', 'h100', 'h200', 'b200', 'b300')"

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
	 * GPU may lack it; the profile's answer holds for a GPU the table knows */
	{"mig",
	 {"CASE WHEN o.gpu_count < 1 THEN 'no' END", "CASE WHEN t.mig = 0 THEN 'no' END",
	  "CASE WHEN g.mig = 0 THEN 'no' END",
	  "CASE WHEN p.sharing_mig IS NULL THEN 'unknown'"
	  " WHEN g.id IS NULL AND p.sharing_mig <> 'no' THEN 'unknown'"
	  " ELSE p.sharing_mig END"},
	 NULL},
	/* What the GPU model rules out, from its vendor and architecture in
	 * data/gpus.yaml (checked 2026-12-03; docs/GPUS.md "What a GPU can
	 * share"): MPS as a shared GPU uses it (per-client address spaces and
	 * limits) is Volta MPS, NVIDIA Volta or later
	 * (https://docs.nvidia.com/deploy/mps/index.html); time-slicing is the
	 * NVIDIA device plugin's (https://github.com/NVIDIA/k8s-device-plugin);
	 * a GPU the table does not know keeps the provider's answer. */
	{"mps",
	 {NULL, NULL,
	  "CASE WHEN g.vendor <> 'nvidia' THEN 'no'"
	  " WHEN g.architecture IN ('kepler', 'maxwell', 'pascal') THEN 'no' END",
	  "p.sharing_mps"},
	 "'unknown'"},
	{"time_slicing",
	 {NULL, NULL, "CASE WHEN g.vendor <> 'nvidia' THEN 'no' END", "p.sharing_time_slicing"},
	 "'unknown'"},
	/* the last CUDA major the GPU runs: none off NVIDIA; CUDA 12.0 dropped
	 * Kepler, CUDA 13.0 Maxwell, Pascal and Volta (compute capability below
	 * 7.5: developer.nvidia.com/blog/navigating-gpu-architecture-support-a-
	 * guide-for-nvidia-cuda-developers); NULL: no limit known */
	{"gpu_cuda_last",
	 {NULL, NULL,
	  "CASE WHEN g.vendor <> 'nvidia' THEN 0 WHEN g.architecture = 'kepler' THEN 11"
	  " WHEN g.architecture IN ('maxwell', 'pascal', 'volta') THEN 12 END",
	  NULL},
	 NULL},
	{"infiniband",
	 {"o.infiniband", "t.infiniband", NULL,
	  "CASE p.interconnect_infiniband WHEN 'no' THEN 0 WHEN 'yes' THEN 1 END"},
	 NULL},
	/* InfiniBand is RDMA over InfiniBand, at the layer that says so */
	{"rdma",
	 {"COALESCE(o.rdma, CASE WHEN o.infiniband = 1 THEN 'ib' END)",
	  "COALESCE(t.rdma, CASE WHEN t.infiniband = 1 THEN 'ib' END)", NULL,
	  "CASE WHEN p.interconnect_rdma = 'no' THEN 'no'"
	  " WHEN p.interconnect_infiniband = 'yes' THEN COALESCE(p.interconnect_rdma, 'unknown')"
	  " END"},
	 "'unknown'"},
	{"nvlink",
	 {"o.nvlink", "t.nvlink",
	  "CASE WHEN o.gpu_count < 2 OR g.nvlink = 'no' THEN 0 WHEN " HGX_8GPU " THEN 1 END",
	  "CASE WHEN g.nvlink = 'yes' AND p.interconnect_nvlink = 'yes' THEN 1 END"},
	 NULL},
	/* GPUs that reach each other over NVLink, the offer's among them: 1
	 * where the offer's GPUs have none between them (one GPU, a model
	 * without NVLink, or an offer or type that says no), 8 for an HGX
	 * 8-GPU baseboard (HGX_8GPU).  A bridge (nvlink: bridge) may join two
	 * or four cards or none; a rack (GB200/GB300 NVL72: 72) is a system's
	 * fact, not the GPU model's: both stay unknown until a source says. */
	{"nvlink_domain",
	 {"CASE WHEN o.nvlink = 0 THEN 1 END", "CASE WHEN t.nvlink = 0 THEN 1 END",
	  "CASE WHEN o.gpu_count < 2 OR g.nvlink = 'no' THEN 1 WHEN " HGX_8GPU " THEN 8 END",
	  NULL},
	 NULL},
};

/* One column: the layers that answer, in order, then the default. */
static enum gc_status cap_column(struct buf *b, const struct cap_rule *r)
{
	const char *arg[CAP_LAYERS + 1];
	size_t n = 0;
	for (size_t i = 0; i < CAP_LAYERS; i++)
		if (r->layer[i])
			arg[n++] = r->layer[i];
	if (r->otherwise)
		arg[n++] = r->otherwise;
	if (n == 0)
		arg[n++] = "NULL";
	/* SQLite's COALESCE wants two arguments: one answer is itself */
	enum gc_status st = buf_addstr(b, n > 1 ? " COALESCE(" : " ");
	for (size_t i = 0; i < n && st == GC_OK; i++)
		st = buf_printf(b, "%s%s", i ? ", " : "", arg[i]);
	if (st == GC_OK)
		st = buf_printf(b, "%s AS %s,", n > 1 ? ")" : "", r->name);
	return st;
}

enum gc_status cache_caps_sql(struct buf *b)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; i < sizeof cap_rules / sizeof cap_rules[0] && st == GC_OK; i++)
		st = cap_column(b, &cap_rules[i]);
	return st;
}
