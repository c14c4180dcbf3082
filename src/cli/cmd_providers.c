/* cmd_providers.c - gpucmp providers: one line per provider. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/query.h"

static void provider_row(void *ctx, size_t i, struct render_value *v)
{
	query_provider_values((const struct query_provider *)ctx + i, v);
}

/* The providers the filters select, printed. */
static int list_providers(struct cli_env *env, const struct cli_args *a,
			  const struct query *q)
{
	struct query_provider *rows = NULL;
	size_t n = 0;
	char *err = NULL;
	enum gc_status st = query_providers(env->cache, &env->cat.profiles, q, &rows, &n, &err);
	if (st != GC_OK) {
		int rc = cli_cache_failed(env, NULL, st, err, "cannot query providers");
		free(err);
		return rc;
	}
	int rc = cli_render(a, env, query_provider_fields, QP_COUNT, n, provider_row, rows);
	free(rows);
	if (rc || !render_for_people(cli_format(a)))
		return rc;
	if (!n)
		msg_note("no providers match");
	else if (env->money_note[0])
		msg_note("%s", env->money_note);
	return EXIT_OK;
}

int cmd_providers(struct cli_args *a)
{
	if (cli_flag(a, O_CHECK))
		return cmd_providers_check(a);
	if (a->npos) {
		msg_error("'providers' takes no arguments; use 'gpucmp show ID' for one provider");
		return EXIT_USAGE;
	}
	struct cli_env env;
	memset(&env, 0, sizeof env);
	struct where_result where;
	int have_where = 0;
	struct query q;
	query_init(&q);
	int rc = cli_catalog_need(&env, CATALOG_PROFILES);
	struct query_where ids;
	char *err = NULL;
	enum gc_status st = query_where_init(&ids, &q, &env.cat.profiles, NULL, &err);
	if (!rc && st != GC_OK) {
		msg_status(st, err, "out of memory");
		rc = exit_code_for(st);
	}
	free(err);
	if (!rc)
		rc = cli_where(a, query_provider_field, query_provider_suggest, &ids, &where,
			       &have_where);
	query_where_release(&ids);
	cli_caps(a, &q.caps);
	if (!rc)
		rc = cli_currency(&env);
	if (!rc)
		rc = cli_open_cache(&env, a);
	q.where = have_where ? &where : NULL;
	if (!rc)
		rc = list_providers(&env, a, &q);
	if (have_where)
		where_result_release(&where);
	cli_env_release(&env);
	return rc;
}

static const struct opt_def opt_check = {.id = O_CHECK, .name = "check", .type = OPT_BOOL,
	.help = "validate profiles (the built-in ones, or FILE/DIR arguments) and exit"};

static const struct opt_use providers_opts[] = {
	OPT_GROUP(opts_common), OPT_GROUP(opts_filters), OPT_GROUP(opts_output),
	OPT_USE(opt_no_legend), OPT_USE(opt_check), OPT_END};
static const struct arg_hint providers_args[] = {
	{ARG_FILES, 0, "profile file or folder", NULL, NULL, "check"},
	ARG_END};

const struct cmd_entry cmd_providers_entry = {
	.name = "providers",
	.run = cmd_providers,
	.usage = "providers [options] | providers --check [FILE|DIR...]",
	.summary = "One line per provider with its capability summary and cheapest known offer.",
	.detail =
		"Capability filters (--k8s, --docker, --mig, --mps, --time-slicing, --ib,\n"
		"--rdma, --nvlink) select providers that qualify, with or without prices.\n\n"
		"--check validates profiles against the schema (docs/PROFILES.md): the\n"
		"built-in ones, or the files and directories (*.yaml) named. Every error is\n"
		"printed as FILE:LINE: MESSAGE; the exit code is 65 when any profile is "
		"invalid.\n\n"
		"examples:\n"
		"  gpucmp providers --k8s managed --mig\n"
		"  gpucmp providers --check providers/",
	.opts = providers_opts,
	.args = providers_args,
};
