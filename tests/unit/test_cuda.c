/* test_cuda.c - version numbers and the shipped CUDA -> driver table. */
#include "gpucmp/cuda.h"
#include "testutil.h"

static void test_version_numbers(void **state)
{
	(void)state;
	assert_int_equal(cuda_version_num("12.4"), 12004000);
	assert_int_equal(cuda_version_num("12.4.1"), 12004001);
	assert_int_equal(cuda_version_num("550.54.14"), 550054014);
	assert_int_equal(cuda_version_num("535.183.01"), 535183001);
	assert_int_equal(cuda_version_num("580"), 580000000);
	/* an older driver's number is smaller, whatever the digit counts */
	assert_true(cuda_version_num("550.54.13") < cuda_version_num("550.54.14"));
	assert_true(cuda_version_num("550.127.05") > cuda_version_num("550.54.14"));
	static const char *const bad[] = {"", "x", "12.", ".4", "12.4.1.2", "12.4a", "12..4",
					  "1234.1", "12.1000", "-1", NULL};
	for (size_t i = 0; bad[i]; i++)
		if (cuda_version_num(bad[i]) != -1)
			fail_msg("'%s' parsed", bad[i]);
	assert_int_equal(cuda_version_num(NULL), -1);
}

static void test_shipped_table(void **state)
{
	(void)state;
	struct cuda_table t;
	char *err = NULL;
	if (cuda_load_embedded(&t, &err) != GC_OK)
		fail_msg("%s", err);
	assert_true(t.n >= 40);
	const struct cuda_row *r = cuda_find(&t, "12.4");
	assert_non_null(r);
	assert_string_equal(r->min_driver, "550.54.14");
	assert_non_null(cuda_find(&t, "12.4.0")); /* the GA row */
	assert_null(cuda_find(&t, "12.7"));      /* there is no 12.7 */
	for (size_t i = 1; i < t.n; i++) {
		assert_true(t.rows[i].num > t.rows[i - 1].num);
		/* a newer toolkit never needs an older driver */
		assert_true(t.rows[i].driver_num >= t.rows[i - 1].driver_num);
	}
	cuda_free(&t);
	/* the loader rejects unsorted rows and bad versions, with file:line */
	const char *unsorted =
		"source: https://x\ntoolkits:\n  - cuda: '12.4'\n    min_driver: '550.54.14'\n"
		"  - cuda: '12.3'\n    min_driver: '545.23.06'\n";
	assert_int_equal(cuda_load(&t, "t.yaml", unsorted, strlen(unsorted), &err), GC_EDATA);
	assert_non_null(strstr(err, "t.yaml:5:"));
	free(err);
	err = NULL;
	const char *bad = "source: https://x\ntoolkits:\n  - cuda: twelve\n    min_driver: '1'\n";
	assert_int_equal(cuda_load(&t, "t.yaml", bad, strlen(bad), &err), GC_EDATA);
	assert_non_null(strstr(err, "cuda must be a version"));
	free(err);
}

/* --cuda VERSION: its row, or a one-line error with the table's range and
 * the nearest version below. */
static void test_pick(void **state)
{
	(void)state;
	struct cuda_row r;
	char *err = NULL;
	assert_int_equal(cuda_pick("12.4", &r, &err), GC_OK);
	assert_string_equal(r.min_driver, "550.54.14");
	assert_int_equal(cuda_pick("12.7", &r, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "CUDA 12.7 is not in gpucmp's table ("));
	assert_non_null(strstr(err, "; nearest below: 12.6"));
	free(err);
	err = NULL;
	assert_int_equal(cuda_pick("twelve", &r, &err), GC_EUSAGE);
	assert_string_equal(err, "bad CUDA version 'twelve' for --cuda (expected e.g. 12.4)");
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_numbers),
		cmocka_unit_test(test_shipped_table),
		cmocka_unit_test(test_pick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
