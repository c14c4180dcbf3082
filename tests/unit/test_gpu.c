/* test_gpu.c - the GPU model table and name normalization. */
#include "testutil.h"

#include <math.h>

#include "gpucmp/gpu.h"
#include "gpucmp/gpu_spec.h"

static struct gpu_table *table;

static int setup(void **state)
{
	(void)state;
	return load_shipped_tables(&table, NULL);
}

static int teardown(void **state)
{
	(void)state;
	gpu_table_free(table);
	return 0;
}

static void test_table_size(void **state)
{
	(void)state;
	assert_true(gpu_table_count(table) >= 40);
	size_t amd = 0, mig = 0;
	for (size_t i = 0; i < gpu_table_count(table); i++) {
		amd += strcmp(gpu_table_at(table, i)->vendor, "amd") == 0;
		mig += gpu_table_at(table, i)->mig > 0;
	}
	assert_true(amd >= 4);
	assert_true(mig >= 8);
}

/* Every id, name and alias in the table resolves to its own model. */
static void test_every_alias(void **state)
{
	(void)state;
	size_t checked = 0;
	for (size_t i = 0; i < gpu_table_count(table); i++) {
		const struct gpu_model *m = gpu_table_at(table, i);
		const struct gpu_model *got = gpu_normalize(table, m->id, 0, NULL);
		if (got != m)
			fail_msg("id %s -> %s", m->id, got ? got->id : "NULL");
		got = gpu_normalize(table, m->name, 0, NULL);
		if (got != m)
			fail_msg("name '%s' -> %s, want %s", m->name, got ? got->id : "NULL",
				 m->id);
		for (size_t a = 0; a < m->naliases; a++) {
			got = gpu_normalize(table, m->aliases[a], 0, NULL);
			if (got != m)
				fail_msg("alias '%s' -> %s, want %s", m->aliases[a],
					 got ? got->id : "NULL", m->id);
			checked++;
		}
	}
	assert_true(checked > 100);
}

/* Spellings from the reference catalogs and APIs, with the hints the
 * importers pass (memory per GPU, instance type). */
static void test_catalog_spellings(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		double mem;
		const char *sku, *want;
	} cases[] = {
		{"A100", 40, NULL, "a100-sxm-40gb"},
		{"A100", 80, NULL, "a100-sxm-80gb"},
		{"A100", 0, NULL, "a100-sxm-40gb"},
		{"A100-80GB", 0, NULL, "a100-sxm-80gb"},
		{"A100 SXM4", 80, NULL, "a100-sxm-80gb"},
		{"A100_SXM4", 40, NULL, "a100-sxm-40gb"},
		{"A100_PCIE", 40, NULL, "a100-pcie-40gb"},
		{"A100 PCIe", 80, NULL, "a100-pcie-80gb"},
		{"H100", 0, "gpu_1x_h100_pcie", "h100-pcie"},
		{"H100", 0, "gpu_8x_h100_sxm5", "h100-sxm"},
		{"H100", 93.6, NULL, "h100-nvl"},
		{"H100", 79.6, NULL, "h100-sxm"},
		{"H100-MEGA", 80, NULL, "h100-sxm"},
		{"NVIDIA-H100-80GB-HBM3", 79.6, NULL, "h100-sxm"},
		{"NVIDIA H100 80GB HBM3", 0, NULL, "h100-sxm"},
		{"H100 NVL", 0, NULL, "h100-nvl"},
		{"RTX4070", 16, NULL, "rtx-4070-ti-super"},
		{"RTX3060", 8, NULL, "rtx-3060-ti"},
		{"RTX3060", 12, NULL, "rtx-3060"},
		{"RTX_4090", 0, NULL, "rtx-4090"},
		{"NVIDIA GeForce RTX 4090", 0, NULL, "rtx-4090"},
		{"RTX6000", 24, NULL, "quadro-rtx-6000"},
		{"RTX-6000-Ada", 48, NULL, "rtx-6000-ada"},
		{"V100-32GB", 0, NULL, "v100-sxm2-32gb"},
		{"MI300X", 0, NULL, "mi300x"},
		{"amd_mi300x", 0, NULL, "mi300x"},
		{"L40S", 45, NULL, "l40s"},
		{"GH200", 96, NULL, "gh200"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct gpu_model *m =
			gpu_normalize(table, cases[i].name, cases[i].mem, cases[i].sku);
		if (!m || strcmp(m->id, cases[i].want) != 0)
			fail_msg("'%s' (%g GB, %s) -> %s, want %s", cases[i].name, cases[i].mem,
				 cases[i].sku ? cases[i].sku : "-", m ? m->id : "NULL",
				 cases[i].want);
	}
}

static void test_unknown_names(void **state)
{
	(void)state;
	assert_null(gpu_normalize(table, "Voodoo 5 6000", 0, NULL));
	assert_null(gpu_normalize(table, "", 0, NULL));
	assert_null(gpu_normalize(table, "---", 0, NULL));
	assert_null(gpu_normalize(table, NULL, 0, NULL));
	/* a family name followed by an unrecognised word is not that family */
	assert_null(gpu_normalize(table, "A100 Turbo", 0, NULL));
	assert_null(gpu_normalize(table, "tpu-v5p-8", 0, NULL));
	/* words longer together than any family key (found by fuzzing: the
	 * key built from them overflowed its buffer) */
	const char *w = "abcdefghijabcdefghijabcdefghijabcdefghij ";
	char longname[7 * 41 + 1] = "";
	for (int i = 0; i < 7; i++)
		memcpy(longname + i * 41, w, 42);
	assert_null(gpu_normalize(table, longname, 0, NULL));
}

static void test_match_family_and_model(void **state)
{
	(void)state;
	const char *ids[16];
	size_t n = gpu_match(table, "h100", ids, 16);
	assert_int_equal(n, 3);
	int sxm = 0, pcie = 0, nvl = 0;
	for (size_t i = 0; i < n; i++) {
		sxm += strcmp(ids[i], "h100-sxm") == 0;
		pcie += strcmp(ids[i], "h100-pcie") == 0;
		nvl += strcmp(ids[i], "h100-nvl") == 0;
	}
	assert_true(sxm && pcie && nvl);
	n = gpu_match(table, "h100-sxm", ids, 16);
	assert_int_equal(n, 1);
	assert_string_equal(ids[0], "h100-sxm");
	assert_int_equal(gpu_match(table, "H100 SXM", ids, 16), 1);
	assert_int_equal(gpu_match(table, "A100", ids, 16), 4);
	assert_int_equal(gpu_match(table, "nope", ids, 16), 0);
	assert_int_equal(gpu_match(table, "h100", ids, 2), 2); /* respects max */
	assert_string_equal(gpu_suggest(table, "h10"), "h100");
	assert_null(gpu_suggest(table, "completely-different"));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ids sorted and joined with ' ', into out. */
static void join_ids(const char **ids, size_t got, char *out, size_t n)
{
	qsort(ids, got, sizeof ids[0], cmp_str);
	size_t o = 0;
	out[0] = '\0';
	for (size_t i = 0; i < got && o < n; i++)
		o += (size_t)snprintf(out + o, n - o, "%s%s", i ? " " : "", ids[i]);
}

/* The ids of `word`, sorted and joined, into out. */
static void match_text(const char *word, char *out, size_t n)
{
	const char *ids[GPU_SPEC_MAX];
	join_ids(ids, gpu_match(table, word, ids, GPU_SPEC_MAX), out, n);
}

/* Every model the words fit (issue 15): form-factor and memory words keep
 * each model of the family they fit, an id one model, a bare model number
 * the one family that has it. */
static void test_match_every_variant(void **state)
{
	(void)state;
	static const struct {
		const char *word, *want;
	} cases[] = {
		{"a100-pcie", "a100-pcie-40gb a100-pcie-80gb"},
		{"a100-80gb", "a100-pcie-80gb a100-sxm-80gb"},
		{"A100 80GB", "a100-pcie-80gb a100-sxm-80gb"},
		{"h100 80gb", "h100-pcie h100-sxm"},
		{"h100 94gb", "h100-nvl"},
		{"h100-pcie", "h100-pcie"},
		{"H100 NVL", "h100-nvl"},
		{"a100 sxm", "a100-sxm-40gb a100-sxm-80gb"},
		{"rtx4090", "rtx-4090"},
		{"4090", "rtx-4090"},
		{"3090", "rtx-3090 rtx-3090-ti"},
		{"RTX 4070 Ti", "rtx-4070-ti"},
		{"6000", ""},       /* three families: ambiguous */
		{"h100 40gb", ""},  /* no H100 has 40 GB */
		{"100", ""},
	};
	char got[512];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		match_text(cases[i].word, got, sizeof got);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("'%s' -> '%s', want '%s'", cases[i].word, got, cases[i].want);
	}
	const char *near[3];
	assert_int_equal(gpu_nearest(table, "6000", near, 3), 3);
	assert_string_equal(near[0], "rtx-pro-6000");
	assert_int_equal(gpu_nearest(table, "h100-smx", near, 3) >= 1, 1);
	assert_string_equal(near[0], "h100-sxm");
}

/* gpu_spec_add on `text`: its status, ids (sorted) and count range. */
static enum gc_status spec_text(const char *text, char *out, size_t n, double *lo, double *hi,
				char **err)
{
	struct gpu_spec s;
	gpu_spec_init(&s);
	enum gc_status st = gpu_spec_add(table, text, &s, err);
	join_ids(s.ids, s.nids, out, n);
	*lo = s.min_count;
	*hi = s.max_count;
	return st;
}

static void test_spec_grammar(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
		double lo, hi; /* -1: NAN */
	} cases[] = {
		{"H100:8", "h100-nvl h100-pcie h100-sxm", 8, 8},
		{"h100:8..", "h100-nvl h100-pcie h100-sxm", 8, -1},
		{"h100:2..4", "h100-nvl h100-pcie h100-sxm", 2, 4},
		{"A100:80GB", "a100-pcie-80gb a100-sxm-80gb", -1, -1},
		{"A100:80GB:8", "a100-pcie-80gb a100-sxm-80gb", 8, 8},
		{"a100:8:80GB", "a100-pcie-80gb a100-sxm-80gb", 8, 8},
		{"h100,a100:80GB", "a100-pcie-80gb a100-sxm-80gb h100-pcie h100-sxm", -1, -1},
		{"h100:8,h200:8", "h100-nvl h100-pcie h100-sxm h200 h200-nvl", 8, 8},
		{" 4090 , rtx 3060 ti ", "rtx-3060-ti rtx-4090", -1, -1},
		{"amd:190GB..200GB", "mi300x", -1, -1},
		{"nvidia:141GB", "h200 h200-nvl", -1, -1},
	};
	char got[2048], *err = NULL;
	double lo, hi;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum gc_status st = spec_text(cases[i].text, got, sizeof got, &lo, &hi, &err);
		if (st != GC_OK)
			fail_msg("'%s': %s", cases[i].text, err ? err : "?");
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("'%s' -> '%s', want '%s'", cases[i].text, got, cases[i].want);
		assert_true(cases[i].lo < 0 ? isnan(lo) : lo == cases[i].lo);
		assert_true(cases[i].hi < 0 ? isnan(hi) : hi == cases[i].hi);
	}
	/* a memory range alone: every model in it, none outside */
	assert_int_equal(spec_text("24GB..80GB", got, sizeof got, &lo, &hi, &err), GC_OK);
	assert_non_null(strstr(got, "rtx-4090"));
	assert_non_null(strstr(got, "h100-sxm"));
	assert_null(strstr(got, "h100-nvl"));
	assert_null(strstr(got, "t4"));
}

static void test_spec_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"h10", "unknown GPU 'h10'; did you mean 'h100'"},
		{"6000", "did you mean 'rtx-pro-6000', 'rtx-6000-ada' or 'quadro-rtx-6000'?"},
		{"zzzzzz", "unknown GPU 'zzzzzz'; 'gpucmp gpus' lists the known ones"},
		{"h100:40GB", "no GPU model fits 'h100:40GB'"},
		{"h100:0", "bad GPU count '0'"},
		{"h100:1.5", "bad GPU count '1.5'"},
		{"h100:8..2", "bad GPU count '8..2'"},
		{"h100:80GB..40GB", "bad memory '80GB..40GB'"},
		{"h100:80$", "bad memory '80$'"},
		{"h100:8,a100:4", "two GPU counts"},
		{"h100:80GB,a100:40GB", "two memory sizes"},
		{"nvidia:amd", "two vendors"},
		{"h100::8", "empty name"},
		{"", "empty --gpu value"},
	};
	char got[2048], *err = NULL;
	double lo, hi;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum gc_status st = spec_text(cases[i].text, got, sizeof got, &lo, &hi, &err);
		if (st != GC_EUSAGE || !err || !strstr(err, cases[i].want))
			fail_msg("'%s': status %d, '%s', want '%s'", cases[i].text, (int)st,
				 err ? err : "", cases[i].want);
		free(err);
		err = NULL;
	}
	/* two --gpu values: models add up, the count must agree */
	struct gpu_spec s;
	gpu_spec_init(&s);
	assert_int_equal(gpu_spec_add(table, "h100:8", &s, &err), GC_OK);
	assert_int_equal(gpu_spec_add(table, "4090", &s, &err), GC_OK);
	assert_int_equal(s.nids, 4);
	assert_int_equal(gpu_spec_add(table, "l4:2", &s, &err), GC_EUSAGE);
	free(err);
}

static void test_mig_capability(void **state)
{
	(void)state;
	static const struct {
		const char *id;
		int mig;
	} cases[] = {{"a100-sxm-80gb", 7}, {"a30", 4}, {"h100-sxm", 7}, {"h200", 7},
		     {"b200", 7}, {"t4", 0}, {"l4", 0}, {"l40s", 0}, {"a10", 0},
		     {"v100-sxm2-16gb", 0}, {"rtx-4090", 0}, {"rtx-pro-6000", 4}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct gpu_model *m = gpu_find(table, cases[i].id);
		assert_non_null(m);
		if (m->mig != cases[i].mig)
			fail_msg("%s: mig %d, want %d", cases[i].id, m->mig, cases[i].mig);
	}
}

/* The parts on NVIDIA's NVSwitch baseboard list, and some that are not. */
static void test_nvswitch_board(void **state)
{
	(void)state;
	static const struct {
		const char *id;
		int board;
	} cases[] = {{"a100-sxm-40gb", 8}, {"a100-sxm-80gb", 8}, {"h100-sxm", 8}, {"h200", 8},
		     {"b200", 8}, {"b300", 8}, {"h20", 0}, {"v100-sxm2-16gb", 0},
		     {"h100-pcie", 0}, {"gb200", 0}, {"mi300x", 0}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct gpu_model *m = gpu_find(table, cases[i].id);
		assert_non_null(m);
		if (m->nvswitch_board != cases[i].board)
			fail_msg("%s: nvswitch_board %d, want %d", cases[i].id, m->nvswitch_board,
				 cases[i].board);
	}
}

/* Broken tables: each error names the file and line. */
/* gpu_infer: the id, then the name; a slice's share of the memory; and the
 * by_total rule (count and model from the memory of all the GPUs). */
static void test_infer(void **state)
{
	(void)state;
	struct gpu_guess g;
	struct gpu_hint h = {.name = "nvidia-rtx-pro-6000", .count = 0.125, .mem_gb = NAN};
	gpu_infer(table, &h, &g);
	assert_string_equal(g.model->id, "rtx-pro-6000");
	assert_true(g.count == 0.125 && g.mem_gb == 12);
	h = (struct gpu_hint){.name = "nonsense", .id = "h100-sxm", .count = 8, .mem_gb = 70};
	gpu_infer(table, &h, &g);
	assert_string_equal(g.model->id, "h100-sxm");
	assert_true(g.count == 8 && g.mem_gb == 70); /* what the source says stays */
	h = (struct gpu_hint){.name = "nonsense", .count = NAN, .mem_gb = NAN};
	gpu_infer(table, &h, &g);
	assert_null(g.model);
	assert_true(isnan(g.count) && isnan(g.mem_gb));
	/* Vultr's plans: 40 GB of A100 is half an 80 GB card, 320 GB four */
	h = (struct gpu_hint){.name = "NVIDIA_A100", .count = NAN, .by_total = 1, .total_gb = 40};
	gpu_infer(table, &h, &g);
	assert_string_equal(g.model->id, "a100-sxm-80gb");
	assert_true(g.count == 0.5 && g.mem_gb == 40);
	h.total_gb = 320;
	gpu_infer(table, &h, &g);
	assert_true(g.count == 4 && g.mem_gb == 80);
	h.total_gb = 96; /* two L40S */
	h.name = "NVIDIA_L40S";
	gpu_infer(table, &h, &g);
	assert_string_equal(g.model->id, "l40s");
	assert_true(g.count == 2 && g.mem_gb == 48);
	h.count = 3; /* a count given divides the total */
	gpu_infer(table, &h, &g);
	assert_true(g.count == 3 && g.mem_gb == 32);
	h = (struct gpu_hint){.name = "NVIDIA_A100", .count = NAN, .by_total = 1, .total_gb = NAN};
	gpu_infer(NULL, &h, &g); /* no table: one GPU of unknown memory */
	assert_true(!g.model && g.count == 1 && isnan(g.mem_gb));
}

static void test_bad_tables(void **state)
{
	(void)state;
	static const char head[] = "gpus:\n";
	static const char ok_a[] =
		"  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		" form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https:"
		"//x.y/a}\n";
	static const struct {
		int with_a; /* prepend the valid model 'a' */
		const char *body, *want;
	} cases[] = {
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " colour: red}\n",
		 "t.yaml:2: unknown key 'colour'"},
		{0,
		 "  - {id: B, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https:"
		 "//x.y/a}\n",
		 "must be lowercase"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 9, nvlink: no, bf16_tflops: null, source: https:"
		 "//x.y/a}\n",
		 "'mig' must be a whole number"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: lots,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https:"
		 "//x.y/a}\n",
		 "'memory_gb' must be a non-negative number"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: maybe, bf16_tflops: null, source: https:"
		 "//x.y/a}\n",
		 "bad nvlink 'maybe'"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https:"
		 "//x.y/a}\n"
		 "  - {id: a, family: a, vendor: nvidia, name: A2, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https:"
		 "//x.y/a}\n",
		 "t.yaml:3: duplicate GPU id 'a'"},
		{1,
		 "  - {id: b, family: b, vendor: nvidia, name: B, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " aliases: [\"A_\"]}\n",
		 "already used by 'a'"},
		{1,
		 "  - {id: b, family: a, vendor: nvidia, name: B, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https:"
		 "//x.y/a}\n",
		 "family 'a' needs exactly one 'default: true'"},
		{1,
		 "  - {id: b, family: b, vendor: nvidia, name: B, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: not-a-url}\n",
		 "source must be a URL"},
		{1, "  - [not, a, mapping]\n", "expected a mapping"},
		/* the value-per-dollar figures: numbers, with the URL they came from */
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " fp8_tflops: -3, specs_source: https://x.y/s}\n",
		 "'fp8_tflops' must be a non-negative number or null"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " memory_bandwidth_tbs: fast, specs_source: https://x.y/s}\n",
		 "'memory_bandwidth_tbs' must be a non-negative number or null"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " memory_bandwidth_tbs: 2}\n",
		 "need 'specs_source'"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " fp8_tflops: 1, specs_source: datasheet}\n",
		 "specs_source must be a URL"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: sxm, mig: 0, nvlink: yes, bf16_tflops: null, source: https://x.y/a,"
		 " nvswitch_board: 1}\n",
		 "'nvswitch_board' must be a whole number of GPUs from 2 to 1024"},
		{0,
		 "  - {id: a, family: a, vendor: nvidia, name: A, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: bridge, bf16_tflops: null, source: https:"
		 "//x.y/a, nvswitch_board: 8}\n",
		 "'nvswitch_board' needs 'nvlink: yes'"},
		/* keys of one model twice (a, b) sort before the clash (zz) */
		{1,
		 "  - {id: b, family: b, vendor: nvidia, name: B, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " aliases: [zz]}\n"
		 "  - {id: c, family: c, vendor: nvidia, name: C, architecture: x, memory_gb: 1,"
		 " form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null, source: https://x.y/a,"
		 " aliases: [\"z z\"]}\n",
		 "'z z' of 'c' folds to 'zz', already used by 'b'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char doc[1024];
		snprintf(doc, sizeof doc, "%s%s%s", head, cases[i].with_a ? ok_a : "",
			 cases[i].body);
		struct gpu_table *t = NULL;
		char *err = NULL;
		assert_int_equal(gpu_table_load(&t, "t.yaml", doc, strlen(doc), &err), GC_EDATA);
		assert_null(t);
		assert_non_null(err);
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: '%s' does not contain '%s'", i, err, cases[i].want);
		free(err);
	}
	char *err = NULL;
	struct gpu_table *t = NULL;
	assert_int_equal(gpu_table_load(&t, "t.yaml", "gpus: [", 7, &err), GC_EDATA);
	assert_non_null(strstr(err, "t.yaml:"));
	free(err);
}

/* The shipped table's FP8 and bandwidth figures (docs/GPUS.md): read,
 * sourced, null where the GPU has no FP8, absent where unconfirmed. */
static void test_value_specs(void **state)
{
	(void)state;
	const struct gpu_model *h = gpu_find(table, "h100-sxm");
	assert_non_null(h);
	assert_true(h->fp8_tflops == 1979 && h->memory_bandwidth_tbs == 3.35);
	assert_non_null(h->specs_source);
	assert_true(strncmp(h->specs_source, "https://", 8) == 0);
	const struct gpu_model *a = gpu_find(table, "a100-sxm-80gb");
	assert_non_null(a);
	assert_true(isnan(a->fp8_tflops) && a->memory_bandwidth_tbs == 2.039);
	const struct gpu_model *m = gpu_find(table, "mi325x");
	assert_non_null(m);
	assert_true(m->fp8_tflops == 2614.9 && m->memory_bandwidth_tbs == 6);
	const struct gpu_model *v = gpu_find(table, "v100-sxm2-16gb");
	assert_non_null(v);
	assert_true(isnan(v->fp8_tflops) && isnan(v->memory_bandwidth_tbs));
	assert_null(v->specs_source);
	/* every value names its source */
	for (size_t i = 0; i < gpu_table_count(table); i++) {
		const struct gpu_model *g = gpu_table_at(table, i);
		if (!isnan(g->fp8_tflops) || !isnan(g->memory_bandwidth_tbs))
			assert_non_null(g->specs_source);
	}
	/* a figure given, the other null (unknown) */
	static const char doc[] =
		"gpus:\n  - {id: a, family: a, vendor: nvidia, name: A, architecture: x,"
		" memory_gb: 1, form_factor: pcie, mig: 0, nvlink: no, bf16_tflops: null,"
		" source: https://x.y/a, fp8_tflops: 12.5, memory_bandwidth_tbs: null,"
		" specs_source: https://x.y/s}\n";
	struct gpu_table *t = NULL;
	char *err = NULL;
	assert_int_equal(gpu_table_load(&t, "t.yaml", doc, strlen(doc), &err), GC_OK);
	const struct gpu_model *g = gpu_table_at(t, 0);
	assert_true(g->fp8_tflops == 12.5 && isnan(g->memory_bandwidth_tbs));
	assert_string_equal(g->specs_source, "https://x.y/s");
	gpu_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_size),
		cmocka_unit_test(test_every_alias),
		cmocka_unit_test(test_catalog_spellings),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_match_family_and_model),
		cmocka_unit_test(test_match_every_variant),
		cmocka_unit_test(test_spec_grammar),
		cmocka_unit_test(test_spec_errors),
		cmocka_unit_test(test_mig_capability),
		cmocka_unit_test(test_nvswitch_board),
		cmocka_unit_test(test_infer),
		cmocka_unit_test(test_bad_tables),
		cmocka_unit_test(test_value_specs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
