/* test_recommend.c - the training checklist's fabric item (EFA counts as an
 * RDMA fabric between nodes, like InfiniBand and RoCE; unknown is
 * unverified), value and memory fit, ranking (one per provider, each
 * provider's status) and the library's candidate search. */
#include <jansson.h>
#include <math.h>

#include "testutil.h"

#include "gpucmp/cache.h"
#include "gpucmp/query.h"
#include "gpucmp/recommend.h"
#include "gpucmp/strutil.h"

static int has_reason(const struct rec_verdict *v, char sign, const char *text)
{
	for (size_t i = 0; i < v->nreasons; i++)
		if (v->reasons[i].sign == sign && strstr(v->reasons[i].text, text))
			return 1;
	return 0;
}

static struct rec_verdict judge(int infiniband, const char *rdma, int nodes)
{
	struct rec_offer o = {8, 50.0, NAN, -1, infiniband, rdma, 1, "unknown", 80, 5.0, 0, NULL};
	struct rec_verdict v;
	recommend_judge(WL_TRAINING, nodes, &o, NULL, NULL, &v);
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
	/* both unknown: not ranked for two nodes, but listed as unverified */
	v = judge(-1, "unknown", 2);
	assert_false(v.excluded);
	assert_true(v.unverified);
	assert_true(has_reason(&v, '?', "RDMA between nodes unknown"));
	v = judge(-1, "unknown", 1);
	assert_false(v.unverified); /* one node needs no fabric */
	/* InfiniBand and RoCE unchanged */
	v = judge(1, "ib", 2);
	assert_false(v.excluded);
	assert_true(has_reason(&v, '+', "InfiniBand"));
	v = judge(0, "roce", 2);
	assert_false(v.excluded);
	assert_true(has_reason(&v, '+', "RoCE"));
}

/* Memory fit and price-performance add to the checklist: an 8x V100 16 GB
 * (no BF16 figure) scores below an 8x H100 with the same checklist. */
/* The Kubernetes item reads the offer's merged mode (what list and show
 * print), not the provider-wide one: a join-only instance type is no
 * managed cluster for serving, whatever its provider's other products. */
static void test_k8s_from_offer(void **state)
{
	(void)state;
	struct rec_offer o = {1, 2.0, NAN, -1, -1, "unknown", -1, "unknown", 80, 5.0, 0, "join"};
	struct rec_verdict v;
	recommend_judge(WL_INFERENCE, 1, &o, NULL, NULL, &v);
	assert_true(has_reason(&v, '?', "join to your own cluster"));
	assert_false(has_reason(&v, '+', "managed Kubernetes"));
	o.k8s = "both";
	recommend_judge(WL_INFERENCE, 1, &o, NULL, NULL, &v);
	assert_true(has_reason(&v, '+', "managed Kubernetes"));
	o.k8s = "none";
	recommend_judge(WL_BATCH, 1, &o, NULL, NULL, &v);
	assert_true(has_reason(&v, '-', "no Kubernetes"));
	/* not read (NULL): the profile's, here none, so unknown */
	o.k8s = NULL;
	recommend_judge(WL_BATCH, 1, &o, NULL, NULL, &v);
	assert_true(has_reason(&v, '?', "Kubernetes support unknown"));
}

static void test_value_memory(void **state)
{
	(void)state;
	struct rec_offer h100 = {8, 32, NAN, -1, 1, "ib", 1, "unknown", 80, 4.0, 0, NULL};
	struct rec_offer v100 = {8, 6.3, NAN, -1, 1, "ib", 1, "unknown", 16, NAN, 0, NULL};
	struct rec_verdict vh, vv;
	recommend_judge(WL_TRAINING, 4, &h100, NULL, NULL, &vh);
	recommend_value(WL_TRAINING, &h100, 2.0, &vh);
	recommend_judge(WL_TRAINING, 4, &v100, NULL, NULL, &vv);
	recommend_value(WL_TRAINING, &v100, 2.0, &vv);
	/* 7.5 per halving x log2(16 x best 2 / 4) */
	assert_float_equal(vh.value, 22.5, 1e-9);
	assert_float_equal(vh.memory, 15, 1e-9); /* 80 GB: what training wants */
	assert_true(has_reason(&vh, '+', "80 GB per GPU"));
	assert_float_equal(vv.value, 0, 1e-9);
	assert_true(has_reason(&vv, '?', "price-performance unknown"));
	assert_float_equal(vv.memory, -15, 1e-9);
	assert_true(has_reason(&vv, '-', "16 GB per GPU"));
	assert_float_equal(vh.score - vv.score, 52.5, 1e-9);
	/* an auction's floor is not a price to count on: no value, and not the best */
	struct rec_verdict vf;
	h100.auction_floor = 1;
	recommend_judge(WL_TRAINING, 4, &h100, NULL, NULL, &vf);
	recommend_value(WL_TRAINING, &h100, 2.0, &vf);
	assert_float_equal(vf.value, 0, 1e-9);
	assert_true(has_reason(&vf, '?', "auction's floor"));
	struct rec_pick two[2];
	memset(two, 0, sizeof two);
	two[0].o = h100;
	two[1].o = h100;
	two[1].o.auction_floor = 0;
	two[1].o.usd_per_pflop_hr = 7;
	assert_float_equal(recommend_best_value(two, 2), 7, 1e-9);
	/* a notebook has neither item */
	recommend_judge(WL_NOTEBOOK, 1, &v100, NULL, NULL, &vv);
	recommend_value(WL_NOTEBOOK, &v100, 2.0, &vv);
	assert_float_equal(vv.value + vv.memory, 0, 1e-9);
}

/* A profile whose every checklist item is YES_ or NO_ (spot, billing,
 * Kubernetes, sharing, containers): the two ends of a checklist. */
static struct profile *extreme_profile(int yes)
{
	char text[2048];
	const char *y = yes ? "yes" : "no", *share = yes ? "managed" : "no";
	snprintf(text, sizeof text,
		 "id: x\nname: X\nsite: https://x.example.com\nkind: gpu-cloud\n"
		 "verified: 2026-11-30\nsources:\n  - https://x.example.com/docs\n"
		 "regions: [r]\n\nspot:\n  value: %s\n  source: https://x.example.com/s\n\n"
		 "billing:\n  price_kind: unknown\n  granularity: %s\n"
		 "  source: https://x.example.com/b\n\nkubernetes:\n  mode: %s\n"
		 "  product: \"K\"\n  control_plane_fee_usd_hr: 0\n  gpu_operator: manual\n"
		 "  autoscaling: %s\n  scale_to_zero: %s\n  gang_scheduling: %s\n"
		 "  training_operator: %s\n  shared_storage_csi: %s\n"
		 "  source: https://x.example.com/k\n\ndocker:\n  custom_image: %s\n"
		 "  base_images_only: no\n  daemon: no\n  private_registry: unknown\n"
		 "  compose: unknown\n  persistent_volumes: %s\n"
		 "  source: https://x.example.com/d\n\nsharing:\n  mig: %s\n  mps: %s\n"
		 "  time_slicing: %s\n  source: https://x.example.com/g\n\n"
		 "interconnect:\n  infiniband: yes\n  rdma: ib\n  nvlink: unknown\n"
		 "  max_node_bandwidth_gbps: 3200\n  gpudirect_rdma: unknown\n"
		 "  source: https://x.example.com/i\n\ncosts:\n"
		 "  block_storage_usd_gb_month: unknown\n  egress_usd_gb: unknown\n"
		 "  egress_free_gb_month: unknown\n  stopped_gpu_billed: unknown\n",
		 y, yes ? "per-second" : "per-hour", yes ? "managed" : "none", y, y,
		 yes ? "[kueue]" : "[]", y, y, y, y, share, share, share);
	struct profile *p = NULL;
	char *err = NULL;
	enum gc_status st = profile_load(&p, "providers/x.yaml", text, strlen(text),
					 str_date_days("2026-12-02"), &err);
	if (st != GC_OK)
		fail_msg("%s", err);
	return p;
}

/* The rule of docs/RECOMMEND.md: a 4x cheaper offer with the same fabric and
 * memory fit ranks above, whatever the rest of the checklist: here the
 * dear offer meets every item and the cheap one misses every item. */
static void test_value_proportional(void **state)
{
	(void)state;
	struct profile *best = extreme_profile(1), *worst = extreme_profile(0);
	static const enum workload ws[] = {WL_TRAINING, WL_INFERENCE, WL_BATCH};
	for (size_t i = 0; i < 3; i++) {
		enum workload w = ws[i];
		/* the same fabric (InfiniBand), NVLink known only on the dear one */
		struct rec_offer dear = {8, 40, 20, 1, 1, "ib", 1, "managed", 80, 8.0, 0,
					 "managed"};
		struct rec_offer cheap = {8, 10, NAN, 0, 1, "ib", 0, "no", 80, 2.0, 0, "none"};
		struct rec_verdict vd, vc;
		recommend_judge(w, 1, &dear, best, NULL, &vd);
		recommend_value(w, &dear, 2.0, &vd);
		recommend_judge(w, 1, &cheap, worst, NULL, &vc);
		recommend_value(w, &cheap, 2.0, &vc);
		assert_int_equal(vd.unknowns, 0); /* really the two ends */
		assert_int_equal(vc.unknowns, 0);
		assert_float_equal(vd.memory, vc.memory, 1e-9);
		/* two halvings of the price: 2 D */
		assert_float_equal(vc.value - vd.value, 2 * recommend_value_weight(w), 0.11);
		assert_true(vc.score > vd.score);
		/* and the D per workload is not larger than needed: at 2x, the full
		 * checklist still wins */
		cheap.usd_per_pflop_hr = 4.0;
		recommend_judge(w, 1, &cheap, worst, NULL, &vc);
		recommend_value(w, &cheap, 2.0, &vc);
		assert_true(vc.score < vd.score);
	}
	/* proportional: the same ratio is the same gap, wherever the best is */
	struct rec_offer a = {8, 1, NAN, -1, 1, "ib", 1, "unknown", 80, 3.0, 0, NULL};
	struct rec_offer b = a;
	b.usd_per_pflop_hr = 12.0;
	struct rec_verdict va, vb;
	recommend_judge(WL_TRAINING, 1, &a, NULL, NULL, &va);
	recommend_value(WL_TRAINING, &a, 1.0, &va);
	recommend_judge(WL_TRAINING, 1, &b, NULL, NULL, &vb);
	recommend_value(WL_TRAINING, &b, 1.0, &vb);
	assert_float_equal(va.value - vb.value, 15, 0.11);
	/* past 16x the best, the value is below 0 and says so */
	b.usd_per_pflop_hr = 32.0;
	recommend_judge(WL_TRAINING, 1, &b, NULL, NULL, &vb);
	recommend_value(WL_TRAINING, &b, 1.0, &vb);
	assert_float_equal(vb.value, -7.5, 1e-9);
	assert_true(has_reason(&vb, '-', "value -7.5"));
	profile_free(best);
	profile_free(worst);
}

/* --model: parameters x bytes x factor over every GPU of the run; --vram
 * wins; bad sizes are refused with one line. */
static void test_model_memory(void **state)
{
	(void)state;
	double n = 0;
	assert_int_equal(recommend_model_parse("70B", &n, NULL), GC_OK);
	assert_float_equal(n, 70e9, 1);
	assert_int_equal(recommend_model_parse("1.5b", &n, NULL), GC_OK);
	assert_float_equal(n, 1.5e9, 1);
	assert_int_equal(recommend_model_parse("500M", &n, NULL), GC_OK);
	assert_float_equal(n, 5e8, 1);
	static const char *const bad[] = {"70", "70X", "-7B", "0B", "B", "", "70BB", "200T",
					  "nanB", "70 B"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *err = NULL;
		assert_int_equal(recommend_model_parse(bad[i], &n, &err), GC_EUSAGE);
		assert_non_null(err);
		assert_null(strchr(err, '\n'));
		free(err);
	}
	struct rec_mem m;
	/* 70B full training on 4 nodes x 8 GPUs: 70e9 x 16 B = 1120 GB / 32 */
	assert_int_equal(recommend_memory(WL_TRAINING, 70e9, PREC_BF16, NAN, 32, &m, NULL),
			 GC_OK);
	assert_int_equal(m.from, REC_MEM_MODEL);
	assert_float_equal(m.total_gb, 1120, 1e-6);
	assert_float_equal(m.per_gpu_gb, 35, 1e-9);
	/* 7B served at bf16 on one GPU: 7e9 x 2 B x 1.2 = 16.8 GB */
	assert_int_equal(recommend_memory(WL_INFERENCE, 7e9, PREC_BF16, NAN, 1, &m, NULL), GC_OK);
	assert_float_equal(m.per_gpu_gb, 16.8, 1e-9);
	/* at int4 a 70B fits one 48 GB GPU: 70e9 x 0.5 x 1.2 = 42 GB */
	assert_int_equal(recommend_memory(WL_INFERENCE, 70e9, PREC_INT4, NAN, 1, &m, NULL), GC_OK);
	assert_float_equal(m.per_gpu_gb, 42, 1e-9);
	/* explicit wins */
	assert_int_equal(recommend_memory(WL_INFERENCE, 70e9, PREC_BF16, 80, 2, &m, NULL), GC_OK);
	assert_int_equal(m.from, REC_MEM_VRAM);
	assert_float_equal(m.per_gpu_gb, 80, 1e-9);
	assert_float_equal(m.total_gb, 168, 1e-6); /* still shown */
	/* training at int4 is an adapter fine-tune, which the rule does not count */
	char *err = NULL;
	assert_int_equal(recommend_memory(WL_TRAINING, 70e9, PREC_INT4, NAN, 8, &m, &err),
			 GC_EUSAGE);
	assert_non_null(strstr(err, "--vram"));
	free(err);
	assert_int_equal(recommend_memory(WL_TRAINING, 70e9, PREC_INT4, 48, 8, &m, NULL), GC_OK);
	assert_float_equal(m.per_gpu_gb, 48, 1e-9);
	/* without either: the workload's own want, none for batch */
	assert_int_equal(recommend_memory(WL_BATCH, NAN, PREC_BF16, NAN, 1, &m, NULL), GC_OK);
	assert_int_equal(m.from, REC_MEM_NONE);
	/* the need is what the memory item reads: 40 GB misses 42 */
	struct rec_offer o = {1, 1, NAN, -1, -1, "unknown", -1, "unknown", 40, 3.0, 0, NULL};
	struct rec_verdict v;
	assert_int_equal(recommend_memory(WL_BATCH, 70e9, PREC_INT4, NAN, 1, &m, NULL), GC_OK);
	recommend_judge(WL_BATCH, 1, &o, NULL, &m, &v);
	assert_float_equal(v.memory, -recommend_memory_weight(WL_BATCH), 1e-9);
	assert_true(has_reason(&v, '-', "the job needs 42 GB, an estimate"));
	o.gpu_mem_gb = 48;
	recommend_judge(WL_BATCH, 1, &o, NULL, &m, &v);
	assert_float_equal(v.memory, recommend_memory_weight(WL_BATCH), 1e-9);
}

static struct rec_pick pick(const char *provider, double score, double cost, int excluded)
{
	struct rec_pick k;
	memset(&k, 0, sizeof k);
	snprintf(k.provider, sizeof k.provider, "%s", provider);
	snprintf(k.sku, sizeof k.sku, "%s-%g", provider, score);
	k.v.score = score;
	k.v.excluded = excluded;
	k.cost = cost;
	return k;
}

static const struct rec_pick *find(const struct rec_pick *p, size_t n, const char *provider)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i].provider, provider) == 0)
			return &p[i];
	return NULL;
}

/* Ranking: each provider's best candidate with its status; ranked by
 * score, cost, provider; the limit moves the rest below it. */
static void test_rank(void **state)
{
	(void)state;
	struct rec_pick p[] = {pick("a", 1, 5, 0), pick("b", 3, 9, 0), pick("c", 3, 2, 0),
			       pick("d", 9, 1, 1), pick("e", 2, NAN, 0), pick("f", 3, 2, 0),
			       pick("g", 5, 50, 0), pick("h", 8, 3, 0), pick("b", 4, 1, 0),
			       pick("g", 1, 5, 0)};
	p[7].v.unverified = 1;
	size_t n = recommend_rank(p, 10, 10, 3);
	assert_int_equal(n, 8); /* one per provider */
	assert_string_equal(p[0].provider, "b"); /* its score-4 SKU */
	assert_string_equal(p[0].sku, "b-4");
	assert_string_equal(p[1].provider, "c"); /* score 3, cost 2, then by name */
	assert_string_equal(p[2].provider, "f");
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(p[i].status, REC_RANKED);
	assert_int_equal(p[3].status, REC_UNVERIFIED);
	assert_string_equal(p[3].provider, "h");
	assert_int_equal(find(p, n, "g")->status, REC_BELOW_LIMIT); /* its cheap SKU */
	assert_string_equal(find(p, n, "g")->sku, "g-1");
	assert_int_equal(find(p, n, "a")->status, REC_BELOW_LIMIT);
	assert_int_equal(find(p, n, "d")->status, REC_NO_FABRIC);
	assert_int_equal(find(p, n, "e")->status, REC_NO_PRICE);
	/* g's score-5 SKU alone: over the budget */
	struct rec_pick q[] = {pick("g", 5, 50, 0)};
	assert_int_equal(recommend_rank(q, 1, 10, 3), 1);
	assert_int_equal(q[0].status, REC_OVER_BUDGET);
	assert_string_equal(rec_status_name(REC_NO_DATA), "no_data");
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
	struct query_rec r = {WL_INFERENCE, 1, 1, 10, NAN, 6, {0}, QPT_DEFAULT, 0, NAN, NAN};
	struct query_rec_result res;
	assert_int_equal(query_recommend(cache, &cat.profiles, &q, &r, &res, NULL), GC_OK);
	assert_int_equal(res.count[REC_RANKED], 6);
	assert_true(res.count[REC_NO_DATA] > 0); /* named: providers without offers */
	for (size_t i = 0; i < res.count[REC_RANKED]; i++) {
		for (size_t j = 0; j < i; j++) {
			assert_string_not_equal(res.picks[i].provider, res.picks[j].provider);
			assert_true(res.picks[j].v.score >= res.picks[i].v.score);
			assert_int_equal(res.picks[i].status, REC_RANKED);
		}
		assert_true(res.picks[i].o.gpu_count >= 1);
		assert_null(res.picks[i].o.rdma);
		/* 10 hours on demand, plus a managed control plane's fee */
		assert_float_equal(res.picks[i].hourly, res.picks[i].o.price_hr, 1e-9);
		assert_true(res.picks[i].cost >= res.picks[i].hourly * 10 - 1e-9);
	}
	/* the JSON: picks, unverified and every provider left out, with its reason */
	json_t *j = query_recommend_json(&r, &res);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "picks")), 6);
	assert_int_equal(json_array_size(json_object_get(j, "unverified")), 0);
	json_t *left = json_object_get(j, "left_out");
	assert_int_equal(json_array_size(left), res.n - 6);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(left, json_array_size(left) - 1), "reason")),
			    "no_data");
	json_decref(j);
	free(res.picks);
	/* batch: spot where there is one, for every node */
	struct query_rec batch = {WL_BATCH, 1, 2, NAN, NAN, 50, {0}, QPT_DEFAULT, 0, NAN, NAN};
	query_init(&q);
	assert_int_equal(query_recommend(cache, &cat.profiles, &q, &batch, &res, NULL), GC_OK);
	assert_true(res.count[REC_RANKED] > 0);
	for (size_t i = 0; i < res.count[REC_RANKED]; i++) {
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
	assert_int_equal(res.count[REC_RANKED], 0);
	assert_true(res.count[REC_OVER_BUDGET] > 0);
	assert_int_equal(res.picks[0].status, REC_OVER_BUDGET);
	free(res.picks);
	cache_close(cache);
	catalog_release(&cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_efa_is_rdma),
		cmocka_unit_test(test_k8s_from_offer),
		cmocka_unit_test(test_value_memory),
		cmocka_unit_test(test_value_proportional),
		cmocka_unit_test(test_model_memory),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_query_recommend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
