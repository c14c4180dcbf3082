/* test_render.c - JSON, CSV, NDJSON and table output. */
#include "testutil.h"

#include "gpucmp/render.h"

static sqlite3 *db;

static int setup(void **state)
{
	(void)state;
	return sqlite3_open(":memory:", &db) == SQLITE_OK ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	sqlite3_close(db);
	return 0;
}

/* Render the rows of `sql` (columns: provider, gpu_count, price_hr,
 * available, k8s) in `fmt` and return the output (caller frees). */
static char *render_sql(const char *sql, enum render_format fmt, int width)
{
	static const char *const keys[] = {"provider", "gpu_count", "price_hr", "available", "k8s"};
	const struct field *cols[5];
	for (int i = 0; i < 5; i++)
		cols[i] = field_find(keys[i]);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	struct render_spec spec = {.format = fmt, .cols = cols, .ncols = 5, .out = f,
				   .width = width};
	struct renderer *r;
	char *err = NULL;
	assert_int_equal(render_begin(&r, &spec, &err), GC_OK);
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW)
		assert_int_equal(render_row(r, s, &err), GC_OK);
	sqlite3_finalize(s);
	size_t rows;
	assert_int_equal(render_end(r, &rows, &err), GC_OK);
	fclose(f);
	return out;
}

static const char rows_sql[] =
	"SELECT 'say \"hi\"\\' , 8, 2.35, 1, 'managed' UNION ALL "
	"SELECT 'ctl' || char(27) || '[31m', 0.333, NULL, NULL, 'unknown' UNION ALL "
	"SELECT 'a,b', 1, 14.94, 0, 'both'";

static void test_json(void **state)
{
	(void)state;
	char *out = render_sql(rows_sql, RF_JSON, 0);
	assert_string_equal(
		out,
		"[\n"
		"{\"provider\":\"say \\\"hi\\\"\\\\\",\"gpu_count\":8,\"price_hr\":2.35,"
		"\"available\":true,\"k8s\":\"managed\"},\n"
		"{\"provider\":\"ctl\\u001b[31m\",\"gpu_count\":0.333,\"price_hr\":null,"
		"\"available\":null,\"k8s\":\"unknown\"},\n"
		"{\"provider\":\"a,b\",\"gpu_count\":1,\"price_hr\":14.94,\"available\":false,"
		"\"k8s\":\"both\"}\n"
		"]\n");
	free(out);
	out = render_sql("SELECT 'x', 1, 1, 1, 'none' WHERE 0", RF_JSON, 0);
	assert_string_equal(out, "[]\n");
	free(out);
}

static void test_ndjson_and_csv(void **state)
{
	(void)state;
	char *out = render_sql(rows_sql, RF_NDJSON, 0);
	size_t lines = 0;
	for (char *p = out; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 3);
	assert_int_equal(strncmp(out, "{\"provider\":", 12), 0);
	free(out);
	out = render_sql(rows_sql, RF_CSV, 0);
	assert_string_equal(out,
		"provider,gpu_count,price_hr,available,k8s\n"
		"\"say \"\"hi\"\"\\\",8,2.35,true,managed\n"
		"ctl?[31m,0.333,,,unknown\n"
		"\"a,b\",1,14.94,false,both\n");
	free(out);
	out = render_sql("SELECT 'x', 1, 1, 1, 'none' WHERE 0", RF_CSV, 0);
	assert_string_equal(out, "provider,gpu_count,price_hr,available,k8s\n");
	free(out);
}

static void test_table(void **state)
{
	(void)state;
	char *out = render_sql(rows_sql, RF_TABLE, 0);
	assert_string_equal(out,
		"PROVIDER    GPUS     $/H  AVAIL  K8S\n"
		"say \"hi\"\\      8   $2.35  yes    managed\n"
		"ctl?[31m   0.333       -  ?      ?\n"
		"a,b            1  $14.94  no     both\n");
	free(out);
	/* narrower than the table: the least important columns go first */
	out = render_sql(rows_sql, RF_TABLE, 30);
	assert_null(strstr(out, "AVAIL"));
	char *save = NULL;
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		assert_true(render_width(line) <= 30);
	free(out);
	out = render_sql("SELECT 'x', 1, 1, 1, 'none' WHERE 0", RF_TABLE, 0);
	assert_string_equal(out, "");
	free(out);
}

static void test_fit_and_width(void **state)
{
	(void)state;
	assert_int_equal(render_width("caf\xc3\xa9"), 4);
	struct buf b;
	buf_init(&b, 0);
	assert_int_equal(render_fit(&b, "Stra\xc3\x9f" "e 12", 5), GC_OK);
	assert_string_equal(b.ptr, "Stra\xe2\x80\xa6");
	assert_int_equal(render_width(b.ptr), 5);
	buf_reset(&b);
	assert_int_equal(render_fit(&b, "short", 10), GC_OK);
	assert_string_equal(b.ptr, "short");
	/* wide characters take two cells and are never cut in half */
	buf_reset(&b);
	assert_int_equal(render_width("\xe6\x97\xa5\xe6\x9c\xac"), 4); /* 日本 */
	assert_int_equal(render_fit(&b, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e-gpu", 4), GC_OK);
	/* 日… : 3 cells, not 日本 + … */
	assert_string_equal(b.ptr, "\xe6\x97\xa5\xe2\x80\xa6");
	/* a combining mark takes none and stays with its letter */
	buf_reset(&b);
	assert_int_equal(render_width("Cafe\xcc\x81 Noir"), 9);
	assert_int_equal(render_fit(&b, "Cafe\xcc\x81 Noir", 5), GC_OK);
	assert_string_equal(b.ptr, "Cafe\xcc\x81\xe2\x80\xa6");
	/* an invalid byte counts one cell */
	assert_int_equal(render_width("a\xff" "b"), 3);
	buf_free(&b);
	buf_init(&b, 0);
	render_json_string(&b, "bad\xff utf8 \xe2\x82");
	assert_string_equal(b.ptr, "\"bad\xef\xbf\xbd utf8 \xef\xbf\xbd\xef\xbf\xbd\"");
	buf_reset(&b);
	render_json_number(&b, 1e300 * 1e300);
	assert_string_equal(b.ptr, "null");
	buf_free(&b);
}

/* C1 controls (U+0080-U+009F; U+009B is CSI, a terminal escape in one
 * character) and DEL are escaped in JSON and NDJSON, and '?' in CSV and
 * table cells, even though the cache should never hold them. */
static void test_control_escapes(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b, 0);
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"csi\xc2\x9b[2J", "\"csi\\u009b[2J\""},
		{"\xc2\x80\xc2\x85\xc2\x9f", "\"\\u0080\\u0085\\u009f\""},
		{"del\x7f", "\"del\\u007f\""},
		{"esc\x1b", "\"esc\\u001b\""},
		{"nbsp\xc2\xa0 e\xcc\x81", "\"nbsp\xc2\xa0 e\xcc\x81\""},
		{"half\xc2", "\"half\xef\xbf\xbd\""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&b);
		assert_int_equal(render_json_string(&b, cases[i].in), GC_OK);
		assert_string_equal(b.ptr, cases[i].out);
	}
	buf_free(&b);
	const char *sql = "SELECT 'c1' || char(155) || '[2J' || char(127), 1, 2, 1, 'none'";
	static const struct {
		enum render_format fmt;
		const char *want;
	} outs[] = {
		{RF_JSON, "\"c1\\u009b[2J\\u007f\""},
		{RF_NDJSON, "\"c1\\u009b[2J\\u007f\""},
		{RF_CSV, "\nc1?[2J?,"},
		{RF_TABLE, "\nc1?[2J? "},
	};
	for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
		char *out = render_sql(sql, outs[i].fmt, 0);
		if (!strstr(out, outs[i].want) || strstr(out, "\xc2\x9b") || strchr(out, 0x7f))
			fail_msg("format %d: %s", (int)outs[i].fmt, out);
		free(out);
	}
}

/* JSON that jansson wrote (show, recommend, cache status --json): DEL
 * and C1 controls inside strings come out escaped; the rest unchanged. */
static void test_json_write(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "{\"sku\":\"a\xc2\x9b[2J\"}", "{\"sku\":\"a\\u009b[2J\"}" },
		{ "[\"\x7f\",\"\xc2\x80\xc2\x9f\xc2\xa0\"]",
		  "[\"\\u007f\",\"\\u0080\\u009f\xc2\xa0\"]" },
		{ "\"caf\xc3\xa9 \xe2\x80\xa6\"", "\"caf\xc3\xa9 \xe2\x80\xa6\"" },
		{ "\"ends\xc2", "\"ends\xc2" },
		{ "", "" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);
		assert_non_null(f);
		assert_int_equal(render_json_write(f, cases[i].in, strlen(cases[i].in)), 0);
		fclose(f);
		assert_string_equal(out, cases[i].out);
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_ndjson_and_csv),
		cmocka_unit_test(test_control_escapes),
		cmocka_unit_test(test_json_write),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_fit_and_width),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
