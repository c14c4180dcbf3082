/* cmd_show.c - gpucmp show ID: one provider's capability sheet, as
 * sheet_build (gpucmp/sheet.h) answers it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/buf.h"
#include "gpucmp/insttype.h"
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

static const char *tri(int v)
{
	return v == 1 ? "yes" : "no";
}

/* Does entry t carry a capability fact other than k8s? */
static int has_caps(const struct insttype *t)
{
	return t->infiniband >= 0 || t->rdma || t->nvlink >= 0 || t->mig == 0;
}

/* One entry's facts, "k8s join, infiniband yes", with their sources. */
static void print_type(struct buf *b, const struct insttype *t)
{
	const char *sep = "";
	buf_printf(b, "  %-28s ", t->match);
	if (t->k8s)
		buf_printf(b, "k8s %s", t->k8s), sep = ", ";
	if (t->infiniband >= 0)
		buf_printf(b, "%sinfiniband %s", sep, tri(t->infiniband)), sep = ", ";
	if (t->rdma)
		buf_printf(b, "%srdma %s", sep, t->rdma), sep = ", ";
	if (t->nvlink >= 0)
		buf_printf(b, "%snvlink %s", sep, tri(t->nvlink)), sep = ", ";
	if (t->mig == 0)
		buf_printf(b, "%smig no", sep);
	buf_addc(b, '\n');
	/* the k8s fact names its own page; the others the entry's */
	if (t->k8s_source)
		buf_printf(b, "  %-28s   k8s source: %s\n", "", t->k8s_source);
	if (has_caps(t))
		buf_printf(b, "  %-28s   source: %s\n", "", t->source);
}

/* The provider's per-type answers (data/instance-types.yaml), which its
 * offers carry instead of the values above: what list and recommend print
 * for an offer of that type.  Entries with only a GPU mapping are left out. */
static void print_types(struct buf *b, const struct insttype_table *types, const char *id)
{
	int title = 0;
	for (size_t i = 0; types && i < insttype_count(types); i++) {
		const struct insttype *t = insttype_at(types, i);
		if (strcmp(t->provider, id) != 0 || (!t->k8s && !has_caps(t)))
			continue;
		if (!title++)
			buf_printf(b, "\nPer instance type (data/instance-types.yaml: the first"
				   " match answers for an offer, over the values above)\n");
		print_type(b, t);
	}
}

static void print_sheet(struct buf *b, const struct sheet *s, const struct insttype_table *types)
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
	print_types(b, types, p->id);
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
		print_sheet(&b, &s, env->cat.types);
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
	int rc = cli_env_start(&env, CATALOG_PROFILES | CATALOG_TYPES);
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
