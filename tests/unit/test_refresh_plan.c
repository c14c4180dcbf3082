/* test_refresh_plan.c - before a refresh: which providers it takes (IDs,
 * the config's list, every one), from which tier for given keys and flags;
 * after: the result's JSON and the verdict the exit code is made of. */
#include <jansson.h>

#include "testutil.h"

#include "gpucmp/config.h"
#include "gpucmp/refresh.h"

static struct catalog cat;

/* The keys of the adapters below, unset whatever the environment holds. */
static const char *const key_vars[] = {"GPUCMP_LAMBDA_API_KEY", "LAMBDA_API_KEY",
				       "GPUCMP_GCP_API_KEY", "GPUCMP_AZURE_API_KEY", NULL};

static int setup(void **state)
{
	(void)state;
	for (size_t i = 0; key_vars[i]; i++)
		unsetenv(key_vars[i]);
	return load_embedded_catalog(&cat);
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

/* What refresh_pick makes of ids (and cfg): picked[0..npicked), bad, best. */
static const char *picked[8], *best;
static size_t npicked, bad;

static enum refresh_pick pick(const char *const *ids, size_t nids, const struct config *cfg)
{
	npicked = bad = 99;
	return refresh_pick(ids, nids, &cat.profiles, cfg, picked, 8, &npicked, &bad, &best);
}

static void test_pick(void **state)
{
	(void)state;
	const char *const ids[] = {"vast", "aws", "vast", "lambda"};
	assert_int_equal(pick(ids, 4, NULL), REFRESH_PICK_OK);
	assert_int_equal(npicked, 3);
	assert_string_equal(picked[0], "vast");
	assert_string_equal(picked[1], "aws"); /* a hosted catalog's alone */
	assert_string_equal(picked[2], "lambda");
	const char *const typo[] = {"vast", "lamda"};
	assert_int_equal(pick(typo, 2, NULL), REFRESH_PICK_UNKNOWN);
	assert_int_equal(bad, 1);
	assert_non_null(best);
	assert_string_equal(best, "lambda");
	/* a provider gpucmp knows, with neither a live API nor a hosted catalog */
	const char *const none[] = {"coreweave"};
	assert_int_equal(pick(none, 1, NULL), REFRESH_PICK_NO_SOURCE);
	assert_int_equal(bad, 0);
}

static void test_pick_config(void **state)
{
	(void)state;
	struct config cfg;
	config_init(&cfg);
	char *list[] = {"runpod", "coreweave", "aws"};
	cfg.providers = list;
	cfg.nproviders = 3;
	/* no IDs: the config's providers that have a source */
	assert_int_equal(pick(NULL, 0, &cfg), REFRESH_PICK_OK);
	assert_int_equal(npicked, 2);
	assert_string_equal(picked[0], "runpod");
	assert_string_equal(picked[1], "aws");
	/* IDs win over the config */
	const char *const ids[] = {"vast"};
	assert_int_equal(pick(ids, 1, &cfg), REFRESH_PICK_OK);
	assert_int_equal(npicked, 1);
	/* neither: 0, refresh_run's every provider */
	assert_int_equal(pick(NULL, 0, NULL), REFRESH_PICK_OK);
	assert_int_equal(npicked, 0);
}

static void test_tiers(void **state)
{
	(void)state;
	struct refresh_opts o;
	struct config off;
	config_init(&off);
	off.catalog = 0;
	memset(&o, 0, sizeof o);
	assert_int_equal(refresh_tiers(&o, 0, 0, NULL), REFRESH_TIERS_OK);
	assert_false(o.no_catalog);
	assert_int_equal(refresh_tiers(&o, 0, 1, NULL), REFRESH_TIERS_OK);
	assert_true(o.catalog_only);
	assert_int_equal(refresh_tiers(&o, 1, 0, NULL), REFRESH_TIERS_OK);
	assert_true(o.no_catalog);
	assert_int_equal(refresh_tiers(&o, 1, 1, NULL), REFRESH_TIERS_FLAG_OFF);
	assert_int_equal(refresh_tiers(&o, 0, 1, &off), REFRESH_TIERS_CONFIG_OFF);
	assert_int_equal(refresh_tiers(&o, 0, 0, &off), REFRESH_TIERS_OK);
	assert_true(o.no_catalog);
}

/* Which tier each provider gets, for the keys set and the flags. */
static void test_plan_one(void **state)
{
	(void)state;
	static const struct {
		const char *id;
		int no_catalog, catalog_only, keyed;
		const char *tier; /* "live", a catalog's name, or the skip's outcome */
		const char *note;
		const char *fallback; /* live: the catalog tried when it fails, or "none" */
	} cases[] = {
		{"azure", 0, 0, 0, "live", "", "skypilot"}, /* keyless */
		{"azure", 1, 0, 0, "live", "", "none"},     /* the catalog tier off */
		{"linode", 0, 0, 0, "live", "", "none"},    /* no catalog covers it */
		{"lambda", 0, 0, 1, "live", "", "skypilot"},
		{"lambda", 0, 0, 0, "skypilot",
		 "from the skypilot catalog (needs an API key: set GPUCMP_LAMBDA_API_KEY or "
		 "LAMBDA_API_KEY)", NULL},
		{"lambda", 1, 0, 0, "no-key",
		 "skipped: no key: set GPUCMP_LAMBDA_API_KEY (or LAMBDA_API_KEY, or api_key in the "
		 "config file); the hosted catalog tier is off", NULL},
		{"gcp", 1, 0, 0, "no-key",
		 "skipped: no key: set GPUCMP_GCP_API_KEY (or api_key in the config file); the "
		 "hosted catalog tier is off", NULL},
		{"azure", 0, 1, 0, "skypilot", "from the skypilot catalog (--catalog-only)", NULL},
		{"aws", 0, 0, 0, "skypilot",
		 "from the skypilot catalog (no live price API in gpucmp)", NULL},
		{"aws", 1, 0, 0, "no-source",
		 "no live price API in gpucmp and the hosted catalog tier is off; 'gpucmp import' "
		 "loads a catalog for it", NULL},
		{"coreweave", 0, 0, 0, "no-source",
		 "no live price API in gpucmp and no hosted catalog covers it; 'gpucmp import' "
		 "loads a catalog for it", NULL},
		{"scaleway", 0, 1, 0, "no-source",
		 "no live price API in gpucmp and no hosted catalog covers it; 'gpucmp import' "
		 "loads a catalog for it", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct refresh_opts o;
		memset(&o, 0, sizeof o);
		o.no_catalog = cases[i].no_catalog;
		o.catalog_only = cases[i].catalog_only;
		if (cases[i].keyed)
			setenv("GPUCMP_LAMBDA_API_KEY", "k-123", 1);
		struct refresh_plan p;
		refresh_plan_one(&o, cases[i].id, &p);
		unsetenv("GPUCMP_LAMBDA_API_KEY");
		const char *tier = p.live ? "live"
				 : p.catalog != HOSTED_NONE ? hosted_kind_name(p.catalog)
							    : refresh_outcome_name(p.skip);
		if (strcmp(tier, cases[i].tier) != 0 || strcmp(p.note, cases[i].note) != 0)
			fail_msg("case %zu (%s): got %s '%s'", i, cases[i].id, tier, p.note);
		if (strcmp(hosted_kind_name(p.fallback), cases[i].fallback ? cases[i].fallback
									  : "none") != 0)
			fail_msg("case %zu (%s): fallback %s", i, cases[i].id,
				 hosted_kind_name(p.fallback));
		assert_true(!p.key == !cases[i].keyed);
	}
}

/* A provider the run names (its IDs, or the config's providers) whose key
 * is missing: the line that tells cron what to set. */
static void test_plan_named(void **state)
{
	(void)state;
	const char *const ids[] = {"lambda", "gcp", "azure"};
	struct refresh_opts o;
	memset(&o, 0, sizeof o);
	o.ids = ids;
	o.nids = 3;
	o.no_catalog = 1;
	struct refresh_plan p;
	refresh_plan_one(&o, "lambda", &p);
	assert_true(p.named);
	assert_int_equal(p.skip, REFRESH_NO_KEY);
	assert_string_equal(p.note, "needs an API key: set GPUCMP_LAMBDA_API_KEY (or "
				    "LAMBDA_API_KEY, or api_key in the config file)");
	refresh_plan_one(&o, "gcp", &p);
	assert_string_equal(p.note, "needs an API key: set GPUCMP_GCP_API_KEY (or api_key in "
				    "the config file)");
	refresh_plan_one(&o, "azure", &p); /* keyless: live */
	assert_non_null(p.live);
	/* the catalog tier on: taken from the catalog, not a skip */
	o.no_catalog = 0;
	refresh_plan_one(&o, "lambda", &p);
	assert_int_equal(p.catalog, HOSTED_SKYPILOT);
	assert_true(p.named);
	/* its key set: live */
	o.no_catalog = 1;
	setenv("GPUCMP_LAMBDA_API_KEY", "k-123", 1);
	refresh_plan_one(&o, "lambda", &p);
	unsetenv("GPUCMP_LAMBDA_API_KEY");
	assert_non_null(p.live);
}

static int sorted(const struct refresh_plan *p, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(p[i - 1].id, p[i].id) >= 0)
			return 0;
	return 1;
}

static void test_plan_all(void **state)
{
	(void)state;
	struct refresh_opts o;
	memset(&o, 0, sizeof o);
	struct refresh_plan *p;
	size_t n;
	/* every adapter, and the hosted catalogs of providers without one */
	assert_int_equal(refresh_plan(&o, &p, &n, NULL), GC_OK);
	size_t hosted_only = 0, catalogs = 0;
	for (size_t i = 0; i < hosted_map_count; i++) {
		int covered = hosted_kind_for(hosted_maps[i].id) != HOSTED_NONE;
		catalogs += covered;
		hosted_only += covered && !adapter_find(hosted_maps[i].id);
	}
	assert_true(catalogs < hosted_map_count); /* digitalocean: an import alias only */
	assert_int_equal(n, adapter_count + hosted_only);
	assert_true(sorted(p, n));
	free(p);
	o.no_catalog = 1;
	assert_int_equal(refresh_plan(&o, &p, &n, NULL), GC_OK);
	assert_int_equal(n, adapter_count);
	free(p);
	o.no_catalog = 0;
	o.catalog_only = 1;
	assert_int_equal(refresh_plan(&o, &p, &n, NULL), GC_OK);
	assert_int_equal(n, catalogs);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(p[i].catalog, HOSTED_NONE);
	free(p);
	/* the caller's ids, as given */
	const char *const ids[] = {"vast", "aws"};
	o.ids = ids;
	o.nids = 2;
	assert_int_equal(refresh_plan(&o, &p, &n, NULL), GC_OK);
	assert_int_equal(n, 2);
	assert_string_equal(p[0].id, "vast");
	free(p);
}

static void test_env_caps(void **state)
{
	(void)state;
	struct refresh_opts o;
	memset(&o, 0, sizeof o);
	char *err = NULL;
	setenv("GPUCMP_REFRESH_MAX_BYTES", "2048", 1);
	setenv("GPUCMP_REFRESH_MAX_OFFERS", "", 1);
	assert_int_equal(refresh_env_caps(&o, &err), GC_OK);
	assert_int_equal(o.max_bytes, 2048);
	assert_int_equal(o.max_offers, 0);
	setenv("GPUCMP_REFRESH_MAX_BYTES", "100", 1);
	assert_int_equal(refresh_env_caps(&o, &err), GC_EUSAGE);
	assert_string_equal(err, "bad GPUCMP_REFRESH_MAX_BYTES: expected a whole number, at "
				 "least 1024");
	free(err);
	unsetenv("GPUCMP_REFRESH_MAX_BYTES");
	unsetenv("GPUCMP_REFRESH_MAX_OFFERS");
}

static void test_verdict(void **state)
{
	(void)state;
	struct refresh_result r[3];
	memset(r, 0, sizeof r);
	assert_int_equal(refresh_verdict(r, 0), REFRESH_ALL_CURRENT);
	r[0].outcome = REFRESH_UPDATED;
	r[1].outcome = REFRESH_NO_KEY;
	r[2].outcome = REFRESH_FAILED;
	assert_int_equal(refresh_verdict(r, 3), REFRESH_SOME_FAILED);
	r[0].outcome = REFRESH_RECENT; /* not tried: the one tried failed */
	assert_int_equal(refresh_verdict(r, 3), REFRESH_ALL_FAILED);
	r[2].outcome = REFRESH_UNCHANGED;
	assert_int_equal(refresh_verdict(r, 3), REFRESH_ALL_CURRENT);
	r[2].outcome = REFRESH_NO_SOURCE; /* none tried */
	assert_int_equal(refresh_verdict(r, 3), REFRESH_ALL_CURRENT);
	/* a named provider without its key failed: alone, or beside one updated */
	r[1].named = 1;
	assert_int_equal(refresh_verdict(r, 3), REFRESH_ALL_FAILED);
	r[0].outcome = REFRESH_UPDATED;
	assert_int_equal(refresh_verdict(r, 3), REFRESH_SOME_FAILED);
	/* named, taken from a catalog that came through: current */
	r[1].outcome = REFRESH_UPDATED;
	assert_int_equal(refresh_verdict(r, 3), REFRESH_ALL_CURRENT);
	/* a keyless live API failed, its catalog stood in: current */
	r[1].live_error = "HTTP 503";
	assert_int_equal(refresh_verdict(r, 3), REFRESH_ALL_CURRENT);
	/* the same with the user's key: a failure, never "all failed" */
	r[1].keyed = 1;
	assert_int_equal(refresh_verdict(r, 3), REFRESH_SOME_FAILED);
	r[0].outcome = r[2].outcome = REFRESH_RECENT;
	assert_int_equal(refresh_verdict(r, 3), REFRESH_SOME_FAILED);
	r[1].outcome = REFRESH_UNCHANGED; /* a 304 from the catalog */
	assert_int_equal(refresh_verdict(r, 3), REFRESH_SOME_FAILED);
	r[1].outcome = REFRESH_FAILED; /* every tier failed */
	assert_int_equal(refresh_verdict(r, 3), REFRESH_ALL_FAILED);
}

static void test_result_json(void **state)
{
	(void)state;
	struct refresh_result r[3];
	memset(r, 0, sizeof r);
	r[0] = (struct refresh_result){.id = "vast", .outcome = REFRESH_UPDATED, .offers = 12,
				       .requests = 2, .seconds = 1.2504, .tier = "live"};
	r[1] = (struct refresh_result){.id = "lambda", .outcome = REFRESH_NO_KEY,
				       .message = "needs an API key"};
	r[2] = (struct refresh_result){.id = "azure", .outcome = REFRESH_UPDATED, .offers = 3,
				       .tier = "skypilot", .live_error = "x: HTTP 503"};
	json_t *a = refresh_results_json(r, 3);
	assert_non_null(a);
	char *s = json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_string_equal(s, "[{\"provider\":\"vast\",\"result\":\"updated\",\"tier\":\"live\","
			       "\"offers\":12,\"unknown_gpu\":0,\"requests\":2,\"seconds\":1.25,"
			       "\"message\":null,\"live_error\":null},{\"provider\":\"lambda\","
			       "\"result\":\"no-key\",\"tier\":null,\"offers\":null,"
			       "\"unknown_gpu\":0,\"requests\":0,\"seconds\":0.0,"
			       "\"message\":\"needs an API key\",\"live_error\":null},"
			       "{\"provider\":\"azure\",\"result\":\"updated\","
			       "\"tier\":\"skypilot\",\"offers\":3,\"unknown_gpu\":0,"
			       "\"requests\":0,\"seconds\":0.0,"
			       "\"message\":null,\"live_error\":\"x: HTTP 503\"}]");
	free(s);
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick),     cmocka_unit_test(test_pick_config),
		cmocka_unit_test(test_tiers),    cmocka_unit_test(test_plan_one),
		cmocka_unit_test(test_plan_all), cmocka_unit_test(test_env_caps),
		cmocka_unit_test(test_verdict),  cmocka_unit_test(test_result_json),
		cmocka_unit_test(test_plan_named),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
