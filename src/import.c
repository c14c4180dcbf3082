/* import.c - SkyPilot catalogs from a file, a folder or a URL into the cache. */
#include "gpucmp/import.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpucmp/buf.h"
#include "gpucmp/fileio.h"
#include "gpucmp/hosted.h"
#include "gpucmp/ingest.h"
#include "gpucmp/pipe.h"
#include "gpucmp/strutil.h"

/* One catalog's bytes on their way into the cache. */
struct one {
	const char *data;
	size_t len;
	struct skypilot_opts opts;
	struct skypilot_stats stats;
};

static enum gc_status parse(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct one *o = arg;
	memset(&o->stats, 0, sizeof o->stats);
	return skypilot_parse(o->data, o->len, &o->opts, cb, ctx, &o->stats, err);
}

/* Inside the transaction: a large catalog is parsed on a second thread
 * while SQLite inserts here; a small one is not worth a thread. */
static enum gc_status fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct one *o = arg;
	if (o->len < (1u << 20))
		return parse(arg, cb, ctx, err);
	return pipe_run(parse, arg, cb, ctx, err);
}

enum import_source import_source_kind(const char *src)
{
	if (strncmp(src, "http://", 7) == 0 || strncmp(src, "https://", 8) == 0)
		return IMPORT_URL;
	if (file_is_dir(src))
		return IMPORT_FOLDER;
	return file_is_file(src) ? IMPORT_FILE : IMPORT_NONE;
}

int import_valid_id(const char *id)
{
	return ingest_valid_id(id); /* the door's rule, one for every writer */
}

void import_provider_of(const char *src, int is_url, char *out, size_t n)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s", src);
	if (is_url)
		tmp[strcspn(tmp, "?#")] = '\0';
	char *slash = strrchr(tmp, '/');
	if (!slash) {
		snprintf(out, n, ".");
		return;
	}
	*slash = '\0';
	slash = strrchr(tmp, '/');
	/* a name longer than out is cut, on purpose: the result is tested
	 * because an unused one fails the -O3 build with -Wformat-truncation */
	if (snprintf(out, n, "%s", slash ? slash + 1 : tmp) >= (int)n)
		return;
}

const char *import_provider_id(const char *name)
{
	const char *id = hosted_alias(name);
	return id ? id : name;
}

/* r->provider and r->alias for `named`, and whether it may be stored:
 * 0, else 1 with r's step and status set (nothing read or fetched yet). */
static int refuse_id(const struct import_opts *o, struct import_result *r, const char *named)
{
	r->provider = import_provider_id(named);
	r->alias = strcmp(r->provider, named) != 0 ? named : NULL;
	r->status = GC_EUSAGE;
	r->step = IMPORT_BAD_ID;
	if (!import_valid_id(r->provider))
		return 1;
	int known = profile_set_find(&o->cat->profiles, r->provider) != NULL;
	r->step = IMPORT_NEW_ID;
	if (!known && !o->new_provider)
		return 1;
	r->no_profile = !known;
	r->status = GC_OK;
	return 0;
}

int import_as_of(const char *given, long long known, char *out, size_t n)
{
	long long now = catalog_now(), t = given ? str_user_date(given) : known;
	if (given && (t < 0 || t > now))
		return -1;
	str_time_format(t >= 0 && t <= now ? t : now, out, n);
	return 0;
}

/* Hand r, with err as its message, to the caller; frees err and returns
 * r's status.  *damaged (may be NULL): the cache met a damaged page, so
 * the caller may have set it aside: touch it no more. */
static enum gc_status report(const struct import_opts *o, struct import_result *r, char *err,
			     int *damaged)
{
	if (damaged)
		*damaged = r->status == GC_EIO && cache_corrupt(o->cache);
	r->message = err;
	o->done(o->done_arg, r);
	free(err);
	return r->status;
}

static size_t count_lines(const char *data, size_t len)
{
	size_t lines = 0;
	for (const char *p = data; (p = memchr(p, '\n', (size_t)(data + len - p))) != NULL; p++)
		lines++;
	return lines;
}

/* Store one catalog's bytes as r->provider (refuse_id passed), from
 * r->origin; fills r and
 * returns the message of a failure (new, or NULL). */
static char *import_bytes(const struct import_opts *o, struct import_result *r,
			  const char *data, size_t len, long long known_as_of)
{
	char now[32], as_of[32];
	str_time_format(catalog_now(), now, sizeof now);
	r->status = GC_EUSAGE;
	r->step = IMPORT_BAD_DATE;
	if (import_as_of(o->as_of, known_as_of, as_of, sizeof as_of) != 0)
		return NULL;
	struct one one;
	memset(&one, 0, sizeof one);
	one.data = data;
	one.len = len;
	one.opts = (struct skypilot_opts){.provider = r->provider, .gpus = o->cat->gpus,
		.types = o->cat->types, .source = "import", .origin = r->origin,
		.fetched_at = now, .as_of = as_of};
	struct cache_meta m = {"import", now, NULL, NULL, NULL, 0, r->no_profile};
	cache_expect_rows(o->cache, count_lines(data, len));
	char *err = NULL;
	r->status = cache_store(o->cache, r->provider, &m, fill, &one, &r->inserted, &err);
	r->step = r->status == GC_OK ? IMPORT_STORED : IMPORT_FAILED;
	r->stats = one.stats;
	return err;
}

/* One vms.csv; its provider `provider`, else its folder's name. */
static enum gc_status import_file(const struct import_opts *o, const char *path,
				  const char *provider, int *damaged)
{
	struct import_result r;
	memset(&r, 0, sizeof r);
	char name[256], *data = NULL, *err = NULL;
	if (!provider) {
		import_provider_of(path, 0, name, sizeof name);
		provider = name;
	}
	r.origin = path;
	if (refuse_id(o, &r, provider))
		return report(o, &r, NULL, damaged);
	size_t len;
	r.status = file_read_all(path, IMPORT_MAX_BYTES, &data, &len, &err);
	if (r.status != GC_OK) {
		r.step = IMPORT_READ;
		return report(o, &r, err, damaged);
	}
	struct stat sb;
	long long mtime = stat(path, &sb) == 0 ? (long long)sb.st_mtime : -1;
	err = import_bytes(o, &r, data, len, mtime);
	free(data);
	return report(o, &r, err, damaged);
}

/* GET url into *f: the status of the client itself (the transfer's is f's). */
static enum gc_status fetch(const struct import_opts *o, const char *url, struct http_got *f,
			    char **err)
{
	struct http_opts ho = *o->http;
	if (!getenv("GPUCMP_HTTP_MAX_BYTES"))
		ho.max_body = IMPORT_MAX_BYTES;
	struct http_request req;
	memset(&req, 0, sizeof req);
	req.url = url;
	req.label = "import";
	return http_get_one(&ho, &req, f, err);
}

static enum gc_status import_url(const struct import_opts *o, const char *url)
{
	struct import_result r;
	memset(&r, 0, sizeof r);
	char name[256], shown[4096], *err = NULL;
	import_provider_of(url, 1, name, sizeof name);
	/* the URL as shown and stored as the offers' origin: userinfo and
	 * credential-like query parameters masked */
	http_url_redact(shown, sizeof shown, url, NULL);
	r.origin = shown;
	if (refuse_id(o, &r, o->provider ? o->provider : name))
		return report(o, &r, NULL, NULL);
	struct http_got f;
	r.status = fetch(o, url, &f, &err);
	r.step = IMPORT_CLIENT;
	if (r.status == GC_OK && f.st != GC_OK) {
		r.step = IMPORT_TRANSFER;
		r.status = f.st;
		free(err);
		err = f.message;
		f.message = NULL;
	} else if (r.status == GC_OK && (f.status < 200 || f.status > 299)) {
		r.step = IMPORT_HTTP;
		r.status = GC_EUNAVAILABLE;
		r.http_status = f.status;
	} else if (r.status == GC_OK) {
		err = import_bytes(o, &r, f.body, f.len, str_http_date(f.last_modified));
	}
	http_got_release(&f);
	return report(o, &r, err, NULL);
}

/* A folder's own failure. */
static enum gc_status folder_fail(const struct import_opts *o, const char *dir,
				  enum import_step step, enum gc_status st, char *err)
{
	struct import_result r;
	memset(&r, 0, sizeof r);
	r.step = step;
	r.status = st;
	r.origin = dir;
	return report(o, &r, err, NULL);
}

/* A folder: PATH/vms.csv, or PATH/<cloud>/vms.csv for each cloud. */
static enum gc_status import_folder(const struct import_opts *o, const char *dir)
{
	char one[4096];
	snprintf(one, sizeof one, "%s/vms.csv", dir);
	if (!file_is_dir(one) && file_is_file(one))
		return import_file(o, one, o->provider, NULL);
	if (o->provider)
		return folder_fail(o, dir, IMPORT_FOLDER_PROVIDER, GC_EUSAGE, NULL);
	char **names, *err = NULL;
	size_t n, found = 0;
	enum gc_status st = file_list(dir, "", &names, &n, &err), first = GC_OK;
	if (st != GC_OK)
		return folder_fail(o, dir, IMPORT_FOLDER_READ, st, err);
	int damaged = 0;
	for (size_t i = 0; i < n && !damaged; i++) {
		snprintf(one, sizeof one, "%s/vms.csv", names[i]);
		if (!file_is_dir(names[i]) || !file_is_file(one))
			continue;
		found++;
		st = import_file(o, one, NULL, &damaged);
		if (first == GC_OK)
			first = st;
	}
	file_list_free(names, n);
	if (!found)
		return folder_fail(o, dir, IMPORT_FOLDER_EMPTY, GC_EUSAGE, NULL);
	return first;
}

enum gc_status import_run(const struct import_opts *o, const char *src)
{
	switch (import_source_kind(src)) {
	case IMPORT_URL:
		return import_url(o, src);
	case IMPORT_FOLDER:
		return import_folder(o, src);
	case IMPORT_FILE:
	case IMPORT_NONE:
		break;
	}
	return import_file(o, src, o->provider, NULL);
}
