/* test_hosted.c - the hosted catalog tier: id mapping, dates, the gpuhunt
 * reader (from memory, a stream, a zip) and its caps, and each catalog
 * adapter on its fixture files (tests/fixtures/catalogs/, README.md there
 * names their origin).  Zips are written here with libzip. */
#include <math.h>
#include <stdio.h>
#include <zip.h>

#include "testutil.h"

#include "gpucmp/hosted.h"
#include "gpucmp/offerstore.h"
#include "gpucmp/refresh.h"

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

static void test_mapping_both_ways(void **state)
{
	(void)state;
	assert_string_equal(hosted_find("cudo")->skypilot, "cudo");
	assert_string_equal(hosted_find_skypilot("primeintellect")->id, "primeintellect");
	/* v8 has no do, fluidstack or ibm folder: those providers have no
	 * catalog; "do" stays an alias import maps (an older tree has it) */
	assert_null(hosted_find("digitalocean")->skypilot);
	assert_int_equal(hosted_kind_for("digitalocean"), HOSTED_NONE);
	assert_null(hosted_find_skypilot("do"));
	assert_null(hosted_find("fluidstack"));
	assert_null(hosted_find("ibm"));
	assert_int_equal(hosted_kind_for("cloudrift"), HOSTED_GPUHUNT);
	assert_string_equal(hosted_find("lambda")->gpuhunt, "lambdalabs");
	assert_string_equal(hosted_find_gpuhunt("lambdalabs")->id, "lambda");
	assert_null(hosted_find("vast")->gpuhunt); /* online in gpuhunt: not in its catalog */
	assert_null(hosted_find("coreweave"));
	assert_int_equal(hosted_kind_for("aws"), HOSTED_SKYPILOT);
	assert_int_equal(hosted_kind_for("civo"), HOSTED_NONE);
	/* every mapped id is a provider profile, listed once, sorted; each of
	 * its names is an alias of it and of no other */
	for (size_t i = 0; i < hosted_map_count; i++) {
		const struct hosted_map *m = &hosted_maps[i];
		assert_non_null(profile_set_find(&cat.profiles, m->id));
		if (i)
			assert_true(strcmp(hosted_maps[i - 1].id, m->id) < 0);
		const char *names[] = {m->id, m->skypilot, m->gpuhunt, m->other};
		for (size_t k = 0; k < 4; k++)
			if (names[k])
				assert_string_equal(hosted_alias(names[k]), m->id);
	}
}

/* import's aliases: SkyPilot's folders, gpuhunt's names, former names. */
static void test_alias(void **state)
{
	(void)state;
	assert_string_equal(hosted_alias("do"), "digitalocean");
	assert_string_equal(hosted_alias("lambdalabs"), "lambda");
	assert_string_equal(hosted_alias("datacrunch"), "verda");
	assert_string_equal(hosted_alias("vastai"), "vast");
	assert_string_equal(hosted_alias("aws"), "aws");
	assert_null(hosted_alias("aws2"));
	assert_null(hosted_alias("civo")); /* a profile no catalog covers: no alias either */
	assert_null(hosted_alias(NULL));
	/* an alias is never fetched: the refresh tier reads only the catalog columns */
	assert_null(hosted_find_gpuhunt("vastai"));
	assert_null(hosted_find_skypilot("datacrunch"));
}

/* The id map checked against the catalog itself: the folder list of
 * SkyPilot v8 as read (tests/fixtures/catalogs/skypilot-v8-folders.txt,
 * README.md there names origin and date).  A mapped folder that is not in
 * it is a 404 promised to the user; a priced folder (one with vms.csv) that
 * is not mapped is a cloud nobody reads. */
static int folder_priced(const char *list, const char *folder, int *found)
{
	size_t n = strlen(folder);
	*found = 0;
	for (const char *l = list; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		if (*l == '#' || strncmp(l, folder, n) != 0 || (l[n] != ' ' && l[n] != '\n'))
			continue;
		*found = 1;
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		for (const char *p = l; p + 8 <= l + len; p++)
			if (strncmp(p, " vms.csv", 8) == 0)
				return 1;
		return 0;
	}
	return 0;
}

static void test_map_against_v8_folders(void **state)
{
	(void)state;
	size_t len;
	char *list = read_source_file("tests/fixtures/catalogs/skypilot-v8-folders.txt", &len);
	assert_non_null(list);
	int found;
	for (size_t i = 0; i < hosted_map_count; i++) {
		const char *f = hosted_maps[i].skypilot;
		if (!f)
			continue;
		int priced = folder_priced(list, f, &found);
		if (!found || !priced)
			fail_msg("%s maps to SkyPilot folder %s, which v8 %s", hosted_maps[i].id, f,
				 found ? "holds no vms.csv in" : "does not have");
	}
	size_t priced_n = 0;
	for (const char *l = list; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
		char folder[64];
		if (*l == '#' || sscanf(l, "%63s", folder) != 1)
			continue;
		if (!folder_priced(list, folder, &found))
			continue;
		priced_n++;
		if (!hosted_find_skypilot(folder))
			fail_msg("v8 folder %s has a vms.csv but no gpucmp id maps to it", folder);
	}
	assert_true(priced_n >= 20); /* the list was read whole */
	/* the check itself: a folder that is missing, one without prices */
	assert_int_equal(folder_priced(list, "do", &found), 0);
	assert_false(found);
	assert_int_equal(folder_priced(list, "slurm", &found), 0);
	assert_true(found);
	assert_int_equal(folder_priced(list, "yotta", &found), 1);
	free(list);
}

static void test_dates(void **state)
{
	(void)state;
	char out[32];
	assert_int_equal(hosted_version_date("20261130-3", out, sizeof out), 0);
	assert_string_equal(out, "2026-11-30T00:00:00Z");
	assert_int_equal(hosted_version_date("20240229-1", out, sizeof out), 0);
	assert_string_equal(out, "2024-02-29T00:00:00Z");
	/* the shape right, the date none: refused, told apart */
	assert_int_equal(hosted_version_date("20261330-3", out, sizeof out), -2);
	assert_int_equal(hosted_version_date("20260231-1", out, sizeof out), -2);
	assert_int_equal(hosted_version_date("20250229-1", out, sizeof out), -2);
	assert_int_equal(hosted_version_date("20260431-1", out, sizeof out), -2);
	assert_int_equal(hosted_version_date("20260100-1", out, sizeof out), -2);
	assert_int_equal(hosted_version_date("19991231-1", out, sizeof out), -2);
	assert_int_equal(hosted_version_date("20261130", out, sizeof out), -1);
	assert_int_equal(hosted_version_date("20261130-3/../x", out, sizeof out), -1);
	assert_int_equal(hosted_version_date("../../x", out, sizeof out), -1);
	assert_int_equal(hosted_http_date("Tue, 01 Dec 2026 10:00:00 GMT", out, sizeof out), 0);
	assert_string_equal(out, "2026-12-01T10:00:00Z");
	assert_int_equal(hosted_http_date("yesterday", out, sizeof out), -1);
	assert_int_equal(hosted_http_date(NULL, out, sizeof out), -1);
}

/* Each SkyPilot fixture through the catalog adapter, as refresh runs it:
 * offers with source catalog, the provider's id, a price. */
static void test_skypilot_fixtures(void **state)
{
	(void)state;
	static const struct {
		const char *id, *folder;
		size_t min;
	} f[] = {{"aws", "aws", 8},       {"azure", "azure", 10},  {"cudo", "cudo", 7},
		 {"gcp", "gcp", 6},       {"hyperbolic", "hyperbolic", 1}, {"lambda", "lambda", 20},
		 {"mithril", "mithril", 1}, {"nebius", "nebius", 10}, {"oci", "oci", 14},
		 {"runpod", "runpod", 10}, {"vast", "vast", 10},    {"verda", "verda", 10},
		 {"daytona", "daytona", 5}, {"lium", "lium", 7},
		 {"primeintellect", "primeintellect", 8}, {"seeweb", "seeweb", 7},
		 {"shadeform", "shadeform", 8}, {"spheron", "spheron", 7}, {"yotta", "yotta", 8},
		 {"hyperstack", "hyperstack", 7}, {"jarvislabs", "jarvislabs", 6}};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		char rel[128];
		size_t len;
		snprintf(rel, sizeof rel, "tests/fixtures/catalogs/skypilot/%s/vms.csv",
			 f[i].folder);
		char *body = read_source_file(rel, &len);
		assert_non_null(body);
		struct adapter ad;
		hosted_adapter(&ad, f[i].id, HOSTED_SKYPILOT, "http://127.0.0.1:1/v8");
		struct offer_store st;
		offer_store_init(&st);
		char *err = NULL;
		enum gc_status s = refresh_parse_one(&ad, &cat, 0, body, len, offer_store_cb, &st,
						     NULL, &err);
		if (s != GC_OK)
			fail_msg("%s: %s", f[i].id, err ? err : "?");
		if (st.n < f[i].min)
			fail_msg("%s: %zu offers, want at least %zu", f[i].id, st.n, f[i].min);
		for (size_t k = 0; k < st.n; k++) {
			assert_string_equal(st.items[k].source, "catalog");
			assert_string_equal(st.items[k].provider, f[i].id);
			assert_true(offer_price_ok(st.items[k].price_hr) ||
				    offer_price_ok(st.items[k].spot_price_hr));
		}
		offer_store_free(&st);
		free(body);
	}
}

/* One offer of a SkyPilot fixture by SKU and region (the store keeps them). */
static const struct offer *sky_offer(struct offer_store *st, const char *id, const char *sku,
				     const char *region)
{
	char rel[128];
	size_t len;
	snprintf(rel, sizeof rel, "tests/fixtures/catalogs/skypilot/%s/vms.csv", id);
	char *body = read_source_file(rel, &len);
	assert_non_null(body);
	struct adapter ad;
	hosted_adapter(&ad, id, HOSTED_SKYPILOT, "http://127.0.0.1:1/v8");
	offer_store_init(st);
	assert_int_equal(refresh_parse_one(&ad, &cat, 0, body, len, offer_store_cb, st, NULL,
					   NULL), GC_OK);
	free(body);
	for (size_t k = 0; k < st->n; k++)
		if (strcmp(st->items[k].sku, sku) == 0 && strcmp(st->items[k].region, region) == 0)
			return &st->items[k];
	fail_msg("%s: no %s in %s", id, sku, region);
	return NULL;
}

/* The new v8 clouds' unusual values, read as written (issue 22): a spot-only
 * row (Price empty) after extra columns, GpuInfo's SizeInMiB holding GB,
 * SpotPrice before Price, a region with a space, a country as region. */
static void test_skypilot_new_clouds(void **state)
{
	(void)state;
	struct offer_store st;
	const struct offer *o = sky_offer(&st, "spheron", "n3-A100x1-spot__CANADA-1", "CANADA-1");
	assert_true(isnan(o->price_hr));
	assert_float_equal(o->spot_price_hr, 1.1476, 1e-9);
	offer_store_free(&st);
	o = sky_offer(&st, "spheron", "1H100.80S.32V_FIN-03_500", "Finland 3");
	assert_float_equal(o->price_hr, 2.9124, 1e-9);
	assert_float_equal(o->spot_price_hr, 0.8015, 1e-9);
	offer_store_free(&st);
	o = sky_offer(&st, "shadeform", "imwt_A6000", "kansascity-usa-2");
	assert_float_equal(o->gpu_mem_gb, 48, 0.5); /* not 48 MiB */
	offer_store_free(&st);
	o = sky_offer(&st, "yotta", "8x112v952g_NVIDIA_GeForce_RTX_5090_32G_SECURE", "us-east-2");
	assert_float_equal(o->price_hr, 5.2, 1e-9);
	assert_true(isnan(o->spot_price_hr));
	assert_float_equal(o->gpu_count, 8, 0);
	offer_store_free(&st);
	o = sky_offer(&st, "primeintellect", "datacrunch__1xA100_80GB__22__120__SPOT", "FI");
	assert_true(isnan(o->price_hr));
	assert_float_equal(o->spot_price_hr, 0.53, 1e-9);
	offer_store_free(&st);
	o = sky_offer(&st, "daytona", "8x-H100", "earth");
	assert_float_equal(o->spot_price_hr, 27.52, 1e-9);
	offer_store_free(&st);
}

struct tally {
	size_t n;
	const struct offer *last;
	char sku[64];
	double price, spot, mem;
	char as_of[32], gpu[32];
};

static enum gc_status pick_h100(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	struct tally *t = ctx;
	t->n++;
	if (strcmp(o->sku, "1H100.80S.30V") == 0) {
		t->price = o->price_hr;
		t->spot = o->spot_price_hr;
		t->mem = o->gpu_mem_gb;
		snprintf(t->as_of, sizeof t->as_of, "%s", o->as_of ? o->as_of : "");
		snprintf(t->gpu, sizeof t->gpu, "%s", o->gpu ? o->gpu : "");
	}
	return GC_OK;
}

/* gpuhunt rows: on-demand and spot paired, TPUs and CPU rows left out,
 * bad numbers and spot words counted, never guessed. */
static void test_gpuhunt_csv(void **state)
{
	(void)state;
	size_t len;
	char *csv = read_source_file("tests/fixtures/catalogs/gpuhunt/verda.csv", &len);
	assert_non_null(csv);
	struct gpuhunt_opts o = {"verda",
				 cat.gpus,
				 cat.types,
				 "catalog",
				 "t",
				 "2026-12-02T00:00:00Z",
				 "2026-11-30T00:00:00Z",
				 0,
				 0};
	struct gpuhunt_stats s;
	struct tally t;
	memset(&t, 0, sizeof t);
	char *err = NULL;
	assert_int_equal(gpuhunt_parse(csv, len, &o, pick_h100, &t, &s, &err), GC_OK);
	assert_int_equal(t.n, 4);
	assert_int_equal(s.tpu, 1);
	assert_true(t.price == 2.19 && t.spot == 0.99);
	assert_string_equal(t.as_of, "2026-11-30T00:00:00Z");
	assert_true(*t.gpu != '\0');
	free(csv);

	csv = read_source_file("tests/fixtures/catalogs/gpuhunt/azure.csv", &len);
	o.provider = "azure";
	memset(&t, 0, sizeof t);
	assert_int_equal(gpuhunt_parse(csv, len, &o, pick_h100, &t, &s, &err), GC_OK);
	/* A100 eastus (paired), A100 westeurope, T4 westeurope (paired), T4
	 * eastus (spot only), H100, MI300X; the D2s is a CPU, both NC6s_v3
	 * rows are bad (0x10 is not a decimal, "maybe" not True/False) */
	assert_int_equal(t.n, 6);
	assert_int_equal(s.cpu_only, 1);
	assert_int_equal(s.bad_number, 2);
	free(csv);

	static const char *const bad[] = {"", "instance_name,location\n",
					  "a,b\n\"unterminated\n"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		free(err);
		err = NULL;
		assert_int_equal(gpuhunt_parse(bad[i], strlen(bad[i]), &o, pick_h100, &t, &s, &err),
				 GC_EDATA);
		assert_non_null(err);
	}
	free(err);
}

static const struct gpuhunt_opts gh_opts = {"verda", NULL, NULL, "catalog", "t",
					    "2026-12-02T00:00:00Z", "2026-11-30T00:00:00Z", 0, 0};

/* Offers seen, in order, as "sku region price spot" lines. */
struct seen {
	size_t n;
	char text[4096];
};

static enum gc_status see(void *ctx, const struct offer *o, char **err)
{
	(void)err;
	struct seen *t = ctx;
	size_t l = strlen(t->text);
	snprintf(t->text + l, sizeof t->text - l, "%s %s %g %g\n", o->sku, o->region, o->price_hr,
		 o->spot_price_hr);
	t->n++;
	return GC_OK;
}

/* A stream over a buffer in pieces of `step` bytes. */
struct pieces {
	const char *p;
	size_t left, step;
};

static long pieces_read(void *ctx, char *buf, size_t n, char **err)
{
	(void)err;
	struct pieces *c = ctx;
	size_t k = c->left < c->step ? c->left : c->step;
	k = k < n ? k : n;
	memcpy(buf, c->p, k);
	c->p += k;
	c->left -= k;
	return (long)k;
}

/* The stream reader (what refresh runs on a zip) gives what the memory
 * reader gives, whatever the pieces: every record boundary, CRLF, quote
 * and byte-order mark split across two reads. */
static void test_gpuhunt_stream_pieces(void **state)
{
	(void)state;
	static const char *const files[] = {"tests/fixtures/catalogs/gpuhunt/azure.csv",
					    "tests/fixtures/catalogs/gpuhunt/verda.csv"};
	struct gpuhunt_opts o = gh_opts;
	o.gpus = cat.gpus;
	o.types = cat.types;
	for (size_t f = 0; f < 2; f++) {
		size_t len;
		char *csv = read_source_file(files[f], &len);
		assert_non_null(csv);
		struct seen want;
		struct gpuhunt_stats ws, gs;
		memset(&want, 0, sizeof want);
		assert_int_equal(gpuhunt_parse(csv, len, &o, see, &want, &ws, NULL), GC_OK);
		static const size_t steps[] = {1, 2, 3, 5, 7, 64, 100000};
		for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
			struct pieces in = {csv, len, steps[i]};
			struct seen got;
			memset(&got, 0, sizeof got);
			assert_int_equal(gpuhunt_parse_stream(pieces_read, &in, &o, see, &got, &gs,
							      NULL),
					 GC_OK);
			assert_string_equal(got.text, want.text);
			assert_true(memcmp(&gs, &ws, sizeof gs) == 0);
		}
		free(csv);
	}
}

/* An endless catalog: its header, then `row` over and over; counts the
 * bytes it handed out. */
struct endless {
	const char *row;
	size_t at, given;
	int header_done;
};

static const char gh_header[] =
	"instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,"
	"disk_size,gpu_vendor,flags,cpu_arch,provider_data\n";

static long endless_read(void *ctx, char *buf, size_t n, char **err)
{
	(void)err;
	struct endless *e = ctx;
	size_t k = 0;
	while (k < n) {
		const char *src = e->header_done ? e->row : gh_header;
		size_t len = strlen(src), m = len - e->at < n - k ? len - e->at : n - k;
		memcpy(buf + k, src + e->at, m);
		k += m;
		if ((e->at += m) == len) {
			e->at = 0;
			e->header_done = 1;
		}
	}
	e->given += k;
	return (long)k;
}

/* One tiny GPU row repeated without end (issue: a 632 KB zip of it
 * inflated to 250 MiB took 2.5 GB and was stored): refused once more GPU
 * rows than the cap arrive, having read about the cap's worth of rows,
 * emitting nothing.  Under the cap, the repeats are duplicates of one offer. */
static void test_gpuhunt_row_cap(void **state)
{
	(void)state;
	static const char row[] = "1H100.80S.30V,FIN-01,2.19,30,120.0,1,H100,80.0,False,,nvidia,,"
				  "x86,\n";
	struct gpuhunt_opts o = gh_opts;
	o.gpus = cat.gpus;
	o.max_rows = 100000;
	struct endless e = {row, 0, 0, 0};
	struct seen got;
	memset(&got, 0, sizeof got);
	char *err = NULL;
	assert_int_equal(gpuhunt_parse_stream(endless_read, &e, &o, see, &got, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "more than 100000 GPU rows"));
	assert_non_null(strstr(err, "GPUCMP_REFRESH_MAX_OFFERS"));
	assert_int_equal(got.n, 0);
	/* the rows up to the cap and one chunk more: the work follows the cap */
	assert_true(e.given <= 100001 * (sizeof row - 1) + sizeof gh_header + CSV_CHUNK);
	free(err);
	err = NULL;

	/* 50 copies under a cap of 50: one offer, 49 duplicates */
	size_t len = strlen(gh_header) + 50 * (sizeof row - 1);
	char *csv = malloc(len + 1);
	assert_non_null(csv);
	struct endless fill = {row, 0, 0, 0};
	assert_int_equal(endless_read(&fill, csv, len, NULL), (long)len);
	struct gpuhunt_stats s;
	o.max_rows = 50;
	assert_int_equal(gpuhunt_parse(csv, len, &o, see, &got, &s, &err), GC_OK);
	assert_int_equal(got.n, 1);
	assert_int_equal(s.duplicates, 49);
	o.max_rows = 49;
	assert_int_equal(gpuhunt_parse(csv, len, &o, see, &got, &s, &err), GC_EDATA);
	assert_non_null(strstr(err, "more than 49 GPU rows"));
	free(err);
	free(csv);
}

/* Rows the reader does not keep (CPU rows) cost no memory; the bytes read
 * are capped all the same, and GPU rows with names as long as a record
 * allows are held to a cap on their names' bytes. */
static void test_gpuhunt_byte_caps(void **state)
{
	(void)state;
	struct gpuhunt_opts o = gh_opts;
	o.gpus = cat.gpus;
	o.max_bytes = 1 << 20;
	struct endless e = {"Standard_D2s_v3,eastus,0.096,2,8.0,0,,,False,,,,x86,\n", 0, 0, 0};
	char *err = NULL;
	struct gpuhunt_stats s;
	assert_int_equal(gpuhunt_parse_stream(endless_read, &e, &o, see, &(struct seen){0}, &s,
					      &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "over 1048576 bytes"));
	assert_true(e.given <= (1 << 20) + CSV_CHUNK);
	assert_true(s.cpu_only > 10000);
	free(err);
	err = NULL;
	/* memory: the same cap on the length */
	assert_int_equal(gpuhunt_parse("x", 2 << 20, &o, see, &(struct seen){0}, NULL, &err),
			 GC_EDATA);
	free(err);
	err = NULL;

	/* GPU rows whose instance and location are 20,000 bytes each: kept
	 * cut (to GH_NAME_KEEP; offer_clean cuts them further), and the names
	 * of all the rows kept are capped (32 MiB) */
	static char row[41000];
	memset(row, 'a', 20000);
	row[20000] = ',';
	memset(row + 20001, 'l', 20000);
	snprintf(row + 40001, sizeof row - 40001,
		 ",2.19,30,120.0,1,H100,80.0,False,,nvidia,,x86,\n");
	struct endless big = {row, 0, 0, 0};
	o.max_bytes = 0;
	o.max_rows = 0;
	assert_int_equal(gpuhunt_parse_stream(endless_read, &big, &o, see, &(struct seen){0}, &s,
					      &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "names"));
	/* 32 MiB of names at about 2 KB a row (not 40 KB): some 16,000 rows */
	assert_true(s.rows > 15000 && s.rows < 17000);
	free(err);
}

/* A zip of `csv` holding it as `name`, written with libzip; the archive's
 * bytes (new) and length. */
static char *zip_of(const char *name, const char *csv, size_t len, size_t *zlen)
{
	const char *path = scratch_path("gh-test.zip");
	int ze = 0;
	zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &ze);
	assert_non_null(z);
	zip_source_t *src = zip_source_buffer(z, csv, len, 0);
	assert_non_null(src);
	assert_true(zip_file_add(z, name, src, ZIP_FL_OVERWRITE) >= 0);
	assert_int_equal(zip_close(z), 0);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *b = malloc(len + 65536);
	assert_non_null(b);
	*zlen = fread(b, 1, len + 65536, f);
	fclose(f);
	return b;
}

/* The refresh path: a zip member read as a stream, with its caps. */
static void test_gpuhunt_zip(void **state)
{
	(void)state;
	size_t len, zlen;
	char *csv = read_source_file("tests/fixtures/catalogs/gpuhunt/verda.csv", &len);
	char *zip = zip_of("verda.csv", csv, len, &zlen);
	struct gpuhunt_opts o = gh_opts;
	o.gpus = cat.gpus;
	o.max_rows = 10;
	o.max_bytes = 1 << 20;
	struct seen got;
	memset(&got, 0, sizeof got);
	char *err = NULL;
	assert_int_equal(gpuhunt_parse_zip(zip, zlen, "verda.csv", &o, see, &got, NULL, &err),
			 GC_OK);
	assert_int_equal(got.n, 4);
	assert_non_null(strstr(got.text, "1H100.80S.30V FIN-01 2.19 0.99\n"));
	assert_int_equal(gpuhunt_parse_zip(zip, zlen, "aws.csv", &o, see, &got, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "the zip holds no 'aws.csv'"));
	free(err);
	err = NULL;
	o.max_bytes = 100; /* its declared size is over: refused before inflating */
	assert_int_equal(gpuhunt_parse_zip(zip, zlen, "verda.csv", &o, see, &got, NULL, &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "over 100 bytes"));
	free(err);
	err = NULL;
	assert_int_equal(gpuhunt_parse_zip("PK\x03\x04garbage", 11, "x.csv", &o, see, &got, NULL,
					   &err),
			 GC_EDATA);
	assert_non_null(strstr(err, "not a zip archive"));
	free(err);
	err = NULL;
	assert_int_equal(gpuhunt_parse_zip("", 0, "x.csv", &o, see, &got, NULL, &err), GC_EDATA);
	free(err);
	free(zip);
	free(csv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping_both_ways), cmocka_unit_test(test_alias),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_map_against_v8_folders),
		cmocka_unit_test(test_skypilot_new_clouds),
		cmocka_unit_test(test_skypilot_fixtures),
		cmocka_unit_test(test_gpuhunt_csv),
		cmocka_unit_test(test_gpuhunt_stream_pieces),
		cmocka_unit_test(test_gpuhunt_row_cap),
		cmocka_unit_test(test_gpuhunt_byte_caps),
		cmocka_unit_test(test_gpuhunt_zip),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
