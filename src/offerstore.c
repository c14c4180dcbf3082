/* offerstore.c - an owning list of offers, strings in an arena. */
#include "gpucmp/offerstore.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/buf.h"

enum { BLOCK_BYTES = 64 * 1024 };

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	char data[];
};

void offer_store_init(struct offer_store *s)
{
	memset(s, 0, sizeof *s);
}

void offer_store_free(struct offer_store *s)
{
	while (s->blocks) {
		struct arena_block *b = s->blocks;
		s->blocks = b->next;
		free(b);
	}
	free(s->items);
	memset(s, 0, sizeof *s);
}

/* Copy a string into the arena; NULL stays NULL.  *ok = 0 on failure. */
static const char *keep(struct offer_store *s, const char *str, int *ok)
{
	if (!str || !*ok)
		return NULL;
	/* repeated values (provider, region, currency) are common in a row:
	 * nothing clever, the arena is cheap */
	size_t n = strlen(str) + 1;
	struct arena_block *b = s->blocks;
	if (!b || b->size - b->used < n) {
		size_t size = n > BLOCK_BYTES ? n : BLOCK_BYTES;
		b = malloc(sizeof *b + size);
		if (!b) {
			*ok = 0;
			return NULL;
		}
		b->size = size;
		b->used = 0;
		b->next = s->blocks;
		s->blocks = b;
	}
	char *p = b->data + b->used;
	memcpy(p, str, n);
	b->used += n;
	return p;
}

enum gc_status offer_store_add(struct offer_store *s, const struct offer *o)
{
	if (buf_grow_array(&s->items, &s->cap, s->n, sizeof *s->items, 64))
		return GC_ENOMEM;
	struct offer c = *o;
	int ok = 1;
	c.provider = keep(s, o->provider, &ok);
	c.sku = keep(s, o->sku, &ok);
	c.gpu = keep(s, o->gpu, &ok);
	c.gpu_name = keep(s, o->gpu_name, &ok);
	c.region = keep(s, o->region, &ok);
	c.currency = keep(s, o->currency, &ok);
	c.source = keep(s, o->source, &ok);
	c.origin = keep(s, o->origin, &ok);
	c.fetched_at = keep(s, o->fetched_at, &ok);
	c.rdma = keep(s, o->rdma, &ok);
	c.driver_version = keep(s, o->driver_version, &ok);
	c.max_cuda = keep(s, o->max_cuda, &ok);
	c.as_of = keep(s, o->as_of, &ok);
	c.price_kind = keep(s, o->price_kind, &ok);
	if (!ok)
		return GC_ENOMEM;
	s->items[s->n++] = c;
	return GC_OK;
}

enum gc_status offer_store_cb(void *ctx, const struct offer *o, char **err)
{
	if (offer_store_add(ctx, o) != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

enum gc_status offer_store_fill(void *store, offer_cb cb, void *cb_ctx, char **err)
{
	struct offer_store *s = store;
	for (size_t i = 0; i < s->n; i++) {
		enum gc_status st = cb(cb_ctx, &s->items[i], err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

/* --- duplicates ------------------------------------------------------------ */

/* What makes an offer: every field but where and when it was read (the
 * same offer on two overlapping pages is one offer). */
enum { NTEXTS = 10, NNUMBERS = 13 };

static void offer_texts(const struct offer *o, const char *t[NTEXTS])
{
	t[0] = o->provider, t[1] = o->sku, t[2] = o->gpu, t[3] = o->gpu_name;
	t[4] = o->region, t[5] = o->currency, t[6] = o->source, t[7] = o->rdma;
	t[8] = o->driver_version, t[9] = o->max_cuda;
}

static void offer_numbers(const struct offer *o, double d[NNUMBERS])
{
	const double v[NNUMBERS] = {o->gpu_count,     o->gpu_mem_gb,   o->vcpus,
				    o->ram_gb,        o->disk_gb,      o->price_hr,
				    o->spot_price_hr, o->price_native, o->spot_native,
				    o->node_bandwidth_gbps, o->available, o->infiniband,
				    o->nvlink};
	for (int i = 0; i < NNUMBERS; i++)
		d[i] = isnan(v[i]) ? -1e300 : v[i] == 0 ? 0 : v[i]; /* one NAN, one zero */
}

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static unsigned long long offer_hash(const struct offer *o)
{
	const char *t[NTEXTS];
	double d[NNUMBERS];
	unsigned long long h = 14695981039346656037ull;
	offer_texts(o, t);
	for (int i = 0; i < NTEXTS; i++)
		h = t[i] ? fnv(h, t[i], strlen(t[i]) + 1) : fnv(h, "", 0) * 31;
	offer_numbers(o, d);
	return fnv(h, d, sizeof d);
}

static int offer_same(const struct offer *a, const struct offer *b)
{
	const char *ta[NTEXTS], *tb[NTEXTS];
	double da[NNUMBERS], db[NNUMBERS];
	offer_texts(a, ta);
	offer_texts(b, tb);
	for (int i = 0; i < NTEXTS; i++)
		if (!ta[i] != !tb[i] || (ta[i] && strcmp(ta[i], tb[i]) != 0))
			return 0;
	offer_numbers(a, da);
	offer_numbers(b, db);
	return memcmp(da, db, sizeof da) == 0;
}

size_t offer_store_dedupe(struct offer_store *s)
{
	size_t size = 16;
	while (size < 2 * s->n)
		size *= 2;
	size_t *slot = calloc(size, sizeof *slot); /* index + 1 of a kept offer */
	if (!slot)
		return 0; /* duplicates stay: harmless, and nothing is lost */
	size_t kept = 0;
	for (size_t i = 0; i < s->n; i++) {
		size_t k = (size_t)offer_hash(&s->items[i]) & (size - 1);
		int dup = 0;
		for (; slot[k]; k = (k + 1) & (size - 1))
			if (offer_same(&s->items[slot[k] - 1], &s->items[i])) {
				dup = 1;
				break;
			}
		if (dup)
			continue;
		s->items[kept] = s->items[i];
		slot[k] = ++kept;
	}
	free(slot);
	size_t dropped = s->n - kept;
	s->n = kept;
	return dropped;
}
