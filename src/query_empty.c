/* query_empty.c - when a query matches nothing, which of its filters took
 * the count to zero, and the count just before it. */
#include "gpucmp/query.h"

#include <math.h>
#include <stdio.h>

#include "gpucmp/cache.h"

/* The filters in the order query.c's filters() joins them: step k set in
 * q, and q's filter k copied into t. */
enum { S_GPU, S_PROVIDER, S_REGION, S_GPUS, S_VRAM, S_SPOT, S_PRICE, S_CAPS };
#define S_CUDA (S_CAPS + QC_COUNT)
#define S_WHERE (S_CUDA + 1)
#define S_COUNT (S_WHERE + 1)

static int step_set(const struct query *q, int k)
{
	switch (k) {
	case S_GPU: return q->ngpus > 0;
	case S_PROVIDER: return q->nproviders > 0;
	case S_REGION: return q->region_glob != NULL;
	case S_GPUS: return !isnan(q->min_gpus) || !isnan(q->max_gpus);
	case S_VRAM: return !isnan(q->min_vram);
	case S_SPOT: return q->spot;
	case S_PRICE: return !isnan(q->max_price);
	case S_CUDA: return q->cuda_num > 0;
	case S_WHERE: return q->where != NULL;
	default: return (q->caps >> (k - S_CAPS)) & 1u;
	}
}

/* t holds none of q's filters from step k on. */
static void step_clear(struct query *t, int k)
{
	switch (k) {
	case S_GPU: t->ngpus = 0; break;
	case S_PROVIDER: t->nproviders = 0; break;
	case S_REGION: t->region_glob = NULL; break;
	case S_GPUS: t->min_gpus = t->max_gpus = NAN; break;
	case S_VRAM: t->min_vram = NAN; break;
	case S_SPOT: t->spot = 0; break;
	case S_PRICE: t->max_price = NAN; break;
	case S_CUDA: t->cuda_num = 0; break;
	case S_WHERE: t->where = NULL; break;
	default: t->caps &= ~(1u << (k - S_CAPS)); break;
	}
}

static void step_name(int k, char *out, size_t size)
{
	static const char *const names[] = {"--gpu", "--provider", "--region", "--gpus",
					    "--vram", "--spot", "--max-price"};
	if (k < S_CAPS) {
		snprintf(out, size, "%s", names[k]);
	} else if (k == S_CUDA) {
		snprintf(out, size, "--cuda");
	} else if (k == S_WHERE) {
		snprintf(out, size, "--where");
	} else {
		const struct query_cap_def *d = &query_caps[k - S_CAPS];
		snprintf(out, size, "--%s%s%s", d->option, d->value ? " " : "",
			 d->value ? d->value : "");
	}
}

enum gc_status query_empty_reason(struct cache *c, const struct query *q,
				  struct query_empty *out, char **err)
{
	*out = (struct query_empty){{0}, {0}, -1};
	struct query t = *q;
	for (int k = 0; k < S_COUNT; k++)
		step_clear(&t, k);
	struct query_counts n;
	enum gc_status st = query_count(c, &t, 0, &n, err);
	long long before = n.offers;
	size_t o = 0;
	for (int k = 0; st == GC_OK && before > 0 && k < S_COUNT; k++) {
		if (!step_set(q, k))
			continue;
		t = *q;
		for (int later = k + 1; later < S_COUNT; later++)
			step_clear(&t, later);
		if ((st = query_count(c, &t, 0, &n, err)) != GC_OK)
			break;
		if (n.offers == 0) {
			step_name(k, out->filter, sizeof out->filter);
			out->before = before;
			return GC_OK;
		}
		char name[48];
		step_name(k, name, sizeof name);
		size_t room = sizeof out->after - o;
		int w = snprintf(out->after + o, room, "%s%s", o ? ", " : "", name);
		if (w > 0 && (size_t)w < room)
			o += (size_t)w;
		before = n.offers;
	}
	if (st == GC_OK && before == 0) /* the cache holds no offer at all */
		out->before = 0;
	return st;
}
