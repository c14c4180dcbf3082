/* test_sheet.c - the answers of show and compare: a sheet's rows and its
 * footnoted sources, the comparison's differs marks and --diff, and both
 * JSON documents. */
#include <jansson.h>

#include "testutil.h"

#include "gpucmp/sheet.h"
#include "gpucmp/strutil.h"

static long today(void)
{
	return str_date_days("2026-12-02");
}

static struct profile *load(const char *rel)
{
	size_t len;
	char *err = NULL;
	struct profile *p = NULL;
	char *data = read_source_file(rel, &len);
	assert_int_equal(profile_load(&p, rel, data, len, today(), &err), GC_OK);
	free(data);
	return p;
}

static const struct sheet_row *row_of(const struct sheet *s, const char *path)
{
	int field = profile_field_index(path);
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].field == field)
			return &s->rows[i];
	fail_msg("no row for %s", path);
	return NULL;
}

static void test_value_text(void **state)
{
	(void)state;
	char buf[SHEET_CELL];
	struct pvalue unknown = {0};
	int fee = profile_field_index("kubernetes.control_plane_fee_usd_hr");
	assert_string_equal(sheet_value_text(&profile_fields[fee], &unknown, buf, sizeof buf),
			    "?");
	struct pvalue num = {.known = 1, .number = 0.1};
	assert_string_equal(sheet_value_text(&profile_fields[fee], &num, buf, sizeof buf),
			    "0.10");
	num.number = 3200;
	assert_string_equal(sheet_value_text(&profile_fields[fee], &num, buf, sizeof buf),
			    "3200");
	int gang = profile_field_index("kubernetes.gang_scheduling");
	struct pvalue none = {.known = 1};
	assert_string_equal(sheet_value_text(&profile_fields[gang], &none, buf, sizeof buf),
			    "none");
	json_t *j = sheet_value_json(&profile_fields[gang], &unknown);
	assert_true(json_is_null(j));
	json_decref(j);
	int mode = profile_field_index("kubernetes.mode");
	j = sheet_value_json(&profile_fields[mode], &unknown);
	assert_string_equal(json_string_value(j), "unknown");
	json_decref(j);
	char path[64];
	sheet_field_path(fee, path, sizeof path);
	assert_string_equal(path, "kubernetes.control_plane_fee_usd_hr");
	sheet_field_path(profile_field_index("spot"), path, sizeof path);
	assert_string_equal(path, "spot");
}

static void test_sheet_rows(void **state)
{
	(void)state;
	struct profile *p = load("tests/fixtures/profiles/valid.yaml");
	struct sheet s;
	assert_int_equal(sheet_build(&s, p, today(), NULL), GC_OK);
	assert_int_equal(s.days_ago, 2);
	assert_false(s.stale);
	/* a title opens each group, in sheet_groups order */
	size_t titles = 0;
	for (size_t i = 0; i < s.nrows; i++)
		if (s.rows[i].field < 0)
			assert_string_equal(s.rows[i].title, sheet_groups[titles++].title);
	assert_int_equal(titles, sheet_ngroups);
	assert_int_equal(s.rows[0].field, -1);
	/* the values as people read them */
	assert_string_equal(row_of(&s, "kubernetes.mode")->text, "both");
	assert_string_equal(row_of(&s, "kubernetes.mode")->title, "Mode");
	assert_string_equal(row_of(&s, "kubernetes.control_plane_fee_usd_hr")->text, "0.10");
	assert_string_equal(row_of(&s, "kubernetes.gang_scheduling")->text, "kueue, volcano");
	assert_string_equal(row_of(&s, "kubernetes.scale_to_zero")->text, "unknown");
	assert_string_equal(row_of(&s, "docker.daemon")->note, "Rootless Docker on VMs.");
	/* spot is shown under billing */
	assert_string_equal(row_of(&s, "spot")->text, "yes");
	/* footnotes: numbered by first use, every row's number names its source,
	 * the profile's own sources last */
	assert_int_equal(row_of(&s, "kubernetes.mode")->source, 1);
	assert_string_equal(s.sources[0], "https://valid.example.com/docs/k8s");
	assert_int_equal(row_of(&s, "kubernetes.autoscaling")->source, 1);
	for (size_t i = 0; i < s.nrows; i++) {
		const struct sheet_row *r = &s.rows[i];
		if (r->field < 0)
			continue;
		const struct pvalue *v = profile_value(p, r->field);
		if (!v->source) {
			assert_int_equal(r->source, 0);
			continue;
		}
		assert_in_range(r->source, 1, s.nsources);
		assert_string_equal(s.sources[r->source - 1], v->source);
	}
	assert_string_equal(s.sources[s.nsources - 1], "https://valid.example.com/docs");
	sheet_release(&s);
	/* verified long ago: stale */
	assert_int_equal(sheet_build(&s, p, today() + SHEET_STALE_DAYS, NULL), GC_OK);
	assert_int_equal(s.days_ago, SHEET_STALE_DAYS + 2);
	assert_true(s.stale);
	sheet_release(&s);
	profile_free(p);
}

static void test_sheet_json(void **state)
{
	(void)state;
	struct profile *p = load("tests/fixtures/profiles/valid.yaml");
	struct sheet s;
	assert_int_equal(sheet_build(&s, p, today(), NULL), GC_OK);
	json_t *j = sheet_json(&s);
	assert_non_null(j);
	static const char *const keys[] = {
		"id", "name", "site", "kind", "kubernetes", "docker", "sharing", "interconnect",
		"spot", "billing", "costs", "regions", "sources", "field_sources", "notes", "note",
		"verified", "verified_days_ago", "stale"};
	assert_int_equal(json_object_size(j), sizeof keys / sizeof keys[0]);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		assert_non_null(json_object_get(j, keys[i]));
	assert_string_equal(json_string_value(json_object_get(j, "id")), "valid");
	assert_string_equal(json_string_value(json_object_get(j, "billing")), "per-second");
	assert_true(json_is_true(json_object_get(j, "spot")));
	assert_true(json_is_false(json_object_get(j, "stale")));
	assert_int_equal(json_integer_value(json_object_get(j, "verified_days_ago")), 2);
	/* the costs group: numbers as numbers, yes/no as booleans */
	json_t *costs = json_object_get(j, "costs");
	assert_true(json_real_value(json_object_get(costs, "egress_usd_gb")) == 0.05);
	assert_true(json_is_false(json_object_get(costs, "stopped_gpu_billed")));
	json_t *k8s = json_object_get(j, "kubernetes");
	assert_true(json_is_real(json_object_get(k8s, "control_plane_fee_usd_hr")));
	assert_int_equal(json_array_size(json_object_get(k8s, "gang_scheduling")), 2);
	assert_true(json_is_null(json_object_get(k8s, "scale_to_zero")));
	json_t *fs = json_object_get(j, "field_sources");
	assert_string_equal(json_string_value(json_object_get(fs, "docker.daemon")),
			    "https://valid.example.com/docs/docker");
	json_t *notes = json_object_get(j, "notes");
	assert_string_equal(json_string_value(json_object_get(notes, "docker.daemon")),
			    "Rootless Docker on VMs.");
	assert_int_equal(json_array_size(json_object_get(j, "regions")), 2);
	json_decref(j);
	sheet_release(&s);
	profile_free(p);
}

/* Count the field rows of c that differ, and check each against the texts. */
static size_t check_rows(const struct sheet_compare *c)
{
	size_t n = 0;
	for (size_t r = 0; r < c->nrows; r++) {
		const struct sheet_crow *row = &c->rows[r];
		if (row->field < 0)
			continue;
		int d = 0;
		for (size_t i = 1; i < c->ncols; i++)
			d |= strcmp(row->text[0], row->text[i]) != 0;
		assert_int_equal(row->differs, d);
		n += (size_t)d;
	}
	return n;
}

static void test_compare(void **state)
{
	(void)state;
	struct profile *a = load("tests/fixtures/profiles/valid.yaml");
	struct profile *b = load("providers/lambda.yaml");
	const struct profile *ps[] = {a, b, a};
	struct sheet_compare c;
	assert_int_equal(sheet_compare_build(&c, ps, 2, today(), 0, NULL), GC_OK);
	assert_int_equal(c.ncols, 2);
	assert_int_equal(c.cols[0].days_ago, 2);
	assert_int_equal(c.nstale, 0);
	assert_true(c.ndiff > 0);
	assert_int_equal(check_rows(&c), c.ndiff);
	size_t all = c.nrows;
	assert_int_equal(c.rows[0].field, -1);
	assert_string_equal(c.rows[0].title, "Kubernetes");
	sheet_compare_release(&c);
	/* --diff: only the rows that differ, every title over at least one */
	assert_int_equal(sheet_compare_build(&c, ps, 2, today(), 1, NULL), GC_OK);
	assert_true(c.nrows < all);
	assert_int_equal(check_rows(&c), c.ndiff);
	for (size_t r = 0; r < c.nrows; r++) {
		if (c.rows[r].field >= 0)
			assert_true(c.rows[r].differs);
		else
			assert_true(r + 1 < c.nrows && c.rows[r + 1].field >= 0);
	}
	sheet_compare_release(&c);
	/* the same profile twice: nothing differs, --diff shows nothing */
	const struct profile *same[] = {a, a};
	assert_int_equal(sheet_compare_build(&c, same, 2, today(), 1, NULL), GC_OK);
	assert_int_equal(c.ndiff, 0);
	assert_int_equal(c.nrows, 0);
	sheet_compare_release(&c);
	char *err = NULL;
	assert_int_equal(sheet_compare_build(&c, ps, 1, today(), 0, &err), GC_EUSAGE);
	assert_non_null(err);
	free(err);
	sheet_compare_release(&c);
	/* stale columns are counted */
	assert_int_equal(sheet_compare_build(&c, ps, 3, today() + 200, 0, NULL), GC_OK);
	assert_int_equal(c.nstale, 3);
	assert_true(c.cols[1].stale);
	sheet_compare_release(&c);
	profile_free(a);
	profile_free(b);
}

static void test_compare_json(void **state)
{
	(void)state;
	struct profile *a = load("tests/fixtures/profiles/valid.yaml");
	struct profile *b = load("providers/lambda.yaml");
	const struct profile *ps[] = {a, b};
	struct sheet_compare c;
	assert_int_equal(sheet_compare_build(&c, ps, 2, today(), 1, NULL), GC_OK);
	json_t *j = sheet_compare_json(&c);
	assert_non_null(j);
	assert_int_equal(json_object_size(j), 2);
	json_t *provs = json_object_get(j, "providers");
	assert_int_equal(json_array_size(provs), 2);
	json_t *p0 = json_array_get(provs, 0);
	assert_string_equal(json_string_value(json_object_get(p0, "id")), "valid");
	assert_int_equal(json_integer_value(json_object_get(p0, "verified_days_ago")), 2);
	assert_true(json_is_false(json_object_get(p0, "stale")));
	json_t *fields = json_object_get(j, "fields");
	assert_int_equal(json_array_size(fields), c.ndiff);
	size_t i;
	json_t *f;
	json_array_foreach(fields, i, f) {
		assert_true(json_is_true(json_object_get(f, "differs")));
		assert_non_null(json_string_value(json_object_get(f, "group")));
		int idx = profile_field_index(json_string_value(json_object_get(f, "field")));
		assert_true(idx >= 0);
		json_t *vals = json_object_get(f, "values");
		assert_int_equal(json_object_size(vals), 2);
		assert_non_null(json_object_get(vals, "lambda"));
	}
	json_decref(j);
	sheet_compare_release(&c);
	profile_free(a);
	profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_text),
		cmocka_unit_test(test_sheet_rows),
		cmocka_unit_test(test_sheet_json),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_compare_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
