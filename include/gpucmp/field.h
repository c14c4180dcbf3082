/* field.h - the one registry of offer fields.
 *
 * Every key of an offer in JSON output is a field here, and the same names
 * drive --columns, --sort (and, later, --where).  Each field names the
 * expression that computes it from the view offer_v (src/cache_schema.c).
 * docs/OUTPUT.md lists them; a test checks the two agree.
 */
#ifndef GPUCMP_FIELD_H
#define GPUCMP_FIELD_H

#include <stddef.h>

enum field_type {
	FT_TEXT,  /* string or null */
	FT_NUM,   /* number or null */
	FT_PRICE, /* number or null; shown as money in tables */
	FT_BOOL,  /* true, false or null */
	FT_ENUM,  /* string from a fixed set ("unknown" allowed) */
	FT_YESNO, /* "yes", "no" or "unknown" as a profile writes it: true, false
		   * or null in JSON, the word in tables and CSV (providers) */
	FT_LIST   /* strings joined by FIELD_LIST_SEP: an array in JSON, "a, b"
		   * in tables and CSV */
};

/* What joins the items of an FT_LIST value (SQL char(31)). */
#define FIELD_LIST_SEP '\x1f'


struct field {
	const char *key;    /* JSON key, --columns / --sort name */
	const char *header; /* table header */
	enum field_type type;
	const char *sql;    /* expression over offer_v */
	int table_rank;     /* default table column: 1 (keep longest) .. 9; 0 = not shown */
	const char *help;   /* NULL for an enum: its values say it (field_help) */
	/* FT_ENUM: the values it holds, NULL-terminated ("unknown" last where a
	 * row can be unknown); --where refuses another.  NULL otherwise. */
	const char *const *values;
};

extern const struct field offer_fields[];
extern const size_t offer_field_count;

/* The members a group adds to its cheapest offer (list --group-by): the
 * group's size, regions and price range.  Their SQL names the columns of
 * the grouped query (query_build); they are not offer fields, so --where
 * never sees them. */
extern const struct field group_fields[];
extern const size_t group_field_count;
const struct field *group_field_find(const char *key);
/* Is f one of group_fields (NULL: no)? */
int field_is_group(const struct field *f);

/* What a word in a table means: `value` of the fields (keys separated by
 * spaces; NULL: a mark of any column, "?" or "-"), in a few words for the
 * legend under a table and at length for `gpucmp help values`. */
struct field_value {
	const char *fields, *value, *brief, *meaning;
};
extern const struct field_value field_values[];
extern const size_t field_value_count;
/* The meaning of `value` in field `key` (NULL: a mark); NULL if none is
 * written. */
const struct field_value *field_value_find(const char *key, const char *value);

/* Field by key or alias ("price" -> price_hr); NULL if unknown. */
const struct field *field_find(const char *key);

/* Closest key for "did you mean"; NULL if none is close. */
const char *field_suggest(const char *key);

/* What f means, for `gpucmp help fields`: its help, or for an enum its
 * values ("managed | join | both | none | unknown"), written to buf;
 * returns buf. */
const char *field_help(const struct field *f, char *buf, size_t n);

#endif
