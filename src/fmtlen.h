/* fmtlen.h - private to src/: the length printf-style formatting will
 * have, for buf_printf and err_set, which measure first and then write
 * into memory of that size.  Depends on nothing of gpucmp.
 */
#ifndef GPUCMP_FMTLEN_H
#define GPUCMP_FMTLEN_H

#include <stdarg.h>
#include <stdio.h>

/* Characters `fmt` with `ap` produces (without the NUL), or -1 when it
 * cannot be formatted; `ap` is left unread for the caller. */
static inline int fmt_len(const char *fmt, va_list ap)
{
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	return n;
}

#endif
