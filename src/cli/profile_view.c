/* profile_view.c - how profile values look in tables and JSON, and the
 * capability filters the options select. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/query.h"

json_t *cli_json_number(double v)
{
	if (isnan(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

const char *pv_text(const struct pfield_def *f, const struct pvalue *v, char *buf,
		    size_t n)
{
	if (!v->known) {
		snprintf(buf, n, "?");
	} else if (f->kind == PF_NUMBER) {
		snprintf(buf, n, v->number == floor(v->number) ? "%.0f" : "%.2f", v->number);
	} else if (f->kind == PF_LIST) {
		size_t o = 0;
		buf[0] = '\0';
		for (size_t i = 0; i < v->nlist && o < n; i++)
			o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", v->list[i]);
		if (!v->nlist)
			snprintf(buf, n, "none");
	} else {
		snprintf(buf, n, "%s", v->text);
	}
	return buf;
}

json_t *pv_json(const struct pfield_def *f, const struct pvalue *v)
{
	if (!v->known)
		return f->kind == PF_ENUM ? json_string("unknown") : json_null();
	switch (f->kind) {
	case PF_BOOL:
		return json_boolean(strcmp(v->text, "yes") == 0);
	case PF_NUMBER:
		return cli_json_number(v->number);
	case PF_LIST: {
		json_t *a = json_array();
		for (size_t i = 0; i < v->nlist; i++)
			json_array_append_new(a, json_string(v->list[i]));
		return a;
	}
	default:
		return json_string(v->text);
	}
}

void cli_caps(const struct cli_args *a, unsigned *caps)
{
	const struct opt_def *opts[CLI_MAX_OPTS];
	size_t n = cli_options_of(a->cmd, opts, CLI_MAX_OPTS);
	*caps = 0;
	for (size_t i = 0; i < n; i++) {
		const char *v = cli_opt(a, opts[i]->id);
		const char *value = opts[i]->type == OPT_BOOL ? NULL : v;
		int c = v ? query_cap_find(opts[i]->name, value) : -1;
		if (c >= 0)
			*caps |= 1u << c;
	}
}

/* One JSON value and a newline on stdout; DEL and C1 controls, which
 * jansson writes raw, escaped (render_json_write).  0, -1 if writing
 * failed, -2 out of memory. */
static int print_one(const json_t *v, size_t flags)
{
	char *text = json_dumps(v, flags);
	if (!text)
		return -2;
	int bad = render_json_write(stdout, text, strlen(text)) != 0 || putchar('\n') == EOF;
	free(text);
	return bad ? -1 : 0;
}

int cli_print_json(json_t *v, int ndjson)
{
	const size_t real = JSON_REAL_PRECISION(15) | JSON_PRESERVE_ORDER;
	int bad = v ? 0 : -2;
	if (!bad && ndjson && json_is_array(v)) {
		size_t i;
		json_t *item;
		json_array_foreach(v, i, item) {
			if (!bad)
				bad = print_one(item, JSON_COMPACT | real);
		}
	} else if (!bad) {
		bad = print_one(v, JSON_INDENT(2) | real);
	}
	json_decref(v);
	if (bad == -2) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	if (bad || fflush(stdout) != 0) {
		msg_error("cannot write output");
		return EXIT_IOERR;
	}
	return EXIT_OK;
}

const struct pv_group pv_groups[] = {
	{"kubernetes", "Kubernetes"}, {"docker", "Docker"}, {"sharing", "GPU sharing"},
	{"interconnect", "Interconnect"}, {"billing", "Billing"},
};
const size_t pv_ngroups = sizeof pv_groups / sizeof pv_groups[0];

size_t pv_group_fields(const char *group, int *idx, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < profile_field_count && n < max; i++)
		if (strcmp(profile_fields[i].group, group) == 0)
			idx[n++] = (int)i;
	if (strcmp(group, "billing") == 0 && n < max)
		idx[n++] = profile_field_index("spot");
	return n;
}
