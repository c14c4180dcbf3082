/* strutil.h - small string helpers: parsing, "did you mean", sanitizing, dates. */
#ifndef GPUCMP_STRUTIL_H
#define GPUCMP_STRUTIL_H

#include <stddef.h>

/* Strict numbers: every number gpucmp reads from outside (catalogs, API
 * strings, options, config) goes through these.  A number is a plain
 * decimal: an optional sign, digits with an optional fraction (".5" and
 * "5." too), an optional exponent (e or E, optional sign, digits), and
 * finite as a double.  No hex ("0x50", "0x1p8"), no inf or nan, no other
 * whitespace, nothing after it.
 *
 * str_decimal_prefix reads one at the very start of `s` (no blanks skipped)
 * and sets *end to the first byte after it; str_to_double wants the whole
 * string, blanks (space, tab) around allowed; str_to_long the same for
 * a whole number in range of a long.  Return 0 and set *out (and *end), or
 * -1 and leave them alone. */
int str_decimal_prefix(const char *s, double *out, const char **end);
int str_to_double(const char *s, double *out);
int str_to_long(const char *s, long *out);

/* What a quantity's unit says it measures. */
enum str_unit { SU_NONE, SU_MEMORY, SU_MONEY, SU_RATE };

/* A number as people write one with its unit: "$" before a price, or a
 * unit after, any case: gb, gib, g (1), tb (1000), tib (1024); gbps; /h,
 * /hr, usd ("80GB", "1.5tb", "$2.5", "2.5/h").  Returns 0 and sets *out
 * (in GB, Gbit/s or USD) and *unit (SU_NONE for a bare number; unit may
 * be NULL), or -1.  --where and the number options (--vram, --max-price)
 * read numbers with it. */
int str_to_quantity(const char *s, double *out, enum str_unit *unit);

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
 * control characters (C0, DEL, C1 U+0080-U+009F: each replaced by '?', as
 * is each byte of broken UTF-8), never cutting a character in half; for
 * echoing untrusted text in messages.  Returns dst. */
char *str_sanitize(char *dst, size_t n, const char *s);

/* The most bytes a stored text field (sku, region, GPU name...) keeps. */
#define STR_FIELD_MAX 511

/* The one text sanitizer for data on its way into the cache, whatever its
 * source: str_sanitize into dst (STR_FIELD_MAX + 1 bytes), which also cuts
 * it to STR_FIELD_MAX bytes.  Returns `s` itself (borrowed) when it is
 * already clean and short enough, else dst, and then sets *changed to 1.
 * NULL stays NULL.  offer_clean (offer.h) applies it to a whole offer. */
const char *str_field(char *dst, const char *s, int *changed);

/* Days since 1970-01-01 for a "YYYY-MM-DD" prefix; -1 if malformed. */
long str_date_days(const char *s);

/* "YYYY-MM-DDTHH:MM:SSZ" (RFC 3339, UTC) to seconds since the epoch, or -1. */
long long str_time_epoch(const char *s);
/* Seconds since the epoch to "YYYY-MM-DDTHH:MM:SSZ" (out must hold 21 bytes). */
void str_time_format(long long t, char *out, size_t n);
/* An HTTP date, IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT", RFC 9110),
 * to seconds since the epoch, or -1. */
long long str_http_date(const char *s);
/* A date a user gives: "YYYY-MM-DD" (midnight UTC) or
 * "YYYY-MM-DDTHH:MM:SSZ", to seconds since the epoch, or -1. */
long long str_user_date(const char *s);
/* A duration such as 30s, 15m, 6h, 2d (or plain seconds) to seconds; -1 if bad. */
long long str_duration(const char *s);
/* Age for people: "45 s", "12 min", "3 h", "5 d". */
void str_age(long long seconds, char *out, size_t n);

#endif
