/* fuzz_common.h - what the libFuzzer targets (tests/fuzz/fuzz_*.c) share:
 * the embedded catalog and rates, loaded once per process, and the checks
 * every input must pass besides the sanitizers' own.
 *
 * A failed check prints "fuzz: <why>" and aborts, which libFuzzer reports
 * as a crash and saves the input.  The catalog and rates stay reachable
 * from globals until exit, so LeakSanitizer does not count them.
 */
#ifndef GPUCMP_FUZZ_COMMON_H
#define GPUCMP_FUZZ_COMMON_H

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"
#include "gpucmp/catalog.h"
#include "gpucmp/offer.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/rates.h"
#include "gpucmp/strutil.h"

/* The date the targets run on (profiles reject a verified date after it). */
#define FUZZ_TODAY "2026-12-02"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct catalog fuzz_cat;
static struct rate_table fuzz_rates;

static void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fuzz_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

/* Load the embedded catalog (GPU models, instance types, profiles) and
 * the exchange rates; any failure ends the process. */
static inline void fuzz_load_catalog(void)
{
	char *err = NULL;
	if (catalog_load(&fuzz_cat, str_date_days(FUZZ_TODAY), &err) != GC_OK ||
	    rates_load_embedded(&fuzz_rates, &err) != GC_OK)
		fuzz_fail("cannot load the embedded catalog: %s", err ? err : "no message");
}

/* A copy of `len` bytes at `p` in a block of exactly that size (one byte
 * for an empty input), so that a read past the end is caught by ASan. */
static inline char *fuzz_copy(const uint8_t *p, size_t len)
{
	char *c = malloc(len ? len : 1);
	if (!c)
		fuzz_fail("out of memory");
	if (len)
		memcpy(c, p, len);
	return c;
}

/* A failed call must say why (err.h).  (Control characters in a message
 * quoting the network are not checked here: refresh.c replaces them, with
 * the key masked, in the one place every failure goes through.) */
static inline void fuzz_check_err(enum gc_status st, const char *err)
{
	if (st != GC_OK && !err)
		fuzz_fail("status %d without a message", (int)st);
}

/* A text the cache may hold (offer_clean's promise, checked here byte by
 * byte, not with str_field itself): no C0 control, DEL or C1 control
 * (C2 80..C2 9F), at most STR_FIELD_MAX bytes. */
static inline void fuzz_check_text(const char *what, const char *s)
{
	if (!s)
		return;
	const unsigned char *p = (const unsigned char *)s;
	for (; *p; p++)
		if (*p < 0x20 || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0))
			fuzz_fail("%s holds control byte 0x%02x at %zu", what,
				  *p == 0xC2 ? p[1] : *p, (size_t)(p - (const unsigned char *)s));
	if ((size_t)(p - (const unsigned char *)s) > STR_FIELD_MAX)
		fuzz_fail("%s is %zu bytes, over STR_FIELD_MAX", what,
			  (size_t)(p - (const unsigned char *)s));
}

/* What the cache's offer table needs (NOT NULL columns) and what a
 * producer promises (offer.h, adapter_emit, offer_clean): a GPU count,
 * prices that are unknown or within [OFFER_MIN_PRICE_HR,
 * OFFER_MAX_PRICE_HR], text without control characters and not over
 * STR_FIELD_MAX bytes. */
static inline void fuzz_check_offer(const struct offer *o)
{
	const char *text[] = {o->provider, o->sku,    o->gpu,        o->gpu_name,
			      o->region,   o->currency, o->source,   o->origin,
			      o->fetched_at, o->rdma,   o->driver_version, o->max_cuda};
	static const char *const names[] = {"provider", "sku", "gpu", "gpu_name", "region",
					    "currency", "source", "origin", "fetched_at", "rdma",
					    "driver_version", "max_cuda"};
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
		fuzz_check_text(names[i], text[i]);
	const char *need[] = {o->provider, o->sku, o->gpu_name, o->region, o->source,
			      o->fetched_at};
	for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
		if (!need[i])
			fuzz_fail("offer with a NULL text field (#%zu)", i);
	if (!(o->gpu_count > 0) || !isfinite(o->gpu_count))
		fuzz_fail("offer %s with gpu_count %g", o->sku, o->gpu_count);
	if (!isnan(o->price_hr) &&
	    !(o->price_hr >= OFFER_MIN_PRICE_HR && o->price_hr <= OFFER_MAX_PRICE_HR))
		fuzz_fail("offer %s with price_hr %g", o->sku, o->price_hr);
	if (!isnan(o->spot_price_hr) &&
	    !(o->spot_price_hr >= OFFER_MIN_PRICE_HR && o->spot_price_hr <= OFFER_MAX_PRICE_HR))
		fuzz_fail("offer %s with spot_price_hr %g", o->sku, o->spot_price_hr);
	if (isnan(o->price_hr) && isnan(o->spot_price_hr) && isnan(o->price_native) &&
	    isnan(o->spot_native))
		fuzz_fail("offer %s without any price", o->sku);
}

/* An offer_cb: check the offer, then copy it (and so read every string)
 * into the store passed as ctx, as a refresh or an import does. */
static inline enum gc_status fuzz_offer_cb_common(void *ctx, const struct offer *o,
						  char **err)
{
	fuzz_check_offer(o);
	return offer_store_cb(ctx, o, err);
}

#endif
