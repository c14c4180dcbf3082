/* test_recommend.c - the training checklist's fabric item (EFA counts as an
 * RDMA fabric between nodes, like InfiniBand and RoCE), ranking and the
 * library's candidate search. */
#include <math.h>

#include "testutil.h"

#include "gpucmp/cache.h"
#include "gpucmp/query.h"
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

static struct rec_pick pick(const char *provider, int score, double cost, int excluded)
{
	struct rec_pick k;
	memset(&k, 0, sizeof k);
	snprintf(k.provider, sizeof k.provider, "%s", provider);
	k.v.score = score;
	k.v.excluded = excluded;
	k.cost = cost;
	return k;
}

/* Ranking: drop the excluded, the unpriced and those over budget; then
 * score, cost, provider; then the limit. */
static void test_rank(void **state)
{
	(void)state;
	struct rec_pick p[] = {pick("a", 1, 5, 0), pick("b", 3, 9, 0), pick("c", 3, 2, 0),
			       pick("d", 9, 1, 1), pick("e", 2, NAN, 0), pick("f", 3, 2, 0),
			       pick("g", 5, 50, 0)};
	size_t excluded, over;
	size_t n = recommend_rank(p, 7, 10, 3, &excluded, &over);
	assert_int_equal(n, 3);
	assert_int_equal(excluded, 1);
	assert_int_equal(over, 1);
	assert_string_equal(p[0].provider, "c"); /* score 3, cost 2, then by name */
	assert_string_equal(p[1].provider, "f");
	assert_string_equal(p[2].provider, "b");
	n = recommend_rank(p, 4, NAN, 10, &excluded, &over);
	assert_int_equal(n, 4);
	assert_int_equal(over, 0);
}

/* The library's search: one pick per provider, ranked, within the limit. */
static void test_query_recommend(void **state)
{
	(void)state;
	struct catalog cat;
	struct cache *cache;
	struct cache_open_info info;
	assert_int_equal(load_embedded_catalog(&cat), 0);
	assert_int_equal(cache_open(&cache, NULL, &cat, &info, NULL), GC_OK);
	cache_open_info_release(&info);
	struct query q;
	query_init(&q);
	struct query_rec r = {WL_INFERENCE, 1, 1, 10, NAN, 6};
	struct query_rec_result res;
	assert_int_equal(query_recommend(cache, &cat.profiles, &q, &r, &res, NULL), GC_OK);
	assert_int_equal(res.n, 6);
	for (size_t i = 0; i < res.n; i++) {
		for (size_t j = 0; j < i; j++) {
			assert_string_not_equal(res.picks[i].provider, res.picks[j].provider);
			assert_true(res.picks[j].v.score >= res.picks[i].v.score);
		}
		assert_true(res.picks[i].o.gpu_count >= 1);
		assert_null(res.picks[i].o.rdma);
		/* 10 hours on demand, plus a managed control plane's fee */
		assert_float_equal(res.picks[i].hourly, res.picks[i].o.price_hr, 1e-9);
		assert_true(res.picks[i].cost >= res.picks[i].hourly * 10 - 1e-9);
	}
	free(res.picks);
	/* batch: spot where there is one, for every node */
	struct query_rec batch = {WL_BATCH, 1, 2, NAN, NAN, 50};
	query_init(&q);
	assert_int_equal(query_recommend(cache, &cat.profiles, &q, &batch, &res, NULL), GC_OK);
	assert_true(res.n > 0);
	for (size_t i = 0; i < res.n; i++) {
		const struct rec_offer *o = &res.picks[i].o;
		double unit = isnan(o->spot_price_hr) ? o->price_hr : o->spot_price_hr;
		assert_float_equal(res.picks[i].hourly, unit * 2, 1e-9);
		assert_float_equal(res.picks[i].cost, res.picks[i].hourly, 1e-9);
	}
	free(res.picks);
	query_init(&q);
	/* a budget below every run leaves nothing, and says so */
	r.budget = 0.01;
	assert_int_equal(query_recommend(cache, &cat.profiles, &q, &r, &res, NULL), GC_OK);
	assert_int_equal(res.n, 0);
	assert_true(res.over > 0);
	free(res.picks);
	cache_close(cache);
	catalog_release(&cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_efa_is_rdma),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_query_recommend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
