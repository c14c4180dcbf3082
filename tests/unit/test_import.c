/* test_import.c - import's rules: what a source is, the provider id a
 * folder names and the gpucmp id it maps to, the date a catalog describes,
 * and a folder walked into a cache (each provider's result, in name order;
 * an id without a profile refused unless confirmed; a folder's own
 * failures). */
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "gpucmp/cache.h"
#include "gpucmp/import.h"

static struct catalog cat;

static void test_valid_id(void **state)
{
	(void)state;
	static const struct {
		const char *id;
		int ok;
	} cases[] = {
		{"lambda", 1}, {"genesis-cloud", 1}, {"a1", 1}, {"", 0}, {"Lambda", 0},
		{"lam_bda", 0}, {"lam bda", 0}, {".", 0},
		{"a234567890123456789012345678901234567890", 1},
		{"a2345678901234567890123456789012345678901", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (import_valid_id(cases[i].id) != cases[i].ok)
			fail_msg("import_valid_id(\"%s\") != %d", cases[i].id, cases[i].ok);
}

static void test_provider_of(void **state)
{
	(void)state;
	static const struct {
		const char *src;
		int is_url;
		const char *want;
	} cases[] = {
		{"/a/v7/lambda/vms.csv", 0, "lambda"},
		{"lambda/vms.csv", 0, "lambda"},
		{"vms.csv", 0, "."},
		{"/vms.csv", 0, ""},
		{"https://example.org/catalogs/v7/aws/vms.csv", 1, "aws"},
		{"https://example.org/v7/gcp/vms.csv?token=a/b/c#x/y", 1, "gcp"},
		/* a path's '?' is part of its name */
		{"/tmp/we?ird/vms.csv", 0, "we?ird"},
	};
	char out[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		import_provider_of(cases[i].src, cases[i].is_url, out, sizeof out);
		if (strcmp(out, cases[i].want) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].src, out, cases[i].want);
	}
	char small[4];
	import_provider_of("/x/lambda/vms.csv", 0, small, sizeof small);
	assert_string_equal(small, "lam");
}

/* SkyPilot's and gpuhunt's names are gpucmp's ids; others stay as they are. */
static void test_provider_id(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{"do", "digitalocean"}, {"lambdalabs", "lambda"}, {"datacrunch", "verda"},
		{"vastai", "vast"},     {"lambda", "lambda"},     {"digitalocean", "digitalocean"},
		{"aws", "aws"},         {"aws2", "aws2"},         {"Zed", "Zed"},
		{".", "."},             {"", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (strcmp(import_provider_id(cases[i][0]), cases[i][1]) != 0)
			fail_msg("import_provider_id(\"%s\") != \"%s\"", cases[i][0], cases[i][1]);
	const char *mine = "aws2";
	assert_ptr_equal(import_provider_id(mine), mine); /* no alias: the name itself */
}

/* GPUCMP_TODAY=2026-12-02 (tests/CMakeLists.txt): now is its noon. */
static void test_as_of(void **state)
{
	(void)state;
	char out[32];
	assert_int_equal(import_as_of("2026-11-30", -1, out, sizeof out), 0);
	assert_string_equal(out, "2026-11-30T00:00:00Z");
	/* the user's date wins over the file's */
	assert_int_equal(import_as_of("2026-11-30T06:30:00Z", 0, out, sizeof out), 0);
	assert_string_equal(out, "2026-11-30T06:30:00Z");
	/* else the known date (Last-Modified, mtime) */
	assert_int_equal(import_as_of(NULL, 86400, out, sizeof out), 0);
	assert_string_equal(out, "1970-01-02T00:00:00Z");
	/* else now; a known date in the future is now */
	assert_int_equal(import_as_of(NULL, -1, out, sizeof out), 0);
	assert_string_equal(out, "2026-12-02T12:00:00Z");
	assert_int_equal(import_as_of(NULL, 4102444800LL, out, sizeof out), 0);
	assert_string_equal(out, "2026-12-02T12:00:00Z");
	/* a user's date must be one, and not in the future */
	snprintf(out, sizeof out, "untouched");
	assert_int_equal(import_as_of("2027-01-01", -1, out, sizeof out), -1);
	assert_int_equal(import_as_of("yesterday", -1, out, sizeof out), -1);
	assert_int_equal(import_as_of("", 0, out, sizeof out), -1);
	assert_string_equal(out, "untouched");
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		fail_msg("cannot create %s", path);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* TEST_TMPDIR/import-tree/name. */
static const char *tree(const char *name)
{
	static char path[4096];
	snprintf(path, sizeof path, "%s/import-tree/%s", TEST_TMPDIR, name);
	return path;
}

static void make_tree(void)
{
	size_t len;
	char *csv = read_source_file("tests/fixtures/skypilot/lambda/vms.csv", &len);
	static const char *const dirs[] = {"", "Zed", "do", "empty", "lambda", "one"};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		mkdir(tree(dirs[i]), 0700);
	write_file(tree("lambda/vms.csv"), csv, len);
	write_file(tree("do/vms.csv"), csv, len);
	write_file(tree("Zed/vms.csv"), csv, len);
	write_file(tree("one/vms.csv"), csv, len);
	write_file(tree("notes.txt"), "not a catalog\n", 14);
	free(csv);
}

/* The group's catalog and the folder tree the walks read. */
static int setup(void **state)
{
	(void)state;
	make_tree();
	return load_embedded_catalog(&cat);
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	remove(scratch_path("import.db"));
	return 0;
}

struct seen {
	size_t n;
	enum import_step step[8];
	char provider[8][64], alias[8][64];
	int no_profile[8];
	size_t inserted[8];
};

static void on_done(void *arg, const struct import_result *r)
{
	struct seen *s = arg;
	assert_true(s->n < 8);
	assert_non_null(r->origin);
	s->step[s->n] = r->step;
	snprintf(s->provider[s->n], sizeof s->provider[0], "%s", r->provider ? r->provider : "-");
	snprintf(s->alias[s->n], sizeof s->alias[0], "%s", r->alias ? r->alias : "-");
	s->no_profile[s->n] = r->no_profile;
	s->inserted[s->n] = r->inserted;
	s->n++;
}

static void test_source_kind(void **state)
{
	(void)state;
	assert_int_equal(import_source_kind("https://example.org/vms.csv"), IMPORT_URL);
	assert_int_equal(import_source_kind("http://127.0.0.1:1/vms.csv"), IMPORT_URL);
	assert_int_equal(import_source_kind(tree("")), IMPORT_FOLDER);
	assert_int_equal(import_source_kind(tree("one/vms.csv")), IMPORT_FILE);
	assert_int_equal(import_source_kind(tree("nothing-here")), IMPORT_NONE);
	assert_int_equal(import_source_kind("ftp://example.org/vms.csv"), IMPORT_NONE);
}

static struct cache *open_cache(void)
{
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	if (cache_open(&c, scratch_path("import.db"), &cat, &info, &err) != GC_OK)
		fail_msg("open: %s", err ? err : "?");
	cache_open_info_release(&info);
	cache_set_guard(c, 1, 0);
	return c;
}

/* Import src; new_provider: confirm ids without a profile. */
static enum gc_status run_new(struct cache *c, const char *src, const char *provider,
			      int new_provider, struct seen *s)
{
	struct import_opts o = {.cache = c, .cat = &cat, .provider = provider,
				.new_provider = new_provider, .done = on_done, .done_arg = s};
	memset(s, 0, sizeof *s);
	return import_run(&o, src);
}

static enum gc_status run(struct cache *c, const char *src, const char *provider,
			  struct seen *s)
{
	return run_new(c, src, provider, 0, s);
}

static void test_folder_walk(void **state)
{
	(void)state;
	struct cache *c = open_cache();
	struct seen s;
	/* <cloud>/vms.csv in name order ("Zed" sorts first); folders without
	 * one and plain files are passed over; "do" is digitalocean; "one" has
	 * no profile: refused, and the others go on */
	assert_int_equal(run(c, tree(""), NULL, &s), GC_EUSAGE);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.step[0], IMPORT_BAD_ID);
	assert_string_equal(s.provider[0], "Zed");
	assert_int_equal(s.step[1], IMPORT_STORED);
	assert_string_equal(s.provider[1], "digitalocean");
	assert_string_equal(s.alias[1], "do");
	assert_int_equal(s.step[2], IMPORT_STORED);
	assert_string_equal(s.provider[2], "lambda");
	assert_string_equal(s.alias[2], "-");
	assert_int_equal(s.inserted[2], 6);
	assert_int_equal(s.step[3], IMPORT_NEW_ID);
	assert_string_equal(s.provider[3], "one");
	assert_int_equal(s.no_profile[3], 0);
	assert_int_equal(cache_has_provider(c, "one"), 0);
	/* confirmed: stored without a profile */
	assert_int_equal(run_new(c, tree(""), NULL, 1, &s), GC_EUSAGE); /* "Zed" still */
	assert_int_equal(s.n, 4);
	assert_int_equal(s.step[3], IMPORT_STORED);
	assert_string_equal(s.provider[3], "one");
	assert_int_equal(s.no_profile[3], 1);
	assert_int_equal(s.no_profile[2], 0);
	/* a provider id names one vms.csv, not a folder of them */
	assert_int_equal(run(c, tree(""), "lambda", &s), GC_EUSAGE);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.step[0], IMPORT_FOLDER_PROVIDER);
	/* PATH/vms.csv: the folder's own name, or the one given (mapped) */
	assert_int_equal(run(c, tree("one"), "lambda", &s), GC_OK);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.provider[0], "lambda");
	assert_int_equal(run(c, tree("one"), "lambdalabs", &s), GC_OK);
	assert_string_equal(s.provider[0], "lambda");
	assert_string_equal(s.alias[0], "lambdalabs");
	assert_int_equal(run(c, tree("one"), NULL, &s), GC_EUSAGE);
	assert_int_equal(s.step[0], IMPORT_NEW_ID);
	assert_int_equal(run(c, tree("lambda/vms.csv"), "aws2", &s), GC_EUSAGE);
	assert_int_equal(s.step[0], IMPORT_NEW_ID);
	assert_string_equal(s.provider[0], "aws2");
	assert_int_equal(cache_has_provider(c, "aws2"), 0);
	assert_int_equal(run(c, tree("empty"), NULL, &s), GC_EUSAGE);
	assert_int_equal(s.step[0], IMPORT_FOLDER_EMPTY);
	/* one file */
	assert_int_equal(run(c, tree("lambda/vms.csv"), NULL, &s), GC_OK);
	assert_int_equal(s.step[0], IMPORT_STORED);
	assert_int_equal(run(c, tree("nothing-here"), "lambda", &s), GC_ENOTFOUND);
	assert_int_equal(s.step[0], IMPORT_READ);
	/* the id is checked before the file is read, or the URL fetched (port 1
	 * is closed: a fetch would be IMPORT_TRANSFER) */
	assert_int_equal(run(c, "http://127.0.0.1:1/v8/aws2/vms.csv", NULL, &s), GC_EUSAGE);
	assert_int_equal(s.step[0], IMPORT_NEW_ID);
	/* the id is checked before the file is read */
	assert_int_equal(run(c, tree("nothing-here"), NULL, &s), GC_EUSAGE);
	assert_int_equal(s.step[0], IMPORT_NEW_ID);
	cache_close(c);
}

/* A catalog that does not parse leaves the provider's offers alone. */
static void test_bad_catalog(void **state)
{
	(void)state;
	char dir[4096], path[4200];
	snprintf(dir, sizeof dir, "%s/import-bare", TEST_TMPDIR);
	snprintf(path, sizeof path, "%s/vms.csv", dir);
	mkdir(dir, 0700);
	write_file(path, "no,header\n1,2\n", 14);
	struct cache *c = open_cache();
	struct seen s;
	enum gc_status st = run_new(c, path, NULL, 1, &s);
	assert_int_not_equal(st, GC_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.step[0], IMPORT_FAILED);
	cache_close(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_id),     cmocka_unit_test(test_provider_of),
		cmocka_unit_test(test_provider_id),
		cmocka_unit_test(test_as_of),        cmocka_unit_test(test_source_kind),
		cmocka_unit_test(test_folder_walk),  cmocka_unit_test(test_bad_catalog),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
