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
 * not; `field = null` asks for them.  An enum's "unknown" is such a null
 * (`mig != no` leaves it out; `mig = unknown` asks for it).  Text compares
 * case-insensitively.  A field with a domain (where_field.values) refuses
 * any other value after =, != and in, with "did you mean"; a value may
 * stand for several (where_field.means: k8s = managed is managed or both).
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
	/* The values it holds, NULL-terminated (compared without case), or NULL
	 * for any value.  For FT_ENUM the word unknown is always allowed. */
	const char *const *values;
	/* Where a list too long for a message is found ("'gpucmp providers'
	 * lists them"); NULL: 'gpucmp help fields'. */
	const char *values_hint;
	/* The stored values `value` (one of values) stands for, NULL-terminated
	 * and borrowed, or NULL for itself alone; called with `key`.  NULL: every
	 * value stands for itself. */
	const char *const *(*means)(const char *key, const char *value);
	const char *key;
	/* After =, != and in, before the values are checked: the stored values
	 * `value` names when it names others (a GPU family: h100 is h100-sxm,
	 * h100-pcie, h100-nvl; a country's name: germany is DE),
	 * NULL-terminated and valid until the next call, or NULL for itself (then
	 * checked against values); called with expand_ctx. */
	const char *const *(*expand)(void *ctx, const char *value);
	void *expand_ctx;
	/* What a value outside values may have meant ("DE (Germany)" for GER),
	 * written to buf: 1, or 0 for none (then the nearest of values is
	 * named); called with expand_ctx. */
	int (*meant)(void *ctx, const char *value, char *buf, size_t size);
};

/* Look a name up; fills *out (zeroed before the call) and returns 0, or -1
 * if unknown. */
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
