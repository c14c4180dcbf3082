/* msg.c - the one place that writes messages to stderr. */
#include <stdarg.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/strutil.h"

static int quiet;

void msg_set_quiet(int q)
{
	quiet = q;
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("gpucmp: ", stderr);
	if (kind)
		fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void msg_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void msg_note(const char *fmt, ...)
{
	if (quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vmsg(NULL, fmt, ap);
	va_end(ap);
}

void msg_verbose(const char *line)
{
	char buf[1024];
	size_t n = strlen(line) + 1;
	char *big = n > sizeof buf ? malloc(n) : NULL;
	char *out = big ? big : buf;
	str_sanitize(out, big ? n : sizeof buf, line);
	fflush(stdout);
	fprintf(stderr, "gpucmp: %s\n", out);
	free(big);
}

void msg_status(enum gc_status st, const char *err, const char *fallback)
{
	if (err)
		msg_error("%s", err);
	else if (st == GC_ENOMEM)
		msg_error("out of memory");
	else
		msg_error("%s", fallback);
}
