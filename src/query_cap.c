/* query_cap.c - the capability filters, one definition each.
 *
 * Each filter says when an offer qualifies (SQL over offer_v) and when a
 * provider does (values of its profile).  Offers carry the instance type's
 * own answer where data/instance-types.yaml has one, so the two differ on
 * purpose in one way, named here: for --ib and --nvlink an offer needs the
 * capability on its row (true), while a provider qualifies with "yes" or
 * "some" (some of its types have it: `providers` shows who can give it to
 * you, `list` which offer does; docs/OUTPUT.md, docs/gpucmp.1).
 */
#include "gpucmp/query.h"

#include <string.h>

/* --mig, --mps, --time-slicing: the sharing mode is managed or self; the
 * offer_v column says no where the GPU model cannot (src/cache_schema.c) */
#define SHARING(opt, key, why) \
	{opt, NULL, #key " IN ('managed', 'self')", {"sharing." #key, NULL}, \
	 {"managed", "self"}, why, "COALESCE(" #key ", 'unknown') = 'unknown'"}
#define K8S_UNKNOWN "COALESCE(k8s, 'unknown') = 'unknown'"

const struct query_cap_def query_caps[QC_COUNT] = {
	[QC_AVAILABLE] = {"available", NULL, "available = 1", {NULL, NULL}, {NULL}, NULL,
			  "available IS NULL"},
	[QC_K8S_MANAGED] = {"k8s", "managed", "k8s IN ('managed', 'both')",
			    {"kubernetes.mode", NULL}, {"managed", "both"}, NULL, K8S_UNKNOWN},
	[QC_K8S_JOIN] = {"k8s", "join", "k8s IN ('join', 'both')",
			 {"kubernetes.mode", NULL}, {"join", "both"}, NULL, K8S_UNKNOWN},
	[QC_K8S_ANY] = {"k8s", "any", "k8s IN ('managed', 'join', 'both')",
			{"kubernetes.mode", NULL}, {"managed", "join", "both"}, NULL,
			K8S_UNKNOWN},
	[QC_K8S_NONE] = {"k8s", "none", "k8s = 'none'", {"kubernetes.mode", NULL}, {"none"}, NULL,
			 K8S_UNKNOWN},
	[QC_DOCKER_CUSTOM] = {"docker", "custom", "docker_custom_image = 1",
			      {"docker.custom_image", NULL}, {"yes"}, NULL,
			      "docker_custom_image IS NULL"},
	[QC_DOCKER_DAEMON] = {"docker", "daemon", "docker_daemon IN ('root', 'rootless')",
			      {"docker.daemon", NULL}, {"root", "rootless"}, NULL,
			      "COALESCE(docker_daemon, 'unknown') = 'unknown'"},
	[QC_DOCKER_BASE] = {"docker", "base",
			    "(docker_custom_image = 1 OR docker_base_images_only = 1)",
			    {"docker.custom_image", "docker.base_images_only"}, {"yes"}, NULL,
			    "(docker_custom_image IS NULL AND docker_base_images_only IS NOT 0)"},
	[QC_MIG] = SHARING("mig", mig,
			   "--mig: mig is no for a GPU NVIDIA's MIG user guide does not list "
			   "(data/gpus.yaml mig: 0; AMD and Intel have none), a fraction of a "
			   "GPU, and an instance type whose provider forbids it"),
	[QC_MPS] = SHARING("mps", mps,
			   "--mps: mps is no for AMD and Intel GPUs and NVIDIA GPUs before "
			   "Volta (Kepler, Maxwell, Pascal), which lack Volta MPS's per-client "
			   "address spaces and limits: https://docs.nvidia.com/deploy/mps/"),
	[QC_TIME_SLICING] = SHARING("time-slicing", time_slicing,
				    "--time-slicing: time_slicing is no for AMD and Intel GPUs "
				    "(time-slicing is the NVIDIA device plugin's: "
				    "https://github.com/NVIDIA/k8s-device-plugin)"),
	/* the row's own answer for an offer; "yes" or "some" for a provider */
	[QC_IB] = {"ib", NULL, "infiniband = 1", {"interconnect.infiniband", NULL},
		   {"yes", "some"}, NULL, "infiniband IS NULL"},
	[QC_RDMA] = {"rdma", NULL, "rdma IN ('ib', 'roce', 'efa')", {"interconnect.rdma", NULL},
		     {"ib", "roce", "efa"}, NULL, "COALESCE(rdma, 'unknown') = 'unknown'"},
	[QC_NVLINK] = {"nvlink", NULL, "nvlink = 1", {"interconnect.nvlink", NULL},
		       {"yes", "some"}, NULL, "nvlink IS NULL"},
};

size_t query_why(const struct query *q, const char **out, size_t max)
{
	size_t n = 0;
	for (int i = 0; i < QC_COUNT && n < max; i++)
		if ((q->caps & (1u << i)) && query_caps[i].why)
			out[n++] = query_caps[i].why;
	if (q->cuda_num > 0 && n < max)
		out[n++] = "--cuda: cuda_ok is false for AMD and Intel GPUs, which run no CUDA, "
			   "and for NVIDIA GPUs past their last CUDA: 11 for Kepler, 12 for "
			   "Maxwell, Pascal and Volta (CUDA 13.0 dropped compute capability "
			   "below 7.5: https://developer.nvidia.com/blog/navigating-gpu-"
			   "architecture-support-a-guide-for-nvidia-cuda-developers/)";
	return n;
}

int query_cap_find(const char *option, const char *value)
{
	for (int i = 0; i < QC_COUNT; i++) {
		const struct query_cap_def *d = &query_caps[i];
		if (strcmp(d->option, option) != 0)
			continue;
		if (!d->value || (value && strcmp(d->value, value) == 0))
			return i;
	}
	return -1;
}

const char *const *query_cap_means(const char *field, const char *value)
{
	for (int i = 0; i < QC_COUNT; i++) {
		const struct query_cap_def *d = &query_caps[i];
		if (d->value && strcmp(d->option, field) == 0 && strcmp(d->value, value) == 0)
			return d->accept;
	}
	return NULL;
}

static int accepted(const struct query_cap_def *d, const char *v)
{
	for (size_t i = 0; i < sizeof d->accept / sizeof d->accept[0] && d->accept[i]; i++)
		if (strcmp(v, d->accept[i]) == 0)
			return 1;
	return 0;
}

int query_cap_profile(enum query_cap c, const struct profile *p)
{
	const struct query_cap_def *d = &query_caps[c];
	if (!d->path[0])
		return 1;
	for (size_t i = 0; i < 2 && d->path[i]; i++)
		if (p && accepted(d, profile_text(p, d->path[i])))
			return 1;
	return 0;
}

int query_cap_value(enum query_cap c, const char *v)
{
	return v && accepted(&query_caps[c], v);
}

int query_caps_profile(unsigned caps, const struct profile *p)
{
	for (int i = 0; i < QC_COUNT; i++)
		if ((caps & (1u << i)) && !query_cap_profile((enum query_cap)i, p))
			return 0;
	return 1;
}
