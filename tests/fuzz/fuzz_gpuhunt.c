/* fuzz_gpuhunt.c - libFuzzer target for the gpuhunt catalog CSV reader
 * (gpuhunt_parse, as the hosted catalog tier calls it on <provider>.csv).
 *
 * The input is a provider byte, then the CSV text:
 *
 *   <provider> <csv>
 *
 * the byte picking the provider id given to the offers from gpuhunt's
 * offline providers and "".  Every offer must be one the cache accepts
 * (fuzz_common.h), the stats must add up, and a NUL byte anywhere in the
 * CSV must fail the parse.  Seeds: tests/fixtures/catalogs/gpuhunt/.
 */
#include "fuzz_common.h"
#include "gpucmp/hosted.h"

static const char *const providers[] = {"aws", "azure", "gcp", "lambda", "nebius",
					"oci", "runpod", "verda", ""};
enum { NPROVIDERS = sizeof providers / sizeof providers[0] };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_load_catalog();
	return 0;
}

static enum gc_status check_offer_cb(void *ctx, const struct offer *o, char **err)
{
	return fuzz_offer_cb_common(ctx, o, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct gpuhunt_opts opts = {providers[data[0] % NPROVIDERS], fuzz_cat.gpus, fuzz_cat.types,
				    "catalog", "fuzz/catalog.zip", "2026-01-01T00:00:00Z",
				    "2025-12-31T00:00:00Z"};
	struct gpuhunt_stats stats;
	struct offer_store store;
	char *err = NULL;
	char *csv = fuzz_copy(data + 1, size - 1);
	memset(&stats, 0, sizeof stats);
	offer_store_init(&store);
	enum gc_status st =
		gpuhunt_parse(csv, size - 1, &opts, check_offer_cb, &store, &stats, &err);
	fuzz_check_err(st, err);
	if (st == GC_OK && stats.offers != store.n)
		fuzz_fail("%zu offers stored, %zu counted", store.n, stats.offers);
	if (st == GC_OK && memchr(csv, '\0', size - 1))
		fuzz_fail("a CSV with a NUL byte parsed without an error");
	if (stats.cleaned > stats.offers || stats.offers + stats.no_price > stats.rows)
		fuzz_fail(
			"stats do not add up: %zu rows, %zu offers, %zu without a price, %zu "
			"cleaned",
			stats.rows, stats.offers, stats.no_price, stats.cleaned);
	free(err);
	free(csv);
	offer_store_free(&store);
	return 0;
}
