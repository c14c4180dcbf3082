/* rates.h - the dated exchange-rate table (data/rates.yaml).
 */
#ifndef GPUCMP_RATES_H
#define GPUCMP_RATES_H

#include <stddef.h>

#include "gpucmp/err.h"

struct rate {
	char currency[4]; /* ISO 4217 */
	double usd;       /* US dollars per unit */
};

struct rate_table {
	char date[11];    /* YYYY-MM-DD the rates are from */
	char *source;
	struct rate *items;
	size_t n;
};

/* Load `file` (`data`, `len` bytes; data NULL: the embedded data/ file of
 * that name); on failure *t is empty. */
enum gc_status rates_load(struct rate_table *t, const char *file, const char *data, size_t len,
			  char **err);
/* The embedded data/rates.yaml. */
enum gc_status rates_load_embedded(struct rate_table *t, char **err);
void rates_free(struct rate_table *t);
/* USD per unit of `currency` (1 for USD), or NAN when unknown. */
double rates_usd(const struct rate_table *t, const char *currency);

#endif
