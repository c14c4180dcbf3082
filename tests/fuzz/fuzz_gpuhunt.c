/* fuzz_gpuhunt.c - libFuzzer target for the gpuhunt catalog CSV reader:
 * the stream reader refresh runs on a zip member (gpuhunt_parse_stream,
 * csv_init_stream), against the reader of the same bytes in memory
 * (gpuhunt_parse).
 *
 * The input is a control byte, then the CSV text:
 *
 *   <control> <csv>
 *
 * the byte picking the provider id given to the offers (its value modulo
 * the providers below: gpuhunt's offline providers and "") and the sizes
 * of the pieces the stream hands out (each read 1 to 16 bytes, or 1 to
 * 4096 when its top bit is set, drawn from it), so that every record
 * boundary, CRLF, doubled quote and byte-order mark falls between two
 * reads.  The reader keeps at most 256 GPU rows (the offer cap, counted as
 * rows are read).  Checks: every offer is one the cache accepts
 * (fuzz_common.h), the stats add up, a NUL byte anywhere in the CSV fails
 * the parse, and the stream and memory readers agree: the same status, the
 * same offers in the same order, the same stats.  Seeds:
 * tests/fixtures/catalogs/gpuhunt/ (tests/fuzz/seeds.sh).
 */
#include "fuzz_common.h"
#include "gpucmp/hosted.h"

static const char *const providers[] = {"aws", "azure", "gcp", "lambda", "nebius",
					"oci", "runpod", "verda", ""};
enum { NPROVIDERS = sizeof providers / sizeof providers[0], FUZZ_MAX_ROWS = 256 };

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

/* The input handed out in pieces of pseudo-random sizes. */
struct pieces {
	const char *p;
	size_t left;
	uint32_t state;
	size_t most;
};

static long pieces_read(void *ctx, char *buf, size_t n, char **err)
{
	(void)err;
	struct pieces *c = ctx;
	c->state = c->state * 1103515245u + 12345u;
	size_t k = 1 + (c->state >> 16) % c->most;
	k = k < c->left ? k : c->left;
	k = k < n ? k : n;
	memcpy(buf, c->p, k);
	c->p += k;
	c->left -= k;
	return (long)k;
}

static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_num(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* The stream reader's offers and stats against the memory reader's. */
static void check_same(const struct offer_store *m, const struct gpuhunt_stats *ms,
		       const struct offer_store *s, const struct gpuhunt_stats *ss)
{
	if (m->n != s->n)
		fuzz_fail("%zu offers from memory, %zu from the stream", m->n, s->n);
	for (size_t i = 0; i < m->n; i++) {
		const struct offer *a = &m->items[i], *b = &s->items[i];
		if (!same_text(a->sku, b->sku) || !same_text(a->region, b->region) ||
		    !same_text(a->gpu_name, b->gpu_name) || !same_text(a->gpu, b->gpu) ||
		    !same_num(a->price_hr, b->price_hr) ||
		    !same_num(a->spot_price_hr, b->spot_price_hr) ||
		    !same_num(a->gpu_count, b->gpu_count) || !same_num(a->vcpus, b->vcpus))
			fuzz_fail("offer %zu differs: memory %s/%s, stream %s/%s", i, a->sku,
				  a->region, b->sku, b->region);
	}
	if (memcmp(ms, ss, sizeof *ms) != 0)
		fuzz_fail("stats differ: memory %zu rows %zu offers, stream %zu rows %zu offers",
			  ms->rows, ms->offers, ss->rows, ss->offers);
}

static void check_stats(const struct gpuhunt_stats *s)
{
	if (s->cleaned > s->offers || s->offers + s->no_price > s->rows)
		fuzz_fail(
			"stats do not add up: %zu rows, %zu offers, %zu without a price, %zu "
			"cleaned",
			s->rows, s->offers, s->no_price, s->cleaned);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct gpuhunt_opts opts = {providers[data[0] % NPROVIDERS], fuzz_cat.gpus, fuzz_cat.types,
				    "catalog", "fuzz/catalog.zip", "2026-01-01T00:00:00Z",
				    "2025-12-31T00:00:00Z", FUZZ_MAX_ROWS, 0};
	struct gpuhunt_stats ms, ss;
	struct offer_store mem, str;
	char *merr = NULL, *serr = NULL;
	char *csv = fuzz_copy(data + 1, size - 1);
	offer_store_init(&mem);
	offer_store_init(&str);
	enum gc_status mst =
		gpuhunt_parse(csv, size - 1, &opts, check_offer_cb, &mem, &ms, &merr);
	fuzz_check_err(mst, merr);
	struct pieces in = {csv, size - 1, data[0], data[0] & 0x80 ? 4096 : 16};
	enum gc_status sst =
		gpuhunt_parse_stream(pieces_read, &in, &opts, check_offer_cb, &str, &ss, &serr);
	fuzz_check_err(sst, serr);
	if (mst != sst)
		fuzz_fail("status %d from memory (%s), %d from the stream (%s)", (int)mst,
			  merr ? merr : "", (int)sst, serr ? serr : "");
	if (mst == GC_OK) {
		if (ms.offers != mem.n)
			fuzz_fail("%zu offers stored, %zu counted", mem.n, ms.offers);
		if (memchr(csv, '\0', size - 1))
			fuzz_fail("a CSV with a NUL byte parsed without an error");
		check_same(&mem, &ms, &str, &ss);
	}
	check_stats(&ms);
	check_stats(&ss);
	free(merr);
	free(serr);
	free(csv);
	offer_store_free(&mem);
	offer_store_free(&str);
	return 0;
}
