/* ingest.h - the one door every offer passes on its way into the cache.
 *
 * Whatever the source (a live adapter, a SkyPilot or gpuhunt catalog, an
 * import, a team pull, the list prices, the built-in snapshot), its offers
 * reach the offer table only through cache_store / cache_replace, whose
 * every row goes through ingest_offer first.  A source is a producer and
 * nothing more: it needs no checks of its own.  In one place, read from
 * the column table (offer.h, offer_cols[]):
 *   - text: every text column through str_field (control characters as
 *     '?', cut at STR_FIELD_MAX bytes);
 *   - numbers: a value outside its column's range is unknown; an offer
 *     without a GPU count in range, or with no price left, is dropped
 *     (counted by reason); a spot price at or above on-demand is none;
 *   - words: currency is three capital letters (USD, or one the rate
 *     table knows), rdma, price_kind and source one of their values;
 *   - dates: fetched_at (required) and as_of are RFC 3339 UTC and real
 *     calendar dates, no later than now + INGEST_SKEW_S: a store whose
 *     offers say otherwise is refused whole (the provider keeps its old
 *     offers), since every later comparison of dates would trust it;
 *   - provider: the store's id, a valid id (1-40 of a-z, 0-9, '-'), with a
 *     built-in profile unless the writer confirmed a new one
 *     (ingest_policy.new_provider, from --new-provider);
 *   - the cap: rows are counted as they arrive, and the store is refused
 *     at the first row past ingest_policy.max_offers.
 */
#ifndef GPUCMP_INGEST_H
#define GPUCMP_INGEST_H

#include <stddef.h>

#include "gpucmp/err.h"
#include "gpucmp/offer.h"
#include "gpucmp/rates.h"

/* How far after now a date may be (clocks differ a little): 10 minutes. */
#define INGEST_SKEW_S 600
/* Rows one provider's store may hand in, unless the writer sets another
 * cap (GPUCMP_REFRESH_MAX_OFFERS): four times the largest real catalog
 * scaled as bench/ does, far below what would fill a disk. */
#define INGEST_MAX_OFFERS ((size_t)2000000)

struct ingest_policy {
	long long now;                  /* seconds since the epoch; 0: catalog_now() */
	size_t max_offers;              /* 0: INGEST_MAX_OFFERS */
	int new_provider;               /* an id without a profile may be stored */
	const struct rate_table *rates; /* currencies besides USD; NULL: USD only */
};

/* What the door did with one store's rows. */
struct ingest_stats {
	size_t rows;         /* handed in */
	size_t stored;       /* passed */
	size_t no_gpu;       /* dropped: no GPU count, or one out of range */
	size_t no_price;     /* dropped: no price in range */
	size_t currency;     /* dropped: a currency that is no currency */
	size_t spot_dropped; /* kept without its spot price (at or above on-demand) */
	size_t numbers;      /* numbers out of range made unknown */
	size_t words;        /* rdma / price_kind values not of their set made unknown */
	size_t cleaned;      /* offers whose text the sanitizer changed */
	size_t commits;      /* committed prices stored (ingest_commit) */
	size_t commits_refused; /* committed prices refused, the last reason in
				   commit_why */
	const char *commit_why; /* a static text: the last refusal's reason */
};

struct ingest {
	struct ingest_policy p;
	const char *provider; /* the store's (borrowed); NULL: any known one (the seed) */
	struct ingest_stats s;
	char good_date[2][24]; /* the last fetched_at and as_of that passed: a load
				* repeats one date on every row */
};

/* Start a store of `provider` (NULL: rows of several providers, each of
 * which must be known: the built-in seed).  `known`: the id has a
 * built-in profile.  GC_EUSAGE when the id is not an id, or is new and
 * the policy does not confirm it; the message says what to do. */
enum gc_status ingest_begin(struct ingest *in, const struct ingest_policy *p,
			    const char *provider, int known, char **err);

/* One row through the door: *keep 1 with the cleaned offer in *out (text
 * in t, which must outlive it), or 0 when it is dropped (counted).  A
 * failure (GC_EDATA) refuses the whole store: an offer of another
 * provider, a bad or future date, a source that is none, the cap. */
enum gc_status ingest_offer(struct ingest *in, const struct offer *raw, struct offer *out,
			    struct offer_text *t, int *keep, char **err);

/* One committed price of a stored offer through the door: *keep 1 with
 * the cleaned price in *out (its text in t, which must outlive it), or 0
 * when it is refused, counted with its reason (commits_refused,
 * commit_why; *why too when not NULL):
 *   - "type": none of reserved, capacity_block;
 *   - "term": a reservation whose term is none of OFFER_TERMS, or any
 *     term outside them;
 *   - "price": no price per hour within [OFFER_MIN_PRICE_HR,
 *     OFFER_MAX_PRICE_HR];
 *   - "not below on-demand": at or above the offer's own on-demand price
 *     (a commitment that costs more is a misread, often a term's total
 *     taken for an hourly price);
 *   - "duplicate": a second price of the same type and term;
 *   - "date": an as_of that is no date or in the future.
 * `o` is the offer as the door stored it; `prev` its committed prices
 * already kept (n of them).  Never fails the store. */
int ingest_commit(struct ingest *in, const struct offer *o, const struct offer_commit *raw,
		  const struct offer_commit *prev, size_t n, struct offer_commit *out,
		  struct offer_text *t, const char **why);

/* A date as the door takes it: "YYYY-MM-DDTHH:MM:SSZ", a real calendar
 * date, no later than now + INGEST_SKEW_S.  Its epoch seconds, or -1 when
 * malformed, -2 when in the future.  `now` 0: catalog_now(). */
long long ingest_date(const char *s, long long now);

/* ingest_date's verdict on s in words: GC_OK, or GC_EDATA saying "WHAT 'S'
 * is not an RFC 3339 UTC date (...)" or "WHAT S is in the future (...)";
 * S is sanitized.  One wording for an offer, a record and a pull. */
enum gc_status ingest_check_date(const char *what, const char *s, long long now, char **err);

/* Is `source` one a stored offer or record may name (live, catalog,
 * import, snapshot, list)? */
int ingest_source_ok(const char *source);

/* Is `id` a provider id: 1 to 40 of a-z, 0-9 and '-'? */
int ingest_valid_id(const char *id);

#endif
