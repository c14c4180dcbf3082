/* genhistory - simulate refreshes of N offers into a cache, for the price
 * history benchmark (bench/history.sh).
 *
 * usage: gpucmp-genhistory CACHE N REFRESHES PER_DAY CHANGE_PERMILLE [START]
 *
 * N offers spread over the real provider profiles and GPU models, stored
 * through cache_store per provider as a refresh stores them; then
 * REFRESHES more loads, PER_DAY a day from START (RFC 3339, default
 * 2026-09-01T00:00:00Z), each changing the price of CHANGE_PERMILLE per
 * mille of the offers (up or down by up to 10%), and taking one offer in a
 * thousand away or bringing it back.  Prints one line per simulated day:
 * the day, the events so far and the seconds its loads took.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"
#include "synth.h"

struct sim {
	const struct catalog *cat;
	long n;
	double *price;  /* per offer; its sign: < 0 absent */
	size_t nprov;
	size_t prov;    /* the provider being loaded */
	char at[32];
};


static enum gc_status fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct sim *s = arg;
	size_t ngpu = gpu_table_count(s->cat->gpus);
	char sku[64];
	for (long i = (long)s->prov; i < s->n; i += (long)s->nprov) {
		if (s->price[i] < 0)
			continue;
		unsigned long long h = synth_mix((unsigned long long)i);
		const struct gpu_model *m = gpu_table_at(s->cat->gpus, h % ngpu);
		struct offer o;
		offer_init(&o);
		o.provider = s->cat->profiles.items[s->prov]->id;
		o.gpu = m->id;
		o.gpu_name = m->name;
		o.gpu_count = synth_counts[(h >> 16) % 6];
		o.gpu_mem_gb = m->memory_gb;
		o.region = synth_regions[(h >> 24) % 8];
		o.price_hr = s->price[i];
		o.available = 1;
		snprintf(sku, sizeof sku, "%s-%gx-%ld", m->id, o.gpu_count, i);
		o.sku = sku;
		o.source = "live";
		o.fetched_at = s->at;
		enum gc_status st = cb(ctx, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

/* One refresh of every provider at s->at. */
static int refresh_all(struct cache *c, struct sim *s)
{
	struct cache_meta m = {"live", s->at, NULL, NULL, NULL, 0, 0};
	char *err = NULL;
	for (s->prov = 0; s->prov < s->nprov; s->prov++) {
		if (cache_store(c, s->cat->profiles.items[s->prov]->id, &m, fill, s, NULL, &err) !=
		    GC_OK) {
			fprintf(stderr, "genhistory: %s\n", err ? err : "store");
			free(err);
			return 74;
		}
	}
	return 0;
}

/* What changes between two refreshes. */
static void churn(struct sim *s, long permille, unsigned long long *seed)
{
	long changes = s->n * permille / 1000;
	for (long k = 0; k < changes; k++) {
		long i = (long)(synth_mix(++*seed) % (unsigned long long)s->n);
		double f = 0.9 + (double)(synth_mix(++*seed) % 2001) / 10000.0;
		if (s->price[i] > 0)
			s->price[i] = round(s->price[i] * f * 1000) / 1000;
	}
	for (long k = 0; k < s->n / 1000; k++) {
		long i = (long)(synth_mix(++*seed) % (unsigned long long)s->n);
		s->price[i] = -s->price[i];
	}
}

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int simulate(struct cache *c, struct sim *s, long refreshes, long per_day,
		    long permille, long long start)
{
	unsigned long long seed = 7;
	double t0 = seconds();
	int rc = 0;
	for (long r = 0; r <= refreshes && !rc; r++) {
		str_time_format(start + r * 86400LL / per_day, s->at, sizeof s->at);
		if (r)
			churn(s, permille, &seed);
		rc = refresh_all(c, s);
		if (!rc && r && r % per_day == 0) {
			sqlite3_stmt *q;
			long long ev = -1;
			if (sqlite3_prepare_v2(cache_db(c), "SELECT count(*) FROM history", -1, &q,
					       NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
				ev = sqlite3_column_int64(q, 0);
			sqlite3_finalize(q);
			printf("day %ld events %lld seconds %.1f\n", r / per_day, ev,
			       seconds() - t0);
			fflush(stdout);
			t0 = seconds();
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	long n, refreshes, per_day, permille;
	if (argc < 6 || argc > 7 || str_to_long(argv[2], &n) || n < 1 ||
	    str_to_long(argv[3], &refreshes) || refreshes < 0 ||
	    str_to_long(argv[4], &per_day) || per_day < 1 ||
	    str_to_long(argv[5], &permille) || permille < 0 || permille > 1000) {
		fprintf(stderr, "usage: gpucmp-genhistory CACHE N REFRESHES PER_DAY "
				"CHANGE_PERMILLE [START]\n");
		return 64;
	}
	long long start = str_time_epoch(argc > 6 ? argv[6] : "2026-09-01T00:00:00Z");
	struct catalog cat;
	struct cache *c = NULL;
	struct cache_open_info info = {0};
	char *err = NULL;
	int rc = 74;
	struct sim s = {&cat, n, calloc((size_t)n, sizeof(double)), 0, 0, ""};
	if (catalog_load(&cat, catalog_today(), &err) != GC_OK) {
		fprintf(stderr, "genhistory: %s\n", err ? err : "catalog");
		free(err);
		free(s.price);
		return 65;
	}
	s.nprov = cat.profiles.n;
	for (long i = 0; s.price && i < n; i++)
		s.price[i] = round((0.1 + (double)(synth_mix((unsigned long long)i + 99) % 400000) /
						  10000.0) * 1000) / 1000;
	if (s.price && start >= 0 && cache_open(&c, argv[1], &cat, &info, &err) == GC_OK) {
		cache_set_guard(c, 1, 0);
		/* GENHISTORY_OFF=1: the same loads without the history, for the cost */
		if (getenv("GENHISTORY_OFF"))
			cache_set_history(c, 0);
		rc = simulate(c, &s, refreshes, per_day, permille, start);
	} else {
		fprintf(stderr, "genhistory: %s\n", err ? err : "cannot start");
	}
	cache_open_info_release(&info);
	cache_close(c);
	catalog_release(&cat);
	free(s.price);
	free(err);
	return rc;
}
