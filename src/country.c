/* country.c - the ISO 3166-1 country table (data/countries.csv): a country by
 * any of its words, and the countries an unknown word may have meant. */
#include "gpucmp/country.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/csv.h"
#include "gpucmp/strutil.h"

struct country_table {
	struct country *items;
	size_t n;
};

enum { C_A2, C_A3, C_NAME, C_COMMON, C_ASCII, C_SAME, C_COLS };

void country_table_free(struct country_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		free((char *)t->items[i].name);
		free((char *)t->items[i].common);
		free((char *)t->items[i].ascii);
	}
	free(t->items);
	free(t);
}

/* n capital letters, and nothing after them. */
static int is_code(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isupper((unsigned char)s[i]))
			return 0;
	return s[n] == '\0';
}

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

static enum gc_status add_row(struct country_table *t, size_t *cap, char *const *f,
			      const char *file, size_t line, char **err)
{
	int reserved = *f[C_SAME] != '\0';
	if (!is_code(f[C_A2], 2) || !(reserved ? !*f[C_A3] : is_code(f[C_A3], 3)) ||
	    !*f[C_NAME] || (reserved && !is_code(f[C_SAME], 2)))
		return err_set(err, GC_EDATA, "%s:%zu: a country is alpha_2 (DE), alpha_3 (DEU) "
			       "and a name; a reserved code has no alpha_3 and names its country "
			       "in same_as", file, line);
	if (t->n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		struct country *p = realloc(t->items, c * sizeof *p);
		if (!p)
			return err_set(err, GC_ENOMEM, "out of memory");
		t->items = p;
		*cap = c;
	}
	struct country *c = &t->items[t->n++];
	memset(c, 0, sizeof *c);
	memcpy(c->alpha2, f[C_A2], 3);
	memcpy(c->alpha3, f[C_A3], strlen(f[C_A3]) + 1);
	memcpy(c->same_as, f[C_SAME], strlen(f[C_SAME]) + 1);
	c->name = strdup(f[C_NAME]);
	c->common = dup_or_null(f[C_COMMON]);
	c->ascii = dup_or_null(f[C_ASCII]);
	if (!c->name || (*f[C_COMMON] && !c->common) || (*f[C_ASCII] && !c->ascii))
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

/* Every alpha-2 code once; a reserved code's country is in the table. */
static enum gc_status check_table(const struct country_table *t, const char *file, char **err)
{
	unsigned char seen[26 * 26] = {0}; /* by code: alpha_2 is two capitals */
	for (size_t i = 0; i < t->n; i++) {
		const struct country *c = &t->items[i];
		unsigned char *s = &seen[(c->alpha2[0] - 'A') * 26 + c->alpha2[1] - 'A'];
		if ((*s)++)
			return err_set(err, GC_EDATA, "%s: %s is listed twice", file, c->alpha2);
		const struct country *to = c->same_as[0] ? country_find(t, c->same_as) : NULL;
		if (c->same_as[0] && (!to || to->same_as[0]))
			return err_set(err, GC_EDATA, "%s: %s stands for %s, which is not a "
				       "country of the table", file, c->alpha2, c->same_as);
	}
	return t->n ? GC_OK : err_set(err, GC_EDATA, "%s: no countries", file);
}

static enum gc_status load_rows(struct country_table *t, struct csv_reader *r, const char *file,
				char **err)
{
	static const char *const names[C_COLS] = {"alpha_2", "alpha_3", "name", "common_name",
						  "ascii_name", "same_as"};
	int idx[C_COLS], header = 0, rc;
	size_t cap = 0;
	struct csv_col cols[C_COLS];
	for (int i = 0; i < C_COLS; i++)
		cols[i] = (struct csv_col){names[i], &idx[i], 1};
	while ((rc = csv_next(r, err)) == 1) {
		if (r->nfields && r->fields[0][0] == '#')
			continue; /* the header's comment lines */
		if (!header++) {
			const char *miss = csv_columns(r, cols, C_COLS);
			if (miss)
				return err_set(err, GC_EDATA, "%s: no column %s", file, miss);
			continue;
		}
		char *f[C_COLS];
		for (int i = 0; i < C_COLS; i++) {
			if ((size_t)idx[i] >= r->nfields)
				return err_set(err, GC_EDATA, "%s:%zu: too few fields", file,
					       r->line);
			f[i] = r->fields[idx[i]];
		}
		enum gc_status st = add_row(t, &cap, f, file, r->line, err);
		if (st != GC_OK)
			return st;
	}
	if (rc == CSV_NOMEM)
		return err_set(err, GC_ENOMEM, "out of memory");
	return rc < 0 ? GC_EDATA : check_table(t, file, err);
}

enum gc_status country_table_load(struct country_table **out, const char *file, const char *data,
				  size_t len, char **err)
{
	*out = NULL;
	struct country_table *t = calloc(1, sizeof *t);
	if (!t)
		return err_set(err, GC_ENOMEM, "out of memory");
	struct csv_reader r;
	csv_init(&r, data, len);
	enum gc_status st = load_rows(t, &r, file, err);
	csv_release(&r);
	if (st != GC_OK) {
		country_table_free(t);
		return st;
	}
	*out = t;
	return GC_OK;
}

/* A word and a name, the same but for ASCII case; a space, '-' or '_' in
 * the word stands for a space ("united-states"). */
static int same_words(const char *w, const char *name)
{
	if (!name)
		return 0;
	for (; *w && *name; w++, name++) {
		char a = (*w == '-' || *w == '_') ? ' ' : *w;
		if (tolower((unsigned char)a) != tolower((unsigned char)*name))
			return 0;
	}
	return !*w && !*name;
}

/* Whether the word begins the name (the same rule, without its end). */
static int begins(const char *w, const char *name)
{
	size_t n = strlen(w);
	if (!name || strlen(name) <= n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char a = (w[i] == '-' || w[i] == '_') ? ' ' : w[i];
		if (tolower((unsigned char)a) != tolower((unsigned char)name[i]))
			return 0;
	}
	return 1;
}

const struct country *country_find(const struct country_table *t, const char *word)
{
	if (!t || !word || !*word)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		const struct country *c = &t->items[i];
		if (strcasecmp(word, c->alpha2) == 0 || (c->alpha3[0] &&
		    strcasecmp(word, c->alpha3) == 0) || same_words(word, c->name) ||
		    same_words(word, c->common) || same_words(word, c->ascii))
			return c->same_as[0] ? country_find(t, c->same_as) : c;
	}
	return NULL;
}

/* The distance from word to the nearest of a country's names. */
static unsigned name_distance(const char *word, const struct country *c)
{
	unsigned d = str_distance(word, c->name);
	if (c->common && str_distance(word, c->common) < d)
		d = str_distance(word, c->common);
	if (c->ascii && str_distance(word, c->ascii) < d)
		d = str_distance(word, c->ascii);
	return d;
}

static size_t shortest_name(const struct country *c)
{
	size_t n = strlen(c->name);
	if (c->common && strlen(c->common) < n)
		n = strlen(c->common);
	return n;
}

/* Names a prefix matched, shorter names first ("united": the United
 * States before the United States Minor Outlying Islands). */
static void by_name_length(const struct country **v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && shortest_name(v[j]) < shortest_name(v[j - 1]); j--) {
			const struct country *x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

size_t country_suggest(const struct country_table *t, const char *word,
		       const struct country **out, size_t max)
{
	size_t len = word ? strlen(word) : 0, n = 0;
	if (!t || len < 3 || !max)
		return 0;
	const struct country *found[512];
	for (size_t i = 0; i < t->n && n < sizeof found / sizeof found[0]; i++) {
		const struct country *c = &t->items[i];
		if (!c->same_as[0] &&
		    (begins(word, c->name) || begins(word, c->common) || begins(word, c->ascii)))
			found[n++] = c;
	}
	if (!n && len >= 4) {
		/* the nearest names, as close as a "did you mean" goes (strutil) */
		unsigned best = len <= 4 ? 1 : (unsigned)(len / 3 + 1);
		for (size_t i = 0; i < t->n; i++)
			if (!t->items[i].same_as[0] && name_distance(word, &t->items[i]) < best)
				best = name_distance(word, &t->items[i]);
		for (size_t i = 0; i < t->n && n < sizeof found / sizeof found[0]; i++)
			if (!t->items[i].same_as[0] && name_distance(word, &t->items[i]) <= best)
				found[n++] = &t->items[i];
	}
	by_name_length(found, n);
	if (n > max)
		n = max;
	memcpy(out, found, n * sizeof *out);
	return n;
}

size_t country_count(const struct country_table *t)
{
	return t ? t->n : 0;
}

const struct country *country_at(const struct country_table *t, size_t i)
{
	return t && i < t->n ? &t->items[i] : NULL;
}
