/* test_profile.c - provider profiles: the real ones load, broken ones fail
 * with file:line messages. */
#include <dirent.h>

#include "testutil.h"

#include "gpucmp/profile.h"
#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

static long today(void)
{
	return str_date_days("2026-12-02");
}

static enum gc_status load(const char *rel, struct profile **p, char **err)
{
	size_t len;
	char *data = read_source_file(rel, &len);
	enum gc_status st = profile_load(p, rel, data, len, today(), err);
	free(data);
	return st;
}

static void test_valid_fixture(void **state)
{
	(void)state;
	struct profile *p = NULL;
	char *err = NULL;
	assert_int_equal(load("tests/fixtures/profiles/valid.yaml", &p, &err), GC_OK);
	assert_null(err);
	assert_string_equal(p->id, "valid");
	assert_string_equal(p->kind, "gpu-cloud");
	assert_int_equal(p->nregions, 2);
	assert_string_equal(profile_text(p, "kubernetes.mode"), "both");
	assert_string_equal(profile_text(p, "sharing.mps"), "unknown");
	assert_string_equal(profile_text(p, "docker.daemon"), "rootless");
	const struct pvalue *v = profile_value(p, profile_field_index("docker.daemon"));
	assert_string_equal(v->source, "https://valid.example.com/docs/docker");
	assert_string_equal(v->note, "Rootless Docker on VMs.");
	/* a group source covers the fields without their own */
	v = profile_value(p, profile_field_index("kubernetes.autoscaling"));
	assert_string_equal(v->source, "https://valid.example.com/docs/k8s");
	v = profile_value(p, profile_field_index("kubernetes.control_plane_fee_usd_hr"));
	assert_true(v->known && v->number == 0.1);
	v = profile_value(p, profile_field_index("kubernetes.gang_scheduling"));
	assert_int_equal(v->nlist, 2);
	assert_string_equal(v->list[1], "volcano");
	v = profile_value(p, profile_field_index("kubernetes.scale_to_zero"));
	assert_false(v->known);
	/* the costs group: numbers, a yes/no, the group source */
	v = profile_value(p, profile_field_index("costs.egress_free_gb_month"));
	assert_true(v->known && v->number == 100);
	v = profile_value(p, profile_field_index("costs.stopped_gpu_billed"));
	assert_string_equal(v->text, "no");
	assert_string_equal(v->source, "https://valid.example.com/docs/pricing");
	assert_int_equal(profile_field_index("nope.nothing"), -1);
	profile_free(p);
}

static void test_error_fixtures(void **state)
{
	(void)state;
	static const struct {
		const char *file, *want;
	} cases[] = {
		{ "bad-enum",
		  ":46: bad value 'sometimes' for sharing.mig "
		  "(expected managed, self, no, unknown)" },
		{ "unknown-key", "unknown key 'autoscalling'; did you mean 'autoscaling'?" },
		{ "no-source", "interconnect.infiniband is 'some' but has no source" },
		{ "bad-date", "verified must be a date YYYY-MM-DD" },
		{ "future-date", "is in the future" },
		{ "missing-field", "missing field interconnect.gpudirect_rdma" },
		{ "bad-url", "source must be an http(s) URL" },
		{ "id-mismatch", "does not match the file name" },
		{ "bad-number", "bad value 'cheap' for kubernetes.control_plane_fee_usd_hr" },
		{ "bool-typo",
		  "bad value 'true' for kubernetes.autoscaling (expected yes, no, unknown)" },
		{ "negative-cost",
		  ":61: bad value '-0.05' for costs.egress_usd_gb (expected a number >= 0 or "
		  "unknown)" },
		{ "cost-no-source",
		  "costs.block_storage_usd_gb_month is '0.1' but has no source" },
		{ "missing-costs", ":2: missing group 'costs'" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char rel[256];
		snprintf(rel, sizeof rel, "tests/fixtures/profiles/%s.yaml", cases[i].file);
		struct profile *p = NULL;
		char *err = NULL;
		assert_int_equal(load(rel, &p, &err), GC_EDATA);
		assert_null(p);
		assert_non_null(err);
		/* every message starts with file:line */
		char prefix[300];
		snprintf(prefix, sizeof prefix, "%s:", rel);
		if (strncmp(err, prefix, strlen(prefix)) != 0 ||
		    !(err[strlen(prefix)] >= '1' && err[strlen(prefix)] <= '9'))
			fail_msg("%s: no file:line prefix in '%s'", cases[i].file, err);
		if (!strstr(err, cases[i].want))
			fail_msg("%s: '%s' does not contain '%s'", cases[i].file, err,
				 cases[i].want);
		free(err);
	}
}

static void test_duplicate_ids(void **state)
{
	(void)state;
	struct profile_set set = {NULL, 0};
	struct profile *a = NULL, *b = NULL;
	char *err = NULL;
	assert_int_equal(load("tests/fixtures/profiles/valid.yaml", &a, &err), GC_OK);
	assert_int_equal(load("tests/fixtures/profiles/valid.yaml", &b, &err), GC_OK);
	assert_int_equal(profile_set_add(&set, a, &err), GC_OK);
	assert_int_equal(profile_set_add(&set, b, &err), GC_EDATA);
	assert_non_null(strstr(err, "duplicate provider id 'valid'"));
	free(err);
	profile_set_release(&set);
}

/* Every shipped profile loads and validates, and the embedded set matches
 * the files in providers/. */
static void test_shipped_profiles(void **state)
{
	(void)state;
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/providers", GPUCMP_SOURCE_DIR);
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	size_t files = 0;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (n < 6 || strcmp(e->d_name + n - 5, ".yaml") != 0)
			continue;
		char rel[512];
		snprintf(rel, sizeof rel, "providers/%s", e->d_name);
		struct profile *p = NULL;
		char *err = NULL;
		if (load(rel, &p, &err) != GC_OK)
			fail_msg("%s", err ? err : rel);
		assert_true(p->nsources > 0);
		profile_free(p);
		files++;
	}
	closedir(d);
	struct profile_set set;
	char *err = NULL;
	assert_int_equal(profile_set_load_embedded(&set, today(), &err), GC_OK);
	assert_int_equal(set.n, files);
	assert_true(files >= 8);
	for (size_t i = 1; i < set.n; i++)
		assert_true(strcmp(set.items[i - 1]->id, set.items[i]->id) < 0);
	assert_non_null(profile_set_find(&set, "lambda"));
	assert_null(profile_set_find(&set, "lamda"));
	assert_string_equal(profile_set_suggest(&set, "lamda"), "lambda");
	profile_set_release(&set);
}

/* Deep nesting is refused with file:line and the limit, before libyaml
 * builds the document (providers --check on 250,000 '{a: ' took minutes). */
static void test_deep_nesting(void **state)
{
	(void)state;
	size_t n = 250000, head = strlen("id: deep\nname: ");
	char *text = malloc(head + 4 * n + 2);
	assert_non_null(text);
	memcpy(text, "id: deep\nname: ", head);
	for (size_t i = 0; i < n; i++)
		memcpy(text + head + 4 * i, "{a: ", 4);
	memcpy(text + head + 4 * n, "\n", 2);
	struct profile *p = NULL;
	char *err = NULL;
	assert_int_equal(profile_load(&p, "providers/deep.yaml", text, strlen(text), today(), &err),
			 GC_EDATA);
	assert_null(p);
	char want[96];
	snprintf(want, sizeof want, "providers/deep.yaml:2: nested deeper than %d levels",
		 YDOC_MAX_DEPTH);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("%s", err);
	free(err);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_fixture),
		cmocka_unit_test(test_error_fixtures),
		cmocka_unit_test(test_duplicate_ids),
		cmocka_unit_test(test_shipped_profiles),
		cmocka_unit_test(test_deep_nesting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
