/* render.h - rows out: table for people, JSON / CSV / NDJSON for scripts.
 *
 * One spec, one renderer for every table command: the columns are field
 * entries (key, header, type, table rank), the rows come from a prepared
 * statement (list: its columns are spec->cols in order) or as values
 * (gpus, providers, cache status, recommend).  Formats are documented in
 * docs/OUTPUT.md; JSON output is an array (`[]` when empty), NDJSON one
 * object per line.
 */
#ifndef GPUCMP_RENDER_H
#define GPUCMP_RENDER_H

#include <stdio.h>

#include "gpucmp/buf.h"
#include "gpucmp/err.h"
#include "gpucmp/field.h"

/* The output formats, defined once: X(name, RF_ value, for people, a
 * --format choice (1 or 0), what it is).  The enum, render_formats[],
 * the --format choices (src/cli/opts.c), its dispatch (cli_format) and
 * render_for_people are made from this list; docs/OUTPUT.md describes
 * each.  "For people": the cells as a table shows them (prices in the
 * display currency, "?" for unknown), and why nothing matched is said
 * on stderr instead of an empty document.
 * RF_MARKDOWN: a GitHub-flavoured Markdown table (header, a |---| row with
 * ---: over numbers, `|` and `\` escaped; no colour, no fitting).
 * RF_HTML: each row a <tr> of <td>s (no table around them: the page,
 * page.h, writes that), a cell's text as a table shows it and, in its
 * data-v attribute, its value as JSON reads it (a number as JSON prints
 * it, true/false, text; "" for null), every text through render_html.
 * It is the team page's (gpucmp export), not a --format choice. */
#define RENDER_FORMATS(X)                                                              \
	X("table", RF_TABLE, 1, 1, "aligned columns for a terminal (the default)")      \
	X("json", RF_JSON, 0, 1, "one JSON array of objects (docs/offer.schema.json)")  \
	X("csv", RF_CSV, 0, 1, "RFC 4180 with a header row of field keys")              \
	X("ndjson", RF_NDJSON, 0, 1, "one JSON object per line")                        \
	X("markdown", RF_MARKDOWN, 1, 1, "a GitHub-flavoured Markdown table")           \
	X("html", RF_HTML, 1, 0, "table rows of the team page (export only)")

#define RENDER_FORMAT_ENUM(name, value, people, cli, desc) value,
enum render_format { RENDER_FORMATS(RENDER_FORMAT_ENUM) RF_COUNT };

/* One entry of RENDER_FORMATS; render_formats[] has one per format, in
 * enum order (render_formats[f].format == f), then a NULL name. */
struct render_format_def {
	const char *name;
	enum render_format format;
	int for_people;
	int cli; /* a --format choice */
	const char *desc;
};
extern const struct render_format_def render_formats[];
/* The --format choices' names, in list order, NULL-terminated. */
#define RENDER_FORMAT_CHOICE_1(name) name,
#define RENDER_FORMAT_CHOICE_0(name)
#define RENDER_FORMAT_CHOICE(name, value, people, cli, desc) RENDER_FORMAT_CHOICE_##cli(name)

/* Is `fmt` for people (a table, Markdown), not for scripts? */
int render_for_people(enum render_format fmt);
/* The format named `name` (any entry); NULL when there is none. */
const struct render_format_def *render_format_named(const char *name);

/* How prices read in tables for people: a sign and units per US dollar.
 * Zeroes mean US dollars.  JSON and CSV always carry plain USD numbers. */
struct money {
	char symbol[8];     /* "\xE2\x82\xAC" (euro), "CHF "; "" is "$" */
	double per_usd;
};

/* The money of currency `code` (ISO 4217) at data/rates.yaml's dated rate:
 * its sign ("\xE2\x82\xAC", "\xC2\xA3", "\xC2\xA5", else "XYZ "), units per
 * US dollar, and in `note` (n bytes) the footer's "prices in EUR at 1 EUR
 * = 1.16 USD (DATE)".  USD or NULL: the zero money and "".  A currency the
 * table does not have is GC_EUSAGE; an unreadable table GC_EDATA. */
enum gc_status render_money_for(const char *code, struct money *m, char *note, size_t n,
				char **err);

/* Tables: the words a table showed, for the legend under it
 * (query_legend): each enum or yes/no column's values, and the marks of any
 * column ("?", "-", "\xE2\x89\xA5" for an auction floor, "~" for an ask), of
 * the columns the terminal did not drop.  At most RENDER_SEEN_MAX. */
#define RENDER_SEEN_MAX 128
struct render_seen {
	size_t n;
	struct {
		const struct field *col;
		size_t index;    /* the column's place in the spec */
		char value[16];
	} item[RENDER_SEEN_MAX];
};

struct render_spec {
	enum render_format format;
	const struct field *const *cols; /* borrowed */
	size_t ncols;
	FILE *out;
	int color;      /* ANSI styling in tables */
	int width;      /* terminal width for tables; 0 = do not fit */
	int keep_cols;  /* the user chose the columns: shrink, never drop */
	/* tables: how late a too-narrow terminal drops column i (grid_col.rank:
	 * 0 never); NULL: each field's table rank */
	const int *ranks;
	struct money money; /* table prices; zero = USD */
	/* tables: 1 + the statement column (past ncols) holding price_kind;
	 * prices then show "≥$1.00" for an auction floor and "~$0.35" for a
	 * marketplace ask.  0: none */
	int kind_col;
	/* render_row_values: its values follow this table (cols point into
	 * it); NULL: they follow cols */
	const struct field *fields;
	/* JSON (not NDJSON): 0 = one object per line (list); 2 = each member
	 * on its own line, indented by 2 (the layout of jansson's JSON_INDENT) */
	int json_indent;
	int plain_none;        /* tables: a null shown as "-" is not dimmed */
	const char *null_text; /* tables: an unknown yes/no or enum; NULL: "?" */
	struct render_seen *seen; /* tables: filled at render_end; NULL: not kept */
	/* RF_HTML: after row html_break_at (> 0) html_break is written, once
	 * (the page shows the first rows and keeps the rest aside) */
	size_t html_break_at;
	const char *html_break;
};

/* A column of a table command that is not offers: a field entry without SQL. */
#define RENDER_COL(key, header, type, rank) {key, header, type, NULL, rank, NULL, NULL}

struct render_nest;

/* One cell, read as its column's type says; a NULL text or a NAN number
 * is null: JSON null, an empty CSV cell, in a table the spec's null text
 * for a yes/no and "-" for the rest.  Strings are borrowed for the call. */
struct render_value {
	const char *text;  /* FT_TEXT, FT_ENUM, FT_YESNO */
	double num;        /* FT_NUM, FT_PRICE; FT_BOOL: 1 or 0 */
	const char *shown; /* tables (never dimmed) and CSV show this text
			    * instead of the typed form; NULL: none */
	const struct render_nest *nest; /* not NULL: the cell is an array */
};
#define RV_TEXT(s) ((struct render_value){.text = (s)})
#define RV_NUM(v) ((struct render_value){.num = (v)})

/* An array in a cell: JSON shows n strings or n objects (ncols values
 * each, row-major); a table and CSV "a, b" or "+ fast; - dear" (each
 * object's cells joined by a space). */
struct render_nest {
	size_t n;
	const char *const *texts;        /* n strings, or NULL for objects */
	const struct field *const *cols; /* the objects' keys and types */
	size_t ncols;
	const struct render_value *vals; /* n * ncols */
};

struct renderer; /* opaque */

enum gc_status render_begin(struct renderer **out, const struct render_spec *spec,
			    char **err);
/* render_row (the current row of a statement): src/sqlite_int.h. */
/* Render one row of values: one per entry of spec->fields, or per column
 * when it is NULL (past them, the kind_col value). */
enum gc_status render_row_values(struct renderer *r, const struct render_value *vals,
				 char **err);
/* Render rows 0..n-1 with `spec`: fill(ctx, i, vals) writes row i's
 * values (at most RENDER_MAX_VALUES) for render_row_values. */
#define RENDER_MAX_VALUES 32
typedef void (*render_fill_fn)(void *ctx, size_t i, struct render_value *vals);
enum gc_status render_rows(const struct render_spec *spec, size_t n, render_fill_fn fill,
			   void *ctx, char **err);
/* The columns a table command that is not offers shows of its `n` fields:
 * every one in JSON and NDJSON, those with a table rank in a table and CSV.
 * Fills cols (n entries) and returns how many. */
size_t render_pick(const struct field *fields, size_t n, enum render_format fmt,
		   const struct field **cols);
/* Finish (tables are laid out and printed here), flush and free `r`.
 * Returns GC_EIO if writing failed. */
enum gc_status render_end(struct renderer *r, size_t *rows, char **err);
/* Free without output (after an error). */
void render_abort(struct renderer *r);

/* Append `s` as a JSON string literal (quotes included); invalid UTF-8
 * becomes U+FFFD, control characters (C0, DEL and C1 U+0080-U+009F) are
 * escaped as \u00XX, so no raw one reaches a terminal. */
enum gc_status render_json_string(struct buf *b, const char *s);
/* Append `s` as HTML text that is also safe inside a quoted attribute:
 * & < > " ' as character references, control characters (C0, DEL, C1) as
 * '?' and broken UTF-8 as U+FFFD, so a provider's "<script>" is text. */
enum gc_status render_html(struct buf *b, const char *s);
/* Append a finite number in the shortest form that reads back the same
 * for prices ("8", "2.35"). */
enum gc_status render_json_number(struct buf *b, double v);
/* Write `len` bytes of serialized JSON (jansson's json_dumps output) to
 * `f` with what jansson leaves raw inside strings escaped: DEL as \u007f
 * and C1 controls (U+0080-U+009F, CSI among them) as \u0080..\u009f.
 * Outside strings JSON is ASCII, so each replacement lands in a string.
 * Returns 0, or -1 if writing failed. */
int render_json_write(FILE *f, const char *json, size_t len);

/* A price in USD as a table shows it: "$2.49", "$0.138" (three decimals
 * under one unit), in the currency `m` names (NULL: USD). */
void render_money(char *out, size_t n, double usd, const struct money *m);
/* A column header naming USD ("$/H", "SPOT $/H") in the currency `m`
 * names ("€/H"). */
void render_money_header(char *out, size_t n, const char *header, const struct money *m);

/* Display width of a UTF-8 string in terminal cells (1 per code point). */
size_t render_width(const char *s);
/* Copy `s` into `out` cut to at most `width` cells, ending in an ellipsis
 * when cut. */
enum gc_status render_fit(struct buf *out, const char *s, size_t width);

/* A table of strings for people, the layout render_end gives a table;
 * left for compare (its cells are not field values yet).  Cells are
 * row-major, ncols per row; `dim` (may be NULL) marks cells to show
 * faint.  Columns with rank > 1 are dropped, highest rank first, when the
 * table is wider than `width` (0: no limit); then the widest text column is
 * shortened with an ellipsis. */
struct grid_col {
	const char *header;
	int right; /* right-align (numbers) */
	int rank;  /* 0 = never drop; 1 only if shortening text is not enough;
		    * 3 after shortening its text, 2 after 3 (never shortened); 4..
		    * dropped first, the highest first */
	int asked; /* the user named it (--columns): never cut below its header */
};
enum gc_status render_grid(FILE *out, const struct grid_col *cols, size_t ncols,
			   const char *const *cells, const unsigned char *dim,
			   size_t nrows, int width, int color, char **err);

/* A sparkline of v[0..n): each value a Unicode block from the lowest
 * (U+2581) to the highest (U+2588) of them, NAN a space; all equal values
 * sit at the middle.  Into out (3 bytes per value, NUL-terminated, cut to
 * whole values when size is short); returns out. */
char *render_sparkline(const double *v, size_t n, char *out, size_t size);

/* Terminal width of `f`: $COLUMNS, else the tty size, else 0 when `f` is
 * not a terminal. */
int render_term_width(FILE *f);

#endif
