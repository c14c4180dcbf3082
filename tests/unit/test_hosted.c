/* test_hosted.c - the hosted catalog tier: id mapping, dates, the gpuhunt
 * reader and libzip, and each catalog adapter on its fixture files
 * (tests/fixtures/catalogs/, README.md there names their origin). */
#include <math.h>
#include <stdio.h>

#include "testutil.h"

#include "gpucmp/hosted.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/refresh.h"

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

static void test_mapping_both_ways(void **state)
{
	(void)state;
	assert_string_equal(hosted_find("digitalocean")->skypilot, "do");
	assert_string_equal(hosted_find_skypilot("do")->id, "digitalocean");
	assert_string_equal(hosted_find("lambda")->gpuhunt, "lambdalabs");
	assert_string_equal(hosted_find_gpuhunt("lambdalabs")->id, "lambda");
	assert_null(hosted_find("vast")->gpuhunt); /* online in gpuhunt: not in its catalog */
	assert_null(hosted_find("coreweave"));
	assert_int_equal(hosted_kind_for("aws"), HOSTED_SKYPILOT);
	assert_int_equal(hosted_kind_for("civo"), HOSTED_NONE);
	/* every mapped id is a provider profile, listed once, sorted; each of
	 * its names is an alias of it and of no other */
	for (size_t i = 0; i < hosted_map_count; i++) {
		const struct hosted_map *m = &hosted_maps[i];
		assert_non_null(profile_set_find(&cat.profiles, m->id));
		if (i)
			assert_true(strcmp(hosted_maps[i - 1].id, m->id) < 0);
		const char *names[] = {m->id, m->skypilot, m->gpuhunt, m->other};
		for (size_t k = 0; k < 4; k++)
			if (names[k])
				assert_string_equal(hosted_alias(names[k]), m->id);
	}
}

/* import's aliases: SkyPilot's folders, gpuhunt's names, former names. */
static void test_alias(void **state)
{
	(void)state;
	assert_string_equal(hosted_alias("do"), "digitalocean");
	assert_string_equal(hosted_alias("lambdalabs"), "lambda");
	assert_string_equal(hosted_alias("datacrunch"), "verda");
	assert_string_equal(hosted_alias("vastai"), "vast");
	assert_string_equal(hosted_alias("aws"), "aws");
	assert_null(hosted_alias("aws2"));
	assert_null(hosted_alias("civo")); /* a profile no catalog covers: no alias either */
	assert_null(hosted_alias(NULL));
	/* an alias is never fetched: the refresh tier reads only the catalog columns */
	assert_null(hosted_find_gpuhunt("vastai"));
	assert_null(hosted_find_skypilot("datacrunch"));
}

static void test_dates(void **state)
{
	(void)state;
	char out[32];
	assert_int_equal(hosted_version_date("20261130-3", out, sizeof out), 0);
	assert_string_equal(out, "2026-11-30T00:00:00Z");
	assert_int_equal(hosted_version_date("20261330-3", out, sizeof out), -1);
	assert_int_equal(hosted_version_date("20261130", out, sizeof out), -1);
	assert_int_equal(hosted_version_date("20261130-3/../x", out, sizeof out), -1);
	assert_int_equal(hosted_version_date("../../x", out, sizeof out), -1);
	assert_int_equal(hosted_http_date("Tue, 01 Dec 2026 10:00:00 GMT", out, sizeof out), 0);
	assert_string_equal(out, "2026-12-01T10:00:00Z");
	assert_int_equal(hosted_http_date("yesterday", out, sizeof out), -1);
	assert_int_equal(hosted_http_date(NULL, out, sizeof out), -1);
}

/* Each SkyPilot fixture through the catalog adapter, as refresh runs it:
 * offers with source catalog, the provider's id, a price. */
static void test_skypilot_fixtures(void **state)
{
	(void)state;
	static const struct {
		const char *id, *folder;
		size_t min;
	} f[] = {{"aws", "aws", 8},       {"azure", "azure", 10},  {"fluidstack", "fluidstack", 13},
		 {"gcp", "gcp", 6},       {"hyperbolic", "hyperbolic", 1}, {"lambda", "lambda", 20},
		 {"mithril", "mithril", 1}, {"nebius", "nebius", 10}, {"oci", "oci", 14},
		 {"runpod", "runpod", 10}, {"vast", "vast", 10},    {"verda", "verda", 10}};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		char rel[128];
		size_t len;
		snprintf(rel, sizeof rel, "tests/fixtures/catalogs/skypilot/%s/vms.csv",
			 f[i].folder);
		char *body = read_source_file(rel, &len);
		assert_non_null(body);
		struct adapter ad;
		hosted_adapter(&ad, f[i].id, HOSTED_SKYPILOT, "http://127.0.0.1:1/v8");
		struct offer_store st;
		offer_store_init(&st);
		char *err = NULL;
		enum gc_status s = refresh_parse_one(&ad, &cat, 0, body, len, offer_store_cb, &st,
						     NULL, &err);
		if (s != GC_OK)
			fail_msg("%s: %s", f[i].id, err ? err : "?");
		if (st.n < f[i].min)
			fail_msg("%s: %zu offers, want at least %zu", f[i].id, st.n, f[i].min);
		for (size_t k = 0; k < st.n; k++) {
			assert_string_equal(st.items[k].source, "catalog");
			assert_string_equal(st.items[k].provider, f[i].id);
			assert_true(offer_price_ok(st.items[k].price_hr) ||
				    offer_price_ok(st.items[k].spot_price_hr));
		}
		offer_store_free(&st);
		free(body);
	}
}

struct tally {
	size_t n;
	const struct offer *last;
	char sku[64];
	double price, spot, mem;
	char as_of[32], gpu[32];
};

static enum gc_status pick_h100(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	struct tally *t = ctx;
	t->n++;
	if (strcmp(o->sku, "1H100.80S.30V") == 0) {
		t->price = o->price_hr;
		t->spot = o->spot_price_hr;
		t->mem = o->gpu_mem_gb;
		snprintf(t->as_of, sizeof t->as_of, "%s", o->as_of ? o->as_of : "");
		snprintf(t->gpu, sizeof t->gpu, "%s", o->gpu ? o->gpu : "");
	}
	return GC_OK;
}

/* gpuhunt rows: on-demand and spot paired, TPUs and CPU rows left out,
 * bad numbers and spot words counted, never guessed. */
static void test_gpuhunt_csv(void **state)
{
	(void)state;
	size_t len;
	char *csv = read_source_file("tests/fixtures/catalogs/gpuhunt/verda.csv", &len);
	assert_non_null(csv);
	struct gpuhunt_opts o = {"verda",
				 cat.gpus,
				 cat.types,
				 "catalog",
				 "t",
				 "2026-12-02T00:00:00Z",
				 "2026-11-30T00:00:00Z"};
	struct gpuhunt_stats s;
	struct tally t;
	memset(&t, 0, sizeof t);
	char *err = NULL;
	assert_int_equal(gpuhunt_parse(csv, len, &o, pick_h100, &t, &s, &err), GC_OK);
	assert_int_equal(t.n, 4);
	assert_int_equal(s.tpu, 1);
	assert_true(t.price == 2.19 && t.spot == 0.99);
	assert_string_equal(t.as_of, "2026-11-30T00:00:00Z");
	assert_true(*t.gpu != '\0');
	free(csv);

	csv = read_source_file("tests/fixtures/catalogs/gpuhunt/azure.csv", &len);
	o.provider = "azure";
	memset(&t, 0, sizeof t);
	assert_int_equal(gpuhunt_parse(csv, len, &o, pick_h100, &t, &s, &err), GC_OK);
	/* A100 eastus (paired), A100 westeurope, T4 westeurope (paired), T4
	 * eastus (spot only), H100, MI300X; the D2s is a CPU, both NC6s_v3
	 * rows are bad (0x10 is not a decimal, "maybe" not True/False) */
	assert_int_equal(t.n, 6);
	assert_int_equal(s.cpu_only, 1);
	assert_int_equal(s.bad_number, 2);
	free(csv);

	static const char *const bad[] = {"", "instance_name,location\n",
					  "a,b\n\"unterminated\n"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		free(err);
		err = NULL;
		assert_int_equal(gpuhunt_parse(bad[i], strlen(bad[i]), &o, pick_h100, &t, &s, &err),
				 GC_EDATA);
		assert_non_null(err);
	}
	free(err);
}

static void test_unzip_refuses(void **state)
{
	(void)state;
	char *out = NULL, *err = NULL;
	size_t n;
	assert_int_equal(hosted_unzip("PK\x03\x04garbage", 11, "x.csv", 1 << 20, &out, &n, &err),
			 GC_EDATA);
	assert_null(out);
	assert_non_null(strstr(err, "zip"));
	free(err);
	err = NULL;
	assert_int_equal(hosted_unzip("", 0, "x.csv", 1 << 20, &out, &n, &err), GC_EDATA);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping_both_ways), cmocka_unit_test(test_alias),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_skypilot_fixtures),
		cmocka_unit_test(test_gpuhunt_csv),
		cmocka_unit_test(test_unzip_refuses),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
