/* test_adapter_oci.c - the OCI adapter: Cost Estimator shapes joined with
 * product prices. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_oci;
#define AD adapter_oci
#define FIX "tests/fixtures/http/oci"

#include "adapter_testutil.h"

enum { K_SHAPES, K_PRODUCTS }; /* the adapter's request kinds */

struct want {
	const char *sku, *gpu;
	double count, mem, vcpus, ram, price, spot;
};

static void check_fixture_offers(const struct offer_store *s)
{
	static const struct want w[] = {
		{"BM.GPU.H100.8", "h100-sxm", 8, 80, 224, 2048, 80, NAN},
		{"BM.GPU4.8", "a100-sxm-40gb", 8, 40, 128, 2048, 24.4, NAN},
		{"BM.GPU.A100-v2.8", "a100-sxm-80gb", 8, 80, 256, 2048, 32, NAN},
		{"BM.GPU.MI300X.8", "mi300x", 8, 192, 224, 2048, 48, NAN},
		/* gpuMemoryQty is per GPU for this shape */
		{"BM.GPU.MI355X.8", "mi355x", 8, 288, 256, 3072, 68.8, NAN},
		/* display suffix dropped; Grace is Arm: vCPUs = OCPUs */
		{"BM.GPU.GB200.4", "gb200", 4, 189, 128, 960, 64, NAN},
		/* no OCPU qty or memory in the data */
		/* gpuMemoryQty 278 is per GPU: nearer GB300's 288 GB than 278 / 4 */
		{"BM.GPU.GB300.4", "gb300", 4, 278, NAN, NAN, 72, NAN},
		{"BM.GPU.B300.8", "b300", 8, 262.5, NAN, NAN, 120, NAN},
		{"BM.GPU.RTXPRO.8", "rtx-pro-6000", 8, 96, NAN, NAN, 36, NAN},
		{"VM.GPU3.1", "v100-sxm2-16gb", 1, 16, 12, 90, 2.95, 1.475},
	};
	assert_int_equal(s->n, sizeof w / sizeof w[0]);
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		const struct offer *o = find(s, w[i].sku, NULL);
		if (!o)
			fail_msg("no offer for %s", w[i].sku);
		assert_string_equal(o->provider, "oci");
		assert_string_equal(o->source, "live");
		assert_string_equal(o->region, "unknown");
		assert_int_equal(o->available, -1);
		if (w[i].gpu)
			assert_string_equal(o->gpu, w[i].gpu);
		else
			assert_null(o->gpu);
		assert_float_equal(o->gpu_count, w[i].count, 0);
		assert_float_equal(o->gpu_mem_gb, w[i].mem, 1e-9);
		if (isnan(w[i].vcpus))
			assert_true(isnan(o->vcpus));
		else
			assert_float_equal(o->vcpus, w[i].vcpus, 0);
		if (isnan(w[i].ram))
			assert_true(isnan(o->ram_gb));
		else
			assert_float_equal(o->ram_gb, w[i].ram, 0);
		assert_float_equal(o->price_hr, w[i].price, 1e-9);
		if (isnan(w[i].spot))
			assert_true(isnan(o->spot_price_hr));
		else
			assert_float_equal(o->spot_price_hr, w[i].spot, 1e-9);
	}
	assert_string_equal(find(s, "BM.GPU.GB300.4", NULL)->gpu_name, "GB300");
	assert_string_equal(find(s, "BM.GPU.H100.8", NULL)->gpu_name, "H100");
}

/* The two recorded documents, in either order. */
static void test_joined(void **state)
{
	(void)state;
	for (int order = 0; order < 2; order++) {
		struct harness h;
		char *err = NULL;
		h_init(&h, NULL, NULL);
		assert_int_equal(AD.start(&h.run, &err), GC_OK);
		assert_int_equal(h.run.nqueue, 2);
		assert_string_equal(h.run.queue[0].url, "https://www.oracle.com/a/ocom/docs/"
							"cloudestimator2/data/shapes.json");
		assert_string_equal(h.run.queue[1].url, "https://www.oracle.com/a/ocom/docs/"
							"cloudestimator2/data/products.json");
		const char *shapes = FIX "/shapes.json";
		const char *products = FIX "/products.json";
		assert_int_equal(h_file(&h, order ? K_PRODUCTS : K_SHAPES,
					order ? products : shapes, &err),
				 GC_OK);
		assert_int_equal(h_file(&h, order ? K_SHAPES : K_PRODUCTS,
					order ? shapes : products, &err),
				 GC_OK);
		assert_int_equal(h.store.n, 0);
		assert_int_equal(h.run.nqueue, 2); /* nothing more to fetch */
		assert_int_equal(AD.finish(&h.run, &err), GC_OK);
		check_fixture_offers(&h.store);
		assert_int_equal(h.run.unknown_gpu, 0); /* GB300 is in the GPU table */
		h_free(&h);
	}
}

/* One document alone gives no prices (refresh_parse_one). */
static void test_one_document(void **state)
{
	(void)state;
	const char *files[] = {FIX "/shapes.json", FIX "/products.json"};
	for (int kind = K_SHAPES; kind <= K_PRODUCTS; kind++) {
		struct offer_store s;
		expect_parsed_file(kind, files[kind], &s, 0, 0);
		offer_store_free(&s);
	}
}

/* Parts that cannot be priced, shapes to leave out, hostile values. */
static void test_odd_values(void **state)
{
	(void)state;
	const char *products =
		"{\"items\":["
		"{\"partNumber\":\"P1\",\"billingModel\":\"UCM\",\"pricetype\":\"HOUR\","
		"\"currencyCodeLocalizations\":[{\"currencyCode\":\"EUR\",\"prices\":[{\"model\":"
		"\"PAY_AS_YOU_GO\",\"value\":1}]},{\"currencyCode\":\"USD\",\"prices\":[{\"model\":"
		"\"MONTHLY_COMMIT\",\"value\":0.5},{\"model\":\"PAY_AS_YOU_GO\",\"value\":2}]}]},"
		"{\"partNumber\":\"MEM\",\"billingModel\":\"UCM\",\"pricetype\":\"HOUR\","
		"\"currencyCodeLocalizations\":[{\"currencyCode\":\"USD\",\"prices\":[{\"model\":"
		"\"PAY_AS_YOU_GO\",\"value\":0.01}]}]},"
		"{\"partNumber\":\"MONTH\",\"billingModel\":\"UCM\",\"pricetype\":\"MONTH\","
		"\"currencyCodeLocalizations\":[{\"currencyCode\":\"USD\",\"prices\":[{\"model\":"
		"\"PAY_AS_YOU_GO\",\"value\":100}]}]},"
		"{\"partNumber\":\"EURONLY\",\"billingModel\":\"UCM\",\"pricetype\":\"HOUR\","
		"\"currencyCodeLocalizations\":[{\"currencyCode\":\"EUR\",\"prices\":[{\"model\":"
		"\"PAY_AS_YOU_GO\",\"value\":1}]}]},"
		"{\"partNumber\":\"NEG\",\"billingModel\":\"UCM\",\"pricetype\":\"HOUR\","
		"\"currencyCodeLocalizations\":[{\"currencyCode\":\"USD\",\"prices\":[{\"model\":"
		"\"PAY_AS_YOU_GO\",\"value\":-4}]}]},"
		"{\"partNumber\":\"STR\",\"billingModel\":\"UCM\",\"pricetype\":\"HOUR\","
		"\"currencyCodeLocalizations\":[{\"currencyCode\":\"USD\",\"prices\":[{\"model\":"
		"\"PAY_AS_YOU_GO\",\"value\":\"cheap\"}]}]},"
		"7,null,{\"partNumber\":5},{\"partNumber\":\"X\",\"currencyCodeLocalizations\":"
		"{}}]}";
#define SHAPE_X(name, hidden, status, gpus, parts)                                         \
	"{\"name\":\"" name "\",\"hidden\":" hidden ",\"status\":\"" status "\",\"gpuQty\":" \
	gpus ",\"gpuMemoryQty\":96,\"processorType\":{\"value\":\"amd\"},\"products\":["    \
	parts "]}"
#define SHAPE(name, parts) SHAPE_X(name, "false", "ACTIVE", "2", parts)
#define OCPU(pn) "{\"partNumber\":\"" pn "\",\"qty\":10,\"type\":{\"value\":\"ocpu\"}}"
	const char *shapes =
		"{\"items\":["
		/* GPU part and a memory part: both priced */
		SHAPE("VM.GPU.L40S.2", OCPU("P1") ",{\"partNumber\":\"MEM\",\"qty\":100,"
						 "\"type\":{\"value\":\"memory\"}}") ","
		/* left out: a monthly part, a EUR-only part, an unknown part, a disk part,
		 * hidden, retired, two OCPU parts, a huge GPU count, no parts */
		SHAPE("BM.GPU.A10.4", OCPU("MONTH")) ","
		SHAPE("BM.GPU.A10.5", OCPU("EURONLY")) ","
		SHAPE("BM.GPU.A10.6", OCPU("NOPE")) ","
		SHAPE("BM.GPU.A10.7", OCPU("P1") ",{\"partNumber\":\"P1\",\"qty\":1,"
						  "\"type\":{\"value\":\"disk\"}}") ","
		SHAPE_X("BM.GPU.A10.8", "true", "ACTIVE", "2", OCPU("P1")) ","
		SHAPE_X("BM.GPU.A10.9", "false", "RETIRED", "2", OCPU("P1")) ","
		SHAPE("BM.GPU.A10.10", OCPU("P1") "," OCPU("P1")) ","
		SHAPE_X("BM.GPU.A10.11", "false", "ACTIVE", "1e9", OCPU("P1")) ","
		SHAPE("BM.GPU.A10.12", "") ","
		/* a negative or non-numeric price: no price, dropped */
		SHAPE("BM.GPU.A10.13", OCPU("NEG")) ","
		SHAPE("BM.GPU.A10.14", OCPU("STR")) ","
		/* strange names, kept with an unknown GPU */
		SHAPE("BM.GPU.8", OCPU("P1")) ","
		SHAPE("BM.GPU.NEWCHIP-x.8", OCPU("P1")) ","
		/* not objects, no name, no GPUs */
		"3,null,\"s\",{\"gpuQty\":1},{\"name\":\" \",\"gpuQty\":1,\"products\":[" OCPU("P1")
		"]},{\"name\":\"VM.Standard.E4\",\"gpuQty\":null,\"products\":[" OCPU("P1") "]},"
		"{\"name\":\"BM.GPU.A10.15\",\"gpuQty\":\"two\",\"products\":[" OCPU("P1") "]},"
		"{\"name\":\"BM.GPU.A10.16\",\"gpuQty\":2,\"products\":{}},"
		"{\"name\":\"BM.GPU.A10.17\",\"gpuQty\":2,\"products\":[{\"partNumber\":\"P1\","
		"\"type\":\"ocpu\"}]}"
		"]}";
	struct harness h;
	char *err = NULL;
	h_init(&h, NULL, NULL);
	assert_int_equal(h_parse(&h, K_SHAPES, shapes, strlen(shapes), &err), GC_OK);
	assert_int_equal(h_parse(&h, K_PRODUCTS, products, strlen(products), &err), GC_OK);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	const struct offer *l40s = must_find(&h.store, "VM.GPU.L40S.2", NULL);
	assert_string_equal(l40s->gpu, "l40s");
	assert_float_equal(l40s->price_hr, 2 * 2 + 0.01 * 100, 1e-9);
	assert_float_equal(l40s->ram_gb, 100, 0);
	assert_float_equal(l40s->vcpus, 20, 0);
	assert_float_equal(l40s->gpu_mem_gb, 48, 0); /* 96 / 2 */
	const struct offer *odd = must_find(&h.store, "BM.GPU.8", NULL);
	assert_null(odd->gpu);
	assert_string_equal(odd->gpu_name, "BM.GPU.8");
	const struct offer *chip = must_find(&h.store, "BM.GPU.NEWCHIP-x.8", NULL);
	assert_string_equal(chip->gpu_name, "NEWCHIP");
	assert_int_equal(h.store.n, 3);
	h_free(&h);
}

static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	for (int kind = K_SHAPES; kind <= K_PRODUCTS; kind++)
		expect_refused(kind, "<!DOCTYPE html><html><body>Access Denied</body></html>",
			       "HTML");
	size_t len;
	char *body = read_source_file(FIX "/shapes.json", &len);
	expect_refused_len(K_SHAPES, body, len / 3, "not valid JSON");
	free(body);
	const char *wrong[] = {"[]", "{\"items\":{}}", "{}", "{\"items\":null}", NULL};
	for (size_t i = 0; wrong[i]; i++)
		expect_refused(K_PRODUCTS, wrong[i], "items");
	/* empty lists: no offers */
	struct harness h;
	h_init(&h, NULL, NULL);
	assert_int_equal(h_parse(&h, K_SHAPES, "{\"items\":[]}", 12, &err), GC_OK);
	assert_int_equal(h_parse(&h, K_PRODUCTS, "{\"items\":[]}", 12, &err), GC_OK);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	assert_int_equal(h.store.n, 0);
	h_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_joined),
		cmocka_unit_test(test_one_document),
		cmocka_unit_test(test_odd_values),
		cmocka_unit_test(test_bad_bodies),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
