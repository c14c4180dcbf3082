/* page_write.c - the page as it is written (page_int.h's struct page_w):
 * text gathered in a buffer, escaped for HTML or JSON, written out in
 * blocks; page.c and page_plot.c write through it. */
#include <stdarg.h>
#include <stdio.h>

#include "gpucmp/buf.h"
#include "gpucmp/render.h"
#include "page_int.h"

#define PW_FLUSH_AT (64 * 1024)

void pw_flush(struct page_w *w)
{
	if (w->st == GC_OK && w->b.len && fwrite(w->b.ptr, 1, w->b.len, w->f) != w->b.len)
		w->st = GC_EIO;
	buf_reset(&w->b);
}

static void pw_done(struct page_w *w, enum gc_status st)
{
	if (w->st == GC_OK && st != GC_OK)
		w->st = st;
	if (w->b.len >= PW_FLUSH_AT)
		pw_flush(w);
}

void pw_str(struct page_w *w, const char *s)
{
	if (w->st == GC_OK)
		pw_done(w, buf_addstr(&w->b, s));
}

void pw_fmt(struct page_w *w, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n >= 0)
		pw_str(w, tmp);
}

void pw_text(struct page_w *w, const char *s)
{
	if (w->st == GC_OK)
		pw_done(w, render_html(&w->b, s ? s : ""));
}

void pw_json(struct page_w *w, const char *s)
{
	struct buf j;
	buf_init(&j, 0);
	enum gc_status st = render_json_string(&j, s ? s : "");
	for (size_t i = 0; st == GC_OK && i < j.len && w->st == GC_OK; i++) {
		char ch = j.ptr[i];
		if (ch == '<' || ch == '>' || ch == '&')
			pw_fmt(w, "\\u%04x", (unsigned)ch);
		else
			pw_done(w, buf_addc(&w->b, ch));
	}
	buf_free(&j);
	pw_done(w, st);
}
