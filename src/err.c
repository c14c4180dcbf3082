/* err.c - one-line error messages for library callers. */
#include "gpucmp/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmtlen.h"

static char *vformat(const char *fmt, va_list ap)
{
	int n = fmt_len(fmt, ap);
	char *s = n < 0 ? NULL : malloc((size_t)n + 1);
	if (s)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

enum gc_status err_set(char **err, enum gc_status status, const char *fmt, ...)
{
	if (!err)
		return status;
	va_list ap;
	va_start(ap, fmt);
	char *msg = vformat(fmt, ap);
	va_end(ap);
	free(*err);
	*err = msg; /* NULL on allocation failure: callers print a fallback */
	return status;
}

void err_prefix(char **err, const char *fmt, ...)
{
	if (!err || !*err)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *pre = vformat(fmt, ap);
	va_end(ap);
	if (!pre)
		return;
	size_t a = strlen(pre), b = strlen(*err);
	char *s = malloc(a + 2 + b + 1);
	if (s) {
		memcpy(s, pre, a);
		memcpy(s + a, ": ", 2);
		memcpy(s + a + 2, *err, b + 1);
		free(*err);
		*err = s;
	}
	free(pre);
}
