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

/* --mig, --mps: the sharing mode is managed or self */
#define SHARING(key) \
	{#key, NULL, #key " IN ('managed', 'self')", {"sharing." #key, NULL}, {"managed", "self"}}

const struct query_cap_def query_caps[QC_COUNT] = {
	[QC_AVAILABLE] = {"available", NULL, "available = 1", {NULL, NULL}, {NULL}},
	[QC_K8S_MANAGED] = {"k8s", "managed", "k8s IN ('managed', 'both')",
			    {"kubernetes.mode", NULL}, {"managed", "both"}},
	[QC_K8S_JOIN] = {"k8s", "join", "k8s IN ('join', 'both')",
			 {"kubernetes.mode", NULL}, {"join", "both"}},
	[QC_K8S_ANY] = {"k8s", "any", "k8s IN ('managed', 'join', 'both')",
			{"kubernetes.mode", NULL}, {"managed", "join", "both"}},
	[QC_K8S_NONE] = {"k8s", "none", "k8s = 'none'", {"kubernetes.mode", NULL}, {"none"}},
	[QC_DOCKER_CUSTOM] = {"docker", "custom", "docker_custom_image = 1",
			      {"docker.custom_image", NULL}, {"yes"}},
	[QC_DOCKER_DAEMON] = {"docker", "daemon", "docker_daemon IN ('root', 'rootless')",
			      {"docker.daemon", NULL}, {"root", "rootless"}},
	[QC_DOCKER_BASE] = {"docker", "base",
			    "(docker_custom_image = 1 OR docker_base_images_only = 1)",
			    {"docker.custom_image", "docker.base_images_only"}, {"yes"}},
	[QC_MIG] = SHARING(mig),
	[QC_MPS] = SHARING(mps),
	[QC_TIME_SLICING] = {"time-slicing", NULL, "time_slicing IN ('managed', 'self')",
			     {"sharing.time_slicing", NULL}, {"managed", "self"}},
	/* the row's own answer for an offer; "yes" or "some" for a provider */
	[QC_IB] = {"ib", NULL, "infiniband = 1", {"interconnect.infiniband", NULL},
		   {"yes", "some"}},
	[QC_RDMA] = {"rdma", NULL, "rdma IN ('ib', 'roce', 'efa')", {"interconnect.rdma", NULL},
		     {"ib", "roce", "efa"}},
	[QC_NVLINK] = {"nvlink", NULL, "nvlink = 1", {"interconnect.nvlink", NULL},
		       {"yes", "some"}},
};

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

int query_caps_profile(unsigned caps, const struct profile *p)
{
	for (int i = 0; i < QC_COUNT; i++)
		if ((caps & (1u << i)) && !query_cap_profile((enum query_cap)i, p))
			return 0;
	return 1;
}
