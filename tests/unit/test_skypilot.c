/* test_skypilot.c - SkyPilot catalog reader over real catalog rows. */
#include <math.h>

#include "testutil.h"

#include "gpucmp/gpu.h"
#include "gpucmp/insttype.h"
#include "gpucmp/skypilot.h"
#include "gpucmp/strutil.h"

static struct gpu_table *gpus;
static struct insttype_table *types;

struct got {
	char sku[96], gpu[48], gpu_name[48], region[64], rdma[8];
	double count, mem, vcpus, ram, price, spot;
	int ib;
};

struct collect {
	struct got items[64];
	size_t n;
	char as_of[32]; /* of the last offer */
};

static enum gc_status collect(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	struct collect *c = ctx;
	assert_true(c->n < 64);
	struct got *g = &c->items[c->n++];
	snprintf(g->sku, sizeof g->sku, "%s", o->sku);
	snprintf(g->gpu, sizeof g->gpu, "%s", o->gpu ? o->gpu : "");
	snprintf(g->gpu_name, sizeof g->gpu_name, "%s", o->gpu_name);
	snprintf(g->region, sizeof g->region, "%s", o->region);
	snprintf(g->rdma, sizeof g->rdma, "%s", o->rdma ? o->rdma : "");
	g->count = o->gpu_count * o->gpu_fraction; /* a slice: 1 GPU x its fraction */
	g->mem = o->gpu_mem_gb;
	g->vcpus = o->vcpus;
	g->ram = o->ram_gb;
	g->price = o->price_hr;
	g->spot = o->spot_price_hr;
	g->ib = o->infiniband;
	assert_string_equal(o->source, "import");
	assert_string_equal(o->fetched_at, "2026-05-20T00:00:00Z");
	snprintf(c->as_of, sizeof c->as_of, "%s", o->as_of ? o->as_of : "");
	return GC_OK;
}

static int setup(void **state)
{
	(void)state;
	return load_shipped_tables(&gpus, &types);
}

static int teardown(void **state)
{
	(void)state;
	gpu_table_free(gpus);
	insttype_free(types);
	return 0;
}

static void parse_file(const char *id, const char *rel, struct collect *c,
		       struct skypilot_stats *st);

static void parse(const char *cloud, struct collect *c, struct skypilot_stats *st)
{
	char rel[256];
	snprintf(rel, sizeof rel, "tests/fixtures/skypilot/%s/vms.csv", cloud);
	parse_file(cloud, rel, c, st);
}

/* Parse the catalog text csv with o; it must parse. */
static void parse_text(const char *csv, const struct skypilot_opts *o, struct collect *c,
		       struct skypilot_stats *st)
{
	char *err = NULL;
	memset(c, 0, sizeof *c);
	enum gc_status rc = skypilot_parse(csv, strlen(csv), o, collect, c, st, &err);
	if (rc != GC_OK)
		fail_msg("%s", err ? err : "failed");
}

static const struct got *find(const struct collect *c, const char *sku, const char *region)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->items[i].sku, sku) == 0 &&
		    (!region || strcmp(c->items[i].region, region) == 0))
			return &c->items[i];
	fail_msg("no offer %s in %s", sku, region ? region : "any region");
	return NULL;
}

static void assert_near(double a, double b)
{
	if (fabs(a - b) > 1e-9)
		fail_msg("%.10g != %.10g", a, b);
}

static void test_gcp_pairs_accelerators_with_hosts(void **state)
{
	(void)state;
	struct collect c;
	struct skypilot_stats st;
	parse("gcp", &c, &st);
	/* A100 in two zones of us-central1: one offer, priced host + GPU */
	assert_int_equal(c.n, 2);
	const struct got *a2 = find(&c, "a2-highgpu-1g", "us-central1");
	assert_string_equal(a2->gpu, "a100-sxm-40gb");
	assert_near(a2->price, 0.73948 + 2.93391);
	assert_near(a2->spot, 0.36975 + 1.4341);
	assert_near(a2->vcpus, 12);
	assert_near(a2->ram, 85);
	const struct got *t4 = find(&c, "n1-standard-8+1xT4", "us-central1");
	assert_string_equal(t4->gpu, "t4");
	assert_near(t4->price, 0.38 + 0.35);
	assert_int_equal(st.duplicates, 1);
	assert_int_equal(st.tpu, 1);
	assert_int_equal(st.unpaired, 1); /* H100-MEGA without an a3-megagpu host */
	assert_int_equal(st.unknown_gpu, 0);
}

static void test_vast_memory_per_instance(void **state)
{
	(void)state;
	struct collect c;
	struct skypilot_stats st;
	parse("vast", &c, &st);
	const struct got *g = find(&c, "2x-RTX_5090-32-65536", NULL);
	assert_string_equal(g->gpu, "rtx-5090");
	assert_near(g->count, 2);
	g = find(&c, "2x-A100_SXM4-32-65536", NULL);
	assert_string_equal(g->gpu, "a100-sxm-40gb"); /* 81920 MiB for two GPUs */
	assert_string_equal(g->region, "Germany, DE, EU");
	g = &c.items[0];
	assert_string_equal(g->region, "Denmark, DK, EU");
	assert_string_equal(c.items[1].region, "CA, NA"); /* ", CA, NA" trimmed */
	g = find(&c, "1x-H100_NVL-32-65536", NULL);
	assert_string_equal(g->gpu, "h100-nvl");
	/* every vast row's 32 vCPUs / 64 GiB is the catalog's, not the host's */
	assert_true(isnan(g->vcpus));
	assert_true(isnan(g->ram));
	assert_int_equal(st.placeholder, c.n);
	g = find(&c, "4x-RTX_4070S_Ti-32-65536", NULL);
	assert_string_equal(g->gpu, "rtx-4070-ti-super");
	assert_string_equal(g->gpu_name, "RTX4070");
	assert_true(isnan(g->spot)); /* SpotPrice 0.00 means none */
	int a80 = 0, a40 = 0;
	for (size_t i = 0; i < c.n; i++)
		if (strcmp(c.items[i].sku, "1x-A100_SXM4-32-65536") == 0) {
			a80 += strcmp(c.items[i].gpu, "a100-sxm-80gb") == 0;
			a40 += strcmp(c.items[i].gpu, "a100-sxm-40gb") == 0;
		}
	assert_int_equal(a80, 1);
	assert_int_equal(a40, 1);
}

static void test_azure_slices_and_table_facts(void **state)
{
	(void)state;
	struct collect c;
	struct skypilot_stats st;
	parse("azure", &c, &st);
	const struct got *g = find(&c, "Standard_NV6ads_A10_v5", "eastus");
	assert_string_equal(g->gpu, "a10");
	assert_near(g->count, 0.167);
	assert_true(g->mem > 3.9 && g->mem < 4.1); /* a sixth of 24 GB */
	/* the is name is a second name of the isr size (data/retired.yaml) */
	for (size_t i = 0; i < c.n; i++)
		assert_string_not_equal(c.items[i].sku, "Standard_ND96is_MI300X_v5");
	assert_int_equal(st.retired, 1);
	g = find(&c, "Standard_NC24ads_A100_v4", "westeurope");
	assert_string_equal(g->gpu, "a100-pcie-80gb");
	assert_int_equal(g->ib, 0);
	assert_int_equal(st.cpu_only, 2);
}

/* Retired sizes are dropped once their date has come (GPUCMP_TODAY), kept
 * before; a vast row with other host figures keeps them. */
static void test_retired_and_placeholder(void **state)
{
	(void)state;
	static const char azure[] =
	    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,"
	    "SpotPrice,Region\n"
	    "Standard_NC6s_v3,V100,1,6,112,V100,3.06,0.6,eastus\n"
	    "standard_nc24rs_v3,V100,4,24,448,V100,13.46,2.6,eastus\n"
	    "Standard_NV12s_v3,M60,1,12,112,M60,1.14,0.2,eastus\n"
	    "Standard_NC4as_T4_v3,T4,1,4,28,T4,0.526,0.1,eastus\n"
	    "Standard_ND96isr_MI300X_v5,,,96,1850,,67.2,12.4,eastus\n"
	    "Standard_ND96is_MI300X_v5,,,96,1850,,67.2,12.4,eastus\n";
	struct skypilot_opts o = {"azure", gpus, types, "import", "t", "2026-05-20T00:00:00Z",
				  NULL};
	struct collect c;
	struct skypilot_stats st;
	setenv("GPUCMP_TODAY", "2026-12-02", 1);
	memset(&c, 0, sizeof c);
	assert_int_equal(skypilot_parse(azure, strlen(azure), &o, collect, &c, &st, NULL), GC_OK);
	assert_int_equal(c.n, 2); /* the T4 and the isr */
	assert_string_equal(c.items[0].sku, "Standard_NC4as_T4_v3");
	assert_string_equal(c.items[1].sku, "Standard_ND96isr_MI300X_v5");
	assert_int_equal(st.retired, 4);
	/* the day before NVv3 retired: it is an offer; NCv3 had gone already */
	setenv("GPUCMP_TODAY", "2026-09-29", 1);
	memset(&c, 0, sizeof c);
	assert_int_equal(skypilot_parse(azure, strlen(azure), &o, collect, &c, &st, NULL), GC_OK);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.items[0].sku, "Standard_NV12s_v3");
	assert_int_equal(st.retired, 3);
	/* on the day itself it is gone */
	setenv("GPUCMP_TODAY", "2026-09-30", 1);
	memset(&c, 0, sizeof c);
	assert_int_equal(skypilot_parse(azure, strlen(azure), &o, collect, &c, &st, NULL), GC_OK);
	assert_int_equal(c.n, 2);
	unsetenv("GPUCMP_TODAY");

	static const char vast[] =
	    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,"
	    "SpotPrice,Region\n"
	    "1x-RTX_4090-32-65536,RTX4090,1,32,64.0,,0.3,,\"CA, NA\"\n"
	    "1x-RTX_4090-16-32768,RTX4090,1,16,32.0,,0.3,,\"CA, NA\"\n";
	o.provider = "vast";
	memset(&c, 0, sizeof c);
	assert_int_equal(skypilot_parse(vast, strlen(vast), &o, collect, &c, &st, NULL), GC_OK);
	assert_int_equal(c.n, 2);
	assert_true(isnan(c.items[0].vcpus) && isnan(c.items[0].ram));
	assert_near(c.items[1].vcpus, 16);
	assert_near(c.items[1].ram, 32);
	assert_int_equal(st.placeholder, 1);
	/* another provider's 32 / 64 is its own */
	o.provider = "lambda";
	memset(&c, 0, sizeof c);
	assert_int_equal(skypilot_parse(vast, strlen(vast), &o, collect, &c, &st, NULL), GC_OK);
	assert_near(c.items[0].vcpus, 32);
	assert_int_equal(st.placeholder, 0);
}

static void test_verda_and_lambda(void **state)
{
	(void)state;
	struct collect c;
	struct skypilot_stats st;
	parse("verda", &c, &st);
	assert_int_equal(c.n, 2);
	const struct got *g = find(&c, "2B300.60V", NULL);
	assert_true(isnan(g->price)); /* empty Price: spot only */
	assert_near(g->spot, 4.893);
	assert_string_equal(g->gpu, "b300");
	assert_int_equal(st.cpu_only, 1);
	parse("lambda", &c, &st);
	g = find(&c, "gpu_8x_a100", "us-east-1");
	assert_string_equal(g->gpu, "a100-sxm-40gb");
	assert_near(g->mem, 40);
	g = find(&c, "gpu_1x_h100_pcie", "us-east-1");
	assert_string_equal(g->gpu, "h100-pcie");
	assert_int_equal(st.cpu_only, 2);
}

/* A spot price at or above on-demand is no spot price (Azure's H200 rows
 * in the SkyPilot catalog repeat the on-demand price); one below stays;
 * the catalog's date is the offers' as_of. */
static void test_spot_not_above_on_demand(void **state)
{
	(void)state;
	struct skypilot_opts o = {"x", gpus, types, "import", "t", "2026-05-20T00:00:00Z",
				  "2026-05-19T00:00:00Z"};
	const char *csv = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,SpotPrice\n"
			  "equal,H100,1,2.5,r1,2.5\n"
			  "above,H100,1,2.5,r2,3\n"
			  "below,H100,1,2.5,r3,1.2\n"
			  "spotonly,H100,1,,r4,1.1\n";
	struct collect c;
	struct skypilot_stats st;
	parse_text(csv, &o, &c, &st);
	assert_int_equal(c.n, 4);
	assert_int_equal(st.spot_dropped, 2);
	assert_true(isnan(find(&c, "equal", "r1")->spot));
	assert_true(isnan(find(&c, "above", "r2")->spot));
	assert_near(find(&c, "below", "r3")->spot, 1.2);
	assert_near(find(&c, "spotonly", "r4")->spot, 1.1);
	assert_string_equal(c.as_of, "2026-05-19T00:00:00Z");
}

/* One pass over a catalog without zones: a row whose memory reading waits
 * for the vote is read again after the last row voted, in file order; a
 * one-GPU row is handed on at once. */
static void test_one_pass_waits_for_the_vote(void **state)
{
	(void)state;
	struct skypilot_opts o = {"x", gpus, types, "import", "t", "2026-05-20T00:00:00Z",
				  NULL};
	/* 81920 MiB for two A100s fits either reading (two 40 GB, or 80 GB
	 * each): it does not vote; the 8-GPU row after it votes "per instance" */
	const char *csv = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo\n"
			  "two,A100,2,7.35,r1,\"{'Name': 'A100', 'MemoryInfo': "
			  "{'SizeInMiB': 81920}}\"\n"
			  "one,A100,1,3.67,r1,\"{'Name': 'A100', 'MemoryInfo': "
			  "{'SizeInMiB': 40960}}\"\n"
			  "two,A100,2,7.35,r2,\"{'Name': 'A100', 'MemoryInfo': "
			  "{'SizeInMiB': 81920}}\"\n"
			  "eight,A100,8,29.39,r1,\"{'Name': 'A100', 'MemoryInfo': "
			  "{'SizeInMiB': 327680}}\"\n";
	struct collect c;
	struct skypilot_stats st;
	parse_text(csv, &o, &c, &st);
	assert_int_equal(c.n, 4);
	assert_int_equal(st.rows, 4);
	assert_string_equal(c.items[0].sku, "one");
	assert_string_equal(c.items[1].sku, "two");
	assert_string_equal(c.items[1].region, "r1");
	assert_string_equal(c.items[2].region, "r2");
	assert_string_equal(c.items[3].sku, "eight");
	assert_near(c.items[1].mem, 40);
	assert_near(c.items[2].mem, 40);
	assert_near(c.items[3].mem, 40);
	assert_near(c.items[0].mem, 40);
}

/* Read `rel` (a path under the source tree) as provider `id`'s catalog. */
static void parse_file(const char *id, const char *rel, struct collect *c,
		       struct skypilot_stats *st)
{
	size_t len;
	char *data = read_source_file(rel, &len);
	struct skypilot_opts o = {id, gpus, types, "import", rel, "2026-05-20T00:00:00Z", NULL};
	char *err = NULL;
	memset(c, 0, sizeof *c);
	enum gc_status rc = skypilot_parse(data, len, &o, collect, c, st, &err);
	free(data);
	if (rc != GC_OK)
		fail_msg("%s: %s", rel, err ? err : "failed");
}

/* The recorded AWS catalog (tests/fixtures/catalogs/README.md): a region's
 * offer takes the lowest spot of its zones, not the first zone's. */
static void test_aws_spot_from_regular_zones(void **state)
{
	(void)state;
	struct collect c;
	struct skypilot_stats st;
	parse_file("aws", "tests/fixtures/catalogs/skypilot/aws/vms.csv", &c, &st);
	/* us-east-1: use1-az1..az6 ask 55.04 (= on-demand), 47.2054, 14.582,
	 * 55.04, 14.246, 14.8686 */
	const struct got *p5 = find(&c, "p5.48xlarge", "us-east-1");
	assert_near(p5->price, 55.04);
	assert_near(p5->spot, 14.246);
	/* the first zone's 2.7197 before, use1-az2's 2.5244 now */
	assert_near(find(&c, "g6.24xlarge", "us-east-1")->spot, 2.5244);
	assert_near(find(&c, "p5en.48xlarge", "us-east-1")->spot, 19.1652);
	assert_near(find(&c, "p6-b200.48xlarge", "us-east-1")->spot, 19.0919);
	assert_int_equal(c.n, 11);
	assert_int_equal(st.duplicates, 10); /* every folded zone row counted */
	assert_int_equal(st.outlying_zone, 0);
	assert_int_equal(st.spot_dropped, 0);
}

/* Constructed rows: zone names and IDs of a Local Zone and a Wavelength
 * Zone as AWS writes them (the EC2 User Guide's instance topology page:
 * zone us-east-1-atl-2a, zone ID use1-atl2-az1; the Wavelength guide:
 * us-east-1-wl1-atl-wlz-1; checked 2026-12-04), the Local Zone's 10.24 the
 * figure issue 22 saw; the regular zones' prices from the real rows. */
static void test_local_and_wavelength_zones_left_out(void **state)
{
	(void)state;
	struct skypilot_opts o = {"aws", gpus, types, "import", "t", "2026-05-20T00:00:00Z",
				  NULL};
	const char *csv = "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region,"
			  "AvailabilityZone\n"
			  "p5.48xlarge,H100,8,55.04,10.24,us-east-1,use1-atl2-az1\n"
			  "p5.48xlarge,H100,8,55.04,9.5,us-east-1,us-east-1-atl-2a\n"
			  "p5.48xlarge,H100,8,55.04,9,us-east-1,use1-wl1-bos-wlz1\n"
			  "p5.48xlarge,H100,8,55.04,47.2054,us-east-1,use1-az2\n"
			  "p5.48xlarge,H100,8,55.04,14.246,us-east-1,use1-az5\n"
			  "p5.48xlarge,H100,8,55.04,14.3,us-east-1,us-east-1a\n"
			  "p6-b200.48xlarge,B200,8,113.9328,13.03,us-east-1,use1-atl2-az1\n";
	struct collect c;
	struct skypilot_stats st;
	parse_text(csv, &o, &c, &st);
	assert_int_equal(c.n, 1); /* p6-b200 is offered in the Local Zone only */
	assert_near(find(&c, "p5.48xlarge", "us-east-1")->spot, 14.246);
	assert_int_equal(st.outlying_zone, 4);
	assert_int_equal(st.duplicates, 2);
}

static void test_zone_regular(void **state)
{
	(void)state;
	static const struct {
		const char *region, *zone;
		int regular;
	} t[] = {
		{"us-east-1", "us-east-1a", 1},	      {"us-east-1", "use1-az6", 1},
		{"us-east-1", "", 1},		      {"us-central1", "us-central1-a", 1},
		{"CA", "CA-MTL-1", 1},		      {"EU-RO", "EU-RO-1", 1},
		{"us-east-1", "us-east-1-atl-2a", 0}, {"us-east-1", "use1-atl2-az1", 0},
		{"us-east-1", "us-east-1-wl1-bos-wlz-1", 0},
		{"us-east-1", "use1-wl1-bos-wlz1", 0}, {"us-west-2", "usw2-lax1-az1", 0},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (skypilot_zone_regular(t[i].region, t[i].zone) != t[i].regular)
			fail_msg("%s %s: want %d", t[i].region, t[i].zone, t[i].regular);
}

/* Real GCP rows (tests/fixtures/catalogs/README.md): the A4 host VM is
 * priced 0.0, so host + GPU would be the GPUs' price alone. */
static void test_gcp_host_priced_zero(void **state)
{
	(void)state;
	struct collect c;
	struct skypilot_stats st;
	parse_file("gcp", "tests/fixtures/catalogs/skypilot/gcp/vms.csv", &c, &st);
	for (size_t i = 0; i < c.n; i++)
		assert_string_not_equal(c.items[i].sku, "a4-highgpu-8g");
	assert_int_equal(st.host_unpriced, 2); /* us-central1-b, europe-west4-b */
}

static void test_bad_catalogs(void **state)
{
	(void)state;
	struct skypilot_opts o = {"x", gpus, types, "import", "t", "2026-05-20T00:00:00Z", NULL};
	char *err = NULL;
	const char *no_price = "InstanceType,AcceleratorName,AcceleratorCount,Region\na,H100,1,r\n";
	assert_int_equal(skypilot_parse(no_price, strlen(no_price), &o, NULL, NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "no 'Price' column"));
	free(err);
	err = NULL;
	assert_int_equal(skypilot_parse("", 0, &o, NULL, NULL, NULL, &err), GC_EDATA);
	free(err);
	err = NULL;
	const char *html = "<html><body>502 Bad Gateway</body></html>\n";
	assert_int_equal(skypilot_parse(html, strlen(html), &o, NULL, NULL, NULL, &err), GC_EDATA);
	assert_non_null(err);
	free(err);
	err = NULL;
	const char *open =
		"InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n\"a,H100,1,2,r\n";
	assert_int_equal(skypilot_parse(open, strlen(open), &o, NULL, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "unterminated"));
	free(err);
	err = NULL;
	/* a NUL byte is an error naming its line, not a field cut short */
	const char nul[] = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n"
			   "a,H100,1,2,r\na,H100,1,2,us\0evil\n";
	struct collect c;
	memset(&c, 0, sizeof c);
	assert_int_equal(skypilot_parse(nul, sizeof nul - 1, &o, collect, &c, NULL, &err),
			 GC_EDATA);
	assert_non_null(err);
	if (!strstr(err, "line 3: NUL byte"))
		fail_msg("%s", err);
	free(err);
}

/* Every text field of an offer is clean (no C0, DEL or C1 control, valid
 * UTF-8 as str_field leaves it) and at most STR_FIELD_MAX bytes. */
static void assert_clean_text(const struct offer *o)
{
	const char *text[] = {o->provider, o->sku,    o->gpu,        o->gpu_name,
			      o->region,   o->currency, o->source,   o->origin,
			      o->fetched_at, o->rdma,   o->driver_version, o->max_cuda};
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
		if (!text[i])
			continue;
		char dst[STR_FIELD_MAX + 1];
		int changed = 0;
		str_field(dst, text[i], &changed);
		if (changed)
			fail_msg("field %zu of %s not clean: '%s'", i, o->sku, text[i]);
	}
}

static enum gc_status collect_clean(void *ctx, const struct offer *o, char **err)
{
	assert_clean_text(o);
	if (!offer_price_ok(o->price_hr) && !offer_price_ok(o->spot_price_hr))
		fail_msg("%s stored without a price (%g, %g)", o->sku, o->price_hr,
			 o->spot_price_hr);
	if (!isnan(o->price_hr) && !offer_price_ok(o->price_hr))
		fail_msg("%s stored with price %g", o->sku, o->price_hr);
	if (!isnan(o->spot_price_hr) && !offer_price_ok(o->spot_price_hr))
		fail_msg("%s stored with spot price %g", o->sku, o->spot_price_hr);
	return collect(ctx, o, err);
}

/* Numbers are plain decimals (no hex, inf, nan); a price outside
 * [OFFER_MIN_PRICE_HR, OFFER_MAX_PRICE_HR] is none, the row dropped and
 * counted; text is cleaned and cut on the way out, as on the live path. */
static void test_numbers_and_text(void **state)
{
	(void)state;
	char big[600];
	memset(big, 'r', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	char csv[8192];
	snprintf(
		csv, sizeof csv,
		"InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,"
		"GpuInfo,SpotPrice\n"
		"hex,H100,1,8,64,0x50,r,,\n"
		"hexfloat,H100,1,8,64,0x1p8,r,,\n"
		"tiny,H100,1,8,64,1e-300,r,,\n"
		"below,H100,1,8,64,0.0009,r,,\n"
		"zero,H100,1,8,64,0,r,,\n"
		"negative,H100,1,8,64,-2,r,,\n"
		"inf,H100,1,8,64,inf,r,,\n"
		"nan,H100,1,8,64,nan,r,,\n"
		"huge,H100,1,8,64,1e5,r,,\n"
		"newline,H100,1,8,64,\"\n2\",r,,\n"
		"empty,H100,1,8,64,,r,,\n"
		"floor,H100,1,0x8,64,0.001,r,"
		"\"{'Name': 'H100', 'MemoryInfo': {'SizeInMiB': 0x50}}\","
		"0x1\n"
		"blanks,H100,1,8,64, 2.5 ,r,,1e-300\n"
		"c1\xc2\x9b[2J,H100\x1b]8;;x\x07,1,8,64,3,\"us\xc2\x85\r\neast\",,\n"
		"long,H100,1,8,64,4,%s,,\n",
		big);
	struct skypilot_opts o = {
		"x", gpus, types, "import", "bad\x1borigin", "2026-05-20T00:00:00Z", NULL
	};
	struct collect c;
	struct skypilot_stats st;
	char *err = NULL;
	memset(&c, 0, sizeof c);
	assert_int_equal(skypilot_parse(csv, strlen(csv), &o, collect_clean, &c, &st, &err), GC_OK);
	assert_int_equal(st.rows, 15);
	assert_int_equal(c.n, 4);
	assert_int_equal(st.offers, 4);
	assert_int_equal(st.no_price, 11);
	assert_int_equal(st.bad_price, 10); /* all but the empty one */
	assert_int_equal(st.cleaned, 4);    /* the origin of each */
	const struct got *g = find(&c, "floor", "r");
	assert_near(g->price, OFFER_MIN_PRICE_HR);
	assert_true(isnan(g->vcpus)); /* "0x8" */
	assert_true(isnan(g->spot));  /* "0x1" */
	assert_near(g->mem, 80);      /* the table's H100, not 0x50 MiB */
	g = find(&c, "blanks", "r");
	assert_near(g->price, 2.5);
	assert_true(isnan(g->spot)); /* 1e-300 */
	g = find(&c, "c1?[2J", "us???east");
	assert_string_equal(g->gpu_name, "H100?]8;;x?");
	g = &c.items[3];
	assert_string_equal(g->sku, "long");
	/* struct got keeps 63 bytes of it: the length is checked by collect_clean */
	assert_int_equal(strspn(g->region, "r"), sizeof g->region - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gcp_pairs_accelerators_with_hosts),
		cmocka_unit_test(test_vast_memory_per_instance),
		cmocka_unit_test(test_azure_slices_and_table_facts),
		cmocka_unit_test(test_retired_and_placeholder),
		cmocka_unit_test(test_verda_and_lambda),
		cmocka_unit_test(test_bad_catalogs),
		cmocka_unit_test(test_spot_not_above_on_demand),
		cmocka_unit_test(test_numbers_and_text),
		cmocka_unit_test(test_aws_spot_from_regular_zones),
		cmocka_unit_test(test_local_and_wavelength_zones_left_out),
		cmocka_unit_test(test_zone_regular),
		cmocka_unit_test(test_gcp_host_priced_zero),
		cmocka_unit_test(test_one_pass_waits_for_the_vote),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
