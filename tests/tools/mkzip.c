/* mkzip.c - gpucmp-mkzip OUT.zip NAME FILE [BYTES]: a zip holding FILE as NAME.
 *
 * Builds gpuhunt-style catalog.zip fixtures at test time (libzip, the
 * library the reader uses), so no zip is committed.  With BYTES, NAME is
 * FILE's first line (a CSV header) and then its other lines over and over,
 * whole, until at least BYTES bytes: a small zip that inflates to a large
 * file (tests/net/run.sh catalog_gpuhunt_flood), made without writing that
 * file anywhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

struct repeat {
	const char *text;   /* FILE's bytes */
	size_t head, len;   /* its first line's length (with its newline), all of it */
	zip_uint64_t total, pos;
};

static zip_int64_t repeat_cb(void *ud, void *data, zip_uint64_t n, zip_source_cmd_t cmd)
{
	struct repeat *r = ud;
	switch (cmd) {
	case ZIP_SOURCE_OPEN:
		r->pos = 0;
		return 0;
	case ZIP_SOURCE_READ: {
		char *out = data;
		zip_uint64_t k = 0, body = r->len - r->head;
		while (k < n && r->pos < r->total) {
			zip_uint64_t at = r->pos < r->head ? r->pos
							   : r->head + (r->pos - r->head) % body;
			zip_uint64_t m = r->len - at;
			m = m < n - k ? m : n - k;
			m = m < r->total - r->pos ? m : r->total - r->pos;
			memcpy(out + k, r->text + at, m);
			k += m;
			r->pos += m;
		}
		return (zip_int64_t)k;
	}
	case ZIP_SOURCE_STAT: {
		zip_stat_t *st = data;
		zip_stat_init(st);
		st->size = r->total;
		st->valid |= ZIP_STAT_SIZE;
		return sizeof *st;
	}
	case ZIP_SOURCE_ERROR:
		memset(data, 0, 2 * sizeof(int));
		return 2 * sizeof(int);
	case ZIP_SOURCE_SUPPORTS:
		return ZIP_SOURCE_SUPPORTS_READABLE;
	case ZIP_SOURCE_CLOSE:
	case ZIP_SOURCE_FREE:
		return 0;
	default:
		return -1;
	}
}

/* FILE's bytes (new, NUL-terminated), or NULL. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	size_t cap = 0, n = 0, got;
	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			char *nb = realloc(b, cap = cap * 2 + 8192);
			if (!nb) {
				free(b);
				fclose(f);
				return NULL;
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0);
	fclose(f);
	b[n] = '\0';
	*len = n;
	return b;
}

/* The repeating source of FILE up to `bytes`, or NULL with a message. */
static zip_source_t *repeat_source(zip_t *z, const char *path, const char *bytes,
				   struct repeat *r)
{
	char *end;
	unsigned long long want = strtoull(bytes, &end, 10);
	const char *nl;
	if (*end || !(r->text = slurp(path, &r->len)) || !(nl = strchr(r->text, '\n')) ||
	    (r->head = (size_t)(nl - r->text) + 1) >= r->len) {
		fprintf(stderr, "gpucmp-mkzip: %s: need BYTES and a file of a header and rows\n",
			path);
		return NULL;
	}
	zip_uint64_t body = r->len - r->head;
	r->total = r->head + (want > r->head ? (want - r->head + body - 1) / body * body : body);
	return zip_source_function(z, repeat_cb, r);
}

int main(int argc, char **argv)
{
	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: gpucmp-mkzip OUT.zip NAME FILE [BYTES]\n");
		return 2;
	}
	int ze = 0;
	zip_t *z = zip_open(argv[1], ZIP_CREATE | ZIP_TRUNCATE, &ze);
	if (!z) {
		fprintf(stderr, "gpucmp-mkzip: cannot create %s\n", argv[1]);
		return 1;
	}
	struct repeat r = {NULL, 0, 0, 0, 0};
	zip_source_t *src = argc == 5 ? repeat_source(z, argv[3], argv[4], &r)
				      : zip_source_file(z, argv[3], 0, -1);
	if (!src || zip_file_add(z, argv[2], src, ZIP_FL_OVERWRITE) < 0) {
		fprintf(stderr, "gpucmp-mkzip: cannot add %s: %s\n", argv[3], zip_strerror(z));
		zip_source_free(src);
		zip_discard(z);
		free((char *)r.text);
		return 1;
	}
	if (zip_close(z) != 0) {
		fprintf(stderr, "gpucmp-mkzip: cannot write %s: %s\n", argv[1], zip_strerror(z));
		zip_discard(z);
		free((char *)r.text);
		return 1;
	}
	free((char *)r.text);
	return 0;
}
