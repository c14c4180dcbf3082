/* cmd_show.c - gpucmp show ID: one provider's capability sheet, as
 * sheet_build (gpucmp/sheet.h) answers it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/buf.h"
#include "gpucmp/sheet.h"

static void print_row(struct buf *b, const struct sheet_row *r)
{
	if (r->field < 0) {
		buf_printf(b, "\n%s\n", r->title);
		return;
	}
	buf_printf(b, "  %-28s %s", r->title, r->text);
	if (r->source)
		buf_printf(b, "  [%zu]", r->source);
	buf_addc(b, '\n');
	if (r->note)
		buf_printf(b, "  %-28s   note: %s\n", "", r->note);
}

static void print_sheet(struct buf *b, const struct sheet *s)
{
	const struct profile *p = s->p;
	buf_printf(b, "%s (%s), %s\n%s\n", p->name, p->id, p->kind, p->site);
	buf_printf(b, "verified %s (%ld day%s ago)%s\n", p->verified, s->days_ago,
		   s->days_ago == 1 ? "" : "s",
		   s->stale ? "  STALE: older than 180 days, re-check the sources" : "");
	if (p->note)
		buf_printf(b, "note: %s\n", p->note);
	for (size_t i = 0; i < s->nrows; i++)
		print_row(b, &s->rows[i]);
	buf_printf(b, "\nRegions\n  ");
	for (size_t i = 0; i < p->nregions; i++)
		buf_printf(b, "%s%s", i ? ", " : "", p->regions[i]);
	buf_printf(b, "%s\n\nSources\n", p->nregions ? "" : "unknown");
	for (size_t i = 0; i < s->nsources; i++)
		buf_printf(b, "  [%zu] %s\n", i + 1, s->sources[i]);
}

static int show(const struct cli_env *env, const struct profile *p, int as_json)
{
	struct sheet s;
	struct buf b;
	char *err = NULL;
	enum gc_status st = sheet_build(&s, p, env->cat.today, &err);
	int rc = EXIT_OK;
	buf_init(&b, 0);
	if (st != GC_OK) {
		msg_status(st, err, "cannot build the sheet");
		rc = exit_code_for(st);
	} else if (as_json) {
		rc = cli_print_json(sheet_json(&s), 0);
	} else {
		print_sheet(&b, &s);
		if (b.failed || !b.ptr) {
			msg_error("out of memory");
			rc = EXIT_OSERR;
		} else if (fwrite(b.ptr, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
			msg_error("cannot write output");
			rc = EXIT_IOERR;
		}
	}
	buf_free(&b);
	free(err);
	sheet_release(&s);
	return rc;
}

static int cmd_show(struct cli_args *a)
{
	if (a->npos != 1) {
		msg_error(a->npos ? "'show' takes one provider id" : "'show' needs a provider id; "
			  "'gpucmp providers' lists them");
		return EXIT_USAGE;
	}
	struct cli_env env;
	int rc = cli_env_start(&env, CATALOG_PROFILES);
	if (rc)
		return rc;
	const struct profile *p = profile_set_find(&env.cat.profiles, a->pos[0]);
	if (!p)
		rc = cli_unknown_provider(&env, a->pos[0]);
	else
		rc = show(&env, p, cli_flag(a, O_JSON));
	cli_env_release(&env);
	return rc;
}

static const struct opt_use show_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), OPT_END};
static const struct arg_hint show_args[] = {ARG_HINT(ARG_PROVIDERS, 1, "provider id"), ARG_END};

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.run = cmd_show,
	.usage = "show ID [--json]",
	.summary = "One provider's capability sheet, with sources and the date it was verified.",
	.opts = show_opts,
	.args = show_args,
};
