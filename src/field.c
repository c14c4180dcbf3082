/* field.c - the offer field registry. */
#include "gpucmp/field.h"

#include <stdio.h>
#include <string.h>

#include "gpucmp/strutil.h"

/* The domains of the enum fields: what --where accepts, what help shows. */
static const char *const k8s_modes[] = {"managed", "join", "both", "none", "unknown", NULL};
static const char *const daemons[] = {"root", "rootless", "no", "unknown", NULL};
static const char *const share_modes[] = {"managed", "self", "no", "unknown", NULL};
static const char *const rdma_modes[] = {"ib", "roce", "efa", "no", "unknown", NULL};
static const char *const sources[] = {"live", "catalog", "list", "import", "snapshot", NULL};
static const char *const price_kinds[] = {"fixed", "auction_floor", "marketplace", NULL};
static const char *const price_types[] = {"on_demand", "spot", "reserved", "capacity_block",
					  "auction_floor", NULL};
/* regions.h's lists, with unknown (a region data/regions.yaml does not place) */
static const char *const continents[] = {"africa", "asia", "europe", "north-america", "oceania",
					 "south-america", "unknown", NULL};
static const char *const geos[] = {"us", "americas", "eu", "mea", "apac", "unknown", NULL};

/* Order is the JSON key order of an offer; append new fields at the end of
 * their group so scripts that read CSV by position keep working. */
const struct field offer_fields[] = {
	{"provider", "PROVIDER", FT_TEXT, "provider", 1, "provider id", NULL},
	{"sku", "SKU", FT_TEXT, "sku", 5, "provider's instance type or plan", NULL},
	{"gpu", "GPU", FT_TEXT, "gpu", 1, "canonical GPU id (the source's name when unknown)",
	 NULL},
	{"gpu_name", "GPU NAME", FT_TEXT, "gpu_name", 0, "GPU name as the source wrote it", NULL},
	{"gpu_known", "KNOWN", FT_BOOL, "gpu_known", 0, "the GPU model table knows this GPU", NULL},
	{"gpu_count", "GPUS", FT_NUM, "gpu_count", 1,
	 "GPUs in the offer; a slice of one counts as its fraction (0.5)", NULL},
	{"gpu_mem_gb", "VRAM", FT_NUM, "gpu_mem_gb", 4, "memory per GPU, GB", NULL},
	{"total_gpu_mem_gb", "TOTAL VRAM", FT_NUM, "total_gpu_mem_gb", 0,
	 "GPU memory of the whole offer, GB", NULL},
	{"vcpus", "VCPUS", FT_NUM, "vcpus", 6, "virtual CPUs", NULL},
	{"ram_gb", "RAM", FT_NUM, "ram_gb", 6, "system memory, GB", NULL},
	{"disk_gb", "DISK", FT_NUM, "disk_gb", 0, "local disk, GB", NULL},
	{"region", "REGION", FT_TEXT, "region", 3, "provider region", NULL},
	{"price_hr", "$/H", FT_PRICE, "price_hr", 1, "on-demand USD per hour, whole offer", NULL},
	{"spot_price_hr", "SPOT $/H", FT_PRICE, "spot_price_hr", 4,
	 "spot/interruptible USD per hour", NULL},
	{"price_per_gpu_hr", "$/GPU/H", FT_PRICE, "price_per_gpu_hr", 0,
	 "on-demand USD per GPU-hour", NULL},
	{"currency", "CUR", FT_TEXT, "currency", 0, "currency the source priced in", NULL},
	{"available", "AVAIL", FT_BOOL, "available", 7, "in stock now (null: unknown)", NULL},
	{"k8s", "K8S", FT_ENUM, "k8s", 2, NULL, k8s_modes},
	{"docker_custom_image", "IMAGE", FT_BOOL, "docker_custom_image", 0,
	 "boots any registry image", NULL},
	{"docker_daemon", "DOCKERD", FT_ENUM, "docker_daemon", 0, NULL, daemons},
	{"mig", "MIG", FT_ENUM, "mig", 2, NULL, share_modes},
	{"mps", "MPS", FT_ENUM, "mps", 0, NULL, share_modes},
	{"time_slicing", "TSLICE", FT_ENUM, "time_slicing", 0, NULL, share_modes},
	{"infiniband", "IB", FT_BOOL, "infiniband", 2, "InfiniBand between nodes", NULL},
	{"rdma", "RDMA", FT_ENUM, "rdma", 0, NULL, rdma_modes},
	{"nvlink", "NVLINK", FT_BOOL, "nvlink", 0, "NVLink between the offer's GPUs", NULL},
	{"source", "SOURCE", FT_ENUM, "source", 0, NULL, sources},
	{"fetched_at", "FETCHED", FT_TEXT, "fetched_at", 0,
	 "when the price was fetched (RFC 3339 UTC)", NULL},
	{"stale", "STALE", FT_BOOL, "stale", 0,
	 "data older than 24 h (list --max-age), or the provider's last refresh failed", NULL},
	/* added after the first release: appended, so CSV columns keep their places */
	{"price_per_gb_hr", "$/GB/H", FT_PRICE, "price_per_gb_hr", 0,
	 "on-demand USD per GB of GPU memory per hour", NULL},
	{"bf16_tflops", "BF16 TF", FT_NUM, "bf16_tflops", 0,
	 "dense BF16 TFLOP/s per GPU (from the GPU model table)", NULL},
	{"usd_per_pflop_hr", "$/PFLOP-H", FT_PRICE, "usd_per_pflop_hr", 0,
	 "on-demand USD per dense BF16 PFLOP/s-hour (--sort value)", NULL},
	{"driver_version", "DRIVER", FT_TEXT, "driver_version", 0,
	 "host NVIDIA driver the source reports (null: unknown)", NULL},
	{"max_cuda", "MAX CUDA", FT_TEXT, "max_cuda", 0,
	 "highest CUDA version the host driver runs, as the source reports", NULL},
	/* these three depend on the query (--cuda, --hours): query_field_sql() */
	{"cuda_ok", "CUDA OK", FT_BOOL, "NULL", 0,
	 "with --cuda: the host driver runs that CUDA (null: driver unknown)", NULL},
	{"est_cost_usd", "EST $", FT_PRICE, "NULL", 0,
	 "with --hours: the estimate's total, GPU + control plane + disk + egress", NULL},
	{"est_spot_cost_usd", "EST SPOT $", FT_PRICE, "NULL", 0,
	 "with --hours: the same with the GPUs at the spot price", NULL},
	/* added with the source tiers (issue 13): appended */
	{"as_of", "AS OF", FT_TEXT, "as_of", 0,
	 "when the data describes (a catalog's date; RFC 3339 UTC)", NULL},
	{"price_kind", "KIND", FT_ENUM, "price_kind", 0, NULL, price_kinds},
	{"gpu_fraction", "FRACTION", FT_NUM, "gpu_fraction", 0,
	 "share of one GPU each GPU is (1; 0.5 for a half slice)", NULL},
	/* added with locations (issue 15): appended.  The country's domain is
	 * the region table's countries (query_offer_field) */
	{"country", "COUNTRY", FT_ENUM, "country", 0,
	 "country of the region, ISO 3166-1 alpha-2 (unknown: not placed)", NULL},
	{"continent", "CONTINENT", FT_ENUM, "continent", 0, NULL, continents},
	{"geo", "GEO", FT_ENUM, "geo", 0, NULL, geos},
	/* added with value per dollar (issue 26): appended; `help values` */
	{"fp8_tflops", "FP8 TF", FT_NUM, "fp8_tflops", 0,
	 "dense FP8 TFLOP/s per GPU (from the GPU model table)", NULL},
	{"memory_bandwidth_tbs", "MEM TB/S", FT_NUM, "memory_bandwidth_tbs", 0,
	 "peak GPU memory bandwidth per GPU, TB/s (from the GPU model table)", NULL},
	{"bf16_tflops_per_usd", "BF16 TF/$", FT_NUM, "bf16_tflops_per_usd", 0,
	 "dense BF16 TFLOP/s of the whole offer per on-demand USD/h", NULL},
	{"fp8_tflops_per_usd", "FP8 TF/$", FT_NUM, "fp8_tflops_per_usd", 0,
	 "dense FP8 TFLOP/s of the whole offer per on-demand USD/h", NULL},
	{"mem_bw_tbs_per_usd", "TB/S/$", FT_NUM, "mem_bw_tbs_per_usd", 0,
	 "GPU memory bandwidth (TB/s) of the whole offer per on-demand USD/h", NULL},
	{"vram_gb_per_usd", "VRAM GB/$", FT_NUM, "vram_gb_per_usd", 0,
	 "GPU memory (GB) of the whole offer per on-demand USD/h", NULL},
	/* added with stock (issue 26): appended; derived in offer_v */
	{"available_checked_at", "STOCK AT", FT_TEXT, "available_checked_at", 0,
	 "when `available` was checked (RFC 3339 UTC; null when it is null)", NULL},
	{"available_source", "STOCK SOURCE", FT_TEXT, "available_source", 0,
	 "the signal `available` was read from (null when it is null)", NULL},
	/* added with the capability table (issue 25): appended */
	{"nvlink_domain", "NVL DOMAIN", FT_NUM, "nvlink_domain", 0,
	 "GPUs in one NVLink domain with the offer's (8: HGX board; 1: none)", NULL},
	/* added with price types (issue 26): appended; docs/OUTPUT.md "Price
	 * types" */
	{"price_type", "PRICE TYPE", FT_ENUM, "price_type", 0, NULL, price_types},
	{"term_months", "TERM", FT_NUM, "term_months", 0,
	 "a reservation's term in months (price_type reserved); null otherwise", NULL},
	/* added with the whole job's cost (issue 26): appended; these depend
	 * on --hours, --nodes, --disk, --egress (query_field_sql) */
	{"cost_gpu_usd", "GPU $", FT_PRICE, "NULL", 0,
	 "with --hours: the estimate's GPU part, on-demand price x hours x nodes", NULL},
	{"cost_k8s_fee_usd", "K8S FEE $", FT_PRICE, "NULL", 0,
	 "with --hours and --k8s managed: control-plane fee x hours (null: fee unknown)", NULL},
	{"cost_disk_usd", "DISK $", FT_PRICE, "NULL", 0,
	 "with --disk: GB x block storage $/GB-month x hours / 730 (null: rate unknown)", NULL},
	{"cost_egress_usd", "EGRESS $", FT_PRICE, "NULL", 0,
	 "with --egress: GB over the free monthly allowance x $/GB (null: unknown)", NULL},
	{"cost_complete", "ALL KNOWN", FT_BOOL, "NULL", 0,
	 "with --hours: every part of the estimate is known (false: the total is a floor)",
	 NULL},
};
const size_t offer_field_count = sizeof offer_fields / sizeof offer_fields[0];

/* JSON key order of a group object past its offer's fields (docs/OUTPUT.md,
 * docs/group.schema.json). */
const struct field group_fields[] = {
	{"offers", "OFFERS", FT_NUM, "g_offers", 1, "offers in the group", NULL},
	{"region_count", "REGIONS", FT_NUM, "g_nregions", 1,
	 "regions the group's offers are in", NULL},
	{"regions", "IN REGIONS", FT_LIST, "g_regions", 0,
	 "the group's regions, cheapest first", NULL},
	{"min_price_hr", "MIN $/H", FT_PRICE, "g_min", 0,
	 "the group's lowest on-demand USD per hour", NULL},
	{"max_price_hr", "MAX $/H", FT_PRICE, "g_max", 0,
	 "the group's highest on-demand USD per hour", NULL},
	{"min_spot_price_hr", "MIN SPOT $/H", FT_PRICE, "g_smin", 0,
	 "the group's lowest spot USD per hour", NULL},
};
const size_t group_field_count = sizeof group_fields / sizeof group_fields[0];

/* The words of the tables, for `gpucmp help values` and the legend under a
 * table, which leaves out a word whose brief is "" (it says itself).
 * docs/PROFILES.md "Meaning of the values" says the same at length. */
const struct field_value field_values[] = {
	{"k8s", "managed", "provider-run",
	 "the provider runs the control plane and GPU node pools (EKS, GKE, AKS, ...)"},
	{"k8s", "join", "your cluster",
	 "no managed cluster: machines you can add to your own cluster (root, Linux)"},
	{"k8s", "both", "either",
	 "managed Kubernetes, and machines you can join yourself"},
	{"k8s", "none", "", "no Kubernetes path"},
	{"mig mps time_slicing", "managed", "provider sets up",
	 "offered as a product option or setting (a node-pool flag)"},
	{"mig mps time_slicing", "self", "you set up",
	 "allowed: you own driver and cluster and turn it on (MIG also needs a MIG GPU)"},
	{"mig mps time_slicing", "no", "", "not possible on this offer"},
	{"docker_daemon", "root", "", "a real Docker daemon you control, as root"},
	{"docker_daemon", "rootless", "", "a real Docker daemon, rootless"},
	{"docker_daemon", "no", "", "no Docker daemon of your own (a pod or a VM image)"},
	{"rdma", "ib", "InfiniBand", "InfiniBand between nodes"},
	{"rdma", "roce", "RoCE", "RDMA over Converged Ethernet"},
	{"rdma", "efa", "AWS EFA", "AWS Elastic Fabric Adapter: OS-bypass RDMA on AWS's transport"},
	{"infiniband nvlink", "some", "some types",
	 "(providers) some of its instance types have it: 'list' says which"},
	{"source", "live", "live API", "read from the provider's API by 'gpucmp refresh'"},
	{"source", "catalog", "hosted catalog", "from a published catalog (SkyPilot, gpuhunt)"},
	{"source", "list", "list price",
	 "the provider's published price list (docs/LIST-PRICES.md)"},
	{"source", "import", "imported", "from 'gpucmp import'"},
	{"source", "snapshot", "built-in", "the built-in snapshot, as old as its date"},
	{"price_type", "on_demand", "",
	 "price_hr is the on-demand price (spot_price_hr beside it): the default answer"},
	{"price_type", "spot", "", "price_hr is the spot price (--price-type spot)"},
	{"price_type", "reserved", "",
	 "price_hr is a reservation's price for term_months, per hour over the term "
	 "(--price-type reserved:12)"},
	{"price_type", "capacity_block", "", "price_hr is a capacity block's price per hour"},
	{"price_type", "auction_floor", "",
	 "price_hr is an auction's floor, the lowest bid (price_kind auction_floor)"},
	{NULL, "?", "unknown",
	 "unknown: no source says; unknown never matches a filter, = or !="},
	{NULL, "-", "", "no value: no spot price, no estimate asked, not applicable"},
	{NULL, "\xE2\x89\xA5", "auction floor",
	 "before a price (\xE2\x89\xA5$1.00): an auction floor, the lowest bid, not a price "
	 "you are sure to get"},
	{NULL, "~", "market ask",
	 "before a price (~$0.35): a marketplace host's asking price; it may change"},
};
const size_t field_value_count = sizeof field_values / sizeof field_values[0];

/* Is `key` one of the space-separated words of `list`? */
static int word_in(const char *list, const char *key)
{
	size_t n = strlen(key);
	for (const char *p = list; (p = strstr(p, key)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

const struct field_value *field_value_find(const char *key, const char *value)
{
	for (size_t i = 0; i < field_value_count; i++) {
		const struct field_value *v = &field_values[i];
		if ((key ? v->fields && word_in(v->fields, key) : !v->fields) &&
		    strcmp(v->value, value) == 0)
			return v;
	}
	return NULL;
}

int field_is_group(const struct field *f)
{
	/* by address: comparing pointers into other arrays with < is undefined */
	for (size_t i = 0; f && i < group_field_count; i++)
		if (f == &group_fields[i])
			return 1;
	return 0;
}

const struct field *group_field_find(const char *key)
{
	for (size_t i = 0; i < group_field_count; i++)
		if (strcmp(group_fields[i].key, key) == 0)
			return &group_fields[i];
	return NULL;
}

static const struct {
	const char *alias, *key;
} aliases[] = {
	{"price", "price_hr"},     {"spot", "spot_price_hr"}, {"vram", "gpu_mem_gb"},
	{"gpus", "gpu_count"},     {"ram", "ram_gb"},         {"cpus", "vcpus"},
	{"ib", "infiniband"},      {"disk", "disk_gb"},
	{"value", "usd_per_pflop_hr"}, {"tflops", "bf16_tflops"},
};

const struct field *field_find(const char *key)
{
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (strcmp(aliases[i].alias, key) == 0)
			key = aliases[i].key;
	for (size_t i = 0; i < offer_field_count; i++)
		if (strcmp(offer_fields[i].key, key) == 0)
			return &offer_fields[i];
	return NULL;
}

const char *field_suggest(const char *key)
{
	struct suggest s;
	suggest_init(&s, key);
	for (size_t i = 0; i < offer_field_count; i++)
		suggest_try(&s, offer_fields[i].key);
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		suggest_try(&s, aliases[i].alias);
	return suggest_best(&s);
}

const char *field_help(const struct field *f, char *buf, size_t n)
{
	size_t at = 0;
	buf[0] = '\0';
	if (f->help)
		snprintf(buf, n, "%s", f->help);
	for (size_t i = 0; !f->help && f->values && f->values[i] && at < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? " | " : "", f->values[i]);
	return buf;
}
