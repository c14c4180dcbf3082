/* where_opt.c - --where for list and providers: join the expressions,
 * compile, and on error show the expression with a caret under the token. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/buf.h"
#include "gpucmp/strutil.h"

/* Columns on screen before byte `pos` of s (UTF-8 continuation bytes take none). */
static size_t columns_before(const char *s, size_t pos)
{
	size_t cols = 0;
	for (size_t i = 0; i < pos && s[i]; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

int cli_where(const struct cli_args *a, where_lookup_fn lookup, where_suggest_fn suggest,
	      void *ctx, struct where_result *out, int *have)
{
	*have = 0;
	int n = a->nvalues[O_WHERE];
	if (!n)
		return EXIT_OK;
	/* several --where: each in parentheses, joined by "and" */
	struct buf e;
	buf_init(&e, 64 * 1024);
	enum gc_status st = GC_OK;
	for (int i = 0; i < n && st == GC_OK; i++) {
		const char *w = cli_opt_at(a, O_WHERE, i);
		st = n == 1 ? buf_addstr(&e, w) : buf_printf(&e, "%s(%s)", i ? " and " : "", w);
	}
	if (st != GC_OK) {
		buf_free(&e);
		msg_error(st == GC_ENOMEM ? "out of memory" : "--where: expression too long");
		return st == GC_ENOMEM ? EXIT_OSERR : EXIT_USAGE;
	}
	char *err = NULL;
	const char *expr = e.ptr ? e.ptr : "";
	st = where_compile(expr, lookup, suggest, ctx, out, &err);
	if (st == GC_ENOMEM) { /* not the expression's fault: no caret */
		msg_status(st, NULL, NULL);
		free(err);
		buf_free(&e);
		return EXIT_OSERR;
	}
	if (st != GC_OK) {
		char shown[1024];
		str_sanitize(shown, sizeof shown, expr);
		size_t pos = columns_before(expr, out->err_pos);
		size_t len = out->err_len < 200 ? out->err_len : 200;
		msg_error("--where: %s", err ? err : "bad expression");
		fprintf(stderr, "  %s\n  %*s", shown, (int)pos, "");
		for (size_t i = 0; i < len; i++)
			fputc('^', stderr);
		fputc('\n', stderr);
		free(err);
		buf_free(&e);
		return st == GC_EUSAGE ? EXIT_USAGE : exit_code_for(st);
	}
	buf_free(&e);
	*have = 1;
	return EXIT_OK;
}
