/* test_team.c - team snapshots (team.h): the offer line both ways, SHA-256,
 * gunzip, Ed25519, and export then pull between two caches: what a pull
 * stores, the newer-stays rule, --force, one transaction. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "gpucmp/cache.h"
#include "gpucmp/fileio.h"
#include "gpucmp/http.h"
#include "gpucmp/team.h"
#include "testutil.h"
#include "sqlite_int.h"

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

static void test_offer_line_round_trip(void **state)
{
	(void)state;
	struct offer o, back;
	offer_init(&o);
	o.provider = "lambda";
	o.sku = "gpu_8x_h100";
	o.gpu = "h100-sxm";
	o.gpu_name = "H100";
	o.gpu_count = 8;
	o.region = "us-east-1";
	o.price_hr = 23.92;
	o.available = 0;
	o.source = "live";
	o.fetched_at = "2026-12-02T10:00:00Z";
	json_t *j = team_offer_json(&o, 1);
	assert_non_null(j);
	assert_null(json_object_get(j, "spot_price_hr")); /* unknown: left out */
	int stale = 0;
	assert_int_equal(team_offer_read(j, &back, &stale, NULL), GC_OK);
	assert_true(stale);
	assert_string_equal(back.sku, "gpu_8x_h100");
	assert_true(back.price_hr == 23.92);
	assert_true(isnan(back.spot_price_hr));
	assert_int_equal(back.available, 0);
	assert_int_equal(back.infiniband, -1);
	/* a required field missing, or of the wrong type */
	json_object_del(j, "region");
	char *err = NULL;
	assert_int_equal(team_offer_read(j, &back, &stale, &err), GC_EDATA);
	assert_non_null(strstr(err, "region"));
	free(err);
	json_object_set_new(j, "region", json_integer(3));
	assert_int_equal(team_offer_read(j, &back, &stale, NULL), GC_EDATA);
	json_decref(j);
}

static void test_sha256(void **state)
{
	(void)state;
	char hex[65];
	assert_int_equal(team_sha256("abc", 3, hex, NULL), GC_OK);
	assert_string_equal(hex,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* in pieces (export hashes its payload as it deflates it): the same */
	struct team_hash *h = NULL;
	char pieces[65] = "";
	assert_int_equal(team_hash_begin(&h, NULL), GC_OK);
	team_hash_add(h, "a", 1);
	team_hash_add(h, "", 0);
	team_hash_add(h, "bc", 2);
	assert_int_equal(team_hash_end(h, pieces), 0);
	assert_string_equal(pieces, hex);
	assert_int_equal(team_hash_end(NULL, pieces), -1);
}

/* gzip of text (n bytes) into a new buffer of *len bytes. */
static unsigned char *gzip_of(const char *text, size_t n, size_t *len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY),
			 Z_OK);
	size_t cap = deflateBound(&z, n) + 64;
	unsigned char *out = malloc(cap);
	assert_non_null(out);
	z.next_in = (Bytef *)(uintptr_t)text;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	*len = cap - z.avail_out;
	deflateEnd(&z);
	return out;
}

/* Every line of (data, len) read; the status that ended it, *n lines. */
static enum gc_status read_lines(const void *data, size_t len, int gz, size_t cap, size_t *n,
				 char **err)
{
	struct team_lines *l = NULL;
	assert_int_equal(team_lines_open(&l, data, len, gz, NULL), GC_OK);
	if (cap)
		team_lines_cap(l, cap);
	enum gc_status st;
	json_t *j = NULL;
	*n = 0;
	while ((st = team_lines_next(l, &j, err)) == GC_OK && j) {
		json_decref(j);
		++*n;
	}
	team_lines_close(l);
	return st;
}

/* A line of `n` bytes: {"x":"aaa..."} */
static char *long_line(size_t n)
{
	char *s = malloc(n + 2);
	assert_non_null(s);
	memset(s, 'a', n);
	memcpy(s, "{\"x\":\"", 6);
	memcpy(s + n - 2, "\"}", 2);
	s[n] = '\n';
	s[n + 1] = '\0';
	return s;
}

/* The payload is read a line at a time, inflated as it goes: whole lines,
 * and gzip that is cut short, not gzip, or inflates past the cap refused. */
static void test_lines(void **state)
{
	(void)state;
	static const char text[] = "{\"a\": 1}\n[2]\n{\"c\": \"3\"}";
	size_t glen, n;
	unsigned char *gz = gzip_of(text, sizeof text - 1, &glen);
	char *err = NULL;
	assert_int_equal(read_lines(gz, glen, 1, 0, &n, NULL), GC_OK);
	assert_int_equal(n, 3);
	assert_int_equal(read_lines(text, sizeof text - 1, 0, 0, &n, NULL), GC_OK);
	assert_int_equal(n, 3);
	assert_int_equal(read_lines(gz, glen - 6, 1, 0, &n, &err), GC_EDATA);
	assert_non_null(strstr(err, "cut short"));
	free(err);
	err = NULL;
	assert_int_equal(read_lines("plain text", 10, 1, 0, &n, &err), GC_EDATA);
	assert_non_null(strstr(err, "not gzip"));
	free(err);
	err = NULL;
	assert_int_equal(read_lines(gz, glen, 1, 8, &n, &err), GC_EDATA);
	assert_non_null(strstr(err, "inflates past 8 bytes"));
	free(err);
	free(gz);
	/* a line of the cap is read; one byte more is refused, never held */
	char *ok = long_line(TEAM_MAX_LINE), *big = long_line(TEAM_MAX_LINE + 1);
	gz = gzip_of(ok, strlen(ok), &glen);
	assert_int_equal(read_lines(gz, glen, 1, 0, &n, NULL), GC_OK);
	free(gz);
	gz = gzip_of(big, strlen(big), &glen);
	err = NULL;
	assert_int_equal(read_lines(gz, glen, 1, 0, &n, &err), GC_EDATA);
	assert_non_null(strstr(err, "payload line 1 is longer than 65536 bytes"));
	free(err);
	free(gz);
	free(ok);
	free(big);
	/* a line that is not JSON says where, quoting nothing */
	err = NULL;
	assert_int_equal(read_lines("{}\n{\"k\": secret}\n", 17, 0, 0, &n, &err), GC_EDATA);
	assert_non_null(strstr(err, "payload line 2: not valid JSON"));
	assert_null(strstr(err, "secret"));
	free(err);
}

static void test_sign_and_verify(void **state)
{
	(void)state;
	char pub[TEAM_KEY_LEN], pub2[TEAM_KEY_LEN], again[TEAM_KEY_LEN];
	char key[4096], key2[4096];
	snprintf(key, sizeof key, "%s", scratch_path("team-a.key"));
	snprintf(key2, sizeof key2, "%s", scratch_path("team-b.key"));
	assert_int_equal(team_gen_key(key, pub, NULL), GC_OK);
	assert_int_equal(team_gen_key(key2, pub2, NULL), GC_OK);
	assert_int_equal(strlen(pub), 44);
	assert_int_equal(team_gen_key(key, again, NULL), GC_EIO); /* never over a key */
	char *sig = NULL;
	assert_int_equal(team_sign(key, "manifest", 8, &sig, again, NULL), GC_OK);
	assert_string_equal(again, pub);
	assert_true(team_verify(pub, sig, "manifest", 8));
	assert_false(team_verify(pub, sig, "Manifest", 8));   /* tampered */
	assert_false(team_verify(pub2, sig, "manifest", 8));  /* another key */
	assert_false(team_verify("not base64", sig, "manifest", 8));
	assert_false(team_verify(pub, "c2ln", "manifest", 8));
	free(sig);
	assert_int_equal(team_sign(scratch_path("none.key"), "x", 1, &sig, again, NULL),
			 GC_EUSAGE);
}

/* n offers of `provider` fetched at `at`, as a refresh stores them. */
struct gen {
	const char *provider, *at;
	int n;
	double price;
	const char *origin;
};

static enum gc_status gen_fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	const struct gen *g = arg;
	char sku[32];
	for (int i = 0; i < g->n; i++) {
		struct offer o;
		offer_init(&o);
		snprintf(sku, sizeof sku, "sku-%d", i);
		o.provider = g->provider;
		o.sku = sku;
		o.gpu = "h100-sxm";
		o.gpu_name = "H100";
		o.gpu_count = 1 + i % 8;
		o.region = "r1";
		o.price_hr = g->price + i;
		o.source = "live";
		o.fetched_at = g->at;
		o.origin = g->origin;
		enum gc_status st = cb(ctx, &o, err);
		if (st != GC_OK)
			return st;
	}
	return GC_OK;
}

static void store_as(struct cache *c, const char *provider, const char *source, const char *at,
		     int n, double price)
{
	struct gen g = {provider, at, n, price, NULL};
	struct cache_meta m = {source, at, NULL, NULL, NULL, 0, 0};
	char *err = NULL;
	if (cache_store(c, provider, &m, gen_fill, &g, NULL, &err) != GC_OK)
		fail_msg("store: %s", err);
}

static void store(struct cache *c, const char *provider, const char *at, int n, double price)
{
	store_as(c, provider, "live", at, n, price);
}

static double price_of(struct cache *c, const char *provider)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(cache_db(c),
					    "SELECT min(price_hr) FROM offer WHERE provider = ?1",
					    -1, &s, NULL), SQLITE_OK);
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	double v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_double(s, 0) : -1;
	sqlite3_finalize(s);
	return v;
}

static struct cache *open_mem(void)
{
	struct cache *c = NULL;
	struct cache_open_info info;
	assert_int_equal(cache_open(&c, NULL, &cat, &info, NULL), GC_OK);
	cache_open_info_release(&info);
	return c;
}

static enum gc_status pull(struct cache *c, const char *dir, int force,
			   struct team_pull_result *r)
{
	struct http_opts ho;
	http_opts_default(&ho);
	struct team_pull_opts o = {c, dir, force, NULL, 0, &ho, 0};
	return team_pull(&o, r, NULL);
}

/* export --html's page: the grouped rows of the whole cache (its built-in
 * rows too), the snapshot named, a whole document; a write that fails
 * (/dev/full) is GC_EIO, never a page cut short that says it is done. */
static void test_page(void **state)
{
	(void)state;
	struct cache *c = open_mem();
	store(c, "vast", "2026-12-02T10:00:00Z", 3, 1.0);
	struct page_opts o = {.gpus = cat.gpus, .now = catalog_now(), .history_days = 30,
			      .created_at = "2026-12-02T10:00:00Z", .sha256 = "ab12",
			      .key = "", .snapshot_offers = 3};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct page_result r;
	char *err = NULL;
	assert_int_equal(page_write(f, c, &o, &r, &err), GC_OK);
	fclose(f);
	size_t rows = 0;
	for (const char *p = text; (p = strstr(p, "<tr><td")) != NULL; p++)
		rows++;
	assert_true(r.rows > 100);
	assert_int_equal(rows, r.rows);
	assert_non_null(strstr(text, "sha256 <code>ab12</code>; <strong>unsigned</strong>"));
	assert_null(strstr(text, "<template id=rest>")); /* under 1000 rows: all shown */
	assert_string_equal(text + len - 8, "</html>\n");
	free(text);
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		assert_int_equal(page_write(full, c, &o, &r, &err), GC_EIO);
		free(err);
		err = NULL;
		fclose(full);
	}
	cache_close(c);
}

static void test_export_pull_merge(void **state)
{
	(void)state;
	struct cache *pub = open_mem(), *cl = open_mem();
	/* imported: a catalog's kind, as the snapshot's rows are (the
	 * publisher's own guard lifted, as its config may) */
	cache_set_guard(pub, 0, 0);
	store_as(pub, "lambda", "import", "2026-12-02T10:00:00Z", 5, 2.0);
	store(pub, "vast", "2026-12-02T10:00:00Z", 3, 1.0);
	/* the client's vast is newer than the snapshot's */
	store(cl, "vast", "2026-12-02T11:00:00Z", 4, 9.0);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", scratch_path("team-export"));
	struct team_export_result er;
	assert_int_equal(team_export(pub, dir, NULL, &er, NULL), GC_OK);
	assert_int_equal(er.offers, 8);
	assert_int_equal(er.providers, 2);
	assert_string_equal(er.created_at, "2026-12-02T10:00:00Z");
	struct team_pull_result r;
	/* the client's lambda is the snapshot's 391 rows: the CLI's guard
	 * (10%) does not hold a pull back; the publisher's refresh ran it */
	cache_set_guard(cl, 0, 10);
	assert_int_equal(pull(cl, dir, 0, &r), GC_OK);
	assert_int_equal(r.nproviders, 2);
	assert_string_equal(r.providers[0].id, "lambda");
	assert_int_equal(r.providers[0].outcome, TEAM_STORED);
	assert_int_equal(r.providers[1].outcome, TEAM_KEPT_NEWER);
	team_pull_result_release(&r);
	assert_true(price_of(cl, "lambda") == 2.0);
	assert_true(price_of(cl, "vast") == 9.0);
	/* again: lambda is current; --force takes the older vast */
	assert_int_equal(pull(cl, dir, 1, &r), GC_OK);
	assert_int_equal(r.providers[1].outcome, TEAM_STORED);
	team_pull_result_release(&r);
	assert_true(price_of(cl, "vast") == 1.0);
	cache_close(pub);
	cache_close(cl);
}

/* The manifest's provider list of a payload's lines: its records. */
static char *providers_of(const char *lines, size_t *total)
{
	json_t *list = json_array();
	*total = 0;
	for (const char *p = lines; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		json_t *j = json_loadb(p, n, 0, NULL);
		const char *type = json_string_value(json_object_get(j, "type"));
		if (type && strcmp(type, "provider") == 0) {
			json_int_t k = json_integer_value(json_object_get(j, "offers"));
			json_array_append_new(list, json_pack("{s:O, s:I, s:b}", "provider",
							      json_object_get(j, "provider"),
							      "offers", k, "stale", 0));
			*total += (size_t)k;
		}
		json_decref(j);
		p += n + (nl != NULL);
	}
	char *text = json_dumps(list, JSON_COMPACT);
	json_decref(list);
	return text;
}

/* A folder holding `lines` as a payload whose manifest matches it (its
 * provider list `providers` of `offers` in all when not NULL, else the
 * payload's). */
static void write_export_as(const char *dir, const char *lines, const char *providers,
			    size_t offers)
{
	char path[4200], hex[65];
	mkdir(dir, 0755);
	snprintf(path, sizeof path, "%s/" TEAM_PAYLOAD, dir);
	gzFile gz = gzopen(path, "wb");
	assert_non_null(gz);
	gzputs(gz, lines);
	gzclose(gz);
	size_t len = 0, total = 0;
	char *data = NULL;
	assert_int_equal(file_read_all(path, 1 << 20, &data, &len, NULL), GC_OK);
	assert_int_equal(team_sha256(data, len, hex, NULL), GC_OK);
	free(data);
	char *list = providers_of(lines, &total);
	snprintf(path, sizeof path, "%s/" TEAM_MANIFEST, dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"format\": \"gpucmp-snapshot\", \"version\": 1, \"created_at\": \"x\","
		" \"payload\": {\"file\": \"offers.ndjson.gz\", \"bytes\": %zu,"
		" \"sha256\": \"%s\"}, \"offers\": %zu, \"providers\": %s}", len, hex,
		providers ? offers : total, providers ? providers : list);
	fclose(f);
	free(list);
}

static void write_export(const char *dir, const char *lines)
{
	write_export_as(dir, lines, NULL, 0);
}

/* A payload whose second provider holds a line that is not an offer: the
 * first provider, already merged, is rolled back with it. */
static void test_pull_is_one_transaction(void **state)
{
	(void)state;
	struct cache *cl = open_mem();
	double before = price_of(cl, "lambda");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", scratch_path("team-bad"));
	write_export(dir,
		     "{\"type\":\"provider\",\"provider\":\"lambda\",\"source\":\"live\","
		     "\"fetched_at\":\"2026-12-02T11:00:00Z\",\"offers\":1}\n"
		     "{\"provider\":\"lambda\",\"sku\":\"a\",\"gpu_name\":\"H100\",\"gpu_count\":1,"
		     "\"region\":\"r\",\"price_hr\":0.5,\"source\":\"live\","
		     "\"fetched_at\":\"2026-12-02T11:00:00Z\"}\n"
		     "{\"type\":\"provider\",\"provider\":\"vast\",\"source\":\"live\","
		     "\"fetched_at\":\"2026-12-02T11:00:00Z\",\"offers\":1}\n"
		     "{\"provider\":\"vast\",\"sku\":\"b\"}\n");
	struct team_pull_result r;
	assert_int_equal(pull(cl, dir, 0, &r), GC_EDATA);
	assert_true(price_of(cl, "lambda") == before);
	cache_close(cl);
}

#define REC(p, n)                                                                          \
	"{\"type\":\"provider\",\"provider\":\"" p "\",\"source\":\"live\","               \
	"\"fetched_at\":\"2026-12-02T11:00:00Z\",\"offers\":" #n "}\n"
#define OFFER_HEAD(p)                                                                      \
	"{\"provider\":\"" p "\",\"sku\":\"a\",\"gpu_name\":\"H100\",\"gpu_count\":1,"        \
	"\"region\":\"r\",\"price_hr\":0.5,\"source\":\"live\","                           \
	"\"fetched_at\":\"2026-12-02T11:00:00Z\""
#define OFFER(p, extra) OFFER_HEAD(p) extra "}\n"

/* A record and one offer line of lambda whose extra key "x" holds n (> 0)
 * empty objects. */
static char *offer_with_objects(size_t n)
{
	static const char head[] = REC("lambda", 1) OFFER_HEAD("lambda") ",\"x\":[";
	size_t len = sizeof head - 1 + 3 * n + 3;
	char *s = malloc(len);
	assert_non_null(s);
	memcpy(s, head, sizeof head - 1);
	char *p = s + sizeof head - 1;
	for (size_t i = 0; i < n; i++, p += 3)
		memcpy(p, "{},", 3);
	memcpy(p - 1, "]}\n", 4); /* over the last ',' */
	return s;
}

static enum gc_status merge_text(struct cache *c, const char *text, char **err)
{
	struct team_pull_result r;
	enum gc_status st = team_merge(c, text, strlen(text), 0, &r, err);
	team_pull_result_release(&r);
	return st;
}

/* A catalog provider's record without as_of is undated (not dated by its
 * fetched_at, as live data is): it does not replace lambda's dated
 * snapshot rows (kept-newer, as null in the answer) unless forced. */
static void test_merge_undated(void **state)
{
	(void)state;
	static const char text[] =
		"{\"type\":\"provider\",\"provider\":\"lambda\",\"source\":\"catalog\","
		"\"fetched_at\":\"2026-12-02T11:00:00Z\",\"offers\":1}\n"
		"{\"provider\":\"lambda\",\"sku\":\"a\",\"gpu_name\":\"H100\",\"gpu_count\":1,"
		"\"region\":\"r\",\"price_hr\":0.5,\"source\":\"catalog\","
		"\"fetched_at\":\"2026-12-02T11:00:00Z\"}\n";
	struct cache *cl = open_mem();
	double before = price_of(cl, "lambda");
	struct team_pull_result r;
	char *err = NULL;
	assert_int_equal(team_merge(cl, text, strlen(text), 0, &r, &err), GC_OK);
	assert_int_equal(r.nproviders, 1);
	assert_int_equal(r.providers[0].outcome, TEAM_KEPT_NEWER);
	assert_string_equal(r.providers[0].as_of, "");
	assert_string_equal(r.providers[0].local_as_of, "2026-05-20T00:00:00Z");
	assert_true(price_of(cl, "lambda") == before);
	team_pull_result_release(&r);
	assert_int_equal(team_merge(cl, text, strlen(text), 1, &r, &err), GC_OK);
	assert_int_equal(r.providers[0].outcome, TEAM_STORED);
	assert_true(price_of(cl, "lambda") == 0.5);
	team_pull_result_release(&r);
	cache_close(cl);
}

/* An offer line's JSON values are capped before jansson builds them: an
 * unknown key does not matter, thousands of values in it refuse the line
 * (and the pull: nothing changes); so does a line over TEAM_MAX_LINE, such
 * as the 3 M empty objects of a 9 KB payload that once cost 697 MB. */
static void test_merge_caps(void **state)
{
	(void)state;
	struct cache *cl = open_mem();
	double before = price_of(cl, "lambda");
	char *err = NULL;
	char *small = offer_with_objects(3), *many = offer_with_objects(5000);
	char *huge = offer_with_objects(3000000);
	assert_int_equal(merge_text(cl, many, &err), GC_EDATA);
	assert_non_null(strstr(err, "payload line 2: more than 4096 JSON values"));
	assert_true(price_of(cl, "lambda") == before);
	free(err);
	err = NULL;
	assert_int_equal(merge_text(cl, huge, &err), GC_EDATA);
	assert_non_null(strstr(err, "payload line 2 is longer than 65536 bytes"));
	assert_true(price_of(cl, "lambda") == before);
	free(err);
	err = NULL;
	assert_int_equal(merge_text(cl, small, &err), GC_OK);
	assert_true(price_of(cl, "lambda") == 0.5);
	free(small);
	free(many);
	free(huge);
	cache_close(cl);
}

/* One provider twice in a payload is refused, not stored in turn. */
static void test_merge_provider_twice(void **state)
{
	(void)state;
	struct cache *cl = open_mem();
	double before = price_of(cl, "lambda");
	char *err = NULL;
	assert_int_equal(merge_text(cl, REC("lambda", 1) OFFER("lambda", "")
				    REC("lambda", 1) OFFER("lambda", ""), &err), GC_EDATA);
	assert_non_null(strstr(err, "payload line 3: provider 'lambda' a second time"));
	assert_true(price_of(cl, "lambda") == before);
	free(err);
	cache_close(cl);
}

#define SUM "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define MANIFEST(version, providers, offers)                                               \
	"{\"format\": \"gpucmp-snapshot\", \"version\": " version ", \"created_at\": \"x\", "  \
	"\"payload\": {\"file\": \"offers.ndjson.gz\", \"bytes\": 10, \"sha256\": \"" SUM     \
	"\"}, \"offers\": " offers ", \"providers\": " providers "}"

/* manifest_read's status on text, and whether its message holds want. */
static void manifest_says(const char *text, size_t len, enum gc_status want_st,
			  const char *want, const char *never)
{
	struct team_manifest m;
	char *err = NULL;
	enum gc_status st = team_manifest_read(text, len, &m, &err);
	if (st != want_st || (want && (!err || !strstr(err, want))) ||
	    (never && err && strstr(err, never)))
		fail_msg("manifest %.60s: status %d, '%s', want '%s'", text, st,
			 err ? err : "(none)", want ? want : "");
	free(err);
	team_manifest_release(&m);
}

static void test_manifest_read(void **state)
{
	(void)state;
	static const char good[] = MANIFEST("1", "[{\"provider\": \"lambda\", \"offers\": 2},"
					    " {\"provider\": \"vast\", \"offers\": 3}]", "5");
	struct team_manifest m;
	assert_int_equal(team_manifest_read(good, sizeof good - 1, &m, NULL), GC_OK);
	assert_int_equal(m.nproviders, 2);
	assert_string_equal(m.providers[1].id, "vast");
	assert_int_equal(m.offers, 5);
	assert_int_equal(m.payload_bytes, 10);
	team_manifest_release(&m);
	/* versions: what they are, "newer" only when greater */
	manifest_says(MANIFEST("0", "[]", "0"), strlen(MANIFEST("0", "[]", "0")), GC_EDATA,
		      "unknown snapshot format version 0 (this gpucmp reads version 1)", "newer");
	manifest_says(MANIFEST("-1", "[]", "0"), strlen(MANIFEST("-1", "[]", "0")), GC_EDATA,
		      "unknown snapshot format version -1", "newer");
	manifest_says(MANIFEST("\"1\"", "[]", "0"), strlen(MANIFEST("\"1\"", "[]", "0")),
		      GC_EDATA, "version (not a whole number)", "newer");
	manifest_says(MANIFEST("2", "[]", "0"), strlen(MANIFEST("2", "[]", "0")), GC_EDATA,
		      "version 2 is of a newer gpucmp", NULL);
	/* counts that do not add up, a provider twice, none listed */
	static const char sum[] = MANIFEST("1", "[{\"provider\": \"lambda\", \"offers\": 2}]", "3");
	manifest_says(sum, sizeof sum - 1, GC_EDATA, "providers hold 2 offers, its total says 3",
		      NULL);
	static const char twice[] = MANIFEST("1", "[{\"provider\": \"vast\", \"offers\": 1},"
					     " {\"provider\": \"vast\", \"offers\": 1}]", "2");
	manifest_says(twice, sizeof twice - 1, GC_EDATA, "lists provider 'vast' twice", NULL);
	static const char none[] = "{\"format\": \"gpucmp-snapshot\", \"version\": 1, "
				   "\"payload\": {\"bytes\": 10, \"sha256\": \"" SUM "\"}}";
	manifest_says(none, sizeof none - 1, GC_EDATA, "lists no providers", NULL);
	/* over the byte cap, and over the value cap under it: refused unparsed */
	size_t n = TEAM_MAX_MANIFEST - 2;
	char *big = malloc(n + 3);
	assert_non_null(big);
	big[0] = '[';
	for (size_t i = 1; i < n; i += 3)
		memcpy(big + i, "{},", 3);
	memcpy(big + n - 2, "{}]", 3);
	manifest_says(big, n + 1, GC_EDATA, "more than 32768 JSON values", NULL);
	manifest_says(big, TEAM_MAX_MANIFEST + 1, GC_EDATA, "larger than 65536 bytes", NULL);
	free(big);
}

/* The manifest's providers and counts are checked against the payload:
 * a mismatch refuses the pull, the cache unchanged. */
static void test_pull_counts(void **state)
{
	(void)state;
	struct cache *cl = open_mem();
	double before = price_of(cl, "lambda");
	char dir[4096];
	struct team_pull_result r;
	char *err = NULL;
	struct http_opts ho;
	http_opts_default(&ho);
	struct team_pull_opts o = {cl, dir, 0, NULL, 0, &ho, 0};
	snprintf(dir, sizeof dir, "%s", scratch_path("team-count"));
	write_export_as(dir, REC("lambda", 1) OFFER("lambda", ""),
			"[{\"provider\": \"lambda\", \"offers\": 2}]", 2);
	assert_int_equal(team_pull(&o, &r, &err), GC_EDATA);
	assert_non_null(strstr(err, "provider 'lambda' with 1 offers where the manifest lists "
				    "'lambda' with 2"));
	assert_non_null(strstr(err, "the cache is unchanged"));
	free(err);
	err = NULL;
	snprintf(dir, sizeof dir, "%s", scratch_path("team-count2"));
	write_export_as(dir, REC("lambda", 1) OFFER("lambda", ""),
			"[{\"provider\": \"lambda\", \"offers\": 1}, "
			"{\"provider\": \"vast\", \"offers\": 0}]", 1);
	assert_int_equal(team_pull(&o, &r, &err), GC_EDATA);
	assert_non_null(strstr(err, "the payload holds 1 providers, the manifest lists 2"));
	assert_true(price_of(cl, "lambda") == before);
	free(err);
	cache_close(cl);
}

/* --from file:///DIR is the folder DIR; another scheme is refused. */
static void test_pull_file_url(void **state)
{
	(void)state;
	struct cache *cl = open_mem();
	char dir[4096], url[4200];
	snprintf(dir, sizeof dir, "%s", scratch_path("team file"));
	write_export(dir, REC("lambda", 1) OFFER("lambda", ""));
	struct team_pull_result r;
	char *err = NULL;
	snprintf(url, sizeof url, "file://%s", dir);
	for (char *p = strchr(url, ' '); p; p = strchr(p, ' ')) { /* "%20" */
		memmove(p + 3, p + 1, strlen(p + 1) + 1);
		memcpy(p, "%20", 3);
	}
	assert_int_equal(pull(cl, url, 0, &r), GC_OK);
	assert_int_equal(r.nproviders, 1);
	assert_string_equal(r.from, dir);
	team_pull_result_release(&r);
	struct http_opts ho;
	http_opts_default(&ho);
	static const char *const bad[] = {"ftp://example.org/team", "file://host/srv/team",
					  "s3://bucket/team"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct team_pull_opts o = {cl, bad[i], 0, NULL, 0, &ho, 0};
		assert_int_equal(team_pull(&o, &r, &err), GC_EUSAGE);
		assert_non_null(strstr(err, bad[i]));
		free(err);
		err = NULL;
	}
	cache_close(cl);
}

/* With trusted keys the signature is checked over the manifest's bytes
 * before any parse: a manifest that is not even JSON is refused for its
 * signature, never read. */
static void test_pull_verifies_first(void **state)
{
	(void)state;
	struct cache *cl = open_mem();
	char dir[4096], key[4096], path[4200], pub[TEAM_KEY_LEN];
	snprintf(dir, sizeof dir, "%s", scratch_path("team-sig"));
	snprintf(key, sizeof key, "%s", scratch_path("team-sig.key"));
	mkdir(dir, 0755);
	assert_int_equal(team_gen_key(key, pub, NULL), GC_OK);
	char *sig = NULL;
	assert_int_equal(team_sign(key, "other", 5, &sig, pub, NULL), GC_OK);
	snprintf(path, sizeof path, "%s/" TEAM_MANIFEST, dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("[{}, {}, not json", f);
	fclose(f);
	snprintf(path, sizeof path, "%s/" TEAM_SIGNATURE, dir);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"algorithm\":\"ed25519\",\"key\":\"%s\",\"signature\":\"%s\"}", pub, sig);
	fclose(f);
	free(sig);
	struct http_opts ho;
	http_opts_default(&ho);
	const char *keys[] = {pub};
	struct team_pull_opts o = {cl, dir, 0, keys, 1, &ho, 0};
	struct team_pull_result r;
	char *err = NULL;
	assert_int_equal(team_pull(&o, &r, &err), GC_EDATA);
	assert_non_null(strstr(err, "the signature does not match the manifest"));
	free(err);
	cache_close(cl);
}

/* Every entry of dir removed (not the folder itself). */
static void clear_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char path[4400];
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

/* A fresh empty folder in the scratch area; its path (static). */
static const char *fresh_dir(const char *name)
{
	static char dir[4096];
	snprintf(dir, sizeof dir, "%s", scratch_path(name));
	clear_dir(dir);
	rmdir(dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	return dir;
}

static void write_text(const char *path, const char *text, mode_t mode)
{
	unlink(path);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

static int file_says(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strcmp(buf, text) == 0;
}

/* --gen-key: 0600 whatever the umask, never over a file, never through a
 * link planted at its path (the link's target is not created). */
static void test_gen_key_private(void **state)
{
	(void)state;
	char pub[TEAM_KEY_LEN], key[4200], victim[4200];
	const char *dir = fresh_dir("team-genkey");
	snprintf(key, sizeof key, "%s/team.key", dir);
	snprintf(victim, sizeof victim, "%s/victim", dir);
	mode_t old = umask(0);
	enum gc_status st = team_gen_key(key, pub, NULL);
	umask(old);
	assert_int_equal(st, GC_OK);
	struct stat sb;
	assert_int_equal(stat(key, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	/* an existing file is kept as it was */
	write_text(victim, "keep me", 0644);
	char *err = NULL;
	assert_int_equal(team_gen_key(victim, pub, &err), GC_EIO);
	assert_non_null(strstr(err, "never replaced"));
	free(err);
	assert_true(file_says(victim, "keep me"));
	/* a dangling link: refused, its target not made */
	char link[4200], target[4200];
	snprintf(link, sizeof link, "%s/link.key", dir);
	snprintf(target, sizeof target, "%s/made-through-link", dir);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(team_gen_key(link, pub, NULL), GC_EIO);
	assert_int_equal(access(target, F_OK), -1);
}

/* team_sign's key: refused before it is read when another user could read
 * or change it, when it is not a regular file (a FIFO: never waited on),
 * or belongs to another user; the config file's wording. */
static void test_sign_key_checks(void **state)
{
	(void)state;
	char pub[TEAM_KEY_LEN], key[4200], fifo[4200], *sig = NULL, *err = NULL;
	const char *dir = fresh_dir("team-keycheck");
	snprintf(key, sizeof key, "%s/team.key", dir);
	assert_int_equal(team_gen_key(key, pub, NULL), GC_OK);
	static const struct {
		mode_t mode;
		const char *says;
	} modes[] = {
		{0644, "is readable by other users; run: chmod 600 "},
		{0640, "is readable by other users; run: chmod 600 "},
		{0604, "is readable by other users; run: chmod 600 "},
		{0620, "can be changed by other users; run: chmod 600 "},
		{0602, "can be changed by other users; run: chmod 600 "},
	};
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		chmod(key, modes[i].mode);
		assert_int_equal(team_sign(key, "x", 1, &sig, pub, &err), GC_EUSAGE);
		assert_null(sig);
		if (!strstr(err, modes[i].says) || !strstr(err, "signing key "))
			fail_msg("mode %o: %s", (unsigned)modes[i].mode, err);
		free(err);
		err = NULL;
	}
	chmod(key, 0400);
	assert_int_equal(team_sign(key, "x", 1, &sig, pub, NULL), GC_OK);
	free(sig);
	sig = NULL;
	snprintf(fifo, sizeof fifo, "%s/fifo.key", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(team_sign(fifo, "x", 1, &sig, pub, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "not a regular file (a FIFO)"));
	free(err);
	err = NULL;
	if (geteuid() == 0) { /* root can hand the key to another user */
		chmod(key, 0600);
		assert_int_equal(chown(key, 65534, 65534), 0);
		assert_int_equal(team_sign(key, "x", 1, &sig, pub, &err), GC_EUSAGE);
		assert_non_null(strstr(err, "belongs to another user (uid 65534)"));
		free(err);
	}
}

/* A folder holding one provider's offers, exported; the cache closed. */
static enum gc_status export_some(const char *dir, const char *origin, char **err)
{
	struct cache *pub = open_mem();
	struct gen g = {"vast", "2026-12-02T10:00:00Z", 3, 1.0, origin};
	struct cache_meta m = {"live", g.at, NULL, NULL, NULL, 0, 0};
	if (cache_store(pub, "vast", &m, gen_fill, &g, NULL, NULL) != GC_OK)
		fail_msg("store");
	struct team_export_result er;
	enum gc_status st = team_export(pub, dir, NULL, &er, err);
	cache_close(pub);
	return st;
}

/* Links planted where export used to put its temporary files (and at a
 * final name): nothing is written through them. */
static void test_export_ignores_planted_links(void **state)
{
	(void)state;
	const char *d = fresh_dir("team-planted");
	char dir[4096], victim[4200], link[4400];
	snprintf(dir, sizeof dir, "%s", d);
	snprintf(victim, sizeof victim, "%s-victim", dir);
	write_text(victim, "precious", 0644);
	static const char *const names[] = {".offers.ndjson.gz.tmp", ".manifest.json.tmp",
					    ".manifest.sig.tmp", "manifest.json"};
	for (size_t i = 0; i < 4; i++) {
		snprintf(link, sizeof link, "%s/%s", dir, names[i]);
		assert_int_equal(symlink(victim, link), 0);
	}
	assert_int_equal(export_some(dir, NULL, NULL), GC_OK);
	assert_true(file_says(victim, "precious"));
	struct stat sb;
	snprintf(link, sizeof link, "%s/manifest.json", dir);
	assert_int_equal(lstat(link, &sb), 0);
	assert_true(S_ISREG(sb.st_mode)); /* the link replaced, not followed */
	/* no temporary file left behind */
	DIR *dd = opendir(dir);
	assert_non_null(dd);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(dd)) != NULL)
		n += e->d_name[0] != '.' || strcmp(e->d_name, ".") == 0 ||
		     strcmp(e->d_name, "..") == 0 ? 0 : 1;
	closedir(dd);
	assert_int_equal(n, 3); /* only the three planted links */
	clear_dir(dir);
	unlink(victim);
}

/* A folder others can change is refused: any user without the sticky bit,
 * another user's (root only: it can make one), a link of another user. */
static void test_export_folder_rules(void **state)
{
	(void)state;
	const char *d = fresh_dir("team-open");
	char dir[4096], *err = NULL;
	snprintf(dir, sizeof dir, "%s", d);
	chmod(dir, 0777);
	assert_int_equal(export_some(dir, NULL, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "can be changed by any user"));
	assert_non_null(strstr(err, "chmod o-w"));
	free(err);
	err = NULL;
	chmod(dir, 01777); /* sticky, as /tmp: others cannot replace our files */
	assert_int_equal(export_some(dir, NULL, NULL), GC_OK);
	chmod(dir, 0775); /* the team's group may write it */
	assert_int_equal(export_some(dir, NULL, NULL), GC_OK);
	if (geteuid() != 0)
		return;
	chmod(dir, 0755);
	assert_int_equal(chown(dir, 65534, 65534), 0);
	assert_int_equal(export_some(dir, NULL, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "belongs to another user (uid 65534)"));
	free(err);
	err = NULL;
	assert_int_equal(chown(dir, 0, 0), 0);
	char link[4200];
	snprintf(link, sizeof link, "%s-link", dir);
	unlink(link);
	assert_int_equal(symlink(dir, link), 0);
	assert_int_equal(export_some(link, NULL, NULL), GC_OK); /* our own link */
	assert_int_equal(lchown(link, 65534, 65534), 0);
	assert_int_equal(export_some(link, NULL, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "is a link of another user"));
	free(err);
	unlink(link);
	clear_dir(dir);
}

static void test_public_origin(void **state)
{
	(void)state;
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"/home/alice/catalogs/lambda/vms.csv", "vms.csv"},
		{"catalogs/lambda/vms.csv", "vms.csv"},
		{"vms.csv", "vms.csv"},
		{"/home/alice/catalogs/", "catalogs"},
		{"/", NULL},
		{"", NULL},
		{"file:///home/alice/vms.csv?x=1", "vms.csv"},
		{"https://api.lambdalabs.com/api/v1/instance-types",
		 "https://api.lambdalabs.com/api/v1/instance-types"},
		{"https://bob:hunter22@example.com/x/vms.csv?token=abc&page=2",
		 "https://***@example.com/x/vms.csv?token=***&page=2"},
	};
	char out[256];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *got = team_public_origin(cases[i].in, out, sizeof out);
		if (!cases[i].out ? got != NULL : (!got || strcmp(got, cases[i].out) != 0))
			fail_msg("'%s' gave '%s'", cases[i].in, got ? got : "(null)");
		/* the same for what it returns: a pulled cache exports the same */
		char again[256];
		if (got && strcmp(team_public_origin(got, again, sizeof again), got) != 0)
			fail_msg("'%s' changes again", got);
	}
	assert_null(team_public_origin(NULL, out, sizeof out));
}

/* The payload of an export of offers imported from a local path holds
 * their file's name, never the path. */
static void test_export_publishes_no_path(void **state)
{
	(void)state;
	const char *d = fresh_dir("team-origin");
	char dir[4096], path[4200];
	snprintf(dir, sizeof dir, "%s", d);
	assert_int_equal(export_some(dir, "/home/alice/secret-project/vast/vms.csv", NULL),
			 GC_OK);
	snprintf(path, sizeof path, "%s/" TEAM_PAYLOAD, dir);
	char *gz = NULL;
	size_t len = 0;
	assert_int_equal(file_read_all(path, 1 << 20, &gz, &len, NULL), GC_OK);
	/* every line as the pull reads it: no line names the path */
	struct team_lines *l = NULL;
	assert_int_equal(team_lines_open(&l, gz, len, 1, NULL), GC_OK);
	json_t *line = NULL;
	size_t origins = 0;
	while (team_lines_next(l, &line, NULL) == GC_OK && line) {
		char *text = json_dumps(line, JSON_COMPACT);
		assert_non_null(text);
		assert_null(strstr(text, "alice"));
		origins += strstr(text, "\"origin\":\"vms.csv\"") != NULL;
		free(text);
		json_decref(line);
	}
	team_lines_close(l);
	assert_true(origins > 0);
	free(gz);
	clear_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offer_line_round_trip),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_sign_and_verify),
		cmocka_unit_test(test_gen_key_private),
		cmocka_unit_test(test_sign_key_checks),
		cmocka_unit_test(test_export_ignores_planted_links),
		cmocka_unit_test(test_export_folder_rules),
		cmocka_unit_test(test_public_origin),
		cmocka_unit_test(test_export_publishes_no_path),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_export_pull_merge),
		cmocka_unit_test(test_pull_is_one_transaction),
		cmocka_unit_test(test_merge_caps),
		cmocka_unit_test(test_merge_undated),
		cmocka_unit_test(test_merge_provider_twice),
		cmocka_unit_test(test_manifest_read),
		cmocka_unit_test(test_pull_counts),
		cmocka_unit_test(test_pull_file_url),
		cmocka_unit_test(test_pull_verifies_first),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
