/* test_snapshot.c - the built-in snapshot: it parses, names only known
 * providers and GPUs, and round-trips through the writer. */
#include <math.h>

#include "testutil.h"

#include "gpucmp/catalog.h"
#include "gpucmp/embedded.h"
#include "gpucmp/retired.h"
#include "gpucmp/snapshot.h"

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

struct check {
	size_t rows, per_provider[128]; /* more than the profiles */
};

static enum gc_status check_row(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	struct check *c = ctx;
	if (!profile_set_find(&cat.profiles, o->provider))
		fail_msg("snapshot row for unknown provider '%s'", o->provider);
	if (!o->gpu || !gpu_find(cat.gpus, o->gpu))
		fail_msg("%s %s: GPU '%s' (%s) not in the model table", o->provider, o->sku,
			 o->gpu ? o->gpu : "", o->gpu_name);
	assert_true(o->gpu_count > 0);
	assert_true(!isnan(o->price_hr) || !isnan(o->spot_price_hr));
	assert_string_equal(o->source, "snapshot");
	assert_int_equal(strlen(o->fetched_at), 20);
	/* the SkyPilot vast catalog's fixed 32 vCPUs / 64 GiB are not kept */
	if (strcmp(o->provider, "vast") == 0)
		assert_true(isnan(o->vcpus) && isnan(o->ram_gb));
	/* no alias, no size retired by the snapshot's own date */
	assert_int_not_equal(offer_retired(o->provider, o->sku, o->region), RETIRED_ALIAS);
	assert_non_null(o->origin);
	assert_true(strlen(o->origin) > 10);
	assert_true(cat.profiles.n <= sizeof c->per_provider / sizeof c->per_provider[0]);
	for (size_t i = 0; i < cat.profiles.n; i++)
		if (strcmp(cat.profiles.items[i]->id, o->provider) == 0)
			c->per_provider[i]++;
	c->rows++;
	return GC_OK;
}

static void test_embedded_snapshot(void **state)
{
	(void)state;
	struct check c;
	memset(&c, 0, sizeof c);
	struct snapshot_info info;
	char *err = NULL;
	assert_int_equal(snapshot_parse(cat.snapshot, cat.snapshot_len, check_row, &c, &info, &err),
			 GC_OK);
	assert_true(c.rows > 1000);
	assert_int_equal(info.rows, c.rows);
	assert_string_equal(info.newest, "2026-05-20");
	/* what `gpucmp --version` prints, read at build time (tools/embed.c) */
	assert_string_equal(embedded_snapshot_date, info.newest);
	/* every provider of the snapshot catalogs is present */
	static const char *const want[] = {"azure", "gcp", "lambda", "vast", "nebius",
					   "verda", "hyperbolic", "mithril"};
	for (size_t w = 0; w < 8; w++)
		for (size_t i = 0; i < cat.profiles.n; i++)
			if (strcmp(cat.profiles.items[i]->id, want[w]) == 0 &&
			    c.per_provider[i] == 0)
				fail_msg("no snapshot offers for %s", want[w]);
}

/* The embedded copy is data/snapshot.csv as committed. */
static void test_embedded_matches_file(void **state)
{
	(void)state;
	size_t len;
	char *file = read_source_file("data/snapshot.csv", &len);
	assert_int_equal(len, cat.snapshot_len);
	assert_memory_equal(file, cat.snapshot, len);
	free(file);
	/* the build-time hashes agree with catalog_hash() over the bytes */
	const struct embedded_file *all[] = {embedded_find("data/snapshot.csv"),
					     embedded_find("data/gpus.yaml"),
					     &embedded_profiles[0]};
	for (size_t i = 0; i < 3; i++) {
		assert_non_null(all[i]);
		assert_true(all[i]->hash ==
			    catalog_hash(CATALOG_HASH_INIT, all[i]->data, all[i]->len));
	}
	assert_true(cat.snapshot_hash == all[0]->hash);
}

static enum gc_status write_back(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	return snapshot_write_row(ctx, o);
}

static enum gc_status count_sku(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	struct check *c = ctx;
	c->rows++;
	if (strcmp(o->sku, "Standard_NC4as_T4_v3") == 0)
		c->per_provider[0]++;
	return GC_OK;
}

/* A row the snapshot still holds for a size retired since is dropped at
 * load (data/retired.yaml), and so is the alias of another size. */
static void test_retired_rows_dropped(void **state)
{
	(void)state;
	static const char csv[] =
	    SNAPSHOT_HEADER "\n"
	    "azure,Standard_NC6s_v3,v100-sxm2-16gb,V100,1,16,6,112,,eastus,3.06,,USD,false,no,,,"
	    "t,2025-05-20\n"
	    "azure,Standard_ND96is_MI300X_v5,mi300x,mi300x,8,192,96,1850,,eastus,67.2,,USD,,,,,"
	    "t,2025-05-20\n"
	    "azure,Standard_NC4as_T4_v3,t4,T4,1,16,4,28,,eastus,0.526,,USD,,,,,t,2025-05-20\n";
	struct check c;
	struct snapshot_info info;
	memset(&c, 0, sizeof c);
	setenv("GPUCMP_TODAY", "2025-09-29", 1);
	assert_int_equal(snapshot_parse(csv, strlen(csv), count_sku, &c, &info, NULL), GC_OK);
	assert_int_equal(c.rows, 2); /* NCv3 still sold the day before */
	assert_int_equal(info.retired, 1);
	memset(&c, 0, sizeof c);
	setenv("GPUCMP_TODAY", "2025-09-30", 1);
	assert_int_equal(snapshot_parse(csv, strlen(csv), count_sku, &c, &info, NULL), GC_OK);
	unsetenv("GPUCMP_TODAY");
	assert_int_equal(c.rows, 1);
	assert_int_equal(c.per_provider[0], 1);
	assert_int_equal(info.retired, 2);
	assert_int_equal(info.rows, 1);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct buf out;
	buf_init(&out, 0);
	assert_int_equal(buf_addstr(&out, SNAPSHOT_HEADER "\n"), GC_OK);
	assert_int_equal(snapshot_parse(cat.snapshot, cat.snapshot_len, write_back, &out, NULL,
					NULL),
			 GC_OK);
	assert_int_equal(out.len, cat.snapshot_len);
	assert_memory_equal(out.ptr, cat.snapshot, out.len);
	buf_free(&out);
}

static void test_bad_rows(void **state)
{
	(void)state;
	static const char row[] =
		"lambda,sku,h100-sxm,H100,1,80,8,64,,us-east-1,%s,,USD,,,,,origin,%s\n";
	static const struct {
		const char *price, *date, *want;
	} cases[] = {
		{"abc", "2026-05-20", "snapshot.csv:2: row has a bad or missing price"},
		{"-1", "2026-05-20", "bad or missing price"},
		{"", "2026-05-20", "bad or missing price"},
		/* strict numbers, and a price within the bounds of offer.h */
		{"0x50", "2026-05-20", "bad or missing price"},
		{"inf", "2026-05-20", "bad or missing price"},
		{"0", "2026-05-20", "bad or missing price"},
		{"1e-300", "2026-05-20", "bad or missing price"},
		{"0.0009", "2026-05-20", "bad or missing price"},
		{"10000.5", "2026-05-20", "bad or missing price"},
		{"1.5", "2026-02-30", "bad as_of date"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char doc[512];
		int n = snprintf(doc, sizeof doc, SNAPSHOT_HEADER "\n");
		snprintf(doc + n, sizeof doc - (size_t)n, row, cases[i].price, cases[i].date);
		char *err = NULL;
		assert_int_equal(snapshot_parse(doc, strlen(doc), NULL, NULL, NULL, &err),
				 GC_EDATA);
		if (!err || !strstr(err, cases[i].want))
			fail_msg("case %zu: %s", i, err ? err : "(null)");
		free(err);
	}
	char *err = NULL;
	const char *wrong = "provider,sku\nlambda,x\n";
	assert_int_equal(snapshot_parse(wrong, strlen(wrong), NULL, NULL, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "unexpected header"));
	free(err);
	err = NULL;
	const char *short_row = SNAPSHOT_HEADER "\nlambda,x\n";
	assert_int_equal(snapshot_parse(short_row, strlen(short_row), NULL, NULL, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "2 fields, expected 19"));
	free(err);
}

static enum gc_status keep_first(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	char *out = ctx;
	snprintf(out, 2048, "%s|%s|%s|%s", o->sku, o->gpu_name, o->region, o->origin);
	return GC_OK;
}

/* The snapshot loader hands offers on through the same door as every
 * source: control characters as '?', text cut at STR_FIELD_MAX; a NUL
 * byte is an error of the file. */
static void test_text_cleaned(void **state)
{
	(void)state;
	char sku[600];
	memset(sku, 's', sizeof sku - 1);
	sku[sizeof sku - 1] = '\0';
	char doc[2048], got[2048] = "";
	snprintf(doc, sizeof doc,
		 SNAPSHOT_HEADER
		 "\nlambda,%s,h100-sxm,H100\xc2\x9b,1,80,8,64,,\"us\x1b[2J\",2.5,,USD,,,,,"
		 "or\x07igin,2026-05-20\n",
		 sku);
	char *err = NULL;
	assert_int_equal(snapshot_parse(doc, strlen(doc), keep_first, got, NULL, &err), GC_OK);
	char want[2048];
	snprintf(want, sizeof want, "%.*s|H100?|us?[2J|or?igin", STR_FIELD_MAX, sku);
	assert_string_equal(got, want);
	size_t n = strlen(doc);
	memcpy(doc + n, doc + strlen(SNAPSHOT_HEADER) + 1, 20);
	doc[n + 5] = '\0';
	assert_int_equal(snapshot_parse(doc, n + 20, keep_first, got, NULL, &err), GC_EDATA);
	assert_non_null(err);
	if (!strstr(err, "line 3: NUL byte"))
		fail_msg("%s", err);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_embedded_snapshot),
		cmocka_unit_test(test_embedded_matches_file),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_retired_rows_dropped),
		cmocka_unit_test(test_bad_rows),
		cmocka_unit_test(test_text_cleaned),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
