/* fuzz_where.c - libFuzzer target for the --where parser and compiler
 * (where_compile).
 *
 * The input is the expression (up to its first NUL: it comes from argv).
 * Names resolve as in `list` (the offer field registry, aliases included)
 * and, failing that, as in `providers` (profile field paths), each to a
 * column of an in-memory SQLite table holding one row (an enum checks its
 * values and expands k8s managed, as in `list`).  Besides the
 * sanitizers, a compiled expression must be SQL that SQLite prepares, with
 * exactly as many parameters as binds, and that runs; a failed one must
 * point inside the expression.
 */
#include <sqlite3.h>

#include "fuzz_common.h"
#include "gpucmp/field.h"
#include "gpucmp/profile.h"
#include "gpucmp/query.h"
#include "gpucmp/where.h"

enum { MAX_COLS = 256, MAX_EXPR = 64 * 1024 };

static char cols[MAX_COLS][8]; /* "o12" for offer_fields[12], "p3" for profile_fields[3] */
static sqlite3 *db;

static enum field_type profile_type(enum pfield_kind k)
{
	switch (k) {
	case PF_ENUM:
		return FT_ENUM;
	case PF_BOOL:
		return FT_BOOL;
	case PF_NUMBER:
		return FT_NUM;
	default:
		return FT_TEXT;
	}
}

static int lookup(void *ctx, const char *name, struct where_field *out)
{
	(void)ctx;
	const struct field *f = field_find(name);
	if (f) {
		out->sql = cols[f - offer_fields];
		out->type = f->type;
		out->values = f->values;
		out->key = f->key;
		out->means = f->type == FT_ENUM ? query_cap_means : NULL;
		return 0;
	}
	int i = profile_field_index(name);
	if (i < 0)
		return -1;
	out->sql = cols[offer_field_count + (size_t)i];
	out->type = profile_type(profile_fields[i].kind);
	return 0;
}

static const char *suggest(void *ctx, const char *name)
{
	(void)ctx;
	return field_suggest(name);
}

/* The table t: one column per name, one row of plausible values. */
static void open_db(void)
{
	char sql[8192] = "CREATE TABLE t(", row[8192] = "INSERT INTO t VALUES(";
	size_t ncols = offer_field_count + profile_field_count;
	if (ncols > MAX_COLS)
		fuzz_fail("more than %d fields", MAX_COLS);
	for (size_t i = 0; i < ncols; i++) {
		int offer = i < offer_field_count;
		snprintf(cols[i], sizeof cols[i], "%c%zu", offer ? 'o' : 'p',
			 offer ? i : i - offer_field_count);
		enum field_type t =
			offer ? offer_fields[i].type
			      : profile_type(profile_fields[i - offer_field_count].kind);
		size_t n = strlen(sql), m = strlen(row);
		snprintf(sql + n, sizeof sql - n, "%s%s", i ? ", " : "", cols[i]);
		snprintf(row + m, sizeof row - m, "%s%s", i ? ", " : "",
			 t == FT_TEXT ? "'a-b_c'" : t == FT_ENUM ? "'unknown'" : "1");
	}
	size_t n = strlen(sql), m = strlen(row);
	snprintf(sql + n, sizeof sql - n, ");");
	snprintf(row + m, sizeof row - m, ");");
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(db, row, NULL, NULL, NULL) != SQLITE_OK)
		fuzz_fail("cannot set up the SQLite table: %s", sqlite3_errmsg(db));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	open_db();
	return 0;
}

/* The compiled SQL must prepare, take every bind and run. */
static void run_sql(const char *expr, const struct where_result *r)
{
	static const char pre[] = "SELECT count(*) FROM t WHERE ";
	char *sql = malloc(sizeof pre + r->sql.len);
	if (!sql)
		fuzz_fail("out of memory");
	memcpy(sql, pre, sizeof pre - 1);
	memcpy(sql + sizeof pre - 1, r->sql.ptr, r->sql.len + 1);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		fuzz_fail("'%s' compiled to SQL that does not prepare: %s (%s)", expr, sql,
			  sqlite3_errmsg(db));
	if ((size_t)sqlite3_bind_parameter_count(st) != r->nbinds)
		fuzz_fail("'%s': %d parameters, %zu binds", expr, sqlite3_bind_parameter_count(st),
			  r->nbinds);
	for (size_t i = 0; i < r->nbinds; i++) {
		const struct where_bind *b = &r->binds[i];
		if (b->is_text && !b->text)
			fuzz_fail("'%s': text bind %zu is NULL", expr, i);
		if (b->is_text)
			sqlite3_bind_text(st, (int)i + 1, b->text, -1, SQLITE_STATIC);
		else
			sqlite3_bind_double(st, (int)i + 1, b->num);
	}
	if (sqlite3_step(st) != SQLITE_ROW)
		fuzz_fail("'%s': the SQL does not run: %s", expr, sqlite3_errmsg(db));
	sqlite3_finalize(st);
	free(sql);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > MAX_EXPR)
		return 0;
	char *expr = malloc(size + 1);
	if (!expr)
		fuzz_fail("out of memory");
	memcpy(expr, data, size);
	expr[size] = '\0';
	struct where_result r;
	char *err = NULL;
	enum gc_status st = where_compile(expr, lookup, suggest, NULL, &r, &err);
	fuzz_check_err(st, err);
	if (st == GC_OK) {
		if (!r.sql.ptr || r.sql.len != strlen(r.sql.ptr))
			fuzz_fail("'%s': no SQL", expr);
		run_sql(expr, &r);
		where_result_release(&r);
	} else if (r.err_pos > strlen(expr)) {
		fuzz_fail("'%s': error at %zu, past the end", expr, r.err_pos);
	}
	free(err);
	free(expr);
	return 0;
}
