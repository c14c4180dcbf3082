/* test_country.c - the ISO 3166-1 table (data/countries.csv): a country by
 * any of its words, suggestions from real matches only, and its agreement
 * with data/regions.yaml. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "gpucmp/country.h"
#include "gpucmp/regions.h"

static struct country_table *table;

static int setup(void **state)
{
	(void)state;
	size_t len;
	char *err = NULL;
	char *data = read_source_file("data/countries.csv", &len);
	enum gc_status st = country_table_load(&table, "data/countries.csv", data, len, &err);
	if (st != GC_OK)
		fprintf(stderr, "%s\n", err ? err : "load failed");
	free(data);
	free(err);
	return st == GC_OK ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	country_table_free(table);
	return 0;
}

static void expect_find(const char *word, const char *code)
{
	const struct country *c = country_find(table, word);
	if (!code && c)
		fail_msg("'%s' names %s, expected none", word, c->alpha2);
	if (code && !c)
		fail_msg("'%s' names no country, expected %s", word, code);
	if (code)
		assert_string_equal(c->alpha2, code);
}

static void test_find(void **state)
{
	(void)state;
	/* alpha-2, alpha-3 and the English name, in any case */
	expect_find("DE", "DE");
	expect_find("De", "DE");
	expect_find("de", "DE");
	expect_find("DEU", "DE");
	expect_find("deu", "DE");
	expect_find("germany", "DE");
	expect_find("GERMANY", "DE");
	expect_find("usa", "US");
	expect_find("united states", "US");
	expect_find("united-states", "US");
	expect_find("United_Kingdom", "GB");
	/* iso-codes' common name where ISO's is long, and the ASCII spelling */
	expect_find("south korea", "KR");
	expect_find("Korea, Republic of", "KR");
	expect_find("turkiye", "TR");
	expect_find("Türkiye", "TR");
	expect_find("aland islands", "AX");
	/* UK: exceptionally reserved for the United Kingdom, which is GB */
	expect_find("uk", "GB");
	expect_find("UK", "GB");
	/* no country: not a code in use, a prefix, a geo or continent */
	expect_find("XX", NULL);
	expect_find("GER", NULL);
	expect_find("EU", NULL);
	expect_find("europe", NULL);
	expect_find("germ", NULL);
	expect_find("", NULL);
	expect_find(NULL, NULL);
}

/* The suggestions for word, as "DE GB" (their codes, in order). */
static void expect_suggest(const char *word, const char *codes)
{
	const struct country *c[3];
	size_t n = country_suggest(table, word, c, 3);
	char got[32] = "";
	size_t at = 0;
	for (size_t i = 0; i < n; i++)
		at += (size_t)snprintf(got + at, sizeof got - at, "%s%s", i ? " " : "",
				       c[i]->alpha2);
	if (strcmp(got, codes) != 0)
		fail_msg("'%s' suggests '%s', expected '%s'", word, got, codes);
}

static void test_suggest(void **state)
{
	(void)state;
	expect_suggest("GER", "DE");       /* begins Germany */
	expect_suggest("ger", "DE");
	expect_suggest("germnay", "DE");   /* a name two letters swapped */
	expect_suggest("swtzerland", "CH");
	expect_suggest("united", "US GB AE"); /* shorter names first, three at most */
	expect_suggest("korea", "KP KR");
	/* two letters are compared as codes: any two are one edit from many
	 * codes (XX is not a typo of AX), so none is named */
	expect_suggest("XX", "");
	expect_suggest("ZZ", "");
	expect_suggest("QQQ", "");
	expect_suggest("zzzzzz", "");
	/* three letters suggest by a name's beginning, never by distance */
	expect_suggest("DEX", "");
	const struct country *c[1];
	assert_int_equal(country_suggest(table, "GER", c, 0), 0);
	assert_int_equal(country_suggest(NULL, "GER", c, 1), 0);
}

/* Every country of data/regions.yaml is an ISO 3166-1 country of the table,
 * and every ISO country is there but those it leaves out (Antarctica's);
 * no region id it places is another country's word. */
static void test_regions_agree(void **state)
{
	(void)state;
	size_t len;
	char *err = NULL;
	char *data = read_source_file("data/regions.yaml", &len);
	struct region_table *r = NULL;
	assert_int_equal(regions_load(&r, "data/regions.yaml", data, len, &err), GC_OK);
	free(data);
	for (size_t i = 0; i < regions_country_count(r); i++) {
		const char *code = regions_country_at(r, i)->code;
		const struct country *c = country_find(table, code);
		if (!c || strcmp(c->alpha2, code) != 0)
			fail_msg("regions.yaml country %s is not in countries.csv", code);
	}
	static const char left_out[] = "AQ BV GS HM TF";
	for (size_t i = 0; i < country_count(table); i++) {
		const struct country *c = country_at(table, i);
		if (!c->same_as[0] && !regions_country(r, c->alpha2) &&
		    !strstr(left_out, c->alpha2))
			fail_msg("%s (%s) has no continent in regions.yaml", c->alpha2, c->name);
	}
	for (size_t i = 0; i < regions_place_count(r); i++) {
		const struct region_place *p = regions_place_at(r, i);
		const struct country *c = country_find(table, p->region);
		if (c && strcmp(c->alpha2, p->code) != 0)
			fail_msg("%s region '%s' is also a word for %s", p->provider, p->region,
				 c->alpha2);
	}
	regions_free(r);
}

static void expect_bad(const char *csv, const char *says)
{
	struct country_table *t = NULL;
	char *err = NULL;
	assert_int_equal(country_table_load(&t, "c.csv", csv, strlen(csv), &err), GC_EDATA);
	assert_null(t);
	if (!strstr(err, says))
		fail_msg("'%s' does not say '%s'", err, says);
	free(err);
}

static void test_bad_files(void **state)
{
	(void)state;
	static const char head[] = "# a comment, with commas\n"
				   "alpha_2,alpha_3,name,common_name,ascii_name,same_as\n";
	char buf[512];
	snprintf(buf, sizeof buf, "%sDE,DEU,Germany,,,\nUK,,United Kingdom,,,GB\n", head);
	expect_bad(buf, "UK stands for GB");
	snprintf(buf, sizeof buf, "%sDE,DEU,Germany,,,\nDE,DEU,Germany,,,\n", head);
	expect_bad(buf, "DE is listed twice");
	snprintf(buf, sizeof buf, "%sde,DEU,Germany,,,\n", head);
	expect_bad(buf, "c.csv:3:");
	snprintf(buf, sizeof buf, "%sDE,,Germany,,,\n", head);
	expect_bad(buf, "c.csv:3:");
	expect_bad("alpha_2,alpha_3,name\nDE,DEU,Germany\n", "no column common_name");
	expect_bad(head, "no countries");
	snprintf(buf, sizeof buf, "%sDE,DEU,Germany,,,\nGB,GBR,United Kingdom,,,\n"
		 "UK,,United Kingdom,,,GB\n", head);
	struct country_table *t = NULL;
	assert_int_equal(country_table_load(&t, "c.csv", buf, strlen(buf), NULL), GC_OK);
	assert_int_equal(country_count(t), 3);
	assert_string_equal(country_find(t, "uk")->alpha2, "GB");
	assert_null(country_at(t, 3));
	country_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_regions_agree),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
