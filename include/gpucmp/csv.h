/* csv.h - RFC 4180 CSV reading over a memory buffer or a stream, and field
 * quoting.
 *
 * Handles quoted fields with doubled quotes and embedded commas or line
 * breaks, LF and CRLF line endings and a UTF-8 byte-order mark.  Fields are
 * returned as NUL-terminated strings owned by the reader and valid until the
 * next csv_next() or csv_release().
 *
 * Bytes are passed on as they are (control characters included: cleaning
 * text is the caller's job, str_field), except two things a text file of
 * records never holds, each an error of the file naming its line: a NUL
 * byte, and a record longer than CSV_MAX_RECORD bytes (fields plus one
 * byte each).  So memory per record is bounded, whatever the input.
 *
 * A stream (csv_init_stream) is read CSV_CHUNK bytes at a time through a
 * callback, so a reader of a file of any size holds one chunk and one
 * record: what it keeps of each record is its caller's to bound.  Records,
 * line numbers and errors are those of the same bytes read from memory.
 */
#ifndef GPUCMP_CSV_H
#define GPUCMP_CSV_H

#include <stddef.h>

#include "gpucmp/buf.h"
#include "gpucmp/err.h"

/* A stream's source: up to n bytes into buf.  Returns how many (0 at the
 * end of the stream), or -1 with *err set (the reader returns it as bad
 * data). */
typedef long (*csv_read_fn)(void *ctx, char *buf, size_t n, char **err);

struct csv_reader {
	const char *p, *end; /* the bytes not yet read (of the current chunk) */
	size_t line;        /* 1-based line number where the current record starts */
	size_t next_line;
	struct buf store;   /* field bytes, NUL-separated */
	size_t *offsets;    /* field start offsets into store */
	size_t nfields;
	size_t cap;
	char **fields;      /* pointers into store, rebuilt per record */
	size_t fields_cap;
	csv_read_fn read;   /* a stream's source, NULL for a memory buffer */
	void *read_ctx;
	char *chunk;        /* a stream's current chunk (CSV_CHUNK bytes, owned) */
	int eof;            /* the stream has ended (or failed) */
	int started;        /* its first chunk was read (byte-order mark skipped) */
};

/* Borrow `len` bytes of `data`; they must outlive the reader. */
void csv_init(struct csv_reader *r, const char *data, size_t len);
/* Read from `read` (called with ctx), which must outlive the reader. */
void csv_init_stream(struct csv_reader *r, csv_read_fn read, void *ctx);
void csv_release(struct csv_reader *r);

/* The bytes a stream is read in at a time. */
enum { CSV_CHUNK = 64 * 1024 };

/* The most bytes of one record (its fields, plus one byte per field). */
enum { CSV_MAX_RECORD = 64 * 1024 };

/* Read the next record.  Returns 1 and sets r->fields / r->nfields, 0 at the
 * end of input, or with *err set -1 (bad data: an unterminated quote, a NUL
 * byte, a record over CSV_MAX_RECORD, "line N: ..."; or the stream's read
 * failed, its message) or CSV_NOMEM. */
enum { CSV_NOMEM = -2 };
int csv_next(struct csv_reader *r, char **err);

/* Index of column `name` in a header record, or -1. */
int csv_column(const struct csv_reader *r, const char *name);

/* A column a reader looks for: its name, where its index goes (-1 when the
 * header lacks it) and whether the file is not one of its kind without it. */
struct csv_col {
	const char *name;
	int *index;
	int required;
};
/* Find each of cols[0..n) in a header record; the name of the first
 * required one missing, or NULL. */
const char *csv_columns(const struct csv_reader *r, const struct csv_col *cols, size_t n);

/* Append `s` to `out` as one CSV field, quoted when it holds a comma, quote,
 * CR or LF (or leading/trailing space). */
enum gc_status csv_quote(struct buf *out, const char *s);

#endif
