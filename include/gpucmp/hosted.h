/* hosted.h - hosted price catalogs as a refresh tier.
 *
 * SkyPilot and dstack's gpuhunt publish price catalogs of many clouds as
 * plain files, fetched without a key (docs/CATALOGS.md has the research,
 * docs/REFRESH.md the tiers).  A refresh takes a provider from its live
 * adapter when that can run, else from the first hosted catalog that covers
 * it:
 *   SkyPilot  GET <skypilot base>/<folder>/vms.csv         (base holds "/v8")
 *   gpuhunt   GET <gpuhunt base>/<name>/version             -> "YYYYMMDD-N"
 *             GET <gpuhunt base>/<name>/<version>/catalog.zip, holding <name>.csv
 *
 * The module only describes and parses: hosted_adapter() fills a struct
 * adapter whose request plan and parsers the refresh driver (refresh.c)
 * runs like any live adapter's, under the same HTTP client, caps, deadline,
 * retries, lock and per-provider atomic replace.  Offers have source
 * "catalog" and as_of the catalog's date (SkyPilot: the response's
 * Last-Modified; gpuhunt: the version's date).
 */
#ifndef GPUCMP_HOSTED_H
#define GPUCMP_HOSTED_H

#include <stddef.h>

#include "gpucmp/adapter.h"
#include "gpucmp/csv.h"
#include "gpucmp/err.h"
#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"
#include "gpucmp/offer.h"


/* The public catalogs (docs/CATALOGS.md sections 1 and 2). */
#define HOSTED_SKYPILOT_URL \
	"https://skypilot-catalog.s3.us-east-1.amazonaws.com/catalogs/v8"
#define HOSTED_GPUHUNT_URL "https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v3"

enum hosted_kind { HOSTED_NONE, HOSTED_SKYPILOT, HOSTED_GPUHUNT };

/* One provider's names, both ways: gpucmp id <-> SkyPilot v8 folder <->
 * gpuhunt provider name (NULL: that catalog does not cover it); `other`:
 * another name catalogs use for it (gpuhunt's online name, a former one),
 * never fetched (NULL: none). */
struct hosted_map {
	const char *id, *skypilot, *gpuhunt, *other;
};
extern const struct hosted_map hosted_maps[];
extern const size_t hosted_map_count;

/* By gpucmp id, SkyPilot folder or gpuhunt name; NULL if none. */
const struct hosted_map *hosted_find(const char *id);
const struct hosted_map *hosted_find_skypilot(const char *folder);
const struct hosted_map *hosted_find_gpuhunt(const char *name);
/* The gpucmp id `name` stands for: an id of the table, a SkyPilot folder,
 * a gpuhunt name or an other name ("do" -> "digitalocean", "lambdalabs" ->
 * "lambda", "datacrunch" -> "verda"); NULL if none.  Static. */
const char *hosted_alias(const char *name);

/* The catalog a provider is taken from when the live tier cannot run:
 * SkyPilot first, else gpuhunt, else HOSTED_NONE. */
enum hosted_kind hosted_kind_for(const char *id);
const char *hosted_kind_name(enum hosted_kind k); /* "skypilot" | "gpuhunt" | "none" */

/* A catalog adapter for provider `id` (borrowed, must outlive *out). */
void hosted_adapter(struct adapter *out, const char *id, enum hosted_kind k, const char *base);

/* "YYYYMMDD-N" (a gpuhunt version) -> "YYYY-MM-DDT00:00:00Z"; 0, or -1 when
 * it is not of that shape, -2 when its date is no calendar date (20260231,
 * or a year before 2000). */
int hosted_version_date(const char *version, char *out, size_t n);
/* An HTTP date (Last-Modified) -> RFC 3339 UTC; 0 or -1. */
int hosted_http_date(const char *date, char *out, size_t n);

/* A gpuhunt catalog CSV (storage.py's columns: instance_name, location,
 * price, cpu, memory, gpu_count, gpu_name, gpu_memory (per GPU), spot,
 * disk_size, gpu_vendor, flags, cpu_arch, provider_data) -> offers.  The
 * on-demand and spot rows of one instance_name and location become one
 * offer with both prices.
 *
 * The file is read one record at a time; only its GPU rows are kept (to be
 * paired), at most max_rows of them: one more is an error, counted as the
 * rows are read, so memory is bounded by the cap, not by the file (a
 * row's names are kept up to about twice STR_FIELD_MAX bytes each, which
 * offer_clean cuts the same, and 32 MiB in all).  Offers are emitted only once the whole
 * file is read: a file refused on the way emits none. */
struct gpuhunt_opts {
	const char *provider;               /* gpucmp id given to every offer */
	const struct gpu_table *gpus;       /* required */
	const struct insttype_table *types; /* may be NULL */
	const char *source, *origin, *fetched_at, *as_of;
	size_t max_rows;                    /* GPU rows kept at most (0: no cap) */
	size_t max_bytes;                   /* bytes of CSV read at most (0: no cap) */
};
struct gpuhunt_stats {
	size_t rows, offers, cpu_only, tpu, no_price, bad_number, duplicates, unknown_gpu,
		spot_dropped, cleaned;
};
/* From len bytes at data. */
enum gc_status gpuhunt_parse(const char *data, size_t len, const struct gpuhunt_opts *opts,
			     offer_cb cb, void *ctx, struct gpuhunt_stats *stats, char **err);
/* From a stream: read(rctx, ...) as csv_init_stream takes it. */
enum gc_status gpuhunt_parse_stream(csv_read_fn read, void *rctx,
				    const struct gpuhunt_opts *opts, offer_cb cb, void *ctx,
				    struct gpuhunt_stats *stats, char **err);
/* From the member `member` of the zip of len bytes at zip (libzip, loaded at
 * first use), inflated as it is read: the CSV is never held whole; its
 * declared size, then the bytes inflated, are held to max_bytes. */
enum gc_status gpuhunt_parse_zip(const void *zip, size_t len, const char *member,
				 const struct gpuhunt_opts *opts, offer_cb cb, void *ctx,
				 struct gpuhunt_stats *stats, char **err);

#endif
