/* offerstore.h - an owning list of offers.
 *
 * Producers hand struct offer values with borrowed strings to callbacks;
 * when offers must outlive the call (a refresh collects a provider's whole
 * crawl before one transaction writes it) they are copied here.  Strings
 * live in an arena freed with the store.
 */
#ifndef GPUCMP_OFFERSTORE_H
#define GPUCMP_OFFERSTORE_H

#include <stddef.h>

#include "gpucmp/offer.h"

struct arena_block;

struct offer_store {
	struct offer *items;
	size_t n, cap;
	struct arena_block *blocks;
};

void offer_store_init(struct offer_store *s);
void offer_store_free(struct offer_store *s);

/* Copy `o` (and its strings) into the store.  GC_ENOMEM on failure. */
enum gc_status offer_store_add(struct offer_store *s, const struct offer *o);

/* An offer_cb that adds to the store passed as ctx. */
enum gc_status offer_store_cb(void *ctx, const struct offer *o, char **err);

/* Drop every offer identical (every text and number) to an earlier one,
 * keeping the first of each in its place and the order of the rest;
 * returns how many were dropped.  Offers that differ in anything, even
 * with the same sku and region (a marketplace's machines), all stay. */
size_t offer_store_dedupe(struct offer_store *s);

/* A cache_fill_fn: feeds every stored offer to cb. */
enum gc_status offer_store_fill(void *store, offer_cb cb, void *cb_ctx, char **err);

#endif
