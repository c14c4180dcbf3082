/* test_http.c - masking secrets in text and URLs before they are shown;
 * validators that may be sent back; what a hostile JSON body can make
 * adapter_json say and spend. */
#include "testutil.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/adapter.h"
#include "gpucmp/http.h"

static const char KEY[] = "sk-test-7f3a9c21d4e8b6";

/* No run of 8 characters of KEY is in s. */
static void assert_no_key_run(const char *s)
{
	char run[9];
	for (size_t k = 0; k + 8 <= sizeof KEY - 1; k++) {
		memcpy(run, KEY + k, 8);
		run[8] = '\0';
		if (strstr(s, run))
			fail_msg("'%s' holds '%s' of the key", s, run);
	}
}

static void test_redact(void **state)
{
	(void)state;
	char s[128];
	snprintf(s, sizeof s, "bad key sk-live-123456 (sk-live-123456)");
	http_redact(s, "sk-live-123456");
	assert_string_equal(s, "bad key *** (***)");
	/* a key of stars matches its own mask: it must still end */
	snprintf(s, sizeof s, "token *** and ***");
	http_redact(s, "***");
	assert_string_equal(s, "token *** and ***");
	snprintf(s, sizeof s, "a*b**c");
	http_redact(s, "*");
	assert_string_equal(s, "a*b**c");
	/* short keys are masked in full */
	snprintf(s, sizeof s, "k=ab;ab");
	http_redact(s, "ab");
	assert_string_equal(s, "k=**;**");
	http_redact(s, NULL);
	http_redact(s, "");
	assert_string_equal(s, "k=**;**");
}

/* A key cut short, its tail, a run from its middle: each masked; runs of
 * 7 characters and the text around stay. */
static void test_redact_runs(void **state)
{
	(void)state;
	char s[256];
	snprintf(s, sizeof s, "premature end of input near '\"sk-test-7f3a9c21d4e'");
	http_redact(s, KEY);
	assert_no_key_run(s);
	assert_string_equal(s, "premature end of input near '\"***'");
	snprintf(s, sizeof s, "token ...7f3a9c21d4e8b6 and a9c21d4e in text; sk-test too");
	http_redact(s, KEY);
	assert_no_key_run(s);
	assert_string_equal(s, "token ...*** and *** in text; sk-test too");
	/* the whole key, twice, next to itself */
	snprintf(s, sizeof s, "%s%s", KEY, KEY);
	http_redact(s, KEY);
	assert_no_key_run(s);
	/* URLs: a key cut short in a query is masked too */
	char out[256];
	http_url_redact(out, sizeof out, "https://h/v1?q=sk-test-7f3a9c21", KEY);
	assert_no_key_run(out);
}

/* A key shorter than 8 characters (no real API key is) is masked only
 * where it stands as a word: a key "k" leaves "kept" alone. */
static void test_redact_short_key_words(void **state)
{
	(void)state;
	char s[128];
	snprintf(s, sizeof s, "kept k and key=k; talk");
	http_redact(s, "k");
	assert_string_equal(s, "kept * and key=*; talk");
	snprintf(s, sizeof s, "abc1 xabc abc-9 (abc)");
	http_redact(s, "abc");
	assert_string_equal(s, "abc1 xabc ***-9 (***)");
	/* a key whose edge is not a letter or digit needs no boundary there */
	snprintf(s, sizeof s, "x-1 y-12");
	http_redact(s, "-1");
	assert_string_equal(s, "x** y-12");
	assert_true(http_mentions("kept k", "k"));
	assert_false(http_mentions("kept", "k"));
	assert_true(http_mentions("W/\"sk-test-7f3a9c21d4e8b6\"", KEY));
	assert_true(http_mentions("etag-7f3a9c21-x", KEY)); /* 8 of its characters */
	assert_false(http_mentions("etag-f3a9c21-x", KEY)); /* 7 */
	assert_false(http_mentions(NULL, KEY));
	assert_false(http_mentions("x", NULL));
	assert_false(http_mentions("x", ""));
}

static void test_validator_ok(void **state)
{
	(void)state;
	assert_true(http_validator_ok("\"v1\""));
	assert_true(http_validator_ok("W/\"abc\""));
	assert_true(http_validator_ok("Wed, 21 Oct 2015 07:28:00 GMT"));
	assert_false(http_validator_ok(NULL));
	assert_false(http_validator_ok(""));
	assert_false(http_validator_ok("\"v1\"\rX-Injected: 1"));
	assert_false(http_validator_ok("\"v1\"\nX-Injected: 1"));
	assert_false(http_validator_ok("\"v1\x7f\""));
	assert_false(http_validator_ok("\"\xc3\xa9\""));
	char big[HTTP_MAX_VALIDATOR + 2];
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_false(http_validator_ok(big));
	big[HTTP_MAX_VALIDATOR] = '\0';
	assert_true(http_validator_ok(big));
}

/* adapter_json says what and where, never quoting the body: jansson's own
 * text quotes up to 20 bytes of the token (here 19 of the key's 22). */
static void test_json_error_quotes_nothing(void **state)
{
	(void)state;
	static const char body[] = "{\"message\":\"bad key\",\"key\":\"sk-test-7f3a9c21d4e";
	char *err = NULL;
	assert_null(adapter_json(body, sizeof body - 1, &err));
	assert_non_null(err);
	assert_no_key_run(err);
	assert_null(strchr(err, '\''));
	assert_string_equal(err, "response is not valid JSON: premature end of input at line 1, "
				 "column 47 (byte 47)");
	free(err);
	err = NULL;
	static const char dup[] = "{\"sk-test-7f3a9c21d4\":1,\"sk-test-7f3a9c21d4\":2}";
	assert_null(adapter_json(dup, sizeof dup - 1, &err));
	assert_no_key_run(err);
	assert_non_null(strstr(err, "duplicate object key at line 1"));
	free(err);
}

/* n copies of unit, comma-separated, in [ ] (a new string). */
static char *repeat_array(const char *unit, size_t n, size_t *len)
{
	size_t ul = strlen(unit), j = 0;
	char *b = malloc(n * (ul + 1) + 3);
	assert_non_null(b);
	b[j++] = '[';
	for (size_t i = 0; i < n; i++) {
		memcpy(b + j, unit, ul);
		j += ul;
		b[j++] = ',';
	}
	b[n ? j - 1 : j++] = ']';
	b[j] = '\0';
	*len = j;
	return b;
}

/* The value budget refuses a body of empty objects before jansson
 * allocates (70 times the text); a body under it parses. */
static void test_json_budget(void **state)
{
	(void)state;
	size_t len;
	char *err = NULL;
	/* 1.1 million empty objects (3.3 MB of text, ~240 MB in jansson):
	 * over the default cap */
	char *b = repeat_array("{}", 1100000, &len);
	assert_null(adapter_json(b, len, &err));
	assert_non_null(strstr(err, "too many JSON values"));
	assert_non_null(strstr(err, "GPUCMP_REFRESH_MAX_JSON_VALUES"));
	free(err);
	err = NULL;
	free(b);
	/* weights: an object 8, an array 4, a string 3, a scalar 1 */
	adapter_json_budget(1000);
	b = repeat_array("{}", 124, &len); /* 4 + 124 * 8 = 996 */
	json_t *root = adapter_json(b, len, &err);
	assert_non_null(root);
	json_decref(root);
	free(b);
	b = repeat_array("{}", 125, &len); /* 1004 */
	assert_null(adapter_json(b, len, &err));
	assert_non_null(strstr(err, "more than the cap of 1000"));
	free(err);
	err = NULL;
	free(b);
	b = repeat_array("\"a,[{\\\"\"", 332, &len); /* 4 + 332 * 3: brackets in strings are text */
	assert_non_null(root = adapter_json(b, len, &err));
	json_decref(root);
	free(b);
	b = repeat_array("-1.5e3", 996, &len);
	assert_non_null(root = adapter_json(b, len, &err));
	json_decref(root);
	free(b);
	b = repeat_array("true", 997, &len);
	assert_null(adapter_json(b, len, &err));
	free(err);
	free(b);
	adapter_json_budget(0);
}

/* Every recorded response weighs under 1% of the default cap. */
static void test_json_budget_fixtures(void **state)
{
	(void)state;
	adapter_json_budget(ADAPTER_JSON_MAX_VALUES / 100);
	const char *rel = "tests/fixtures/http";
	char root[1024];
	snprintf(root, sizeof root, "%s/%s", GPUCMP_SOURCE_DIR, rel);
	DIR *d = opendir(root);
	assert_non_null(d);
	struct dirent *e;
	int files = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "hostile") == 0)
			continue;
		char dir[1400];
		snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
		DIR *sub = opendir(dir);
		struct dirent *f;
		while (sub && (f = readdir(sub))) {
			size_t n = strlen(f->d_name);
			if (n < 5 || strcmp(f->d_name + n - 5, ".json") != 0)
				continue;
			char path[2048];
			snprintf(path, sizeof path, "%s/%s/%s", rel, e->d_name, f->d_name);
			size_t len;
			char *body = read_source_file(path, &len);
			char *err = NULL;
			json_t *doc = adapter_json(body, len, &err);
			if (!doc && err && strstr(err, "too many"))
				fail_msg("%s: %s", path, err);
			json_decref(doc);
			free(err);
			free(body);
			files++;
		}
		if (sub)
			closedir(sub);
	}
	closedir(d);
	assert_true(files > 20);
	adapter_json_budget(0);
}

static void test_url_redact(void **state)
{
	(void)state;
	char out[160];
	http_url_redact(out, sizeof out,
			"https://user:s3cret@api.example.com/v1?x=1&api_key=K1&pageToken=T#f",
			NULL);
	assert_string_equal(out, "https://***@api.example.com/v1?x=1&api_key=***&pageToken=***#f");
	http_url_redact(out, sizeof out, "https://api.example.com/graphql?q=sk-abcdef",
			"sk-abcdef");
	assert_null(strstr(out, "sk-abcdef"));
	/* cut to the buffer, always terminated */
	http_url_redact(out, 12, "https://example.com/a/very/long/path", NULL);
	assert_int_equal(strlen(out), 11);
	http_url_redact(out, sizeof out, NULL, NULL);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_redact),
		cmocka_unit_test(test_url_redact),
		cmocka_unit_test(test_redact_runs),
		cmocka_unit_test(test_redact_short_key_words),
		cmocka_unit_test(test_validator_ok),
		cmocka_unit_test(test_json_error_quotes_nothing),
		cmocka_unit_test(test_json_budget),
		cmocka_unit_test(test_json_budget_fixtures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
