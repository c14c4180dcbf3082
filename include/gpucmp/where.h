/* where.h - the --where expression language, compiled to SQL.
 *
 *   expr   := or
 *   or     := and ("or" and)*
 *   and    := not ("and" not)*
 *   not    := "not" not | "(" expr ")" | test
 *   test   := FIELD op VALUE | FIELD ["not"] "in" "(" VALUE ("," VALUE)* ")" | FIELD
 *   op     := = == != <> < <= > >= ~ !~       (~ is a case-insensitive glob)
 *   VALUE  := number (with $ or a unit: 80gb, 1tb, 400gbps) | 'quoted' | "quoted"
 *           | bare word | true | false | yes | no | null
 *
 * Field names come from the caller's lookup (the offer field registry for
 * `list`, the profile schema for `providers`); every value becomes a bound
 * parameter, so no user text reaches the SQL.  A bare yes/no field means
 * "field = true".  Unknown (NULL) values match no comparison, negated or
 * not; `field = null` asks for them.  Text compares case-insensitively.
 */
#ifndef GPUCMP_WHERE_H
#define GPUCMP_WHERE_H

#include <stddef.h>

#include "gpucmp/buf.h"
#include "gpucmp/err.h"
#include "gpucmp/field.h"

struct where_field {
	const char *sql;      /* expression over the queried table or view */
	enum field_type type;
};

/* Look a name up; fills *out and returns 0, or -1 if unknown. */
typedef int (*where_lookup_fn)(void *ctx, const char *name, struct where_field *out);
/* Closest known name for "did you mean", or NULL. */
typedef const char *(*where_suggest_fn)(void *ctx, const char *name);

struct where_bind {
	int is_text;
	char *text; /* owned */
	double num;
};

struct where_result {
	struct buf sql;             /* one parenthesized boolean expression */
	struct where_bind *binds;   /* in order of the ?s in sql */
	size_t nbinds;
	size_t err_pos, err_len;    /* on error: the offending token in the expression */
};

enum gc_status where_compile(const char *expr, where_lookup_fn lookup, where_suggest_fn suggest,
			     void *ctx, struct where_result *out, char **err);
void where_result_release(struct where_result *r);

#endif
