/* offer.h - one rentable configuration, normalized.
 *
 * Producers (snapshot, importers, adapters) fill a struct offer with
 * borrowed strings and hand it to a callback; nothing is allocated per
 * offer, which keeps an ingest of millions of rows cheap.  Unknown numbers
 * are NAN, unknown tri-states -1.
 */
#ifndef GPUCMP_OFFER_H
#define GPUCMP_OFFER_H

#include <stddef.h>

#include "gpucmp/err.h"
#include "gpucmp/strutil.h"

/* A committed price of an offer (docs/OUTPUT.md, "Price types"): what
 * the same machine costs per hour when rented for a term (a reservation)
 * or as a block booked ahead (a capacity block).  The on-demand, spot and
 * auction-floor prices are the offer's own columns. */
struct offer_commit {
	const char *type;   /* "reserved" | "capacity_block" */
	int term_months;    /* the term (reserved: one of OFFER_TERMS); 0: none said */
	double price_hr;    /* USD per hour for the whole offer, the term's total
			       spread over its hours (offer_term_hourly) */
	const char *origin; /* where the price was read (a URL); NULL: the offer's */
	const char *as_of;  /* RFC 3339 UTC; NULL: the offer's */
};

/* The terms a reservation may have, in months. */
#define OFFER_TERMS {1, 3, 6, 12, 24, 36}
/* Hours in a month as the cloud bills them (365 * 24 / 12). */
#define OFFER_HOURS_PER_MONTH 730.0

/* A term's total price as a price per hour: total / (months * 730); NAN
 * when the term is none of OFFER_TERMS or the total is no number. */
double offer_term_hourly(double total, int months);
/* Is `months` one of OFFER_TERMS? */
int offer_term_ok(int months);

struct offer {
	const char *provider;   /* profile id */
	const char *sku;        /* provider's instance type / plan id */
	const char *gpu;        /* canonical GPU id, NULL when the table does not know it */
	const char *gpu_name;   /* the GPU name as the source wrote it */
	const char *region;
	const char *currency;   /* ISO 4217 of the source's prices ("USD") */
	const char *source;     /* "snapshot" | "live" | "import" | "catalog" | "list" */
	const char *origin;     /* where the row came from (file, URL) */
	const char *fetched_at; /* RFC 3339 UTC */
	const char *rdma;       /* per-offer override: "ib" | "roce" | "no" | NULL */
	const char *driver_version; /* host driver, NULL if unknown */
	const char *max_cuda;   /* highest CUDA the host driver runs, NULL if unknown */
	const char *as_of;      /* RFC 3339 UTC: when the data describes (a catalog's
				   date); NULL: unknown, the row is stale (a live
				   row's is its fetched_at: the door sets it) */
	const char *price_kind; /* "fixed" | "auction_floor" | "marketplace"; NULL:
				   the provider profile's billing.price_kind */
	double gpu_count;       /* GPUs; fractional for a vGPU slice until it is
				   stored, when the door makes it 1 and gpu_fraction
				   the fraction */
	double gpu_fraction;    /* share of one GPU an offer's GPU is (1, 0.5, ...) */
	double gpu_mem_gb;      /* per GPU (per slice for fractional counts) */
	double vcpus, ram_gb, disk_gb;
	double price_hr;        /* USD per hour, whole offer */
	double spot_price_hr;   /* USD per hour, NAN if no spot */
	double price_native;    /* in `currency`, NAN when currency is USD */
	double spot_native;
	double node_bandwidth_gbps;
	int available;          /* 1, 0, -1 unknown */
	int infiniband;         /* per-offer override: 1, 0, -1 unknown */
	int nvlink;             /* per-offer override: 1, 0, -1 unknown */
	const struct offer_commit *commits; /* its committed prices (borrowed), each
					       through the door (ingest_commit) */
	size_t ncommits;
};

void offer_init(struct offer *o);

/* The stored columns of an offer: one table that the door's checks
 * (ingest.h), the cache's INSERT and dump, a team snapshot's payload line
 * and the duplicate check all read, in this order.  A number outside
 * [lo, hi] is no number: unknown (NAN) for an optional column; an offer
 * whose required column is missing or out of range is not stored.  A
 * new stored column is one row here (HACKING.md, "Add a field"). */
enum offer_col_kind { OFFER_TEXT, OFFER_NUM, OFFER_TRI };
struct offer_col {
	const char *name;         /* the cache's column and the payload line's key */
	size_t at;                /* offsetof(struct offer, ...) */
	enum offer_col_kind kind;
	int required;             /* an offer without it is refused */
	double lo, hi;            /* OFFER_NUM: the range of a real value */
	const char *unit;         /* for people ("GB", "USD/h"); "" when none */
};
extern const struct offer_col offer_cols[];
extern const size_t offer_ncols;
/* The column's value in o: a text (may be NULL), number or tri-state. */
const char *offer_col_text(const struct offer *o, const struct offer_col *c);
double offer_col_num(const struct offer *o, const struct offer_col *c);
int offer_col_tri(const struct offer *o, const struct offer_col *c);
/* o's sizes (GPU memory, vCPUs, RAM, disk, node bandwidth) outside their
 * column's range made unknown (NAN): what a source reports badly is no
 * size.  Returns how many. */
size_t offer_sizes_sane(struct offer *o);
/* Set it (text borrowed). */
void offer_col_set_text(struct offer *o, const struct offer_col *c, const char *v);
void offer_col_set_num(struct offer *o, const struct offer_col *c, double v);
void offer_col_set_tri(struct offer *o, const struct offer_col *c, int v);

/* Receives one offer; the pointers inside are valid only during the call. */
typedef enum gc_status (*offer_cb)(void *ctx, const struct offer *o, char **err);

/* A price, USD per hour for the whole offer, is one only within these
 * bounds: below the floor it is a broken number (1e-300 would list first
 * as $0.000), above the ceiling garbage; either way it counts as absent,
 * like a zero, negative or NaN one.  Every producer checks it
 * (adapter_emit, the SkyPilot reader, the snapshot loader).  A price in
 * another currency is held to the same floor before conversion. */
#define OFFER_MIN_PRICE_HR 0.001
#define OFFER_MAX_PRICE_HR 10000.0

/* 1 if `usd_hr` is a price by the rule above, 0 if not (NAN included). */
int offer_price_ok(double usd_hr);

/* The most GPUs one offer may have (a rack holds 72; a larger
 * number is a broken one: 1e308, infinity). */
#define OFFER_MAX_GPUS 4096

/* Room for the cleaned copies of an offer's text fields. */
#define OFFER_NTEXT 14
struct offer_text {
	char b[OFFER_NTEXT][STR_FIELD_MAX + 1];
};

/* The door to the cache: *out = *in with every text field through
 * str_field (control characters as '?', at most STR_FIELD_MAX bytes);
 * a changed one points into `t`, which must outlive *out.  A fractional
 * gpu_count (a slice) becomes gpu_count 1 and that gpu_fraction.  Returns
 * the number of text fields changed. */
int offer_clean(const struct offer *in, struct offer *out, struct offer_text *t);

/* A spot price at or above the on-demand price is no spot price (a
 * catalog artefact, or a stale copy of the on-demand price): it becomes
 * NAN (and its native price too).  Returns 1 when it did. */
int offer_spot_sane(struct offer *o);

/* offer_clean, then cb(ctx, cleaned, err): how a producer hands an offer
 * on.  Adds 1 to *cleaned (may be NULL) when any field changed. */
enum gc_status offer_deliver(offer_cb cb, void *ctx, const struct offer *o, size_t *cleaned,
			     char **err);

#endif
