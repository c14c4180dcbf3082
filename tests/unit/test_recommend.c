/* test_recommend.c - the training checklist's fabric item: EFA counts as an
 * RDMA fabric between nodes, like InfiniBand and RoCE. */
#include <math.h>

#include "testutil.h"

#include "gpucmp/recommend.h"

static int has_reason(const struct rec_verdict *v, char sign, const char *text)
{
	for (size_t i = 0; i < v->nreasons; i++)
		if (v->reasons[i].sign == sign && strstr(v->reasons[i].text, text))
			return 1;
	return 0;
}

static struct rec_verdict judge(int infiniband, const char *rdma, int nodes)
{
	struct rec_offer o = {8, 50.0, NAN, -1, infiniband, rdma, 1, "unknown"};
	struct rec_verdict v;
	recommend_judge(WL_TRAINING, nodes, &o, NULL, &v);
	return v;
}

static void test_efa_is_rdma(void **state)
{
	(void)state;
	/* an AWS p5en: no InfiniBand, EFA (data/instance-types.yaml) */
	struct rec_verdict v = judge(0, "efa", 2);
	assert_false(v.excluded); /* multi-node training needs RDMA: EFA is one */
	assert_true(has_reason(&v, '+', "EFA"));
	assert_false(has_reason(&v, '-', "no RDMA"));
	/* the same offer without a fabric is excluded for two nodes */
	v = judge(0, "no", 2);
	assert_true(v.excluded);
	assert_true(has_reason(&v, '-', "no RDMA"));
	/* no InfiniBand and RDMA unknown: still a minus */
	v = judge(0, "unknown", 2);
	assert_true(v.excluded);
	/* InfiniBand and RoCE unchanged */
	v = judge(1, "ib", 2);
	assert_false(v.excluded);
	assert_true(has_reason(&v, '+', "InfiniBand"));
	v = judge(0, "roce", 2);
	assert_false(v.excluded);
	assert_true(has_reason(&v, '+', "RoCE"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_efa_is_rdma),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
