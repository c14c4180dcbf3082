/* query_history.h - questions over the price history (docs/HISTORY.md):
 * what changed since a time, the events of offers, the cheapest price per
 * GPU and provider per day.  Offers are chosen by a struct query's filters
 * over history_v (offer_v's columns, each offer as it last changed), so a
 * filter means what it means to list. */
#ifndef GPUCMP_QUERY_HISTORY_H
#define GPUCMP_QUERY_HISTORY_H

#include <stddef.h>

#include "gpucmp/cache.h"
#include "gpucmp/query.h"

/* One offer's net change since a time: its first event's state before and
 * its last event's state after.  Strings are new (query_changes_release). */
struct query_change {
	char *change;   /* "appeared", "gone", "cheaper", "dearer", "spot_cheaper",
			 * "spot_dearer", "sold-out" (in stock before, not
			 * now), "back" (the other way); a stock that became
			 * or ceased to be unknown is no change */
	char *provider, *sku, *region, *gpu, *at; /* at: its last event */
	double gpu_count;
	double price_hr, was_price_hr, spot_price_hr, was_spot_price_hr; /* NAN: none */
	double available, was_available; /* 1 or 0; NAN: unknown */
};

/* The SQL of changes since `since` (RFC 3339 UTC, borrowed until the
 * statement is prepared) for the offers q selects (its filters, --spot's
 * price, its limit): appeared first, then cheaper, dearer, gone, the
 * rest; by provider, sku and region within each. */
enum gc_status query_build_changes(const struct query *q, const char *since,
				   struct query_sql *out, char **err);
/* The same over the events recorded after event `after` (a
 * cache_history_last), whatever their time: what one run changed (a pull's
 * events carry the publisher's time). */
enum gc_status query_build_changes_after(const struct query *q, long long after,
					 struct query_sql *out, char **err);
/* Run it: *out a new array of *n changes (query_changes_release). */
enum gc_status query_changes(struct cache *c, const struct query_sql *qs,
			     struct query_change **out, size_t *n, char **err);
void query_changes_release(struct query_change *v, size_t n);

/* One event of an offer's series (kind: CACHE_HIST_* bits). */
struct query_event {
	char *provider, *sku, *region, *at;
	int kind;
	double price_hr, spot_price_hr, was_price_hr, was_spot_price_hr;
	double available, was_available; /* 1 or 0; NAN: unknown */
};
/* The events of the offers `provider` and `sku` (and `region`, NULL: any)
 * name that q also selects, by offer and time: *out a new array. */
enum gc_status query_build_events(const struct query *q, const char *provider,
				  const char *sku, const char *region, struct query_sql *out,
				  char **err);
enum gc_status query_events(struct cache *c, const struct query_sql *qs,
			    struct query_event **out, size_t *n, char **err);
void query_events_release(struct query_event *v, size_t n);

/* The cheapest price (spot with q->spot) of the offers q selects, per GPU
 * and provider, for each of `ndays` UTC days from `first` (days since
 * 1970): min[d] is NAN when none was offered that day. */
struct query_daily {
	char *gpu, *provider;
	double *min; /* ndays */
};
enum gc_status query_build_daily(const struct query *q, const char *since,
				 struct query_sql *out, char **err);
enum gc_status query_daily(struct cache *c, const struct query_sql *qs, long first,
			   size_t ndays, struct query_daily **out, size_t *n, char **err);
void query_daily_release(struct query_daily *v, size_t n);

/* The names of an event's kind bits, joined by "," ("price,spot"), into
 * out; the stock bit is "sold-out", "back" or "stock" (to or from
 * unknown). */
void query_event_kind(const struct query_event *e, char *out, size_t n);

#endif
