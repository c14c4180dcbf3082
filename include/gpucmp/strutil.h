/* strutil.h - small string helpers: parsing, "did you mean", sanitizing, dates. */
#ifndef GPUCMP_STRUTIL_H
#define GPUCMP_STRUTIL_H

#include <stddef.h>

/* Strict number parsing: the whole string (surrounding spaces allowed) must
 * be a finite number.  Return 0 on success, -1 otherwise. */
int str_to_double(const char *s, double *out);
int str_to_long(const char *s, long *out);

/* `a` followed by `b` in a new string; NULL when out of memory. */
char *str_concat(const char *a, const char *b);

/* Where a per-user file lives (XDG base directories): $<own_var> when set,
 * else $<xdg_var>/gpucmp/<leaf> (an absolute value only), else
 * $HOME/<home_dir>/gpucmp/<leaf>.  Sets *out to a new string, or to NULL
 * when none of them is set; returns -1 only when out of memory. */
int str_user_path(const char *own_var, const char *xdg_var, const char *home_dir,
		  const char *leaf, char **out);

/* Case-insensitive edit distance (insert, delete, substitute, transpose). */
unsigned str_distance(const char *a, const char *b);

/* "did you mean": feed candidates with suggest_try(), then suggest_best()
 * returns the closest one that is close enough (borrowed from the last
 * candidate pointer passed in), or NULL. */
struct suggest {
	const char *input;
	const char *best;
	unsigned best_d;
};
void suggest_init(struct suggest *s, const char *input);
void suggest_try(struct suggest *s, const char *candidate);
const char *suggest_best(const struct suggest *s);

/* Copy at most n-1 bytes of `s` so that the copy is valid UTF-8 and has no
 * control characters (each replaced by '?'); for echoing untrusted text in
 * messages.  Returns dst. */
char *str_sanitize(char *dst, size_t n, const char *s);

/* Days since 1970-01-01 for a "YYYY-MM-DD" prefix; -1 if malformed. */
long str_date_days(const char *s);

/* "YYYY-MM-DDTHH:MM:SSZ" (RFC 3339, UTC) to seconds since the epoch, or -1. */
long long str_time_epoch(const char *s);
/* Seconds since the epoch to "YYYY-MM-DDTHH:MM:SSZ" (out must hold 21 bytes). */
void str_time_format(long long t, char *out, size_t n);
/* A duration such as 30s, 15m, 6h, 2d (or plain seconds) to seconds; -1 if bad. */
long long str_duration(const char *s);
/* Age for people: "45 s", "12 min", "3 h", "5 d". */
void str_age(long long seconds, char *out, size_t n);

#endif
