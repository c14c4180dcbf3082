/* test_ingest.c - the one door into the cache (ingest.h): the hostile
 * values that a team pull, a catalog or an import stored as given before
 * the door (issue: vcpus -5, ram 1e308, a 1e-300 GPU share, currency XXX,
 * a year-9999 or impossible date, an id without a profile, control
 * characters in a record), each checked on the door alone and through a
 * real store. */
#include <math.h>
#include <stdlib.h>

#include "testutil.h"

#include "gpucmp/cache.h"
#include "gpucmp/ingest.h"
#include "gpucmp/rates.h"
#include "sqlite_int.h"

static struct catalog cat;

static int setup(void **state)
{
	(void)state;
	return load_embedded_catalog(&cat) != 0 ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_release(&cat);
	return 0;
}

/* now: 2026-12-02T12:00:00Z (the suite's GPUCMP_TODAY at noon) */
#define NOW 1796212800LL

static void good(struct offer *o)
{
	offer_init(o);
	o->provider = "lambda";
	o->sku = "gpu_8x_h100";
	o->gpu = "h100-sxm";
	o->gpu_name = "H100";
	o->gpu_count = 8;
	o->region = "us-east-1";
	o->price_hr = 23.92;
	o->source = "import";
	o->fetched_at = "2026-12-02T10:00:00Z";
	o->as_of = "2026-12-01T00:00:00Z";
}

/* One row through a door of `p` for lambda: *keep, and the status. */
static enum gc_status pass(const struct ingest_policy *p, const struct offer *in,
			   struct offer *out, struct offer_text *t, int *keep,
			   struct ingest_stats *s, char **err)
{
	struct ingest door;
	assert_int_equal(ingest_begin(&door, p, "lambda", 1, err), GC_OK);
	enum gc_status st = ingest_offer(&door, in, out, t, keep, err);
	if (s)
		*s = door.s;
	return st;
}

static void test_numbers_by_the_table(void **state)
{
	(void)state;
	struct ingest_policy p = {NOW, 0, 0, NULL};
	struct offer o, out;
	struct offer_text t;
	struct ingest_stats s;
	int keep;
	good(&o);
	o.vcpus = -5;
	o.ram_gb = 1e308;
	o.gpu_mem_gb = -80;
	o.disk_gb = INFINITY;
	o.infiniband = 7;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 1);
	assert_true(isnan(out.vcpus) && isnan(out.ram_gb) && isnan(out.gpu_mem_gb));
	assert_true(isnan(out.disk_gb));
	assert_int_equal(out.infiniband, 1);
	assert_int_equal(s.numbers, 4);
	/* a 1e-300 share of a GPU ($2.49e300 per GPU-hour) is no offer */
	good(&o);
	o.gpu_fraction = 1e-300;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 0);
	assert_int_equal(s.no_gpu, 1);
	good(&o);
	o.gpu_count = 1e308;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 0);
	/* a slice given as a count becomes one GPU of that share */
	good(&o);
	o.gpu_count = 0.5;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 1);
	assert_true(out.gpu_count == 1 && out.gpu_fraction == 0.5);
	/* prices: out of range is none, none at all drops it, spot >= on-demand */
	good(&o);
	o.price_hr = 1e-300;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 0);
	assert_int_equal(s.no_price, 1);
	good(&o);
	o.spot_price_hr = 30;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 1);
	assert_true(isnan(out.spot_price_hr));
	assert_int_equal(s.spot_dropped, 1);
}

static void test_words_and_currency(void **state)
{
	(void)state;
	struct rate_table rates;
	char *err = NULL;
	assert_int_equal(rates_load_embedded(&rates, &err), GC_OK);
	struct ingest_policy p = {NOW, 0, 0, &rates};
	struct offer o, out;
	struct offer_text t;
	struct ingest_stats s;
	int keep;
	static const char *const bad[] = {"XXX", "usd", "US", "USDX", "€"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		good(&o);
		o.currency = bad[i];
		assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
		assert_int_equal(keep, 0);
		assert_int_equal(s.currency, 1);
	}
	good(&o);
	o.currency = "EUR";
	o.price_native = 22.0;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 1);
	assert_true(out.price_native == 22.0);
	/* without a rate table, USD alone */
	struct ingest_policy usd = {NOW, 0, 0, NULL};
	assert_int_equal(pass(&usd, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 0);
	good(&o);
	o.rdma = "evil";
	o.price_kind = "free";
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 1);
	assert_null(out.rdma);
	assert_null(out.price_kind);
	assert_int_equal(s.words, 2);
	rates_free(&rates);
}

static void refused(const struct offer *o, const char *want)
{
	struct ingest_policy p = {NOW, 0, 0, NULL};
	struct offer out;
	struct offer_text t;
	int keep = 1;
	char *err = NULL;
	assert_int_equal(pass(&p, o, &out, &t, &keep, NULL, &err), GC_EDATA);
	assert_int_equal(keep, 0);
	if (!strstr(err, want))
		fail_msg("'%s' does not say '%s'", err, want);
	free(err);
}

static void test_dates(void **state)
{
	(void)state;
	struct offer o;
	good(&o);
	o.as_of = "9999-12-31T00:00:00Z";
	refused(&o, "as_of 9999-12-31T00:00:00Z is in the future");
	good(&o);
	o.as_of = "zzzz";
	refused(&o, "as_of 'zzzz' is not an RFC 3339 UTC date");
	good(&o);
	o.as_of = "2026-02-31T00:00:00Z"; /* no such day */
	refused(&o, "is not an RFC 3339");
	good(&o);
	o.fetched_at = NULL;
	refused(&o, "fetched_at '' is not");
	good(&o);
	o.fetched_at = "";
	refused(&o, "fetched_at '' is not");
	/* within the skew is now; a minute past it is the future */
	assert_true(ingest_date("2026-12-02T12:10:00Z", NOW) > 0);
	assert_int_equal(ingest_date("2026-12-02T12:11:00Z", NOW), -2);
	assert_int_equal(ingest_date("2026-12-02", NOW), -1);
}

static void test_provider_source_and_text(void **state)
{
	(void)state;
	struct ingest door;
	struct ingest_policy p = {NOW, 0, 0, NULL};
	char *err = NULL;
	assert_int_equal(ingest_begin(&door, &p, "evil-corp", 0, &err), GC_EUSAGE);
	assert_non_null(strstr(err, "--new-provider"));
	free(err);
	err = NULL;
	assert_int_equal(ingest_begin(&door, &p, "a-forty-one-letter-provider-id-is-too-long",
				      1, &err), GC_EUSAGE);
	free(err);
	p.new_provider = 1;
	assert_int_equal(ingest_begin(&door, &p, "evil-corp", 0, NULL), GC_OK);
	struct offer o;
	good(&o);
	o.provider = "runpod";
	refused(&o, "an offer of 'runpod' among lambda's");
	good(&o);
	o.source = "live\x1b]0;owned\x07";
	refused(&o, "source 'live?]0;owned?' is none of");
	good(&o);
	o.sku = NULL;
	refused(&o, "no sku");
	/* text is cleaned, the row kept */
	good(&o);
	o.sku = "gpu\x1b[31m_8x";
	struct offer out;
	struct offer_text t;
	struct ingest_stats s;
	int keep;
	assert_int_equal(pass(&p, &o, &out, &t, &keep, &s, NULL), GC_OK);
	assert_int_equal(keep, 1);
	assert_string_equal(out.sku, "gpu?[31m_8x");
	assert_int_equal(s.cleaned, 1);
}

/* fill: `n` good offers of lambda, the first with `sku`. */
struct fill {
	int n;
	const char *sku;
};

static enum gc_status fill(void *arg, offer_cb cb, void *ctx, char **err)
{
	const struct fill *f = arg;
	enum gc_status st = GC_OK;
	for (int i = 0; st == GC_OK && i < f->n; i++) {
		struct offer o;
		char sku[32];
		good(&o);
		snprintf(sku, sizeof sku, "sku-%d", i);
		o.sku = i == 0 && f->sku ? f->sku : sku;
		st = cb(ctx, &o, err);
	}
	return st;
}

static long long scalar(struct cache *c, const char *sql)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(cache_db(c), sql, -1, &s, NULL) != SQLITE_OK)
		fail_msg("%s: %s", sql, sqlite3_errmsg(cache_db(c)));
	long long v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
	sqlite3_finalize(s);
	return v;
}

/* A new cache in memory, seeded, with the store's guard set as refresh
 * sets it. */
static struct cache *open_guarded(void)
{
	struct cache *c = NULL;
	struct cache_open_info info;
	char *err = NULL;
	assert_int_equal(cache_open(&c, NULL, &cat, &info, &err), GC_OK);
	cache_open_info_release(&info);
	cache_set_guard(c, 1, 0);
	return c;
}

/* Through a real store: the record and the provider pass the door too. */
static void test_store_record_and_provider(void **state)
{
	(void)state;
	struct cache *c = open_guarded();
	char *err = NULL;
	struct fill f = {3, NULL};
	struct cache_meta m = {"import", "2026-12-02T10:00:00Z", "\"e\x1b\"", NULL,
			       "failed\x1b]8;;http://x\x07here\xc2\x9b", 0, 0};
	assert_int_equal(cache_store(c, "lambda", &m, fill, &f, NULL, &err), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM provider_state WHERE provider ="
				   " 'lambda' AND last_error = 'failed?]8;;http://x?here?'"
				   " AND etag = '\"e?\"'"), 1);
	/* a record from the future, or of no source, is refused whole */
	m.fetched_at = "9999-01-01T00:00:00Z";
	assert_int_equal(cache_store(c, "lambda", &m, fill, &f, NULL, &err), GC_EDATA);
	assert_non_null(strstr(err, "in the future"));
	free(err);
	err = NULL;
	m.fetched_at = "2026-12-02T10:00:00Z";
	m.source = "zzzz";
	assert_int_equal(cache_store(c, "lambda", &m, fill, &f, NULL, &err), GC_EDATA);
	free(err);
	err = NULL;
	/* an id without a profile, unless the writer confirms it */
	m.source = "import";
	assert_int_equal(cache_store(c, "evil-corp", &m, fill, &f, NULL, &err), GC_EUSAGE);
	free(err);
	err = NULL;
	assert_int_equal(cache_has_provider(c, "evil-corp"), 0);
	/* a row past the cap refuses the store; the old offers stay */
	cache_set_ingest(c, 0, 2);
	assert_int_equal(cache_store(c, "lambda", &m, fill, &f, NULL, &err), GC_EDATA);
	free(err);
	err = NULL;
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer WHERE provider = 'lambda'"), 3);
	struct ingest_stats s;
	cache_ingest_stats(c, &s);
	assert_int_equal(s.rows, 3);
	cache_set_ingest(c, 0, 0);
	cache_close(c);
}

static void test_cap_counts_rows(void **state)
{
	(void)state;
	struct ingest door;
	struct ingest_policy p = {NOW, 3, 0, NULL};
	struct offer o, out;
	struct offer_text t;
	int keep;
	char *err = NULL;
	assert_int_equal(ingest_begin(&door, &p, "lambda", 1, NULL), GC_OK);
	good(&o);
	o.gpu_count = -1; /* dropped rows count too: the cap is on rows read */
	for (int i = 0; i < 3; i++)
		assert_int_equal(ingest_offer(&door, &o, &out, &t, &keep, &err), GC_OK);
	assert_int_equal(ingest_offer(&door, &o, &out, &t, &keep, &err), GC_EDATA);
	assert_non_null(strstr(err, "more than 3 offers"));
	free(err);
}

/* A committed price through the door alone: its reason, or NULL (its
 * cleaned text in a buffer that outlives the call, as the door's caller
 * keeps one). */
static struct offer_text commit_text;

static const char *commit_why(const struct offer *o, const struct offer_commit *c,
			      const struct offer_commit *prev, size_t n, struct offer_commit *out)
{
	struct ingest door;
	struct ingest_policy p = {NOW, 0, 0, NULL};
	const char *why = "unset";
	assert_int_equal(ingest_begin(&door, &p, "lambda", 1, NULL), GC_OK);
	int keep = ingest_commit(&door, o, c, prev, n, out, &commit_text, &why);
	assert_int_equal(keep, why == NULL);
	assert_int_equal(door.s.commits_refused, !keep);
	assert_int_equal(door.s.commits, keep);
	return why;
}

/* The hostile committed prices: each refused with its named reason. */
static void test_commits_hostile(void **state)
{
	(void)state;
	struct offer o;
	struct offer_commit out;
	good(&o); /* on-demand 23.92 */
	const struct offer_commit ok = {"reserved", 12, 15.0, "https://x.example/p", NULL};
	assert_null(commit_why(&o, &ok, NULL, 0, &out));
	assert_string_equal(out.origin, "https://x.example/p");
	assert_string_equal(out.as_of, o.as_of); /* the offer's date */
	static const struct {
		struct offer_commit c;
		const char *why;
	} bad[] = {
		{{"reserverd", 12, 15.0, NULL, NULL}, "type"},
		{{NULL, 12, 15.0, NULL, NULL}, "type"},
		{{"on_demand", 0, 15.0, NULL, NULL}, "type"},
		{{"reserved", 0, 15.0, NULL, NULL}, "term"},
		{{"reserved", 13, 15.0, NULL, NULL}, "term"},
		{{"reserved", -12, 15.0, NULL, NULL}, "term"},
		{{"reserved", 2147483647, 15.0, NULL, NULL}, "term"},
		{{"capacity_block", 7, 15.0, NULL, NULL}, "term"},
		{{"reserved", 12, NAN, NULL, NULL}, "price"},
		{{"reserved", 12, -15.0, NULL, NULL}, "price"},
		{{"reserved", 12, 0.0, NULL, NULL}, "price"},
		{{"reserved", 12, 1e-300, NULL, NULL}, "price"},
		{{"reserved", 12, INFINITY, NULL, NULL}, "price"},
		/* a reservation at or above on-demand: a misread (a 1-year total
		 * of 209,539 USD taken for an hourly price is far above it) */
		{{"reserved", 12, 23.92, NULL, NULL}, "not below on-demand"},
		{{"reserved", 36, 9000.0, NULL, NULL}, "not below on-demand"},
		{{"capacity_block", 0, 30.0, NULL, NULL}, "not below on-demand"},
		{{"reserved", 12, 15.0, NULL, "9999-01-01T00:00:00Z"}, "date"},
		{{"reserved", 12, 15.0, NULL, "2026-02-30T00:00:00Z"}, "date"},
		{{"reserved", 12, 15.0, NULL, "yesterday"}, "date"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *why = commit_why(&o, &bad[i].c, NULL, 0, &out);
		if (!why || strcmp(why, bad[i].why) != 0)
			fail_msg("case %zu: '%s', expected '%s'", i, why ? why : "(kept)",
				 bad[i].why);
	}
	/* a second price of the same type and term; another term is another */
	assert_string_equal(commit_why(&o, &ok, &ok, 1, &out), "duplicate");
	const struct offer_commit three = {"reserved", 36, 10.0, NULL, NULL};
	assert_null(commit_why(&o, &three, &ok, 1, &out));
	/* control characters in its origin are cleaned as an offer's text */
	const struct offer_commit esc = {"reserved", 12, 15.0, "https://x\x1b]8;;evil\x07", NULL};
	assert_null(commit_why(&o, &esc, NULL, 0, &out));
	assert_string_equal(out.origin, "https://x?]8;;evil?");
	/* an offer without an on-demand price (spot only) has nothing to be
	 * below: its committed price stands on its own */
	o.price_hr = NAN;
	o.spot_price_hr = 5;
	assert_null(commit_why(&o, &ok, NULL, 0, &out));
}

/* A term's total as a price per hour: 730 hours a month, 8760 a year. */
static void test_term_hourly(void **state)
{
	(void)state;
	assert_float_equal(offer_term_hourly(8760.0, 12), 1.0, 1e-12);
	assert_float_equal(offer_term_hourly(19306.0, 12), 2.203881, 1e-12); /* rounded to 1e-6 */
	assert_float_equal(offer_term_hourly(26280.0, 36), 1.0, 1e-12);
	assert_float_equal(offer_term_hourly(730.0, 1), 1.0, 1e-12);
	assert_true(isnan(offer_term_hourly(8760.0, 0)));
	assert_true(isnan(offer_term_hourly(8760.0, 13)));
	assert_true(isnan(offer_term_hourly(NAN, 12)));
	assert_true(isnan(offer_term_hourly(INFINITY, 12)));
}

#define LAMBDA_COMMITS                                                                      \
	"SELECT count(*) FROM offer_commit k JOIN offer o ON o.id = k.offer"                 \
	" AND o.provider = 'lambda'"

/* Committed prices go in with their offer and out with it. */
static enum gc_status fill_commits(void *arg, offer_cb cb, void *ctx, char **err)
{
	(void)arg;
	const struct offer_commit c[] = {
		{"reserved", 12, 15.0, NULL, NULL},
		{"reserved", 36, 10.0, NULL, NULL},
		{"reserved", 12, 14.0, NULL, NULL}, /* duplicate: refused */
		{"reserved", 12, 99.0, NULL, NULL}, /* above on-demand: refused */
	};
	struct offer o;
	good(&o);
	o.commits = c;
	o.ncommits = sizeof c / sizeof *c;
	return cb(ctx, &o, err);
}

static void test_store_commits(void **state)
{
	(void)state;
	struct cache *c = open_guarded();
	char *err = NULL;
	struct cache_meta m = {"import", "2026-12-02T10:00:00Z", NULL, NULL, NULL, 0, 0};
	/* the seed's list prices have their own (Civo's commitments): count
	 * lambda's, and the whole table against its count before */
	long long seeded = scalar(c, "SELECT count(*) FROM offer_commit");
	assert_true(seeded > 0);
	assert_int_equal(cache_store(c, "lambda", &m, fill_commits, NULL, NULL, &err), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer_commit"), seeded + 2);
	assert_int_equal(scalar(c, LAMBDA_COMMITS), 2);
	struct ingest_stats s;
	cache_ingest_stats(c, &s);
	assert_int_equal(s.commits, 2);
	assert_int_equal(s.commits_refused, 2);
	/* the next load replaces them with its own */
	assert_int_equal(cache_store(c, "lambda", &m, fill_commits, NULL, NULL, &err), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer_commit"), seeded + 2);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer_commit k WHERE NOT EXISTS"
				   " (SELECT 1 FROM offer o WHERE o.id = k.offer)"), 0);
	/* a load without them leaves none of lambda's, the others' stay */
	struct fill f = {1, NULL};
	assert_int_equal(cache_store(c, "lambda", &m, fill, &f, NULL, &err), GC_OK);
	assert_int_equal(scalar(c, LAMBDA_COMMITS), 0);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer_commit"), seeded);
	/* cache clear of the provider that has them: gone with its offers */
	size_t removed, restored;
	assert_int_equal(cache_clear(c, &cat, "civo", &removed, &restored, &err), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer_commit"), seeded);
	assert_int_equal(cache_clear(c, &cat, NULL, &removed, &restored, &err), GC_OK);
	assert_int_equal(scalar(c, "SELECT count(*) FROM offer_commit"), seeded);
	cache_close(c);
}

/* Every text column has a buffer to be cleaned into (offer_clean). */
/* A catalog or the snapshot lists what is sold, not what is in stock: its
 * stock is unknown whatever the row says; an import, a pull or a live
 * answer keeps what it says. */
static void test_stock_of_a_catalog(void **state)
{
	(void)state;
	struct ingest_policy p = {NOW, 0, 0, NULL};
	static const char *const sources[] = {"catalog", "snapshot", "import", "live"};
	static const int want[] = {-1, -1, 1, 0};
	for (size_t i = 0; i < 4; i++) {
		struct offer o, out;
		struct offer_text t;
		int keep = 0;
		good(&o);
		o.source = sources[i];
		o.available = want[i] == 0 ? 0 : 1;
		assert_int_equal(pass(&p, &o, &out, &t, &keep, NULL, NULL), GC_OK);
		assert_true(keep);
		assert_int_equal(out.available, want[i]);
	}
}

static void test_column_table(void **state)
{
	(void)state;
	size_t texts = 0;
	for (size_t i = 0; i < offer_ncols; i++) {
		texts += offer_cols[i].kind == OFFER_TEXT;
		if (offer_cols[i].kind == OFFER_NUM)
			assert_true(offer_cols[i].lo <= offer_cols[i].hi);
	}
	assert_int_equal(texts, OFFER_NTEXT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_column_table),
		cmocka_unit_test(test_stock_of_a_catalog),
		cmocka_unit_test(test_commits_hostile),
		cmocka_unit_test(test_term_hourly),
		cmocka_unit_test(test_store_commits),
		cmocka_unit_test(test_numbers_by_the_table),
		cmocka_unit_test(test_words_and_currency),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_provider_source_and_text),
		cmocka_unit_test(test_cap_counts_rows),
		cmocka_unit_test(test_store_record_and_provider),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
