/* test_query.c - filters and sort keys compiled to SQL, run against a real
 * (in-memory) cache seeded from the snapshot. */
#include <math.h>

#include "testutil.h"

#include "gpucmp/cache.h"
#include "gpucmp/gpu_spec.h"
#include "gpucmp/query.h"
#include "sqlite_int.h"

static struct catalog cat;
static struct cache *cache;

static int setup(void **state)
{
	(void)state;
	struct cache_open_info info;
	if (load_embedded_catalog(&cat) != 0)
		return -1;
	if (cache_open(&cache, NULL, &cat, &info, NULL) != GC_OK)
		return -1;
	cache_set_ingest(cache, 1, 0); /* "cudatest" has no profile */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	cache_close(cache);
	catalog_release(&cat);
	return 0;
}

static const struct field *f(const char *key)
{
	const struct field *x = field_find(key);
	assert_non_null(x);
	return x;
}

/* Run q selecting `cols`; call check(row) for each; return the row count. */
static size_t run(const struct query *q, const char *const *keys, size_t nkeys,
		  void (*check)(sqlite3_stmt *s, void *arg), void *arg)
{
	const struct field *cols[16];
	for (size_t i = 0; i < nkeys; i++)
		cols[i] = f(keys[i]);
	struct query_sql qs;
	sqlite3_stmt *s = NULL;
	char *err = NULL;
	assert_int_equal(query_build(q, cols, nkeys, &qs, &err), GC_OK);
	if (query_prepare(cache_db(cache), &qs, &s, &err) != GC_OK)
		fail_msg("%s\n%s", err, qs.sql.ptr);
	size_t n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (check)
			check(s, arg);
		n++;
	}
	assert_int_equal(rc, SQLITE_DONE);
	sqlite3_finalize(s);
	query_sql_release(&qs);
	return n;
}

static const char *text(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

static void check_mig(sqlite3_stmt *s, void *arg)
{
	(void)arg;
	const char *mig = text(s, 1);
	assert_true(strcmp(mig, "managed") == 0 || strcmp(mig, "self") == 0);
	const struct gpu_model *m = gpu_find(cat.gpus, text(s, 0));
	assert_non_null(m);
	assert_true(m->mig > 0);
	assert_true(sqlite3_column_double(s, 2) >= 1); /* whole GPUs only */
}

static void test_mig_needs_provider_and_gpu(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.caps = 1u << QC_MIG;
	const char *cols[] = {"gpu", "mig", "gpu_count", "provider"};
	size_t n = run(&q, cols, 4, check_mig, NULL);
	assert_true(n > 10);
	/* T4 and L4 offers exist on MIG-managed GCP, but never qualify */
	query_init(&q);
	q.caps = 1u << QC_MIG;
	q.gpus[0] = "t4";
	q.gpus[1] = "l4";
	q.ngpus = 2;
	assert_int_equal(run(&q, cols, 4, NULL, NULL), 0);
}

static void check_k8s_managed(sqlite3_stmt *s, void *arg)
{
	int *saw_lambda_both = arg;
	const char *k = text(s, 0);
	assert_true(strcmp(k, "managed") == 0 || strcmp(k, "both") == 0);
	*saw_lambda_both |= strcmp(k, "both") == 0 && strcmp(text(s, 1), "lambda") == 0;
}

static void test_k8s_modes(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.caps = 1u << QC_K8S_MANAGED;
	int saw_both = 0;
	const char *cols[] = {"k8s", "provider"};
	assert_true(run(&q, cols, 2, check_k8s_managed, &saw_both) > 0);
	/* lambda's profile says "both", but every snapshot lambda offer is an
	 * on-demand instance, which data/instance-types.yaml makes "join" */
	assert_false(saw_both);
	query_init(&q);
	q.caps = 1u << QC_K8S_NONE;
	assert_int_equal(run(&q, cols, 1, NULL, NULL), 0); /* no snapshot provider says none */
}

struct capcount {
	size_t rows, lambda_join, nvv4_unknown, nebius8_ib, nebius1_no_ib, b300_not_no;
	size_t hgx_nvlink_null, v100x8_nvlink_null;
};

static void check_caps(sqlite3_stmt *s, void *arg)
{
	struct capcount *c = arg;
	const char *prov = text(s, 0), *sku = text(s, 1), *gpu = text(s, 2);
	const char *k8s = text(s, 4), *mig = text(s, 5);
	double n = sqlite3_column_double(s, 3);
	c->rows++;
	if (strcmp(prov, "lambda") == 0) {
		assert_string_equal(k8s, "join");
		c->lambda_join++;
	}
	if (strcmp(prov, "azure") == 0 && strstr(sku, "as_v4")) {
		assert_string_equal(k8s, "unknown");
		c->nvv4_unknown++;
	}
	if (strcmp(prov, "nebius") == 0 && n == 8 && strstr(sku, "-sxm")) {
		assert_int_equal(sqlite3_column_int(s, 6), 1);
		assert_string_equal(text(s, 7), "ib");
		c->nebius8_ib++;
	}
	if (strcmp(prov, "nebius") == 0 && n < 8) { /* only 8-GPU nodes join IB */
		assert_int_equal(sqlite3_column_type(s, 6), SQLITE_INTEGER);
		assert_int_equal(sqlite3_column_int(s, 6), 0);
		c->nebius1_no_ib++;
	}
	if (gpu && strcmp(gpu, "b300") == 0 && strcmp(mig, "no") != 0)
		c->b300_not_no++;
	/* an 8-GPU NVIDIA SXM board (HGX) has NVLink */
	if (n == 8 && gpu && (strcmp(gpu, "h100-sxm") == 0 || strcmp(gpu, "b200") == 0 ||
			      strcmp(gpu, "a100-sxm-40gb") == 0 || strcmp(gpu, "h200") == 0))
		c->hgx_nvlink_null += sqlite3_column_type(s, 8) == SQLITE_NULL;
	/* V100 is not on NVIDIA's NVSwitch baseboard list: no rule for it */
	if (n == 8 && gpu && strcmp(gpu, "v100-sxm2-16gb") == 0)
		c->v100x8_nvlink_null += sqlite3_column_type(s, 8) == SQLITE_NULL;
}

/* Per-instance-type capabilities win over the provider profile's. */
static void test_insttype_overrides(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	const char *cols[] = {"provider", "sku", "gpu", "gpu_count", "k8s", "mig",
			      "infiniband", "rdma", "nvlink"};
	struct capcount c = {0};
	run(&q, cols, 9, check_caps, &c);
	assert_true(c.lambda_join > 0);
	/* NVv4 sizes retired on 2026-09-30 (data/retired.yaml): none is left
	 * to carry the AKS override (its own test is in test_insttype) */
	assert_int_equal(c.nvv4_unknown, 0);
	assert_true(c.nebius8_ib >= 3);
	assert_true(c.nebius1_no_ib > 0);
	assert_true(c.b300_not_no > 0); /* B300 supports MIG; verda's MIG is unknown */
	assert_int_equal(c.hgx_nvlink_null, 0);
	assert_true(c.v100x8_nvlink_null > 0);
}

/* The capability columns as offer_v wrote them by hand before they came
 * from one table (src/cache_caps.c, 2026-12-04): the reference the table's
 * view must answer the same as, row by row, on the built-in data. */
static const char caps_by_hand[] =
	"CREATE TEMP VIEW caps_by_hand AS SELECT o.id AS id,"
	" COALESCE(t.k8s, p.kubernetes_mode, 'unknown') AS k8s,"
	" CASE p.docker_custom_image WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END"
	"  AS docker_custom_image,"
	" COALESCE(p.docker_daemon, 'unknown') AS docker_daemon,"
	" CASE p.docker_base_images_only WHEN 'yes' THEN 1 WHEN 'no' THEN 0 END"
	"  AS docker_base_images_only,"
	" CASE WHEN o.gpu_count < 1 OR g.mig = 0 OR t.mig = 0 THEN 'no'"
	"  WHEN p.sharing_mig IS NULL THEN 'unknown'"
	"  WHEN g.id IS NULL AND p.sharing_mig <> 'no' THEN 'unknown'"
	"  ELSE p.sharing_mig END AS mig,"
	" CASE WHEN g.vendor <> 'nvidia' THEN 'no'"
	"  WHEN g.architecture IN ('kepler', 'maxwell', 'pascal') THEN 'no'"
	"  ELSE COALESCE(p.sharing_mps, 'unknown') END AS mps,"
	" CASE WHEN g.vendor <> 'nvidia' THEN 'no'"
	"  ELSE COALESCE(p.sharing_time_slicing, 'unknown') END AS time_slicing,"
	" CASE WHEN g.vendor <> 'nvidia' THEN 0 WHEN g.architecture = 'kepler' THEN 11"
	"  WHEN g.architecture IN ('maxwell', 'pascal', 'volta') THEN 12 END AS gpu_cuda_last,"
	" CASE WHEN o.infiniband IS NOT NULL THEN o.infiniband"
	"  WHEN t.infiniband IS NOT NULL THEN t.infiniband"
	"  WHEN p.interconnect_infiniband = 'no' THEN 0"
	"  WHEN p.interconnect_infiniband = 'yes' THEN 1 END AS infiniband,"
	" CASE WHEN o.rdma IS NOT NULL THEN o.rdma"
	"  WHEN t.rdma IS NOT NULL THEN t.rdma"
	"  WHEN o.infiniband = 1 OR t.infiniband = 1 THEN 'ib'"
	"  WHEN p.interconnect_rdma = 'no' THEN 'no'"
	"  WHEN p.interconnect_infiniband = 'yes' THEN COALESCE(p.interconnect_rdma, 'unknown')"
	"  ELSE 'unknown' END AS rdma,"
	" CASE WHEN o.nvlink IS NOT NULL THEN o.nvlink"
	"  WHEN t.nvlink IS NOT NULL THEN t.nvlink"
	"  WHEN o.gpu_count < 2 OR g.nvlink = 'no' THEN 0"
	"  WHEN o.gpu_count = 8 AND g.form_factor = 'sxm'"
	"   AND g.family IN ('a100', 'h100', 'h200', 'b200', 'b300') THEN 1"
	"  WHEN g.nvlink = 'yes' AND p.interconnect_nvlink = 'yes' THEN 1 END AS nvlink"
	" FROM offer o LEFT JOIN provider p ON p.id = o.provider"
	" LEFT JOIN gpu g ON g.id = o.gpu"
	" LEFT JOIN insttype t ON t.ord = (SELECT i.ord FROM insttype i"
	"  WHERE i.provider = o.provider AND lower(o.sku) GLOB i.match ORDER BY i.ord LIMIT 1)";

#define CAPS_COLS                                                                \
	"id, k8s, docker_custom_image, docker_daemon, docker_base_images_only, mig, mps," \
	" time_slicing, gpu_cuda_last, infiniband, rdma, nvlink"

static long long scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	long long v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* The table of capability rules answers every built-in offer as the
 * hand-written CASEs did (issue 25: no change but the new column). */
static void test_caps_table_matches_cases(void **state)
{
	(void)state;
	sqlite3 *db = cache_db(cache);
	assert_int_equal(sqlite3_exec(db, caps_by_hand, NULL, NULL, NULL), SQLITE_OK);
	long long n = scalar(db, "SELECT count(*) FROM offer_v");
	assert_true(n > 1000);
	assert_int_equal(scalar(db, "SELECT count(*) FROM caps_by_hand"), n);
	assert_int_equal(scalar(db, "SELECT count(*) FROM (SELECT " CAPS_COLS " FROM offer_v"
				" EXCEPT SELECT * FROM caps_by_hand)"), 0);
	assert_int_equal(scalar(db, "SELECT count(*) FROM (SELECT * FROM caps_by_hand"
				" EXCEPT SELECT " CAPS_COLS " FROM offer_v)"), 0);
	/* and the comparison can fail: one column changed is seen */
	assert_true(scalar(db, "SELECT count(*) FROM (SELECT id, k8s, docker_custom_image,"
			   " docker_daemon, docker_base_images_only, mig, mps, time_slicing,"
			   " gpu_cuda_last, 1 - infiniband, rdma, nvlink FROM offer_v"
			   " EXCEPT SELECT * FROM caps_by_hand)") > 0);
	assert_int_equal(sqlite3_exec(db, "DROP VIEW caps_by_hand", NULL, NULL, NULL), SQLITE_OK);
}

/* nvlink_domain: 8 for an HGX 8-GPU board, 1 where the offer's GPUs have
 * no NVLink between them, unknown otherwise (a bridge, a rack). */
static void test_nvlink_domain(void **state)
{
	(void)state;
	sqlite3 *db = cache_db(cache);
	assert_true(scalar(db, "SELECT count(*) FROM offer_v WHERE nvlink_domain = 8") > 0);
	assert_true(scalar(db, "SELECT count(*) FROM offer_v WHERE nvlink_domain = 1") > 0);
	assert_int_equal(scalar(db, "SELECT count(*) FROM offer_v WHERE nvlink_domain = 8"
				" AND (gpu_count <> 8 OR nvlink IS NOT 1)"), 0);
	/* no NVLink between the offer's GPUs: each is its own domain */
	assert_int_equal(scalar(db, "SELECT count(*) FROM offer_v WHERE nvlink = 0"
				" AND nvlink_domain IS NOT 1"), 0);
	assert_int_equal(scalar(db, "SELECT count(*) FROM offer_v WHERE nvlink_domain = 1"
				" AND nvlink = 1"), 0);
	/* an 8x V100 (cube mesh, no NVSwitch) and a bridged pair stay unknown */
	assert_true(scalar(db, "SELECT count(*) FROM offer_v WHERE gpu_id LIKE 'v100-sxm2%'"
			   " AND gpu_count = 8 AND nvlink_domain IS NULL") > 0);
}

static void check_efa(sqlite3_stmt *s, void *arg)
{
	size_t *efa = arg;
	if (strcmp(text(s, 0), "aws") == 0) {
		assert_string_equal(text(s, 1), "efa");
		assert_int_equal(sqlite3_column_int(s, 2), 0); /* EFA is not InfiniBand */
		(*efa)++;
	}
}

/* No AWS offer is in the snapshot: put two in the way an import would and
 * see the instance-type table make p5en an EFA (RDMA) offer for --rdma. */
static void test_rdma_counts_efa(void **state)
{
	(void)state;
	sqlite3 *db = cache_db(cache);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO offer(provider, sku, gpu, gpu_name, gpu_count, region, price_hr,"
		" source, fetched_at) VALUES('aws', 'p5en.48xlarge', 'h200', 'H200', 8,"
		" 'us-east-2', 63.296, 'import', '2026-12-02T00:00:00Z'),"
		" ('aws', 'g5.48xlarge', 'a10g', 'A10G', 8, 'us-east-2', 16.29, 'import',"
		" '2026-12-02T00:00:00Z')", NULL, NULL, NULL), SQLITE_OK);
	struct query q;
	query_init(&q);
	q.caps = 1u << QC_RDMA;
	const char *cols[] = {"provider", "rdma", "infiniband"};
	size_t efa = 0;
	run(&q, cols, 3, check_efa, &efa);
	assert_int_equal(efa, 1); /* p5en; g5 is not in the table: unknown, not kept */
	assert_int_equal(sqlite3_exec(db, "DELETE FROM offer WHERE provider = 'aws'", NULL, NULL,
				      NULL), SQLITE_OK);
}

static void collect_mig_k8s(sqlite3_stmt *s, void *arg)
{
	char(*out)[2][16] = arg;
	const char *sku = text(s, 0);
	int i = strcmp(sku, "forbid-1") == 0 ? 0 : 1;
	snprintf(out[i][0], sizeof out[i][0], "%s", text(s, 1));
	snprintf(out[i][1], sizeof out[i][1], "%s", text(s, 2));
}

/* mig: no and k8s of an instance-type entry reach offer_v, for a SKU that no
 * load mapped (the view's glob fallback); a SKU no entry matches keeps the
 * provider's answers (lambda: MIG unknown, k8s both). */
static void test_insttype_mig_no_and_k8s(void **state)
{
	(void)state;
	sqlite3 *db = cache_db(cache);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO insttype(ord, provider, match, k8s, mig, source) VALUES(100000,"
		" 'lambda', 'forbid-*', 'none', 0, 'https://example.org/')",
		NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO offer(provider, sku, gpu, gpu_name, gpu_count, region, price_hr,"
		" source, fetched_at) VALUES('lambda', 'forbid-1', 'h100-sxm', 'H100', 1, 'x', 1,"
		" 'import', '2026-12-02T00:00:00Z'), ('lambda', 'other-1', 'h100-sxm', 'H100', 1,"
		" 'x', 1, 'import', '2026-12-02T00:00:00Z')", NULL, NULL, NULL), SQLITE_OK);
	struct query q;
	query_init(&q);
	q.providers[0] = "lambda";
	q.nproviders = 1;
	q.region_glob = "x";
	const char *cols[] = {"sku", "mig", "k8s"};
	char got[2][2][16] = {{"", ""}, {"", ""}};
	assert_int_equal(run(&q, cols, 3, collect_mig_k8s, got), 2);
	assert_string_equal(got[0][0], "no");
	assert_string_equal(got[0][1], "none");
	assert_string_equal(got[1][0], "unknown");
	assert_string_equal(got[1][1], "both");
	assert_int_equal(sqlite3_exec(db,
		"DELETE FROM offer WHERE region = 'x'; DELETE FROM insttype WHERE ord = 100000",
		NULL, NULL, NULL), SQLITE_OK);
}

/* --cuda VERSION: its number and the minimum driver's, the SQL ready. */
static void with_cuda(struct query *q, long long num, long long driver)
{
	q->cuda_num = num;
	q->cuda_min_driver_num = driver;
	query_prepare_fields(q);
}

static void collect_sharing(sqlite3_stmt *s, void *arg)
{
	char *out = arg;
	size_t n = strlen(out);
	snprintf(out + n, 512 - n, "%s:%s,%s,%s ", text(s, 0), text(s, 1), text(s, 2),
		 sqlite3_column_type(s, 3) == SQLITE_NULL ? "null" : text(s, 3));
}

/* What the GPU model rules out (issue 15 part 4): MPS off NVIDIA and before
 * Volta, time-slicing off NVIDIA, CUDA off NVIDIA and past the
 * architecture's last; gcp's profile says managed for both. */
static void test_gpu_rules_out_sharing(void **state)
{
	(void)state;
	sqlite3 *db = cache_db(cache);
	assert_int_equal(sqlite3_exec(db,
		"INSERT INTO offer(provider, sku, gpu, gpu_name, gpu_count, region, price_hr,"
		" source, fetched_at) VALUES"
		" ('gcp', 'a-mi300x', 'mi300x', 'MI300X', 1, 'y', 1, 'import',"
		" '2026-12-02T00:00:00Z'),"
		" ('gcp', 'b-p100', 'p100', 'P100', 1, 'y', 1, 'import', '2026-12-02T00:00:00Z'),"
		" ('gcp', 'c-v100', 'v100-sxm2-16gb', 'V100', 1, 'y', 1, 'import',"
		" '2026-12-02T00:00:00Z'),"
		" ('gcp', 'd-k80', 'k80', 'K80', 1, 'y', 1, 'import', '2026-12-02T00:00:00Z')",
		NULL, NULL, NULL), SQLITE_OK);
	struct query q;
	query_init(&q);
	q.region_glob = "y";
	q.nsort = 1;
	q.sort[0].field = field_find("sku");
	const char *cols[] = {"sku", "mps", "time_slicing", "cuda_ok"};
	char got[512] = "";
	assert_int_equal(run(&q, cols, 4, collect_sharing, got), 4);
	assert_string_equal(got, "a-mi300x:no,no,null b-p100:no,managed,null "
				 "c-v100:managed,managed,null d-k80:no,managed,null ");
	/* --cuda 12.4 leaves out AMD and Kepler (the drivers are unknown) */
	with_cuda(&q, 12004000, 550054014);
	got[0] = '\0';
	assert_int_equal(run(&q, cols, 4, collect_sharing, got), 2);
	assert_string_equal(got, "b-p100:no,managed,null c-v100:managed,managed,null ");
	/* --cuda 13.0: Pascal and Volta too */
	with_cuda(&q, 13000000, 580000000);
	assert_int_equal(run(&q, cols, 4, collect_sharing, got), 0);
	assert_int_equal(sqlite3_exec(db, "DELETE FROM offer WHERE region = 'y'", NULL, NULL,
				      NULL), SQLITE_OK);
	/* and --explain's reasons, one per filter that has one */
	const char *why[QC_COUNT + 1];
	q.caps = (1u << QC_MPS) | (1u << QC_K8S_MANAGED);
	assert_int_equal(query_why(&q, why, QC_COUNT + 1), 2);
	assert_non_null(strstr(why[0], "--mps: "));
	assert_non_null(strstr(why[1], "--cuda: "));
	q.cuda_num = 0;
	assert_int_equal(query_why(&q, why, QC_COUNT + 1), 1);
}

/* A --gpu count narrows q within --gpus; ids are the spec's. */
static void test_set_gpus(void **state)
{
	(void)state;
	struct gpu_spec s;
	struct query q;
	char *err = NULL;
	gpu_spec_init(&s);
	assert_int_equal(gpu_spec_add(cat.gpus, "h100:8", &s, &err), GC_OK);
	query_init(&q);
	q.min_gpus = 4;
	assert_int_equal(query_set_gpus(&q, &s, &err), GC_OK);
	assert_int_equal(q.ngpus, 3);
	assert_true(q.min_gpus == 8 && q.max_gpus == 8);
	struct query_sql qs;
	const struct field *cols[] = {field_find("gpu")};
	assert_int_equal(query_build(&q, cols, 1, &qs, &err), GC_OK);
	assert_non_null(strstr(qs.sql.ptr, "gpu_count >= ? AND gpu_count <= ?"));
	query_sql_release(&qs);
	query_init(&q);
	q.min_gpus = 16;
	assert_int_equal(query_set_gpus(&q, &s, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "--gpus 16"));
	free(err);
}

struct bounds {
	double max_price;
	int spot;
};

static void check_numbers(sqlite3_stmt *s, void *arg)
{
	struct bounds *b = arg;
	const struct gpu_model *m = gpu_find(cat.gpus, text(s, 0));
	assert_non_null(m);
	assert_string_equal(m->family, "h100");
	assert_true(sqlite3_column_double(s, 1) >= 8);
	assert_true(sqlite3_column_double(s, 2) >= 80);
	double price = sqlite3_column_double(s, b->spot ? 4 : 3);
	assert_true(price <= b->max_price);
	if (b->spot)
		assert_int_not_equal(sqlite3_column_type(s, 4), SQLITE_NULL);
}

static void test_numeric_filters_and_family(void **state)
{
	(void)state;
	struct query q;
	const char *ids[8];
	query_init(&q);
	q.ngpus = gpu_match(cat.gpus, "h100", ids, 8);
	memcpy(q.gpus, ids, sizeof ids);
	q.min_gpus = 8;
	q.min_vram = 80;
	q.max_price = 40;
	const char *cols[] = {"gpu", "gpu_count", "gpu_mem_gb", "price_hr", "spot_price_hr"};
	struct bounds b = {40, 0};
	size_t all = run(&q, cols, 5, check_numbers, &b);
	assert_true(all > 3);
	q.spot = 1;
	q.max_price = 20;
	b.max_price = 20;
	b.spot = 1;
	size_t spot = run(&q, cols, 5, check_numbers, &b);
	assert_true(spot > 0);
}

static void check_region(sqlite3_stmt *s, void *arg)
{
	(void)arg;
	assert_true(strncmp(text(s, 0), "us-", 3) == 0);
	assert_string_equal(text(s, 1), "lambda");
}

static void test_region_glob_and_providers(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.region_glob = "US-*"; /* case-insensitive */
	q.providers[0] = "lambda";
	q.nproviders = 1;
	const char *cols[] = {"region", "provider"};
	assert_true(run(&q, cols, 2, check_region, NULL) > 10);
}

struct order {
	double last_count, last_price;
	char last_key[256];
	size_t n;
};

static void check_order(sqlite3_stmt *s, void *arg)
{
	struct order *o = arg;
	double count = sqlite3_column_double(s, 0), price = sqlite3_column_double(s, 1);
	if (o->n) {
		assert_true(count <= o->last_count);
		if (count == o->last_count)
			assert_true(price >= o->last_price);
	}
	o->last_count = count;
	o->last_price = price;
	o->n++;
}

static void collect_keys(sqlite3_stmt *s, void *arg)
{
	struct buf *b = arg;
	buf_printf(b, "%s|%s|%s;", text(s, 0), text(s, 1), text(s, 2));
}

static void test_sort_and_limit(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.sort[0].field = f("gpu_count");
	q.sort[0].desc = 1;
	q.sort[1].field = f("price_hr");
	q.nsort = 2;
	q.limit = 50;
	struct order o;
	memset(&o, 0, sizeof o);
	const char *cols[] = {"gpu_count", "price_hr"};
	assert_int_equal(run(&q, cols, 2, check_order, &o), 50);
	/* the same query twice lists in the same order, ties included */
	query_init(&q);
	struct buf a, b;
	buf_init(&a, 0);
	buf_init(&b, 0);
	const char *keys[] = {"provider", "sku", "region"};
	run(&q, keys, 3, collect_keys, &a);
	run(&q, keys, 3, collect_keys, &b);
	assert_string_equal(a.ptr, b.ptr);
	buf_free(&a);
	buf_free(&b);
	query_init(&q);
	q.limit = 0;
	assert_int_equal(run(&q, keys, 3, NULL, NULL), 0);
}

/* User text only ever travels as bound parameters. */
static void test_injection_is_harmless(void **state)
{
	(void)state;
	static const char *const evil[] = {
		"lambda'); DROP TABLE offer;--", "x' OR '1'='1", "\"; DELETE FROM offer; --",
		"/* comment */ lambda", "lambda;", "'", "%", "*') OR 1=1 --"};
	for (size_t i = 0; i < sizeof evil / sizeof evil[0]; i++) {
		struct query q;
		query_init(&q);
		q.providers[0] = evil[i];
		q.nproviders = 1;
		q.region_glob = evil[i];
		q.gpus[0] = evil[i];
		q.ngpus = 1;
		const struct field *cols[] = {f("provider")};
		struct query_sql qs;
		assert_int_equal(query_build(&q, cols, 1, &qs, NULL), GC_OK);
		assert_null(strstr(qs.sql.ptr, evil[i]));
		query_sql_release(&qs);
		const char *keys[] = {"provider"};
		assert_int_equal(run(&q, keys, 1, NULL, NULL), 0);
	}
	long long n;
	assert_int_equal(cache_count(cache, &n, NULL), GC_OK);
	assert_true(n > 1000);
}

/* Each row's columns, "|"-separated, appended to a buffer. */
static void collect(sqlite3_stmt *s, void *arg)
{
	struct buf *out = arg;
	for (int i = 0; i < sqlite3_column_count(s); i++)
		buf_printf(out, "%s|", text(s, i) ? text(s, i) : "NULL");
	buf_addc(out, '\n');
}

/* The first `lines` lines of text. */
static size_t head_len(const char *text, size_t lines)
{
	const char *p = text;
	while (lines-- && (p = strchr(p, '\n')))
		p++;
	return p ? (size_t)(p - text) : strlen(text);
}

/* With a LIMIT, a query whose filters and sort keys are offer columns looks
 * its rows up late (an inner query on table offer): the same rows in the
 * same order as the first N of the whole answer, for the price sorts in
 * either direction, the spot price and the ties of the tie-break. */
static void test_late_lookup_same_rows(void **state)
{
	(void)state;
	static const char *const keys[] = {"provider", "sku", "region", "gpu_count",
					   "price_hr", "spot_price_hr", "k8s", "mig"};
	static const char *const sorts[] = {NULL, "gpu_count", "gpu_mem_gb", "region"};
	for (size_t i = 0; i < 2 * (sizeof sorts / sizeof sorts[0]); i++) {
		struct query q;
		query_init(&q);
		q.spot = i == 1;
		q.min_gpus = i % 3 == 0 ? 2 : NAN;
		q.max_price = i % 2 ? 50 : NAN;
		q.gpus[0] = "h100-sxm";
		q.gpus[1] = "a100-sxm-80gb";
		q.ngpus = i < 4 ? 2 : 0;
		if (sorts[i % 4]) {
			q.sort[0].field = f(sorts[i % 4]);
			q.sort[0].desc = i >= 4;
			q.nsort = 1;
		}
		struct buf all, some;
		buf_init(&all, 0);
		buf_init(&some, 0);
		size_t n = run(&q, keys, 8, collect, &all);
		q.limit = 7;
		struct query_sql qs;
		const struct field *cols[] = {f("provider")};
		assert_int_equal(query_build(&q, cols, 1, &qs, NULL), GC_OK);
		/* price orders look among the auction floors apart */
		const char *late = "WHERE id IN (SELECT id FROM offer";
		const char *split = "WHERE id IN (SELECT id FROM (SELECT id FROM offer";
		assert_true(strstr(qs.sql.ptr, late) || strstr(qs.sql.ptr, split));
		query_sql_release(&qs);
		assert_int_equal(run(&q, keys, 8, collect, &some), n < 7 ? n : 7);
		assert_true(n > 0);
		assert_int_equal(some.len, head_len(all.ptr, 7));
		assert_memory_equal(some.ptr, all.ptr, some.len);
		buf_free(&all);
		buf_free(&some);
	}
}

static void test_inline_for_explain(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.providers[0] = "o'brien";
	q.nproviders = 1;
	q.max_price = 2.5;
	q.limit = 10;
	const struct field *cols[] = {f("provider"), f("price_hr")};
	struct query_sql qs;
	assert_int_equal(query_build(&q, cols, 2, &qs, NULL), GC_OK);
	char *sql = query_inline(&qs);
	assert_non_null(strstr(sql, "provider IN ('o''brien')"));
	assert_non_null(strstr(sql, "price_hr <= 2.5"));
	assert_non_null(strstr(sql, "LIMIT 10"));
	assert_null(strchr(sql, '?'));
	/* the inlined SQL runs and agrees with the bound one */
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(cache_db(cache), sql, -1, &s, NULL), SQLITE_OK);
	sqlite3_finalize(s);
	free(sql);
	query_sql_release(&qs);
}

/* Offers of a made-up provider with known drivers, for --cuda and --hours. */
struct cuda_rows {
	int n;
};

static enum gc_status fill_cuda(void *arg, offer_cb cb, void *ctx, char **err)
{
	(void)arg;
	static const struct {
		const char *sku, *driver, *max_cuda;
		double price, spot;
	} rows[] = {
		{"exact", "550.54.14", NULL, 2, 1},       /* NVIDIA's minimum for 12.4 */
		{"one-below", "550.54.13", NULL, 2, NAN},  /* just short of it */
		{"newer", "560.28.03", NULL, 2, NAN},
		{"max-says-12.2", "999.0", "12.2", 2, NAN}, /* the reported max CUDA wins */
		{"max-says-12.4", NULL, "12.4", 2, NAN},
		{"unknown", NULL, NULL, 4, NAN},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct offer o;
		offer_init(&o);
		o.provider = "cudatest";
		o.sku = rows[i].sku;
		o.gpu = "h100-sxm";
		o.gpu_name = "H100";
		o.gpu_count = 1;
		o.region = "r";
		o.price_hr = rows[i].price;
		o.spot_price_hr = rows[i].spot;
		o.driver_version = rows[i].driver;
		o.max_cuda = rows[i].max_cuda;
		o.source = "live";
		o.fetched_at = "2026-12-02T00:00:00Z";
		enum gc_status st = cb(ctx, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

/* "sku=yes,sku=?..." into arg (512 bytes) */
static void collect_sku(sqlite3_stmt *s, void *arg)
{
	char *out = arg;
	size_t len = strlen(out);
	snprintf(out + len, 512 - len, "%s%s%s", len ? "," : "",
		 (const char *)sqlite3_column_text(s, 0),
		 sqlite3_column_type(s, 1) == SQLITE_NULL ? "=?"
		 : sqlite3_column_int(s, 1)		  ? "=yes"
							  : "=no");
}

static void test_cuda_edges(void **state)
{
	(void)state;
	assert_int_equal(cache_replace(cache, "cudatest", NULL, fill_cuda, NULL, NULL, NULL),
			 GC_OK);
	static const char *const providers[] = {"cudatest"};
	struct query q;
	query_init(&q);
	q.providers[0] = providers[0];
	q.nproviders = 1;
	q.sort[0].field = f("sku");
	q.nsort = 1;
	static const char *const keys[] = {"sku", "cuda_ok"};
	char got[512] = "";
	/* without --cuda: cuda_ok is null everywhere and nothing is dropped */
	assert_int_equal(run(&q, keys, 2, collect_sku, got), 6);
	assert_string_equal(got, "exact=?,max-says-12.2=?,max-says-12.4=?,newer=?,one-below=?,"
				 "unknown=?");
	/* --cuda 12.4 (minimum driver 550.54.14): false rows dropped, unknown kept */
	with_cuda(&q, 12004000, 550054014);
	got[0] = '\0';
	assert_int_equal(run(&q, keys, 2, collect_sku, got), 4);
	assert_string_equal(got, "exact=yes,max-says-12.4=yes,newer=yes,unknown=?");
	/* --cuda-strict drops the unknown driver too */
	q.cuda_strict = 1;
	got[0] = '\0';
	assert_int_equal(run(&q, keys, 2, collect_sku, got), 3);
	assert_string_equal(got, "exact=yes,max-says-12.4=yes,newer=yes");
}

static void collect_cost(sqlite3_stmt *s, void *arg)
{
	double *out = arg;
	out[0] = sqlite3_column_type(s, 0) == SQLITE_NULL ? -1 : sqlite3_column_double(s, 0);
	out[1] = sqlite3_column_type(s, 1) == SQLITE_NULL ? -1 : sqlite3_column_double(s, 1);
}

static void test_cost_estimate(void **state)
{
	(void)state;
	assert_int_equal(cache_replace(cache, "cudatest", NULL, fill_cuda, NULL, NULL, NULL),
			 GC_OK);
	struct query q;
	query_init(&q);
	static const char *const providers[] = {"cudatest"};
	q.providers[0] = providers[0];
	q.nproviders = 1;
	q.region_glob = "r";
	q.max_price = 2;
	q.spot = 1; /* only "exact" has a spot price */
	static const char *const keys[] = {"est_cost_usd", "est_spot_cost_usd"};
	double got[2] = {0, 0};
	assert_int_equal(run(&q, keys, 2, collect_cost, got), 1);
	assert_true(got[0] < 0 && got[1] < 0); /* no --hours: null */
	q.hours = 10;
	q.nodes = 3;
	query_prepare_fields(&q);
	assert_int_equal(run(&q, keys, 2, collect_cost, got), 1);
	assert_float_equal(got[0], 2 * 10 * 3, 1e-9);
	assert_float_equal(got[1], 1 * 10 * 3, 1e-9);
}

/* The whole job's cost (docs/OUTPUT.md, "The job's cost"): the SQL of each
 * part over rows of the columns it reads, with every fact known, unknown
 * and free; an unknown part is null and never counted as 0 in silence. */
struct part_row {
	double v[7]; /* gpu, k8s fee, disk, egress, total, spot total, complete; -1 null */
};

static void cost_rows(const struct query *q, struct part_row *out, size_t n)
{
	static const char *const keys[] = {"cost_gpu_usd", "cost_k8s_fee_usd", "cost_disk_usd",
					   "cost_egress_usd", "est_cost_usd",
					   "est_spot_cost_usd", "cost_complete"};
	sqlite3 *db;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	/* id, price_hr, spot_price_hr, k8s_fee_hr, storage, egress $/GB, free GB */
	assert_int_equal(sqlite3_exec(db,
		"CREATE TABLE t(id, price_hr, spot_price_hr, k8s_fee_hr, storage_usd_gb_month,"
		" egress_usd_gb, egress_free_gb_month);"
		"INSERT INTO t VALUES (1, 2, 1, 0.1, 0.1, 0.09, 100),"
		" (2, 2, NULL, NULL, NULL, 0.05, NULL),"
		" (3, 2, 1, 0, 0.2, 0, NULL),"
		" (4, 2, 1, 0, NULL, NULL, 1000),"
		" (5, NULL, NULL, 0, 0.1, 0.09, 100);", NULL, NULL, NULL), SQLITE_OK);
	char sql[4096] = "SELECT ";
	for (size_t i = 0; i < 7; i++) {
		size_t o = strlen(sql);
		snprintf(sql + o, sizeof sql - o, "%s(%s)", i ? ", " : "",
			 query_field_sql(q, f(keys[i])));
	}
	size_t o = strlen(sql);
	snprintf(sql + o, sizeof sql - o, " FROM t ORDER BY id");
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	for (size_t r = 0; r < n; r++) {
		assert_int_equal(sqlite3_step(st), SQLITE_ROW);
		for (int i = 0; i < 7; i++)
			out[r].v[i] = sqlite3_column_type(st, i) == SQLITE_NULL
					      ? -1 : sqlite3_column_double(st, i);
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void assert_row(const struct part_row *r, const double *want)
{
	for (int i = 0; i < 7; i++)
		if (fabs(r->v[i] - want[i]) > 1e-9)
			fail_msg("part %d: got %g, want %g", i, r->v[i], want[i]);
}

static void test_cost_parts(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	struct part_row rows[5];
	cost_rows(&q, rows, 5); /* no --hours: every part and the flag null */
	static const double none[7] = {-1, -1, -1, -1, -1, -1, -1};
	for (int i = 0; i < 5; i++)
		assert_row(&rows[i], none);
	/* --hours 10 --nodes 2 --k8s managed --disk 730 --egress 300 */
	q.hours = 10;
	q.nodes = 2;
	q.k8s_fee = 1;
	q.disk_gb = 730;
	q.egress_gb = 300;
	query_prepare_fields(&q);
	cost_rows(&q, rows, 5);
	/* all known: 2*10*2 + 0.1*10 + 730*0.1*10/730 + (300-100)*0.09 */
	assert_row(&rows[0], (double[]){40, 1, 1, 18, 60, 40, 1});
	/* fee, storage and allowance unknown: those parts null, the total a floor */
	assert_row(&rows[1], (double[]){40, -1, -1, -1, 40, -1, 0});
	/* free egress and a free control plane: 0 whatever the allowance */
	assert_row(&rows[2], (double[]){40, 0, 2, 0, 42, 22, 1});
	/* within the allowance: 0 though the rate is unknown; storage unknown */
	assert_row(&rows[3], (double[]){40, 0, -1, 0, 40, 20, 0});
	/* no price: no GPU part, no total; the other parts still known */
	assert_row(&rows[4], (double[]){-1, 0, 1, 18, -1, -1, 1});
	/* only --hours: the other parts are 0 and known, unknown facts or not */
	q.k8s_fee = 0;
	q.disk_gb = NAN;
	q.egress_gb = NAN;
	query_prepare_fields(&q);
	cost_rows(&q, rows, 5);
	assert_row(&rows[1], (double[]){40, 0, 0, 0, 40, -1, 1});
}

/* --- the query API: capability filters, providers, list, age ----------- */

struct idset {
	char ids[128][64];
	size_t n;
};

static int idset_has(const struct idset *set, const char *id)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->ids[i], id) == 0)
			return 1;
	return 0;
}

static void idset_add(sqlite3_stmt *s, void *arg)
{
	struct idset *set = arg;
	const char *id = text(s, 0);
	if (!idset_has(set, id) && set->n < 128)
		snprintf(set->ids[set->n++], sizeof set->ids[0], "%s", id);
}

/* The providers with an offer that filter c keeps (the offer path). */
static void offer_providers(enum query_cap c, struct idset *set)
{
	struct query q;
	query_init(&q);
	q.caps = 1u << c;
	static const char *const keys[] = {"provider"};
	memset(set, 0, sizeof *set);
	run(&q, keys, 1, idset_add, set);
}

/* The providers filter c keeps (the provider path). */
static void profile_providers(enum query_cap c, struct idset *set)
{
	struct query q;
	query_init(&q);
	q.caps = 1u << c;
	struct query_provider *rows;
	size_t n;
	assert_int_equal(query_providers(cache, &cat.profiles, &q, &rows, &n, NULL), GC_OK);
	memset(set, 0, sizeof *set);
	for (size_t i = 0; i < n; i++)
		snprintf(set->ids[set->n++], sizeof set->ids[0], "%s", rows[i].p->id);
	free(rows);
}

/* One filter, two paths: a provider with an offer the filter keeps
 * qualifies itself, unless its profile does not know (unknown) and the
 * instance-type table answers for that offer (NVLink on HGX types). */
static void test_caps_two_paths(void **state)
{
	(void)state;
	size_t checked = 0;
	for (int c = QC_K8S_MANAGED; c < QC_COUNT; c++) {
		struct idset offers, providers;
		offer_providers((enum query_cap)c, &offers);
		profile_providers((enum query_cap)c, &providers);
		for (size_t i = 0; i < offers.n; i++) {
			const struct profile *p = profile_set_find(&cat.profiles, offers.ids[i]);
			if (!p || idset_has(&providers, offers.ids[i])) {
				checked++;
				continue;
			}
			assert_string_equal(profile_text(p, query_caps[c].path[0]), "unknown");
		}
		/* and the provider path is the profile test */
		for (size_t i = 0; i < cat.profiles.n; i++) {
			const struct profile *p = cat.profiles.items[i];
			assert_int_equal(idset_has(&providers, p->id),
					 query_cap_profile((enum query_cap)c, p));
		}
	}
	assert_true(checked > 20);
}

static void test_cap_table(void **state)
{
	(void)state;
	assert_int_equal(query_cap_find("k8s", "managed"), QC_K8S_MANAGED);
	assert_int_equal(query_cap_find("k8s", "none"), QC_K8S_NONE);
	assert_int_equal(query_cap_find("docker", "base"), QC_DOCKER_BASE);
	assert_int_equal(query_cap_find("ib", NULL), QC_IB);
	assert_int_equal(query_cap_find("ib", "1"), QC_IB); /* a flag's value is ignored */
	assert_int_equal(query_cap_find("time-slicing", NULL), QC_TIME_SLICING);
	assert_int_equal(query_cap_find("k8s", "bogus"), -1);
	assert_int_equal(query_cap_find("k8s", NULL), -1);
	assert_int_equal(query_cap_find("gpu", "h100"), -1);
	for (int c = 0; c < QC_COUNT; c++)
		assert_non_null(query_caps[c].offer_sql);
	/* no profile test: does not narrow providers, even without a profile */
	assert_true(query_cap_profile(QC_AVAILABLE, NULL));
	assert_false(query_cap_profile(QC_IB, NULL));
}

/* --k8s: each value's profile test, over every built-in profile. */
static void test_k8s_values(void **state)
{
	(void)state;
	static const struct {
		enum query_cap c;
		const char *modes; /* the modes that qualify, space separated */
	} want[] = {{QC_K8S_MANAGED, " managed both "}, {QC_K8S_JOIN, " join both "},
		    {QC_K8S_ANY, " managed join both "}, {QC_K8S_NONE, " none "}};
	size_t seen[4] = {0};
	for (size_t i = 0; i < cat.profiles.n; i++) {
		const struct profile *p = cat.profiles.items[i];
		char mode[40];
		snprintf(mode, sizeof mode, " %s ", profile_text(p, "kubernetes.mode"));
		for (size_t k = 0; k < 4; k++) {
			int ok = strstr(want[k].modes, mode) != NULL;
			assert_int_equal(query_cap_profile(want[k].c, p), ok);
			seen[k] += (size_t)ok;
		}
	}
	assert_true(seen[0] > 0 && seen[1] > 0 && seen[2] >= seen[0]);
	assert_int_equal(query_caps_profile((1u << QC_K8S_MANAGED) | (1u << QC_K8S_NONE),
					    cat.profiles.items[0]), 0);
}

static void check_ib_row(sqlite3_stmt *s, void *arg)
{
	(void)arg;
	assert_int_equal(sqlite3_column_type(s, 0), SQLITE_INTEGER);
	assert_int_equal(sqlite3_column_int(s, 0), 1);
}

/* --ib: an offer needs InfiniBand on its row; a provider "yes" or "some". */
static void test_ib_rules(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.caps = 1u << QC_IB;
	static const char *const keys[] = {"infiniband"};
	assert_true(run(&q, keys, 1, check_ib_row, NULL) > 0);
	size_t some = 0;
	for (size_t i = 0; i < cat.profiles.n; i++) {
		const struct profile *p = cat.profiles.items[i];
		const char *ib = profile_text(p, "interconnect.infiniband");
		int want = strcmp(ib, "yes") == 0 || strcmp(ib, "some") == 0;
		assert_int_equal(query_cap_profile(QC_IB, p), want);
		some += strcmp(ib, "some") == 0;
	}
	assert_true(some > 0); /* the rule that differs from the offer's is exercised */
}

/* Offer counts and cheapest prices of providers agree with a plain list. */
static void test_provider_stats_and_where(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	struct query_provider *rows;
	size_t n;
	assert_int_equal(query_providers(cache, &cat.profiles, &q, &rows, &n, NULL), GC_OK);
	assert_int_equal(n, cat.profiles.n);
	static const char *const keys[] = {"provider"};
	for (size_t i = 0; i < n; i++) {
		struct query one;
		query_init(&one);
		one.providers[0] = rows[i].p->id;
		one.nproviders = 1;
		assert_int_equal(run(&one, keys, 1, NULL, NULL), (size_t)rows[i].offers);
		assert_true(rows[i].offers > 0 || isnan(rows[i].min_price_hr));
	}
	free(rows);
	/* --where over the provider table, with the summary's keys */
	struct where_result w;
	char *err = NULL;
	assert_int_equal(where_compile("k8s = managed and id != 'aws'", query_provider_field,
				       query_provider_suggest, NULL, &w, &err), GC_OK);
	q.where = &w;
	q.caps = 1u << QC_K8S_ANY;
	assert_int_equal(query_providers(cache, &cat.profiles, &q, &rows, &n, NULL), GC_OK);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		/* k8s = managed means what --k8s managed means: managed or both */
		assert_true(query_cap_profile(QC_K8S_MANAGED, rows[i].p));
		assert_string_not_equal(rows[i].p->id, "aws");
	}
	free(rows);
	where_result_release(&w);
	assert_string_equal(query_provider_suggest(NULL, "k8"), "k8s");
}

/* Compile list --where `expr` for q (query_offer_field; provider ids from
 * the catalog's profiles and the cache). */
static enum gc_status compile_where(const struct query *q, const char *expr,
				    struct where_result *r, char **err)
{
	struct query_where w;
	assert_int_equal(query_where_init(&w, q, &cat.profiles, cache, NULL), GC_OK);
	w.cat = &cat;
	enum gc_status st = where_compile(expr, query_offer_field, query_offer_suggest, &w, r, err);
	query_where_release(&w);
	return st;
}

/* Rows of list --where `expr`. */
static size_t run_where(const char *expr)
{
	struct query q;
	query_init(&q);
	struct where_result r;
	char *err = NULL;
	if (compile_where(&q, expr, &r, &err) != GC_OK)
		fail_msg("'%s': %s", expr, err);
	q.where = &r;
	static const char *const keys[] = {"provider"};
	size_t n = run(&q, keys, 1, NULL, NULL);
	where_result_release(&r);
	return n;
}

static size_t run_caps(unsigned caps)
{
	struct query q;
	query_init(&q);
	q.caps = caps;
	static const char *const keys[] = {"provider"};
	return run(&q, keys, 1, NULL, NULL);
}

/* k8s = MODE in --where is the filter --k8s MODE: one definition
 * (query_caps), read by both. */
static void test_where_k8s_is_the_filter(void **state)
{
	(void)state;
	static const struct {
		const char *expr;
		unsigned caps;
	} same[] = {
		{"k8s = managed", 1u << QC_K8S_MANAGED},
		{"k8s = join", 1u << QC_K8S_JOIN},
		{"k8s = none", 1u << QC_K8S_NONE},
		{"k8s in (managed, join)", 1u << QC_K8S_ANY},
		{"k8s = 'Managed'", 1u << QC_K8S_MANAGED},
	};
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
		if (run_where(same[i].expr) != run_caps(same[i].caps))
			fail_msg("'%s' differs from its filter", same[i].expr);
	size_t both = run_where("k8s = both");
	assert_true(both > 0);
	assert_int_equal(run_where("k8s = managed") + run_where("k8s != managed"),
			 run_caps(0) - run_where("k8s = unknown"));
	assert_int_equal(run_where("k8s = managed and k8s = join"), both);
}

/* An unknown enum value is null: no comparison matches it, negated or not. */
static void test_where_unknown_is_null(void **state)
{
	(void)state;
	size_t no = run_where("mig = no"), other = run_where("mig != no");
	size_t unknown = run_where("mig = unknown");
	assert_true(no > 0 && other > 0 && unknown > 0);
	assert_int_equal(no + other + unknown, run_caps(0));
	assert_int_equal(run_where("not mig = no"), other);
	assert_int_equal(run_where("not (mig = no)"), other);
	assert_int_equal(run_where("mig not in (no)"), other);
	assert_int_equal(run_where("mig = null"), unknown);
	assert_int_equal(run_where("mig != unknown"), no + other);
}

static void where_refused(const char *expr, const char *want)
{
	struct query q;
	query_init(&q);
	struct where_result r;
	char *err = NULL;
	assert_int_equal(compile_where(&q, expr, &r, &err), GC_EUSAGE);
	if (!strstr(err, want))
		fail_msg("'%s': '%s', want '%s'", expr, err, want);
	free(err);
}

/* A value outside the field's domain is refused, never an empty answer. */
static void test_where_domains(void **state)
{
	(void)state;
	where_refused("k8s = manged", "unknown k8s value 'manged'; did you mean 'managed'?");
	where_refused("rdma = infiniband", "expected ib, roce, efa, no or unknown");
	where_refused("mig = yes", "expected managed, self, no or unknown");
	where_refused("provider = lamda", "did you mean 'lambda'?");
	where_refused("provider in (lambda, xxxxxxxx)", "'gpucmp providers' lists them");
	where_refused("k8s in (managed, unknown)", "unknown cannot be in a list");
	struct query q;
	query_init(&q);
	q.providers[0] = "lambda";
	q.nproviders = 1;
	static const char *const keys[] = {"provider"};
	assert_int_equal(run_where("provider = LAMBDA"), run(&q, keys, 1, NULL, NULL));
	/* globs and order are not values of the domain */
	assert_int_equal(run_where("provider ~ 'LAMB*'"), run(&q, keys, 1, NULL, NULL));
	assert_true(run_where("provider < 'b'") > 0);
}

/* Rows of list --gpu `spec`. */
static size_t run_gpu(const char *spec)
{
	struct gpu_spec s;
	struct query q;
	gpu_spec_init(&s);
	assert_int_equal(gpu_spec_add(cat.gpus, spec, &s, NULL), GC_OK);
	query_init(&q);
	assert_int_equal(query_set_gpus(&q, &s, NULL), GC_OK);
	static const char *const keys[] = {"provider"};
	return run(&q, keys, 1, NULL, NULL);
}

/* gpu = NAME in --where is --gpu NAME, in any case: a family (h100) is its
 * models; a name the GPU table does not resolve is compared as it is. */
static void test_where_gpu_is_the_filter(void **state)
{
	(void)state;
	size_t h100 = run_gpu("h100");
	assert_true(h100 > run_gpu("h100-sxm"));
	assert_int_equal(run_where("gpu = h100"), h100);
	assert_int_equal(run_where("gpu = H100"), h100);
	assert_int_equal(run_where("gpu = 'H100-SXM'"), run_gpu("h100-sxm"));
	assert_int_equal(run_where("gpu in (H100, a100)"), h100 + run_gpu("a100"));
	assert_int_equal(run_where("gpu != h100"), run_caps(0) - h100);
	/* a count is not a GPU; an unknown name matches only itself */
	assert_int_equal(run_where("gpu = 'h100:8'"), 0);
	assert_int_equal(run_where("gpu = h100x"), 0);
	/* a glob is a glob over the ids, not a family */
	assert_int_equal(run_where("gpu ~ 'H100*'"), h100);
}

/* country = WORD in --where takes a country by any of its words, as
 * --region does; a word that names none is refused. */
static void test_where_country_words(void **state)
{
	(void)state;
	size_t de = run_where("country = DE");
	assert_true(de > 0);
	assert_int_equal(run_where("country = de"), de);
	assert_int_equal(run_where("country = DEU"), de);
	assert_int_equal(run_where("country = germany"), de);
	assert_int_equal(run_where("country in (germany, uk)"), de + run_where("country = GB"));
	where_refused("country = GER", "unknown country value 'GER'; did you mean DE (Germany)?");
	where_refused("country = zzzzz", "'gpucmp help regions' lists them");
	where_refused("country = XX", "unknown country value 'XX'");
}

/* list through the library: every row rendered, the same count as the SQL. */
static void test_list_and_age(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.caps = 1u << QC_K8S_ANY;
	const struct field *cols[] = {f("provider"), f("sku")};
	struct query_sql qs;
	assert_int_equal(query_build(&q, cols, 2, &qs, NULL), GC_OK);
	FILE *out = tmpfile();
	assert_non_null(out);
	struct render_spec spec = {.format = RF_CSV, .cols = cols, .ncols = 2, .out = out};
	size_t rows = 0;
	assert_int_equal(query_list(cache, &qs, &spec, &rows, NULL), GC_OK);
	query_sql_release(&qs);
	static const char *const keys[] = {"provider"};
	assert_int_equal(rows, run(&q, keys, 1, NULL, NULL));
	assert_int_equal((size_t)ftell(out) > rows * 4, 1);
	fclose(out);
	struct query_age age;
	assert_int_equal(query_age(cache, &age, NULL), GC_OK);
	assert_true(age.snapshot_days > 0);
	assert_int_equal(strlen(age.snapshot_date), 10);
	assert_int_equal(age.nstale, 0);
}

/* The footer's note on what an answer rests on: each part only when it
 * applies, and the stale hint once the oldest data passes stale_after. */
static void test_age_note(void **state)
{
	(void)state;
	struct query_age age = {.refreshed = 2, .oldest = 1000, .newest = 1000 + 3600,
				.snapshot_days = -1};
	char out[640];
	query_age_note(&age, 1000 + 7200, 0, 86400, out, sizeof out);
	assert_string_equal(out, "; 2 providers refreshed 60 min to 2 h ago");
	age.refreshed = 0;
	age.snapshot_days = 20592; /* 2026-05-20 */
	snprintf(age.snapshot_date, sizeof age.snapshot_date, "2026-05-20");
	age.nstale = 1;
	snprintf(age.stale[0], sizeof age.stale[0], "vast");
	query_age_note(&age, 20788 * 86400LL, 20788, 86400, out, sizeof out);
	assert_string_equal(out, "; built-in snapshot prices are from 2026-05-20 (196 days ago)"
				 "; stale (last refresh failed): vast"
				 "; data older than 24 h is stale: run 'gpucmp refresh'");
	age = (struct query_age){.snapshot_days = -1};
	query_age_note(&age, 5, 0, 86400, out, sizeof out);
	assert_string_equal(out, "");
}

/* A field of the offer or of a group. */
static const struct field *fg(const char *key)
{
	const struct field *x = field_find(key);
	if (!x)
		x = group_field_find(key);
	assert_non_null(x);
	return x;
}

struct group_check {
	int spot;
	size_t rows;
	double offers, prev_sort;
	int by_offers_desc;
};

/* Each group row is its cheapest offer: its price is the group's minimum,
 * its region the first of the group's regions, and regions count once. */
static void check_group(sqlite3_stmt *s, void *arg)
{
	struct group_check *g = arg;
	const char *region = (const char *)sqlite3_column_text(s, 2);
	double price = sqlite3_column_double(s, 3), spot = sqlite3_column_double(s, 4);
	double offers = sqlite3_column_double(s, 5), nregions = sqlite3_column_double(s, 6);
	const char *regions = (const char *)sqlite3_column_text(s, 7);
	double min = sqlite3_column_double(s, 8), max = sqlite3_column_double(s, 9);
	double smin = sqlite3_column_double(s, 10);
	assert_non_null(region);
	assert_non_null(regions);
	assert_true(g->spot ? spot == smin : price == min);
	assert_true(max >= min);
	assert_true(offers >= nregions && nregions >= 1);
	assert_int_equal(strncmp(regions, region, strlen(region)), 0);
	size_t items = 1;
	for (const char *p = regions; *p; p++)
		items += *p == FIELD_LIST_SEP;
	assert_int_equal((double)items, nregions);
	if (g->by_offers_desc && g->rows)
		assert_true(offers <= g->prev_sort);
	g->prev_sort = offers;
	g->offers += offers;
	g->rows++;
}

static size_t run_group(const struct query *q, struct group_check *g)
{
	static const char *const keys[] = {"provider", "sku", "region", "price_hr",
					   "spot_price_hr", "offers", "region_count", "regions",
					   "min_price_hr", "max_price_hr", "min_spot_price_hr"};
	const struct field *cols[11];
	for (size_t i = 0; i < 11; i++)
		cols[i] = fg(keys[i]);
	struct query_sql qs;
	sqlite3_stmt *s = NULL;
	char *err = NULL;
	assert_int_equal(query_build(q, cols, 11, &qs, &err), GC_OK);
	if (query_prepare(cache_db(cache), &qs, &s, &err) != GC_OK)
		fail_msg("%s\n%s", err, qs.sql.ptr);
	while (sqlite3_step(s) == SQLITE_ROW)
		check_group(s, g);
	sqlite3_finalize(s);
	query_sql_release(&qs);
	return g->rows;
}

/* One row per provider and SKU: as many rows as distinct pairs among the
 * offers the filters keep, their offers adding up to every offer, and
 * query_count saying the same. */
static void test_group_by_sku(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.caps = (1u << QC_K8S_MANAGED) | (1u << QC_MIG);
	size_t offers = run(&q, (const char *const[]){"provider"}, 1, NULL, NULL);
	q.group = QG_SKU;
	struct group_check g = {0};
	size_t rows = run_group(&q, &g);
	struct query_counts n;
	assert_int_equal(query_count(cache, &q, 1, &n, NULL), GC_OK);
	assert_int_equal(n.offers, (long long)offers);
	assert_int_equal(n.groups, (long long)rows);
	assert_int_equal(n.providers, 2);
	assert_true(rows > 10 && rows < offers / 4);
	assert_int_equal((size_t)g.offers, offers);
	q.limit = 3;
	struct group_check h = {0};
	assert_int_equal(run_group(&q, &h), 3);
	assert_int_equal(query_count(cache, &q, 1, &n, NULL), GC_OK);
	assert_int_equal(n.groups, (long long)rows); /* the limit cuts rows, not the count */
	assert_int_equal(query_count(cache, &q, 0, &n, NULL), GC_OK);
	assert_int_equal(n.groups, -1); /* not asked: the costly distinct count is skipped */
	assert_int_equal(n.offers, (long long)offers);
}

/* With --spot a group's row is its cheapest spot offer; --sort takes a
 * group's member; every grouping runs. */
static void test_group_spot_sort_and_keys(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.spot = 1;
	q.group = QG_SKU;
	struct group_check g = {.spot = 1};
	assert_true(run_group(&q, &g) > 0);
	q.spot = 0;
	q.sort[0] = (struct sort_key){group_field_find("offers"), 1};
	q.nsort = 1;
	for (int by = QG_SKU; by < QG_COUNT; by++) {
		q.group = (enum query_group)by;
		struct group_check h = {.by_offers_desc = 1};
		assert_true(run_group(&q, &h) > 0);
		struct query_counts n;
		assert_int_equal(query_count(cache, &q, 1, &n, NULL), GC_OK);
		assert_int_equal((long long)h.offers, n.offers);
		assert_int_equal((long long)h.rows, n.groups);
	}
	assert_int_equal(query_group_find("gpu"), QG_GPU);
	assert_int_equal(query_group_find("country"), -1);
}

/* The CSV of q over cols (n), by the grouped statement (sql) or by
 * query_run (query_group_list for a grouping); a new string.  counts (may
 * be NULL) gets query_run's. */
static char *group_csv(const struct query *q, const struct field *const *cols, size_t n,
		       int sql, struct query_counts *counts)
{
	FILE *out = tmpfile();
	assert_non_null(out);
	struct render_spec spec = {.format = RF_CSV, .cols = cols, .ncols = n, .out = out};
	size_t rows = 0;
	char *err = NULL;
	if (sql) {
		struct query_sql qs;
		assert_int_equal(query_build(q, cols, n, &qs, NULL), GC_OK);
		if (query_list(cache, &qs, &spec, &rows, &err) != GC_OK)
			fail_msg("%s", err);
		query_sql_release(&qs);
	} else if (query_run(cache, q, cols, n, &spec, &rows, counts, NULL, &err) != GC_OK) {
		fail_msg("%s", err);
	}
	long len = ftell(out);
	assert_true(len >= 0);
	char *text = calloc((size_t)len + 1, 1);
	assert_non_null(text);
	rewind(out);
	assert_int_equal(fread(text, 1, (size_t)len, out), (size_t)len);
	fclose(out);
	return text;
}

/* The grouping in one pass (query_group_list) gives the grouped
 * statement's rows byte for byte: every grouping, sorts on offer fields,
 * on group members (the region list too) and both ways, --spot, filters
 * (on the view's columns and on the table's, which the pass reads from
 * table offer), limits; and counts what query_count counts. */
static void test_group_pass_same_rows(void **state)
{
	(void)state;
	static const char *const keys[] = {"provider", "sku", "gpu", "gpu_count", "region",
					   "price_hr", "spot_price_hr", "k8s", "offers",
					   "region_count", "regions", "min_price_hr",
					   "max_price_hr", "min_spot_price_hr"};
	const struct field *cols[14];
	for (size_t i = 0; i < 14; i++)
		cols[i] = fg(keys[i]);
	static const struct {
		const char *key;
		int desc;
	} sorts[] = {{NULL, 0}, {"price", 1}, {"offers", 1}, {"region_count", 0},
		     {"regions", 0}, {"gpu_mem_gb", 1}, {"k8s", 0}, {"min_spot_price_hr", 1}};
	size_t cases = 0;
	for (int by = QG_SKU; by < QG_COUNT; by++)
		for (size_t k = 0; k < sizeof sorts / sizeof sorts[0]; k++)
			for (int v = 0; v < 4; v++) {
				struct query q;
				query_init(&q);
				q.group = (enum query_group)by;
				q.limit = v == 1 ? 7 : v == 3 ? 0 : -1;
				q.spot = v == 2;
				q.caps = v == 2 ? 1u << QC_K8S_ANY : 0;
				q.min_gpus = v == 1 ? 2 : NAN; /* read from table offer */
				/* every kind by its number (table offer), or two kinds
				 * (the view's price_kind) */
				q.price_kinds = v == 1 && by % 2 ? QPK_ALL
						: v == 0 && by == QG_GPU
							? 1u << QPK_FIXED | 1u << QPK_AUCTION_FLOOR
							: 0;
				if (sorts[k].key) {
					q.sort[0].field = strcmp(sorts[k].key, "price") == 0
								  ? NULL
								  : fg(sorts[k].key);
					q.sort[0].desc = sorts[k].desc;
					/* vcpus: the view's; region: the table's too */
					q.sort[1].field = f(k % 2 ? "vcpus" : "region");
					q.nsort = 2;
				}
				struct query_counts n;
				char *b = group_csv(&q, cols, 14, 0, &n);
				/* the statement cannot sort on the region list
				 * (test_group_regions_cheapest_first does) */
				int by_list = sorts[k].key && strcmp(sorts[k].key, "regions") == 0;
				char *a = by_list ? strdup(b) : group_csv(&q, cols, 14, 1, NULL);
				if (strcmp(a, b) != 0)
					fail_msg("group-by %d, sort %zu, variant %d:\n%s\n---\n%s",
						 by, k, v, a, b);
				assert_true(strlen(a) > 200 || v == 3);
				free(a);
				free(b);
				struct query_counts m;
				q.limit = -1;
				assert_int_equal(query_count(cache, &q, 1, &m, NULL), GC_OK);
				assert_true(v == 3 || (n.offers == m.offers &&
						       n.providers == m.providers &&
						       n.groups == m.groups));
				cases++;
			}
	assert_int_equal(cases, 4 * 8 * 4);
}

/* One case of test_unknown_counted_in_the_scan: how many filters the run
 * listed. */
static size_t counted_case(const char *region, int k, int v)
{
	const struct field *cols[] = {f("provider"), f("sku"), f("price_hr")};
	struct query q;
	query_init(&q);
	q.group = QG_SKU;
	q.region_glob = region;
	q.caps = k < 0 ? 0 : 1u << k;
	if (v)
		q.caps |= 1u << QC_MIG | 1u << QC_K8S_ANY;
	q.min_gpus = k == QC_IB ? 8 : NAN;
	FILE *out = tmpfile();
	assert_non_null(out);
	struct render_spec spec = {.format = RF_CSV, .cols = cols, .ncols = 3, .out = out};
	size_t rows = 0, plain = 0;
	struct query_omitted a, b;
	assert_int_equal(query_run(cache, &q, cols, 3, &spec, &rows, NULL, &a, NULL), GC_OK);
	/* the same rows without the counting */
	assert_int_equal(query_run(cache, &q, cols, 3, &spec, &plain, NULL, NULL, NULL), GC_OK);
	assert_int_equal(rows, plain);
	fclose(out);
	assert_int_equal(query_omitted(cache, &q, &b, NULL), GC_OK);
	assert_int_equal(a.counted, 1);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++) {
		assert_string_equal(a.items[i].filter, b.items[i].filter);
		assert_int_equal(a.items[i].offers, b.items[i].offers);
		assert_string_equal(a.items[i].providers, b.items[i].providers);
	}
	return a.n;
}

/* The offers left out as unknown, counted in the grouped answer's own
 * scan (query_run), are query_omitted's, one count per filter: region
 * words, every capability filter, alone and with two more, with another
 * filter; and the run's rows are those of the scan without the counting. */
static void test_unknown_counted_in_the_scan(void **state)
{
	(void)state;
	static const char *const regions[] = {NULL, "us", "de"};
	size_t listed = 0;
	for (size_t r = 0; r < sizeof regions / sizeof regions[0]; r++)
		for (int k = -1; k < QC_COUNT; k++)
			for (int v = 0; v < 2; v++)
				listed += counted_case(regions[r], k, v);
	assert_true(listed > 20); /* the snapshot leaves some out */
}

/* An empty answer names the filter that took the count to zero, as counts
 * of each prefix of the filters would (query_count). */
static void test_empty_reason_one_pass(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	const char *gpus[] = {"l4"};
	memcpy(q.gpus, gpus, sizeof gpus);
	q.ngpus = 1;
	q.region_glob = "eu";
	q.caps = 1u << QC_IB;
	struct query_counts n;
	assert_int_equal(query_count(cache, &q, 0, &n, NULL), GC_OK);
	assert_int_equal(n.offers, 0);
	struct query t = q;
	t.caps = 0;
	assert_int_equal(query_count(cache, &t, 0, &n, NULL), GC_OK);
	assert_true(n.offers > 0);
	struct query_empty e;
	assert_int_equal(query_empty_reason(cache, &q, &e, NULL), GC_OK);
	assert_string_equal(e.filter, "--ib");
	assert_string_equal(e.after, "--gpu, --region");
	assert_int_equal(e.before, n.offers);
	/* the first filter empties it: every offer before it */
	const char *none[] = {"no-such-gpu"};
	memcpy(q.gpus, none, sizeof none);
	assert_int_equal(query_empty_reason(cache, &q, &e, NULL), GC_OK);
	assert_string_equal(e.filter, "--gpu");
	assert_string_equal(e.after, "");
	query_init(&t);
	assert_int_equal(query_count(cache, &t, 0, &n, NULL), GC_OK);
	assert_int_equal(e.before, n.offers);
	/* a query that matches: before -1 */
	q.ngpus = 0;
	q.region_glob = NULL;
	assert_int_equal(query_empty_reason(cache, &q, &e, NULL), GC_OK);
	assert_int_equal(e.before, -1);
}


/* One H100 offer of provider grouptest, as the grouping tests load them. */
static enum gc_status group_offer(offer_cb cb, void *ctx, const char *sku, const char *region,
				  const char *kind, double price, double spot, char **err)
{
	struct offer o;
	offer_init(&o);
	o.provider = "grouptest";
	o.sku = sku;
	o.gpu = "h100-sxm";
	o.gpu_name = "H100";
	o.gpu_count = 1;
	o.region = region;
	o.price_hr = price;
	o.spot_price_hr = spot;
	o.price_kind = kind;
	o.source = "live";
	o.fetched_at = "2026-12-02T00:00:00Z";
	return cb(ctx, &o, err);
}
/* Offers of a made-up provider whose price order and key order disagree:
 * SKU "a" comes first by name and second by price; a region seen twice
 * (r-a, r-z) counts once at its cheaper price, met after the dearer one;
 * SKU "c" ties on price. */
static enum gc_status fill_groups(void *arg, offer_cb cb, void *ctx, char **err)
{
	(void)arg;
	static const struct {
		const char *sku, *region;
		double price, spot;
	} rows[] = {
		{"a", "r-z", 9, NAN}, {"a", "r-a", 5, NAN}, {"a", "r-m", 7, NAN},
		{"a", "r-a", 3, NAN}, {"a", "r-z", 4, NAN}, {"b", "r-b", 1, NAN},
		{"b", "r-b", 8, NAN}, {"b", "r-c", 2, 0.5}, {"c", "r-q", 6, NAN},
		{"c", "r-p", 6, NAN},
	};
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < sizeof rows / sizeof rows[0]; i++)
		st = group_offer(cb, ctx, rows[i].sku, rows[i].region, NULL, rows[i].price,
				 rows[i].spot, err);
	return st;
}

static enum gc_status fill_none(void *arg, offer_cb cb, void *ctx, char **err)
{
	(void)arg;
	(void)cb;
	(void)ctx;
	(void)err;
	return GC_OK;
}

/* A group's regions come cheapest first (each at its cheapest offer, a
 * tie by name), a region counts once, and the groups go by their
 * cheapest offer, not by name; both the one pass and the statement. */
static void test_group_regions_cheapest_first(void **state)
{
	(void)state;
	assert_int_equal(cache_replace(cache, "grouptest", NULL, fill_groups, NULL, NULL, NULL),
			 GC_OK);
	static const char *const keys[] = {"sku", "region", "price_hr", "offers",
					   "region_count", "regions", "min_price_hr",
					   "max_price_hr", "min_spot_price_hr"};
	const struct field *cols[9];
	for (size_t i = 0; i < 9; i++)
		cols[i] = fg(keys[i]);
	struct query q;
	query_init(&q);
	q.providers[0] = "grouptest";
	q.nproviders = 1;
	q.group = QG_SKU;
	static const char want[] =
		"sku,region,price_hr,offers,region_count,regions,min_price_hr,max_price_hr,"
		"min_spot_price_hr\n"
		"b,r-b,1,3,2,\"r-b, r-c\",1,8,0.5\n"
		"a,r-a,3,5,3,\"r-a, r-z, r-m\",3,9,\n"
		"c,r-p,6,2,2,\"r-p, r-q\",6,6,\n";
	struct query_counts n;
	for (int sql = 0; sql < 2; sql++) {
		char *got = group_csv(&q, cols, 9, sql, &n);
		assert_string_equal(got, want);
		free(got);
	}
	assert_int_equal(n.offers, 10);
	assert_int_equal(n.groups, 3);
	assert_int_equal(n.providers, 1);
	/* cut to 2: the counts are still of every group */
	q.limit = 2;
	char *got = group_csv(&q, cols, 9, 0, &n);
	assert_string_equal(got, "sku,region,price_hr,offers,region_count,regions,min_price_hr,"
				 "max_price_hr,min_spot_price_hr\n"
				 "b,r-b,1,3,2,\"r-b, r-c\",1,8,0.5\n"
				 "a,r-a,3,5,3,\"r-a, r-z, r-m\",3,9,\n");
	free(got);
	assert_int_equal(n.groups, 3);
	assert_int_equal(n.offers, 10);
	/* sorted on the region list, as text (the statement cannot: it names
	 * g_regions before making it) */
	q.limit = -1;
	q.sort[0] = (struct sort_key){group_field_find("regions"), 0};
	q.nsort = 1;
	got = group_csv(&q, cols, 9, 0, &n);
	assert_string_equal(got, "sku,region,price_hr,offers,region_count,regions,min_price_hr,"
				 "max_price_hr,min_spot_price_hr\n"
				 "a,r-a,3,5,3,\"r-a, r-z, r-m\",3,9,\n"
				 "b,r-b,1,3,2,\"r-b, r-c\",1,8,0.5\n"
				 "c,r-p,6,2,2,\"r-p, r-q\",6,6,\n");
	free(got);
	/* one row per region: r-a and r-z hold two offers each */
	q.group = QG_REGION;
	q.limit = -1;
	q.sort[0] = (struct sort_key){group_field_find("offers"), 1};
	q.nsort = 1;
	for (int sql = 0; sql < 2; sql++) {
		got = group_csv(&q, cols, 9, sql, &n);
		/* ties on the count go by the cheapest offer's provider, SKU, region */
		assert_string_equal(got, "sku,region,price_hr,offers,region_count,regions,"
					 "min_price_hr,max_price_hr,min_spot_price_hr\n"
					 "a,r-a,3,2,1,r-a,3,5,\n"
					 "a,r-z,4,2,1,r-z,4,9,\n"
					 "b,r-b,1,2,1,r-b,1,8,\n"
					 "a,r-m,7,1,1,r-m,7,7,\n"
					 "b,r-c,2,1,1,r-c,2,2,0.5\n"
					 "c,r-p,6,1,1,r-p,6,6,\n"
					 "c,r-q,6,1,1,r-q,6,6,\n");
		free(got);
	}
	assert_int_equal(n.groups, 7);
	assert_int_equal(cache_replace(cache, "grouptest", NULL, fill_none, NULL, NULL, NULL),
			 GC_OK);
}

/* Offers of a made-up provider with auction floors among them (the
 * offer's own kind; mithril's come from its profile): SKU "a" has a floor
 * under its fixed and market prices, "b" floors only, "c" a fixed price,
 * "d" a floor beside a fixed offer of no price. */
static enum gc_status fill_floors(void *arg, offer_cb cb, void *ctx, char **err)
{
	(void)arg;
	static const struct {
		const char *sku, *region, *kind;
		double price, spot;
	} rows[] = {
		{"a", "r-1", "auction_floor", 1, NAN}, {"a", "r-2", NULL, 5, NAN},
		{"a", "r-3", "marketplace", 3, NAN},   {"b", "r-1", "auction_floor", 2, NAN},
		{"c", "r-1", NULL, 4, NAN},             {"d", "r-1", "fixed", NAN, 0.25},
		{"d", "r-2", "auction_floor", 0.5, NAN},
	};
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < sizeof rows / sizeof rows[0]; i++)
		st = group_offer(cb, ctx, rows[i].sku, rows[i].region, rows[i].kind,
				 rows[i].price, rows[i].spot, err);
	return st;
}

/* q's CSV over cols (n) by the one pass and by the statement, which agree;
 * compared with want.  The flat statement's (q->group QG_NONE) only once. */
static void floors_csv(const struct query *q, const struct field *const *cols, size_t n,
		       const char *want)
{
	for (int sql = 0; sql < 2; sql++) {
		char *got = group_csv(q, cols, n, sql, NULL);
		if (strcmp(got, want) != 0)
			fail_msg("group %d, sql %d:\n%s---\n%s", (int)q->group, sql, got, want);
		free(got);
	}
}

/* An auction floor ranks after every other price, ascending or
 * descending, and is a group's cheapest offer (its row, its price range)
 * only when the group has no other price; --price-kind ranks by the
 * number alone.  The same in the one pass and the statement, grouped and
 * not, with a LIMIT (the late lookup looks among the floors apart). */
static void test_floors_rank_last(void **state)
{
	(void)state;
	assert_int_equal(cache_replace(cache, "grouptest", NULL, fill_floors, NULL, NULL, NULL),
			 GC_OK);
	static const char *const keys[] = {"sku", "region", "price_hr", "price_kind", "offers",
					   "regions", "min_price_hr", "max_price_hr"};
	const struct field *cols[8];
	for (size_t i = 0; i < 8; i++)
		cols[i] = fg(keys[i]);
	struct query q;
	query_init(&q);
	q.providers[0] = "grouptest";
	q.nproviders = 1;
	q.group = QG_SKU;
	static const char head[] = "sku,region,price_hr,price_kind,offers,regions,min_price_hr,"
				   "max_price_hr\n";
	char want[512];
	snprintf(want, sizeof want, "%s%s", head,
		 "a,r-3,3,marketplace,3,\"r-3, r-2, r-1\",3,5\n"
		 "c,r-1,4,fixed,1,r-1,4,4\n"
		 "d,r-2,0.5,auction_floor,2,\"r-2, r-1\",0.5,0.5\n"
		 "b,r-1,2,auction_floor,1,r-1,2,2\n");
	floors_csv(&q, cols, 8, want);
	q.sort[0] = (struct sort_key){NULL, 1};
	q.nsort = 1;
	snprintf(want, sizeof want, "%s%s", head,
		 "c,r-1,4,fixed,1,r-1,4,4\n"
		 "a,r-3,3,marketplace,3,\"r-3, r-2, r-1\",3,5\n"
		 "b,r-1,2,auction_floor,1,r-1,2,2\n"
		 "d,r-2,0.5,auction_floor,2,\"r-2, r-1\",0.5,0.5\n");
	floors_csv(&q, cols, 8, want);
	/* asked for by kind: the number alone */
	q.nsort = 0;
	q.price_kinds = QPK_ALL;
	snprintf(want, sizeof want, "%s%s", head,
		 "d,r-2,0.5,auction_floor,2,\"r-2, r-1\",0.5,0.5\n"
		 "a,r-1,1,auction_floor,3,\"r-1, r-3, r-2\",1,5\n"
		 "b,r-1,2,auction_floor,1,r-1,2,2\n"
		 "c,r-1,4,fixed,1,r-1,4,4\n");
	floors_csv(&q, cols, 8, want);
	q.price_kinds = 1u << QPK_AUCTION_FLOOR;
	snprintf(want, sizeof want, "%s%s", head,
		 "d,r-2,0.5,auction_floor,1,r-2,0.5,0.5\n"
		 "a,r-1,1,auction_floor,1,r-1,1,1\n"
		 "b,r-1,2,auction_floor,1,r-1,2,2\n");
	floors_csv(&q, cols, 8, want);
	/* one row per offer, cut to 4: the floors after the other prices,
	 * before the offers of no price */
	q.price_kinds = 0;
	q.group = QG_NONE;
	q.limit = 4;
	floors_csv(&q, cols, 4, "sku,region,price_hr,price_kind\n"
				 "a,r-3,3,marketplace\n"
				 "c,r-1,4,fixed\n"
				 "a,r-2,5,fixed\n"
				 "d,r-2,0.5,auction_floor\n");
	q.limit = -1;
	floors_csv(&q, cols, 4, "sku,region,price_hr,price_kind\n"
				 "a,r-3,3,marketplace\n"
				 "c,r-1,4,fixed\n"
				 "a,r-2,5,fixed\n"
				 "d,r-2,0.5,auction_floor\n"
				 "a,r-1,1,auction_floor\n"
				 "b,r-1,2,auction_floor\n"
				 "d,r-1,,fixed\n");
	assert_int_equal(cache_replace(cache, "grouptest", NULL, fill_none, NULL, NULL, NULL),
			 GC_OK);
}

/* Mithril's floors come from its profile (the offers name no kind): the
 * one pass over table offer and over the view both rank them after every
 * other price of the snapshot. */
static void test_profile_floors_rank_last(void **state)
{
	(void)state;
	const struct field *cols[] = {fg("provider"), fg("price_hr"), fg("price_kind")};
	for (int view = 0; view < 2; view++) {
		struct query q;
		query_init(&q);
		q.group = QG_SKU;
		q.caps = view ? 1u << QC_K8S_ANY : 0; /* the view's column: the scan reads it */
		char *got = group_csv(&q, cols, 3, 0, NULL);
		int floors = 0, after = 0;
		char line[256], prov[64], kind[32];
		double price;
		FILE *in = fmemopen(got, strlen(got), "r");
		assert_non_null(in);
		assert_non_null(fgets(line, sizeof line, in)); /* the header */
		while (fgets(line, sizeof line, in)) {
			int priced = sscanf(line, "%63[^,],%lf,%31[a-z_]", prov, &price, kind) == 3;
			int floor = priced && strcmp(kind, "auction_floor") == 0;
			floors += floor;
			after += floors && !floor && priced;
			if (floor)
				assert_string_equal(prov, "mithril");
		}
		fclose(in);
		assert_true(floors >= 2);
		assert_int_equal(after, 0);
		free(got);
	}
}

/* A table shows the columns of the filters used and keeps them on a narrow
 * terminal after the five that tell offers apart; the group's count goes
 * before them. */
static void test_table_columns_and_ranks(void **state)
{
	(void)state;
	struct query q;
	query_init(&q);
	q.caps = 1u << QC_MPS;
	q.group = QG_SKU;
	const struct field *cols[64];
	size_t n = query_table_columns(&q, cols, 64);
	int mps = 0, count = 0;
	for (size_t i = 0; i < n; i++) {
		mps += cols[i] == f("mps");
		count += cols[i] == group_field_find("region_count");
	}
	assert_int_equal(mps, 1);
	assert_int_equal(count, 1);
	assert_int_equal(query_column_rank(&q, f("sku")), 0);
	assert_int_equal(query_column_rank(&q, f("price")), 0);
	assert_int_equal(query_column_rank(&q, f("mps")), 1);
	/* K8S, MIG, IB (2) and REGION (3) stay longer than the count and the rest */
	assert_int_equal(query_column_rank(&q, group_field_find("region_count")), 4);
	assert_true(query_column_rank(&q, f("vcpus")) > 3);
	assert_int_equal(query_column_rank(&q, f("k8s")), 2);
	assert_int_equal(query_column_rank(&q, f("infiniband")), 2);
	assert_int_equal(query_column_rank(&q, f("region")), 3);
	q.region_glob = "us-*";
	assert_int_equal(query_column_rank(&q, f("region")), 1);
	q.group = QG_NONE;
	n = query_table_columns(&q, cols, 64);
	for (size_t i = 0; i < n; i++)
		assert_null(group_field_find(cols[i]->key));
}

/* The legend says what the words a table showed mean, as many columns as
 * the width allows, and the marks once; a word that says itself (k8s
 * none) is left out. */
static void test_legend(void **state)
{
	(void)state;
	struct render_seen seen = {0};
	const char *items[][2] = {{"k8s", "managed"}, {"k8s", "join"}, {"mig", "self"},
				  {"mig", "?"}, {"k8s", "?"}, {"price_hr", "~"}};
	size_t idx[] = {0, 0, 1, 1, 0, 2};
	for (size_t i = 0; i < 6; i++) {
		seen.item[i].col = f(items[i][0]);
		seen.item[i].index = idx[i];
		snprintf(seen.item[i].value, sizeof seen.item[i].value, "%s", items[i][1]);
	}
	seen.n = 6;
	char out[512];
	query_legend(&seen, 3, 200, out, sizeof out);
	assert_string_equal(out, "K8S managed: provider-run, join: your cluster; MIG self: you set "
				 "up; ?: unknown, ~: market ask; more: gpucmp help values");
	/* narrower: the shortest parts first, still in column order */
	query_legend(&seen, 3, 82, out, sizeof out);
	assert_string_equal(out, "MIG self: you set up; ?: unknown, ~: market ask; more: gpucmp "
				 "help values");
	query_legend(&seen, 3, 60, out, sizeof out);
	assert_string_equal(out, "MIG self: you set up; more: gpucmp help values");
	query_legend(&seen, 3, 20, out, sizeof out);
	assert_string_equal(out, "");
	seen.n = 0;
	query_legend(&seen, 3, 200, out, sizeof out);
	assert_string_equal(out, "");
	seen.item[0].col = f("k8s");
	snprintf(seen.item[0].value, sizeof seen.item[0].value, "none");
	seen.n = 1;
	query_legend(&seen, 3, 200, out, sizeof out);
	assert_string_equal(out, "");
	assert_null(field_value_find("k8s", "self"));
	assert_non_null(field_value_find("time_slicing", "self"));
	assert_non_null(field_value_find(NULL, "?"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mig_needs_provider_and_gpu),
		cmocka_unit_test(test_k8s_modes),
		cmocka_unit_test(test_insttype_overrides),
		cmocka_unit_test(test_rdma_counts_efa),
		cmocka_unit_test(test_insttype_mig_no_and_k8s),
		cmocka_unit_test(test_numeric_filters_and_family),
		cmocka_unit_test(test_region_glob_and_providers),
		cmocka_unit_test(test_sort_and_limit),
		cmocka_unit_test(test_injection_is_harmless),
		cmocka_unit_test(test_late_lookup_same_rows),
		cmocka_unit_test(test_floors_rank_last),
		cmocka_unit_test(test_profile_floors_rank_last),
		cmocka_unit_test(test_inline_for_explain),
		cmocka_unit_test(test_cuda_edges),
		cmocka_unit_test(test_cost_estimate),
		cmocka_unit_test(test_cost_parts),
		cmocka_unit_test(test_caps_two_paths),
		cmocka_unit_test(test_cap_table),
		cmocka_unit_test(test_k8s_values),
		cmocka_unit_test(test_ib_rules),
		cmocka_unit_test(test_provider_stats_and_where),
		cmocka_unit_test(test_where_k8s_is_the_filter),
		cmocka_unit_test(test_where_unknown_is_null),
		cmocka_unit_test(test_where_domains),
		cmocka_unit_test(test_where_gpu_is_the_filter),
		cmocka_unit_test(test_where_country_words),
		cmocka_unit_test(test_list_and_age),
		cmocka_unit_test(test_age_note),
		cmocka_unit_test(test_group_by_sku),
		cmocka_unit_test(test_group_spot_sort_and_keys),
		cmocka_unit_test(test_group_pass_same_rows),
		cmocka_unit_test(test_group_regions_cheapest_first),
		cmocka_unit_test(test_unknown_counted_in_the_scan),
		cmocka_unit_test(test_empty_reason_one_pass),
		cmocka_unit_test(test_table_columns_and_ranks),
		cmocka_unit_test(test_legend),
		cmocka_unit_test(test_gpu_rules_out_sharing),
		cmocka_unit_test(test_set_gpus),
		cmocka_unit_test(test_caps_table_matches_cases),
		cmocka_unit_test(test_nvlink_domain),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
