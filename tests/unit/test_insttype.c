/* test_insttype.c - per-SKU facts: lookups, and that every GPU id the table
 * names exists in the GPU model table. */
#include "testutil.h"

#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"

static struct insttype_table *types;
static struct gpu_table *gpus;

static int setup(void **state)
{
	(void)state;
	return load_shipped_tables(&gpus, &types);
}

static int teardown(void **state)
{
	(void)state;
	insttype_free(types);
	gpu_table_free(gpus);
	return 0;
}

static void test_gpu_ids_exist(void **state)
{
	(void)state;
	assert_true(insttype_count(types) > 40);
	for (size_t i = 0; i < insttype_count(types); i++) {
		const struct insttype *t = insttype_at(types, i);
		if (t->gpu && !gpu_find(gpus, t->gpu))
			fail_msg("%s %s names unknown GPU '%s'", t->provider, t->match, t->gpu);
		assert_non_null(t->source);
	}
}

static void test_lookups(void **state)
{
	(void)state;
	const struct insttype *t = insttype_lookup(types, "azure", "Standard_NC24ads_A100_v4");
	assert_non_null(t);
	assert_string_equal(t->gpu, "a100-pcie-80gb");
	t = insttype_lookup(types, "azure", "standard_nd96isr_h100_v5"); /* case-insensitive */
	assert_non_null(t);
	assert_string_equal(t->gpu, "h100-sxm");
	assert_int_equal(t->infiniband, 1);
	assert_string_equal(t->rdma, "ib");
	t = insttype_lookup(types, "gcp", "a3-megagpu-8g");
	assert_non_null(t);
	assert_int_equal(t->infiniband, 0);
	t = insttype_lookup(types, "lambda", "gpu_1x_h100_pcie");
	assert_non_null(t);
	assert_string_equal(t->gpu, "h100-pcie");
	t = insttype_lookup(types, "azure", "Standard_NV4as_v4");
	assert_non_null(t);
	assert_true(t->gpu_count == 0.125);
	/* the provider must match, not just the glob */
	assert_null(insttype_lookup(types, "lambda", "Standard_NC24ads_A100_v4"));
	assert_null(insttype_lookup(types, "azure", "Standard_D4s_v5"));
	assert_null(insttype_lookup(types, "azure", NULL));
	assert_null(insttype_lookup(NULL, "azure", "x"));
}

static void test_bad_entries(void **state)
{
	(void)state;
	static const struct {
		const char *doc, *want;
	} cases[] = {
		{ "types:\n  - {provider: a, match: x, rdma: infiniband, source: https://a.b/}\n",
		  "t.yaml:2: 'rdma' must be ib, roce, efa or no" },
		{ "types:\n  - {provider: a, match: x, k8s: managed-ish, k8s_source: https://a.b/,"
		  " source: https://a.b/}\n",
		  "'k8s' must be managed, join, both, none or unknown" },
		{ "types:\n  - {provider: a, match: x, k8s: join, source: https://a.b/}\n",
		  "'k8s' needs a k8s_source" },
		{ "types:\n  - {provider: a, match: x, k8s: join, k8s_source: a.b, "
		  "source: https://a.b/}\n",
		  "k8s_source must be an http(s) URL" },
		{ "types:\n  - {provider: a, match: x, mig: yes, source: https://a.b/}\n",
		  "'mig' can only be no" },
		{ "types:\n  - {provider: a, match: \"x[!y]\", source: https://a.b/}\n",
		  "'match' may use only *, ? and [set]" },
		{ "types:\n  - {provider: a, match: x, checked: 2026-13-45, "
		  "source: https://a.b/}\n",
		  "'checked' must be a date" },
		{ "types:\n  - {provider: a, match: x}\n", "t.yaml:2: missing 'source'" },
		{ "types:\n  - {provider: a, match: x, source: https://a.b/, infiniband: maybe}\n",
		  "'infiniband' must be yes or no" },
		{ "types:\n  - {provider: a, match: x, source: https://a.b/, gpu_count: -1}\n",
		  "'gpu_count' must be a positive number" },
		{ "types:\n  - {provider: a, match: x, source: https://a.b/, gpus: h100}\n",
		  "unknown key 'gpus'; did you mean 'gpu'?" },
		{ "typo: []\n", "unknown key 'typo'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct insttype_table *t = NULL;
		char *err = NULL;
		assert_int_equal(insttype_load(&t, "t.yaml", cases[i].doc, strlen(cases[i].doc),
					       &err),
				 GC_EDATA);
		assert_null(t);
		if (!err || !strstr(err, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err ? err : "(null)",
				 cases[i].want);
		free(err);
	}
}

/* The capability keys a provider limits to some machines (issue 13):
 * parsed from the shipped table, unknown when absent. */
static void test_capability_keys(void **state)
{
	(void)state;
	const struct insttype *t = insttype_lookup(types, "lambda", "gpu_8x_h100_sxm5");
	assert_non_null(t);
	assert_string_equal(t->k8s, "join"); /* on-demand: Private Cloud alone is managed */
	assert_non_null(strstr(t->k8s_source, "on-demand/getting-started.md")); /* kept for show */
	/* a list-price SKU name and the CKS ID of the same CoreWeave node */
	t = insttype_lookup(types, "coreweave", "HGX H100 (8 GPU)");
	assert_non_null(t);
	assert_int_equal(t->infiniband, 1);
	assert_null(t->k8s_source);
	t = insttype_lookup(types, "coreweave", "gd-8xh200ib-i128");
	assert_non_null(t);
	assert_string_equal(t->rdma, "ib");
	assert_null(insttype_lookup(types, "coreweave", "HGX B200 (8 GPU)")); /* unknown */
	t = insttype_lookup(types, "lambda", "gpu_1x_some_future_gpu");
	assert_non_null(t); /* the catch-all */
	assert_string_equal(t->k8s, "join");
	assert_null(t->gpu);
	t = insttype_lookup(types, "azure", "Standard_NV16as_v4");
	assert_non_null(t);
	assert_string_equal(t->k8s, "unknown"); /* AKS does not support NVv4 */
	t = insttype_lookup(types, "azure", "Standard_ND96isr_H100_v5");
	assert_null(t->k8s); /* the provider's answer stands */
	assert_int_equal(t->mig, -1);
	t = insttype_lookup(types, "nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb");
	assert_int_equal(t->infiniband, 1);
	assert_string_equal(t->rdma, "ib");
	t = insttype_lookup(types, "nebius", "gpu-h200-sxm_1gpu-16vcpu-200gb");
	assert_int_equal(t->infiniband, 0); /* only 8-GPU nodes join an IB cluster */
	assert_string_equal(t->gpu, "h200"); /* the split entry keeps the GPU fact */
	t = insttype_lookup(types, "nebius", "gpu-l40s-d_4gpu-128vcpu-768gb");
	assert_int_equal(t->infiniband, 0);
	t = insttype_lookup(types, "aws", "p5en.48xlarge");
	assert_non_null(t);
	assert_string_equal(t->rdma, "efa");
	assert_int_equal(t->infiniband, 0);
	t = insttype_lookup(types, "aws", "p4d.24xlarge");
	assert_string_equal(t->rdma, "efa");
	assert_string_equal(insttype_lookup(types, "aws", "p5.4xlarge")->rdma, "efa");
	assert_null(insttype_lookup(types, "aws", "g5.48xlarge")); /* not in the table: unknown */

	static const char doc[] =
		"types:\n"
		"  - {provider: a, match: \"gpu_[12]x_*\", k8s: none, "
		"k8s_source: https://k.example/,"
		" mig: no, rdma: efa, checked: 2026-12-02, source: https://a.example/}\n";
	struct insttype_table *own = NULL;
	char *err = NULL;
	assert_int_equal(insttype_load(&own, "t.yaml", doc, sizeof doc - 1, &err), GC_OK);
	t = insttype_lookup(own, "a", "GPU_2X_B200");
	assert_non_null(t);
	assert_string_equal(t->k8s, "none");
	assert_int_equal(t->mig, 0);
	assert_string_equal(t->rdma, "efa");
	assert_null(insttype_lookup(own, "a", "gpu_4x_b200"));
	insttype_free(own);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_ids_exist),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_bad_entries),
		cmocka_unit_test(test_capability_keys),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
