/* test_strutil.c - strict numbers, edit distance, sanitizing, dates. */
#include "testutil.h"

#include "gpucmp/strutil.h"

static void test_numbers(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		int ok;
		double v;
	} cases[] = {
		{"2.5", 0, 2.5}, {" 40 ", 0, 40}, {"1e3", 0, 1000}, {"-1", 0, -1},
		{"", -1, 0}, {"abc", -1, 0}, {"2.5x", -1, 0}, {"nan", -1, 0},
		{"inf", -1, 0}, {"1e999", -1, 0}, {"0x10", 0, 16},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double v = -99;
		assert_int_equal(str_to_double(cases[i].in, &v), cases[i].ok);
		if (cases[i].ok == 0)
			assert_true(v == cases[i].v);
	}
	long l;
	assert_int_equal(str_to_long("8", &l), 0);
	assert_int_equal(l, 8);
	assert_int_equal(str_to_long("8.5", &l), -1);
	assert_int_equal(str_to_long("99999999999999999999999", &l), -1);
}

static void test_distance_and_suggest(void **state)
{
	(void)state;
	assert_int_equal(str_distance("lamda", "lambda"), 1);
	assert_int_equal(str_distance("lmabda", "lambda"), 1); /* transposition */
	assert_int_equal(str_distance("LAMBDA", "lambda"), 0);
	struct suggest s;
	suggest_init(&s, "lamda");
	suggest_try(&s, "azure");
	suggest_try(&s, "lambda");
	suggest_try(&s, "vast");
	assert_string_equal(suggest_best(&s), "lambda");
	suggest_init(&s, "zzzzzz");
	suggest_try(&s, "lambda");
	assert_null(suggest_best(&s));
	/* an exact match is not a suggestion */
	suggest_init(&s, "vast");
	suggest_try(&s, "vast");
	assert_null(suggest_best(&s));
	/* ties go to the shorter name */
	suggest_init(&s, "h10");
	suggest_try(&s, "h100-sxm");
	suggest_try(&s, "h100");
	assert_string_equal(suggest_best(&s), "h100");
}

static void test_sanitize(void **state)
{
	(void)state;
	char out[64];
	assert_string_equal(str_sanitize(out, sizeof out, "ok\x1b[31mred"), "ok?[31mred");
	assert_string_equal(str_sanitize(out, sizeof out, "caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(str_sanitize(out, sizeof out, "bad\xff"), "bad?");
	assert_string_equal(str_sanitize(out, sizeof out, "c1\xc2\x9b"), "c1?");
	/* a multibyte character is never cut in half */
	assert_string_equal(str_sanitize(out, 5, "abc\xc3\xa9"), "abc");
}

static void test_dates(void **state)
{
	(void)state;
	assert_int_equal(str_date_days("1970-01-01"), 0);
	assert_int_equal(str_date_days("2026-12-02") - str_date_days("2026-05-20"), 196);
	assert_int_equal(str_date_days("2024-02-29") - str_date_days("2024-02-28"), 1);
	assert_int_equal(str_date_days("2025-02-29"), -1);
	assert_int_equal(str_date_days("2026-13-01"), -1);
	assert_int_equal(str_date_days("2026-1-01"), -1);
	assert_int_equal(str_date_days("yesterday"), -1);
	assert_int_equal(str_date_days(""), -1);
}

/* The fast decimal path gives exactly what strtod gives. */
static void test_fast_decimals(void **state)
{
	(void)state;
	static const char *const in[] = {"0.1", "0.7", "2.49", "123456789012345", "1234567890123456",
					 "-0.000001", "007", "99.999", "0.30000000000000004",
					 "1.", "0", "-0", "3.14159265358979", "0.0000000000000000000001",
					 "12.3456789012345678"};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		double v = -42;
		assert_int_equal(str_to_double(in[i], &v), 0);
		double want = strtod(in[i], NULL);
		if (memcmp(&v, &want, sizeof v) != 0)
			fail_msg("'%s': %.17g, strtod says %.17g", in[i], v, want);
	}
	double v;
	assert_int_equal(str_to_double("1.2.3", &v), -1);
	assert_int_equal(str_to_double("-", &v), -1);
	assert_int_equal(str_to_double("5x", &v), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_fast_decimals),
		cmocka_unit_test(test_distance_and_suggest),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_dates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
