/* profile_view.c - JSON out, and the capability filters the options
 * select. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/query.h"

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

static int dump_to(const char *text, size_t n, void *b)
{
	return buf_add(b, text, n) == GC_OK ? 0 : -1;
}

/* One JSON value and a newline on stdout; DEL and C1 controls, which
 * jansson writes raw, escaped (render_json_write).  0, -1 if writing
 * failed, -2 out of memory.  The text goes through a buf because jansson
 * (2.14) does not check every append it makes (an object's key): the
 * buf's sticky flag sees a failed one. */
static int print_one(const json_t *v, size_t flags)
{
	struct buf b;
	buf_init(&b, 0);
	int bad = json_dump_callback(v, dump_to, &b, flags) != 0 || b.failed || !b.ptr ? -2 : 0;
	if (!bad)
		bad = render_json_write(stdout, b.ptr, b.len) != 0 || putchar('\n') == EOF ? -1 : 0;
	buf_free(&b);
	return bad;
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
