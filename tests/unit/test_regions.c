/* test_regions.c - the region table: lookups, geos, names that carry the
 * country, and the checks on data/regions.yaml. */
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/catalog.h"
#include "gpucmp/csv.h"
#include "gpucmp/hosted.h"
#include "gpucmp/listprice.h"
#include "gpucmp/regions.h"
#include "gpucmp/snapshot.h"

static struct region_table *regions;

static int setup(void **state)
{
	(void)state;
	size_t len;
	char *err = NULL;
	char *data = read_source_file("data/regions.yaml", &len);
	enum gc_status st = regions_load(&regions, "data/regions.yaml", data, len, &err);
	if (st != GC_OK)
		fprintf(stderr, "%s\n", err ? err : "load failed");
	free(data);
	free(err);
	return st == GC_OK ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	regions_free(regions);
	return 0;
}

static void expect(const char *provider, const char *region, const char *code,
		   const char *continent, const char *geo)
{
	const struct region_country *c = regions_lookup(regions, provider, region);
	if (!code) {
		if (c)
			fail_msg("%s %s placed in %s, expected unknown", provider,
				 region ? region : "(null)", c->code);
		return;
	}
	if (!c)
		fail_msg("%s %s not placed, expected %s", provider, region, code);
	assert_string_equal(c->code, code);
	assert_string_equal(c->continent, continent);
	assert_string_equal(c->geo, geo);
}

static void test_lookups(void **state)
{
	(void)state;
	expect("aws", "us-east-1", "US", "north-america", "us");
	expect("azure", "eastus", "US", "north-america", "us");
	expect("azure", "EastUS", "US", "north-america", "us"); /* without case */
	expect("azure", "westeurope", "NL", "europe", "eu");
	expect("gcp", "europe-west2", "GB", "europe", "eu"); /* geo eu: Europe, not the EU */
	expect("gcp", "me-west1", "IL", "asia", "mea");      /* the Middle East */
	expect("azure", "southafricanorth", "ZA", "africa", "mea");
	expect("gcp", "asia-east1", "TW", "asia", "apac");
	expect("azure", "australiaeast", "AU", "oceania", "apac");
	expect("gcp", "southamerica-east1", "BR", "south-america", "americas");
	expect("runpod", "CA-MTL-1", "CA", "north-america", "americas");
	expect("runpod", "US-CA-2", "US", "north-america", "us"); /* California, not Canada */
	/* the provider must match, not only the name; unknown stays unknown */
	expect("gcp", "eastus", NULL, NULL, NULL);
	expect("lambda", "us-east-1", "US", "north-america", "us");
	expect("lambda", "me-west-1", "IL", "asia", "mea");
	expect("lambda", "europe-central-1", "DE", "europe", "eu");
	expect("coreweave", "any", NULL, NULL, NULL); /* a list price's "anywhere" */
	expect("aws", NULL, NULL, NULL, NULL);
	assert_null(regions_lookup(NULL, "aws", "us-east-1"));
}

static void test_names_country(void **state)
{
	(void)state;
	char code[3];
	assert_true(regions_code_in_name("Alberta, CA, NA", code));
	assert_string_equal(code, "CA");
	assert_true(regions_code_in_name("CN, AS", code)); /* the country, then the continent */
	assert_string_equal(code, "CN");
	assert_true(regions_code_in_name("Guangxi, CN", code));
	assert_string_equal(code, "CN");
	assert_true(regions_code_in_name("Sverdlovsk Oblast, RU, EU", code));
	assert_string_equal(code, "RU");
	assert_false(regions_code_in_name("us-east-1", code));
	assert_false(regions_code_in_name("Texas, us", code));
	assert_false(regions_code_in_name("A, B", code));
	assert_false(regions_code_in_name("", code));
	assert_false(regions_code_in_name(NULL, code));
	expect("vast", "Ontario, CA, NA", "CA", "north-america", "americas");
	expect("vast", "Czechia, CZ, EU", "CZ", "europe", "eu");
	expect("vast", "Nowhere, ZZ, EU", NULL, NULL, NULL); /* not a country of the table */
	expect("azure", "Ontario, CA, NA", NULL, NULL, NULL); /* only where the block says so */
}

/* Every country has a continent and a geo; every place a known country;
 * every provider block a built-in profile. */
static void test_table(void **state)
{
	(void)state;
	assert_true(regions_country_count(regions) > 200);
	for (size_t i = 0; i < regions_country_count(regions); i++) {
		const struct region_country *c = regions_country_at(regions, i);
		assert_non_null(c->continent);
		assert_non_null(c->geo);
		assert_string_equal(regions_country(regions, c->code)->code, c->code);
	}
	assert_non_null(regions_country(regions, "de"));
	assert_null(regions_country(regions, "EU"));
	assert_null(regions_country(regions, "D"));
	for (size_t i = 0; i < regions_place_count(regions); i++)
		assert_non_null(regions_country(regions, regions_place_at(regions, i)->code));
	for (size_t i = 0; i < regions_source_count(regions); i++) {
		const struct region_source *s = regions_source_at(regions, i);
		if (!catalog_has_profile(s->provider))
			fail_msg("data/regions.yaml: provider '%s' has no profile", s->provider);
	}
}

/* Every region of the built-in data and of the recorded catalogs is placed,
 * read from its name (names_country), or listed as unplaced with a reason:
 * one neither is forgotten.  `where` names the file for the message. */
static int unplaced_count;

static void check_region(const char *where, const char *provider, const char *region)
{
	if (regions_lookup(regions, provider, region) ||
	    regions_unplaced_reason(regions, provider, region))
		return;
	if (unplaced_count++ < 40)
		fprintf(stderr, "%s: %s region '%s' is neither placed nor listed as unplaced "
			"in data/regions.yaml\n", where, provider, region);
}

static enum gc_status check_offer(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	check_region(ctx, o->provider, o->region);
	return GC_OK;
}

/* One SkyPilot vms.csv: its Region column, the provider its folder maps to. */
static void check_skypilot_csv(const char *path, const char *folder)
{
	const struct hosted_map *m = hosted_find_skypilot(folder);
	if (!m)
		fail_msg("%s: folder '%s' maps to no provider (src/hosted.c)", path, folder);
	size_t len;
	char *data = read_path(path, &len);
	if (!data)
		return; /* a folder without vms.csv */
	struct csv_reader r;
	csv_init(&r, data, len);
	assert_int_equal(csv_next(&r, NULL), 1);
	int col = csv_column(&r, "Region");
	if (col < 0)
		fail_msg("%s: no Region column", path);
	while (csv_next(&r, NULL) == 1)
		if ((size_t)col < r.nfields)
			check_region(path, m->id, r.fields[col]);
	csv_release(&r);
	free(data);
}

/* Every <dir>/<cloud>/vms.csv, new folders included. */
static void check_skypilot_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		fail_msg("cannot open %s", dir);
	size_t seen = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s/vms.csv", dir, e->d_name);
		check_skypilot_csv(path, e->d_name);
		seen++;
	}
	closedir(d);
	assert_true(seen > 0);
}

static void test_every_region_listed(void **state)
{
	(void)state;
	unplaced_count = 0;
	size_t len;
	const char *snap = snapshot_embedded(&len);
	char *err = NULL;
	assert_int_equal(snapshot_parse(snap, len, check_offer, "data/snapshot.csv", NULL, &err),
			 GC_OK);
	char *lp = read_source_file("data/list-prices.yaml", &len);
	assert_int_equal(listprice_parse("data/list-prices.yaml", lp, len, NULL, check_offer,
					 "data/list-prices.yaml", NULL, &err), GC_OK);
	free(lp);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/tests/fixtures/catalogs/skypilot", GPUCMP_SOURCE_DIR);
	check_skypilot_tree(dir);
	/* a whole catalog tree elsewhere (the reference copy), on request */
	const char *extra = getenv("GPUCMP_TEST_CATALOG_TREE");
	if (extra && *extra)
		check_skypilot_tree(extra);
	if (unplaced_count)
		fail_msg("%d regions forgotten: place each in data/regions.yaml from a source, or "
			 "list it under 'unplaced' with the reason", unplaced_count);
	/* unplaced is unknown, not placed */
	assert_null(regions_lookup(regions, "hyperbolic", "default"));
	assert_non_null(regions_unplaced_reason(regions, "hyperbolic", "DEFAULT"));
	assert_null(regions_unplaced_reason(regions, "lambda", "us-east-1"));
}

static void test_bad_files(void **state)
{
	(void)state;
	static const char head[] =
		"version: 1\n"
		"countries:\n"
		"  source: https://example.org/c\n"
		"  checked: 2026-12-03\n"
		"  continents: {europe: [DE, FR], asia: [IL, JP]}\n"
		"  middle_east: [IL]\n";
	static const struct {
		const char *tail, *want;
	} cases[] = {
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03,"
		 " regions: {a: XX}}]\n", "not a country"},
		{"providers: [{provider: x, source: ftp://e.org, checked: 2026-12-03,"
		 " regions: {a: DE}}]\n", "http(s) URL"},
		{"providers: [{provider: x, source: https://e.org, checked: 3 Dec,"
		 " regions: {a: DE}}]\n", "YYYY-MM-DD"},
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03,"
		 " regions: {a: DE, A: FR}}]\n", "placed twice"},
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03}]\n",
		 "needs 'regions'"},
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03,"
		 " regions: {a: DE}, unplaced: {A: why}}]\n", "placed twice"},
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03,"
		 " unplaced: {a: ''}}]\n", "needs its reason"},
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03,"
		 " regions: {a: de}}]\n", "not a country"},
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03,"
		 " names_country: maybe}]\n", "yes or no"},
		{"providers: [{provider: x, source: https://e.org, checked: 2026-12-03,"
		 " region: {a: DE}}]\n", "region"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char doc[1024];
		snprintf(doc, sizeof doc, "%s%s", head, cases[i].tail);
		struct region_table *t = NULL;
		char *err = NULL;
		assert_int_equal(regions_load(&t, "r.yaml", doc, strlen(doc), &err), GC_EDATA);
		assert_null(t);
		if (!err || !strstr(err, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err ? err : "", cases[i].want);
		free(err);
	}
	/* the head alone, with a provider: IL is in asia and the Middle East */
	char doc[1024];
	snprintf(doc, sizeof doc, "%sproviders: [{provider: x, source: https://e.org,"
		 " checked: 2026-12-03, regions: {tlv: IL, fra: DE}}]\n", head);
	struct region_table *t = NULL;
	assert_int_equal(regions_load(&t, "r.yaml", doc, strlen(doc), NULL), GC_OK);
	assert_string_equal(regions_lookup(t, "x", "TLV")->geo, "mea");
	assert_string_equal(regions_lookup(t, "x", "fra")->geo, "eu");
	assert_string_equal(regions_country(t, "JP")->geo, "apac");
	regions_free(t);
	/* a Middle East country outside asia is refused */
	static const char bad[] = "version: 1\ncountries: {source: https://e.org, checked: "
				  "2026-12-03, continents: {europe: [CY]}, middle_east: [CY]}\n"
				  "providers: []\n";
	assert_int_equal(regions_load(&t, "r.yaml", bad, sizeof bad - 1, NULL), GC_EDATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_names_country),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_every_region_listed),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
