/* test_team.c - team snapshots (team.h): the offer line both ways, SHA-256,
 * gunzip, Ed25519, and export then pull between two caches: what a pull
 * stores, the newer-stays rule, --force, one transaction. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "gpucmp/cache.h"
#include "gpucmp/fileio.h"
#include "gpucmp/http.h"
#include "gpucmp/team.h"
#include "testutil.h"

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

static void test_gunzip_refuses_bad_input(void **state)
{
	(void)state;
	/* gzip of "hi\n" (gzip -n) */
	static const unsigned char gz[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00,
					   0x00, 0x03, 0xcb, 0xc8, 0xe4, 0x02, 0x00, 0x7a,
					   0x7a, 0x6f, 0xed, 0x03, 0x00, 0x00, 0x00};
	struct buf b;
	buf_init(&b, 1024);
	assert_int_equal(team_gunzip(gz, sizeof gz, &b, NULL), GC_OK);
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.ptr, "hi\n", 3);
	buf_reset(&b);
	assert_int_equal(team_gunzip(gz, sizeof gz - 6, &b, NULL), GC_EDATA); /* cut short */
	buf_reset(&b);
	assert_int_equal(team_gunzip("plain text", 10, &b, NULL), GC_EDATA);
	buf_free(&b);
	buf_init(&b, 2); /* inflates past the cap */
	assert_int_equal(team_gunzip(gz, sizeof gz, &b, NULL), GC_EDATA);
	buf_free(&b);
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
	struct team_pull_opts o = {c, dir, force, NULL, 0, &ho};
	return team_pull(&o, r, NULL);
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

/* A folder holding `lines` as a payload whose manifest matches it. */
static void write_export(const char *dir, const char *lines)
{
	char path[4200], hex[65];
	mkdir(dir, 0755);
	snprintf(path, sizeof path, "%s/" TEAM_PAYLOAD, dir);
	gzFile gz = gzopen(path, "wb");
	assert_non_null(gz);
	gzputs(gz, lines);
	gzclose(gz);
	size_t len = 0;
	char *data = NULL;
	assert_int_equal(file_read_all(path, 1 << 20, &data, &len, NULL), GC_OK);
	assert_int_equal(team_sha256(data, len, hex, NULL), GC_OK);
	free(data);
	snprintf(path, sizeof path, "%s/" TEAM_MANIFEST, dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"format\": \"gpucmp-snapshot\", \"version\": 1, \"created_at\": \"x\","
		" \"payload\": {\"file\": \"offers.ndjson.gz\", \"bytes\": %zu,"
		" \"sha256\": \"%s\"}}", len, hex);
	fclose(f);
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
		     "\"fetched_at\":\"2027-01-01T00:00:00Z\",\"offers\":1}\n"
		     "{\"provider\":\"lambda\",\"sku\":\"a\",\"gpu_name\":\"H100\",\"gpu_count\":1,"
		     "\"region\":\"r\",\"price_hr\":0.5,\"source\":\"live\","
		     "\"fetched_at\":\"2027-01-01T00:00:00Z\"}\n"
		     "{\"type\":\"provider\",\"provider\":\"vast\",\"source\":\"live\","
		     "\"fetched_at\":\"2027-01-01T00:00:00Z\",\"offers\":1}\n"
		     "{\"provider\":\"vast\",\"sku\":\"b\"}\n");
	struct team_pull_result r;
	assert_int_equal(pull(cl, dir, 0, &r), GC_EDATA);
	assert_true(price_of(cl, "lambda") == before);
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
	char pub[TEAM_KEY_LEN], key[4096], victim[4096];
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
	char link[4096], target[4096];
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
	char pub[TEAM_KEY_LEN], key[4096], fifo[4096], *sig = NULL, *err = NULL;
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
	struct buf b;
	buf_init(&b, 1 << 20);
	assert_int_equal(team_gunzip(gz, len, &b, NULL), GC_OK);
	assert_int_equal(buf_add(&b, "", 1), GC_OK);
	assert_null(strstr(b.ptr, "alice"));
	assert_non_null(strstr(b.ptr, "\"origin\":\"vms.csv\""));
	buf_free(&b);
	free(gz);
	clear_dir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offer_line_round_trip),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_gunzip_refuses_bad_input),
		cmocka_unit_test(test_sign_and_verify),
		cmocka_unit_test(test_gen_key_private),
		cmocka_unit_test(test_sign_key_checks),
		cmocka_unit_test(test_export_ignores_planted_links),
		cmocka_unit_test(test_export_folder_rules),
		cmocka_unit_test(test_public_origin),
		cmocka_unit_test(test_export_publishes_no_path),
		cmocka_unit_test(test_export_pull_merge),
		cmocka_unit_test(test_pull_is_one_transaction),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
