/* listprice.c - read data/list-prices.yaml (published list prices). */
#include "gpucmp/listprice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/catalog.h"
#include "gpucmp/embedded.h"
#include "gpucmp/strutil.h"
#include "gpucmp/yamldoc.h"

/* a sane ceiling: the dearest whole offer we know (a GB300 rack slice)
 * is a few hundred dollars an hour; a price above this is a typo */
#define LISTPRICE_MAX_HR 10000.0

static const char *const row_keys[] = {
	"provider", "sku", "gpu", "gpu_name", "gpu_count", "gpu_mem_gb", "vcpus", "ram_gb",
	"region", "price_hr", "spot_price_hr", "source", "checked", "via", "note",
	/* reserved_<months>_hr, one per term of OFFER_TERMS */
	"reserved_1_hr", "reserved_3_hr", "reserved_6_hr", "reserved_12_hr", "reserved_24_hr",
	"reserved_36_hr", NULL};

static const int terms[] = OFFER_TERMS;
#define NTERMS (sizeof terms / sizeof terms[0])

struct row {
	const char *provider, *sku, *gpu, *gpu_name, *region, *source, *checked;
	double gpu_count, gpu_mem_gb, vcpus, ram_gb, price_hr, spot_price_hr;
	double reserved[NTERMS]; /* per hour for each term; NAN: none */
};

/* lowercase letters, digits and dashes: the form of every id in gpus.yaml */
static int id_form(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return 1;
}

static enum gc_status text(struct ydoc *d, yaml_node_t *m, const char *key, int required,
			   const char **out, char **err)
{
	yaml_node_t *v = ydoc_get(d, m, key);
	*out = NULL;
	if (!v) {
		if (required)
			return ydoc_error(d, m, err, "row has no '%s'", key);
		return GC_OK;
	}
	const char *s = ydoc_str(v);
	if (!s || !*s || ydoc_is_null(v))
		return ydoc_error(d, v, err, "'%s' must be a non-empty text", key);
	*out = s;
	return GC_OK;
}

/* A positive finite number; absent is NAN unless required. */
static enum gc_status number(struct ydoc *d, yaml_node_t *m, const char *key, int required,
			     double max, double *out, char **err)
{
	yaml_node_t *v = ydoc_get(d, m, key);
	*out = NAN;
	if (!v)
		return required ? ydoc_error(d, m, err, "row has no '%s'", key) : GC_OK;
	const char *s = ydoc_str(v);
	if (!s || str_to_double(s, out) != 0 || !isfinite(*out) || !(*out > 0) || *out > max)
		return ydoc_error(d, v, err, "'%s' must be a number above 0 and at most %g", key,
				  max);
	return GC_OK;
}

/* The row's commitment prices (reserved_<months>_hr): each a price per
 * hour below the on-demand one. */
static enum gc_status reserved(struct ydoc *d, yaml_node_t *m, struct row *r, char **err)
{
	enum gc_status st = GC_OK;
	for (size_t i = 0; st == GC_OK && i < NTERMS; i++) {
		char key[32];
		snprintf(key, sizeof key, "reserved_%d_hr", terms[i]);
		st = number(d, m, key, 0, LISTPRICE_MAX_HR, &r->reserved[i], err);
		if (st == GC_OK && r->reserved[i] >= r->price_hr)
			st = ydoc_error(d, ydoc_get(d, m, key), err,
					"'%s' is not below 'price_hr'", key);
	}
	return st;
}

static enum gc_status check_row(struct ydoc *d, yaml_node_t *m, const struct gpu_table *gpus,
				struct row *r, char **err)
{
	if (m->type != YAML_MAPPING_NODE)
		return ydoc_error(d, m, err, "each offer must be a mapping");
	enum gc_status st = ydoc_check_keys(d, m, row_keys, err);
	const char *via = NULL, *note = NULL;
	if (st == GC_OK)
		st = text(d, m, "provider", 1, &r->provider, err);
	if (st == GC_OK && !catalog_has_profile(r->provider))
		st = ydoc_error(d, ydoc_get(d, m, "provider"), err,
				"unknown provider '%s' (no providers/%s.yaml)", r->provider,
				r->provider);
	if (st == GC_OK)
		st = text(d, m, "sku", 1, &r->sku, err);
	if (st == GC_OK)
		st = text(d, m, "gpu", 1, &r->gpu, err);
	if (st == GC_OK)
		st = text(d, m, "gpu_name", 0, &r->gpu_name, err);
	if (st == GC_OK)
		st = text(d, m, "region", 1, &r->region, err);
	if (st == GC_OK)
		st = text(d, m, "source", 1, &r->source, err);
	if (st == GC_OK && strncmp(r->source, "https://", 8) != 0)
		st = ydoc_error(d, ydoc_get(d, m, "source"), err,
				"'source' must be the https:// address of the pricing page");
	if (st == GC_OK)
		st = text(d, m, "checked", 1, &r->checked, err);
	if (st == GC_OK && (strlen(r->checked) != 10 || str_date_days(r->checked) < 0))
		st = ydoc_error(d, ydoc_get(d, m, "checked"), err, "'checked' must be YYYY-MM-DD");
	if (st == GC_OK)
		st = text(d, m, "via", 0, &via, err);
	if (st == GC_OK && via && strncmp(via, "https://", 8) != 0)
		st = ydoc_error(d, ydoc_get(d, m, "via"), err, "'via' must be an https:// address");
	if (st == GC_OK)
		st = text(d, m, "note", 0, &note, err);
	if (st == GC_OK)
		st = number(d, m, "gpu_count", 1, 1024, &r->gpu_count, err);
	if (st == GC_OK)
		st = number(d, m, "gpu_mem_gb", 0, 4096, &r->gpu_mem_gb, err);
	if (st == GC_OK)
		st = number(d, m, "vcpus", 0, 100000, &r->vcpus, err);
	if (st == GC_OK)
		st = number(d, m, "ram_gb", 0, 1e7, &r->ram_gb, err);
	if (st == GC_OK)
		st = number(d, m, "price_hr", 1, LISTPRICE_MAX_HR, &r->price_hr, err);
	if (st == GC_OK)
		st = number(d, m, "spot_price_hr", 0, LISTPRICE_MAX_HR, &r->spot_price_hr, err);
	if (st == GC_OK && r->spot_price_hr > r->price_hr)
		st = ydoc_error(d, ydoc_get(d, m, "spot_price_hr"), err,
				"'spot_price_hr' is above 'price_hr'");
	if (st == GC_OK)
		st = reserved(d, m, r, err);
	if (st != GC_OK)
		return st;
	yaml_node_t *g = ydoc_get(d, m, "gpu");
	if (!id_form(r->gpu))
		return ydoc_error(d, g, err,
				  "'gpu' must be an id from data/gpus.yaml, like h100-sxm");
	if (gpus) {
		const struct gpu_model *gm = gpu_find(gpus, r->gpu);
		if (!gm)
			return ydoc_error(d, g, err, "unknown gpu id '%s' (not in data/gpus.yaml)",
					  r->gpu);
		if (!isnan(r->gpu_mem_gb) && fabs(r->gpu_mem_gb - gm->memory_gb) > 0.5)
			return ydoc_error(d, ydoc_get(d, m, "gpu_mem_gb"), err,
					  "'gpu_mem_gb' %g does not match %s (%g GB)",
					  r->gpu_mem_gb, r->gpu, gm->memory_gb);
	}
	return GC_OK;
}

static int same_key(const struct row *a, const struct row *b)
{
	return strcmp(a->provider, b->provider) == 0 && strcmp(a->sku, b->sku) == 0 &&
	       strcmp(a->region, b->region) == 0;
}

static enum gc_status deliver(const struct row *r, offer_cb cb, void *ctx, char **err)
{
	char fetched[32];
	struct offer o;
	offer_init(&o);
	o.provider = r->provider;
	o.sku = r->sku;
	o.gpu = r->gpu;
	o.gpu_name = r->gpu_name ? r->gpu_name : r->gpu;
	o.region = r->region;
	o.currency = "USD";
	o.source = "list";
	o.origin = r->source;
	snprintf(fetched, sizeof fetched, "%sT00:00:00Z", r->checked);
	o.fetched_at = fetched;
	o.gpu_count = r->gpu_count;
	o.gpu_mem_gb = r->gpu_mem_gb;
	o.vcpus = r->vcpus;
	o.ram_gb = r->ram_gb;
	o.price_hr = r->price_hr;
	o.spot_price_hr = r->spot_price_hr;
	o.as_of = fetched; /* the day the page was checked */
	struct offer_commit c[NTERMS];
	for (size_t i = 0; i < NTERMS; i++)
		if (!isnan(r->reserved[i]))
			c[o.ncommits++] = (struct offer_commit){"reserved", terms[i],
								r->reserved[i], NULL, NULL};
	o.commits = o.ncommits ? c : NULL;
	/* through the cache's door, as every source */
	return offer_deliver(cb, ctx, &o, NULL, err);
}

enum gc_status listprice_parse(const char *file, const char *data, size_t len,
			       const struct gpu_table *gpus, offer_cb cb, void *ctx,
			       struct listprice_info *info, char **err)
{
	static const char *const keys[] = {"version", "offers", NULL};
	if (info)
		memset(info, 0, sizeof *info);
	struct ydoc d;
	enum gc_status st = ydoc_load(&d, file, data, len, err);
	if (st != GC_OK)
		return st;
	yaml_node_t *root = ydoc_root(&d), *list = NULL;
	size_t n = 0;
	struct row *rows = NULL;
	if (root->type != YAML_MAPPING_NODE)
		st = ydoc_error(&d, root, err, "expected a mapping with 'version' and 'offers'");
	if (st == GC_OK)
		st = ydoc_check_keys(&d, root, keys, err);
	if (st == GC_OK) {
		yaml_node_t *v = ydoc_get(&d, root, "version");
		const char *vs = v ? ydoc_str(v) : NULL;
		if (!vs || strcmp(vs, "1") != 0)
			st = ydoc_error(&d, v ? v : root, err, "'version' must be 1");
	}
	if (st == GC_OK)
		st = ydoc_list(&d, root, "offers", &list, &n, err);
	if (st == GC_OK && !(rows = calloc(n ? n : 1, sizeof *rows)))
		st = err_set(err, GC_ENOMEM, "out of memory");
	/* all rows are checked before the first reaches the caller */
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		yaml_node_t *m = ydoc_item(&d, list, i);
		st = check_row(&d, m, gpus, &rows[i], err);
		for (size_t j = 0; st == GC_OK && j < i; j++)
			if (same_key(&rows[i], &rows[j]))
				st = ydoc_error(&d, m, err,
						"offer %s '%s' in region '%s' is listed twice",
						rows[i].provider, rows[i].sku, rows[i].region);
	}
	for (size_t i = 0; st == GC_OK && cb && i < n; i++)
		st = deliver(&rows[i], cb, ctx, err);
	if (st == GC_OK && info) {
		info->rows = n;
		for (size_t i = 0; i < n; i++)
			if (strcmp(rows[i].checked, info->newest) > 0)
				snprintf(info->newest, sizeof info->newest, "%s", rows[i].checked);
	}
	free(rows);
	ydoc_free(&d);
	return st;
}
