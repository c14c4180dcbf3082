/* main.c - gpucmp entry point: global options, then dispatch over the command
 * table (commands.c); `help`, --help and --version. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/field.h"
#include "gpucmp/embedded.h"
#include "gpucmp/strutil.h"

static const char where_help[] =
	"--where EXPR: filter with an expression (list and providers).\n\n"
	"  vram >= 80 and price < 2.5\n"
	"  gpu ~ 'h100*' and (k8s = managed or infiniband) and not stale\n"
	"  provider in (lambda, vast) and region !~ 'eu*'\n"
	"  usd_per_pflop_hr < 1.5 and available = true\n\n"
	"comparisons  = != < <= > >=  (== and <> too); ~ and !~ match a glob (* ?),\n"
	"             ignoring case; text compares ignore case\n"
	"lists        FIELD in (a, b, c), FIELD not in (...)\n"
	"logic        not, and, or (in that order of binding) and ( )\n"
	"values       numbers, also $2.5, 80gb, 1.5tb, 400gbps; strings 'quoted', \"quoted\"\n"
	"             or bare; true/false/yes/no; null (only with = and !=)\n"
	"yes/no field alone means = true: 'infiniband and nvlink'\n\n"
	"Fields: 'gpucmp help fields' (list) or a profile field such as\n"
	"kubernetes.autoscaling, k8s, mig (providers). After =, != and in, an enum\n"
	"takes only its values and provider only a provider id: a typo exits 64 with\n"
	"the nearest one. A value means what the flag means: 'k8s = managed' is\n"
	"--k8s managed (managed or both), 'k8s = join' is join or both; 'gpu = H100'\n"
	"is --gpu H100 (every H100 model, any case). An unknown value (null, or an\n"
	"enum's unknown) matches no comparison, negated or not: 'not infiniband' and\n"
	"'mig != no' keep only rows known to qualify; 'infiniband = null' and\n"
	"'mig = unknown' ask for the unknown ones. Several --where options, and the\n"
	"other filter flags, combine with 'and'. Values are bound as SQL parameters,\n"
	"never pasted into the query (see --explain).\n";

static const char gpu_help[] =
	"--gpu SPEC: the GPUs to compare (list, recommend, gpus), as SkyPilot and dstack\n"
	"users write them.\n\n"
	"  h100            every H100 (SXM, PCIe, NVL): a family name\n"
	"  h100-sxm        that model: an id ('gpucmp gpus' lists them)\n"
	"  a100-pcie       every A100 PCIe card (40 and 80 GB): a family and its words\n"
	"  a100-80gb       every 80 GB A100 (SXM and PCIe); 'h100 80gb' too\n"
	"  4090, rtx4090   the RTX 4090: a model number alone names the one family\n"
	"  H100:8          H100 offers with exactly 8 GPUs (H100:8.. at least 8)\n"
	"  A100:80GB:8     qualifiers in any order: memory, count, vendor\n"
	"  24GB..80GB      every model with 24 to 80 GB (24GB.., ..80GB)\n"
	"  h100,a100:8     several names; qualifiers apply to every name of the value\n"
	"  amd, nvidia:48GB  a vendor's models\n\n"
	"A value is names and qualifiers joined by ',' and ':'.  A name selects every\n"
	"model its words fit: a family, an id, a family with form-factor (sxm, pcie,\n"
	"nvl) and memory words, a provider's spelling, or a bare model number.\n"
	"Memory is the model's (data/gpus.yaml), with a unit: 80GB is 80 as sources\n"
	"round it, a range includes both ends; --vram is the offer's memory per GPU.\n"
	"A count after ':' is exact, as in SkyPilot and dstack (H100:8 is an 8-GPU\n"
	"offer); 2..8 and 8.. are ranges; --gpus N means at least N.  Several --gpu\n"
	"options add their models; the count is one for all.  A name that fits no\n"
	"model exits 64 with the nearest names; 'gpucmp gpus --gpu SPEC' shows the\n"
	"models a value selects.\n";

static void print_usage(FILE *out)
{
	fprintf(out, "usage: gpucmp [--cache PATH] [--quiet] COMMAND [options]\n\n"
		     "Compare rented GPU offers: price, and how much orchestration you get.\n\n"
		     "commands:\n");
	const struct cmd_entry *c;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++)
		fprintf(out, "  %-10s  %s\n", c->name, c->summary);
	fprintf(out, "  %-10s  %s: options, offer fields, --where, places\n", cli_help.name,
		cli_help.usage);
	fprintf(out, "\n'gpucmp COMMAND --help' shows a command's options.\n"
		     "exit codes: 0 ok, 64 usage, 65 bad data, 69 unavailable, 71 out of memory,\n"
		     "74 cache I/O, 75 partial failure or cache locked, 78 bad config file\n"
		     "(docs/EXIT-CODES.md)\n");
}

static void print_version(void)
{
	/* the snapshot's date as read at build time: parsing its CSV here
	 * was nine tenths of a `gpucmp --version` */
	printf("gpucmp %s (snapshot %s)\n", GPUCMP_VERSION,
	       embedded_snapshot_date[0] ? embedded_snapshot_date : "none");
}

static int is_alias(const struct cmd_entry *c, const char *name)
{
	for (const char *const *al = c->aliases; al && *al; al++)
		if (strcmp(*al, name) == 0)
			return 1;
	return 0;
}

/* Exact name or alias, else a unique prefix of a name ("li" -> list). */
static const struct cmd_entry *find_command(const char *name, int *ambiguous)
{
	const struct cmd_entry *c, *hit = NULL;
	size_t len = strlen(name);
	*ambiguous = 0;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++)
		if (strcmp(c->name, name) == 0 || is_alias(c, name))
			return c;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++)
		if (len && strncmp(c->name, name, len) == 0) {
			if (hit)
				*ambiguous = 1;
			hit = c;
		}
	return *ambiguous ? NULL : hit;
}

static int unknown_command(const char *name, int ambiguous)
{
	char safe[64];
	str_sanitize(safe, sizeof safe, name);
	if (ambiguous) {
		msg_error("ambiguous command '%s'; see 'gpucmp --help'", safe);
		return EXIT_USAGE;
	}
	struct suggest s;
	suggest_init(&s, name);
	const struct cmd_entry *c;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++)
		suggest_try(&s, c->name);
	const char *best = suggest_best(&s);
	if (best)
		msg_error("unknown command '%s'; did you mean '%s'?", safe, best);
	else
		msg_error("unknown command '%s'; see 'gpucmp --help'", safe);
	return EXIT_USAGE;
}

/* gpucmp help fields: the field registry, for --columns and --sort. */
static void print_fields(void)
{
	static const char *const types[] = {"text", "number", "price", "bool", "enum", "yes/no",
					    "list"};
	printf("Fields of an offer: JSON keys, --columns and --sort names.\n"
	       "Aliases: price, spot, vram, gpus, ram, cpus, ib, disk.\n\n");
	char help[160];
	for (size_t i = 0; i < offer_field_count; i++)
		printf("  %-20s %-7s %s\n", offer_fields[i].key, types[offer_fields[i].type],
		       field_help(&offer_fields[i], help, sizeof help));
	printf("\nFields a group adds to its cheapest offer (list --group-by):\n\n");
	for (size_t i = 0; i < group_field_count; i++)
		printf("  %-20s %-7s %s\n", group_fields[i].key, types[group_fields[i].type],
		       field_help(&group_fields[i], help, sizeof help));
}

/* The headers of the fields `keys` (space-separated) names: "MIG MPS TSLICE". */
static void value_headers(const char *keys, char *out, size_t n)
{
	char word[32];
	size_t o = 0;
	out[0] = '\0';
	for (const char *p = keys; *p && o < n;) {
		size_t len = strcspn(p, " ");
		snprintf(word, sizeof word, "%.*s", (int)len, p);
		const struct field *f = field_find(word);
		o += (size_t)snprintf(out + o, n - o, "%s%s", o ? " " : "", f ? f->header : word);
		p += len + (p[len] == ' ');
	}
}

/* The value-per-dollar fields (docs/OUTPUT.md; offer_v computes them). */
static const char value_per_dollar_help[] =
	"\nValue per dollar (--sort -FIELD: the most per dollar first)\n"
	"  per on-demand USD per hour of the whole offer, from the GPU model table\n"
	"  (data/gpus.yaml: vendor datasheet figures, each entry names its URL;\n"
	"  docs/GPUS.md).  Higher is better.  Null (-) when the GPU's figure is\n"
	"  unknown, the price is missing, or the price is an auction floor (the\n"
	"  lowest bid, not a price).\n"
	"  price_per_gpu_hr     price_hr / gpu_count: USD per GPU-hour (lower is better)\n"
	"  bf16_tflops_per_usd  gpu_count x bf16_tflops / price_hr: dense BF16 TFLOP/s\n"
	"  fp8_tflops_per_usd   gpu_count x fp8_tflops / price_hr: dense FP8 TFLOP/s\n"
	"                       (null for GPUs without FP8: Ampere and older, CDNA2)\n"
	"  mem_bw_tbs_per_usd   gpu_count x memory_bandwidth_tbs / price_hr: TB/s of\n"
	"                       peak GPU memory bandwidth (HBM or GDDR)\n"
	"  vram_gb_per_usd      total_gpu_mem_gb / price_hr: GB of GPU memory\n"
	"  usd_per_pflop_hr     price_hr / (gpu_count x bf16_tflops / 1000): USD per\n"
	"                       dense BF16 PFLOP/s-hour (--sort value; lower is better)\n"
	"  dense = without 2:4 sparsity: a sheet's sparsity figure is halved.\n";

/* gpucmp help values: what the words and marks of the tables mean, and
 * every column header. */
static void print_values(void)
{
	char head[64], help[160];
	const char *last = "";
	printf("What the words in gpucmp's tables mean. JSON has the same words; unknown is "
	       "null there.\n\nValues\n");
	for (size_t i = 0; i < field_value_count; i++) {
		const struct field_value *v = &field_values[i];
		if (!v->fields)
			continue;
		if (strcmp(last, v->fields) != 0)
			value_headers(v->fields, head, sizeof head);
		printf("  %-18s %-9s %s\n", strcmp(last, v->fields) ? head : "", v->value,
		       v->meaning);
		last = v->fields;
	}
	printf("\nMarks, in any column\n");
	for (size_t i = 0; i < field_value_count; i++)
		if (!field_values[i].fields)
			printf("  %s%*s %s\n", field_values[i].value,
			       4 - (int)render_width(field_values[i].value), "",
			       field_values[i].meaning);
	fputs(value_per_dollar_help, stdout);
	printf("\nColumns of list (and their --columns names)\n");
	for (size_t i = 0; i < offer_field_count; i++)
		printf("  %-12s %-20s %s\n", offer_fields[i].header, offer_fields[i].key,
		       field_help(&offer_fields[i], help, sizeof help));
	for (size_t i = 0; i < group_field_count; i++)
		printf("  %-12s %-20s %s (--group-by)\n", group_fields[i].header,
		       group_fields[i].key, field_help(&group_fields[i], help, sizeof help));
	printf("\nThe providers table: ID, NAME, KIND (its profile), the capability columns as\n"
	       "above for the provider as a whole, OFFERS, FROM $/H (its cheapest on-demand\n"
	       "price) and VERIFIED (the date its profile was checked).\n");
}

static int run_help(int argc, char **argv, int i)
{
	if (i >= argc) {
		print_usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[i], "fields") == 0) {
		print_fields();
		return EXIT_OK;
	}
	if (strcmp(argv[i], "where") == 0) {
		fputs(where_help, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[i], "values") == 0) {
		print_values();
		return EXIT_OK;
	}
	if (strcmp(argv[i], "gpu") == 0) {
		fputs(gpu_help, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[i], "regions") == 0)
		return cli_help_regions(stdout);
	int amb;
	const struct cmd_entry *c = find_command(argv[i], &amb);
	if (!c)
		return unknown_command(argv[i], amb);
	cli_print_help(c, stdout);
	return EXIT_OK;
}

/* The one check of stdout, at exit, whatever printed to it (help, a
 * table, JSON): output that could not be written (a full disk, /dev/full,
 * a closed stdout) fails the run with 74 and one line, unless the command
 * already failed and said why. */
static int finish_output(int rc)
{
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc == EXIT_OK) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	}
	return rc;
}

/* Everything but the final output check, the options parsed into *a
 * (global ones first); returns the exit code. */
static int run_args(int argc, char **argv, struct cli_args *a)
{
	/* global options before the command: --cache, --quiet, --color, --help, --version */
	a->cmd = &cli_global;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		int rc = cli_parse_one(&cli_global, argc, argv, &i, a);
		if (rc)
			return rc;
	}
	if (cli_flag(a, O_VERSION)) {
		print_version();
		return EXIT_OK;
	}
	if (cli_flag(a, O_HELP) || i >= argc) {
		print_usage(i >= argc && !cli_flag(a, O_HELP) ? stderr : stdout);
		return i >= argc && !cli_flag(a, O_HELP) ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[i], "help") == 0)
		return run_help(argc, argv, i + 1);
	int amb;
	const struct cmd_entry *cmd = find_command(argv[i], &amb);
	if (!cmd)
		return unknown_command(argv[i], amb);
	int rc = cli_parse(cmd, argc, argv, i + 1, a);
	if (rc)
		return rc;
	if (cli_flag(a, O_HELP)) {
		cli_print_help(cmd, stdout);
		return EXIT_OK;
	}
	if (cli_flag(a, O_VERSION)) {
		print_version();
		return EXIT_OK;
	}
	msg_set_quiet(cli_flag(a, O_QUIET));
	return cmd->run(a);
}

static int run(int argc, char **argv)
{
	struct cli_args a;
	memset(&a, 0, sizeof a);
	int rc = run_args(argc, argv, &a);
	cli_args_release(&a);
	return rc;
}

int main(int argc, char **argv)
{
	/* past a file-size limit (ulimit -f) write() should fail with EFBIG,
	 * which SQLite reports and rolls back, not kill us mid-transaction */
	signal(SIGXFSZ, SIG_IGN);
	return finish_output(run(argc, argv));
}
