/* test_adapter_gcp.c - the GCP adapter (Cloud Billing Catalog: machine types
 * priced as GPUs + family vCPU + RAM SKUs, N1-attached GPUs alone) on its
 * recorded pages and on SKUs built in the same shape. */
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
	snprintf(
		out, n,
		"{\"name\":\"services/6F81-5844-456A/skus/X\",\"skuId\":\"X\","
		"\"description\":\"%s\",\"category\":{\"serviceDisplayName\":\"Compute Engine\","
		"\"resourceFamily\":\"Compute\",\"resourceGroup\":\"%s\",\"usageType\":\"%s\"},"
		"\"serviceRegions\":[%s],\"pricingInfo\":[{\"summary\":\"\",\"pricingExpression\":{"
		"\"usageUnit\":\"%s\",\"displayQuantity\":1,\"tieredRates\":[{\"startUsageAmount\":"
		"0,"
		"\"unitPrice\":{%s}}]}}]}",
		desc, group, usage, regions, unit, price);
	return out;
}

/* The recorded SKU prices (opencost skus.json, effectiveTime 2023-03-24). */
#define A100_40 2.933908 /* Nvidia Tesla A100 GPU running in Americas, per hour */
#define A2_CORE 0.031611 /* A2 Instance Core running in Americas, per vCPU-hour */
#define A2_RAM 0.004237	 /* A2 Instance Ram running in Americas, per GiB-hour */

/* Page 1 of the recording: the A100 GPU and the A2 RAM but not yet the A2
 * core, so no machine type has a whole price; and a next page. */
static void test_page1(void **state)
{
	(void)state;
	char *err = NULL;
	struct offer_store s;
	expect_parsed_file(0, FIX "/skus-page1.json", &s, 1, 0);
	offer_store_free(&s);

	/* the follow-up carries the token, URL-encoded */
	struct harness h;
	h_init(&h, NULL, "k");
	assert_int_equal(h_file(&h, 0, FIX "/skus-page1.json", &err), GC_OK);
	assert_int_equal(h.run.nqueue, 1);
	assert_string_equal(
		h.run.queue[0].url,
		"https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus"
		"?pageSize=5000&pageToken=APKCS1HVa0YpwgyTFbqbJ1eGwzKZmsPwLqzMZPTSNia5c"
		"k1Hc54Tx_Kz3oBxwSnRIdGVxXoSPdf-XlDpyNBf4QuxKcIEgtrQ1LDLWAgZowI0ns7HjrGta"
		"2s%3D");
	/* the same token again, in the answer to the page it led to, would
	 * never end */
	struct adapter_request *r = next_request(&h.run, NULL);
	assert_int_equal(h_answer(&h, r, FIX "/skus-page1.json", &err), GC_EDATA);
	assert_non_null(strstr(err, "repeats"));
	free(err);
	drop_request(r);
	h_free(&h);
}

/* Both pages: the A2 machine types whose GPU is the 40 GB A100, each priced
 * GPUs + vCPUs x core + GiB x RAM from the recorded SKUs (a2-highgpu-1g
 * was 2.933908, the GPU alone, before); not the A100 alone. */
static void test_both_pages(void **state)
{
	(void)state;
	char *err = NULL;
	struct harness h;
	h_init(&h, NULL, "k");
	assert_int_equal(h_file(&h, 0, FIX "/skus-page1.json", &err), GC_OK);
	assert_int_equal(h_file(&h, 0, FIX "/skus-page2.json", &err), GC_OK);
	assert_int_equal(h.store.n, 0);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	/* a2-highgpu-1g/2g/4g/8g and a2-megagpu-16g in three regions */
	assert_int_equal(h.store.n, 15);
	assert_int_equal(h.run.nqueue - h.run.qhead, 1);
	const char *regions[] = {"us-central1", "us-east1", "us-west1"};
	for (size_t i = 0; i < 3; i++) {
		const struct offer *o = must_find(&h.store, "a2-highgpu-1g", regions[i]);
		assert_string_equal(o->provider, "gcp");
		assert_string_equal(o->source, "live");
		assert_string_equal(o->gpu, "a100-sxm-40gb");
		assert_string_equal(o->gpu_name, "Nvidia Tesla A100");
		assert_float_equal(o->gpu_count, 1, 0);
		assert_float_equal(o->gpu_mem_gb, 40, 0);
		assert_float_equal(o->vcpus, 12, 0);
		assert_float_equal(o->ram_gb, 85, 0);
		assert_float_equal(o->price_hr, A100_40 + 12 * A2_CORE + 85 * A2_RAM, 1e-9);
		assert_float_equal(o->price_hr, 3.673385, 1e-9);
		assert_true(isnan(o->spot_price_hr)); /* no Spot SKU recorded */
		assert_int_equal(o->available, -1);
	}
	const struct offer *o = must_find(&h.store, "a2-highgpu-8g", "us-east1");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->price_hr, 8 * A100_40 + 96 * A2_CORE + 680 * A2_RAM, 1e-9);
	o = must_find(&h.store, "a2-megagpu-16g", "us-west1");
	assert_float_equal(o->gpu_count, 16, 0);
	assert_float_equal(o->price_hr, 16 * A100_40 + 96 * A2_CORE + 1360 * A2_RAM, 1e-9);
	assert_null(find(&h.store, "nvidia-tesla-a100", NULL));
	assert_null(find(&h.store, "a2-ultragpu-1g", NULL)); /* its GPU is the 80 GB one */
	h_free(&h);

	/* page 2 alone: the core but no GPU */
	struct offer_store s;
	expect_parsed_file(0, FIX "/skus-page2.json", &s, 0, 0);
	offer_store_free(&s);
}

/* Build a body of `k` SKUs. */
static void skus_body(char *body, size_t n, char s[][1024], int k)
{
	size_t used = (size_t)snprintf(body, n, "{\"skus\":[");
	for (int i = 0; i < k; i++)
		used += (size_t)snprintf(body + used, n - used, "%s%s", i ? "," : "", s[i]);
	snprintf(body + used, n - used, "],\"nextPageToken\":\"\"}");
}

#define P(u, n) "\"currencyCode\":\"USD\",\"units\":\"" #u "\",\"nanos\":" #n

/* G2, A3 High, A3 Mega and A4 from constructed SKUs in the recorded shape
 * (descriptions as public GCP pricing code spells them; prices are round
 * numbers, not recorded): on-demand and Spot each the sum of their own
 * parts, bundled Local SSD included, a missing part leaving that price
 * unknown. */
static void test_machines(void **state)
{
	(void)state;
	char s[24][1024];
	int k = 0;
	const char *am = "\"us-central1\"";
	sku_json(s[k++], sizeof s[0], "Nvidia L4 GPU running in Americas", "GPU", "OnDemand", am,
		 "h", P(0, 560000000));
	sku_json(s[k++], sizeof s[0], "G2 Instance Core running in Americas", "CPU", "OnDemand",
		 am, "h", P(0, 25000000));
	sku_json(s[k++], sizeof s[0], "G2 Instance Ram running in Americas", "RAM", "OnDemand", am,
		 "GiBy.h", P(0, 3000000));
	sku_json(s[k++], sizeof s[0], "Nvidia L4 GPU attached to Spot Preemptible VMs running in "
		 "Americas", "GPU", "Preemptible", am, "h", P(0, 200000000));
	sku_json(s[k++], sizeof s[0], "Spot Preemptible G2 Instance Core running in Americas",
		 "CPU", "Preemptible", am, "h", P(0, 10000000));
	sku_json(s[k++], sizeof s[0], "Spot Preemptible G2 Instance Ram running in Americas",
		 "RAM", "Preemptible", am, "GiBy.h", P(0, 1000000));
	/* not the G2 family's price: a custom machine's, another unit */
	sku_json(s[k++], sizeof s[0], "G2 Custom Instance Core running in Americas", "CPU",
		 "OnDemand", am, "h", P(9, 0));
	sku_json(s[k++], sizeof s[0], "A3 Ultra GPU Instance Ram running in Americas", "RAM",
		 "OnDemand", am, "GiBy.h", P(9, 0));
	/* A3 High: GPU, core, RAM, bundled Local SSD per GiB-month; no Spot SSD */
	sku_json(s[k++], sizeof s[0], "Nvidia H100 80GB GPU running in Americas", "GPU",
		 "OnDemand", am, "h", P(11, 0));
	sku_json(s[k++], sizeof s[0], "A3 Instance Core running in Americas", "CPU", "OnDemand",
		 am, "h", P(0, 30000000));
	sku_json(s[k++], sizeof s[0], "A3 Instance Ram running in Americas", "RAM", "OnDemand", am,
		 "GiBy.h", P(0, 2000000));
	sku_json(s[k++], sizeof s[0], "SSD backed Local Storage", "SSD", "OnDemand", am,
		 "GiBy.mo", P(0, 73000000));
	sku_json(s[k++], sizeof s[0], "Nvidia H100 80GB GPU attached to Spot Preemptible VMs "
		 "running in Americas", "GPU", "Preemptible", am, "h", P(4, 0));
	sku_json(s[k++], sizeof s[0], "Spot Preemptible A3 Instance Core running in Americas",
		 "CPU", "Preemptible", am, "h", P(0, 10000000));
	sku_json(s[k++], sizeof s[0], "Spot Preemptible A3 Instance Ram running in Americas",
		 "RAM", "Preemptible", am, "GiBy.h", P(0, 1000000));
	/* A3 Mega: the GPU but no A3Plus core or RAM: no offer */
	sku_json(s[k++], sizeof s[0], "Nvidia H100 80GB Plus GPU running in Americas", "GPU",
		 "OnDemand", am, "h", P(12, 0));
	/* A4: the Spot slice only; an on-demand slice is not read */
	sku_json(s[k++], sizeof s[0], "Spot Preemptible A4 Nvidia B200 (1 gpu slice) running in "
		 "Americas", "GPU", "Preemptible", am, "h", P(5, 500000000));
	sku_json(s[k++], sizeof s[0], "A4 Nvidia B200 (1 gpu slice) running in Americas", "GPU",
		 "OnDemand", am, "h", P(99, 0));
	char body[32768];
	skus_body(body, sizeof body, s, k);
	struct offer_store st;
	/* g2-standard-4..96 (8) + a3-highgpu-8g + a4-highgpu-8g */
	expect_parsed(0, body, &st, 0, 10);
	const struct offer *o = must_find(&st, "g2-standard-4", "us-central1");
	assert_string_equal(o->gpu, "l4");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->vcpus, 4, 0);
	assert_float_equal(o->ram_gb, 16, 0);
	assert_float_equal(o->price_hr, 0.56 + 4 * 0.025 + 16 * 0.003, 1e-9);
	assert_float_equal(o->spot_price_hr, 0.2 + 4 * 0.01 + 16 * 0.001, 1e-9);
	o = must_find(&st, "g2-standard-24", "us-central1");
	assert_float_equal(o->gpu_count, 2, 0);
	assert_float_equal(o->price_hr, 2 * 0.56 + 24 * 0.025 + 96 * 0.003, 1e-9);
	o = must_find(&st, "g2-standard-96", "us-central1");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->price_hr, 8 * 0.56 + 96 * 0.025 + 384 * 0.003, 1e-9);
	o = must_find(&st, "a3-highgpu-8g", "us-central1");
	assert_string_equal(o->gpu, "h100-sxm");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->vcpus, 208, 0);
	assert_float_equal(o->ram_gb, 1872, 0);
	assert_float_equal(o->price_hr, 8 * 11 + 208 * 0.03 + 1872 * 0.002 + 6000 * 0.073 / 730,
			   1e-9);
	assert_true(isnan(o->spot_price_hr)); /* no Spot Local SSD price */
	o = must_find(&st, "a4-highgpu-8g", "us-central1");
	assert_string_equal(o->gpu, "b200");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_true(isnan(o->price_hr));
	assert_float_equal(o->spot_price_hr, 8 * 5.5, 1e-9);
	assert_null(find(&st, "a3-megagpu-8g", NULL));
	assert_null(find(&st, "nvidia-l4", NULL));
	assert_null(find(&st, "nvidia-h100-80gb", NULL));
	assert_null(find(&st, "g4-standard-48", NULL));
	offer_store_free(&st);
}

/* G4 from constructed SKUs: the fractional shapes (g4-standard-6/12/24, a
 * vGPU slice of one RTX PRO 6000) are offers of that fraction of the GPU
 * with its share of the 96 GB, priced fraction x the GPU SKU + the G4
 * family's vCPUs and RAM, like the whole-GPU shapes. */
static void test_g4_slices(void **state)
{
	(void)state;
	char s[3][1024];
	const char *am = "\"us-central1\"";
	sku_json(s[0], sizeof s[0], "Nvidia RTX 6000 96GB running in Americas", "GPU", "OnDemand",
		 am, "h", P(4, 0));
	sku_json(s[1], sizeof s[0], "G4 Instance Core running in Americas", "CPU", "OnDemand", am,
		 "h", P(0, 20000000));
	sku_json(s[2], sizeof s[0], "G4 Instance Ram running in Americas", "RAM", "OnDemand", am,
		 "GiBy.h", P(0, 2000000));
	char body[8192];
	skus_body(body, sizeof body, s, 3);
	struct offer_store st;
	expect_parsed(0, body, &st, 0, 7); /* g4-standard-6 .. -384 */
	const struct offer *o = must_find(&st, "g4-standard-6", "us-central1");
	assert_string_equal(o->gpu, "rtx-pro-6000");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_fraction, 0.125, 0);
	assert_float_equal(o->gpu_mem_gb, 12, 0);
	assert_float_equal(o->vcpus, 6, 0);
	assert_float_equal(o->ram_gb, 22, 0);
	assert_float_equal(o->price_hr, 0.125 * 4 + 6 * 0.02 + 22 * 0.002, 1e-9);
	assert_true(isnan(o->spot_price_hr));
	o = must_find(&st, "g4-standard-12", "us-central1");
	assert_float_equal(o->gpu_fraction, 0.25, 0);
	assert_float_equal(o->gpu_mem_gb, 24, 0);
	assert_float_equal(o->price_hr, 0.25 * 4 + 12 * 0.02 + 45 * 0.002, 1e-9);
	o = must_find(&st, "g4-standard-24", "us-central1");
	assert_float_equal(o->gpu_fraction, 0.5, 0);
	assert_float_equal(o->gpu_mem_gb, 48, 0);
	assert_float_equal(o->ram_gb, 90, 0);
	o = must_find(&st, "g4-standard-48", "us-central1");
	assert_float_equal(o->gpu_count, 1, 0);
	assert_float_equal(o->gpu_fraction, 1, 0);
	assert_float_equal(o->gpu_mem_gb, 96, 0);
	assert_float_equal(o->price_hr, 4 + 48 * 0.02 + 180 * 0.002, 1e-9);
	o = must_find(&st, "g4-standard-384", "us-central1");
	assert_float_equal(o->gpu_count, 8, 0);
	assert_float_equal(o->gpu_mem_gb, 96, 0);
	assert_null(find(&st, "nvidia-rtx-pro-6000", NULL)); /* bound to G4 */
	offer_store_free(&st);
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
		 "\"us-central1\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"0\",\"nanos\":560000000");
	/* only a Spot price: kept, on-demand unknown */
	sku_json(s[k++], sizeof s[0], "Spot Preemptible Nvidia H200 141GB GPU running in Americas",
		 "GPU", "Preemptible", "\"us-east4\"", "h",
		 "\"currencyCode\":\"USD\",\"units\":\"3\",\"nanos\":0");
	char body[32768];
	size_t used = (size_t)snprintf(body, sizeof body, "{\"skus\":[");
	for (int i = 0; i < k; i++)
		used += (size_t)snprintf(body + used, sizeof body - used, "%s%s", i ? "," : "",
					 s[i]);
	snprintf(body + used, sizeof body - used, "],\"nextPageToken\":\"\"}");

	struct offer_store st;
	/* the T4 in two regions and the A4 from its Spot slice; every other
	 * GPU comes only inside a machine type whose parts are missing here */
	expect_parsed(0, body, &st, 0, 3); /* an empty token ends the listing */
	const struct offer *t4 = must_find(&st, "nvidia-tesla-t4", "us-central1");
	assert_string_equal(t4->gpu, "t4");
	assert_float_equal(t4->gpu_count, 1, 0);
	assert_float_equal(t4->price_hr, 0.35, 1e-9);
	assert_float_equal(t4->spot_price_hr, 0.07, 1e-9);
	assert_true(isnan(t4->vcpus) && isnan(t4->ram_gb));
	const struct offer *t4e = must_find(&st, "nvidia-tesla-t4", "us-east1");
	assert_true(isnan(t4e->spot_price_hr));
	const struct offer *a4 = must_find(&st, "a4-highgpu-8g", "us-central1");
	assert_float_equal(a4->spot_price_hr, 8 * 2.933908, 1e-9);
	for (size_t i = 0; i < st.n; i++) {
		assert_null(strstr(st.items[i].sku, "p4"));
		assert_null(strstr(st.items[i].sku, "nvidia-b200"));
		assert_null(strstr(st.items[i].sku, "workstation"));
		assert_null(strstr(st.items[i].sku, "a3"));
		assert_null(strstr(st.items[i].sku, "a100"));
		assert_null(strstr(st.items[i].sku, "h200"));
		assert_null(strstr(st.items[i].sku, "l4"));
	}
	offer_store_free(&st);
}

/* The constructed commitment SKUs of skus-commit.json (the recorded A2
 * core of page 2 with Commit1Yr / Commit3Yr SKUs built in the documented
 * shape; round prices, not recorded ones) after the recorded page 1. */
#define C1_A100 1.85   /* Commitment v1: Nvidia Tesla A100 GPU ... for 1 Year */
#define C3_A100 1.03   /* ... for 3 Years */
#define C1_CORE 0.02   /* Commitment v1: A2 Cpu in Americas for 1 Year */
#define C3_CORE 0.014  /* ... for 3 Years */
#define C1_RAM 0.0027  /* Commitment v1: A2 Ram in Americas for 1 Year */
#define C3_RAM 0.0019  /* ... for 3 Years: us-central1 and us-east1 only */

/* The reservation of `months` of offer `o`, or NULL. */
static const struct offer_commit *term(const struct offer *o, int months)
{
	for (size_t i = 0; i < o->ncommits; i++)
		if (o->commits[i].term_months == months)
			return &o->commits[i];
	return NULL;
}

/* A machine type's committed price is the sum of its parts' committed
 * prices of that term, as the on-demand one; a region without the 3-year
 * RAM SKU has the 12-month reservation only. */
static void test_commit_page(void **state)
{
	(void)state;
	char *err = NULL;
	struct harness h;
	h_init(&h, NULL, "k");
	assert_int_equal(h_file(&h, 0, FIX "/skus-page1.json", &err), GC_OK);
	assert_int_equal(h_file(&h, 0, FIX "/skus-commit.json", &err), GC_OK);
	assert_int_equal(AD.finish(&h.run, &err), GC_OK);
	assert_int_equal(h.store.n, 15); /* the same offers as without commitments */
	const char *regions[] = {"us-central1", "us-east1", "us-west1"};
	for (size_t i = 0; i < 3; i++) {
		const struct offer *o = must_find(&h.store, "a2-highgpu-1g", regions[i]);
		assert_float_equal(o->price_hr, 3.673385, 1e-9);
		const struct offer_commit *c = term(o, 12);
		assert_non_null(c);
		assert_string_equal(c->type, "reserved");
		assert_float_equal(c->price_hr, C1_A100 + 12 * C1_CORE + 85 * C1_RAM, 1e-9);
		assert_float_equal(c->price_hr, 2.3195, 1e-9);
		assert_null(c->origin); /* the offer's */
		assert_null(c->as_of);
		c = term(o, 36);
		if (i < 2) {
			assert_int_equal(o->ncommits, 2);
			assert_float_equal(c->price_hr, C3_A100 + 12 * C3_CORE + 85 * C3_RAM, 1e-9);
			assert_float_equal(c->price_hr, 1.3595, 1e-9);
		} else {
			assert_int_equal(o->ncommits, 1); /* no 3-year RAM: unknown, not less */
			assert_null(c);
		}
	}
	const struct offer *o = must_find(&h.store, "a2-highgpu-8g", "us-east1");
	assert_float_equal(term(o, 12)->price_hr, 8 * C1_A100 + 96 * C1_CORE + 680 * C1_RAM, 1e-9);
	assert_float_equal(term(o, 12)->price_hr, 18.556, 1e-9);
	assert_true(term(o, 12)->price_hr < o->price_hr);
	o = must_find(&h.store, "a2-megagpu-16g", "us-central1");
	assert_float_equal(term(o, 36)->price_hr, 16 * C3_A100 + 96 * C3_CORE + 1360 * C3_RAM,
			   1e-9);
	h_free(&h);

	/* the commitments alone (and the A2 core): no offer to hang them on */
	struct offer_store s;
	expect_parsed_file(0, FIX "/skus-commit.json", &s, 0, 0);
	offer_store_free(&s);
}

/* Committed use from constructed SKUs: bundled Local SSD at its committed
 * price or no committed price; an N1 accelerator's own; a commitment
 * without an hourly price is no offer; another spelling is not read. */
static void test_commit_parts(void **state)
{
	(void)state;
	char s[16][1024];
	int k = 0;
	const char *am = "\"us-central1\"", *two = "\"us-central1\",\"us-east1\"";
	sku_json(s[k++], sizeof s[0], "Nvidia H100 80GB GPU running in Americas", "GPU",
		 "OnDemand", two, "h", P(11, 0));
	sku_json(s[k++], sizeof s[0], "A3 Instance Core running in Americas", "CPU", "OnDemand",
		 two, "h", P(0, 30000000));
	sku_json(s[k++], sizeof s[0], "A3 Instance Ram running in Americas", "RAM", "OnDemand",
		 two, "GiBy.h", P(0, 2000000));
	sku_json(s[k++], sizeof s[0], "SSD backed Local Storage", "SSD", "OnDemand", two,
		 "GiBy.mo", P(0, 73000000));
	sku_json(s[k++], sizeof s[0], "Commitment v1: Nvidia H100 80GB GPU running in Americas "
		 "for 1 Year", "GPU", "Commit1Yr", two, "h", P(7, 0));
	sku_json(s[k++], sizeof s[0], "Commitment v1: A3 Cpu in Americas for 1 Year", "CPU",
		 "Commit1Yr", two, "h", P(0, 20000000));
	sku_json(s[k++], sizeof s[0], "Commitment v1: A3 Ram in Americas for 1 Year", "RAM",
		 "Commit1Yr", two, "GiBy.h", P(0, 1000000));
	/* the Local SSD commitment in us-central1 only */
	sku_json(s[k++], sizeof s[0], "Commitment v1: Local SSD in Americas for 1 Year", "SSD",
		 "Commit1Yr", am, "GiBy.mo", P(0, 50000000));
	/* N1's T4: the accelerator alone, its own commitments */
	sku_json(s[k++], sizeof s[0], "Nvidia Tesla T4 GPU running in Americas", "GPU",
		 "OnDemand", am, "h", P(0, 350000000));
	sku_json(s[k++], sizeof s[0], "Commitment v1: Nvidia Tesla T4 GPU running in Americas "
		 "for 3 Years", "GPU", "Commit3Yr", am, "h", P(0, 160000000));
	/* a commitment with no hourly price beside it; another spelling */
	sku_json(s[k++], sizeof s[0], "Commitment v1: Nvidia Tesla P4 GPU running in Americas for "
		 "1 Year", "GPU", "Commit1Yr", am, "h", P(0, 100000000));
	sku_json(s[k++], sizeof s[0], "Commitment: Nvidia Tesla T4 GPU running in Americas for 1 "
		 "Year", "GPU", "Commit1Yr", am, "h", P(0, 10000000));
	char body[32768];
	skus_body(body, sizeof body, s, k);
	struct offer_store st;
	expect_parsed(0, body, &st, 0, 3); /* a3-highgpu-8g x 2, nvidia-tesla-t4 */
	const struct offer *o = must_find(&st, "a3-highgpu-8g", "us-central1");
	assert_int_equal(o->ncommits, 1);
	assert_int_equal(o->commits[0].term_months, 12);
	assert_float_equal(o->commits[0].price_hr,
			   8 * 7 + 208 * 0.02 + 1872 * 0.001 + 6000 * 0.05 / 730, 1e-9);
	o = must_find(&st, "a3-highgpu-8g", "us-east1");
	assert_float_equal(o->price_hr, 8 * 11 + 208 * 0.03 + 1872 * 0.002 + 6000 * 0.073 / 730,
			   1e-9);
	assert_int_equal(o->ncommits, 0); /* no committed Local SSD: unknown, not less */
	o = must_find(&st, "nvidia-tesla-t4", "us-central1");
	assert_float_equal(o->price_hr, 0.35, 1e-9);
	assert_int_equal(o->ncommits, 1); /* "Commitment:" is not "Commitment v1:" */
	assert_int_equal(o->commits[0].term_months, 36);
	assert_float_equal(o->commits[0].price_hr, 0.16, 1e-9);
	assert_null(find(&st, "nvidia-tesla-p4", NULL));
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
	snprintf(
		body, sizeof body,
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
			       "{\"error\":{\"code\":403,\"message\":\"API key not valid.\"}}",
			       NULL};
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
		cmocka_unit_test(test_machines),
		cmocka_unit_test(test_g4_slices),
		cmocka_unit_test(test_commit_page),
		cmocka_unit_test(test_commit_parts),
		cmocka_unit_test(test_currency_and_hostile),
		cmocka_unit_test(test_bad_bodies),
	};
	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
