/* test_http.c - masking secrets in text and URLs before they are shown. */
#include "testutil.h"

#include <string.h>

#include "gpucmp/http.h"

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

static void test_url_redact(void **state)
{
	(void)state;
	char out[160];
	http_url_redact(out, sizeof out, "https://user:s3cret@api.example.com/v1?x=1&api_key=K1&pageToken=T#f",
			NULL);
	assert_string_equal(out, "https://***@api.example.com/v1?x=1&api_key=***&pageToken=***#f");
	http_url_redact(out, sizeof out, "https://api.example.com/graphql?q=sk-abcdef", "sk-abcdef");
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
