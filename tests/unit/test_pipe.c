/* test_pipe.c - offers produced on a second thread arrive in order, and a
 * failure on either side stops both with its message. */
#include "gpucmp/pipe.h"
#include "testutil.h"

struct prod {
	int n, fail_at;
};

static enum gc_status produce(void *arg, offer_cb cb, void *ctx, char **err)
{
	struct prod *p = arg;
	for (int i = 0; i < p->n; i++) {
		if (i == p->fail_at)
			return err_set(err, GC_EDATA, "line %d: bad row", i + 2);
		char sku[32];
		snprintf(sku, sizeof sku, "sku-%d", i);
		struct offer o;
		offer_init(&o);
		o.provider = "p";
		o.sku = sku; /* dies with this frame: the pipe must copy it */
		o.price_hr = i;
		enum gc_status st = cb(ctx, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

struct cons {
	int seen, fail_at, in_order;
};

static enum gc_status consume(void *ctx, const struct offer *o, char **err)
{
	struct cons *c = ctx;
	char want[32];
	snprintf(want, sizeof want, "sku-%d", c->seen);
	if (strcmp(o->sku, want) != 0 || o->price_hr != c->seen)
		c->in_order = 0;
	if (c->seen == c->fail_at)
		return err_set(err, GC_EIO, "disk full");
	c->seen++;
	return GC_OK;
}

static void test_all_in_order(void **state)
{
	(void)state;
	/* several chunks and a partial last one */
	struct prod p = {4096 * 9 + 17, -1};
	struct cons c = {0, -1, 1};
	char *err = NULL;
	assert_int_equal(pipe_run(produce, &p, consume, &c, &err), GC_OK);
	assert_int_equal(c.seen, p.n);
	assert_true(c.in_order);
	struct prod none = {0, -1};
	struct cons c0 = {0, -1, 1};
	assert_int_equal(pipe_run(produce, &none, consume, &c0, &err), GC_OK);
	assert_int_equal(c0.seen, 0);
}

static void test_failures_stop_both(void **state)
{
	(void)state;
	char *err = NULL;
	/* the producer fails late: what came before was consumed, its error wins */
	struct prod p = {100000, 50000};
	struct cons c = {0, -1, 1};
	assert_int_equal(pipe_run(produce, &p, consume, &c, &err), GC_EDATA);
	assert_string_equal(err, "line 50002: bad row");
	free(err);
	err = NULL;
	assert_true(c.seen <= 50000);
	/* the consumer fails early: the producer stops instead of running on */
	struct prod big = {1000000, -1};
	struct cons bad = {0, 10, 1};
	assert_int_equal(pipe_run(produce, &big, consume, &bad, &err), GC_EIO);
	assert_string_equal(err, "disk full");
	free(err);
	assert_int_equal(bad.seen, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_in_order),
		cmocka_unit_test(test_failures_stop_both),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
