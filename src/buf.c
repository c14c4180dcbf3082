/* buf.c - growable byte buffer with a size cap. */
#include "gpucmp/buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmtlen.h"

void buf_init(struct buf *b, size_t limit)
{
	b->ptr = NULL;
	b->len = 0;
	b->cap = 0;
	b->limit = limit;
	b->failed = 0;
}

void buf_free(struct buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->ptr)
		b->ptr[0] = '\0';
}

static enum gc_status grow(struct buf *b, size_t extra)
{
	if (b->limit && (extra > b->limit || b->len > b->limit - extra))
		return GC_EDATA;
	if (extra > (size_t)-1 - b->len - 1)
		return GC_ENOMEM;
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return GC_OK;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > ((size_t)-1) / 2 ? need : cap * 2;
	char *p = realloc(b->ptr, cap);
	if (!p)
		return GC_ENOMEM;
	b->ptr = p;
	b->cap = cap;
	return GC_OK;
}

enum gc_status buf_add(struct buf *b, const void *data, size_t n)
{
	enum gc_status st = grow(b, n);
	if (st != GC_OK) {
		b->failed = 1;
		return st;
	}
	if (n)
		memcpy(b->ptr + b->len, data, n);
	b->len += n;
	b->ptr[b->len] = '\0';
	return GC_OK;
}

enum gc_status buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

enum gc_status buf_addc(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

enum gc_status buf_add_sql_text(struct buf *b, const char *text)
{
	enum gc_status st = buf_addc(b, '\'');
	for (const char *p = text; st == GC_OK && *p; p++)
		st = *p == '\'' ? buf_addstr(b, "''") : buf_addc(b, *p);
	return st == GC_OK ? buf_addc(b, '\'') : st;
}

enum gc_status buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = fmt_len(fmt, ap);
	enum gc_status st = n < 0 ? GC_EDATA : grow(b, (size_t)n);
	if (st == GC_OK) {
		vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
		b->len += (size_t)n;
	} else {
		b->failed = 1;
	}
	va_end(ap);
	return st;
}

char *buf_steal(struct buf *b)
{
	char *p = b->ptr;
	if (!p)
		p = calloc(1, 1);
	b->ptr = NULL;
	b->len = b->cap = 0;
	return p;
}

enum gc_status buf_grow_array(void *items, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return GC_OK;
	size_t want = *cap ? *cap * 2 : first;
	if (want < *cap || want > (size_t)-1 / size)
		return GC_ENOMEM;
	void *p;
	memcpy(&p, items, sizeof p); /* items is a T **, read as a void * */
	p = realloc(p, want * size);
	if (!p)
		return GC_ENOMEM;
	memcpy(items, &p, sizeof p);
	*cap = want;
	return GC_OK;
}
