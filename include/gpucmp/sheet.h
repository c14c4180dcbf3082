/* sheet.h - what `show` and `compare` answer: a provider's capability
 * sheet and providers side by side, as rows for people and as the JSON
 * documents of docs/show.schema.json and docs/compare.schema.json.
 *
 * Rows follow the capability groups (sheet_groups) in order; the CLI only
 * lays them out.  Text, labels and sources are borrowed from the profiles,
 * which must outlive the sheet.
 */
#ifndef GPUCMP_SHEET_H
#define GPUCMP_SHEET_H

#include <stddef.h>

#include "gpucmp/err.h"
#include "gpucmp/profile.h"

/* A profile verified longer ago than this is flagged STALE. */
#define SHEET_STALE_DAYS 180

struct json_t;

/* A capability group in the order show and compare print them. */
struct sheet_group {
	const char *group, *title; /* "sharing", "GPU sharing" */
};
extern const struct sheet_group sheet_groups[];
extern const size_t sheet_ngroups;
/* The show --json groups are the first four; billing and spot are top-level keys,
 * then the costs group (after billing, the group added last). */
enum { SHEET_JSON_GROUPS = 4 };

/* The fields of `group` (profile_fields indexes; billing also lists spot)
 * into idx[0..max); returns their count. */
size_t sheet_group_fields(const char *group, int *idx, size_t max);

/* "group.key" (or "key" for a top-level field) of profile_fields[i] into
 * path (n bytes): the field's name in JSON documents. */
void sheet_field_path(int i, char *path, size_t n);

/* Display text of a profile value ("yes", "managed", "0.10", "kueue, volcano",
 * "none" for an empty list, "?" when unknown) written into buf (n bytes),
 * which it returns. */
const char *sheet_value_text(const struct pfield_def *f, const struct pvalue *v, char *buf,
			     size_t n);
/* JSON of a profile value: booleans true/false, enums as strings ("unknown"
 * kept), numbers, lists; null for an unknown bool, number, text or list.
 * A new reference, or NULL when out of memory. */
struct json_t *sheet_value_json(const struct pfield_def *f, const struct pvalue *v);
/* A JSON number (an integer when whole), null for NAN.  A new reference,
 * or NULL when out of memory. */
struct json_t *sheet_json_number(double v);

/* Days from `date` (YYYY-MM-DD) to `today` (days since the epoch); -1 if
 * the date is malformed. */
long sheet_days_ago(const char *date, long today);

/* --- show: one provider --- */

enum { SHEET_TEXT = 256 };

/* One row of a sheet: a group title (field -1: only `title`) or a field. */
struct sheet_row {
	int field;             /* profile_fields index, -1 for a group title */
	const char *title;     /* the group's title (title rows), else the field's label */
	char text[SHEET_TEXT]; /* the value, "unknown" when not known */
	size_t source;         /* footnote number in sheet.sources (1-based), 0: none */
	const char *note;      /* borrowed, NULL if none */
};

struct sheet {
	const struct profile *p; /* borrowed */
	long days_ago;           /* since the profile was verified; -1: bad date */
	int stale;               /* days_ago > SHEET_STALE_DAYS */
	struct sheet_row *rows;  /* owned */
	size_t nrows;
	/* footnotes: the rows' sources in order of first use, then the
	 * profile's other sources (borrowed strings, owned array) */
	const char **sources;
	size_t nsources;
};

/* The sheet of `p` as of `today` into *s; GC_ENOMEM (with *err) when out
 * of memory.  Release with sheet_release(), also after an error. */
enum gc_status sheet_build(struct sheet *s, const struct profile *p, long today, char **err);
void sheet_release(struct sheet *s);
/* The show --json document (docs/show.schema.json) of `s`: a new reference,
 * or NULL when out of memory (no field is ever dropped). */
struct json_t *sheet_json(const struct sheet *s);

/* --- compare: providers side by side --- */

enum { SHEET_COMPARE_MAX = 12, SHEET_CELL = 64 };

/* One provider's column. */
struct sheet_column {
	const struct profile *p; /* borrowed */
	long days_ago;
	int stale;
};

/* One row: a group title (field -1) or a field with a cell per provider. */
struct sheet_crow {
	int field;         /* profile_fields index, -1 for a group title */
	const char *group; /* the group key ("sharing") */
	const char *title; /* the group's title (title rows), else the field's label */
	int differs;       /* the providers' texts differ */
	char text[SHEET_COMPARE_MAX][SHEET_CELL]; /* "?" when unknown */
};

struct sheet_compare {
	struct sheet_column cols[SHEET_COMPARE_MAX];
	size_t ncols;
	struct sheet_crow *rows; /* owned */
	size_t nrows;
	size_t ndiff;  /* fields that differ, all of them, with only_diff too */
	size_t nstale; /* stale providers */
};

/* Compare ps[0..n) (2 <= n <= SHEET_COMPARE_MAX, borrowed) as of `today`
 * into *c.  With `only_diff`, only the fields that differ, and no title
 * for a group without one.  GC_EUSAGE for a bad n, GC_ENOMEM; *err says
 * which.  Release with sheet_compare_release(), also after an error. */
enum gc_status sheet_compare_build(struct sheet_compare *c, const struct profile *const *ps,
				   size_t n, long today, int only_diff, char **err);
void sheet_compare_release(struct sheet_compare *c);
/* The compare --json document (docs/compare.schema.json): a new reference,
 * or NULL when out of memory. */
struct json_t *sheet_compare_json(const struct sheet_compare *c);

#endif
