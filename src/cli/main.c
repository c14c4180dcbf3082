/* main.c - gpucmp entry point: global options and the command table. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/field.h"
#include "gpucmp/snapshot.h"
#include "gpucmp/strutil.h"

static const struct cmd_def commands[] = {
	{"list", cmd_list, CMD_LIST, "list [options]",
	 "List GPU offers, cheapest first, with what each provider gives you.",
	 "Offers come from the cache (seeded from the built-in snapshot on first run).\n"
	 "Capability columns join each offer with its provider's profile and GPU model:\n"
	 "--mig keeps offers where the provider allows MIG and the GPU supports it.\n\n"
	 "examples:\n"
	 "  gpucmp list --k8s managed --mig\n"
	 "  gpucmp list --gpu h100 --gpus 8 --max-price 40 --sort price --json\n"
	 "  gpucmp list --provider lambda,azure --region 'us-*' --spot --format csv"},
	{"gpus", cmd_gpus, CMD_GPUS, "gpus [options]",
	 "List the GPU models gpucmp knows, with memory, MIG support and BF16 TFLOP/s.", NULL},
	{"providers", cmd_providers, CMD_PROVIDERS, "providers [options] | providers --check [FILE|DIR...]",
	 "One line per provider with its capability summary and cheapest known offer.",
	 "Capability filters (--k8s, --docker, --mig, --mps, --time-slicing, --ib,\n"
	 "--rdma, --nvlink) select providers that qualify, with or without prices.\n\n"
	 "--check validates profiles against the schema (docs/PROFILES.md): the\n"
	 "built-in ones, or the files and directories (*.yaml) named. Every error is\n"
	 "printed as FILE:LINE: MESSAGE; the exit code is 65 when any profile is invalid.\n\n"
	 "examples:\n"
	 "  gpucmp providers --k8s managed --mig\n"
	 "  gpucmp providers --check providers/"},
	{"show", cmd_show, CMD_SHOW, "show ID [--json]",
	 "One provider's capability sheet, with sources and the date it was verified.", NULL},
	{"compare", cmd_compare, CMD_COMPARE, "compare ID ID [ID...] [--diff] [--json]",
	 "Providers side by side: one column each, one row per capability field.",
	 "Rows where the providers differ are marked '*'; --diff shows only those.\n"
	 "'?' is unknown: not confirmed in the provider's documentation. A profile\n"
	 "verified more than 180 days ago is marked STALE.\n\n"
	 "examples:\n"
	 "  gpucmp compare aws gcp azure\n"
	 "  gpucmp compare coreweave lambda nebius --diff\n"
	 "  gpucmp compare runpod vast --json"},
	{"recommend", cmd_recommend, CMD_RECOMMEND,
	 "recommend --workload inference|training|batch|notebook [options]",
	 "A ranked short list of offers for a workload, each pick with its reasons.",
	 "The checklists (docs/RECOMMEND.md): training wants InfiniBand, RoCE or EFA\n"
	 "between nodes (required with --nodes > 1), NVLink, gang scheduling, a training\n"
	 "operator and shared storage; inference wants managed Kubernetes with\n"
	 "autoscaling, scale-to-zero and GPU sharing; batch wants spot capacity and\n"
	 "Kubernetes jobs; a notebook wants a plain instance in stock. Each pick is\n"
	 "the provider's cheapest matching offer; '+' meets an item, '-' misses it,\n"
	 "'?' is unknown. --gpus is per node (default 8 for training, else 1);\n"
	 "--hours adds an estimate (price x hours x nodes, + control plane for\n"
	 "inference on managed Kubernetes; batch at the spot price).\n\n"
	 "examples:\n"
	 "  gpucmp recommend --workload training --gpu h100 --nodes 4 --hours 72\n"
	 "  gpucmp recommend --workload inference --gpu l4 --hours 720 --budget 2000\n"
	 "  gpucmp recommend --workload notebook --json"},
	{"refresh", cmd_refresh, CMD_REFRESH, "refresh [ID...] [options]",
	 "Fetch live prices and availability from the providers' APIs into the cache.",
	 "Without IDs every provider with a live adapter is fetched, several at once.\n"
	 "A provider whose API needs a key is skipped (with a note) unless\n"
	 "GPUCMP_<ID>_API_KEY or the provider's usual variable is set (or its api_key\n"
	 "in the config file; 'providers' there sets the default IDs). Each provider's\n"
	 "offers are replaced in one transaction; one that fails keeps its previous\n"
	 "offers, marked stale, with the error recorded ('gpucmp cache status').\n"
	 "GPUCMP_<ID>_BASE_URL (or base_url in the config) points an adapter at\n"
	 "another server.\n\n"
	 "exit: 0 every provider tried is current, 75 some failed (or another refresh\n"
	 "holds the cache), 69 all failed.\n\n"
	 "examples:\n"
	 "  gpucmp refresh\n"
	 "  gpucmp refresh vast runpod --timeout 20\n"
	 "  */30 * * * *  gpucmp refresh --quiet --max-age 25m   (crontab)"},
	{"import", cmd_import, CMD_IMPORT, "import PATH|URL [--format skypilot] [--provider ID]",
	 "Load a price catalog (SkyPilot vms.csv format) into the cache.",
	 "PATH is a folder laid out as <cloud>/vms.csv (each folder name becomes the\n"
	 "provider id) or one vms.csv (--provider names it, else its folder's name).\n"
	 "URL is one vms.csv over http(s). Imported offers have source 'import' and\n"
	 "replace that provider's offers in one transaction.\n\n"
	 "examples:\n"
	 "  gpucmp import ~/skypilot-catalog/catalogs/v7\n"
	 "  gpucmp import https://example.org/catalogs/v7/lambda/vms.csv --provider lambda"},
	{"cache", cmd_cache, CMD_CACHE, "cache status [--json] | cache clear [ID] | cache path",
	 "Show what the cache holds per provider, clear it, or print its path.",
	 "status: per provider the offer count, source, when it was fetched, its age,\n"
	 "whether it is stale and the last error.\n"
	 "clear [ID]: drop the refreshed and imported offers of ID (default: every\n"
	 "provider) and put back the built-in snapshot offers."},
	{"config", cmd_config, CMD_CONFIG, "config path | config show [--json]",
	 "Print the config file's path, or the effective settings (keys redacted).",
	 "The config file (docs/CONFIG.md) holds defaults: columns and sort for list,\n"
	 "the currency of table prices, the providers refresh fetches without IDs,\n"
	 "and per provider a base URL and an API key. A command-line flag or an\n"
	 "environment variable wins over the file; the file wins over the built-in\n"
	 "default. A file holding API keys must be readable by you alone (chmod 600);\n"
	 "a bad or unsafe file is an error with exit code 78.\n\n"
	 "path: $GPUCMP_CONFIG, else $XDG_CONFIG_HOME/gpucmp/config.yaml, else\n"
	 "~/.config/gpucmp/config.yaml, printed whether or not the file exists.\n"
	 "show: every setting with its source: config, default or the variable's name.\n\n"
	 "examples:\n"
	 "  gpucmp config show\n"
	 "  $EDITOR \"$(gpucmp config path)\""},
	{"completion", cmd_completion, CMD_COMPLETION, "completion bash|zsh|fish",
	 "Print the shell completion script for bash, zsh or fish.",
	 "The script completes commands, options, their values, provider ids and GPU\n"
	 "names; it is generated from gpucmp's own tables. 'cmake --install' puts the\n"
	 "scripts where each shell looks: share/bash-completion/completions,\n"
	 "share/zsh/site-functions, share/fish/vendor_completions.d.\n\n"
	 "examples:\n"
	 "  source <(gpucmp completion bash)\n"
	 "  gpucmp completion zsh > ~/.zfunc/_gpucmp   (a directory in $fpath)\n"
	 "  gpucmp completion fish > ~/.config/fish/completions/gpucmp.fish"},
};
static const size_t ncommands = sizeof commands / sizeof commands[0];

const struct cmd_def *cli_command_at(size_t i)
{
	return i < ncommands ? &commands[i] : NULL;
}

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
	"kubernetes.autoscaling, k8s, mig (providers). An unknown value (null) matches\n"
	"no comparison, negated or not: 'not infiniband' keeps only offers known to\n"
	"have none; 'infiniband = null' asks for the unknown ones. Several --where\n"
	"options, and the other filter flags, combine with 'and'. Values are bound\n"
	"as SQL parameters, never pasted into the query (see --explain).\n";

static void print_usage(FILE *out)
{
	fprintf(out, "usage: gpucmp [--cache PATH] [--quiet] COMMAND [options]\n\n"
		     "Compare rented GPU offers: price, and how much orchestration you get.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < ncommands; i++)
		fprintf(out, "  %-10s  %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "  %-10s  %s\n", "help", "help [COMMAND | fields | where]: options, offer fields, --where");
	fprintf(out, "\n'gpucmp COMMAND --help' shows a command's options.\n"
		     "exit codes: 0 ok, 64 usage, 65 bad data, 69 unavailable, 71 out of memory,\n"
		     "74 cache I/O, 75 partial failure or cache locked, 78 bad config file\n"
		     "(docs/EXIT-CODES.md)\n");
}

static void print_version(void)
{
	struct snapshot_info si;
	size_t len;
	const char *snap = snapshot_embedded(&len);
	if (snapshot_scan(snap, len, &si, NULL) != GC_OK)
		si.newest[0] = '\0';
	printf("gpucmp %s (snapshot %s)\n", GPUCMP_VERSION, si.newest[0] ? si.newest : "none");
}

/* Exact name, else a unique prefix ("li" -> list). */
static const struct cmd_def *find_command(const char *name, int *ambiguous)
{
	const struct cmd_def *hit = NULL;
	size_t len = strlen(name);
	*ambiguous = 0;
	for (size_t i = 0; i < ncommands; i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
		if (len && strncmp(commands[i].name, name, len) == 0) {
			if (hit)
				*ambiguous = 1;
			hit = &commands[i];
		}
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
	for (size_t i = 0; i < ncommands; i++)
		suggest_try(&s, commands[i].name);
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
	static const char *const types[] = {"text", "number", "price", "bool", "enum"};
	printf("Fields of an offer: JSON keys, --columns and --sort names.\n"
	       "Aliases: price, spot, vram, gpus, ram, cpus, ib, disk.\n\n");
	for (size_t i = 0; i < offer_field_count; i++)
		printf("  %-20s %-7s %s\n", offer_fields[i].key, types[offer_fields[i].type],
		       offer_fields[i].help);
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
	int amb;
	const struct cmd_def *c = find_command(argv[i], &amb);
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

/* Everything but the final output check; returns the exit code. */
static int run(int argc, char **argv)
{
	/* global options before the command: --cache, --quiet, --color, --help, --version */
	static const struct cmd_def global = {"gpucmp", NULL, CMD_GLOBAL, "", "", NULL};
	struct cli_args g;
	memset(&g, 0, sizeof g);
	g.cmd = &global;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		int rc = cli_parse_one(&global, argc, argv, &i, &g);
		if (rc)
			return rc;
	}
	if (cli_flag(&g, O_VERSION)) {
		print_version();
		return EXIT_OK;
	}
	if (cli_flag(&g, O_HELP) || i >= argc) {
		print_usage(i >= argc && !cli_flag(&g, O_HELP) ? stderr : stdout);
		return i >= argc && !cli_flag(&g, O_HELP) ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[i], "help") == 0)
		return run_help(argc, argv, i + 1);
	int amb;
	const struct cmd_def *cmd = find_command(argv[i], &amb);
	if (!cmd)
		return unknown_command(argv[i], amb);
	struct cli_args a = g;
	a.npos = 0;
	int rc = cli_parse(cmd, argc, argv, i + 1, &a);
	if (rc)
		return rc;
	if (cli_flag(&a, O_HELP)) {
		cli_print_help(cmd, stdout);
		return EXIT_OK;
	}
	if (cli_flag(&a, O_VERSION)) {
		print_version();
		return EXIT_OK;
	}
	msg_set_quiet(cli_flag(&a, O_QUIET));
	return cmd->run(&a);
}

int main(int argc, char **argv)
{
	/* past a file-size limit (ulimit -f) write() should fail with EFBIG,
	 * which SQLite reports and rolls back, not kill us mid-transaction */
	signal(SIGXFSZ, SIG_IGN);
	return finish_output(run(argc, argv));
}
