/* page_plot.c - the page's plots, inline SVG drawn at export time: the
 * cheapest price per day per provider for each GPU (the history tables,
 * query_daily), and per GPU architecture each provider's BF16 TFLOP/s per
 * dollar against its price.  Every line and point carries its provider's
 * name as text (and lines a dash pattern of their own), so colour is never
 * the only way to tell them apart; each plot has a title and units. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/query.h"
#include "gpucmp/query_history.h"
#include "gpucmp/strutil.h"
#include "page_int.h"
#include "sqlite_int.h"

#define PLOT_W 720
#define PLOT_H 260
#define PLOT_L 64  /* left margin: the y labels */
#define PLOT_R 150 /* right margin: the providers' names at the lines' ends */
#define PLOT_T 16
#define PLOT_B 40
#define PLOT_MAX 60        /* plots of each kind at most */
#define PLOT_MAX_LABELS 12 /* named points of a scatter */

static const char *const hue[] = {"#1b6ca8", "#c0392b", "#27864a", "#8e44ad", "#b9770e",
				  "#17838f", "#5d6d7e", "#a04000"};
static const char *const dash[] = {"", "6 3", "2 3", "8 3 2 3", "12 4", "4 4 1 4", "1 2",
				   "10 2 2 2 2 2"};
#define NSTYLE (sizeof hue / sizeof hue[0])

/* A round step for about four ticks up to top. */
static double tick_step(double top)
{
	double raw = top / 4, mag = pow(10, floor(log10(raw)));
	double m = raw / mag;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

/* The frame: axes, y ticks up to ymax with their unit, the x axis's title. */
static void frame(struct page_w *w, double ymax, const char *yunit, const char *xtitle)
{
	double step = tick_step(ymax);
	int x1 = PLOT_W - PLOT_R, y1 = PLOT_H - PLOT_B;
	if (!(step > 0) || ymax / step > 20) /* a denormal top: one tick */
		step = ymax;
	pw_fmt(w, "<path class=ax d=\"M%d %dV%dH%d\"/>\n", PLOT_L, PLOT_T, y1, x1);
	for (double v = 0; v <= ymax * 1.0001; v += step) {
		double y = y1 - v / ymax * (y1 - PLOT_T);
		pw_fmt(w, "<path class=grid d=\"M%d %.1fH%d\"/><text x=%d y=%.1f class=yl>%g"
			  "</text>\n", PLOT_L, y, x1, PLOT_L - 4, y + 4, v);
	}
	pw_fmt(w, "<text x=4 y=%d class=unit>", PLOT_T - 4);
	pw_text(w, yunit);
	pw_fmt(w, "</text><text x=%d y=%d class=xt>", (PLOT_L + x1) / 2, PLOT_H - 4);
	pw_text(w, xtitle);
	pw_str(w, "</text>\n");
}

static void figure_open(struct page_w *w, const char *id, const char *title)
{
	pw_fmt(w, "<figure><figcaption id=\"%s\">", id);
	pw_text(w, title);
	pw_fmt(w, "</figcaption>\n<svg role=img aria-labelledby=\"%s\" viewBox=\"0 0 %d %d\" "
		  "width=%d height=%d xmlns=\"http://www.w3.org/2000/svg\">\n", id, PLOT_W, PLOT_H,
	       PLOT_W, PLOT_H);
}

/* --- price history ------------------------------------------------------------ */

static double day_x(size_t d, size_t ndays)
{
	int x1 = PLOT_W - PLOT_R;
	return ndays < 2 ? PLOT_L : PLOT_L + (double)d / (double)(ndays - 1) * (x1 - PLOT_L);
}

static double price_y(double p, double ymax)
{
	int y1 = PLOT_H - PLOT_B;
	return y1 - p / ymax * (y1 - PLOT_T);
}

/* One provider's line: its days with a price, joined; its name at its
 * last point. */
static void history_line(struct page_w *w, const struct query_daily *v, size_t ndays,
			 double ymax, size_t k)
{
	size_t last = ndays;
	pw_fmt(w, "<path class=ln stroke=\"%s\"%s%s%s d=\"", hue[k % NSTYLE],
	       *dash[k % NSTYLE] ? " stroke-dasharray=\"" : "", dash[k % NSTYLE],
	       *dash[k % NSTYLE] ? "\"" : "");
	int pen = 0;
	for (size_t d = 0; d < ndays; d++) {
		if (isnan(v->min[d])) {
			pen = 0;
			continue;
		}
		pw_fmt(w, "%s%.1f %.1f", pen ? "L" : "M", day_x(d, ndays),
		       price_y(v->min[d], ymax));
		pen = 1;
		last = d;
	}
	pw_str(w, "\"/>\n");
	if (last == ndays)
		return;
	double x = day_x(last, ndays), y = price_y(v->min[last], ymax);
	pw_fmt(w, "<circle cx=%.1f cy=%.1f r=3 fill=\"%s\"><title>", x, y, hue[k % NSTYLE]);
	pw_text(w, v->provider);
	pw_fmt(w, " $%.4g/h</title></circle><text x=%.1f y=%.1f class=lab>", v->min[last], x + 5,
	       y + 4);
	pw_text(w, v->provider);
	pw_str(w, "</text>\n");
}

/* The plot of one GPU: its providers' series v[0..n). */
static void history_plot(struct page_w *w, const struct query_daily *v, size_t n, size_t ndays,
			 long first, size_t index)
{
	double ymax = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t d = 0; d < ndays; d++)
			if (!isnan(v[k].min[d]) && v[k].min[d] > ymax)
				ymax = v[k].min[d];
	if (!(ymax > 0))
		return;
	ymax = ceil(ymax * 1.1 / tick_step(ymax * 1.1)) * tick_step(ymax * 1.1);
	char id[32], title[200], from[32], to[32];
	snprintf(id, sizeof id, "hist%zu", index);
	str_time_format(first * 86400LL, from, sizeof from);
	str_time_format((first + (long)ndays - 1) * 86400LL, to, sizeof to);
	snprintf(title, sizeof title, "%s: the cheapest offer's price per day, by provider "
		 "(USD per hour for the whole machine, any GPU count), %.10s to %.10s", v->gpu,
		 from, to);
	figure_open(w, id, title);
	frame(w, ymax, "USD/h", "day (UTC)");
	pw_fmt(w, "<text x=%d y=%d class=xl>%.10s</text><text x=%d y=%d class=xl>%.10s</text>\n",
	       PLOT_L, PLOT_H - PLOT_B + 14, from, PLOT_W - PLOT_R, PLOT_H - PLOT_B + 14, to);
	for (size_t k = 0; k < n; k++)
		history_line(w, &v[k], ndays, ymax, k);
	pw_str(w, "</svg></figure>\n");
}

enum gc_status page_plot_history(struct page_w *w, struct cache *c, const struct page_opts *o,
				 size_t *plots, char **err)
{
	struct query q;
	query_init(&q);
	size_t ndays = o->history_days >= 2 ? (size_t)o->history_days : 30;
	long first = (long)(o->now / 86400) - (long)ndays + 1;
	char since[32];
	str_time_format(first * 86400LL, since, sizeof since);
	struct query_sql qs;
	struct query_daily *v = NULL;
	size_t n = 0;
	enum gc_status st = query_build_daily(&q, since, &qs, err);
	if (st == GC_OK)
		st = query_daily(c, &qs, first, ndays, &v, &n, err);
	query_sql_release(&qs);
	*plots = 0;
	size_t gpus = 0;
	for (size_t i = 0; st == GC_OK && i < n;) {
		size_t j = i;
		while (j < n && strcmp(v[j].gpu, v[i].gpu) == 0)
			j++;
		if (gpus++ < PLOT_MAX) {
			history_plot(w, v + i, j - i, ndays, first, gpus);
			(*plots)++;
		}
		i = j;
	}
	if (gpus > PLOT_MAX)
		pw_fmt(w, "<p class=note>%zu more GPUs not drawn: <code>gpucmp history --gpu "
			  "NAME</code> shows any of them.</p>\n", gpus - PLOT_MAX);
	if (st == GC_OK && !gpus)
		pw_str(w, "<p class=note>No price history yet: history starts with a provider's "
			  "second load (docs/HISTORY.md).</p>\n");
	query_daily_release(v, n);
	return st;
}

/* --- price against performance ---------------------------------------------------- */

struct point {
	const char *arch; /* borrowed from the GPU table */
	char *gpu, *provider;
	double price, tflops; /* USD per GPU-hour; BF16 TFLOP/s per GPU */
};

static int by_arch_value(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	int c = strcmp(x->arch, y->arch);
	if (c)
		return c;
	double vx = x->tflops / x->price, vy = y->tflops / y->price;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	c = strcmp(x->provider, y->provider);
	return c ? c : strcmp(x->gpu, y->gpu);
}

/* Each provider's cheapest price per GPU-hour for each GPU model whose
 * BF16 throughput is known: *out a new array (free the strings). */
static enum gc_status read_points(struct cache *c, const struct page_opts *o,
				  struct point **out, size_t *n, char **err)
{
	static const char sql[] =
		"SELECT gpu, provider, min(price_per_gpu_hr), max(bf16_tflops) FROM offer_v"
		" WHERE price_per_gpu_hr > 0 AND bf16_tflops > 0 GROUP BY gpu, provider";
	sqlite3_stmt *s = NULL;
	sqlite3 *db = cache_db(c);
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return err_set(err, GC_EIO, "cannot read the cache: %s", sqlite3_errmsg(db));
	size_t cap = 0;
	enum gc_status st = GC_OK;
	int rc;
	while (st == GC_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			struct point *p = realloc(*out, (cap = cap ? cap * 2 : 64) * sizeof *p);
			if (!p) {
				st = err_set(err, GC_ENOMEM, "out of memory");
				break;
			}
			*out = p;
		}
		const char *gpu = (const char *)sqlite3_column_text(s, 0);
		const struct gpu_model *m = o->gpus && gpu ? gpu_find(o->gpus, gpu) : NULL;
		struct point *p = &(*out)[*n];
		p->arch = m && m->architecture ? m->architecture : "other";
		p->gpu = strdup(gpu ? gpu : "");
		const char *prov = (const char *)sqlite3_column_text(s, 1);
		p->provider = strdup(prov ? prov : "");
		p->price = sqlite3_column_double(s, 2);
		p->tflops = sqlite3_column_double(s, 3);
		(*n)++;
		if (!p->gpu || !p->provider)
			st = err_set(err, GC_ENOMEM, "out of memory");
	}
	if (st == GC_OK && rc != SQLITE_DONE)
		st = err_set(err, GC_EIO, "cannot read the cache: %s", sqlite3_errmsg(db));
	sqlite3_finalize(s);
	return st;
}

static void scatter_point(struct page_w *w, const struct point *p, double xmax, double ymax,
			  size_t rank)
{
	int x1 = PLOT_W - PLOT_R, y1 = PLOT_H - PLOT_B;
	double v = p->tflops / p->price;
	double x = PLOT_L + p->price / xmax * (x1 - PLOT_L), y = y1 - v / ymax * (y1 - PLOT_T);
	pw_fmt(w, "<circle cx=%.1f cy=%.1f r=3.5 class=pt><title>", x, y);
	pw_text(w, p->provider);
	pw_str(w, " ");
	pw_text(w, p->gpu);
	pw_fmt(w, ": $%.4g per GPU-hour, %.0f BF16 TFLOP/s per $/h</title></circle>\n", p->price,
	       v);
	if (rank >= PLOT_MAX_LABELS)
		return;
	pw_fmt(w, "<text x=%.1f y=%.1f class=lab>", x + 5, y + 4);
	pw_text(w, p->provider);
	pw_str(w, " ");
	pw_text(w, p->gpu);
	pw_str(w, "</text>\n");
}

/* One architecture's points p[0..n), best value first. */
static void scatter_plot(struct page_w *w, const struct point *p, size_t n, size_t index)
{
	double xmax = 0, ymax = 0;
	for (size_t i = 0; i < n; i++) {
		xmax = fmax(xmax, p[i].price);
		ymax = fmax(ymax, p[i].tflops / p[i].price);
	}
	xmax = ceil(xmax * 1.05 / tick_step(xmax * 1.05)) * tick_step(xmax * 1.05);
	ymax = ceil(ymax * 1.1 / tick_step(ymax * 1.1)) * tick_step(ymax * 1.1);
	char id[32], title[240];
	snprintf(id, sizeof id, "perf%zu", index);
	snprintf(title, sizeof title, "%s GPUs: BF16 TFLOP/s per dollar-hour (higher is better) "
		 "against the price in USD per GPU-hour, each provider's cheapest offer of each "
		 "model%s", p->arch, n > PLOT_MAX_LABELS ? "; the 12 best named" : "");
	figure_open(w, id, title);
	frame(w, ymax, "TFLOP/s per $/h", "USD per GPU-hour");
	double step = tick_step(xmax);
	int x1 = PLOT_W - PLOT_R;
	if (!(step > 0) || xmax / step > 20)
		step = xmax;
	for (double v = step; v <= xmax * 1.0001; v += step)
		pw_fmt(w, "<text x=%.1f y=%d class=xl>$%g</text>\n",
		       PLOT_L + v / xmax * (x1 - PLOT_L), PLOT_H - PLOT_B + 14, v);
	for (size_t i = n; i-- > 0;) /* the named ones drawn last, on top */
		scatter_point(w, &p[i], xmax, ymax, i);
	pw_str(w, "</svg></figure>\n");
}

enum gc_status page_plot_scatter(struct page_w *w, struct cache *c, const struct page_opts *o,
				 size_t *plots, char **err)
{
	struct point *p = NULL;
	size_t n = 0;
	enum gc_status st = read_points(c, o, &p, &n, err);
	*plots = 0;
	if (st == GC_OK && n)
		qsort(p, n, sizeof *p, by_arch_value);
	for (size_t i = 0; st == GC_OK && i < n;) {
		size_t j = i;
		while (j < n && strcmp(p[j].arch, p[i].arch) == 0)
			j++;
		if (*plots < PLOT_MAX)
			scatter_plot(w, p + i, j - i, ++*plots);
		i = j;
	}
	if (st == GC_OK && !n)
		pw_str(w, "<p class=note>No offer with a price and a known BF16 throughput.</p>\n");
	for (size_t i = 0; i < n; i++) {
		free(p[i].gpu);
		free(p[i].provider);
	}
	free(p);
	return st;
}
