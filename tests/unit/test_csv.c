/* test_csv.c - the RFC 4180 reader and field quoting. */
#include "testutil.h"

#include "gpucmp/csv.h"

static void expect_record(struct csv_reader *r, size_t n, const char *const *want)
{
	char *err = NULL;
	assert_int_equal(csv_next(r, &err), 1);
	assert_null(err);
	assert_int_equal(r->nfields, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(r->fields[i], want[i]);
}

static void test_quoting_and_line_endings(void **state)
{
	(void)state;
	const char data[] = "\xEF\xBB\xBF" "a,b,c\r\n"
			    "1,\"x, y\",\"he said \"\"hi\"\"\"\r\n"
			    "\"multi\nline\",,last\n"
			    "Denmark, DK, EU,\"Denmark, DK, EU\",3";
	struct csv_reader r;
	csv_init(&r, data, sizeof data - 1);
	expect_record(&r, 3, (const char *const[]){"a", "b", "c"});
	assert_int_equal(csv_column(&r, "c"), 2);
	assert_int_equal(csv_column(&r, "zz"), -1);
	expect_record(&r, 3, (const char *const[]){"1", "x, y", "he said \"hi\""});
	assert_int_equal(r.line, 2);
	expect_record(&r, 3, (const char *const[]){"multi\nline", "", "last"});
	expect_record(&r, 5, (const char *const[]){"Denmark", " DK", " EU", "Denmark, DK, EU", "3"});
	assert_int_equal(r.line, 5);
	assert_int_equal(csv_next(&r, NULL), 0);
	csv_release(&r);
}

static void test_unterminated_quote(void **state)
{
	(void)state;
	const char data[] = "a,b\n1,\"never closed\n2,3\n";
	struct csv_reader r;
	char *err = NULL;
	csv_init(&r, data, sizeof data - 1);
	assert_int_equal(csv_next(&r, &err), 1);
	assert_int_equal(csv_next(&r, &err), -1);
	assert_non_null(err);
	assert_non_null(strstr(err, "line 2"));
	free(err);
	csv_release(&r);
}

static void test_quote_output(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain", "plain"}, {"a,b", "\"a,b\""}, {"say \"x\"", "\"say \"\"x\"\"\""},
		{"two\nlines", "\"two\nlines\""}, {" padded", "\" padded\""}, {"", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf b;
		buf_init(&b, 0);
		assert_int_equal(csv_quote(&b, cases[i].in), GC_OK);
		assert_string_equal(b.ptr ? b.ptr : "", cases[i].out);
		buf_free(&b);
	}
}

static void test_buf_cap(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b, 8);
	assert_int_equal(buf_addstr(&b, "12345678"), GC_OK);
	assert_int_equal(buf_addc(&b, '9'), GC_EDATA);
	assert_int_equal(b.len, 8);
	assert_string_equal(b.ptr, "12345678");
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoting_and_line_endings),
		cmocka_unit_test(test_unterminated_quote),
		cmocka_unit_test(test_quote_output),
		cmocka_unit_test(test_buf_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
