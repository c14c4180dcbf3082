/* buf.h - growable byte buffer with an optional size cap (after curl's dynbuf).
 *
 * The buffer owns its memory; `ptr` is always NUL-terminated once anything
 * has been added.  A cap of 0 means unlimited.  Appends past the cap fail
 * with GC_EDATA and leave the buffer unchanged, so a hostile or runaway
 * response cannot grow memory without bound.
 */
#ifndef GPUCMP_BUF_H
#define GPUCMP_BUF_H

#include <stddef.h>

#include "gpucmp/err.h"

struct buf {
	char *ptr;
	size_t len;
	size_t cap;   /* allocated bytes */
	size_t limit; /* maximum len, 0 = none */
	int failed;   /* an append failed since buf_init (sticky): a caller that
			 builds a whole text checks once at the end */
};

void buf_init(struct buf *b, size_t limit);
void buf_free(struct buf *b);
void buf_reset(struct buf *b); /* len = 0, keeps memory */

/* Append n bytes; GC_ENOMEM or GC_EDATA (cap reached). */
enum gc_status buf_add(struct buf *b, const void *data, size_t n);
enum gc_status buf_addstr(struct buf *b, const char *s);
enum gc_status buf_addc(struct buf *b, char c);
/* `text` as an SQL string literal: quoted, its quotes doubled. */
enum gc_status buf_add_sql_text(struct buf *b, const char *text);
enum gc_status buf_printf(struct buf *b, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Room for one more element in a growable array: `items` is the address
 * of the array's pointer (T **), *cap its allocated elements of `size`
 * bytes, `n` of them in use.  When n == *cap the array doubles (to `first`
 * elements from none).  GC_OK, or GC_ENOMEM with the array unchanged. */
enum gc_status buf_grow_array(void *items, size_t *cap, size_t n, size_t size, size_t first);

/* Hand the contents to the caller (a new NUL-terminated string, never
 * NULL unless allocation fails) and reset the buffer to empty. */
char *buf_steal(struct buf *b);

#endif
