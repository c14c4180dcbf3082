/* page_int.h - what page.c, page_plot.c and page_write.c share. */
#ifndef GPUCMP_PAGE_INT_H
#define GPUCMP_PAGE_INT_H

#include <stdio.h>

#include "gpucmp/buf.h"
#include "gpucmp/cache.h"
#include "gpucmp/page.h"

/* The page as it is written: text gathered in b, written to f now and
 * then; the first failure is kept in st and every later call does nothing. */
struct page_w {
	FILE *f;
	struct buf b;
	enum gc_status st;
};

/* page_write.c: the writer. */
void pw_str(struct page_w *w, const char *s);
void pw_fmt(struct page_w *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Text from the data, escaped for HTML text and quoted attributes (render_html). */
void pw_text(struct page_w *w, const char *s);
/* A JSON string literal safe inside <script>: no <, > or & raw. */
void pw_json(struct page_w *w, const char *s);
/* Write what is gathered (before another writer uses f). */
void pw_flush(struct page_w *w);

/* page_plot.c: the SVG sections. */
enum gc_status page_plot_history(struct page_w *w, struct cache *c, const struct page_opts *o,
				 size_t *plots, char **err);
enum gc_status page_plot_scatter(struct page_w *w, struct cache *c, const struct page_opts *o,
				 size_t *plots, char **err);

#endif
