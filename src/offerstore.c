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

/* n bytes of the arena, at an address aligned for any object when
 * `align` (a committed-price array), else wherever; NULL (and *ok = 0)
 * when out of memory. */
static void *arena_take(struct offer_store *s, size_t n, int align, int *ok)
{
	/* repeated values (provider, region, currency) are common in a row:
	 * nothing clever, the arena is cheap */
	enum { ALIGN = sizeof(double) > sizeof(void *) ? sizeof(double) : sizeof(void *) };
	struct arena_block *b = s->blocks;
	size_t at = b ? b->used : 0;
	if (b && align)
		at = (at + ALIGN - 1) / ALIGN * ALIGN;
	if (!b || at > b->size || b->size - at < n) {
		size_t size = n > BLOCK_BYTES ? n : BLOCK_BYTES;
		b = malloc(sizeof *b + size);
		if (!b) {
			*ok = 0;
			return NULL;
		}
		b->size = size;
		b->used = at = 0;
		b->next = s->blocks;
		s->blocks = b;
	}
	b->used = at + n;
	return b->data + at;
}

/* Copy a string into the arena; NULL stays NULL.  *ok = 0 on failure. */
static const char *keep(struct offer_store *s, const char *str, int *ok)
{
	if (!str || !*ok)
		return NULL;
	size_t n = strlen(str) + 1;
	char *p = arena_take(s, n, 0, ok);
	if (p)
		memcpy(p, str, n);
	return p;
}

/* Copy o's committed prices (and their strings) into the arena. */
static const struct offer_commit *keep_commits(struct offer_store *s, const struct offer *o,
					       int *ok)
{
	if (!o->ncommits || !o->commits || !*ok)
		return NULL;
	struct offer_commit *c = arena_take(s, o->ncommits * sizeof *c, 1, ok);
	for (size_t i = 0; c && i < o->ncommits; i++) {
		c[i] = o->commits[i];
		c[i].type = keep(s, o->commits[i].type, ok);
		c[i].origin = keep(s, o->commits[i].origin, ok);
		c[i].as_of = keep(s, o->commits[i].as_of, ok);
	}
	return c;
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
	c.commits = keep_commits(s, o, &ok);
	c.ncommits = c.commits ? o->ncommits : 0;
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

/* What makes an offer: every stored column (offer_cols[]) but where and
 * when it was read (the same offer on two overlapping pages is one). */
static int makes_offer(const struct offer_col *c)
{
	return strcmp(c->name, "origin") != 0 && strcmp(c->name, "fetched_at") != 0 &&
	       strcmp(c->name, "as_of") != 0;
}

/* A column's number for comparing: one NAN, one zero, tri-states too. */
static double col_number(const struct offer *o, const struct offer_col *c)
{
	double v = c->kind == OFFER_TRI ? offer_col_tri(o, c) : offer_col_num(o, c);
	return isnan(v) ? -1e300 : v == 0 ? 0 : v;
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
	unsigned long long h = 14695981039346656037ull;
	for (size_t i = 0; i < offer_ncols; i++) {
		const struct offer_col *c = &offer_cols[i];
		if (!makes_offer(c))
			continue;
		if (c->kind == OFFER_TEXT) {
			const char *t = offer_col_text(o, c);
			h = t ? fnv(h, t, strlen(t) + 1) : fnv(h, "", 0) * 31;
		} else {
			double d = col_number(o, c);
			h = fnv(h, &d, sizeof d);
		}
	}
	return h;
}

static int offer_same(const struct offer *a, const struct offer *b)
{
	for (size_t i = 0; i < offer_ncols; i++) {
		const struct offer_col *c = &offer_cols[i];
		if (!makes_offer(c))
			continue;
		if (c->kind != OFFER_TEXT) {
			if (col_number(a, c) != col_number(b, c))
				return 0;
			continue;
		}
		const char *ta = offer_col_text(a, c), *tb = offer_col_text(b, c);
		if (!ta != !tb || (ta && strcmp(ta, tb) != 0))
			return 0;
	}
	return 1;
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
