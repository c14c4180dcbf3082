/* cmd_gpus.c - gpucmp gpus: the GPU model table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/gpu_spec.h"

enum { G_ID, G_FAMILY, G_VENDOR, G_NAME, G_ARCH, G_MEMORY, G_FORM, G_MIG, G_NVLINK, G_TFLOPS,
       G_SOURCE, G_ALIASES, G_FP8, G_BANDWIDTH, G_SPECS_SOURCE, G_COUNT };

/* JSON shows every field (docs/OUTPUT.md), a table and CSV the ranked ones. */
static const struct field gpus_fields[G_COUNT] = {
	[G_ID] = RENDER_COL("id", "ID", FT_TEXT, 1),
	[G_FAMILY] = RENDER_COL("family", "FAMILY", FT_TEXT, 4),
	[G_VENDOR] = RENDER_COL("vendor", "VENDOR", FT_TEXT, 5),
	[G_NAME] = RENDER_COL("name", "NAME", FT_TEXT, 0),
	[G_ARCH] = RENDER_COL("architecture", "ARCH", FT_TEXT, 4),
	[G_MEMORY] = RENDER_COL("memory_gb", "VRAM", FT_NUM, 1),
	[G_FORM] = RENDER_COL("form_factor", "FORM", FT_TEXT, 3),
	[G_MIG] = RENDER_COL("mig", "MIG", FT_NUM, 2),
	[G_NVLINK] = RENDER_COL("nvlink", "NVLINK", FT_TEXT, 3),
	[G_TFLOPS] = RENDER_COL("bf16_tflops", "BF16 TFLOPS", FT_NUM, 2),
	[G_SOURCE] = RENDER_COL("source", "SOURCE", FT_TEXT, 0),
	[G_ALIASES] = RENDER_COL("aliases", "ALIASES", FT_TEXT, 0),
	/* added with value per dollar (issue 26): appended, JSON only */
	[G_FP8] = RENDER_COL("fp8_tflops", "FP8 TFLOPS", FT_NUM, 0),
	[G_BANDWIDTH] = RENDER_COL("memory_bandwidth_tbs", "MEM TB/S", FT_NUM, 0),
	[G_SPECS_SOURCE] = RENDER_COL("specs_source", "SPECS SOURCE", FT_TEXT, 0),
};

struct gpus_rows {
	const struct gpu_table *t;
	size_t *rows; /* the models shown, by index in t */
	/* of the row being rendered */
	struct render_nest aliases;
	char memory[24], tflops[24];
};

/* A fraction as the table shows it, one decimal, in CSV too (gpus CSV has
 * always been the table's text); NULL for a whole number or none. */
static const char *one_decimal(double v, char *out, size_t n)
{
	if (isnan(v) || v == floor(v))
		return NULL;
	snprintf(out, n, "%.1f", v);
	return out;
}

static void gpu_row(void *ctx, size_t i, struct render_value *v)
{
	struct gpus_rows *g = ctx;
	const struct gpu_model *m = gpu_table_at(g->t, g->rows[i]);
	v[G_ID] = RV_TEXT(m->id);
	v[G_FAMILY] = RV_TEXT(m->family);
	v[G_VENDOR] = RV_TEXT(m->vendor);
	v[G_NAME] = RV_TEXT(m->name);
	v[G_ARCH] = RV_TEXT(m->architecture);
	v[G_MEMORY] = RV_NUM(m->memory_gb);
	v[G_FORM] = RV_TEXT(m->form_factor);
	v[G_MIG] = RV_NUM(m->mig);
	v[G_NVLINK] = RV_TEXT(m->nvlink);
	v[G_TFLOPS] = RV_NUM(m->bf16_tflops);
	v[G_MEMORY].shown = one_decimal(m->memory_gb, g->memory, sizeof g->memory);
	v[G_TFLOPS].shown = one_decimal(m->bf16_tflops, g->tflops, sizeof g->tflops);
	v[G_SOURCE] = RV_TEXT(m->source);
	g->aliases = (struct render_nest){.n = m->naliases,
					  .texts = (const char *const *)m->aliases};
	v[G_ALIASES].nest = &g->aliases;
	v[G_FP8] = RV_NUM(m->fp8_tflops);
	v[G_BANDWIDTH] = RV_NUM(m->memory_bandwidth_tbs);
	v[G_SPECS_SOURCE] = RV_TEXT(m->specs_source); /* NULL: null */
}

/* The models to show: every one, or those --gpu selects (gpu_spec_add),
 * in table order; *n is how many.  Returns an exit code. */
static int selected(const struct cli_args *a, struct gpus_rows *g, size_t *n)
{
	struct gpu_spec spec;
	char *err = NULL;
	enum gc_status st = GC_OK;
	int all = a->nvalues[O_GPU] == 0;
	gpu_spec_init(&spec);
	for (int i = 0; i < a->nvalues[O_GPU] && st == GC_OK; i++)
		st = gpu_spec_add(g->t, cli_opt_at(a, O_GPU, i), &spec, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot read --gpu");
		free(err);
		return exit_code_for(st);
	}
	*n = 0;
	g->rows = malloc((gpu_table_count(g->t) + 1) * sizeof *g->rows);
	if (!g->rows) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	for (size_t i = 0; i < gpu_table_count(g->t); i++) {
		const char *id = gpu_table_at(g->t, i)->id;
		size_t k = 0;
		while (!all && k < spec.nids && strcmp(spec.ids[k], id) != 0)
			k++;
		if (all || k < spec.nids)
			g->rows[(*n)++] = i;
	}
	return EXIT_OK;
}

static int cmd_gpus(struct cli_args *a)
{
	if (a->npos) {
		msg_error("'gpus' takes no arguments; --gpu SPEC shows the models it selects");
		return EXIT_USAGE;
	}
	struct cli_env env;
	int rc = cli_env_start(&env, CATALOG_GPUS);
	struct gpus_rows g = {.t = env.cat.gpus};
	size_t n = 0;
	if (!rc)
		rc = selected(a, &g, &n);
	if (!rc)
		rc = cli_render(a, &env, gpus_fields, G_COUNT, n, gpu_row, &g);
	free(g.rows);
	cli_env_release(&env);
	return rc;
}

static const struct opt_use gpus_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_gpu), OPT_GROUP(opts_output), OPT_USE(opt_no_legend),
	OPT_END};

const struct cmd_entry cmd_gpus_entry = {
	.name = "gpus",
	.run = cmd_gpus,
	.usage = "gpus [--gpu SPEC] [options]",
	.summary = "List the GPU models gpucmp knows, with memory, MIG support and BF16 TFLOP/s.",
	.opts = gpus_opts,
};
