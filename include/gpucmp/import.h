/* import.h - SkyPilot catalogs (vms.csv) from a file, a folder or a URL
 * into the cache.
 *
 * Each provider's rows are parsed inside the transaction that replaces its
 * offers (cache_store), so a malformed file changes nothing and a large
 * catalog never sits in memory twice (a large one is parsed on a second
 * thread while SQLite inserts: pipe.h).  Offers have source "import" and
 * as_of the date the catalog describes (import_as_of; docs/REFRESH.md).
 * The library decides and does; the caller prints each provider's result
 * as it comes (import_opts.done).
 */
#ifndef GPUCMP_IMPORT_H
#define GPUCMP_IMPORT_H

#include <stddef.h>

#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/err.h"
#include "gpucmp/http.h"
#include "gpucmp/skypilot.h"

/* The largest catalog read or fetched (GPUCMP_HTTP_MAX_BYTES, when set,
 * bounds a fetch instead): it is held whole while it is parsed, so this
 * is most of an import's memory.  128 MiB is 38 times the largest real
 * SkyPilot catalog (azure/vms.csv, 3.3 MB) and holds 2 million rows (the
 * door's cap of offers per provider); an import stays under 200 MB. */
#define IMPORT_MAX_BYTES ((size_t)128 << 20)

/* What a source names: one vms.csv, a folder (PATH/vms.csv or
 * PATH/<cloud>/vms.csv), an http(s) URL, or nothing there. */
enum import_source { IMPORT_NONE, IMPORT_FILE, IMPORT_FOLDER, IMPORT_URL };
enum import_source import_source_kind(const char *src);

/* Is `id` a provider id: 1 to 40 lowercase letters, digits and '-'? */
int import_valid_id(const char *id);

/* The provider name a source gives by its layout: the last folder before
 * the file ("/a/lambda/vms.csv" -> "lambda", "vms.csv" -> "."); of a URL,
 * its path without the query and fragment.  Into out (n bytes, cut).
 * import_provider_id turns it into gpucmp's id. */
void import_provider_of(const char *src, int is_url, char *out, size_t n);

/* The gpucmp id for a catalog's name of a provider: SkyPilot's folder or
 * gpuhunt's name as hosted.h maps them ("do" -> "digitalocean",
 * "lambdalabs" -> "lambda", "datacrunch" -> "verda", "vastai" -> "vast"),
 * else `name` itself (returned: static, or `name`). */
const char *import_provider_id(const char *name);

/* The date a catalog describes, as RFC 3339 UTC into out: `given` (the
 * user's YYYY-MM-DD or RFC 3339, NULL: none), else `known` (its
 * Last-Modified or the file's time, Unix seconds; < 0: none), else now
 * (catalog_now); never later than now.  0, or -1 (out untouched) when
 * `given` is malformed or in the future. */
int import_as_of(const char *given, long long known, char *out, size_t n);

/* Where one import ended. */
enum import_step {
	IMPORT_STORED,          /* offers replaced: inserted, stats */
	IMPORT_BAD_ID,          /* provider is not a provider id (import_valid_id) */
	IMPORT_NEW_ID,          /* provider has no profile and opts.new_provider is 0 */
	IMPORT_BAD_DATE,        /* opts.as_of is malformed or in the future */
	IMPORT_READ,            /* the file could not be read: status, message */
	IMPORT_CLIENT,          /* the HTTP client could not run: status, message */
	IMPORT_TRANSFER,        /* the transfer failed: status, message (NULL: none) */
	IMPORT_HTTP,            /* the server answered http_status, not 2xx */
	IMPORT_FAILED,          /* parsing or storing failed, the cache is unchanged:
				 * status, message (a damaged page: cache_corrupt) */
	/* a folder's own, with provider NULL and origin the folder */
	IMPORT_FOLDER_PROVIDER, /* opts.provider given for a folder of <cloud> folders */
	IMPORT_FOLDER_READ,     /* the folder could not be listed: status, message */
	IMPORT_FOLDER_EMPTY     /* no vms.csv and no <cloud>/vms.csv in it */
};

/* One provider's import (or a folder's failure).  Every pointer is
 * borrowed for the call of import_opts.done only. */
struct import_result {
	enum import_step step;
	enum gc_status status;       /* GC_OK when stored */
	const char *message;         /* the library's words, or NULL */
	const char *provider;        /* the id, as given or found and mapped by
				      * import_provider_id (maybe not valid) */
	const char *alias;           /* the name given or found, when mapping changed
				      * it ("do" for "digitalocean"); else NULL */
	const char *origin;          /* the path, or the URL with its credentials masked
				      * (as recorded in the offers; not sanitized) */
	long http_status;            /* IMPORT_HTTP */
	int no_profile;              /* stored with no profile (opts.new_provider) */
	size_t inserted;             /* IMPORT_STORED: offers stored */
	struct skypilot_stats stats; /* IMPORT_STORED: what the rows came to */
};

typedef void (*import_done_fn)(void *arg, const struct import_result *r);

struct import_opts {
	struct cache *cache;           /* open for writing, its guard set (cache_set_guard) */
	const struct catalog *cat;     /* CATALOG_GPUS, CATALOG_TYPES, CATALOG_PROFILES loaded */
	const char *provider;          /* the provider of one vms.csv; NULL: its folder's name */
	int new_provider;              /* store an id without a profile; 0: refuse it */
	const char *as_of;             /* the user's date (import_as_of); NULL: none */
	const struct http_opts *http;  /* a URL's fetch (timeouts, retries, --verbose log) */
	import_done_fn done;           /* each result as it is settled; required */
	void *done_arg;
};

/* Import `src` (import_source_kind: not IMPORT_NONE) as o says: a file,
 * each provider of a folder in name order, or a URL.  Each provider's id
 * (import_provider_id) is checked before its catalog is read or fetched:
 * one that is not an id, or has no profile while o->new_provider is 0, is
 * refused (a folder goes on).  Every provider's result, and a folder's own
 * failure, goes to o->done as it is settled.
 * A folder's walk stops after a provider met a damaged page of the cache
 * (o->done may set the cache aside).  Returns the first failure's status,
 * GC_OK when every provider was stored. */
enum gc_status import_run(const struct import_opts *o, const char *src);

#endif
