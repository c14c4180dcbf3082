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
	expect_record(&r, 5,
		      (const char *const[]){ "Denmark", " DK", " EU", "Denmark, DK, EU", "3" });
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

/* csv_next on `len` bytes of `data` must fail on the record after `good`
 * good ones, with an error naming `want`. */
static void expect_bad(const char *data, size_t len, int good, const char *want)
{
	struct csv_reader r;
	char *err = NULL;
	csv_init(&r, data, len);
	for (int i = 0; i < good; i++)
		assert_int_equal(csv_next(&r, &err), 1);
	assert_int_equal(csv_next(&r, &err), -1);
	assert_non_null(err);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
	free(err);
	csv_release(&r);
}

/* A NUL byte is an error of the file naming its line, never a silent cut
 * of the field; control characters other than NUL pass through (the
 * caller cleans text). */
static void test_nul_byte(void **state)
{
	(void)state;
	const char a[] = "a,b\n1,us-east\0evil\n";
	expect_bad(a, sizeof a - 1, 1, "line 2: NUL byte");
	const char b[] = "a,b\n1,\"multi\nline\0\"\n";
	expect_bad(b, sizeof b - 1, 1, "line 3: NUL byte");
	const char c[] = "\0a,b\n";
	expect_bad(c, sizeof c - 1, 0, "line 1: NUL byte");
	const char d[] = "a,b\n1,2\n\0";
	expect_bad(d, sizeof d - 1, 2, "line 3: NUL byte");
	const char ctl[] = "a,\x1b[31m\xc2\x9b\x7f\n";
	struct csv_reader r;
	csv_init(&r, ctl, sizeof ctl - 1);
	expect_record(&r, 2, (const char *const[]){"a", "\x1b[31m\xc2\x9b\x7f"});
	csv_release(&r);
}

/* A record over CSV_MAX_RECORD is an error naming its line: a 100 MB
 * field, or a line of commas, cannot take memory without bound. */
static void test_record_limit(void **state)
{
	(void)state;
	size_t n = CSV_MAX_RECORD * 3;
	char *data = malloc(n + 16);
	assert_non_null(data);
	memset(data, 'x', n + 16);
	/* one field of exactly CSV_MAX_RECORD - 1 bytes fits (plus its NUL) */
	memcpy(data, "h\n", 2);
	memset(data + 2, 'x', CSV_MAX_RECORD - 1);
	memcpy(data + 2 + CSV_MAX_RECORD - 1, "\nz\n", 3);
	struct csv_reader r;
	char *err = NULL;
	csv_init(&r, data, 2 + CSV_MAX_RECORD - 1 + 3);
	assert_int_equal(csv_next(&r, &err), 1);
	assert_int_equal(csv_next(&r, &err), 1);
	assert_int_equal(strlen(r.fields[0]), CSV_MAX_RECORD - 1);
	assert_int_equal(csv_next(&r, &err), 1);
	assert_string_equal(r.fields[0], "z");
	csv_release(&r);
	/* one byte more is not */
	data[2 + CSV_MAX_RECORD - 1] = 'x';
	expect_bad(data, 2 + CSV_MAX_RECORD + 2, 1, "line 2: record longer than 65536 bytes");
	/* the same quoted, over several lines */
	data[2] = '"';
	for (size_t i = 3; i < n; i += 100)
		data[i] = '\n';
	data[n] = '"';
	expect_bad(data, n + 1, 1, "line 2: record longer");
	/* a line of commas: each empty field costs a byte */
	memset(data + 2, ',', n - 2);
	expect_bad(data, n, 1, "line 2: record longer");
	free(data);
}

/* A stream over a buffer in pieces of `step` bytes. */
struct pieces {
	const char *p;
	size_t left, step;
	int fail; /* fail instead of ending */
};

static long pieces_read(void *ctx, char *buf, size_t n, char **err)
{
	struct pieces *c = ctx;
	if (!c->left && c->fail) {
		err_set(err, GC_EDATA, "the source broke");
		return -1;
	}
	size_t k = c->left < c->step ? c->left : c->step;
	k = k < n ? k : n;
	memcpy(buf, c->p, k);
	c->p += k;
	c->left -= k;
	return (long)k;
}

/* Every record of r as text: code, line, fields; the error's text. */
static void transcript(struct csv_reader *r, struct buf *out)
{
	int rc;
	do {
		char *err = NULL;
		rc = csv_next(r, &err);
		buf_printf(out, "%d@%zu:", rc, r->line);
		for (size_t i = 0; rc > 0 && i < r->nfields; i++)
			buf_printf(out, "[%s]", r->fields[i]);
		buf_printf(out, "%s\n", err ? err : "");
		free(err);
	} while (rc > 0);
}

/* A stream read in any pieces gives the records, line numbers and errors
 * of the same bytes in memory: a CRLF, a doubled quote, a byte-order mark
 * and a record split between two reads. */
static void test_stream_in_pieces(void **state)
{
	(void)state;
	static const char *const inputs[] = {
		"\xEF\xBB\xBF" "a,b,c\r\n1,\"x, y\",\"he said \"\"hi\"\"\"\r\n"
		"\"multi\nline\",,last\nDenmark, DK, EU,\"Denmark, DK, EU\",3",
		"a\r\rb\r\n\r\n,\n\"\"\"\"\n\"q\"tail,x\r",
		"\xEF\xBB",
		"\xEF\xBB\xBF",
		"a,b\n1,\"never closed\n2,3\n",
		"",
		",",
	};
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		size_t len = strlen(inputs[i]);
		struct buf want, got;
		buf_init(&want, 0);
		struct csv_reader r;
		csv_init(&r, inputs[i], len);
		transcript(&r, &want);
		csv_release(&r);
		for (size_t step = 1; step <= len + 1; step++) {
			struct pieces in = {inputs[i], len, step, 0};
			buf_init(&got, 0);
			csv_init_stream(&r, pieces_read, &in);
			transcript(&r, &got);
			csv_release(&r);
			if (strcmp(got.ptr, want.ptr) != 0)
				fail_msg("input %zu in pieces of %zu:\n%s\nwant\n%s", i, step,
					 got.ptr, want.ptr);
			buf_free(&got);
		}
		buf_free(&want);
	}
	/* a NUL and an over-long record, found across chunks */
	size_t n = 3 * CSV_CHUNK;
	char *data = malloc(n);
	assert_non_null(data);
	memset(data, 'x', n);
	memcpy(data, "h\n", 2);
	struct pieces in = {data, n, CSV_CHUNK, 0};
	struct csv_reader r;
	char *err = NULL;
	csv_init_stream(&r, pieces_read, &in);
	assert_int_equal(csv_next(&r, &err), 1);
	assert_int_equal(csv_next(&r, &err), -1);
	assert_non_null(strstr(err, "line 2: record longer than 65536 bytes"));
	free(err);
	err = NULL;
	csv_release(&r);
	data[CSV_CHUNK + 5] = '\0';
	memset(data + 2, 'y', 4);
	data[6] = '\n';
	in = (struct pieces){data, n, 1000, 0};
	csv_init_stream(&r, pieces_read, &in);
	assert_int_equal(csv_next(&r, &err), 1);
	assert_int_equal(csv_next(&r, &err), 1);
	assert_int_equal(csv_next(&r, &err), -1);
	assert_non_null(strstr(err, "line 3: NUL byte"));
	free(err);
	csv_release(&r);
	free(data);
}

/* A read that fails is the reader's error, its message as the source gave
 * it; the records before it were read. */
static void test_stream_read_fails(void **state)
{
	(void)state;
	const char data[] = "a,b\n1,2\n3,";
	struct pieces in = {data, sizeof data - 1, 4, 1};
	struct csv_reader r;
	char *err = NULL;
	csv_init_stream(&r, pieces_read, &in);
	expect_record(&r, 2, (const char *const[]){"a", "b"});
	expect_record(&r, 2, (const char *const[]){"1", "2"});
	assert_int_equal(csv_next(&r, &err), -1);
	assert_string_equal(err, "the source broke");
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

/* Columns found by name, the first required one missing named. */
static void test_columns(void **state)
{
	(void)state;
	const char data[] = "name,price,zone\n";
	struct csv_reader r;
	csv_init(&r, data, sizeof data - 1);
	expect_record(&r, 3, (const char *const[]){"name", "price", "zone"});
	int name = 9, price = 9, spot = 9, region = 9;
	const struct csv_col ok[] = {{"price", &price, 1}, {"name", &name, 1}, {"spot", &spot, 0}};
	assert_null(csv_columns(&r, ok, 3));
	assert_int_equal(name, 0);
	assert_int_equal(price, 1);
	assert_int_equal(spot, -1);
	const struct csv_col bad[] = {{"spot", &spot, 0}, {"region", &region, 1}, {"x", &spot, 1}};
	assert_string_equal(csv_columns(&r, bad, 3), "region");
	assert_int_equal(region, -1);
	csv_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_record_limit),
		cmocka_unit_test(test_quoting_and_line_endings),
		cmocka_unit_test(test_unterminated_quote),
		cmocka_unit_test(test_stream_in_pieces),
		cmocka_unit_test(test_stream_read_fails),
		cmocka_unit_test(test_quote_output),
		cmocka_unit_test(test_buf_cap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
