/* csv.c - RFC 4180 CSV reader and field quoting. */
#include "gpucmp/csv.h"

#include <stdlib.h>
#include <string.h>

void csv_init(struct csv_reader *r, const char *data, size_t len)
{
	memset(r, 0, sizeof *r);
	r->p = data;
	r->end = data + len;
	if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		r->p += 3;
	r->next_line = 1;
	buf_init(&r->store, CSV_MAX_RECORD);
}

void csv_init_stream(struct csv_reader *r, csv_read_fn read, void *ctx)
{
	memset(r, 0, sizeof *r);
	r->p = r->end = "";
	r->read = read;
	r->read_ctx = ctx;
	r->next_line = 1;
	buf_init(&r->store, CSV_MAX_RECORD);
}

void csv_release(struct csv_reader *r)
{
	buf_free(&r->store);
	free(r->offsets);
	free(r->fields);
	free(r->chunk);
	r->offsets = NULL;
	r->fields = NULL;
	r->chunk = NULL;
}

/* A stream's next chunk into r->chunk: the first holds at least 3 bytes
 * unless the stream is shorter (so its byte-order mark is seen whole).
 * Returns the bytes read (0 at the end), -1 (the read failed, *err set by
 * it) or CSV_NOMEM. */
static long refill(struct csv_reader *r, char **err)
{
	if (!r->chunk && !(r->chunk = malloc(CSV_CHUNK))) {
		err_set(err, GC_ENOMEM, "out of memory reading CSV");
		return CSV_NOMEM;
	}
	size_t n = 0;
	do {
		long got = r->read(r->read_ctx, r->chunk + n, CSV_CHUNK - n, err);
		if (got < 0) {
			r->eof = 1;
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got < CSV_CHUNK - n ? (size_t)got : CSV_CHUNK - n;
	} while (!r->started && n < 3);
	r->eof = n == 0;
	return (long)n;
}

/* 1 when a byte is at r->p (a stream's next chunk read when the last is
 * used up), 0 at the end of the input, -1 or CSV_NOMEM with *err set. */
static int have(struct csv_reader *r, char **err)
{
	while (r->p >= r->end) {
		if (!r->read || r->eof)
			return 0;
		long n = refill(r, err);
		if (n <= 0)
			return (int)n;
		r->p = r->chunk;
		r->end = r->chunk + n;
		if (!r->started && n >= 3 && memcmp(r->p, "\xEF\xBB\xBF", 3) == 0)
			r->p += 3;
		r->started = 1;
	}
	return 1;
}

static int start_field(struct csv_reader *r)
{
	if (r->nfields == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		size_t *o = realloc(r->offsets, cap * sizeof *o);
		if (!o)
			return -1;
		r->offsets = o;
		r->cap = cap;
	}
	r->offsets[r->nfields++] = r->store.len;
	return 0;
}

static int finish_record(struct csv_reader *r)
{
	if (r->nfields > r->fields_cap) {
		char **f = realloc(r->fields, r->nfields * sizeof *f);
		if (!f)
			return -1;
		r->fields = f;
		r->fields_cap = r->nfields;
	}
	for (size_t i = 0; i < r->nfields; i++)
		r->fields[i] = r->store.ptr + r->offsets[i];
	return 0;
}

/* Consume the line ending at r->p, if one is there: 1 when one was eaten,
 * 0 when not, -1 or CSV_NOMEM when reading on failed. */
static int eat_eol(struct csv_reader *r, char **err)
{
	if (*r->p == '\r') {
		r->p++;
		int h = have(r, err);
		if (h < 0)
			return h;
		if (h && *r->p == '\n')
			r->p++;
		r->next_line++;
		return 1;
	}
	if (*r->p == '\n') {
		r->p++;
		r->next_line++;
		return 1;
	}
	return 0;
}

/* A NUL would end the field early as a C string and drop what follows
 * unseen: the file is not the text it claims to be. */
static int nul_byte(const struct csv_reader *r, char **err)
{
	err_set(err, GC_EDATA, "line %zu: NUL byte in the data (not a text file?)",
		r->next_line);
	return -1;
}

/* Appending to the record failed: out of memory, or the record is over
 * CSV_MAX_RECORD.  Returns -1 (bad data, *err set) or CSV_NOMEM. */
static int add_failed(const struct csv_reader *r, enum gc_status st, char **err)
{
	if (st != GC_EDATA) {
		err_set(err, GC_ENOMEM, "out of memory reading CSV");
		return CSV_NOMEM;
	}
	err_set(err, GC_EDATA, "line %zu: record longer than %d bytes", r->line, CSV_MAX_RECORD);
	return -1;
}

/* Returns 0, -1 (unterminated, a NUL or too long, *err set) or CSV_NOMEM. */
static int read_quoted(struct csv_reader *r, char **err)
{
	size_t open_line = r->next_line;
	r->p++; /* opening quote */
	for (;;) {
		int h = have(r, err);
		if (h < 0)
			return h;
		if (!h) {
			err_set(err, GC_EDATA, "line %zu: unterminated quoted field",
				open_line);
			return -1;
		}
		char c = *r->p++;
		if (c == '"') {
			if ((h = have(r, err)) < 0)
				return h;
			if (!h || *r->p != '"')
				return 0;
			r->p++;
		} else if (c == '\n') {
			r->next_line++;
		} else if (c == '\0') {
			return nul_byte(r, err);
		}
		enum gc_status st = buf_addc(&r->store, c);
		if (st != GC_OK)
			return add_failed(r, st, err);
	}
}

/* The unquoted bytes of a field (or stray bytes after a closing quote),
 * copied a run at a time, up to a comma, a line end or the end of the
 * input.  Returns 0, -1 (a NUL, too long, a failed read) or CSV_NOMEM. */
static int read_run(struct csv_reader *r, char **err)
{
	for (;;) {
		int h = have(r, err);
		if (h <= 0)
			return h;
		const char *run = r->p;
		while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r' &&
		       *r->p != '\0')
			r->p++;
		if (r->p < r->end && *r->p == '\0')
			return nul_byte(r, err);
		enum gc_status st = GC_OK;
		if (r->p > run && (st = buf_add(&r->store, run, (size_t)(r->p - run))) != GC_OK)
			return add_failed(r, st, err);
		if (r->p < r->end)
			return 0;
	}
}

int csv_next(struct csv_reader *r, char **err)
{
	buf_reset(&r->store);
	r->nfields = 0;
	int h = have(r, err);
	if (h <= 0)
		return h;
	r->line = r->next_line;
	for (;;) {
		if (start_field(r) != 0)
			goto nomem;
		if ((h = have(r, err)) > 0 && *r->p == '"')
			h = read_quoted(r, err);
		if (h < 0 || (h = read_run(r, err)) < 0)
			return h;
		enum gc_status st = buf_addc(&r->store, '\0');
		if (st != GC_OK)
			return add_failed(r, st, err);
		if ((h = have(r, err)) < 0)
			return h;
		if (h && *r->p == ',') {
			r->p++;
			continue;
		}
		if (h && (h = eat_eol(r, err)) < 0)
			return h;
		break;
	}
	if (finish_record(r) != 0)
		goto nomem;
	return 1;
nomem:
	err_set(err, GC_ENOMEM, "out of memory reading CSV");
	return CSV_NOMEM;
}

int csv_column(const struct csv_reader *r, const char *name)
{
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i], name) == 0)
			return (int)i;
	return -1;
}

const char *csv_columns(const struct csv_reader *r, const struct csv_col *cols, size_t n)
{
	const char *missing = NULL;
	for (size_t i = 0; i < n; i++) {
		*cols[i].index = csv_column(r, cols[i].name);
		if (*cols[i].index < 0 && cols[i].required && !missing)
			missing = cols[i].name;
	}
	return missing;
}

enum gc_status csv_quote(struct buf *out, const char *s)
{
	size_t n = strlen(s);
	int need = n && (s[0] == ' ' || s[n - 1] == ' ');
	for (const char *p = s; *p && !need; p++)
		need = *p == ',' || *p == '"' || *p == '\n' || *p == '\r';
	if (!need)
		return buf_add(out, s, n);
	enum gc_status st = buf_addc(out, '"');
	for (const char *p = s; *p && st == GC_OK; p++) {
		if (*p == '"')
			st = buf_addc(out, '"');
		if (st == GC_OK)
			st = buf_addc(out, *p);
	}
	return st == GC_OK ? buf_addc(out, '"') : st;
}
