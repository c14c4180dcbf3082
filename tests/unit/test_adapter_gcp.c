/* test_adapter_gcp.c - the GCP adapter (Cloud Billing Catalog, per-GPU-hour
 * accelerator prices) on its recorded pages and on SKUs built in the same
 * shape. */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_gcp;
#define AD adapter_gcp
#define FIX "tests/fixtures/http/gcp"

#include "adapter_testutil.h"

/* One SKU in the shape of the recorded ones.  `price` is the unitPrice
 * object's inside. */
static char *sku_json(char *out, size_t n, const char *desc, const char *group, const char *usage,
		      const char *regions, const char *unit, const char *price)
{
	snprintf(out, n,
		 "{\"name\":\"services/6F81-5844-456A/skus/X\",\"skuId\":\"X\","
		 "\"description\":\"%s\",\"category\":{\"serviceDisplayName\":\"Compute Engine\","
		 "\"resourceFamily\":\"Compute\",\"resourceGroup\":\"%s\",\"usageType\":\"%s\"},"
		 "\"serviceRegions\":[%s],\"pricingInfo\":[{\"summary\":\"\",\"pricingExpression\":{"
		 "\"usageUnit\":\"%s\",\"displayQuantity\":1,\"tieredRates\":[{\"startUsageAmount\":0,"
		 "\"unitPrice\":{%s}}]}}]}",
		 desc, group, usage, regions, unit, price);
	return out;
}

/* Page 1 of the recording: the A100 SKU in three regions, and a next page. */
static void test_page1(void **state)
{
	(void)state;
	char *err = NULL;
	struct offer_store s;
	expect_parsed_file(0, FIX "/skus-page1.json", &s, 1, 3);
	const char *regions[] = {"us-central1", "us-east1", "us-west1"};
	for (size_t i = 0; i < 3; i++) {
		const struct offer *o = must_find(&s, "nvidia-tesla-a100", regions[i]);
		assert_string_equal(o->provider, "gcp");
		assert_string_equal(o->source, "live");
		assert_string_equal(o->gpu, "a100-sxm-40gb");
		assert_string_equal(o->gpu_name, "Nvidia Tesla A100");
		assert_float_equal(o->gpu_count, 1, 0);
		assert_float_equal(o->gpu_mem_gb, 40, 0);
		assert_float_equal(o->price_hr, 2.933908, 1e-9);
		assert_true(isnan(o->spot_price_hr));
		assert_true(isnan(o->vcpus));
		assert_true(isnan(o->ram_gb));
		assert_int_equal(o->available, -1);
	}
	offer_store_free(&s);

	/* the follow-up carries the token, URL-encoded */
	struct harness h;
	h_init(&h, NULL, "k");
	assert_int_equal(h_file(&h, 0, FIX "/skus-page1.json", &err), GC_OK);
	assert_int_equal(h.run.nqueue, 1);
	assert_string_equal(h.run.queue[0].url,
			    "https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus"
			    "?pageSize=5000&pageToken=APKCS1HVa0YpwgyTFbqbJ1eGwzKZmsPwLqzMZPTSNia5c"
			    "k1Hc54Tx_Kz3oBxwSnRIdGVxXoSPdf-XlDpyNBf4QuxKcIEgtrQ1LDLWAgZowI0ns7HjrGta"
			    "2s%3D");
	/* the same token again would never end */
	assert_int_equal(h_file(&h, 0, FIX "/skus-page1.json", &err), GC_EDATA);
	assert_non_null(strstr(err, "repeats"));
	free(err);
	h_free(&h);
}

/* Page 2 has no GPU and no next page; both pages together give page 1's offers. */
static void test_both_pages(void **state)
{
	(void)state;
	char *err = NULL;
	struct offer_store s;
	expect_parsed_file(0, FIX "/skus-page2.json", &s, 0, 0);
	offer_store_free(&s);
	struct harness h;
	h_init(&h, NULL, "k");
	assert_int_equal(h_file(&h, 0, FIX "/skus-page1.json", &err), GC_OK);
	assert_int_equal(h_file(&h, 0, FIX "/skus-page2.json", &err), GC_OK);
	assert_int_equal(h.store.n, 0);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	assert_int_equal(h.store.n, 3);
	assert_int_equal(h.run.nqueue - h.run.qhead, 1);
	h_free(&h);
}

/* On-demand and Spot SKUs join per GPU and region; what is skipped. */
static void test_spot_and_filters(void **state)
{
	(void)state;
	char s[20][1024];
	int k = 0;
	const char *usd = "\"currencyCode\":\"USD\",\"units\":\"2\",\"nanos\":933908000";
	sku_json(s[k++], sizeof s[0], "Nvidia Tesla T4 GPU running in Americas", "GPU",
		 "OnDemand", "\"us-central1\",\"us-east1\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"0\",\"nanos\":350000000");
	sku_json(s[k++], sizeof s[0], "Spot Preemptible Nvidia Tesla T4 GPU running in Americas",
		 "GPU", "Preemptible", "\"us-central1\"", "h",
		 "\"currencyCode\":\"USD\",\"nanos\":70000000"); /* proto3: units 0 left out */
	/* commitments, licence add-ons, DWS, slices: skipped */
	sku_json(s[k++], sizeof s[0], "Commitment v1: Nvidia Tesla T4 GPU running in Americas",
		 "GPU", "Commit1Yr", "\"us-central1\"", "h", usd);
	sku_json(s[k++], sizeof s[0],
		 "Nvidia Tesla T4 Virtual Workstation GPU running in Americas", "GPU", "OnDemand",
		 "\"us-central1\"", "h", usd);
	sku_json(s[k++], sizeof s[0], "DWS Calendar Mode Nvidia H100 80GB GPU running in Americas",
		 "GPU", "OnDemand", "\"us-central1\"", "h", usd);
	sku_json(s[k++], sizeof s[0],
		 "Spot Preemptible A4 Nvidia B200 (1 gpu slice) running in Americas", "GPU",
		 "Preemptible", "\"us-central1\"", "h", usd);
	/* not a GPU */
	sku_json(s[k++], sizeof s[0], "A2 Instance Core running in Americas", "CPU", "OnDemand",
		 "\"us-central1\"", "h", usd);
	/* the last resource word decides: memory of a GPU machine, not a GPU */
	sku_json(s[k++], sizeof s[0], "A3 Ultra GPU Instance Ram running in Americas", "GPU",
		 "OnDemand", "\"us-central1\"", "h", usd);
	/* a GPU priced per month: not an hourly price */
	sku_json(s[k++], sizeof s[0], "Nvidia Tesla P4 GPU running in Americas", "GPU", "OnDemand",
		 "\"us-central1\"", "mo", usd);
	/* spellings that differ from the accelerator type */
	sku_json(s[k++], sizeof s[0], "Nvidia Tesla A100 80GB GPU running in Belgium", "GPU",
		 "OnDemand", "\"europe-west1\"", "h", usd);
	sku_json(s[k++], sizeof s[0], "Nvidia H100 80GB Mega GPU running in Americas", "GPU",
		 "OnDemand", "\"us-central1\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"11\",\"nanos\":0");
	sku_json(s[k++], sizeof s[0], "Nvidia RTX 6000 96GB running in Americas", "GPU",
		 "OnDemand", "\"us-central1\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"4\",\"nanos\":500000000");
	sku_json(s[k++], sizeof s[0], "Nvidia L4 GPU running in Americas", "GPU", "OnDemand",
		 "\"us-central1\"", "h", "\"currencyCode\":\"USD\",\"units\":\"0\",\"nanos\":560000000");
	/* only a Spot price: kept, on-demand unknown */
	sku_json(s[k++], sizeof s[0], "Spot Preemptible Nvidia H200 141GB GPU running in Americas",
		 "GPU", "Preemptible", "\"us-east4\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"3\",\"nanos\":0");
	char body[32768];
	size_t used = (size_t)snprintf(body, sizeof body, "{\"skus\":[");
	for (int i = 0; i < k; i++)
		used += (size_t)snprintf(body + used, sizeof body - used, "%s%s", i ? "," : "", s[i]);
	snprintf(body + used, sizeof body - used, "],\"nextPageToken\":\"\"}");

	struct offer_store st;
	expect_parsed(0, body, &st, 0, 7); /* an empty token ends the listing */
	const struct offer *t4 = must_find(&st, "nvidia-tesla-t4", "us-central1");
	assert_string_equal(t4->gpu, "t4");
	assert_float_equal(t4->price_hr, 0.35, 1e-9);
	assert_float_equal(t4->spot_price_hr, 0.07, 1e-9);
	const struct offer *t4e = must_find(&st, "nvidia-tesla-t4", "us-east1");
	assert_true(isnan(t4e->spot_price_hr));
	const struct offer *a80 = must_find(&st, "nvidia-a100-80gb", "europe-west1");
	assert_string_equal(a80->gpu, "a100-sxm-80gb");
	assert_string_equal(a80->gpu_name, "Nvidia Tesla A100 80GB");
	const struct offer *mega = must_find(&st, "nvidia-h100-mega-80gb", "us-central1");
	assert_string_equal(mega->gpu, "h100-sxm");
	assert_float_equal(mega->price_hr, 11, 1e-9);
	const struct offer *rtx = must_find(&st, "nvidia-rtx-pro-6000", "us-central1");
	assert_string_equal(rtx->gpu, "rtx-pro-6000");
	const struct offer *l4 = must_find(&st, "nvidia-l4", "us-central1");
	assert_string_equal(l4->gpu, "l4");
	const struct offer *h200 = must_find(&st, "nvidia-h200-141gb", "us-east4");
	assert_true(isnan(h200->price_hr));
	assert_string_equal(h200->gpu, "h200");
	assert_float_equal(h200->spot_price_hr, 3, 1e-9);
	for (size_t i = 0; i < st.n; i++) {
		assert_null(strstr(st.items[i].sku, "p4"));
		assert_null(strstr(st.items[i].sku, "b200"));
		assert_null(strstr(st.items[i].sku, "workstation"));
		assert_null(strstr(st.items[i].sku, "a3"));
	}
	offer_store_free(&st);
}

/* Another currency, and hostile values. */
static void test_currency_and_hostile(void **state)
{
	(void)state;
	char a[1024], b[1024], c[1024], d[1024], e[1024], f[1024], body[8192];
	sku_json(a, sizeof a, "Nvidia Tesla V100 GPU running in Netherlands", "GPU", "OnDemand",
		 "\"europe-west4\"", "h", "\"currencyCode\":\"EUR\",\"units\":\"2\",\"nanos\":0");
	sku_json(b, sizeof b, "Nvidia Tesla P100 GPU running in Americas", "GPU", "OnDemand",
		 "\"us-central1\",7,null,\"\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"abc\",\"nanos\":1");
	sku_json(c, sizeof c, "Nvidia Tesla K80 GPU running in Americas", "GPU", "OnDemand",
		 "\"us-central1\"", "h", "\"currencyCode\":\"USD\",\"units\":\"0\",\"nanos\":5e12");
	sku_json(d, sizeof d, "Nvidia L4 GPU running in Americas", "GPU", "OnDemand",
		 "\"us-west1\"", "h", "\"currencyCode\":\"USD\",\"units\":\"-3\",\"nanos\":0");
	sku_json(e, sizeof e, "Nvidia B200 GPU running in Americas", "GPU", "OnDemand",
		 "\"us-south1\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"99999999999999999999999\",\"nanos\":0");
	sku_json(f, sizeof f, "Nvidia Tesla P4 GPU running in Americas", "GPU", "OnDemand",
		 "\"us-east1\"", "h", "\"currencyCode\":\"USD\",\"units\":1,\"nanos\":\"x\"");
	snprintf(body, sizeof body,
		 "{\"skus\":[%s,%s,%s,%s,%s,%s,17,null,{\"description\":5},"
		 "{\"description\":\"Nvidia GPU running\",\"category\":{\"usageType\":\"OnDemand\","
		 "\"resourceGroup\":\"GPU\"},\"serviceRegions\":\"us\",\"pricingInfo\":{}},"
		 "{\"description\":\"Nvidia Tesla T4 GPU\",\"category\":{\"usageType\":\"OnDemand\","
		 "\"resourceGroup\":\"GPU\"},\"serviceRegions\":[\"x\"],\"pricingInfo\":[{"
		 "\"pricingExpression\":{\"usageUnit\":\"h\",\"tieredRates\":[{"
		 "\"startUsageAmount\":10,\"unitPrice\":{\"units\":\"1\"}}]}}]}]}",
		 a, b, c, d, e, f);
	struct offer_store st;
	/* "abc" units, 5e12 nanos, "x" nanos, a negative price, a tier not at 0
	 * and a huge price: dropped */
	expect_parsed(0, body, &st, 0, 1);
	const struct offer *v = must_find(&st, "nvidia-tesla-v100", "europe-west4");
	assert_string_equal(v->currency, "EUR");
	assert_float_equal(v->price_native, 2, 1e-9);
	assert_float_equal(v->price_hr, 2 * 1.0411, 1e-9);
	assert_string_equal(v->gpu, "v100-sxm2-16gb");
	/* huge but finite: beyond any real rental, so not a price (ADAPTER_MAX_PRICE_HR) */
	assert_null(find(&st, "nvidia-b200", "us-south1"));
	offer_store_free(&st);
}

static void test_bad_bodies(void **state)
{
	(void)state;
	char *err = NULL;
	expect_refused(0, "<html><body>403 Forbidden</body></html>", "HTML");
	size_t len;
	char *body = read_source_file(FIX "/skus-page1.json", &len);
	expect_refused_len(0, body, len - 40, "not valid JSON");
	free(body);
	const char *wrong[] = {"[]", "{\"skus\":{}}", "\"skus\"",
			       "{\"error\":{\"code\":403,\"message\":\"API key not valid.\"}}", NULL};
	for (size_t i = 0; wrong[i]; i++)
		expect_refused(0, wrong[i], NULL);
	/* an empty listing (proto3 leaves the empty list out): no offers, no error */
	expect_empty(0, "{}");
	/* a page token too long to send */
	size_t queued;
	char big[8192];
	size_t n = (size_t)snprintf(big, sizeof big, "{\"nextPageToken\":\"");
	memset(big + n, '/', 3000);
	snprintf(big + n + 3000, sizeof big - n - 3000, "\"}");
	assert_int_equal(parse_str(0, big, NULL, &queued, &err), GC_EDATA);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page1),
		cmocka_unit_test(test_both_pages),
		cmocka_unit_test(test_spot_and_filters),
		cmocka_unit_test(test_currency_and_hostile),
		cmocka_unit_test(test_bad_bodies),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
