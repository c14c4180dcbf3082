/* pipe.c - produce offers on a second thread, consume them on this one. */
#include "gpucmp/pipe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/offerstore.h"

enum { CHUNK_OFFERS = 4096, QUEUE_CHUNKS = 4 };

struct pipe {
	pthread_mutex_t mu;
	pthread_cond_t changed;
	struct offer_store *queue[QUEUE_CHUNKS]; /* ring of full chunks */
	size_t head, count;
	int producer_done;
	int stop;                  /* the consumer failed: the producer gives up */
	enum gc_status produce_status;
	char *produce_err;
	struct offer_store *chunk; /* being filled by the producer */
	pipe_produce_fn produce;
	void *arg;
};

static void free_chunk(struct offer_store *c)
{
	if (c) {
		offer_store_free(c);
		free(c);
	}
}

/* Producer side: hand the full chunk over, waiting while the queue is full. */
static enum gc_status push_chunk(struct pipe *p)
{
	pthread_mutex_lock(&p->mu);
	while (p->count == QUEUE_CHUNKS && !p->stop)
		pthread_cond_wait(&p->changed, &p->mu);
	int stop = p->stop;
	if (!stop) {
		p->queue[(p->head + p->count) % QUEUE_CHUNKS] = p->chunk;
		p->count++;
		p->chunk = NULL;
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->mu);
	return stop ? GC_ETEMPFAIL : GC_OK;
}

static enum gc_status on_offer(void *ctx, const struct offer *o, char **err)
{
	struct pipe *p = ctx;
	if (!p->chunk) {
		p->chunk = malloc(sizeof *p->chunk);
		if (!p->chunk)
			return err_set(err, GC_ENOMEM, "out of memory");
		offer_store_init(p->chunk);
	}
	if (offer_store_add(p->chunk, o) != GC_OK)
		return err_set(err, GC_ENOMEM, "out of memory");
	if (p->chunk->n < CHUNK_OFFERS)
		return GC_OK;
	enum gc_status st = push_chunk(p);
	return st == GC_OK ? GC_OK : err_set(err, st, "stopped by the consumer");
}

static void *producer(void *arg)
{
	struct pipe *p = arg;
	char *err = NULL;
	enum gc_status st = p->produce(p->arg, on_offer, p, &err);
	if (st == GC_OK && p->chunk && p->chunk->n)
		st = push_chunk(p);
	pthread_mutex_lock(&p->mu);
	free_chunk(p->chunk);
	p->chunk = NULL;
	p->produce_status = st;
	p->produce_err = err;
	p->producer_done = 1;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

enum gc_status pipe_run(pipe_produce_fn produce, void *arg, offer_cb consume,
			void *consume_ctx, char **err)
{
	struct pipe p;
	memset(&p, 0, sizeof p);
	p.produce = produce;
	p.arg = arg;
	if (pthread_mutex_init(&p.mu, NULL) != 0)
		return produce(arg, consume, consume_ctx, err);
	if (pthread_cond_init(&p.changed, NULL) != 0) {
		pthread_mutex_destroy(&p.mu);
		return produce(arg, consume, consume_ctx, err);
	}
	pthread_t th;
	if (pthread_create(&th, NULL, producer, &p) != 0) {
		pthread_cond_destroy(&p.changed);
		pthread_mutex_destroy(&p.mu);
		return produce(arg, consume, consume_ctx, err);
	}
	enum gc_status st = GC_OK;
	for (;;) {
		pthread_mutex_lock(&p.mu);
		while (p.count == 0 && !p.producer_done)
			pthread_cond_wait(&p.changed, &p.mu);
		struct offer_store *c = NULL;
		if (p.count) {
			c = p.queue[p.head];
			p.head = (p.head + 1) % QUEUE_CHUNKS;
			p.count--;
			pthread_cond_broadcast(&p.changed);
		}
		pthread_mutex_unlock(&p.mu);
		if (!c)
			break; /* the producer is done and the queue is empty */
		for (size_t i = 0; st == GC_OK && i < c->n; i++)
			st = consume(consume_ctx, &c->items[i], err);
		free_chunk(c);
		if (st != GC_OK) {
			pthread_mutex_lock(&p.mu);
			p.stop = 1;
			pthread_cond_broadcast(&p.changed);
			pthread_mutex_unlock(&p.mu);
			break;
		}
	}
	pthread_join(th, NULL);
	/* chunks left in the queue after a consumer failure */
	while (p.count) {
		free_chunk(p.queue[p.head]);
		p.head = (p.head + 1) % QUEUE_CHUNKS;
		p.count--;
	}
	if (st == GC_OK && p.produce_status != GC_OK) {
		st = p.produce_status;
		if (err) {
			free(*err);
			*err = p.produce_err;
			p.produce_err = NULL;
		}
	}
	free(p.produce_err);
	pthread_cond_destroy(&p.changed);
	pthread_mutex_destroy(&p.mu);
	return st;
}
