/* test_listprice.c - data/list-prices.yaml: the shipped file is valid
 * against the real GPU table and profiles, and the loader refuses what
 * a list price must not be. */
#include <math.h>

#include "testutil.h"

#include "gpucmp/listprice.h"

static struct catalog cat;

static int setup(void **state)
{
	(void)state;
	return load_embedded_catalog(&cat);
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

struct seen {
	size_t n, spot;
	int bad;
};

static enum gc_status check_offer(void *arg, const struct offer *o, char **err)
{
	(void)err;
	struct seen *s = arg;
	s->n++;
	s->spot += !isnan(o->spot_price_hr);
	if (strcmp(o->source, "list") != 0 || strncmp(o->origin, "https://", 8) != 0 ||
	    strlen(o->fetched_at) != 20 || !(o->price_hr > 0) || !(o->gpu_count > 0) ||
	    !o->gpu || !gpu_find(cat.gpus, o->gpu) || strcmp(o->currency, "USD") != 0)
		s->bad++;
	return GC_OK;
}

/* The embedded file passes the strict check: every gpu id in data/gpus.yaml,
 * memory matching it, every provider with a profile, every row sourced and
 * dated.  A bad edit of the file fails here, before it ships. */
static void test_shipped_file_is_valid(void **state)
{
	(void)state;
	struct seen s = {0, 0, 0};
	struct listprice_info info;
	char *err = NULL;
	enum gc_status st = listprice_parse("data/list-prices.yaml", cat.list_prices,
					    cat.list_prices_len, cat.gpus, check_offer, &s, &info,
					    &err);
	if (st != GC_OK)
		fail_msg("%s", err ? err : "?");
	assert_true(s.n > 0);
	assert_int_equal(s.n, info.rows);
	assert_int_equal(s.bad, 0);
	assert_true(s.spot > 0);
	assert_int_equal(strlen(info.newest), 10);
	/* the embedded bytes are the file in the tree */
	size_t len;
	char *file = read_source_file("data/list-prices.yaml", &len);
	assert_int_equal(len, cat.list_prices_len);
	assert_memory_equal(file, cat.list_prices, len);
	free(file);
}

#define ROW(extra)                                                                         \
	"version: 1\noffers:\n"                                                            \
	"  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n    gpu_count: 8\n"        \
	"    region: any\n    price_hr: 49.24\n"                                          \
	"    source: https://www.coreweave.com/pricing\n    checked: 2026-09-20\n" extra

/* A row's commitment prices become its committed prices, per term. */
static enum gc_status check_commits(void *arg, const struct offer *o, char **err)
{
	(void)err;
	struct seen *s = arg;
	s->n++;
	if (o->ncommits != 2 || strcmp(o->commits[0].type, "reserved") != 0 ||
	    o->commits[0].term_months != 12 || o->commits[0].price_hr != 40.0 ||
	    o->commits[1].term_months != 36 || o->commits[1].price_hr != 30.0)
		s->bad++;
	return GC_OK;
}

static void test_reserved_row(void **state)
{
	(void)state;
	struct seen s = {0, 0, 0};
	const char *doc = ROW("    reserved_36_hr: 30\n    reserved_12_hr: 40\n");
	assert_int_equal(listprice_parse("t.yaml", doc, strlen(doc), cat.gpus, check_commits, &s,
					 NULL, NULL), GC_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.bad, 0);
}

static void test_good_row(void **state)
{
	(void)state;
	struct seen s = {0, 0, 0};
	struct listprice_info info;
	const char *doc = ROW("    spot_price_hr: 19.71\n    gpu_mem_gb: 80\n");
	assert_int_equal(listprice_parse("t.yaml", doc, strlen(doc), cat.gpus, check_offer, &s,
					 &info, NULL), GC_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.spot, 1);
	assert_int_equal(s.bad, 0);
	assert_string_equal(info.newest, "2026-09-20");
}

static enum gc_status count_only(void *arg, const struct offer *o, char **err)
{
	(void)o;
	(void)err;
	(*(size_t *)arg)++;
	return GC_OK;
}

static void test_bad_documents(void **state)
{
	(void)state;
	static const struct {
		const char *doc, *msg;
	} cases[] = {
		{ ROW("    extra: 1\n"), "extra" },
		{ "version: 2\noffers: []\n", "'version' must be 1" },
		{ "offers: []\n", "'version' must be 1" },
		{ "version: 1\n", "'offers'" },
		{ "version: 1\noffers:\n  - 7\n", "must be a mapping" },
		/* unknown GPU id, bad id form, memory not the model's */
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm5\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "unknown gpu id 'h100-sxm5'" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: H100 SXM\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "'gpu' must be an id" },
		{ ROW("    gpu_mem_gb: 94\n"), "does not match h100-sxm" },
		/* unknown provider */
		{ "version: 1\noffers:\n  - provider: corewave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "unknown provider 'corewave'" },
		/* bad prices */
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: -3\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "'price_hr' must be a number above 0" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: $49.24\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "'price_hr' must be a number" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1e9\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "at most" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: nan\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "'price_hr' must be a number" },
		{ ROW("    spot_price_hr: 60\n"), "'spot_price_hr' is above 'price_hr'" },
		/* a commitment at or above on-demand is a misread (a month's price
		 * taken for an hour's), a term outside the set no key */
		{ ROW("    reserved_12_hr: 49.24\n"), "'reserved_12_hr' is not below 'price_hr'" },
		{ ROW("    reserved_36_hr: 35940\n"), "'reserved_36_hr' must be a number" },
		{ ROW("    reserved_12_hr: -1\n"), "'reserved_12_hr' must be a number" },
		{ ROW("    reserved_13_hr: 40\n"), "reserved_13_hr" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 0\n    region: any\n    price_hr: 1\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "'gpu_count' must be a number above 0" },
		/* missing or bad source and date */
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n    checked: 2026-09-20\n",
		  "row has no 'source'" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n    source: coreweave.com\n"
		  "    checked: 2026-09-20\n",
		  "https://" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n"
		  "    source: https://a.example/p\n",
		  "row has no 'checked'" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n"
		  "    source: https://a.example/p\n    checked: 2026-13-40\n",
		  "'checked' must be YYYY-MM-DD" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    region: any\n    price_hr: 1\n"
		  "    source: https://a.example/p\n    checked: \n",
		  "'checked'" },
		{ "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
		  "    gpu_count: 8\n    price_hr: 1\n"
		  "    source: https://a.example/p\n    checked: 2026-09-20\n",
		  "row has no 'region'" },
		/* the same offer twice */
		{ ROW("") "  - provider: coreweave\n    sku: x\n    gpu: h100-sxm\n"
			  "    gpu_count: 8\n    region: any\n    price_hr: 40\n"
			  "    source: https://www.coreweave.com/pricing\n"
			  "    checked: 2026-09-20\n",
		  "listed twice" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *err = NULL;
		size_t delivered = 0;
		enum gc_status st = listprice_parse("t.yaml", cases[i].doc, strlen(cases[i].doc),
						    cat.gpus, count_only, &delivered, NULL, &err);
		if (st != GC_EDATA || !err || !strstr(err, cases[i].msg))
			fail_msg("case %zu: status %d, message '%s', wanted '%s'", i, (int)st,
				 err ? err : "(none)", cases[i].msg);
		/* a bad document delivers nothing, not the rows before the bad one */
		assert_int_equal(delivered, 0);
		assert_non_null(strstr(err, "t.yaml:"));
		free(err);
	}
}

/* Without the GPU table (the cache seeds without parsing it) the id form is
 * still checked. */
static void test_no_table_checks_form(void **state)
{
	(void)state;
	const char *doc = "version: 1\noffers:\n  - provider: coreweave\n    sku: x\n"
			  "    gpu: NVIDIA H100\n    gpu_count: 8\n    region: any\n"
			  "    price_hr: 1\n    source: https://a.example/p\n"
			  "    checked: 2026-09-20\n";
	char *err = NULL;
	assert_int_equal(listprice_parse("t.yaml", doc, strlen(doc), NULL, NULL, NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "'gpu' must be an id"));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_file_is_valid),
		cmocka_unit_test(test_good_row),
		cmocka_unit_test(test_reserved_row),
		cmocka_unit_test(test_bad_documents),
		cmocka_unit_test(test_no_table_checks_form),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
