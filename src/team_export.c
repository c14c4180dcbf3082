/* team_export.c - a cache's team snapshot into a folder (team.h,
 * docs/TEAM.md): the payload deflated as it is written, hashed as it is
 * deflated; then the signature and the manifest. */
#include "gpucmp/team.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "gpucmp/fileio.h"
#include "gpucmp/strutil.h"

#ifndef S_ISVTX
#define S_ISVTX 01000 /* the sticky bit (XSI; _POSIX_C_SOURCE leaves it out) */
#endif

/* A failed write's message: a full disk said in words, with what to do. */
static enum gc_status write_failed(char **err, const char *dir, const char *name, int e)
{
	if (e == ENOSPC || e == EDQUOT)
		return err_set(err, GC_EIO, "cannot write %s/%s: no space left on device%s; free "
			       "some space or export to another folder", dir, name,
			       e == EDQUOT ? " (disk quota)" : "");
	if (e == EFBIG)
		return err_set(err, GC_EIO, "cannot write %s/%s: file too large (the file-size "
			       "limit, ulimit -f, is reached)", dir, name);
	return err_set(err, GC_EIO, "cannot write %s/%s: %s", dir, name,
		       e ? strerror(e) : "write error");
}

/* The payload on its way to its file: gzip with no time, name or OS, so
 * that the same lines give the same bytes. */
struct gz {
	z_stream z;
	gz_header h; /* zlib reads it at the first deflate: it lives as long */
	FILE *f;
	struct team_hash *md;
	size_t bytes;
	int failed;
	int errnum; /* errno of the first failed write, or 0 */
	unsigned char out[65536];
};

static enum gc_status gz_open(struct gz *g, FILE *f, char **err)
{
	memset(g, 0, sizeof *g);
	g->f = f;
	g->h.os = 255; /* unknown: the same bytes on every system */
	enum gc_status st = team_hash_begin(&g->md, err);
	if (st != GC_OK)
		return st;
	if (deflateInit2(&g->z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK ||
	    deflateSetHeader(&g->z, &g->h) != Z_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

/* Deflate n bytes (flush: Z_NO_FLUSH or Z_FINISH) into the file. */
static void gz_write(struct gz *g, const void *data, size_t n, int flush)
{
	g->z.next_in = (Bytef *)(uintptr_t)data;
	g->z.avail_in = (uInt)n;
	int zr;
	do {
		g->z.next_out = g->out;
		g->z.avail_out = sizeof g->out;
		zr = deflate(&g->z, flush);
		size_t have = sizeof g->out - g->z.avail_out;
		errno = 0;
		int wrote = zr != Z_STREAM_ERROR && fwrite(g->out, 1, have, g->f) == have;
		if (!wrote && !g->errnum)
			g->errnum = errno;
		if (!wrote)
			g->failed = 1;
		team_hash_add(g->md, g->out, have);
		g->bytes += have;
	} while (!g->failed && (g->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END)));
}

static void gz_close(struct gz *g, char hex[65])
{
	if (team_hash_end(g->md, hex) != 0)
		g->failed = 1;
	g->md = NULL;
	deflateEnd(&g->z);
}

/* One provider's record, copied out of the cache. */
struct state {
	char *line;   /* its payload line, with the newline */
	json_t *entry; /* its manifest entry */
	char id[48];
};

struct run {
	struct gz gz;
	struct state *states;
	size_t nstates, cap, next; /* next: the first record not yet written */
	struct team_export_result *r;
	const char *dir; /* for messages */
	enum gc_status st;
};

static void put_line(struct run *x, json_t *j)
{
	char *text = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	if (!text) {
		x->st = GC_ENOMEM;
		return;
	}
	gz_write(&x->gz, text, strlen(text), Z_NO_FLUSH);
	gz_write(&x->gz, "\n", 1, Z_NO_FLUSH);
	free(text);
}

/* The records of providers up to `upto` (NULL: all) not yet written. */
static void put_states(struct run *x, const char *upto)
{
	for (; x->next < x->nstates; x->next++) {
		const struct state *s = &x->states[x->next];
		if (upto && strcmp(s->id, upto) > 0)
			break;
		gz_write(&x->gz, s->line, strlen(s->line), Z_NO_FLUSH);
	}
}

/* A record as a manifest entry (JSON), or as a payload line (`line`: with
 * its type first and its last error). */
static json_t *state_json(const struct cache_dump_state *d, int line)
{
	json_t *j = line ? json_pack("{s:s}", "type", "provider") : json_object();
	json_t *f = json_pack("{s:s, s:s?, s:s?, s:s?, s:I, s:b}", "provider", d->provider,
			      "source", d->meta.source, "as_of", d->as_of, "fetched_at",
			      d->meta.fetched_at, "offers", (json_int_t)d->offers, "stale",
			      d->meta.stale);
	int ok = j && f && json_object_update(j, f) == 0;
	if (ok && line && d->meta.last_error)
		ok = json_object_set_new(j, "last_error", json_string(d->meta.last_error)) == 0;
	json_decref(f);
	if (!ok) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static enum gc_status on_state(void *arg, const struct cache_dump_state *d, char **err)
{
	struct run *x = arg;
	if (buf_grow_array(&x->states, &x->cap, x->nstates, sizeof *x->states, 32) != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	struct state *s = &x->states[x->nstates];
	memset(s, 0, sizeof *s);
	snprintf(s->id, sizeof s->id, "%s", d->provider);
	json_t *line = state_json(d, 1);
	char *text = line ? json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(line);
	s->line = text ? str_concat(text, "\n") : NULL;
	free(text);
	s->entry = state_json(d, 0);
	x->nstates++;
	if (!s->line || !s->entry)
		return err_set(err, GC_ENOMEM, "out of memory");
	if (d->meta.fetched_at && strcmp(d->meta.fetched_at, x->r->created_at) > 0)
		snprintf(x->r->created_at, sizeof x->r->created_at, "%s", d->meta.fetched_at);
	x->r->providers++;
	return GC_OK;
}

static enum gc_status on_offer(void *arg, const struct offer *o, int stale, char **err)
{
	struct run *x = arg;
	put_states(x, o->provider);
	/* a snapshot goes to every client: no local path in it */
	char origin[4096];
	struct offer pub = *o;
	pub.origin = team_public_origin(o->origin, origin, sizeof origin);
	json_t *j = team_offer_json(&pub, stale);
	put_line(x, j);
	json_decref(j);
	x->r->offers++;
	if (x->st == GC_OK && x->gz.failed)
		return x->st = write_failed(err, x->dir, TEAM_PAYLOAD, x->gz.errnum);
	return x->st == GC_OK ? GC_OK : err_set(err, x->st, "out of memory");
}

/* The folder an export writes into, with its descriptor `fd`. */
struct out {
	const char *dir;
	int fd;
};

/* dir/name by way of a new temporary file in dir (file_temp_at: never a
 * file or link someone put there), written by `put`, renamed into place. */
static enum gc_status write_file(const struct out *o, const char *name,
				 enum gc_status (*put)(void *arg, FILE *f, char **err), void *arg,
				 char **err)
{
	char tmp[256];
	/* published files: readable by all, as the folder is */
	int fd = file_temp_at(o->fd, name, 0644, tmp, sizeof tmp);
	if (fd < 0)
		return err_set(err, GC_EIO, "cannot create a file in %s: %s", o->dir,
			       strerror(errno));
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlinkat(o->fd, tmp, 0);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	enum gc_status st = put(arg, f, err);
	errno = 0;
	if (fflush(f) != 0 || fsync(fileno(f)) != 0)
		st = st != GC_OK ? st : write_failed(err, o->dir, name, errno);
	if (fclose(f) != 0 && st == GC_OK)
		st = write_failed(err, o->dir, name, errno);
	if (st == GC_OK && renameat(o->fd, tmp, o->fd, name) != 0)
		st = err_set(err, GC_EIO, "cannot rename %s/%s to %s: %s", o->dir, tmp, name,
			     strerror(errno));
	if (st != GC_OK)
		unlinkat(o->fd, tmp, 0);
	return st;
}

struct text {
	const char *data;
	size_t len;
	const struct out *o;
	const char *name;
};

static enum gc_status put_text(void *arg, FILE *f, char **err)
{
	const struct text *t = arg;
	errno = 0;
	if (fwrite(t->data, 1, t->len, f) != t->len)
		return write_failed(err, t->o->dir, t->name, errno);
	return GC_OK;
}

struct payload {
	struct run *x;
	struct cache *c;
};

static enum gc_status put_payload(void *arg, FILE *f, char **err)
{
	struct payload *p = arg;
	struct run *x = p->x;
	enum gc_status st = gz_open(&x->gz, f, err);
	if (st != GC_OK) {
		gz_close(&x->gz, x->r->sha256);
		return st;
	}
	st = cache_dump_offers(p->c, on_offer, x, err);
	if (st == GC_OK) {
		put_states(x, NULL);
		gz_write(&x->gz, "", 0, Z_FINISH);
	}
	gz_close(&x->gz, x->r->sha256);
	x->r->payload_bytes = x->gz.bytes;
	if (st == GC_OK && x->st != GC_OK)
		st = err_set(err, x->st, "out of memory");
	else if (st == GC_OK && x->gz.failed)
		st = write_failed(err, x->dir, TEAM_PAYLOAD, x->gz.errnum);
	return st;
}

static json_t *manifest_json(struct run *x)
{
	json_t *list = json_array();
	for (size_t i = 0; list && i < x->nstates; i++)
		if (json_array_append(list, x->states[i].entry) != 0) {
			json_decref(list);
			return NULL;
		}
	const struct team_export_result *r = x->r;
	return json_pack("{s:s, s:i, s:s, s:s, s:{s:s, s:I, s:s}, s:I, s:o}", "format",
			 TEAM_FORMAT, "version", TEAM_VERSION, "created_at", r->created_at,
			 "generator", "gpucmp " GPUCMP_VERSION, "payload", "file", TEAM_PAYLOAD,
			 "bytes", (json_int_t)r->payload_bytes, "sha256", r->sha256, "offers",
			 (json_int_t)r->offers, "providers", list);
}

/* The signature of the manifest's text into manifest.sig. */
static enum gc_status write_signature(const struct out *o, const char *keyfile, const char *text,
				      struct team_export_result *r, char **err)
{
	char *sig = NULL;
	enum gc_status st = team_sign(keyfile, text, strlen(text), &sig, r->key, err);
	json_t *j = st == GC_OK ? json_pack("{s:s, s:s, s:s}", "algorithm", "ed25519", "key",
					    r->key, "signature", sig)
				: NULL;
	char *body = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	char *line = body ? str_concat(body, "\n") : NULL;
	if (st == GC_OK && !line)
		st = err_set(err, GC_ENOMEM, "out of memory");
	struct text t = {line, line ? strlen(line) : 0, o, TEAM_SIGNATURE};
	if (st == GC_OK)
		st = write_file(o, TEAM_SIGNATURE, put_text, &t, err);
	free(line);
	free(body);
	json_decref(j);
	free(sig);
	return st;
}

/* The manifest (and its signature) once the payload is in place. */
static enum gc_status write_manifest(struct run *x, const struct out *o, const char *keyfile,
				     char **err)
{
	json_t *m = manifest_json(x);
	char *body = m ? json_dumps(m, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
	char *text = body ? str_concat(body, "\n") : NULL;
	json_decref(m);
	free(body);
	if (!text)
		return err_set(err, GC_ENOMEM, "out of memory");
	enum gc_status st = keyfile ? write_signature(o, keyfile, text, x->r, err) : GC_OK;
	struct text t = {text, strlen(text), o, TEAM_MANIFEST};
	if (st == GC_OK)
		st = write_file(o, TEAM_MANIFEST, put_text, &t, err);
	free(text);
	return st;
}

/* The folder an export writes into: made (0755) if missing, then opened
 * once, every file written through that descriptor (a folder renamed or
 * swapped meanwhile changes nothing), and refused when another user could
 * change the snapshot between the export and its upload: a folder, or a
 * link to one, of another user (root excepted), or one any user may write
 * without the sticky bit (a group-writable folder is the team's choice). */
static enum gc_status open_dir(const char *dir, struct out *o, char **err)
{
	o->dir = dir;
	o->fd = -1;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return err_set(err, GC_EIO, "cannot create %s: %s", dir, strerror(errno));
	uid_t me = geteuid();
	struct stat sb;
	if (lstat(dir, &sb) == 0 && S_ISLNK(sb.st_mode) && sb.st_uid != me && sb.st_uid != 0)
		return err_set(err, GC_EUSAGE, "export folder %s is a link of another user (uid "
			       "%ld); export to a folder of your own", dir, (long)sb.st_uid);
	o->fd = open(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (o->fd < 0 && errno == ENOTDIR)
		return err_set(err, GC_EUSAGE, "%s is not a folder; export writes a folder", dir);
	if (o->fd < 0 || fstat(o->fd, &sb) != 0)
		return err_set(err, GC_EIO, "cannot open %s: %s", dir, strerror(errno));
	if (sb.st_uid != me && sb.st_uid != 0)
		return err_set(err, GC_EUSAGE,
			       "export folder %s belongs to another user (uid %ld), who could "
			       "change the snapshot before it is uploaded; export to a folder of "
			       "your own", dir, (long)sb.st_uid);
	if ((sb.st_mode & S_IWOTH) && !(sb.st_mode & S_ISVTX))
		return err_set(err, GC_EUSAGE, "export folder %s can be changed by any user, who "
			       "could replace the snapshot before it is uploaded; run: chmod o-w "
			       "%s, or export to a folder of your own", dir, dir);
	return GC_OK;
}

/* A key file that cannot sign is refused before anything is written. */
static enum gc_status check_key(const char *keyfile, struct team_export_result *r, char **err)
{
	char *sig = NULL;
	enum gc_status st = keyfile ? team_sign(keyfile, "", 0, &sig, r->key, err) : GC_OK;
	free(sig);
	return st;
}

enum gc_status team_export(struct cache *c, const char *dir, const char *keyfile,
			   struct team_export_result *r, char **err)
{
	memset(r, 0, sizeof *r);
	struct run x;
	memset(&x, 0, sizeof x);
	x.r = r;
	x.dir = dir;
	struct out o = {dir, -1};
	enum gc_status st = cache_read_begin(c, err);
	int reading = st == GC_OK;
	if (st == GC_OK)
		st = cache_dump_states(c, on_state, &x, err);
	if (st == GC_OK && !x.nstates)
		st = err_set(err, GC_EDATA, "the cache holds no refreshed or imported provider; "
			     "run 'gpucmp refresh' (or import) first");
	if (st == GC_OK) /* its payload is hashed: libcrypto, before any file is made */
		st = team_crypto_load(err);
	if (st == GC_OK)
		st = check_key(keyfile, r, err);
	if (st == GC_OK)
		st = open_dir(dir, &o, err);
	struct payload p = {&x, c};
	if (st == GC_OK)
		st = write_file(&o, TEAM_PAYLOAD, put_payload, &p, err);
	if (reading)
		cache_read_end(c);
	if (st == GC_OK)
		st = write_manifest(&x, &o, keyfile, err);
	if (o.fd >= 0)
		close(o.fd);
	for (size_t i = 0; i < x.nstates; i++) {
		free(x.states[i].line);
		json_decref(x.states[i].entry);
	}
	free(x.states);
	return st;
}

struct page_put {
	struct cache *c;
	const struct page_opts *o;
	struct page_result *r;
};

static enum gc_status put_page(void *arg, FILE *f, char **err)
{
	struct page_put *p = arg;
	return page_write(f, p->c, p->o, p->r, err);
}

enum gc_status team_export_page(struct cache *c, const char *dir, const struct page_opts *o,
				struct page_result *r, char **err)
{
	struct out out = {dir, -1};
	struct page_put p = {c, o, r};
	enum gc_status st = open_dir(dir, &out, err);
	if (st == GC_OK)
		st = write_file(&out, TEAM_PAGE, put_page, &p, err);
	if (out.fd >= 0)
		close(out.fd);
	return st;
}
