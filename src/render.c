/* render.c - table, JSON, CSV, NDJSON and HTML output of offers. */
/* wcwidth() is X/Open */
#define _XOPEN_SOURCE 700
#include "gpucmp/render.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "gpucmp/csv.h"
#include "gpucmp/rates.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

#define FLUSH_AT (64 * 1024)

struct renderer {
	struct render_spec spec;
	struct buf out;    /* pending output */
	size_t rows;
	int io_error;
	/* table: every cell, NUL-separated, row-major */
	struct buf cells;
	size_t *offsets;
	size_t noffsets, cap;
	unsigned char *dim; /* per cell: render dimmed (unknown / null) */
	/* render_row: the statement's row as values */
	struct render_value *vals;
	size_t nvals;
};

/* --- formats ------------------------------------------------------------- */

#define RENDER_FORMAT_DEF(name, value, people, cli, desc) {name, value, people, cli, desc},
const struct render_format_def render_formats[] = {
	RENDER_FORMATS(RENDER_FORMAT_DEF){NULL, RF_COUNT, 0, 0, NULL}};

int render_for_people(enum render_format fmt)
{
	return (unsigned)fmt < RF_COUNT && render_formats[fmt].for_people;
}

const struct render_format_def *render_format_named(const char *name)
{
	for (const struct render_format_def *d = render_formats; name && d->name; d++)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/* --- helpers ------------------------------------------------------------- */

static void flush(struct renderer *r, int force)
{
	if (r->out.len && (force || r->out.len >= FLUSH_AT)) {
		if (fwrite(r->out.ptr, 1, r->out.len, r->spec.out) != r->out.len)
			r->io_error = 1;
		buf_reset(&r->out);
	}
}

static size_t utf8_seq(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	size_t n = (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3
		 : (p[0] & 0xF8) == 0xF0 && p[0] <= 0xF4 ? 4 : 0;
	if (n == 0 || (n == 2 && p[0] < 0xC2))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	if (n == 3 && ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0)))
		return 0;
	if (n == 4 && ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90)))
		return 0;
	return n;
}

enum gc_status render_json_string(struct buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	enum gc_status st = buf_addc(b, '"');
	const unsigned char *p = (const unsigned char *)s;
	while (*p && st == GC_OK) {
		const unsigned char *run = p;
		while (*p >= 0x20 && *p < 0x7F && *p != '"' && *p != '\\')
			p++;
		if (p > run)
			st = buf_add(b, run, (size_t)(p - run));
		if (!*p || st != GC_OK)
			break;
		if (*p == '"' || *p == '\\') {
			char esc[2] = {'\\', (char)*p++};
			st = buf_add(b, esc, 2);
		} else if (*p < 0x20 || *p == 0x7F) {
			char esc[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
			st = buf_add(b, esc, 6);
			p++;
		} else if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0) {
			/* a C1 control (U+009B is CSI, a terminal escape in one
			 * character): valid JSON raw, but never on a terminal */
			char esc[6] = {'\\', 'u', '0', '0', hex[p[1] >> 4], hex[p[1] & 15]};
			st = buf_add(b, esc, 6);
			p += 2;
		} else {
			size_t n = utf8_seq(p);
			if (n) {
				st = buf_add(b, p, n);
				p += n;
			} else {
				st = buf_addstr(b, "\xEF\xBF\xBD");
				p++;
			}
		}
	}
	return st == GC_OK ? buf_addc(b, '"') : st;
}

enum gc_status render_html(struct buf *b, const char *s)
{
	enum gc_status st = GC_OK;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && st == GC_OK) {
		const unsigned char *run = p;
		while (*p >= 0x20 && *p < 0x7F && !strchr("&<>\"'", *p))
			p++;
		if (p > run)
			st = buf_add(b, run, (size_t)(p - run));
		if (!*p || st != GC_OK)
			break;
		const char *ref = *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;"
				: *p == '"' ? "&quot;" : *p == '\'' ? "&#39;" : NULL;
		size_t n = ref || *p < 0x80 ? 1 : utf8_seq(p);
		if (ref)
			st = buf_addstr(b, ref);
		else if (*p < 0x20 || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0))
			st = buf_addc(b, '?'); /* a control: never raw, as in a table */
		else if (n)
			st = buf_add(b, p, n);
		else
			st = buf_addstr(b, "\xEF\xBF\xBD");
		p += n ? n : 1;
	}
	return st;
}

int render_json_write(FILE *f, const char *json, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)json, *end = p + len, *run = p;
	int bad = 0;
	for (; p < end && !bad; p++) {
		int c1 = p[0] == 0xC2 && p + 1 < end && p[1] >= 0x80 && p[1] < 0xA0;
		if (*p != 0x7F && !c1)
			continue;
		unsigned char cp = c1 ? p[1] : 0x7F;
		char esc[6] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15]};
		bad = fwrite(run, 1, (size_t)(p - run), f) != (size_t)(p - run) ||
		      fwrite(esc, 1, sizeof esc, f) != sizeof esc;
		p += c1;
		run = p + 1;
	}
	if (!bad && end > run)
		bad = fwrite(run, 1, (size_t)(end - run), f) != (size_t)(end - run);
	return bad ? -1 : 0;
}

/* Integers print without a fraction; everything else with 15 significant
 * digits, which reads back prices exactly as the source wrote them. */
static void format_number(char *out, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(out, n, "%.0f", v);
	else
		snprintf(out, n, "%.15g", v);
}

enum gc_status render_json_number(struct buf *b, double v)
{
	char tmp[40];
	if (!isfinite(v))
		return buf_addstr(b, "null");
	format_number(tmp, sizeof tmp, v);
	return buf_addstr(b, tmp);
}

/* Terminal cells of the code point at p (length n, a valid sequence):
 * glibc's wcwidth() under the C.UTF-8 locale, set for this call only, so
 * East Asian wide characters take 2 cells and combining marks none.  Where
 * that locale does not exist, 1 cell per code point. */
static size_t cp_width(const unsigned char *p, size_t n)
{
	static locale_t utf8;
	static int tried;
	if (n == 1)
		return 1;
	if (!tried) {
		tried = 1;
		utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	if (!utf8)
		return 1;
	wchar_t cp = n == 2 ? (wchar_t)(p[0] & 0x1F)
		   : n == 3 ? (wchar_t)(p[0] & 0x0F) : (wchar_t)(p[0] & 0x07);
	for (size_t i = 1; i < n; i++)
		cp = (cp << 6) | (p[i] & 0x3F);
	locale_t old = uselocale(utf8);
	int w = wcwidth(cp);
	uselocale(old);
	return w < 0 ? 1 : (size_t)w;
}

/* One step through `s`: the bytes of the next character (an invalid byte
 * counts as one character) and its width in cells. */
static size_t next_char(const unsigned char *p, size_t *cells)
{
	size_t n = p[0] < 0x80 ? 1 : utf8_seq(p);
	if (n == 0) {
		*cells = 1;
		return 1;
	}
	*cells = cp_width(p, n);
	return n;
}

size_t render_width(const char *s)
{
	size_t w = 0, cw;
	for (const unsigned char *p = (const unsigned char *)s; *p; w += cw)
		p += next_char(p, &cw);
	return w;
}

enum gc_status render_fit(struct buf *out, const char *s, size_t width)
{
	if (render_width(s) <= width)
		return buf_addstr(out, s);
	if (width == 0)
		return GC_OK;
	/* keep whole characters (and the combining marks after them) that fit
	 * in width - 1 cells, then the ellipsis */
	size_t cells = 0, cw;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = next_char(p, &cw);
		if (cells + cw > width - 1)
			break;
		cells += cw;
		p += n;
	}
	enum gc_status st = buf_add(out, s, (size_t)(p - (const unsigned char *)s));
	return st == GC_OK ? buf_addstr(out, "\xE2\x80\xA6") : st;
}

int render_term_width(FILE *f)
{
	const char *env = getenv("COLUMNS");
	long v;
	if (env && str_to_long(env, &v) == 0 && v > 0 && v < 10000)
		return (int)v;
	struct winsize ws;
	if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

/* --- values --------------------------------------------------------------- */

/* One row to render: cols, and the values they read (through `fields`
 * when set, else one per column). */
struct row {
	const struct field *const *cols;
	size_t ncols;
	const struct field *fields;
	const struct render_value *vals;
};

static const struct render_value *row_value(const struct row *w, size_t i)
{
	return w->fields ? &w->vals[w->cols[i] - w->fields] : &w->vals[i];
}

static int numeric(const struct field *f)
{
	return f->type == FT_NUM || f->type == FT_PRICE;
}

static int is_null(const struct field *f, const struct render_value *v)
{
	if (v->nest)
		return 0;
	return numeric(f) || f->type == FT_BOOL ? isnan(v->num) : v->text == NULL;
}

/* The current row of a statement as values: its columns typed as
 * spec->cols, those past them (kind_col) as text. */
static void stmt_values(struct renderer *r, sqlite3_stmt *s)
{
	for (size_t i = 0; i < r->nvals; i++) {
		struct render_value *v = &r->vals[i];
		enum field_type t = i < r->spec.ncols ? r->spec.cols[i]->type : FT_TEXT;
		int null = sqlite3_column_type(s, (int)i) == SQLITE_NULL;
		memset(v, 0, sizeof *v);
		if (t == FT_BOOL)
			v->num = null ? NAN : sqlite3_column_int(s, (int)i) != 0;
		else if (t == FT_NUM || t == FT_PRICE)
			v->num = null ? NAN : sqlite3_column_double(s, (int)i);
		else if (!null)
			v->text = (const char *)sqlite3_column_text(s, (int)i);
	}
}

/* --- JSON / NDJSON / CSV ------------------------------------------------- */

/* Between JSON members: with an indent, a new line indented to `depth`. */
static enum gc_status json_break(struct buf *b, int indent, int depth)
{
	return indent ? buf_printf(b, "\n%*s", indent * depth, "") : GC_OK;
}

static enum gc_status json_object(struct buf *b, const struct row *w, int indent, int depth);

static enum gc_status json_nest(struct buf *b, const struct render_nest *n, int indent,
				int depth)
{
	enum gc_status st = buf_addc(b, '[');
	for (size_t k = 0; k < n->n && st == GC_OK; k++) {
		struct row w = {n->cols, n->ncols, NULL, n->vals ? n->vals + k * n->ncols : NULL};
		if (k)
			st = buf_addc(b, ',');
		if (st == GC_OK)
			st = json_break(b, indent, depth + 1);
		if (st == GC_OK)
			st = n->texts ? render_json_string(b, n->texts[k])
				      : json_object(b, &w, indent, depth + 1);
	}
	if (st == GC_OK && n->n)
		st = json_break(b, indent, depth);
	return st == GC_OK ? buf_addc(b, ']') : st;
}

/* An FT_LIST value: its items as a JSON array of strings. */
static enum gc_status json_list(struct buf *b, const char *s)
{
	enum gc_status st = buf_addc(b, '[');
	while (st == GC_OK && *s) {
		const char *end = strchr(s, FIELD_LIST_SEP);
		size_t len = end ? (size_t)(end - s) : strlen(s);
		char *item = strndup(s, len);
		st = item ? render_json_string(b, item) : GC_ENOMEM;
		free(item);
		s += len + (end != NULL);
		if (st == GC_OK && end)
			st = buf_addc(b, ',');
	}
	return st == GC_OK ? buf_addc(b, ']') : st;
}

/* An FT_LIST value as one line, "a, b", into out (n bytes). */
static void list_text(const char *s, char *out, size_t n)
{
	size_t o = 0;
	for (; *s && o + 3 < n; s++) {
		if (*s != FIELD_LIST_SEP) {
			out[o++] = *s;
			continue;
		}
		out[o++] = ',';
		out[o++] = ' ';
	}
	out[o] = '\0';
}

static enum gc_status json_value(struct buf *b, const struct field *f,
				 const struct render_value *v, int indent, int depth)
{
	if (v->nest)
		return json_nest(b, v->nest, indent, depth);
	if (is_null(f, v))
		return buf_addstr(b, "null");
	switch (f->type) {
	case FT_BOOL:
		return buf_addstr(b, v->num ? "true" : "false");
	case FT_NUM:
	case FT_PRICE:
		return render_json_number(b, v->num);
	case FT_YESNO:
		return buf_addstr(b, strcmp(v->text, "yes") == 0  ? "true"
				     : strcmp(v->text, "no") == 0 ? "false"
								  : "null");
	case FT_LIST:
		return json_list(b, v->text);
	default:
		return render_json_string(b, v->text);
	}
}

static enum gc_status json_object(struct buf *b, const struct row *w, int indent, int depth)
{
	enum gc_status st = buf_addc(b, '{');
	for (size_t i = 0; i < w->ncols && st == GC_OK; i++) {
		if (i)
			st = buf_addc(b, ',');
		if (st == GC_OK)
			st = json_break(b, indent, depth + 1);
		if (st == GC_OK)
			st = render_json_string(b, w->cols[i]->key);
		if (st == GC_OK)
			st = buf_addstr(b, indent ? ": " : ":");
		if (st == GC_OK)
			st = json_value(b, w->cols[i], row_value(w, i), indent, depth + 1);
	}
	if (st == GC_OK && w->ncols)
		st = json_break(b, indent, depth);
	return st == GC_OK ? buf_addc(b, '}') : st;
}

/* Would a spreadsheet take this text cell for a formula?  One that starts
 * with =, +, - or @, or a tab or CR (OWASP "CSV injection": Excel,
 * LibreOffice and Google Sheets run =HYPERLINK(...), +cmd|'/C calc'!A0,
 * @SUM(1+1)). */
static int formula_like(const char *s)
{
	return *s && strchr("=+-@\t\r", *s) != NULL;
}

/* CSV text cells, the one door every CSV cell of text goes through:
 * control characters become '?' so that a terminal never sees escape
 * sequences from provider data, and with `guard` a cell that looks like a
 * formula gets a leading ', which spreadsheets read as "this is text" and
 * do not show.  Numbers are not text cells: -1.5 stays as it is. */
static enum gc_status csv_text(struct buf *b, const char *s, int guard)
{
	size_t lead = guard && formula_like(s);
	size_t n = strlen(s) + 1 + lead;
	char tmp[512], *t = n <= sizeof tmp ? tmp : malloc(n);
	if (!t)
		return GC_ENOMEM;
	t[0] = '\'';
	str_sanitize(t + lead, n - lead, s);
	enum gc_status st = csv_quote(b, t);
	if (t != tmp)
		free(t);
	return st;
}

/* A nested array as one line: strings joined by ", ", objects by "; "
 * with their cells joined by a space. */
static void nest_text(const struct render_nest *n, char *out, size_t size)
{
	size_t o = 0;
	out[0] = '\0';
	for (size_t k = 0; k < n->n && o < size; k++) {
		o += (size_t)snprintf(out + o, size - o, "%s", !k ? "" : n->texts ? ", " : "; ");
		for (size_t c = 0; !n->texts && c < n->ncols && o < size; c++) {
			const struct render_value *v = &n->vals[k * n->ncols + c];
			char num[40] = "";
			if (numeric(n->cols[c]) && !isnan(v->num))
				format_number(num, sizeof num, v->num);
			o += (size_t)snprintf(out + o, size - o, "%s%s", c ? " " : "",
					      numeric(n->cols[c]) ? num : v->text ? v->text : "");
		}
		if (n->texts && o < size)
			o += (size_t)snprintf(out + o, size - o, "%s", n->texts[k]);
	}
}

/* A value in the plain words CSV and the page's data-v share: *word, to
 * write as it is (true, 2.5), or *text, to escape for where it goes (a
 * nested value's or a list's text made in tmp); both NULL for null. */
static void plain_value(const struct field *f, const struct render_value *v, char *tmp,
			size_t size, const char **word, const char **text)
{
	*word = *text = NULL;
	if (v->nest) {
		nest_text(v->nest, tmp, size);
		*text = tmp;
	} else if (is_null(f, v)) {
		return;
	} else if (f->type == FT_BOOL) {
		*word = v->num ? "true" : "false";
	} else if (numeric(f)) {
		format_number(tmp, size, v->num);
		*word = tmp;
	} else if (f->type == FT_LIST) {
		list_text(v->text, tmp, size);
		*text = tmp;
	} else {
		*text = v->text;
	}
}

static enum gc_status csv_value(struct buf *b, const struct field *f,
				const struct render_value *v)
{
	char tmp[512];
	const char *word, *text;
	if (v->shown) /* a number as the table shows it ("2 h") is no formula */
		return csv_text(b, v->shown, !numeric(f));
	plain_value(f, v, tmp, sizeof tmp, &word, &text);
	return word ? buf_addstr(b, word) : text ? csv_text(b, text, 1) : GC_OK;
}

static enum gc_status csv_row(struct buf *b, const struct row *w)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; i < w->ncols && st == GC_OK; i++) {
		if (i)
			st = buf_addc(b, ',');
		if (st == GC_OK)
			st = csv_value(b, w->cols[i], row_value(w, i));
	}
	return st == GC_OK ? buf_addc(b, '\n') : st;
}

/* --- table ---------------------------------------------------------------- */

void render_money(char *out, size_t n, double usd, const struct money *m)
{
	const char *sign = m && m->symbol[0] ? m->symbol : "$";
	double v = m && m->per_usd > 0 ? usd * m->per_usd : usd;
	snprintf(out, n, v >= 1 || v == 0 ? "%s%.2f" : "%s%.3f", sign, v);
}

void render_money_header(char *out, size_t n, const char *header, const struct money *m)
{
	const char *dollar = strchr(header, '$');
	if (dollar && m && m->symbol[0])
		snprintf(out, n, "%.*s%s%s", (int)(dollar - header), header, m->symbol, dollar + 1);
	else
		snprintf(out, n, "%s", header);
}

/* A table cell's text and whether it shows dimmed (unknown or none). */
static void table_cell_text(const struct render_spec *spec, const struct field *f,
			    const struct render_value *v, char *out, size_t n, int *dim)
{
	const char *unknown = spec->null_text ? spec->null_text : "?";
	*dim = 0;
	if (v->shown || v->nest) {
		char tmp[512];
		if (v->nest)
			nest_text(v->nest, tmp, sizeof tmp);
		str_sanitize(out, n, v->shown ? v->shown : tmp);
	} else if (is_null(f, v)) {
		int yesno = f->type == FT_BOOL || f->type == FT_YESNO;
		*dim = yesno || !spec->plain_none;
		snprintf(out, n, "%s", yesno ? unknown : "-");
	} else if (f->type == FT_BOOL) {
		snprintf(out, n, "%s", v->num ? "yes" : "no");
	} else if (f->type == FT_PRICE) {
		render_money(out, n, v->num, &spec->money);
	} else if (f->type == FT_NUM) {
		if (v->num == floor(v->num) && fabs(v->num) < 1e12)
			snprintf(out, n, "%.0f", v->num);
		else
			snprintf(out, n, fabs(v->num) < 10 ? "%.3g" : "%.1f", v->num);
	} else if (f->type == FT_ENUM || f->type == FT_YESNO) {
		*dim = strcmp(v->text, "unknown") == 0;
		snprintf(out, n, "%s", *dim ? unknown : v->text);
	} else if (f->type == FT_LIST) {
		char tmp[512];
		list_text(v->text, tmp, sizeof tmp);
		str_sanitize(out, n, tmp);
	} else {
		str_sanitize(out, n, v->text);
	}
}

static enum gc_status table_add_cell(struct renderer *r, const char *text, int dim)
{
	if (r->noffsets == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		size_t *o = realloc(r->offsets, cap * sizeof *o);
		if (!o)
			return GC_ENOMEM;
		r->offsets = o;
		unsigned char *d = realloc(r->dim, cap);
		if (!d)
			return GC_ENOMEM;
		r->dim = d;
		r->cap = cap;
	}
	r->dim[r->noffsets] = (unsigned char)dim;
	r->offsets[r->noffsets++] = r->cells.len;
	return buf_add(&r->cells, text, strlen(text) + 1);
}

/* The mark a price of this kind gets in a table: none for a fixed one. */
static const char *kind_mark(const struct renderer *r, const struct render_value *vals)
{
	const char *k = r->spec.kind_col > 0 ? vals[r->spec.kind_col - 1].text : NULL;
	if (!k)
		return "";
	if (strcmp(k, "auction_floor") == 0)
		return "\u2265"; /* ≥ */
	return strcmp(k, "marketplace") == 0 ? "~" : "";
}

static int is_offer_price(const struct field *f)
{
	return f->type == FT_PRICE && (strcmp(f->key, "price_hr") == 0 ||
				       strcmp(f->key, "spot_price_hr") == 0 ||
				       strcmp(f->key, "price_per_gpu_hr") == 0);
}

/* Keep `value` of column i for the legend, once. */
static void seen_add(struct render_seen *s, const struct field *f, size_t i, const char *value)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->item[k].index == i && strcmp(s->item[k].value, value) == 0)
			return;
	if (s->n == RENDER_SEEN_MAX || strlen(value) >= sizeof s->item[0].value)
		return;
	s->item[s->n].col = f;
	s->item[s->n].index = i;
	snprintf(s->item[s->n++].value, sizeof s->item[0].value, "%s", value);
}

static void seen_cell(struct render_seen *s, const struct field *f, size_t i, const char *text,
		      int dim, const char *mark)
{
	if (!s)
		return;
	if (dim)
		seen_add(s, f, i, text);
	else if (f->type == FT_ENUM || f->type == FT_YESNO)
		seen_add(s, f, i, text);
	else if (*mark && is_offer_price(f))
		seen_add(s, f, i, mark);
}

/* Forget what the columns a narrow terminal dropped showed (width 0). */
static void seen_drop(struct render_seen *s, const size_t *w)
{
	size_t k = 0;
	for (size_t i = 0; s && i < s->n; i++)
		if (w[s->item[i].index])
			s->item[k++] = s->item[i];
	if (s)
		s->n = k;
}

static enum gc_status table_row(struct renderer *r, const struct row *w)
{
	char text[512], marked[520];
	enum gc_status st = GC_OK;
	const char *mark = kind_mark(r, w->vals);
	for (size_t i = 0; i < w->ncols && st == GC_OK; i++) {
		int dim;
		table_cell_text(&r->spec, w->cols[i], row_value(w, i), text, sizeof text, &dim);
		seen_cell(r->spec.seen, w->cols[i], i, text, dim, mark);
		if (*mark && !dim && is_offer_price(w->cols[i])) {
			snprintf(marked, sizeof marked, "%s%s", mark, text);
			st = table_add_cell(r, marked, dim);
		} else {
			st = table_add_cell(r, text, dim);
		}
	}
	return st;
}

/* --- HTML ------------------------------------------------------------------ */

/* A cell's value as JSON reads it (render.h, RF_HTML): "" for null. */
static enum gc_status html_value(struct buf *b, const struct field *f,
				 const struct render_value *v)
{
	char tmp[512];
	const char *word, *text;
	if (f->type == FT_YESNO && !v->nest && !is_null(f, v))
		return buf_addstr(b, strcmp(v->text, "yes") == 0  ? "true"
				     : strcmp(v->text, "no") == 0 ? "false" : "");
	plain_value(f, v, tmp, sizeof tmp, &word, &text);
	return word ? buf_addstr(b, word) : text ? render_html(b, text) : GC_OK;
}

/* One cell: <td data-v="value">text</td>, data-v left out where the value
 * reads as the text does (most text cells: a page of 10^5 rows stays
 * small); class u marks an unknown or none, shown faint. */
static enum gc_status html_cell(struct renderer *r, const struct field *f,
				const struct render_value *v, const char *text, int dim)
{
	struct buf *b = &r->out;
	size_t at = b->len;
	enum gc_status st = buf_addstr(b, dim ? "<td class=u data-v=\"" : "<td data-v=\"");
	size_t vat = b->len;
	if (st == GC_OK)
		st = html_value(b, f, v);
	size_t vlen = b->len - vat;
	if (st == GC_OK)
		st = buf_addstr(b, "\">");
	size_t tat = b->len;
	if (st == GC_OK)
		st = render_html(b, text);
	if (st != GC_OK)
		return st;
	size_t tlen = b->len - tat;
	if (vlen == tlen && memcmp(b->ptr + vat, b->ptr + tat, vlen) == 0) {
		/* the same text twice: keep the cell's text alone */
		const char *open = dim ? "<td class=u>" : "<td>";
		size_t olen = strlen(open);
		memmove(b->ptr + at + olen, b->ptr + tat, tlen);
		memcpy(b->ptr + at, open, olen);
		b->len = at + olen + tlen;
		b->ptr[b->len] = '\0';
	}
	return buf_addstr(b, "</td>");
}

static enum gc_status html_row(struct renderer *r, const struct row *w)
{
	char text[512], marked[520];
	const char *mark = kind_mark(r, w->vals);
	enum gc_status st = buf_addstr(&r->out, "<tr>");
	for (size_t i = 0; i < w->ncols && st == GC_OK; i++) {
		int dim;
		const struct render_value *v = row_value(w, i);
		table_cell_text(&r->spec, w->cols[i], v, text, sizeof text, &dim);
		seen_cell(r->spec.seen, w->cols[i], i, text, dim, mark);
		const char *shown = text;
		if (*mark && !dim && is_offer_price(w->cols[i])) {
			snprintf(marked, sizeof marked, "%s%s", mark, text);
			shown = marked;
		}
		st = html_cell(r, w->cols[i], v, shown, dim);
	}
	return st == GC_OK ? buf_addstr(&r->out, "</tr>\n") : st;
}

/* Grid layout shared by offer tables and the other people-facing tables. */
struct grid {
	FILE *out;
	struct buf *buf;
	const struct grid_col *cols;
	size_t ncols;
	const char *const *cells;
	const unsigned char *dim;
	size_t nrows;
	int width, color;
	struct render_seen *seen; /* what the kept columns showed */
};

static size_t total_width(const struct grid *g, const size_t *w)
{
	size_t t = 0, shown = 0;
	for (size_t c = 0; c < g->ncols; c++)
		if (w[c]) {
			t += w[c];
			shown++;
		}
	return t + (shown ? 2 * (shown - 1) : 0);
}

/* Drop the shown column of the worst rank above `floor` (the last of
 * equals); 0 if there is none. */
static int drop_worst(const struct grid *g, size_t *w, int floor)
{
	size_t drop = (size_t)-1;
	int worst = floor;
	for (size_t c = 0; c < g->ncols; c++)
		if (w[c] && g->cols[c].rank >= worst && g->cols[c].rank > floor) {
			worst = g->cols[c].rank;
			drop = c;
		}
	if (drop == (size_t)-1)
		return 0;
	w[drop] = 0;
	return 1;
}

/* Give back one cell of a text column that is wider than its values only
 * for its header ("PROVIDER" over "gcp": the header shows "PROV…"), the
 * one with the most such room, never below 5; 0 if none has room. */
static int shrink_header(const struct grid *g, size_t *w, const size_t *vw)
{
	size_t best = (size_t)-1;
	for (size_t c = 0; c < g->ncols; c++)
		if (w[c] > vw[c] && w[c] > 5 && !g->cols[c].right && !g->cols[c].asked &&
		    (best == (size_t)-1 || w[c] - vw[c] > w[best] - vw[best]))
			best = c;
	if (best == (size_t)-1)
		return 0;
	w[best]--;
	return 1;
}

/* Take one cell from the widest text column of rank `min_rank` or more,
 * never below 6 cells nor, for a column the user asked for, below its
 * header; 0 if none has room. */
static int shorten(const struct grid *g, size_t *w, int min_rank)
{
	size_t widest = (size_t)-1;
	for (size_t c = 0; c < g->ncols; c++) {
		size_t hw = render_width(g->cols[c].header);
		size_t floor = g->cols[c].asked && hw > 6 ? hw : 6;
		if (w[c] > floor && !g->cols[c].right && g->cols[c].rank >= min_rank &&
		    (widest == (size_t)-1 || w[c] > w[widest]))
			widest = c;
	}
	if (widest == (size_t)-1)
		return 0;
	w[widest]--;
	return 1;
}

/* Fit the table into the terminal, in this order: drop the columns of
 * rank 4 and up (the highest first), cut headers wider than their values,
 * shorten the text of rank-3 columns (a region name), drop them, then the
 * rank-2 ones, the last first (IB, MIG, K8S: words a cut would spoil), shorten
 * the other text columns, and only then drop rank-1 columns (the filters');
 * rank 0 stays. */
static void fit_columns(const struct grid *g, size_t *w, const size_t *vw)
{
	size_t limit = (size_t)g->width;
	if (!limit)
		return;
	while (total_width(g, w) > limit && drop_worst(g, w, 3))
		;
	/* a cut header costs less than a cut value (a SKU you must type) */
	while (total_width(g, w) > limit && shrink_header(g, w, vw))
		;
	while (total_width(g, w) > limit && shorten(g, w, 3))
		;
	while (total_width(g, w) > limit && drop_worst(g, w, 1))
		;
	while (total_width(g, w) > limit && shorten(g, w, 0))
		;
	while (total_width(g, w) > limit && drop_worst(g, w, 0))
		;
}

static void put_cell(const struct grid *g, const char *text, size_t w, int right,
		     int style, int last)
{
	static const char *const on[] = {"", "\033[1m", "\033[2m"};
	struct buf fitted;
	buf_init(&fitted, 0);
	size_t tw = render_width(text);
	const char *t = text;
	if (tw > w) { /* only a cell that must be cut needs a copy */
		render_fit(&fitted, text, w);
		t = fitted.ptr ? fitted.ptr : "";
		tw = render_width(t);
	}
	size_t pad = w - tw;
	if (right)
		for (size_t i = 0; i < pad; i++)
			buf_addc(g->buf, ' ');
	if (g->color && style)
		buf_addstr(g->buf, on[style]);
	buf_addstr(g->buf, t);
	if (g->color && style)
		buf_addstr(g->buf, "\033[0m");
	if (!right && !last)
		for (size_t i = 0; i < pad; i++)
			buf_addc(g->buf, ' ');
	buf_free(&fitted);
}

static int grid_line(const struct grid *g, const size_t *w, size_t row, int header)
{
	size_t lastcol = 0;
	for (size_t c = 0; c < g->ncols; c++)
		if (w[c])
			lastcol = c;
	int first = 1;
	for (size_t c = 0; c < g->ncols; c++) {
		if (!w[c])
			continue;
		if (!first)
			buf_addstr(g->buf, "  ");
		first = 0;
		size_t i = row * g->ncols + c;
		if (header)
			put_cell(g, g->cols[c].header, w[c], g->cols[c].right, 1, c == lastcol);
		else
			put_cell(g, g->cells[i], w[c], g->cols[c].right,
				 g->dim && g->dim[i] ? 2 : 0, c == lastcol);
	}
	buf_addc(g->buf, '\n');
	if (g->buf->failed)
		return -2; /* a cell or a separator was lost: no line at all */
	if (g->buf->len >= FLUSH_AT) {
		if (fwrite(g->buf->ptr, 1, g->buf->len, g->out) != g->buf->len)
			return -1;
		buf_reset(g->buf);
	}
	return 0;
}

static enum gc_status grid_print(const struct grid *g)
{
	size_t *w = calloc(g->ncols ? 2 * g->ncols : 1, sizeof *w);
	if (!w)
		return GC_ENOMEM;
	size_t *vw = w + g->ncols; /* the widest value of each column */
	for (size_t c = 0; c < g->ncols; c++) {
		for (size_t row = 0; row < g->nrows; row++) {
			size_t cw = render_width(g->cells[row * g->ncols + c]);
			if (cw > vw[c])
				vw[c] = cw;
		}
		w[c] = render_width(g->cols[c].header);
		w[c] = vw[c] > w[c] ? vw[c] : w[c];
	}
	fit_columns(g, w, vw);
	seen_drop(g->seen, w);
	int bad = grid_line(g, w, 0, 1);
	for (size_t row = 0; row < g->nrows && !bad; row++)
		bad = grid_line(g, w, row, 0);
	free(w);
	return bad == -2 ? GC_ENOMEM : bad ? GC_EIO : GC_OK;
}

enum gc_status render_grid(FILE *out, const struct grid_col *cols, size_t ncols,
			   const char *const *cells, const unsigned char *dim,
			   size_t nrows, int width, int color, char **err)
{
	struct buf b;
	buf_init(&b, 0);
	struct grid g = {out, &b, cols, ncols, cells, dim, nrows, width, color, NULL};
	enum gc_status st = grid_print(&g);
	if (st == GC_OK && b.len && fwrite(b.ptr, 1, b.len, out) != b.len)
		st = GC_EIO;
	buf_free(&b);
	if (st == GC_ENOMEM)
		return err_set(err, st, "out of memory");
	if (st != GC_OK)
		return err_set(err, st, "cannot write output");
	return GC_OK;
}

static enum gc_status table_print(struct renderer *r)
{
	if (r->rows == 0)
		return GC_OK; /* the caller says "no offers match" on stderr */
	size_t n = r->spec.ncols;
	struct grid_col *cols = calloc(n ? n : 1, sizeof *cols);
	const char **cells = calloc(r->noffsets ? r->noffsets : 1, sizeof *cells);
	char (*hdr)[32] = calloc(n ? n : 1, sizeof *hdr); /* "$/H" in the display currency */
	enum gc_status st = GC_ENOMEM;
	if (cols && cells && hdr) {
		for (size_t c = 0; c < n; c++) {
			render_money_header(hdr[c], sizeof hdr[c], r->spec.cols[c]->header,
					    &r->spec.money);
			cols[c].header = hdr[c];
			cols[c].right = numeric(r->spec.cols[c]);
			cols[c].rank = r->spec.keep_cols ? 0
				       : r->spec.ranks	 ? r->spec.ranks[c]
							 : r->spec.cols[c]->table_rank;
			cols[c].asked = r->spec.keep_cols;
		}
		for (size_t i = 0; i < r->noffsets; i++)
			cells[i] = r->cells.ptr + r->offsets[i];
		flush(r, 1);
		struct grid g = {r->spec.out, &r->out, cols, n, cells, r->dim, r->rows,
				 r->spec.width, r->spec.color, r->spec.seen};
		st = grid_print(&g);
		if (st == GC_EIO) {
			r->io_error = 1;
			st = GC_OK;
		}
	}
	free(cols);
	free(cells);
	free(hdr);
	return st;
}

/* --- Markdown -------------------------------------------------------------- */

/* A cell of a Markdown table: the table's text (already through
 * str_sanitize: no control character, no newline) with `|` and `\`
 * escaped, so neither ends the cell nor escapes what follows. */
static enum gc_status md_cell(struct buf *b, const char *s)
{
	enum gc_status st = buf_addstr(b, "| ");
	for (; *s && st == GC_OK; s++)
		st = *s == '|' || *s == '\\' ? buf_printf(b, "\\%c", *s) : buf_addc(b, *s);
	return st == GC_OK ? buf_addc(b, ' ') : st;
}

/* The cells a table would show, as a GitHub-flavoured Markdown table:
 * headers, a separator (---: over numbers), one line per row. */
static enum gc_status md_print(struct renderer *r)
{
	size_t n = r->spec.ncols;
	enum gc_status st = GC_OK;
	if (r->rows == 0 || n == 0)
		return GC_OK; /* as a table: the caller says why on stderr */
	for (size_t c = 0; c < n && st == GC_OK; c++) {
		char hdr[32];
		render_money_header(hdr, sizeof hdr, r->spec.cols[c]->header, &r->spec.money);
		st = md_cell(&r->out, hdr);
	}
	st = st == GC_OK ? buf_addstr(&r->out, "|\n") : st;
	for (size_t c = 0; c < n && st == GC_OK; c++)
		st = buf_addstr(&r->out, numeric(r->spec.cols[c]) ? "|---:" : "|---");
	st = st == GC_OK ? buf_addstr(&r->out, "|\n") : st;
	for (size_t i = 0; i < r->noffsets && st == GC_OK; i++) {
		st = md_cell(&r->out, r->cells.ptr + r->offsets[i]);
		if (st == GC_OK && (i + 1) % n == 0)
			st = buf_addstr(&r->out, "|\n");
		if (st == GC_OK)
			flush(r, 0);
	}
	return st;
}

/* --- lifecycle ------------------------------------------------------------ */

static enum gc_status begin_output(struct renderer *r)
{
	enum gc_status st = GC_OK;
	if (r->spec.format == RF_JSON) {
		st = buf_addc(&r->out, '[');
	} else if (r->spec.format == RF_CSV) {
		for (size_t i = 0; i < r->spec.ncols && st == GC_OK; i++)
			st = buf_printf(&r->out, "%s%s", i ? "," : "", r->spec.cols[i]->key);
		if (st == GC_OK)
			st = buf_addc(&r->out, '\n');
	}
	return st;
}

enum gc_status render_begin(struct renderer **out, const struct render_spec *spec,
			    char **err)
{
	struct renderer *r = calloc(1, sizeof *r);
	if (!r)
		return err_set(err, GC_ENOMEM, "out of memory");
	r->spec = *spec;
	if (spec->seen)
		spec->seen->n = 0;
	buf_init(&r->out, 0);
	buf_init(&r->cells, 0);
	/* a statement's row: the columns, then the price kind past them */
	r->nvals = spec->kind_col > 0 && (size_t)spec->kind_col > spec->ncols
			   ? (size_t)spec->kind_col
			   : spec->ncols;
	r->vals = calloc(r->nvals ? r->nvals : 1, sizeof *r->vals);
	enum gc_status st = r->vals ? begin_output(r) : GC_ENOMEM;
	if (st != GC_OK) {
		render_abort(r);
		return err_set(err, st, "out of memory");
	}
	*out = r;
	return GC_OK;
}

enum gc_status render_row_values(struct renderer *r, const struct render_value *vals,
				 char **err)
{
	struct row w = {r->spec.cols, r->spec.ncols, r->spec.fields, vals};
	enum gc_status st;
	switch (r->spec.format) {
	case RF_JSON:
		st = buf_printf(&r->out, "%s\n%*s", r->rows ? "," : "", r->spec.json_indent, "");
		if (st == GC_OK)
			st = json_object(&r->out, &w, r->spec.json_indent, 1);
		break;
	case RF_NDJSON:
		st = json_object(&r->out, &w, 0, 0);
		if (st == GC_OK)
			st = buf_addc(&r->out, '\n');
		break;
	case RF_CSV:
		st = csv_row(&r->out, &w);
		break;
	case RF_HTML:
		st = html_row(r, &w);
		if (st == GC_OK && r->spec.html_break && r->rows + 1 == r->spec.html_break_at)
			st = buf_addstr(&r->out, r->spec.html_break);
		break;
	default:
		st = table_row(r, &w);
	}
	if (st != GC_OK)
		return err_set(err, st, "out of memory rendering output");
	r->rows++;
	flush(r, 0);
	return GC_OK;
}

enum gc_status render_row(struct renderer *r, sqlite3_stmt *stmt, char **err)
{
	stmt_values(r, stmt);
	return render_row_values(r, r->vals, err);
}

void render_abort(struct renderer *r)
{
	if (!r)
		return;
	buf_free(&r->out);
	buf_free(&r->cells);
	free(r->offsets);
	free(r->dim);
	free(r->vals);
	free(r);
}

enum gc_status render_end(struct renderer *r, size_t *rows, char **err)
{
	enum gc_status st = GC_OK;
	if (r->spec.format == RF_JSON)
		st = buf_addstr(&r->out, r->rows ? "\n]\n" : "]\n");
	else if (r->spec.format == RF_TABLE)
		st = table_print(r);
	else if (r->spec.format == RF_MARKDOWN)
		st = md_print(r);
	flush(r, 1);
	if (fflush(r->spec.out) != 0)
		r->io_error = 1;
	if (rows)
		*rows = r->rows;
	if (st != GC_OK)
		err_set(err, st, "out of memory rendering output");
	else if (r->io_error)
		st = err_set(err, GC_EIO, "cannot write output");
	render_abort(r);
	return st;
}

enum gc_status render_rows(const struct render_spec *spec, size_t n, render_fill_fn fill,
			   void *ctx, char **err)
{
	struct renderer *r;
	enum gc_status st = render_begin(&r, spec, err);
	for (size_t i = 0; i < n && st == GC_OK; i++) {
		struct render_value vals[RENDER_MAX_VALUES];
		memset(vals, 0, sizeof vals);
		fill(ctx, i, vals);
		st = render_row_values(r, vals, err);
	}
	if (st == GC_OK)
		return render_end(r, NULL, err);
	render_abort(r);
	return st;
}

size_t render_pick(const struct field *fields, size_t n, enum render_format fmt,
		   const struct field **cols)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (fmt == RF_JSON || fmt == RF_NDJSON || fields[i].table_rank > 0)
			cols[k++] = &fields[i];
	return k;
}

enum gc_status render_money_for(const char *code, struct money *m, char *note, size_t n,
				char **err)
{
	static const struct {
		const char *code, *sign;
	} signs[] = {{"EUR", "\xE2\x82\xAC"}, {"GBP", "\xC2\xA3"}, {"JPY", "\xC2\xA5"}};
	memset(m, 0, sizeof *m);
	if (n)
		note[0] = '\0';
	if (!code || strcmp(code, "USD") == 0)
		return GC_OK;
	struct rate_table t;
	enum gc_status st = rates_load_embedded(&t, err);
	if (st != GC_OK)
		return st;
	double usd = rates_usd(&t, code);
	if (!(usd > 0)) {
		char safe[16];
		rates_free(&t);
		str_sanitize(safe, sizeof safe, code);
		return err_set(err, GC_EUSAGE, "currency '%s' is not in the exchange-rate table; "
			       "USD or one of data/rates.yaml", safe);
	}
	snprintf(m->symbol, sizeof m->symbol, "%.3s ", code);
	for (size_t i = 0; i < sizeof signs / sizeof signs[0]; i++)
		if (strcmp(signs[i].code, code) == 0)
			snprintf(m->symbol, sizeof m->symbol, "%s", signs[i].sign);
	m->per_usd = 1 / usd;
	snprintf(note, n, "prices in %.3s at 1 %.3s = %g USD (%s)", code, code, usd, t.date);
	rates_free(&t);
	return GC_OK;
}

char *render_sparkline(const double *v, size_t n, char *out, size_t size)
{
	double lo = NAN, hi = NAN;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isnan(v[i]) && (isnan(lo) || v[i] < lo))
			lo = v[i];
		if (!isnan(v[i]) && (isnan(hi) || v[i] > hi))
			hi = v[i];
	}
	if (size)
		out[0] = '\0';
	for (size_t i = 0; i < n && o + 4 <= size; i++) {
		if (isnan(v[i])) {
			out[o++] = ' ';
			continue;
		}
		int level = hi > lo ? (int)((v[i] - lo) / (hi - lo) * 7 + 0.5) : 3;
		/* U+2581 + level: E2 96 81.. */
		out[o++] = (char)0xE2;
		out[o++] = (char)0x96;
		out[o++] = (char)(0x81 + level);
	}
	if (size)
		out[o] = '\0';
	return out;
}
