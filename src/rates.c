/* rates.c - the dated exchange-rate table (data/rates.yaml). */
#include "gpucmp/rates.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/strutil.h"
#include "ytable.h"

static enum gc_status load_rate(struct ydoc *d, yaml_node_t *m, void *rows, size_t i, char **err)
{
	static const char *const keys[] = {"currency", "usd", NULL};
	struct rate *r = (struct rate *)rows + i;
	if (m->type != YAML_MAPPING_NODE)
		return ydoc_error(d, m, err, "each rate must be a mapping");
	enum gc_status st = ydoc_check_keys(d, m, keys, err);
	if (st != GC_OK)
		return st;
	yaml_node_t *c = ydoc_get(d, m, "currency"), *u = ydoc_get(d, m, "usd");
	const char *cs = c ? ydoc_str(c) : NULL;
	if (!cs || strlen(cs) != 3 || !isupper((unsigned char)cs[0]) ||
	    !isupper((unsigned char)cs[1]) || !isupper((unsigned char)cs[2]))
		return ydoc_error(d, c ? c : m, err, "currency must be an ISO 4217 code like EUR");
	memcpy(r->currency, cs, 4);
	if (!u || str_to_double(ydoc_str(u), &r->usd) != 0 || !(r->usd > 0))
		return ydoc_error(d, u ? u : m, err, "usd must be a positive number");
	return GC_OK;
}

static enum gc_status load_root(struct ydoc *d, yaml_node_t *root, void *table, char **err)
{
	struct rate_table *t = table;
	char *date = NULL;
	enum gc_status st = ydoc_dup_str(d, root, "date", 1, &date, err);
	if (st == GC_OK && str_date_days(date) < 0)
		st = ydoc_error(d, ydoc_get(d, root, "date"), err, "date must be YYYY-MM-DD");
	if (st == GC_OK) {
		snprintf(t->date, sizeof t->date, "%s", date);
		st = ydoc_dup_str(d, root, "source", 1, &t->source, err);
	}
	free(date);
	return st;
}

enum gc_status rates_load(struct rate_table *t, const char *file, const char *data, size_t len,
			  char **err)
{
	static const char *const keys[] = {"date", "source", "note", "rates", NULL};
	static const struct ytable_spec spec = {keys, "rates", sizeof(struct rate), load_root,
						load_rate};
	void *items;
	memset(t, 0, sizeof *t);
	enum gc_status st = ytable_load(&spec, t, file, data, len, &items, &t->n, err);
	t->items = items;
	if (st != GC_OK)
		rates_free(t);
	return st;
}

enum gc_status rates_load_embedded(struct rate_table *t, char **err)
{
	return rates_load(t, "data/rates.yaml", NULL, 0, err);
}

void rates_free(struct rate_table *t)
{
	free(t->source);
	free(t->items);
	memset(t, 0, sizeof *t);
}

double rates_usd(const struct rate_table *t, const char *currency)
{
	if (!currency || strcasecmp(currency, "USD") == 0)
		return 1.0;
	for (size_t i = 0; t && i < t->n; i++)
		if (strcasecmp(t->items[i].currency, currency) == 0)
			return t->items[i].usd;
	return NAN;
}
