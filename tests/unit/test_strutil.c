/* test_strutil.c - strict numbers, edit distance, sanitizing, dates. */
#include "testutil.h"

#include "gpucmp/buf.h"
#include "gpucmp/strutil.h"

/* Numbers from outside (catalogs, API strings, options) are plain decimals:
 * [+-] digits [. digits] [e [+-] digits], blanks (space, tab) around; no
 * hex, inf or nan, no other whitespace, nothing after. */
static void test_numbers(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		int ok;
		double v;
	} cases[] = {
		/* accepted */
		{"2.5", 0, 2.5}, {" 40 ", 0, 40}, {"\t7\t", 0, 7}, {"1e3", 0, 1000},
		{"1E3", 0, 1000}, {"2.5e-1", 0, 0.25}, {"1e+2", 0, 100}, {"-1", 0, -1},
		{"+1.5", 0, 1.5}, {"0", 0, 0}, {"007", 0, 7}, {"1.", 0, 1}, {".5", 0, 0.5},
		{"-.5", 0, -0.5}, {"1e-300", 0, 1e-300}, {"123456789012345678901234567890", 0,
		1.2345678901234568e29},
		/* rejected: hex, special values, junk, whitespace tricks */
		{"0x10", -1, 0}, {"0x50", -1, 0}, {"0X50", -1, 0}, {"0x1p8", -1, 0},
		{"-0x1p-3", -1, 0}, {"0b101", -1, 0}, {"nan", -1, 0}, {"NaN", -1, 0},
		{"nan(0x1)", -1, 0}, {"inf", -1, 0}, {"-inf", -1, 0}, {"Infinity", -1, 0},
		{"1e999", -1, 0}, {"-1e999", -1, 0}, {"1e-400", -1, 0}, {"", -1, 0}, {" ", -1, 0},
		{"abc", -1, 0}, {"2.5x", -1, 0}, {"1.2.3", -1, 0}, {"-", -1, 0}, {"+", -1, 0},
		{".", -1, 0}, {"e5", -1, 0}, {"1e", -1, 0}, {"1e+", -1, 0}, {"--1", -1, 0},
		{"+-1", -1, 0}, {"1 2", -1, 0}, {"1,5", -1, 0}, {"1_000", -1, 0},
		{"\n1", -1, 0}, {"1\n", -1, 0}, {"\r1", -1, 0}, {"1\r", -1, 0}, {"\v1", -1, 0},
		{"1\f", -1, 0}, {"\xc2\xa0" "1", -1, 0}, {"1\xc2\xa0", -1, 0}, {"- 1", -1, 0},
		{"$1", -1, 0}, {"1$", -1, 0}, {"\xef\xbc\x91", -1, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double v = -99;
		int rc = str_to_double(cases[i].in, &v);
		if (rc != cases[i].ok)
			fail_msg("'%s': %s", cases[i].in, rc ? "rejected" : "accepted");
		if (cases[i].ok == 0 && v != cases[i].v)
			fail_msg("'%s': %.17g, want %.17g", cases[i].in, v, cases[i].v);
		if (cases[i].ok != 0 && v != -99)
			fail_msg("'%s': rejected but *out changed", cases[i].in);
	}
	double v;
	assert_int_equal(str_to_double(NULL, &v), -1);
	long l;
	assert_int_equal(str_to_long("8", &l), 0);
	assert_int_equal(l, 8);
	assert_int_equal(str_to_long(" -8 ", &l), 0);
	assert_int_equal(l, -8);
	static const char *const bad_long[] = {"8.5", "99999999999999999999999", "0x10", "\n8",
					       "\v8", "8\n", "", " ", "+", "- 8", "1e3"};
	for (size_t i = 0; i < sizeof bad_long / sizeof bad_long[0]; i++)
		if (str_to_long(bad_long[i], &l) == 0)
			fail_msg("str_to_long accepted '%s'", bad_long[i]);
}

/* str_decimal_prefix reads the decimal at the start and says where it ended. */
static void test_decimal_prefix(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		int ok;
		double v;
		size_t used;
	} cases[] = {
		{"8x H100", 0, 8, 1},     {"0x8x", 0, 0, 1},   {"80 GB)", 0, 80, 2},
		{"1.5e3k", 0, 1500, 5},   {"2.e", 0, 2, 2},    {"1e+x", 0, 1, 1},
		{"x8", -1, 0, 0},         {"inf", -1, 0, 0},   {" 8", -1, 0, 0},
		{"1e999x", -1, 0, 0},     {"-", -1, 0, 0},     {".e1", -1, 0, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double v = -99;
		const char *end = NULL;
		int rc = str_decimal_prefix(cases[i].in, &v, &end);
		if (rc != cases[i].ok)
			fail_msg("'%s': %s", cases[i].in, rc ? "rejected" : "accepted");
		if (rc == 0 && (v != cases[i].v || end != cases[i].in + cases[i].used))
			fail_msg("'%s': %g after %td bytes", cases[i].in, v, end - cases[i].in);
	}
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

/* str_field: the one sanitizer at the cache's door (clean, cut at 511). */
static void test_field(void **state)
{
	(void)state;
	char dst[STR_FIELD_MAX + 1];
	int changed = 0;
	const char *clean = "us-east-1";
	assert_ptr_equal(str_field(dst, clean, &changed), clean);
	assert_ptr_equal(str_field(dst, "caf\xc3\xa9", &changed) == dst, 0);
	assert_int_equal(changed, 0);
	assert_null(str_field(dst, NULL, &changed));
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "us\xc2\x9b"
		  "31m",
		  "us?31m" },
		{ "a\x1b]8;;x\x07", "a?]8;;x?" },
		{ "del\x7f", "del?" },
		{ "nel\xc2\x85", "nel?" },
		{ "c1 end\xc2\x9f", "c1 end?" },
		{ "nbsp\xc2\xa0ok", "nbsp\xc2\xa0ok" },
		{ "tab\there", "tab?here" },
		{ "cr\r\nlf", "cr??lf" },
		{ "half\xc2", "half?" },
		{ "overlong\xc0\xaf", "overlong??" },
		{ "surrogate\xed\xa0\x80", "surrogate???" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		changed = 0;
		assert_string_equal(str_field(dst, cases[i].in, &changed), cases[i].out);
		assert_int_equal(changed, strcmp(cases[i].in, cases[i].out) != 0);
	}
	/* cut at STR_FIELD_MAX bytes, never inside a character */
	char big[2000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	changed = 0;
	assert_int_equal(strlen(str_field(dst, big, &changed)), STR_FIELD_MAX);
	assert_int_equal(changed, 1);
	for (size_t i = 0; i + 1 < sizeof big; i += 2)
		memcpy(big + i, "\xc3\xa9", 2);
	big[sizeof big - 2] = '\0';
	const char *cut = str_field(dst, big, &changed);
	assert_int_equal(strlen(cut), STR_FIELD_MAX - 1);
	assert_string_equal(cut + STR_FIELD_MAX - 3, "\xc3\xa9");
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
	static const char *const in[] = { "0.1",
					  "0.7",
					  "2.49",
					  "123456789012345",
					  "1234567890123456",
					  "-0.000001",
					  "007",
					  "99.999",
					  "0.30000000000000004",
					  "1.",
					  "0",
					  "-0",
					  "3.14159265358979",
					  "0.0000000000000000000001",
					  "12.3456789012345678" };
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

static void test_http_and_user_dates(void **state)
{
	(void)state;
	/* RFC 9110's example, and the epoch */
	assert_int_equal(str_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), 784111777LL);
	assert_int_equal(str_http_date("Thu, 01 Jan 1970 00:00:00 GMT"), 0);
	static const char *const bad[] = {
		"", "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC",
		"Sun, 06 Nox 1994 08:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT",
		"Sun, 06 Nov 1994 24:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT x",
		"Sunday, 06-Nov-94 08:49:37 GMT", "ovN, 06 Nov 1994 08:49:37 GMT junk",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (str_http_date(bad[i]) != -1)
			fail_msg("'%s' read as a date", bad[i]);
	assert_int_equal(str_user_date("2026-05-20"), 1779235200LL);
	assert_int_equal(str_user_date("2026-05-20T06:00:00Z"), 1779235200LL + 6 * 3600);
	assert_int_equal(str_user_date("2026-5-20"), -1);
	assert_int_equal(str_user_date("yesterday"), -1);
	assert_int_equal(str_user_date(NULL), -1);
}

/* A failed append is remembered until buf_init, so a caller that builds a
 * whole text (a table line) checks once instead of losing a cell silently. */
static void test_buf_failure_is_sticky(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b, 4);
	assert_int_equal(buf_addstr(&b, "abc"), GC_OK);
	assert_false(b.failed);
	assert_int_equal(buf_addstr(&b, "de"), GC_EDATA); /* over the cap */
	assert_true(b.failed);
	assert_int_equal(buf_addc(&b, 'x'), GC_OK); /* later appends still work */
	assert_true(b.failed);                     /* and the failure stays */
	assert_string_equal(b.ptr, "abcx");
	buf_free(&b);
	buf_init(&b, 0);
	assert_false(b.failed);
	buf_free(&b);
}

/* Numbers with their unit, as --where and --vram / --max-price read them. */
static void test_quantity(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		double want;
		enum str_unit unit;
	} ok[] = {
		{"80", 80, SU_NONE},	     {"80GB", 80, SU_MEMORY}, {"80gib", 80, SU_MEMORY},
		{"1.5tb", 1500, SU_MEMORY}, {"1TiB", 1024, SU_MEMORY}, {"24g", 24, SU_MEMORY},
		{"$2.5", 2.5, SU_MONEY},    {"2.5/h", 2.5, SU_MONEY},  {"$2/hr", 2, SU_MONEY},
		{"3usd", 3, SU_MONEY},	     {"400gbps", 400, SU_RATE}, {"80 GB", 80, SU_MEMORY},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		double v = -1;
		enum str_unit u = SU_RATE;
		if (str_to_quantity(ok[i].in, &v, &u) != 0 || v != ok[i].want || u != ok[i].unit)
			fail_msg("'%s': %g unit %d", ok[i].in, v, (int)u);
	}
	static const char *const bad[] = {"", "gb", "$", "80 XB", "80xb", "$80gb", "0x50", "1e999",
					  NULL};
	double v;
	for (size_t i = 0; bad[i]; i++)
		if (str_to_quantity(bad[i], &v, NULL) == 0)
			fail_msg("'%s' read as %g", bad[i], v);
	assert_int_equal(str_to_quantity(NULL, &v, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_quantity),
		cmocka_unit_test(test_buf_failure_is_sticky),
		cmocka_unit_test(test_decimal_prefix),
		cmocka_unit_test(test_fast_decimals),
		cmocka_unit_test(test_distance_and_suggest),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_field),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_http_and_user_dates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
