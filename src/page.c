/* page.c - the cache as one self-contained web page (page.h). */
#include "gpucmp/page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/embedded.h"
#include "gpucmp/field.h"
#include "gpucmp/query.h"
#include "gpucmp/render.h"
#include "gpucmp/strutil.h"
#include "page_int.h"

/* Rows in the shown table; the others wait in a <template> (parsed, never
 * laid out) for the script's filters and sort: a browser opens a page of
 * 10^5 rows in seconds, not minutes (docs/PERFORMANCE.md, "The page"). */
#define PAGE_SHOWN 1000

/* The style sheet or the script, compiled in (data/page.css, data/page.js):
 * written inline, so the page fetches nothing. */
static void pw_asset(struct page_w *w, const char *name)
{
	const struct embedded_file *e = embedded_find(name);
	if (!e) {
		w->st = w->st == GC_OK ? GC_EDATA : w->st;
		return;
	}
	pw_str(w, (const char *)e->data);
}

/* --- the columns ------------------------------------------------------------- */

/* What a row shows, in order: list's grouped answer (its cheapest region,
 * the region count), the capability columns, where and how old. */
static const char *const page_keys[] = {
	"provider", "sku", "gpu", "gpu_count", "gpu_mem_gb", "region", "region_count",
	"price_hr", "price_per_gpu_hr", "spot_price_hr", "available", "k8s",
	"docker_custom_image", "docker_daemon", "mig", "mps", "time_slicing", "infiniband",
	"rdma", "nvlink", "geo", "country", "source", "as_of", "stale"};
#define PAGE_NCOLS (sizeof page_keys / sizeof page_keys[0])

static const struct field *page_col(const char *key)
{
	const struct field *f = field_find(key);
	for (size_t i = 0; !f && i < group_field_count; i++)
		if (strcmp(group_fields[i].key, key) == 0)
			f = &group_fields[i];
	return f;
}

static int numeric_type(enum field_type t)
{
	return t == FT_NUM || t == FT_PRICE;
}

static void page_thead(struct page_w *w, const struct field *const *cols, size_t n)
{
	pw_str(w, "<table id=t>\n<thead><tr>");
	for (size_t i = 0; i < n; i++) {
		const struct field *f = cols[i];
		char help[300];
		field_help(f, help, sizeof help);
		pw_fmt(w, "<th scope=col data-k=\"%s\"%s title=\"", f->key,
		       numeric_type(f->type) ? " data-t=n" : "");
		pw_text(w, help);
		pw_str(w, "\">");
		pw_text(w, f->header);
		pw_str(w, "</th>");
	}
	pw_str(w, "</tr></thead>\n<tbody>\n");
}

/* The rows: query_group_list through the output door (RF_HTML), list's
 * default order (cheapest first). */
static enum gc_status page_rows(struct page_w *w, struct cache *c, const struct page_opts *o,
				struct query_counts *counts, struct page_result *r, char **err)
{
	const struct field *cols[PAGE_NCOLS + 1];
	for (size_t i = 0; i < PAGE_NCOLS; i++)
		if (!(cols[i] = page_col(page_keys[i])))
			return err_set(err, GC_EDATA, "page: no field %s", page_keys[i]);
	cols[PAGE_NCOLS] = field_find("price_kind");
	page_thead(w, cols, PAGE_NCOLS);
	pw_flush(w);
	if (w->st != GC_OK)
		return err_set(err, w->st, "cannot write the page");
	struct query q;
	query_init(&q);
	q.group = QG_SKU;
	q.stale_after = o->stale_after > 0 ? o->stale_after : QUERY_STALE_AFTER;
	query_prepare_fields(&q);
	char brk[400];
	snprintf(brk, sizeof brk, "</tbody>\n</table>\n<p id=more class=note>Without JavaScript "
		 "this page shows the cheapest %d rows; the others are in it for its filters and "
		 "sorting (with JavaScript), and <code>gpucmp list</code> shows every one.</p>\n"
		 "<template id=rest><table><tbody>\n", PAGE_SHOWN);
	struct render_spec spec = {.format = RF_HTML, .cols = cols, .ncols = PAGE_NCOLS,
				   .out = w->f, .kind_col = (int)PAGE_NCOLS + 1,
				   .html_break_at = PAGE_SHOWN, .html_break = brk};
	enum gc_status st = query_group_list(c, &q, cols, PAGE_NCOLS + 1, &spec, &r->rows, counts,
					     NULL, err);
	if (st == GC_OK) {
		r->offers = counts->offers;
		r->providers = counts->providers;
	}
	pw_str(w, r->rows >= PAGE_SHOWN ? "</tbody></table></template>\n"
						   : "</tbody>\n</table>\n");
	return st;
}

/* --- around the rows ------------------------------------------------------------ */

static void page_head(struct page_w *w, const struct page_opts *o)
{
	pw_str(w, "<!DOCTYPE html>\n<html lang=en>\n<head>\n<meta charset=utf-8>\n"
		  "<meta name=viewport content=\"width=device-width, initial-scale=1\">\n"
		  "<meta name=generator content=\"gpucmp " GPUCMP_VERSION "\">\n"
		  "<title>GPU offers: gpucmp snapshot of ");
	pw_text(w, o->created_at);
	pw_str(w, "</title>\n<style>\n");
	pw_asset(w, "data/page.css");
	pw_str(w, "</style>\n</head>\n<body>\n<header>\n<h1>GPU offers</h1>\n<p id=snap>"
		  "Built by gpucmp from the team snapshot of <time id=built datetime=\"");
	pw_text(w, o->created_at);
	pw_str(w, "\">");
	pw_text(w, o->created_at);
	pw_str(w, "</time><span id=age></span> (");
	pw_fmt(w, "%zu offers in the snapshot; manifest.json, payload sha256 <code>",
	       o->snapshot_offers);
	pw_text(w, o->sha256);
	pw_str(w, "</code>; ");
	if (o->key && *o->key) {
		pw_str(w, "signed in manifest.sig by the key <code id=key>");
		pw_text(w, o->key);
		pw_str(w, "</code>");
	} else {
		pw_str(w, "<strong>unsigned</strong>");
	}
	pw_str(w, "). The table is <code>gpucmp list --group-by sku</code> on the cache "
		  "the snapshot was exported from: one row per provider and SKU, its cheapest "
		  "region, cheapest first.</p>\n</header>\n");
}

static void page_summary(struct page_w *w, struct cache *c, const struct page_opts *o,
			 const struct page_result *r, const struct query_counts *counts)
{
	struct query_age age;
	char note[640] = "", *err = NULL;
	if (query_age(c, &age, &err) == GC_OK)
		query_age_note_answer(&age, counts, o->now, (long)(o->now / 86400),
				      o->stale_after > 0 ? o->stale_after : QUERY_STALE_AFTER,
				      note, sizeof note);
	free(err);
	pw_fmt(w, "<p id=count>%zu rows (one per provider and SKU) for %lld offers from %lld "
		  "providers", r->rows, r->offers, r->providers);
	pw_text(w, note);
	pw_str(w, ".</p>\n<p id=shown aria-live=polite></p>\n<p id=omit aria-live=polite></p>\n"
		  "<button type=button id=next hidden>show 1000 more</button>\n");
}

/* The words of the columns shown, as `gpucmp help values` says them. */
static void page_legend(struct page_w *w)
{
	pw_str(w, "<section id=legend>\n<h2>What the columns say</h2>\n<dl>\n");
	for (size_t i = 0; i < field_value_count; i++) {
		const struct field_value *v = &field_values[i];
		int shown = !v->fields;
		for (size_t k = 0; !shown && k < PAGE_NCOLS; k++)
			shown = strstr(v->fields, page_keys[k]) != NULL;
		if (!shown)
			continue;
		pw_str(w, "<dt>");
		if (v->fields) {
			pw_text(w, v->fields);
			pw_str(w, ": ");
		}
		pw_text(w, v->value);
		pw_str(w, "</dt><dd>");
		pw_text(w, v->meaning);
		pw_str(w, "</dd>\n");
	}
	pw_str(w, "<dt>stale</dt><dd>data older than the stale age when the page was built, or "
		  "the provider's last refresh failed</dd>\n</dl>\n</section>\n");
}

/* `before` (the member's key and what comes before it), then text as a
 * JSON string. */
static void pw_member(struct page_w *w, const char *before, const char *text)
{
	pw_str(w, before);
	pw_json(w, text);
}

/* The search box's names: every model of the GPU table, as JSON. */
static void page_gpus(struct page_w *w, const struct gpu_table *t)
{
	pw_str(w, "<script type=\"application/json\" id=gpus>[");
	for (size_t i = 0; t && i < gpu_table_count(t); i++) {
		const struct gpu_model *m = gpu_table_at(t, i);
		pw_member(w, i ? ",\n{\"id\":" : "\n{\"id\":", m->id);
		pw_member(w, ",\"f\":", m->family);
		pw_member(w, ",\"v\":", m->vendor);
		pw_member(w, ",\"ff\":", m->form_factor);
		pw_fmt(w, ",\"m\":%g,\"a\":[", isnan(m->memory_gb) ? 0 : m->memory_gb);
		pw_json(w, m->name);
		for (size_t k = 0; k < m->naliases; k++)
			pw_member(w, ",", m->aliases[k]);
		pw_str(w, "]}");
	}
	pw_str(w, "]</script>\n");
}

/* The capability filters, as list's (query_caps): the column each reads
 * and the values that qualify; an unknown value is left out and counted. */
static void page_caps(struct page_w *w)
{
	pw_str(w, "<script type=\"application/json\" id=caps>[");
	for (int c = 0, n = 0; c < QC_COUNT; c++) {
		const struct query_cap_def *d = &query_caps[c];
		if (c == QC_DOCKER_BASE) /* two columns: list alone */
			continue;
		pw_fmt(w, "%s\n{\"o\":\"--%s%s%s\",\"k\":\"%s\",\"a\":[", n++ ? "," : "", d->option,
		       d->value ? " " : "", d->value ? d->value : "", query_cap_field(c));
		if (!d->accept[0])
			pw_str(w, "\"true\"");
		for (size_t k = 0; d->accept[k]; k++)
			pw_fmt(w, "%s\"%s\"", k ? "," : "",
			       strcmp(d->accept[k], "yes") == 0 ? "true" : d->accept[k]);
		pw_str(w, "]}");
	}
	pw_str(w, "]</script>\n");
}

static void page_filters(struct page_w *w)
{
	pw_str(w,
	       "<form id=f hidden onsubmit=\"return false\">\n"
	       "<label>GPU <input id=q name=q size=14 placeholder=\"H100:8\" "
	       "title=\"as gpucmp list --gpu: names, vendor, memory (80GB, 24GB..80GB) and a "
	       "count after a colon (H100:8, A100:2..8)\"></label> <span id=qerr></span>\n"
	       "<label>model <select id=gpu name=gpu><option value=\"\">any</option></select>"
	       "</label>\n"
	       "<label>at least <input id=n name=n type=number min=1 step=1 size=3> GPUs</label>\n"
	       "<label>provider <select id=provider name=provider><option value=\"\">any"
	       "</option></select></label>\n"
	       "<label>geography <select id=geo name=geo><option value=\"\">any</option>"
	       "</select></label>\n"
	       "<label>country <select id=country name=country><option value=\"\">any"
	       "</option></select></label>\n"
	       "<label>capability <select id=cap name=cap><option value=\"\">any</option>"
	       "</select></label>\n"
	       "<label><input id=unk name=unk type=checkbox> include unknown</label>\n"
	       "<label>at most $<input id=max name=max type=number min=0 step=any size=6>/h"
	       "</label>\n"
	       "<button type=button id=reset>clear</button>\n</form>\n"
	       "<p class=note>Geography and country are those of each row's cheapest region; "
	       "<code>gpucmp list --region eu</code> finds the cheapest region in a geography. "
	       "Click a column's header to sort by it (again: the other way).</p>\n");
}

/* --- the page ------------------------------------------------------------------ */

static enum gc_status page_body(struct page_w *w, struct cache *c, const struct page_opts *o,
				struct page_result *r, char **err)
{
	struct query_counts counts;
	memset(&counts, 0, sizeof counts);
	page_head(w, o);
	page_filters(w);
	pw_str(w, "<main>\n");
	enum gc_status st = page_rows(w, c, o, &counts, r, err);
	if (st != GC_OK)
		return st;
	page_summary(w, c, o, r, &counts);
	page_legend(w);
	pw_str(w, "<section id=plots>\n<h2>Price history</h2>\n");
	st = page_plot_history(w, c, o, &r->history_plots, err);
	if (st == GC_OK) {
		pw_str(w, "<h2>Price and performance</h2>\n");
		st = page_plot_scatter(w, c, o, &r->scatter_plots, err);
	}
	if (st != GC_OK)
		return st;
	pw_str(w, "</section>\n</main>\n");
	page_gpus(w, o->gpus);
	page_caps(w);
	pw_str(w, "<script>\n");
	pw_asset(w, "data/page.js");
	pw_str(w, "</script>\n</body>\n</html>\n");
	return GC_OK;
}

enum gc_status page_write(FILE *f, struct cache *c, const struct page_opts *o,
			  struct page_result *r, char **err)
{
	struct page_w w = {.f = f, .st = GC_OK};
	memset(r, 0, sizeof *r);
	buf_init(&w.b, 0);
	enum gc_status st = cache_read_begin(c, err);
	if (st == GC_OK) {
		st = page_body(&w, c, o, r, err);
		cache_read_end(c);
	}
	pw_flush(&w);
	buf_free(&w.b);
	if (st == GC_OK && w.st != GC_OK)
		st = err_set(err, w.st, w.st == GC_EIO ? "cannot write the page"
						       : "out of memory writing the page");
	return st;
}
