/* profile.h - provider capability profiles (providers/<id>.yaml).
 *
 * The schema is one table (profile_fields) that drives loading, validation,
 * the `show` sheet, `compare` and the JSON output, so a field is added in
 * one place.  Rules and meanings: docs/PROFILES.md.
 */
#ifndef GPUCMP_PROFILE_H
#define GPUCMP_PROFILE_H

#include <stddef.h>

#include "gpucmp/err.h"

enum pfield_kind {
	PF_ENUM,   /* one of `choices` or "unknown" */
	PF_BOOL,   /* yes | no | unknown; JSON true/false/null */
	PF_TEXT,   /* free text or "unknown" */
	PF_NUMBER, /* number or "unknown" */
	PF_LIST    /* list of names, or "unknown" */
};

struct pfield_def {
	const char *group; /* "kubernetes"; "" for top-level capability fields */
	const char *key;   /* "mode" */
	enum pfield_kind kind;
	const char *const *choices; /* PF_ENUM only, NULL-terminated */
	const char *label;          /* "Kubernetes mode" for people */
};

extern const struct pfield_def profile_fields[];
extern const size_t profile_field_count;

/* Index of "group.key" (or "key" for top-level fields) in profile_fields;
 * -1 if absent. */
int profile_field_index(const char *path);

struct pvalue {
	int known;      /* 0 = unknown */
	char *text;     /* PF_ENUM/PF_BOOL/PF_TEXT: the value ("yes", "managed") */
	double number;  /* PF_NUMBER */
	char **list;    /* PF_LIST */
	size_t nlist;
	char *source;   /* field or group source URL, NULL if none */
	char *note;     /* NULL if none */
	size_t line;
};

struct profile {
	char *id, *name, *site, *kind, *verified, *note, *file;
	char **sources;
	size_t nsources;
	char **regions;
	size_t nregions;
	struct pvalue *values; /* profile_field_count entries */
};

/* Parse and validate one profile.  `file` ("providers/lambda.yaml") names it
 * in messages and must match the id.  On success *out is new; free with
 * profile_free().  `today_days` (days since epoch, or -1) rejects a verified
 * date in the future. */
enum gc_status profile_load(struct profile **out, const char *file, const char *data,
			    size_t len, long today_days, char **err);
void profile_free(struct profile *p);

/* Value of field `idx` (borrowed). */
const struct pvalue *profile_value(const struct profile *p, int idx);
/* Value text by path, "unknown" when not known; for PF_NUMBER/PF_LIST the
 * caller should use profile_value().  Borrowed. */
const char *profile_text(const struct profile *p, const char *path);

/* A set of profiles with unique ids, sorted by id. */
struct profile_set {
	struct profile **items;
	size_t n;
};

/* Load every embedded providers/<id>.yaml. */
enum gc_status profile_set_load_embedded(struct profile_set *set, long today_days,
					 char **err);
/* Add one loaded profile (the set takes ownership); rejects a duplicate id. */
enum gc_status profile_set_add(struct profile_set *set, struct profile *p, char **err);
void profile_set_sort(struct profile_set *set);
void profile_set_release(struct profile_set *set);
const struct profile *profile_set_find(const struct profile_set *set, const char *id);
/* Closest id for "did you mean", or NULL. */
const char *profile_set_suggest(const struct profile_set *set, const char *id);

#endif
