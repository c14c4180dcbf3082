/* test_where.c - the --where language: precedence, quoting, every operator,
 * errors with positions, and injection attempts run against real SQLite. */
#include <sqlite3.h>
#include <strings.h>

#include "gpucmp/strutil.h"
#include "gpucmp/where.h"
#include "testutil.h"

static const struct {
	const char *name, *sql;
	enum field_type type;
} fields[] = {
	{"price", "price_hr", FT_PRICE}, {"vram", "gpu_mem_gb", FT_NUM},
	{"provider", "provider", FT_TEXT}, {"k8s", "k8s", FT_ENUM},
	{"infiniband", "infiniband", FT_BOOL}, {"region", "region", FT_TEXT},
	{"gpu", "gpu", FT_TEXT},
};

/* gpu has a domain of ids, and a family word outside it stands for its
 * models (expand), as the query's gpu field does */
static const char *const gpu_ids[] = {"h100-sxm", "h100-pcie", "l4", NULL};
static const char *const gpu_h100[] = {"h100-sxm", "h100-pcie", NULL};

static const char *const *gpu_expand(void *ctx, const char *value)
{
	assert_ptr_equal(ctx, gpu_ids);
	return strcasecmp(value, "h100") == 0 ? gpu_h100 : NULL;
}

/* k8s has a domain, and managed stands for managed or both */
static const char *const k8s_modes[] = {"managed", "join", "both", "none", "unknown", NULL};
static const char *const k8s_managed[] = {"managed", "both", NULL};

static const char *const *k8s_means(const char *key, const char *value)
{
	assert_string_equal(key, "k8s");
	return strcmp(value, "managed") == 0 ? k8s_managed : NULL;
}

static int lookup(void *ctx, const char *name, struct where_field *out)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (strcmp(fields[i].name, name) == 0) {
			out->sql = fields[i].sql;
			out->type = fields[i].type;
			if (fields[i].type == FT_ENUM) {
				out->values = k8s_modes;
				out->means = k8s_means;
				out->key = "k8s";
			}
			if (strcmp(name, "gpu") == 0) {
				out->values = gpu_ids;
				out->expand = gpu_expand;
				out->expand_ctx = (void *)gpu_ids;
			}
			return 0;
		}
	return -1;
}

static const char *suggest(void *ctx, const char *name)
{
	(void)ctx;
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		suggest_try(&s, fields[i].name);
	return suggest_best(&s);
}

/* The SQL and a compact rendering of the binds ("n:80 t:lambda"). */
static void compile_ok(const char *expr, const char *want_sql, const char *want_binds)
{
	struct where_result r;
	char *err = NULL;
	if (where_compile(expr, lookup, suggest, NULL, &r, &err) != GC_OK)
		fail_msg("'%s': %s", expr, err);
	if (strcmp(r.sql.ptr, want_sql) != 0)
		fail_msg("'%s'\n got  %s\n want %s", expr, r.sql.ptr, want_sql);
	char binds[256] = "";
	size_t n = 0;
	for (size_t i = 0; i < r.nbinds; i++) {
		if (r.binds[i].is_text)
			n += (size_t)snprintf(binds + n, sizeof binds - n, "%st:%s", i ? " " : "",
					      r.binds[i].text);
		else
			n += (size_t)snprintf(binds + n, sizeof binds - n, "%sn:%g", i ? " " : "",
					      r.binds[i].num);
	}
	if (strcmp(binds, want_binds) != 0)
		fail_msg("'%s': binds '%s', want '%s'", expr, binds, want_binds);
	where_result_release(&r);
}

static void test_valid(void **state)
{
	(void)state;
	/* every operator */
	compile_ok("vram >= 80", "((gpu_mem_gb >= ?))", "n:80");
	compile_ok("vram>80", "((gpu_mem_gb > ?))", "n:80");
	compile_ok("vram<=80", "((gpu_mem_gb <= ?))", "n:80");
	compile_ok("vram<80", "((gpu_mem_gb < ?))", "n:80");
	compile_ok("vram = 80", "((gpu_mem_gb = ?))", "n:80");
	compile_ok("vram == 80", "((gpu_mem_gb = ?))", "n:80");
	compile_ok("vram != 80", "((gpu_mem_gb != ?))", "n:80");
	compile_ok("vram <> 80", "((gpu_mem_gb != ?))", "n:80");
	compile_ok("region ~ 'us-*'", "((lower(region) GLOB lower(?)))", "t:us-*");
	compile_ok("region !~ eu*", "((lower(region) NOT GLOB lower(?)))", "t:eu*");
	compile_ok("provider in (lambda, 'vast', \"gcp\")",
		   "((provider COLLATE NOCASE IN (?, ?, ?)))", "t:lambda t:vast t:gcp");
	compile_ok("vram not in (24, 48)", "((gpu_mem_gb NOT IN (?, ?)))", "n:24 n:48");
	/* units and money */
	compile_ok("vram >= 80gb", "((gpu_mem_gb >= ?))", "n:80");
	compile_ok("vram >= 1.5TB", "((gpu_mem_gb >= ?))", "n:1500");
	compile_ok("price < $2.5", "((price_hr < ?))", "n:2.5");
	compile_ok("price < 2.5/h", "((price_hr < ?))", "n:2.5");
	/* booleans, null */
	compile_ok("infiniband", "((infiniband = 1))", "");
	compile_ok("infiniband = false", "((infiniband = ?))", "n:0");
	compile_ok("infiniband = yes", "((infiniband = ?))", "n:1");
	compile_ok("infiniband = null", "((infiniband IS NULL))", "");
	compile_ok("price != null", "((price_hr IS NOT NULL))", "");
	/* text compares without case; an enum's unknown is null */
	compile_ok("k8s = join", "((NULLIF(k8s, 'unknown') = ? COLLATE NOCASE))", "t:join");
	compile_ok("k8s = JOIN", "((NULLIF(k8s, 'unknown') = ? COLLATE NOCASE))", "t:join");
	compile_ok("k8s = unknown", "((NULLIF(k8s, 'unknown') IS NULL))", "");
	compile_ok("k8s != 'unknown'", "((NULLIF(k8s, 'unknown') IS NOT NULL))", "");
	/* a value that stands for several */
	compile_ok("k8s = managed", "((NULLIF(k8s, 'unknown') COLLATE NOCASE IN (?, ?)))",
		   "t:managed t:both");
	compile_ok("k8s != managed", "((NULLIF(k8s, 'unknown') COLLATE NOCASE NOT IN (?, ?)))",
		   "t:managed t:both");
	compile_ok("k8s not in (none, managed)",
		   "((NULLIF(k8s, 'unknown') COLLATE NOCASE NOT IN (?, ?, ?)))",
		   "t:none t:managed t:both");
	compile_ok("k8s ~ 'man*'", "((lower(NULLIF(k8s, 'unknown')) GLOB lower(?)))", "t:man*");
	compile_ok("provider = 'it''s'", "((provider = ? COLLATE NOCASE))", "t:it's");
	/* precedence: not > and > or; parentheses */
	compile_ok("vram>=80 or price<2 and infiniband",
		   "((gpu_mem_gb >= ?) OR (price_hr < ?) AND (infiniband = 1))", "n:80 n:2");
	compile_ok("(vram>=80 or price<2) and not infiniband",
		   "(((gpu_mem_gb >= ?) OR (price_hr < ?)) AND (NOT (infiniband = 1)))",
		   "n:80 n:2");
	compile_ok("not not infiniband", "((NOT (NOT (infiniband = 1))))", "");
	compile_ok(
		"NOT vram > 1 AND k8s = 'both' OR provider = join",
		"((NOT (gpu_mem_gb > ?)) AND (NULLIF(k8s, 'unknown') = ? COLLATE NOCASE) OR "
		"(provider = ? COLLATE NOCASE))",
		"n:1 t:both t:join");
}

static void compile_bad(const char *expr, const char *want_msg, size_t want_pos)
{
	struct where_result r;
	char *err = NULL;
	enum gc_status st = where_compile(expr, lookup, suggest, NULL, &r, &err);
	if (st != GC_EUSAGE)
		fail_msg("'%s' compiled (status %d)", expr, st);
	if (!err || !strstr(err, want_msg))
		fail_msg("'%s': message '%s', want '%s'", expr, err ? err : "", want_msg);
	if (r.err_pos != want_pos)
		fail_msg("'%s': position %zu, want %zu", expr, r.err_pos, want_pos);
	assert_true(r.err_len >= 1);
	free(err);
	where_result_release(&r);
}

static void test_invalid(void **state)
{
	(void)state;
	compile_bad("", "empty expression", 0);
	compile_bad("   ", "empty expression", 0);
	compile_bad("vrma >= 80", "unknown field 'vrma'; did you mean 'vram'?", 0);
	compile_bad("vram >= lots", "'vram' is a number field; 'lots' is not a number", 8);
	compile_bad("vram >=", "expected a value for 'vram'", 7);
	compile_bad("vram", "'vram' is a number", 0);
	compile_bad("k8s < managed", "cannot be ordered", 4);
	compile_bad("vram ~ 8*", "'~' matches text", 5);
	compile_bad("infiniband = maybe", "neither", 13);
	compile_bad("(vram > 1", "'(' is never closed", 0);
	compile_bad("vram > 1)", "unmatched ')'", 8);
	compile_bad("vram > 1 vram < 2", "expected 'and', 'or'", 9);
	compile_bad("vram > 1 and", "expected a field name at the end", 12);
	compile_bad("provider = 'open", "unterminated string", 11);
	compile_bad("provider in lambda", "expected '(' after 'in'", 12);
	compile_bad("provider in (a b)", "expected ',' or ')'", 15);
	compile_bad("provider in (null)", "null cannot be in a list", 13);
	/* values outside the domain: the nearest one, else the list */
	compile_bad("k8s = manged", "unknown k8s value 'manged'; did you mean 'managed'?", 6);
	compile_bad("k8s in (join, yes)",
		    "unknown k8s value 'yes'; expected managed, join, both, none or unknown", 14);
	compile_bad("k8s != 'x'", "unknown k8s value 'x'", 7);
	compile_bad("k8s in (unknown)", "unknown cannot be in a list; use k8s = unknown", 8);
	compile_bad("vram > null", "null can only be compared", 7);
	compile_bad("provider not like x", "expected 'in'", 13);
	compile_bad("vram > 1 & price < 2", "unexpected character '&'", 9);
	compile_bad("price < 2; DROP TABLE offer", "unexpected character ';'", 9);
	/* nesting is bounded */
	char deep[400];
	memset(deep, '(', 200);
	snprintf(deep + 200, sizeof deep - 200, "vram > 1");
	compile_bad(deep, "nested too deeply", 64);
}

/* Injection attempts run for real: the values are bound, the table stays. */
/* a word of the domain binds itself; a family binds its models; neither:
 * an error, with no nearest for a --gpu spec */
static void test_expand(void **state)
{
	(void)state;
	compile_ok("gpu = L4", "((gpu = ? COLLATE NOCASE))", "t:l4");
	compile_ok("gpu = H100", "((gpu COLLATE NOCASE IN (?, ?)))", "t:h100-sxm t:h100-pcie");
	compile_ok("gpu in (h100, l4)", "((gpu COLLATE NOCASE IN (?, ?, ?)))",
		   "t:h100-sxm t:h100-pcie t:l4");
	struct where_result r;
	char *err = NULL;
	assert_int_equal(where_compile("gpu = h100-sxn", lookup, suggest, NULL, &r, &err),
			 GC_EUSAGE);
	assert_non_null(strstr(err, "did you mean 'h100-sxm'"));
	free(err);
	err = NULL;
	assert_int_equal(where_compile("gpu = h100:8", lookup, suggest, NULL, &r, &err),
			 GC_EUSAGE);
	assert_null(strstr(err, "did you mean"));
	free(err);
}

static void test_injection_is_harmless(void **state)
{
	(void)state;
	sqlite3 *db;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(
		sqlite3_exec(db,
			     "CREATE TABLE t(provider TEXT, region TEXT, price_hr REAL,"
			     " gpu_mem_gb REAL, k8s TEXT, infiniband INTEGER);"
			     "INSERT INTO t VALUES('lambda', 'us-east-1', 2, 80, 'both', 1);"
			     "INSERT INTO t VALUES('x'';--', 'eu', 1, 24, 'none', NULL);",
			     NULL, NULL, NULL),
		SQLITE_OK);
	static const char *const attacks[] = {
		"provider = 'x; DROP TABLE t; --'",
		"provider = \"lambda' OR '1'='1\"",
		"region ~ '*'' OR 1=1 --'",
		"provider in ('a', 'b); DELETE FROM t; --')",
		"provider = 'x'';--'",
		"provider = '/* comment */ lambda'",
	};
	static const int want_rows[] = {0, 0, 0, 0, 1, 0};
	for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
		struct where_result r;
		char *err = NULL;
		if (where_compile(attacks[i], lookup, suggest, NULL, &r, &err) != GC_OK)
			fail_msg("'%s': %s", attacks[i], err);
		char sql[1024];
		snprintf(sql, sizeof sql, "SELECT count(*) FROM t WHERE %s", r.sql.ptr);
		sqlite3_stmt *s;
		assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
		for (size_t b = 0; b < r.nbinds; b++) {
			if (r.binds[b].is_text)
				sqlite3_bind_text(s, (int)b + 1, r.binds[b].text, -1,
						  SQLITE_STATIC);
			else
				sqlite3_bind_double(s, (int)b + 1, r.binds[b].num);
		}
		assert_int_equal(sqlite3_step(s), SQLITE_ROW);
		if (sqlite3_column_int(s, 0) != want_rows[i])
			fail_msg("'%s' matched %d rows", attacks[i], sqlite3_column_int(s, 0));
		sqlite3_finalize(s);
		where_result_release(&r);
	}
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM t", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 2);
	sqlite3_finalize(s);
	/* NULL never matches a comparison, negated or not */
	struct where_result r;
	char *err = NULL;
	assert_int_equal(where_compile("not infiniband", lookup, suggest, NULL, &r, &err), GC_OK);
	char sql[512];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM t WHERE %s", r.sql.ptr);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(s, 0), 0);
	sqlite3_finalize(s);
	where_result_release(&r);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_injection_is_harmless),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
