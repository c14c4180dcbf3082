/* regions.h - where a provider's region is (data/regions.yaml).
 *
 * Each provider names its regions its own way (AWS us-east-1, Azure eastus,
 * RunPod EU-RO-1, Vast "Alberta, CA, NA").  This table places each region
 * in a country (ISO 3166-1 alpha-2), each country in a continent, and each
 * country in a geo, the coarse area people shop by:
 *
 *   us        the United States
 *   americas  the rest of the Americas (Canada, Latin America, Caribbean)
 *   eu        Europe, the continent (EU members and others: GB, CH, NO, ...)
 *   mea       the Middle East (UN M49 Western Asia) and Africa
 *   apac      the rest of Asia, and Oceania
 *
 * The continents are GeoNames' seven but Antarctica: africa, asia, europe,
 * north-america, oceania, south-america.  Both lists are the values of the
 * continent and geo fields (src/field.c).  A region the table does not
 * place is unknown, never guessed.
 */
#ifndef GPUCMP_REGIONS_H
#define GPUCMP_REGIONS_H

#include <stddef.h>

#include "gpucmp/err.h"

struct region_country {
	char code[3];          /* "DE" */
	const char *continent; /* a continent field value (static) */
	const char *geo;       /* a geo field value (static) */
};

/* One region of one provider, placed in a country. */
struct region_place {
	const char *provider; /* borrowed from the table */
	char *region;         /* as the provider spells it */
	char code[3];         /* its country */
};

/* One provider's block: where its table came from, and whether its region
 * names carry the country themselves ("<place>, CC[, <continent code>]"). */
struct region_source {
	char *provider;
	char *source;          /* http(s) URL */
	char *checked;         /* YYYY-MM-DD */
	int names_country;
};

/* A region left unknown on purpose (`unplaced:` in a provider's block):
 * no page read placed it, and the reason says so.  A region in the data
 * that is neither placed nor unplaced was forgotten (tests/unit/
 * test_regions.c fails on it). */
struct region_unplaced {
	const char *provider; /* borrowed from the table */
	char *region;
	char *reason;
};

struct region_table; /* opaque */

enum gc_status regions_load(struct region_table **out, const char *file, const char *data,
			    size_t len, char **err);
void regions_free(struct region_table *t);

/* The country of code (any case), borrowed; NULL if the table has none. */
const struct region_country *regions_country(const struct region_table *t, const char *code);
/* Where `provider`'s region is: its country, borrowed; NULL when unknown.
 * Region names compare without case (ASCII). */
const struct region_country *regions_lookup(const struct region_table *t, const char *provider,
					    const char *region);
/* The country code a "names_country" region carries ("Alberta, CA, NA",
 * "CA, NA", "Guangxi, CN"), written to out[3]; 0 if it has none.  The
 * cache's view reads the same shapes (src/cache_schema.c). */
/* Why `provider`'s region is unknown on purpose, borrowed; NULL when the
 * table does not list it as unplaced (placed, or forgotten). */
const char *regions_unplaced_reason(const struct region_table *t, const char *provider,
				    const char *region);
int regions_code_in_name(const char *region, char out[3]);

size_t regions_country_count(const struct region_table *t);
const struct region_country *regions_country_at(const struct region_table *t, size_t i);
size_t regions_place_count(const struct region_table *t);
const struct region_place *regions_place_at(const struct region_table *t, size_t i);
size_t regions_source_count(const struct region_table *t);
const struct region_source *regions_source_at(const struct region_table *t, size_t i);

#endif
