/* fuzz_skypilot.c - libFuzzer target for the SkyPilot catalog reader
 * (skypilot_parse, as `import` and tools/mksnapshot.c call it).
 *
 * The input is a provider byte, then the vms.csv text:
 *
 *   <provider> <csv>
 *
 * the byte picking the provider id given to the offers (it decides which
 * instance types are looked up) from the clouds of tests/fixtures/skypilot
 * and "".  Every offer must be one the cache accepts (fuzz_common.h: no
 * control byte, C1 included, in any text, none over STR_FIELD_MAX bytes,
 * prices within the bounds of offer.h), and the stats must add up.  A NUL
 * byte anywhere in the CSV must fail the parse (never cut a field short
 * in silence).  Seeds (seeds.sh) include the recorded catalogs with NUL,
 * C1, ESC and over-long fields planted in them.
 */
#include "fuzz_common.h"
#include "gpucmp/skypilot.h"

static const char *const providers[] = {"azure", "gcp", "lambda", "vast", "verda", ""};
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
	struct skypilot_opts opts = {providers[data[0] % NPROVIDERS], fuzz_cat.gpus, fuzz_cat.types,
				     "import", "fuzz/vms.csv", "2026-01-01T00:00:00Z", NULL};
	struct skypilot_stats stats;
	struct offer_store store;
	char *err = NULL;
	char *csv = fuzz_copy(data + 1, size - 1);
	memset(&stats, 0, sizeof stats);
	offer_store_init(&store);
	enum gc_status st =
		skypilot_parse(csv, size - 1, &opts, check_offer_cb, &store, &stats, &err);
	fuzz_check_err(st, err);
	if (st == GC_OK && stats.offers != store.n)
		fuzz_fail("%zu offers stored, %zu counted", store.n, stats.offers);
	if (st == GC_OK && memchr(csv, '\0', size - 1))
		fuzz_fail("a CSV with a NUL byte parsed without an error");
	if (stats.bad_price > stats.no_price || stats.cleaned > stats.offers)
		fuzz_fail("stats do not add up: %zu bad of %zu without a price, %zu cleaned of %zu",
			  stats.bad_price, stats.no_price, stats.cleaned, stats.offers);
	free(err);
	free(csv);
	offer_store_free(&store);
	return 0;
}
