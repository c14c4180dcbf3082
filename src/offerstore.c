/* offerstore.c - an owning list of offers, strings in an arena. */
#include "gpucmp/offerstore.h"

#include <stdlib.h>
#include <string.h>

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
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct offer *grown = realloc(s->items, cap * sizeof *grown);
		if (!grown)
			return GC_ENOMEM;
		s->items = grown;
		s->cap = cap;
	}
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
