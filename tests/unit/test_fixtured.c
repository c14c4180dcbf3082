/* test_fixtured.c - the loopback HTTP fixture server (tests/tools/fixtured.c)
 * driven through libcurl: every routes option, the request log, exit codes. */
#include <curl/curl.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#define SELFTEST GPUCMP_SOURCE_DIR "/tests/fixtures/http/selftest"

static pid_t server;
static unsigned port;
static char port_file[4096], log_file[4096];

/* Run gpucmp-fixtured with ARGS (NULL-terminated), stderr to errfile if given.
 * FIXTURED_WRAPPER (e.g. "valgrind --error-exitcode=99") prefixes the command. */
static pid_t spawn(const char *const *args, const char *errfile)
{
	char *argv[64], wrapper[1024];
	size_t n = 0;
	const char *w = getenv("FIXTURED_WRAPPER");
	snprintf(wrapper, sizeof wrapper, "%s", w ? w : "");
	char *save;
	for (char *t = strtok_r(wrapper, " ", &save); t && n < 40; t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	argv[n++] = (char *)FIXTURED_PATH;
	while (*args && n < 63)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = errfile ? open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
		if (fd >= 0)
			dup2(fd, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int wait_exit(pid_t pid)
{
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* A scratch file of this run; the valgrind run (FIXTURED_WRAPPER) has its own,
 * so the two can run in parallel.  The result lives until the next call. */
static const char *scratch(const char *name)
{
	char full[256];
	snprintf(full, sizeof full, "fixtured%s-%s", getenv("FIXTURED_WRAPPER") ? "-vg" : "",
		 name);
	return scratch_path(full);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct buf b;
	buf_init(&b, 0);
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return buf_steal(&b);
}

static int setup(void **state)
{
	(void)state;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return -1;
	snprintf(port_file, sizeof port_file, "%s", scratch("port"));
	snprintf(log_file, sizeof log_file, "%s", scratch("log"));
	const char *args[] = {"--routes", GPUCMP_SOURCE_DIR "/tests/fixtures/http/selftest.routes",
			      "--root", SELFTEST, "--port-file", port_file, "--log", log_file,
			      NULL};
	server = spawn(args, NULL);
	/* Up to 30 s: the server may run under valgrind. */
	for (int i = 0; i < 300; i++) {
		FILE *f = fopen(port_file, "r");
		if (f) {
			int ok = fscanf(f, "%u", &port) == 1;
			fclose(f);
			return ok && port ? 0 : -1;
		}
		if (waitpid(server, NULL, WNOHANG) == server) {
			server = 0;
			return -1;
		}
		nanosleep(&(struct timespec){0, 100000000L}, NULL);
	}
	return -1;
}

static int teardown(void **state)
{
	(void)state;
	if (server > 0) {
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
	curl_global_cleanup();
	return 0;
}

struct reply {
	long status;
	struct buf body, head;
	double secs;
	curl_off_t length; /* Content-Length, -1 if none */
};

static size_t collect(char *p, size_t size, size_t n, void *b)
{
	return buf_add(b, p, size * n) == GC_OK ? size * n : 0;
}

/* An easy handle for PATH on the server, filling R.  Optional: one request
 * header, a POST body, Accept-Encoding. */
static CURL *request(struct reply *r, const char *path, const char *header,
		     const char *post, size_t post_len, struct curl_slist **hl)
{
	char url[4200];
	snprintf(url, sizeof url, "http://127.0.0.1:%u%s", port, path);
	memset(r, 0, sizeof *r);
	buf_init(&r->body, 0);
	buf_init(&r->head, 0);
	CURL *h = curl_easy_init();
	assert_non_null(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "gpucmp-selftest/1");
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &r->body);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, collect);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, &r->head);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
	*hl = header ? curl_slist_append(NULL, header) : NULL;
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, *hl);
	if (post) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, post);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)post_len);
	}
	return h;
}

static void finish(struct reply *r, CURL *h, struct curl_slist *hl)
{
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
	curl_easy_getinfo(h, CURLINFO_TOTAL_TIME, &r->secs);
	curl_easy_getinfo(h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &r->length);
	buf_add(&r->body, "", 0);
	buf_add(&r->head, "", 0);
	curl_slist_free_all(hl);
	curl_easy_cleanup(h);
}

static void fetch(struct reply *r, const char *path, const char *header, const char *encoding)
{
	struct curl_slist *hl;
	CURL *h = request(r, path, header, NULL, 0, &hl);
	if (encoding)
		curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, encoding);
	assert_int_equal(curl_easy_perform(h), CURLE_OK);
	finish(r, h, hl);
}

static void reply_free(struct reply *r)
{
	buf_free(&r->body);
	buf_free(&r->head);
}

static void assert_body(struct reply *r, long status, const char *body)
{
	assert_int_equal(r->status, status);
	assert_int_equal(r->body.len, strlen(body));
	assert_memory_equal(r->body.ptr, body, r->body.len);
}

static void assert_header(struct reply *r, const char *line)
{
	char want[512];
	snprintf(want, sizeof want, "\r\n%s\r\n", line);
	if (!strstr(r->head.ptr, want))
		fail_msg("no \"%s\" in:\n%s", line, r->head.ptr);
}

static void test_file_query_and_not_found(void **state)
{
	(void)state;
	size_t len;
	char *items = read_source_file("tests/fixtures/http/selftest/items.json", &len);
	char *page2 = read_source_file("tests/fixtures/http/selftest/items-page2.json", &len);
	struct reply r;
	fetch(&r, "/v1/items", NULL, NULL);
	assert_body(&r, 200, items);
	assert_header(&r, "Content-Type: application/json");
	reply_free(&r);
	fetch(&r, "/v1/items?page=2", NULL, NULL);
	assert_body(&r, 200, page2);
	reply_free(&r);
	fetch(&r, "/v1/items?page=3", NULL, NULL); /* no '?' in the route: any query */
	assert_body(&r, 200, items);
	reply_free(&r);
	fetch(&r, "/v1/item", NULL, NULL);
	assert_body(&r, 404, "{\"error\":\"no fixture route\"}");
	assert_header(&r, "Content-Type: application/json");
	reply_free(&r);
	free(items);
	free(page2);
}

static void test_body_type_and_headers(void **state)
{
	(void)state;
	struct reply r;
	fetch(&r, "/text", NULL, NULL);
	assert_body(&r, 200, "hello");
	assert_header(&r, "Content-Type: text/plain");
	assert_header(&r, "X-Fixture: yes");
	assert_header(&r, "Link: <http://x/y>");
	reply_free(&r);
}

static void test_etag(void **state)
{
	(void)state;
	struct reply r;
	fetch(&r, "/cached", NULL, NULL);
	assert_int_equal(r.status, 200);
	assert_header(&r, "ETag: \"v1\"");
	reply_free(&r);
	fetch(&r, "/cached", "If-None-Match: \"v1\"", NULL);
	assert_body(&r, 304, "");
	assert_header(&r, "ETag: \"v1\"");
	reply_free(&r);
	fetch(&r, "/cached", "If-None-Match: \"v0\"", NULL);
	assert_int_equal(r.status, 200);
	assert_true(r.body.len > 0);
	reply_free(&r);
}

static void test_last_modified(void **state)
{
	(void)state;
	struct reply r;
	fetch(&r, "/dated", NULL, NULL);
	assert_body(&r, 200, "{}");
	assert_header(&r, "Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT");
	reply_free(&r);
	fetch(&r, "/dated", "If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT", NULL);
	assert_body(&r, 304, "");
	reply_free(&r);
	fetch(&r, "/dated", "If-Modified-Since: Thu, 22 Oct 2015 07:28:00 GMT", NULL);
	assert_body(&r, 200, "{}");
	reply_free(&r);
}

/* /slow sleeps 1 s before it answers (at least that: a busy machine only
 * makes it longer). */
static void test_delay(void **state)
{
	(void)state;
	struct reply slow;
	fetch(&slow, "/slow", NULL, NULL);
	assert_body(&slow, 200, "slow");
	assert_true(slow.secs >= 0.95);
	reply_free(&slow);
}

/* Has the server logged a request line `line` (it logs before it holds)? */
static int logged(const char *line)
{
	char *log = slurp(log_file);
	int yes = log && strstr(log, line) != NULL;
	free(log);
	return yes;
}

/* hold=usr1: /held waits for a SIGUSR1 sent after its request was logged;
 * /fast, started with it, is answered meanwhile (each connection has its
 * own thread).  Driven by the signal: nothing here depends on timing. */
static void test_hold_until_usr1(void **state)
{
	(void)state;
	struct reply held, fast;
	struct curl_slist *hl_held, *hl_fast;
	CURL *hh = request(&held, "/held", NULL, NULL, 0, &hl_held);
	CURL *hf = request(&fast, "/fast", NULL, NULL, 0, &hl_fast);
	CURLM *m = curl_multi_init();
	curl_multi_add_handle(m, hh);
	curl_multi_add_handle(m, hf);
	int running = 2, fast_done = 0, signalled = 0;
	while (running) {
		assert_int_equal(curl_multi_perform(m, &running), CURLM_OK);
		CURLMsg *msg;
		int left;
		while ((msg = curl_multi_info_read(m, &left)) != NULL) {
			assert_int_equal(msg->data.result, CURLE_OK);
			if (msg->easy_handle == hh)
				assert_true(signalled); /* never before the signal */
			else
				fast_done = 1;
		}
		if (fast_done && !signalled && logged("GET /held\n")) {
			assert_int_equal(kill(server, SIGUSR1), 0);
			signalled = 1;
		}
		if (running)
			curl_multi_poll(m, NULL, 0, 100, NULL);
	}
	curl_multi_remove_handle(m, hh);
	curl_multi_remove_handle(m, hf);
	curl_multi_cleanup(m);
	finish(&held, hh, hl_held);
	finish(&fast, hf, hl_fast);
	assert_body(&held, 200, "held");
	assert_body(&fast, 200, "fast");
	reply_free(&held);
	reply_free(&fast);
}

static void test_truncate_and_size(void **state)
{
	(void)state;
	size_t len;
	char *items = read_source_file("tests/fixtures/http/selftest/items.json", &len);
	struct reply r;
	fetch(&r, "/truncated", NULL, NULL);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.length, 10);
	assert_int_equal(r.body.len, 10);
	assert_memory_equal(r.body.ptr, items, 10);
	reply_free(&r);
	free(items);

	static const struct {
		const char *path;
		size_t len;
	} sizes[] = {{"/big", 100000}, {"/big-cut", 70000}};
	for (size_t i = 0; i < 2; i++) {
		fetch(&r, sizes[i].path, NULL, NULL);
		assert_int_equal(r.status, 200);
		assert_int_equal(r.length, sizes[i].len);
		assert_int_equal(r.body.len, sizes[i].len);
		for (size_t k = 0; k < r.body.len; k++)
			assert_int_equal(r.body.ptr[k], 'x');
		reply_free(&r);
	}
}

static void test_times_falls_through(void **state)
{
	(void)state;
	struct reply r;
	for (int i = 0; i < 2; i++) {
		fetch(&r, "/flaky", NULL, NULL);
		assert_body(&r, 503, "{\"error\":\"busy\"}");
		assert_header(&r, "Retry-After: 1");
		reply_free(&r);
	}
	for (int i = 0; i < 2; i++) {
		fetch(&r, "/flaky", NULL, NULL);
		assert_int_equal(r.status, 200);
		assert_null(strstr(r.head.ptr, "Retry-After"));
		reply_free(&r);
	}
}

static void test_pregzipped_file(void **state)
{
	(void)state;
	size_t len, gzlen;
	char *items = read_source_file("tests/fixtures/http/selftest/items.json", &len);
	char *gz = read_source_file("tests/fixtures/http/selftest/items.json.gz", &gzlen);
	struct reply r;
	fetch(&r, "/gzip", NULL, ""); /* curl decodes */
	assert_body(&r, 200, items);
	assert_header(&r, "Content-Encoding: gzip");
	reply_free(&r);
	fetch(&r, "/gzip", NULL, NULL); /* raw bytes */
	assert_int_equal(r.body.len, gzlen);
	assert_memory_equal(r.body.ptr, gz, gzlen);
	reply_free(&r);
	free(items);
	free(gz);
}

/* A POST body is read completely (2 MB here), and the log shows its first
 * 4096 bytes on one line; the log also shows every request's headers. */
static void test_post_and_log(void **state)
{
	(void)state;
	size_t n = 2 << 20;
	char *body = malloc(n);
	assert_non_null(body);
	for (size_t i = 0; i < n; i++)
		body[i] = i % 64 == 63 ? '\n' : (char)('a' + i % 26);
	struct reply r;
	struct curl_slist *hl;
	CURL *h = request(&r, "/v1/submit", "X-Test: post", body, n, &hl);
	assert_int_equal(curl_easy_perform(h), CURLE_OK);
	finish(&r, h, hl);
	assert_body(&r, 201, "{\"ok\":true}");
	reply_free(&r);
	/* A POST to a GET-only path: no route, but still a clean 404. */
	h = request(&r, "/v1/items", NULL, "{}", 2, &hl);
	assert_int_equal(curl_easy_perform(h), CURLE_OK);
	finish(&r, h, hl);
	assert_int_equal(r.status, 404);
	reply_free(&r);

	char *log = slurp(log_file);
	assert_non_null(log);
	char *post = strstr(log, "POST /v1/submit\n");
	assert_non_null(post);
	assert_non_null(strstr(post, "  X-Test: post\n"));
	assert_non_null(strstr(post, "  User-Agent: gpucmp-selftest/1\n"));
	char *logged = strstr(post, "  body: ");
	assert_non_null(logged);
	logged += strlen("  body: ");
	assert_int_equal(strcspn(logged, "\n"), 4096);
	assert_memory_equal(logged, "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
				    "abcdefghijk ", 64); /* the newline became a space */
	assert_non_null(strstr(log, "\nGET /v1/items?page=2\n"));
	assert_non_null(strstr(log, "  If-None-Match: \"v1\"\n"));
	assert_non_null(strstr(log, "  If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT\n"));
	char *fast = strstr(log, "GET /fast\n"), *end = fast ? strstr(fast, "\n\n") : NULL;
	assert_non_null(end);
	*end = '\0';
	assert_null(strstr(fast, "  body:")); /* a GET has no body line */
	free(log);
	free(body);
}

static void test_sigterm_exits_zero(void **state)
{
	(void)state;
	assert_true(server > 0);
	assert_int_equal(kill(server, SIGTERM), 0);
	int rc = wait_exit(server);
	server = 0;
	assert_int_equal(rc, 0);
}

/* Bad arguments and bad routes: one line naming file:line, exit 2. */
static void test_bad_input_exits_2(void **state)
{
	(void)state;
	static const struct {
		const char *routes, *error;
	} cases[] = {
		{"GET /a body=x\n\nGET /b colour=red\n", "bad.routes:3: unknown option\n"},
		{"# c\nGET /a file=missing.json\n", "bad.routes:2: " SELFTEST "/missing.json: "},
		{"GET a\n", "bad.routes:1: expected METHOD /PATH\n"},
		{"GET /a status=99\n", "bad.routes:1: bad status\n"},
		{"GET /a body=x size=3\n", "bad.routes:1: only one of file=, body=, size=\n"},
		{"GET /a times=x\n", "bad.routes:1: bad times\n"},
		{"GET /a hold=1\n", "bad.routes:1: bad hold (hold=usr1)\n"},
	};
	char routes[4096], errfile[4096];
	snprintf(errfile, sizeof errfile, "%s", scratch("err"));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(routes, sizeof routes, "%s", scratch("bad.routes"));
		FILE *f = fopen(routes, "w");
		assert_non_null(f);
		fputs(cases[i].routes, f);
		fclose(f);
		const char *args[] = {"--routes", routes, "--root", SELFTEST, "--port-file",
				      scratch("bad.port"), NULL};
		assert_int_equal(wait_exit(spawn(args, errfile)), 2);
		char *err = slurp(errfile);
		assert_non_null(err);
		if (!strstr(err, cases[i].error))
			fail_msg("case %zu: want \"%s\" in \"%s\"", i, cases[i].error, err);
		assert_int_equal(strchr(err, '\n') - err + 1, strlen(err)); /* one line */
		free(err);
	}
	const char *noroot[] = {"--routes", routes, "--port-file", "x", NULL};
	assert_int_equal(wait_exit(spawn(noroot, errfile)), 2);
	const char *unknown[] = {"--routes", routes, "--root", ".", "--port-file", "x", "--x",
				 NULL};
	assert_int_equal(wait_exit(spawn(unknown, errfile)), 2);
	const char *missing[] = {"--routes", "/nonexistent.routes", "--root", ".", "--port-file",
				 "x", NULL};
	assert_int_equal(wait_exit(spawn(missing, errfile)), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_query_and_not_found),
		cmocka_unit_test(test_body_type_and_headers),
		cmocka_unit_test(test_etag),
		cmocka_unit_test(test_last_modified),
		cmocka_unit_test(test_delay),
		cmocka_unit_test(test_hold_until_usr1),
		cmocka_unit_test(test_truncate_and_size),
		cmocka_unit_test(test_times_falls_through),
		cmocka_unit_test(test_pregzipped_file),
		cmocka_unit_test(test_post_and_log),
		cmocka_unit_test(test_sigterm_exits_zero),
		cmocka_unit_test(test_bad_input_exits_2),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
