/* where.c - the --where expression language (grammar in where.h). */
#include "gpucmp/where.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/strutil.h"

enum tok_kind { T_END, T_WORD, T_STRING, T_LPAREN, T_RPAREN, T_COMMA, T_OP };

struct token {
	enum tok_kind kind;
	size_t pos, len;  /* in the expression */
	char text[256];   /* word or unquoted string; operator spelling */
};

enum { MAX_DEPTH = 64, MAX_BINDS = 128 };

struct parser {
	const char *src;
	size_t at;
	struct token tok;   /* current */
	where_lookup_fn lookup;
	where_suggest_fn suggest;
	void *ctx;
	struct where_result *out;
	char **err;
	int depth;
};

static enum gc_status fail_at(struct parser *p, size_t pos, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static enum gc_status fail_at(struct parser *p, size_t pos, size_t len, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	p->out->err_pos = pos;
	p->out->err_len = len ? len : 1;
	return err_set(p->err, GC_EUSAGE, "%s", msg);
}

static int word_char(char c)
{
	/* (strchr finds the terminating NUL too, so test c first) */
	return c && (isalnum((unsigned char)c) || strchr("_.-$*?/:+[]", c) != NULL);
}

/* Read the next token into p->tok. */
static enum gc_status next(struct parser *p)
{
	const char *s = p->src;
	while (s[p->at] == ' ' || s[p->at] == '\t' || s[p->at] == '\n')
		p->at++;
	struct token *t = &p->tok;
	t->pos = p->at;
	t->text[0] = '\0';
	char c = s[p->at];
	if (!c) {
		t->kind = T_END;
		t->len = 0;
		return GC_OK;
	}
	if (c == '(' || c == ')' || c == ',') {
		t->kind = c == '(' ? T_LPAREN : c == ')' ? T_RPAREN : T_COMMA;
		t->len = 1;
		t->text[0] = c;
		t->text[1] = '\0';
		p->at++;
		return GC_OK;
	}
	static const char *const ops[] = {"==", "!=", "<>", "<=", ">=", "!~", "=", "<", ">", "~"};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t n = strlen(ops[i]);
		if (strncmp(s + p->at, ops[i], n) == 0) {
			t->kind = T_OP;
			t->len = n;
			memcpy(t->text, ops[i], n + 1);
			p->at += n;
			return GC_OK;
		}
	}
	if (c == '\'' || c == '"') {
		size_t j = 0, i = p->at + 1;
		for (;;) {
			if (!s[i])
				return fail_at(p, t->pos, i - t->pos, "unterminated string");
			if (s[i] == c) {
				if (s[i + 1] != c)
					break;
				i++; /* a doubled quote is one quote */
			}
			if (j + 1 >= sizeof t->text)
				return fail_at(p, t->pos, i - t->pos, "string too long");
			t->text[j++] = s[i++];
		}
		t->text[j] = '\0';
		t->kind = T_STRING;
		t->len = i + 1 - t->pos;
		p->at = i + 1;
		return GC_OK;
	}
	if (word_char(c)) {
		size_t i = p->at, j = 0;
		while (word_char(s[i])) {
			if (j + 1 >= sizeof t->text)
				return fail_at(p, t->pos, i - t->pos, "word too long");
			t->text[j++] = s[i++];
		}
		t->text[j] = '\0';
		t->kind = T_WORD;
		t->len = i - t->pos;
		p->at = i;
		return GC_OK;
	}
	return fail_at(p, p->at, 1, "unexpected character '%c'",
		       isprint((unsigned char)c) ? c : '?');
}

static int is_kw(const struct token *t, const char *kw)
{
	return t->kind == T_WORD && strcasecmp(t->text, kw) == 0;
}

static enum gc_status add_bind(struct parser *p, int is_text, const char *text, double num)
{
	struct where_result *r = p->out;
	if (r->nbinds >= MAX_BINDS)
		return fail_at(p, p->tok.pos, p->tok.len,
			       "expression has too many values (at most %d)", MAX_BINDS);
	struct where_bind *b = realloc(r->binds, (r->nbinds + 1) * sizeof *b);
	if (!b)
		return err_set(p->err, GC_ENOMEM, "out of memory");
	r->binds = b;
	b[r->nbinds].is_text = is_text;
	b[r->nbinds].num = num;
	b[r->nbinds].text = is_text ? strdup(text) : NULL;
	if (is_text && !b[r->nbinds].text)
		return err_set(p->err, GC_ENOMEM, "out of memory");
	r->nbinds++;
	return GC_OK;
}

static enum gc_status emit(struct parser *p, const char *s)
{
	return buf_addstr(&p->out->sql, s) == GC_OK ? GC_OK
						    : err_set(p->err, GC_ENOMEM, "out of memory");
}

/* 1, 0, or -1 for null/unknown; -2 when the word is not a truth value. */
static int parse_bool(const char *w)
{
	static const char *const yes[] = {"true", "yes", "1", NULL}, *const no[] = {"false", "no",
										  "0", NULL};
	for (size_t i = 0; yes[i]; i++) {
		if (strcasecmp(w, yes[i]) == 0)
			return 1;
		if (strcasecmp(w, no[i]) == 0)
			return 0;
	}
	if (strcasecmp(w, "null") == 0 || strcasecmp(w, "unknown") == 0)
		return -1;
	return -2;
}

static const char *type_name(enum field_type t)
{
	switch (t) {
	case FT_NUM:
	case FT_PRICE:
		return "a number";
	case FT_BOOL:
		return "true or false";
	default:
		return "text";
	}
}

/* The value v of field f is outside its domain: name the nearest value,
 * else the values (when few), else where they are listed. */
static enum gc_status not_in_domain(struct parser *p, const char *fname,
				    const struct where_field *f, const char *v)
{
	const struct token *t = &p->tok;
	char meant[160];
	if (f->meant && f->meant(f->expand_ctx, v, meant, sizeof meant))
		return fail_at(p, t->pos, t->len, "unknown %s value '%s'; did you mean %s?", fname,
			       v, meant);
	struct suggest s;
	suggest_init(&s, v);
	size_t n = 0;
	for (; f->values[n]; n++)
		suggest_try(&s, f->values[n]);
	/* a value of three letters or fewer is a code: one letter off is another
	 * code (XX is not a typo of AX, GER not of ER), so no nearest is named;
	 * nor for a value with a ':' or ',' (h100:8 is --gpu's, not a name) */
	const char *best = strlen(v) > 3 && !strpbrk(v, ":,") ? suggest_best(&s) : NULL;
	if (best)
		return fail_at(p, t->pos, t->len, "unknown %s value '%s'; did you mean '%s'?",
			       fname, v, best);
	if (n > 8)
		return fail_at(p, t->pos, t->len, "unknown %s value '%s'; %s", fname, v,
			       f->values_hint ? f->values_hint : "'gpucmp help fields' lists them");
	char list[256] = "";
	size_t at = 0;
	for (size_t i = 0; i < n && at < sizeof list; i++)
		at += (size_t)snprintf(list + at, sizeof list - at, "%s%s",
				       i == 0 ? "" : i + 1 == n ? " or " : ", ", f->values[i]);
	return fail_at(p, t->pos, t->len, "unknown %s value '%s'; expected %s", fname, v, list);
}

/* Each stored value of m, bound; *nb counts them. */
static enum gc_status binds(struct parser *p, const char *const *m, int *nb)
{
	enum gc_status st = GC_OK;
	for (*nb = 0; m[*nb] && st == GC_OK; (*nb)++)
		st = add_bind(p, 1, m[*nb], 0);
	return st;
}

/* A text value, bound: with `check` (=, != and in) it must be in f's
 * domain (unless f expands it), and binds each stored value it stands for
 * or expands to; *nb counts binds. */
static enum gc_status text_value(struct parser *p, const char *fname,
				 const struct where_field *f, int check, int *nb)
{
	const char *v = p->tok.text;
	*nb = 1;
	const char *const *m = check && f->expand ? f->expand(f->expand_ctx, v) : NULL;
	if (m)
		return binds(p, m, nb);
	if (!check || !f->values)
		return add_bind(p, 1, v, 0);
	size_t i = 0;
	while (f->values[i] && strcasecmp(f->values[i], v) != 0)
		i++;
	if (!f->values[i])
		return not_in_domain(p, fname, f, v);
	m = f->means ? f->means(f->key, f->values[i]) : NULL;
	return m ? binds(p, m, nb) : add_bind(p, 1, f->values[i], 0);
}

/* 1 when the current token is null for field f: the word null, or for an
 * enum the value unknown (quoted or not). */
static int is_null_value(const struct token *t, const struct where_field *f)
{
	if (t->kind == T_WORD && strcasecmp(t->text, "null") == 0)
		return 1;
	return f->type == FT_ENUM && strcasecmp(t->text, "unknown") == 0;
}

/* One value of field f (the current token), bound; *nb counts its binds,
 * 0 for null (which the caller turns into IS [NOT] NULL).  `check`: the
 * value must be in f's domain (=, != and in; not ordering or globs). */
static enum gc_status value(struct parser *p, const char *fname, const struct where_field *f,
			    int check, int *nb)
{
	struct token *t = &p->tok;
	*nb = 0;
	if (t->kind != T_WORD && t->kind != T_STRING)
		return fail_at(p, t->pos, t->len, "expected a value for '%s'", fname);
	if (is_null_value(t, f))
		return next(p);
	enum gc_status st;
	if (f->type == FT_NUM || f->type == FT_PRICE) {
		double v;
		if (str_to_quantity(t->text, &v, NULL) != 0)
			return fail_at(p, t->pos, t->len,
				       "'%s' is a number field; '%s' is not a number", fname,
				       t->text);
		st = add_bind(p, 0, NULL, v);
		*nb = 1;
	} else if (f->type == FT_BOOL) {
		int b = parse_bool(t->text);
		if (b == -2)
			return fail_at(p, t->pos, t->len, "'%s' is true or false; '%s' is neither",
				       fname, t->text);
		if (b == -1)
			return next(p);
		st = add_bind(p, 0, NULL, b);
		*nb = 1;
	} else {
		st = text_value(p, fname, f, check, nb);
	}
	return st == GC_OK ? next(p) : st;
}

static enum gc_status parse_or(struct parser *p);

/* The field named by the current token, through the caller's lookup. */
static enum gc_status field_at(struct parser *p, const struct token *ft, struct where_field *f)
{
	if (ft->kind != T_WORD)
		return fail_at(p, ft->pos, ft->len,
			       ft->kind == T_END ? "expected a field name at the end"
						 : "expected a field name");
	memset(f, 0, sizeof *f);
	if (p->lookup(p->ctx, ft->text, f) == 0)
		return GC_OK;
	const char *best = p->suggest ? p->suggest(p->ctx, ft->text) : NULL;
	if (best)
		return fail_at(p, ft->pos, ft->len, "unknown field '%s'; did you mean '%s'?",
			       ft->text, best);
	return fail_at(p, ft->pos, ft->len,
		       "unknown field '%s'; 'gpucmp help fields' lists them", ft->text);
}

static int is_text(const struct where_field *f)
{
	return f->type == FT_TEXT || f->type == FT_ENUM;
}

/* "(" SQL, the opening every test emits.  An enum's "unknown" is null, so
 * that it matches no comparison, negated or not. */
static enum gc_status open_test(struct parser *p, const char *before, const struct where_field *f)
{
	int unknown_null = f->type == FT_ENUM;
	enum gc_status st = emit(p, before);
	if (st == GC_OK && unknown_null)
		st = emit(p, "NULLIF(");
	if (st == GC_OK)
		st = emit(p, f->sql);
	return st == GC_OK && unknown_null ? emit(p, ", 'unknown')") : st;
}

/* n placeholders "?, ?", after others when `more`. */
static enum gc_status emit_marks(struct parser *p, int n, int more)
{
	enum gc_status st = GC_OK;
	for (int i = 0; i < n && st == GC_OK; i++)
		st = emit(p, more || i ? ", ?" : "?");
	return st;
}

/* FIELD [not] in (V, ...): the current token is 'in'. */
static enum gc_status parse_in(struct parser *p, const struct token *ft,
			       const struct where_field *f, int negate)
{
	enum gc_status st = next(p);
	if (st != GC_OK)
		return st;
	if (p->tok.kind != T_LPAREN)
		return fail_at(p, p->tok.pos, p->tok.len, "expected '(' after 'in'");
	if ((st = open_test(p, "(", f)) != GC_OK ||
	    (st = emit(p, is_text(f) ? " COLLATE NOCASE" : "")) != GC_OK ||
	    (st = emit(p, negate ? " NOT IN (" : " IN (")) != GC_OK)
		return st;
	for (int n = 0;; n++) {
		if ((st = next(p)) != GC_OK)
			return st;
		int nb;
		struct token v = p->tok;
		if ((st = value(p, ft->text, f, 1, &nb)) != GC_OK)
			return st;
		if (!nb)
			return fail_at(p, v.pos, v.len, "%s cannot be in a list; use %s = %s",
				       v.text, ft->text, v.text);
		if ((st = emit_marks(p, nb, n > 0)) != GC_OK)
			return st;
		if (p->tok.kind == T_RPAREN)
			break;
		if (p->tok.kind != T_COMMA)
			return fail_at(p, p->tok.pos, p->tok.len,
				       "expected ',' or ')' in the list");
	}
	if ((st = emit(p, "))")) != GC_OK)
		return st;
	return next(p);
}

/* A bare yes/no field: "infiniband" means infiniband = true. */
static enum gc_status parse_bare(struct parser *p, const struct token *ft,
				 const struct where_field *f)
{
	if (f->type != FT_BOOL)
		return fail_at(p, ft->pos, ft->len,
			       "'%s' is %s, not true/false: compare it (%s = ...)", ft->text,
			       type_name(f->type), ft->text);
	enum gc_status st = open_test(p, "(", f);
	return st == GC_OK ? emit(p, " = 1)") : st;
}

/* After "(FIELD": operator o and its nb placeholders (0: null; more than
 * one: the stored values one value stands for, as a list). */
static enum gc_status compare_tail(struct parser *p, const struct where_field *f,
				   const char *o, int nb)
{
	int eq = strcmp(o, "=") == 0;
	if (!nb)
		return emit(p, eq ? " IS NULL)" : " IS NOT NULL)");
	if (strcmp(o, "~") == 0 || strcmp(o, "!~") == 0)
		return emit(p, o[0] == '~' ? ") GLOB lower(?))" : ") NOT GLOB lower(?))");
	const char *nocase = is_text(f) ? " COLLATE NOCASE" : "";
	char tail[300];
	enum gc_status st;
	if (nb == 1) {
		snprintf(tail, sizeof tail, " %s ?%s)", o, nocase);
		return emit(p, tail);
	}
	snprintf(tail, sizeof tail, "%s %s (", nocase, eq ? "IN" : "NOT IN");
	if ((st = emit(p, tail)) != GC_OK || (st = emit_marks(p, nb, 0)) != GC_OK)
		return st;
	return emit(p, "))");
}

/* FIELD OP VALUE: the current token is the operator. */
static enum gc_status parse_compare(struct parser *p, const struct token *ft,
				    const struct where_field *f)
{
	struct token op = p->tok;
	const char *o = op.text;
	int glob = strcmp(o, "~") == 0 || strcmp(o, "!~") == 0;
	int order = o[0] == '<' || o[0] == '>';
	if (strcmp(o, "<>") == 0)
		order = 0, o = "!=";
	if (strcmp(o, "==") == 0)
		o = "=";
	if (glob && !is_text(f))
		return fail_at(p, op.pos, op.len, "'~' matches text; '%s' is %s", ft->text,
			       type_name(f->type));
	if (order && (f->type == FT_BOOL || f->type == FT_ENUM))
		return fail_at(p, op.pos, op.len, "'%s' cannot be ordered; use = or !=", ft->text);
	enum gc_status st = next(p);
	if (st != GC_OK)
		return st;
	size_t vpos = p->tok.pos, vlen = p->tok.len;
	int nb;
	if ((st = value(p, ft->text, f, !glob && !order, &nb)) != GC_OK)
		return st;
	if (!nb && strcmp(o, "=") != 0 && strcmp(o, "!=") != 0)
		return fail_at(p, vpos, vlen, "null can only be compared with = or !=");
	if ((st = open_test(p, glob ? "(lower(" : "(", f)) != GC_OK)
		return st;
	return compare_tail(p, f, o, nb);
}

/* FIELD op VALUE | FIELD [not] in (...) | FIELD */
static enum gc_status parse_test(struct parser *p)
{
	struct token ft = p->tok;
	struct where_field f;
	enum gc_status st = field_at(p, &ft, &f);
	if (st != GC_OK || (st = next(p)) != GC_OK)
		return st;
	int negate_in = 0;
	if (is_kw(&p->tok, "not")) {
		negate_in = 1;
		if ((st = next(p)) != GC_OK)
			return st;
		if (!is_kw(&p->tok, "in"))
			return fail_at(p, p->tok.pos, p->tok.len, "expected 'in' after '%s not'",
				       ft.text);
	}
	if (is_kw(&p->tok, "in"))
		return parse_in(p, &ft, &f, negate_in);
	if (p->tok.kind != T_OP)
		return parse_bare(p, &ft, &f);
	return parse_compare(p, &ft, &f);
}

static enum gc_status parse_not(struct parser *p)
{
	enum gc_status st;
	if (++p->depth > MAX_DEPTH)
		return fail_at(p, p->tok.pos, p->tok.len, "expression nested too deeply");
	if (is_kw(&p->tok, "not")) {
		if ((st = next(p)) != GC_OK || (st = emit(p, "(NOT ")) != GC_OK ||
		    (st = parse_not(p)) != GC_OK || (st = emit(p, ")")) != GC_OK)
			return st;
	} else if (p->tok.kind == T_LPAREN) {
		size_t open = p->tok.pos;
		if ((st = next(p)) != GC_OK || (st = emit(p, "(")) != GC_OK ||
		    (st = parse_or(p)) != GC_OK)
			return st;
		if (p->tok.kind != T_RPAREN)
			return fail_at(p, p->tok.kind == T_END ? open : p->tok.pos,
				       p->tok.kind == T_END ? 1 : p->tok.len,
				       p->tok.kind == T_END ? "'(' is never closed"
							   : "expected ')'");
		if ((st = emit(p, ")")) != GC_OK || (st = next(p)) != GC_OK)
			return st;
	} else {
		st = parse_test(p);
		if (st != GC_OK)
			return st;
	}
	p->depth--;
	return GC_OK;
}

static enum gc_status parse_and(struct parser *p)
{
	enum gc_status st = parse_not(p);
	while (st == GC_OK && is_kw(&p->tok, "and")) {
		if ((st = next(p)) == GC_OK && (st = emit(p, " AND ")) == GC_OK)
			st = parse_not(p);
	}
	return st;
}

static enum gc_status parse_or(struct parser *p)
{
	enum gc_status st = parse_and(p);
	while (st == GC_OK && is_kw(&p->tok, "or")) {
		if ((st = next(p)) == GC_OK && (st = emit(p, " OR ")) == GC_OK)
			st = parse_and(p);
	}
	return st;
}

enum gc_status where_compile(const char *expr, where_lookup_fn lookup, where_suggest_fn suggest,
			     void *ctx, struct where_result *out, char **err)
{
	memset(out, 0, sizeof *out);
	buf_init(&out->sql, 64 * 1024);
	struct parser p = {expr, 0, {0}, lookup, suggest, ctx, out, err, 0};
	enum gc_status st = next(&p);
	if (st == GC_OK && p.tok.kind == T_END)
		st = fail_at(&p, 0, 1, "empty expression");
	if (st == GC_OK)
		st = emit(&p, "(");
	if (st == GC_OK)
		st = parse_or(&p);
	if (st == GC_OK && p.tok.kind != T_END)
		st = fail_at(&p, p.tok.pos, p.tok.len,
			     p.tok.kind == T_RPAREN
				     ? "unmatched ')'"
				     : "expected 'and', 'or' or the end of the expression");
	if (st == GC_OK)
		st = emit(&p, ")");
	if (st != GC_OK) {
		size_t pos = out->err_pos, len = out->err_len;
		where_result_release(out);
		out->err_pos = pos;
		out->err_len = len;
	}
	return st;
}

void where_result_release(struct where_result *r)
{
	buf_free(&r->sql);
	for (size_t i = 0; i < r->nbinds; i++)
		free(r->binds[i].text);
	free(r->binds);
	r->binds = NULL;
	r->nbinds = 0;
}
