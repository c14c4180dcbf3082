/* pipe.h - produce offers on a second thread, consume them on this one.
 *
 * A large import spends about as long parsing the catalog as SQLite spends
 * inserting it; on two cores the two can overlap.  The producer's offers
 * are copied into chunks (struct offer_store) and handed over through a
 * small bounded queue, so memory stays flat however large the input.  The
 * producer must touch nothing the consumer does (the catalog tables it
 * reads are read-only).
 */
#ifndef GPUCMP_PIPE_H
#define GPUCMP_PIPE_H

#include "gpucmp/err.h"
#include "gpucmp/offer.h"

/* A producer feeds offers to cb (the pipe's) and returns its status. */
typedef enum gc_status (*pipe_produce_fn)(void *arg, offer_cb cb, void *cb_ctx, char **err);

/* Run produce(arg, ...) on a new thread and call consume(consume_ctx, offer)
 * here for each offer, in order.  The first failure on either side stops
 * both; its status and message are returned.  Without a second thread
 * (pthread_create fails) everything runs here. */
enum gc_status pipe_run(pipe_produce_fn produce, void *arg, offer_cb consume,
			void *consume_ctx, char **err);

#endif
