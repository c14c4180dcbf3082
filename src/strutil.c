/* strutil.c - strict number parsing, "did you mean", sanitizing, dates. */
#include "gpucmp/strutil.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

char *str_concat(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s%s", a, b);
	return s;
}

int str_user_path(const char *own_var, const char *xdg_var, const char *home_dir,
		  const char *leaf, char **out)
{
	const char *env;
	char tail[128];
	*out = NULL;
	if ((env = getenv(own_var)) && *env)
		*out = strdup(env);
	else if ((env = getenv(xdg_var)) && *env == '/') {
		snprintf(tail, sizeof tail, "/gpucmp/%s", leaf);
		*out = str_concat(env, tail);
	} else if ((env = getenv("HOME")) && *env) {
		snprintf(tail, sizeof tail, "/%s/gpucmp/%s", home_dir, leaf);
		*out = str_concat(env, tail);
	} else
		return 0;
	return *out ? 0 : -1;
}

/* Plain decimals ("12", "-0.375") are most of what catalogs hold: read them
 * without strtod when the result is exact (at most 15 significant digits and
 * 22 decimals, so digits / 10^k is one correctly rounded division).  `s` to
 * `end` has already been checked to be [+-]digits[.digits] with no exponent.
 * Returns 0 and sets *out, or -1 to let strtod decide. */
static int fast_decimal(const char *s, const char *end, double *out)
{
	static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	int neg = *s == '-';
	s += *s == '-' || *s == '+';
	unsigned long long m = 0;
	int digits = 0, frac = 0, seen_dot = 0;
	for (; s < end; s++) {
		if (*s == '.') {
			seen_dot = 1;
			continue;
		}
		if (digits || *s != '0')
			digits++;
		if (digits > 15)
			return -1;
		m = m * 10 + (unsigned)(*s - '0');
		frac += seen_dot;
	}
	if (frac > 22)
		return -1;
	double v = (double)m / pow10[frac];
	*out = neg ? -v : v;
	return 0;
}

static size_t digits_at(const char *s)
{
	size_t n = 0;
	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

int str_decimal_prefix(const char *s, double *out, const char **endp)
{
	if (!s)
		return -1;
	const char *p = s + (*s == '+' || *s == '-');
	size_t whole = digits_at(p), frac = 0;
	p += whole;
	if (*p == '.') {
		frac = digits_at(p + 1);
		if (whole || frac)
			p += 1 + frac;
	}
	if (!whole && !frac)
		return -1;
	const char *mantissa_end = p;
	if (*p == 'e' || *p == 'E') {
		const char *e = p + 1 + (p[1] == '+' || p[1] == '-');
		size_t n = digits_at(e);
		if (n)
			p = e + n;
	}
	/* only the bytes checked above reach strtod: a copy, so that strtod
	 * cannot read on into what follows ("0x", "p8", "nan(...)") */
	double v;
	if (p == mantissa_end && fast_decimal(s, p, &v) == 0) {
		*out = v;
		*endp = p;
		return 0;
	}
	char tmp[64], *big = NULL, *num = tmp;
	size_t len = (size_t)(p - s);
	if (len >= sizeof tmp && !(num = big = malloc(len + 1)))
		return -1;
	memcpy(num, s, len);
	num[len] = '\0';
	errno = 0;
	v = strtod(num, NULL);
	int bad = errno == ERANGE || !isfinite(v);
	free(big);
	if (bad)
		return -1;
	*out = v;
	*endp = p;
	return 0;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int str_to_double(const char *s, double *out)
{
	const char *end;
	double v;
	if (!s || str_decimal_prefix(skip_blanks(s), &v, &end) != 0 || *skip_blanks(end))
		return -1;
	*out = v;
	return 0;
}

int str_to_quantity(const char *s, double *out, enum str_unit *unit)
{
	static const struct {
		const char *unit;
		double mult;
		enum str_unit kind;
	} units[] = {{"gbps", 1, SU_RATE},   {"gib", 1, SU_MEMORY}, {"tib", 1024, SU_MEMORY},
		     {"gb", 1, SU_MEMORY},     {"tb", 1000, SU_MEMORY}, {"g", 1, SU_MEMORY},
		     {"/h", 1, SU_MONEY},      {"/hr", 1, SU_MONEY},    {"usd", 1, SU_MONEY}};
	char buf[256];
	if (!s)
		return -1;
	int dollar = *s == '$';
	snprintf(buf, sizeof buf, "%s", s + dollar);
	size_t n = strlen(buf);
	double mult = 1;
	enum str_unit kind = dollar ? SU_MONEY : SU_NONE;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		size_t u = strlen(units[i].unit);
		if (n > u && strcasecmp(buf + n - u, units[i].unit) == 0) {
			buf[n - u] = '\0';
			mult = units[i].mult;
			kind = units[i].kind;
			break;
		}
	}
	double v;
	if (str_to_double(buf, &v) != 0 || (dollar && kind != SU_MONEY))
		return -1;
	*out = v * mult;
	if (unit)
		*unit = kind;
	return 0;
}

int str_to_long(const char *s, long *out)
{
	if (!s)
		return -1;
	s = skip_blanks(s);
	const char *d = s + (*s == '+' || *s == '-');
	if (*d < '0' || *d > '9')
		return -1; /* strtol would skip \n, \v, \f and read on */
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno == ERANGE || *skip_blanks(end))
		return -1;
	*out = v;
	return 0;
}

unsigned str_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	if (n > 64 || m > 64)
		return 1000;
	unsigned d[65][65];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			unsigned cost = ca != cb;
			unsigned v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

void suggest_init(struct suggest *s, const char *input)
{
	s->input = input;
	s->best = NULL;
	s->best_d = 1000;
}

void suggest_try(struct suggest *s, const char *candidate)
{
	if (!candidate || !*candidate)
		return;
	unsigned d = str_distance(s->input, candidate);
	size_t len = strlen(s->input);
	/* a unique-looking prefix ("lamb" -> "lambda") counts as close */
	if (len >= 3 && strncmp(candidate, s->input, len) == 0 && d > 1)
		d = 1;
	/* ties: a candidate that extends the input, then the shorter one */
	int ext = strncmp(candidate, s->input, len) == 0;
	int best_ext = s->best && strncmp(s->best, s->input, len) == 0;
	if (d < s->best_d ||
	    (d == s->best_d && s->best &&
	     (ext > best_ext || (ext == best_ext && strlen(candidate) < strlen(s->best))))) {
		s->best_d = d;
		s->best = candidate;
	}
}

const char *suggest_best(const struct suggest *s)
{
	size_t len = strlen(s->input);
	unsigned limit = len <= 4 ? 1 : (unsigned)(len / 3 + 1);
	return s->best && s->best_d > 0 && s->best_d <= limit ? s->best : NULL;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n;
	unsigned min;
	if ((p[0] & 0xE0) == 0xC0) {
		n = 2;
		min = 0x80;
	} else if ((p[0] & 0xF0) == 0xE0) {
		n = 3;
		min = 0x800;
	} else if ((p[0] & 0xF8) == 0xF0 && p[0] <= 0xF4) {
		n = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	unsigned cp = p[0] & (0x7F >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

char *str_sanitize(char *dst, size_t n, const char *s)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && o + 1 < n) {
		size_t l = utf8_len(p);
		if (l == 0 || (l == 1 && (*p < 0x20 || *p == 0x7F)) ||
		    (l == 2 && p[0] == 0xC2 && p[1] < 0xA0)) {
			dst[o++] = '?';
			p += l ? l : 1;
			continue;
		}
		if (o + l >= n)
			break;
		memcpy(dst + o, p, l);
		o += l;
		p += l;
	}
	if (n)
		dst[o] = '\0';
	return dst;
}

const char *str_field(char *dst, const char *s, int *changed)
{
	if (!s)
		return NULL;
	/* the usual case, a short clean string, is checked without copying */
	const unsigned char *p = (const unsigned char *)s;
	while (*p >= 0x20 && *p < 0x7F)
		p++;
	if (!*p && (size_t)(p - (const unsigned char *)s) <= STR_FIELD_MAX)
		return s;
	str_sanitize(dst, STR_FIELD_MAX + 1, s);
	if (strcmp(dst, s) == 0)
		return s;
	*changed = 1;
	return dst;
}

long str_date_days(const char *s)
{
	int y, m, d;
	for (int i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != '-')
				return -1;
		} else if (!isdigit((unsigned char)s[i])) {
			return -1;
		}
	}
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return -1;
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (m == 2 && d == 29 && !leap)
		return -1;
	/* days from civil (Howard Hinnant's algorithm) */
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

long long str_time_epoch(const char *s)
{
	long days = s ? str_date_days(s) : -1;
	if (days < 0 || s[10] != 'T')
		return -1;
	int v[3];
	for (int i = 0; i < 3; i++) {
		const char *p = s + 11 + i * 3;
		if (!isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) ||
		    p[2] != (i < 2 ? ':' : 'Z'))
			return -1;
		v[i] = (p[0] - '0') * 10 + (p[1] - '0');
	}
	if (v[0] > 23 || v[1] > 59 || v[2] > 60 || s[20] != '\0')
		return -1;
	return (long long)days * 86400 + v[0] * 3600 + v[1] * 60 + v[2];
}

void str_time_format(long long t, char *out, size_t n)
{
	long long days = t >= 0 ? t / 86400 : (t - 86399) / 86400;
	long long secs = t - days * 86400;
	/* civil from days (Howard Hinnant's algorithm) */
	long long z = days + 719468;
	long long era = (z >= 0 ? z : z - 146096) / 146097;
	long long doe = z - era * 146097;
	long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long y = yoe + era * 400;
	long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long long mp = (5 * doy + 2) / 153;
	long long d = doy - (153 * mp + 2) / 5 + 1;
	long long m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	snprintf(out, n, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", y, m, d, secs / 3600,
		 secs / 60 % 60, secs % 60);
}

long long str_duration(const char *s)
{
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || v < 0)
		return -1;
	long long mult = 1;
	if (*end == 's')
		end++;
	else if (*end == 'm')
		mult = 60, end++;
	else if (*end == 'h')
		mult = 3600, end++;
	else if (*end == 'd')
		mult = 86400, end++;
	if (*end || v > (long long)1e12 / mult)
		return -1;
	return v * mult;
}

void str_age(long long t, char *out, size_t n)
{
	if (t < 0)
		t = 0;
	if (t < 90)
		snprintf(out, n, "%lld s", t);
	else if (t < 90 * 60)
		snprintf(out, n, "%lld min", (t + 30) / 60);
	else if (t < 48 * 3600)
		snprintf(out, n, "%lld h", (t + 1800) / 3600);
	else
		snprintf(out, n, "%lld d", t / 86400);
}

long long str_http_date(const char *s)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char wday[4], mon[4], zone[4];
	int d, y, h, mi, sec, used = 0;
	if (!s || sscanf(s, "%3[A-Za-z], %2d %3[A-Za-z] %4d %2d:%2d:%2d %3[A-Z]%n", wday, &d, mon,
			 &y, &h, &mi, &sec, zone, &used) != 8 ||
	    s[used] != '\0' || strcmp(zone, "GMT") != 0 || strlen(wday) != 3)
		return -1;
	const char *m = strstr(months, mon);
	if (!m || strlen(mon) != 3 || (m - months) % 3 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 60 || h < 0 || mi < 0 || sec < 0)
		return -1;
	if (y < 1 || y > 9999)
		return -1;
	char ymd[32];
	snprintf(ymd, sizeof ymd, "%04d-%02d-%02d", y, (int)(m - months) / 3 + 1, d);
	long days = str_date_days(ymd);
	return days < 0 ? -1 : days * 86400LL + h * 3600LL + mi * 60LL + sec;
}

long long str_user_date(const char *s)
{
	if (!s)
		return -1;
	if (strlen(s) == 10) {
		long days = str_date_days(s);
		return days < 0 ? -1 : days * 86400LL;
	}
	return str_time_epoch(s);
}
