/* genoffers - fill a cache with N synthetic offers for benchmarks.
 *
 * usage: gpucmp-genoffers CACHE N
 *
 * Offers are spread over the real provider profiles and GPU models (so the
 * capability joins do real work) with deterministic pseudo-random prices,
 * counts and regions; source "live".  The file is created like gpucmp
 * creates it (schema, catalog tables, snapshot) and then each provider's
 * offers are replaced in one transaction with its refresh record, as a
 * refresh does (cache_store), so that `gpucmp export` sees them.
 * GENOFFERS_FETCHED_AT (RFC 3339) sets when they were fetched (default
 * 2026-12-01T00:00:00Z): an older or newer team snapshot (tests/team).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"
#include "synth.h"

struct gen {
	const char *fetched_at;
	const struct catalog *cat;
	const char *provider;
	long count;
	unsigned long long seed;
};

/* splitmix64's next value of stream *s */
static unsigned long long next(unsigned long long *s)
{
	unsigned long long z = synth_mix(*s);
	*s += 0x9e3779b97f4a7c15ULL;
	return z;
}

static enum gc_status fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct gen *g = arg;
	size_t ngpu = gpu_table_count(g->cat->gpus);
	char sku[64];
	for (long i = 0; i < g->count; i++) {
		const struct gpu_model *m = gpu_table_at(g->cat->gpus, next(&g->seed) % ngpu);
		struct offer o;
		offer_init(&o);
		o.provider = g->provider;
		o.gpu = m->id;
		o.gpu_name = m->name;
		o.gpu_count = synth_counts[next(&g->seed) % 6];
		o.gpu_mem_gb = m->memory_gb;
		o.vcpus = 8 * o.gpu_count;
		o.ram_gb = 64 * o.gpu_count;
		o.region = synth_regions[next(&g->seed) % 8];
		o.price_hr = round((0.1 + (double)(next(&g->seed) % 400000) / 10000.0) * o.gpu_count * 1000) / 1000;
		if (next(&g->seed) % 3 == 0)
			o.spot_price_hr = round(o.price_hr * 600) / 1000;
		o.available = (int)(next(&g->seed) % 3) - 1;
		snprintf(sku, sizeof sku, "%s-%gx-%ld", m->id, o.gpu_count, i);
		o.sku = sku;
		o.source = "live";
		o.origin = "bench/genoffers";
		o.fetched_at = g->fetched_at;
		enum gc_status st = cb(ctx, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

int main(int argc, char **argv)
{
	long n;
	if (argc != 3 || str_to_long(argv[2], &n) != 0 || n < 0) {
		fprintf(stderr, "usage: gpucmp-genoffers CACHE N\n");
		return 64;
	}
	struct catalog cat;
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	int rc = 0;
	if (catalog_load(&cat, catalog_today(), &err) != GC_OK) {
		fprintf(stderr, "genoffers: %s\n", err ? err : "catalog");
		free(err);
		return 65;
	}
	if (cache_open(&c, argv[1], &cat, &info, &err) != GC_OK) {
		fprintf(stderr, "genoffers: %s\n", err ? err : "cache");
		rc = 74;
		goto out;
	}
	size_t np = cat.profiles.n;
	const char *at = getenv("GENOFFERS_FETCHED_AT");
	at = at && *at ? at : "2026-12-01T00:00:00Z";
	struct cache_meta meta = {"live", at, NULL, NULL, NULL, 0, 0};
	cache_set_guard(c, 1, 0);
	for (size_t p = 0; p < np && !rc; p++) {
		struct gen g = {at, &cat, cat.profiles.items[p]->id,
				n / (long)np + ((long)p < n % (long)np), 42 + p};
		size_t inserted;
		cache_expect_rows(c, (size_t)g.count);
		if (cache_store(c, g.provider, &meta, fill, &g, &inserted, &err) != GC_OK) {
			fprintf(stderr, "genoffers: %s\n", err ? err : "insert");
			rc = 74;
		}
	}
	sqlite3_exec(cache_db(c), "ANALYZE", NULL, NULL, NULL);
out:
	cache_open_info_release(&info);
	cache_close(c);
	catalog_release(&cat);
	free(err);
	return rc;
}
