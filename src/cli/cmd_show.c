/* cmd_show.c - gpucmp show ID: one provider's capability sheet. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/buf.h"
#include "gpucmp/strutil.h"

static json_t *group_json(const struct profile *p, const char *group)
{
	json_t *o = json_object();
	for (size_t i = 0; i < profile_field_count; i++)
		if (strcmp(profile_fields[i].group, group) == 0)
			json_object_set_new(o, profile_fields[i].key,
					    pv_json(&profile_fields[i], &p->values[i]));
	return o;
}

static json_t *strv_json(char **v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *sheet_json(const struct cli_env *env, const struct profile *p)
{
	json_t *o = json_object(), *fs = json_object(), *notes = json_object();
	json_object_set_new(o, "id", json_string(p->id));
	json_object_set_new(o, "name", json_string(p->name));
	json_object_set_new(o, "site", json_string(p->site));
	json_object_set_new(o, "kind", json_string(p->kind));
	for (size_t g = 0; g < 4; g++) /* billing and spot are top-level keys */
		json_object_set_new(o, pv_groups[g].group, group_json(p, pv_groups[g].group));
	int spot = profile_field_index("spot"), gran = profile_field_index("billing.granularity");
	json_object_set_new(o, "spot", pv_json(&profile_fields[spot], &p->values[spot]));
	json_object_set_new(o, "billing", pv_json(&profile_fields[gran], &p->values[gran]));
	json_object_set_new(o, "regions", strv_json(p->regions, p->nregions));
	json_object_set_new(o, "sources", strv_json(p->sources, p->nsources));
	for (size_t i = 0; i < profile_field_count; i++) {
		const struct pfield_def *f = &profile_fields[i];
		char path[64];
		snprintf(path, sizeof path, "%s%s%s", f->group, *f->group ? "." : "", f->key);
		if (p->values[i].source)
			json_object_set_new(fs, path, json_string(p->values[i].source));
		if (p->values[i].note)
			json_object_set_new(notes, path, json_string(p->values[i].note));
	}
	json_object_set_new(o, "field_sources", fs);
	json_object_set_new(o, "notes", notes);
	json_object_set_new(o, "note", p->note ? json_string(p->note) : json_null());
	long ago = cli_days_ago(env, p->verified);
	json_object_set_new(o, "verified", json_string(p->verified));
	json_object_set_new(o, "verified_days_ago", json_integer(ago));
	json_object_set_new(o, "stale", json_boolean(ago > PROFILE_STALE_DAYS));
	return o;
}

/* Footnote number of a source URL, adding it to the list when new. */
static size_t footnote(const char **list, size_t *n, const char *url)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(list[i], url) == 0)
			return i + 1;
	list[(*n)++] = url;
	return *n;
}

static void sheet_line(struct buf *b, const struct pfield_def *f, const struct pvalue *v,
		       const char **urls, size_t *nurls)
{
	char text[256];
	pv_text(f, v, text, sizeof text);
	if (!v->known)
		snprintf(text, sizeof text, "unknown");
	buf_printf(b, "  %-28s %s", f->label, text);
	if (v->source)
		buf_printf(b, "  [%zu]", footnote(urls, nurls, v->source));
	buf_addc(b, '\n');
	if (v->note)
		buf_printf(b, "  %-28s   note: %s\n", "", v->note);
}

static int print_sheet(const struct cli_env *env, const struct profile *p)
{
	struct buf b;
	const char **urls = calloc(profile_field_count + p->nsources + 1, sizeof *urls);
	size_t nurls = 0;
	if (!urls) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	buf_init(&b, 0);
	long ago = cli_days_ago(env, p->verified);
	buf_printf(&b, "%s (%s), %s\n%s\n", p->name, p->id, p->kind, p->site);
	buf_printf(&b, "verified %s (%ld day%s ago)%s\n", p->verified, ago, ago == 1 ? "" : "s",
		   ago > PROFILE_STALE_DAYS ? "  STALE: older than 180 days, re-check the sources" : "");
	if (p->note)
		buf_printf(&b, "note: %s\n", p->note);
	for (size_t g = 0; g < pv_ngroups; g++) {
		int idx[16];
		size_t nf = pv_group_fields(pv_groups[g].group, idx, 16);
		buf_printf(&b, "\n%s\n", pv_groups[g].title);
		for (size_t k = 0; k < nf; k++)
			sheet_line(&b, &profile_fields[idx[k]], &p->values[idx[k]], urls, &nurls);
	}
	buf_printf(&b, "\nRegions\n  ");
	for (size_t i = 0; i < p->nregions; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", p->regions[i]);
	buf_printf(&b, "%s\n\nSources\n", p->nregions ? "" : "unknown");
	for (size_t i = 0; i < nurls; i++)
		buf_printf(&b, "  [%zu] %s\n", i + 1, urls[i]);
	for (size_t i = 0; i < p->nsources; i++) {
		size_t before = nurls;
		footnote(urls, &nurls, p->sources[i]);
		if (nurls > before)
			buf_printf(&b, "  [%zu] %s\n", nurls, p->sources[i]);
	}
	int rc = EXIT_OK;
	if (!b.ptr || fwrite(b.ptr, 1, b.len, stdout) != b.len || fflush(stdout) != 0) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	}
	buf_free(&b);
	free(urls);
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
	memset(&env, 0, sizeof env);
	int rc = cli_catalog_need(&env, CATALOG_PROFILES);
	if (rc)
		return rc;
	const struct profile *p = profile_set_find(&env.cat.profiles, a->pos[0]);
	if (!p)
		rc = cli_unknown_provider(&env, a->pos[0]);
	else if (cli_flag(a, O_JSON)) {
		rc = cli_print_json(sheet_json(&env, p), 0);
	} else {
		rc = print_sheet(&env, p);
	}
	cli_env_release(&env);
	return rc;
}

static const struct opt_use show_opts[] = {
	OPT_GROUP(opts_common), OPT_USE(opt_json), {NULL, NULL}};
static const struct arg_hint show_args[] = {
	{ARG_PROVIDERS, 1, "provider id", NULL, NULL, NULL},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.run = cmd_show,
	.usage = "show ID [--json]",
	.summary = "One provider's capability sheet, with sources and the date it was verified.",
	.opts = show_opts,
	.args = show_args,
};
