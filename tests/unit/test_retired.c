/* test_retired.c - data/retired.yaml: the shipped file is valid and is the
 * embedded one, the loader refuses what it must, the match honours dates,
 * globs and aliases. */
#include <stdlib.h>

#include "testutil.h"

#include "gpucmp/embedded.h"
#include "gpucmp/retired.h"
#include "gpucmp/strutil.h"

static long day(const char *s)
{
	return str_date_days(s);
}

static void test_shipped_file(void **state)
{
	(void)state;
	size_t len;
	char *file = read_source_file("data/retired.yaml", &len);
	const struct embedded_file *e = embedded_find("data/retired.yaml");
	assert_non_null(e);
	assert_int_equal(len, e->len);
	assert_memory_equal(file, e->data, len);
	struct retired_table *t = NULL;
	char *err = NULL;
	assert_int_equal(retired_load(&t, "data/retired.yaml", file, len, &err), GC_OK);
	assert_null(err);
	assert_true(retired_count(t) >= 8);
	long today = day("2026-12-02");
	/* NCv3, NVv3, NVv4 gone; their successors stay */
	assert_int_equal(retired_check(t, "azure", "Standard_NC6s_v3", "eastus", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NC24rs_v3", "eastus", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "eastus", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NV32as_v4", "eastus", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NC24", "eastus", today), RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NC24rs_v2", "eastus", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_ND24rs", "eastus", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NV6_Promo", "eastus", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NC4as_T4_v3", "eastus", today),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NC24ads_A100_v4", "eastus", today),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NV6ads_A10_v5", "eastus", today),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_ND40rs_v2", "eastus", today),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_ND96asr_v4", "eastus", today),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NC240", "eastus", today),
			 RETIRED_KEEP);
	/* the MI300X alias, and the true name kept */
	assert_int_equal(retired_check(t, "azure", "Standard_ND96is_MI300X_v5", "eastus", today),
			 RETIRED_ALIAS);
	assert_int_equal(retired_check(t, "azure", "Standard_ND96isr_MI300X_v5", "eastus", today),
			 RETIRED_KEEP);
	/* NCv3's regional extensions (US Gov to 2026-06-30, Jio India West and
	 * China North 3 to 2027-06-30) */
	assert_int_equal(retired_check(t, "azure", "Standard_NC6s_v3", "jioindiawest", today),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NC6s_v3", "ChinaNorth3", today),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NC6s_v3", "jioindiawest",
				       day("2027-06-30")), RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NC6s_v3", "usgovvirginia",
				       day("2026-06-29")), RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NC6s_v3", "usgovvirginia", today),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NC6s_v3", "jioindiacentral", today),
			 RETIRED_GONE);
	/* an alias whatever the region */
	assert_int_equal(retired_check(t, "azure", "Standard_ND96is_MI300X_v5", NULL, today),
			 RETIRED_ALIAS);
	/* another provider's same name is not Azure's */
	assert_int_equal(retired_check(t, "vast", "Standard_NC6s_v3", "eastus", today),
			 RETIRED_KEEP);
	retired_free(t);
	free(file);
}

#define ONE(extra)                                                                         \
	"version: 1\nretired:\n"                                                           \
	"  - provider: azure\n    skus: [Standard_NV*s_v3, 'Old?']\n"                       \
	"    retired: 2026-09-30\n"                                                        \
	"    source: https://example.com/notice\n    checked: 2026-12-02\n" extra

static void test_dates_and_globs(void **state)
{
	(void)state;
	struct retired_table *t = NULL;
	const char *doc = ONE("");
	assert_int_equal(retired_load(&t, "t.yaml", doc, strlen(doc), NULL), GC_OK);
	/* on or before today: gone; after: kept */
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "eastus",
				       day("2026-09-29")),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "eastus",
				       day("2026-09-30")),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "eastus",
				       day("2027-01-01")),
			 RETIRED_GONE);
	/* case-insensitive, '*' over any run, '?' one character */
	assert_int_equal(retired_check(t, "azure", "standard_nv48S_V3", "eastus",
				       day("2026-12-02")),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NVs_v3", "eastus", day("2026-12-02")),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3x", "eastus",
				       day("2026-12-02")),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "OldX", "eastus", day("2026-12-02")),
			 RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Old", "eastus", day("2026-12-02")),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "OldXY", "eastus", day("2026-12-02")),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(t, "aws", "Standard_NV12s_v3", "eastus", day("2026-12-02")),
			 RETIRED_KEEP);
	assert_int_equal(retired_check(NULL, "azure", "x", "eastus", 0), RETIRED_KEEP);
	retired_free(t);
	/* regions / except_regions */
	doc = ONE("    regions: [jioindiawest]\n");
	assert_int_equal(retired_load(&t, "t.yaml", doc, strlen(doc), NULL), GC_OK);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "JioIndiaWest",
				       day("2026-12-02")), RETIRED_GONE);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "eastus",
				       day("2026-12-02")), RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", NULL, day("2026-12-02")),
			 RETIRED_KEEP);
	retired_free(t);
	doc = ONE("    except_regions: [jioindiawest]\n");
	assert_int_equal(retired_load(&t, "t.yaml", doc, strlen(doc), NULL), GC_OK);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "jioindiawest",
				       day("2026-12-02")), RETIRED_KEEP);
	assert_int_equal(retired_check(t, "azure", "Standard_NV12s_v3", "eastus",
				       day("2026-12-02")), RETIRED_GONE);
	retired_free(t);

	assert_true(retired_glob("a*b*c", "aXXbYc"));
	assert_false(retired_glob("a*b*c", "aXXbYcd"));
	assert_true(retired_glob("*", ""));
	assert_false(retired_glob("?", ""));
}

static void test_offer_retired_uses_today(void **state)
{
	(void)state;
	setenv("GPUCMP_TODAY", "2025-09-29", 1);
	assert_int_equal(offer_retired("azure", "Standard_NC6s_v3", "eastus"), RETIRED_KEEP);
	setenv("GPUCMP_TODAY", "2025-09-30", 1);
	assert_int_equal(offer_retired("azure", "Standard_NC6s_v3", "eastus"), RETIRED_GONE);
	/* an alias is dropped whatever the day */
	setenv("GPUCMP_TODAY", "2020-01-01", 1);
	assert_int_equal(offer_retired("azure", "Standard_ND96is_MI300X_v5", "eastus"),
			 RETIRED_ALIAS);
	unsetenv("GPUCMP_TODAY");
}

static void expect_bad(const char *doc, const char *want)
{
	struct retired_table *t = NULL;
	char *err = NULL;
	assert_int_equal(retired_load(&t, "t.yaml", doc, strlen(doc), &err), GC_EDATA);
	assert_null(t);
	assert_non_null(err);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
	free(err);
}

static void test_bad_documents(void **state)
{
	(void)state;
	expect_bad("retired: []\n", "version");
	expect_bad("version: 2\nretired: []\n", "version");
	expect_bad("version: 1\n", "retired");
	expect_bad("version: 1\nretired: []\nextra: 1\n", "extra");
	expect_bad(ONE("    typo: x\n"), "typo");
	expect_bad(
		"version: 1\nretired:\n  - provider: nosuch\n    skus: [a]\n"
		"    retired: 2026-09-30\n    source: https://x.example\n    checked: 2026-12-02\n",
		"unknown provider");
	expect_bad(
		"version: 1\nretired:\n  - provider: azure\n    skus: [a]\n"
		"    retired: 30/09/2026\n    source: https://x.example\n    checked: 2026-12-02\n",
		"'retired' must be a date");
	expect_bad(
		"version: 1\nretired:\n  - provider: azure\n    skus: [a]\n"
		"    retired: 2026-02-30\n    source: https://x.example\n    checked: 2026-12-02\n",
		"'retired' must be a date");
	expect_bad("version: 1\nretired:\n  - provider: azure\n    skus: [a]\n"
		   "    source: https://x.example\n    checked: 2026-12-02\n",
		   "no 'retired'");
	expect_bad(
		"version: 1\nretired:\n  - provider: azure\n    skus: [a]\n"
		"    retired: 2026-09-30\n    source: http://x.example\n    checked: 2026-12-02\n",
		"https://");
	expect_bad("version: 1\nretired:\n  - provider: azure\n    skus: [a]\n"
		   "    retired: 2026-09-30\n    checked: 2026-12-02\n",
		   "no 'source'");
	expect_bad("version: 1\nretired:\n  - provider: azure\n    skus: [a]\n"
		   "    retired: 2026-09-30\n    source: https://x.example\n",
		   "no 'checked'");
	expect_bad(
		"version: 1\nretired:\n  - provider: azure\n    skus: []\n"
		"    retired: 2026-09-30\n    source: https://x.example\n    checked: 2026-12-02\n",
		"at least one");
	expect_bad(
		"version: 1\nretired:\n  - provider: azure\n    skus: ['NC[0-9]']\n"
		"    retired: 2026-09-30\n    source: https://x.example\n    checked: 2026-12-02\n",
		"wildcards");
	expect_bad(
		"version: 1\nretired:\n  - provider: azure\n    skus: ['a b']\n"
		"    retired: 2026-09-30\n    source: https://x.example\n    checked: 2026-12-02\n",
		"wildcards");
	expect_bad(
		"version: 1\nretired:\n  - provider: azure\n    skus: Standard_NC6\n"
		"    retired: 2026-09-30\n    source: https://x.example\n    checked: 2026-12-02\n",
		"must be a list");
	expect_bad(ONE("    regions: [eastus]\n    except_regions: [westus]\n"), "not both");
	expect_bad(ONE("    regions: []\n"), "at least one region");
	expect_bad(ONE("    regions: ['east us']\n"), "exact region");
	expect_bad("version: 1\nretired: []\naliases:\n  - provider: azure\n    sku: a*\n"
		   "    same_as: b\n    source: https://x.example\n    checked: 2026-12-02\n",
		   "exact SKU names");
	expect_bad("version: 1\nretired: []\naliases:\n  - provider: azure\n    sku: A\n"
		   "    same_as: a\n    source: https://x.example\n    checked: 2026-12-02\n",
		   "another SKU");
	expect_bad("version: 1\nretired: []\naliases:\n  - provider: azure\n    sku: a\n"
		   "    source: https://x.example\n    checked: 2026-12-02\n",
		   "no 'same_as'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_file),
		cmocka_unit_test(test_dates_and_globs),
		cmocka_unit_test(test_offer_retired_uses_today),
		cmocka_unit_test(test_bad_documents),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
