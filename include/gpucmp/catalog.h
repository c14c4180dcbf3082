/* catalog.h - everything the binary knows without a network: the GPU model
 * table, the instance-type table, every provider profile and the offer
 * snapshot, all embedded at build time.
 */
#ifndef GPUCMP_CATALOG_H
#define GPUCMP_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#include "gpucmp/country.h"
#include "gpucmp/embedded.h"
#include "gpucmp/err.h"
#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"
#include "gpucmp/profile.h"
#include "gpucmp/regions.h"

struct catalog {
	struct gpu_table *gpus;
	struct insttype_table *types;
	struct region_table *regions;
	struct country_table *countries;
	struct profile_set profiles;
	const char *snapshot; /* borrowed, static */
	size_t snapshot_len;
	/* of the build-time hashes of gpus.yaml, instance-types.yaml,
	 * regions.yaml and the profiles */
	uint64_t catalog_hash;
	uint64_t snapshot_hash; /* of snapshot.csv */
	const char *list_prices; /* data/list-prices.yaml, borrowed, static */
	size_t list_prices_len;
	/* of snapshot.csv and list-prices.yaml: what the cache is seeded from */
	uint64_t seed_hash;
	long today;             /* days since 1970-01-01 (UTC) */
	unsigned loaded;        /* CATALOG_* parts parsed so far */
	const struct embedded_file *gpus_file, *types_file, *regions_file;
	const struct embedded_file *countries_file;
};

enum {
	CATALOG_GPUS = 1,     /* data/gpus.yaml */
	CATALOG_TYPES = 2,    /* data/instance-types.yaml */
	CATALOG_PROFILES = 4, /* providers/<id>.yaml */
	CATALOG_REGIONS = 8,  /* data/regions.yaml */
	CATALOG_COUNTRIES = 16, /* data/countries.csv */
	CATALOG_ALL = 31
};

/* Find the embedded files and hash them, without parsing anything (cheap:
 * a small `list` parses nothing when the cache is current).  `today` is
 * days since the epoch (catalog_today() for the real clock).  Release with
 * catalog_release(). */
enum gc_status catalog_init(struct catalog *c, long today, char **err);
/* Parse and validate the parts (CATALOG_* bits) not loaded yet. */
enum gc_status catalog_need(struct catalog *c, unsigned parts, char **err);
/* catalog_init() + catalog_need(CATALOG_ALL). */
enum gc_status catalog_load(struct catalog *c, long today, char **err);
void catalog_release(struct catalog *c);

/* Today's date in days since the epoch; honours GPUCMP_TODAY=YYYY-MM-DD so
 * tests of "days ago" output are reproducible. */
long catalog_today(void);
/* Now in seconds since the epoch; honours GPUCMP_NOW=YYYY-MM-DDTHH:MM:SSZ
 * (and GPUCMP_TODAY, as noon of that day) for reproducible output. */
long long catalog_now(void);

/* Is there a built-in profile providers/<id>.yaml?  (Without parsing it:
 * the data files that name providers check their ids with it.) */
int catalog_has_profile(const char *id);

/* FNV-1a, 64-bit, continued from `h` (start with CATALOG_HASH_INIT). */
#define CATALOG_HASH_INIT 0xcbf29ce484222325ULL
uint64_t catalog_hash(uint64_t h, const void *data, size_t len);

#endif
