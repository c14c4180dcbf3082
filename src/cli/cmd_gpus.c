/* cmd_gpus.c - gpucmp gpus: the GPU model table. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static json_t *model_json(const struct gpu_model *m)
{
	json_t *aliases = json_array();
	for (size_t i = 0; i < m->naliases; i++)
		json_array_append_new(aliases, json_string(m->aliases[i]));
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:i, s:s, s:o, s:s, s:o}",
			 "id", m->id, "family", m->family, "vendor", m->vendor, "name", m->name,
			 "architecture", m->architecture, "memory_gb", cli_json_number(m->memory_gb),
			 "form_factor", m->form_factor, "mig", m->mig, "nvlink", m->nvlink,
			 "bf16_tflops", cli_json_number(m->bf16_tflops),
			 "source", m->source, "aliases", aliases);
}

static int print_json(const struct gpu_table *t, int ndjson)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < gpu_table_count(t); i++)
		json_array_append_new(arr, model_json(gpu_table_at(t, i)));
	return cli_print_json(arr, ndjson);
}

static void fmt_num(char *out, size_t n, double v)
{
	if (isnan(v))
		snprintf(out, n, "-");
	else if (v == floor(v))
		snprintf(out, n, "%.0f", v);
	else
		snprintf(out, n, "%.1f", v);
}

enum { GCOLS = 9 };

static int print_rows(const struct gpu_table *t, enum render_format fmt, int color, int width)
{
	static const struct grid_col cols[GCOLS] = {
		{"ID", 0, 1}, {"FAMILY", 0, 4}, {"VENDOR", 0, 5}, {"ARCH", 0, 4},
		{"VRAM", 1, 1}, {"FORM", 0, 3}, {"MIG", 1, 2}, {"NVLINK", 0, 3},
		{"BF16 TFLOPS", 1, 2}};
	size_t n = gpu_table_count(t);
	char (*num)[3][24] = calloc(n ? n : 1, sizeof *num);
	const char **cells = calloc((n ? n : 1) * GCOLS, sizeof *cells);
	if (!num || !cells) {
		free(num);
		free(cells);
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	for (size_t i = 0; i < n; i++) {
		const struct gpu_model *m = gpu_table_at(t, i);
		fmt_num(num[i][0], sizeof num[i][0], m->memory_gb);
		snprintf(num[i][1], sizeof num[i][1], "%d", m->mig);
		fmt_num(num[i][2], sizeof num[i][2], m->bf16_tflops);
		const char *row[GCOLS] = {m->id, m->family, m->vendor, m->architecture, num[i][0],
					  m->form_factor, num[i][1], m->nvlink, num[i][2]};
		memcpy(&cells[i * GCOLS], row, sizeof row);
	}
	int rc = EXIT_OK;
	char *err = NULL;
	if (fmt == RF_CSV) {
		rc = cli_print_csv("id,family,vendor,architecture,memory_gb,form_factor,mig,nvlink,"
				   "bf16_tflops", cells, n, GCOLS);
	} else if (render_grid(stdout, cols, GCOLS, cells, NULL, n, width, color, &err) != GC_OK) {
		msg_status(GC_EIO, err, "cannot write output");
		free(err);
		rc = EXIT_IOERR;
	}
	free(num);
	free(cells);
	return rc;
}

static int cmd_gpus(struct cli_args *a)
{
	if (a->npos) {
		msg_error("'gpus' takes no arguments");
		return EXIT_USAGE;
	}
	struct cli_env env;
	memset(&env, 0, sizeof env);
	int rc = cli_catalog_need(&env, CATALOG_GPUS);
	if (!rc) {
		enum render_format fmt = cli_format(a);
		if (fmt == RF_JSON || fmt == RF_NDJSON)
			rc = print_json(env.cat.gpus, fmt == RF_NDJSON);
		else
			rc = print_rows(env.cat.gpus, fmt, cli_use_color(a, stdout),
					render_term_width(stdout));
	}
	cli_env_release(&env);
	return rc;
}

static const struct opt_use gpus_opts[] = {
	OPT_GROUP(opts_common), OPT_GROUP(opts_output), {NULL, NULL}};

const struct cmd_entry cmd_gpus_entry = {
	.name = "gpus",
	.run = cmd_gpus,
	.usage = "gpus [options]",
	.summary = "List the GPU models gpucmp knows, with memory, MIG support and BF16 TFLOP/s.",
	.opts = gpus_opts,
};
