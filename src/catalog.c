/* catalog.c - load the embedded GPU table, instance types, regions and
 * profiles. */
#include "gpucmp/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpucmp/embedded.h"
#include "gpucmp/strutil.h"

uint64_t catalog_hash(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

long catalog_today(void)
{
	const char *env = getenv("GPUCMP_TODAY");
	if (env && *env) {
		long d = str_date_days(env);
		if (d >= 0)
			return d;
	}
	long long now = catalog_now();
	return (long)(now / 86400);
}

long long catalog_now(void)
{
	const char *env = getenv("GPUCMP_NOW");
	long long t = env && *env ? str_time_epoch(env) : -1;
	if (t >= 0)
		return t;
	env = getenv("GPUCMP_TODAY");
	long d = env && *env ? str_date_days(env) : -1;
	if (d >= 0)
		return (long long)d * 86400 + 43200;
	return (long long)time(NULL);
}

enum gc_status catalog_init(struct catalog *c, long today, char **err)
{
	memset(c, 0, sizeof *c);
	c->today = today;
	const struct embedded_file *g = embedded_require("data/gpus.yaml", err);
	const struct embedded_file *t =
		g ? embedded_require("data/instance-types.yaml", err) : NULL;
	const struct embedded_file *s = t ? embedded_require("data/snapshot.csv", err) : NULL;
	const struct embedded_file *l = s ? embedded_require("data/list-prices.yaml", err) : NULL;
	const struct embedded_file *r = l ? embedded_require("data/regions.yaml", err) : NULL;
	const struct embedded_file *n = r ? embedded_require("data/countries.csv", err) : NULL;
	if (!n)
		return GC_EDATA;
	c->gpus_file = g;
	c->types_file = t;
	c->regions_file = r;
	c->countries_file = n;
	c->snapshot = (const char *)s->data;
	c->snapshot_len = s->len;
	/* the build hashed each file; combine those instead of rereading the bytes */
	uint64_t h = catalog_hash(CATALOG_HASH_INIT, &g->hash, sizeof g->hash);
	h = catalog_hash(h, &t->hash, sizeof t->hash);
	h = catalog_hash(h, &r->hash, sizeof r->hash);
	for (size_t i = 0; i < embedded_profiles_count; i++)
		h = catalog_hash(h, &embedded_profiles[i].hash, sizeof embedded_profiles[i].hash);
	c->catalog_hash = h;
	c->snapshot_hash = s->hash;
	c->list_prices = (const char *)l->data;
	c->list_prices_len = l->len;
	c->seed_hash = catalog_hash(catalog_hash(CATALOG_HASH_INIT, &s->hash, sizeof s->hash),
				    &l->hash, sizeof l->hash);
	return GC_OK;
}

int catalog_has_profile(const char *id)
{
	char want[128];
	int n = snprintf(want, sizeof want, "providers/%s.yaml", id);
	if (n < 0 || (size_t)n >= sizeof want)
		return 0;
	for (size_t i = 0; i < embedded_profiles_count; i++)
		if (strcmp(embedded_profiles[i].name, want) == 0)
			return 1;
	return 0;
}

enum gc_status catalog_need(struct catalog *c, unsigned parts, char **err)
{
	enum gc_status st = GC_OK;
	unsigned todo = parts & ~c->loaded;
	if (st == GC_OK && (todo & CATALOG_GPUS)) {
		st = gpu_table_load(&c->gpus, c->gpus_file->name, (const char *)c->gpus_file->data,
				    c->gpus_file->len, err);
		if (st == GC_OK)
			c->loaded |= CATALOG_GPUS;
	}
	if (st == GC_OK && (todo & CATALOG_TYPES)) {
		st = insttype_load(&c->types, c->types_file->name,
				   (const char *)c->types_file->data, c->types_file->len, err);
		if (st == GC_OK)
			c->loaded |= CATALOG_TYPES;
	}
	if (st == GC_OK && (todo & CATALOG_REGIONS)) {
		st = regions_load(&c->regions, c->regions_file->name,
				  (const char *)c->regions_file->data, c->regions_file->len, err);
		if (st == GC_OK)
			c->loaded |= CATALOG_REGIONS;
	}
	if (st == GC_OK && (todo & CATALOG_COUNTRIES)) {
		st = country_table_load(&c->countries, c->countries_file->name,
					(const char *)c->countries_file->data,
					c->countries_file->len, err);
		if (st == GC_OK)
			c->loaded |= CATALOG_COUNTRIES;
	}
	if (st == GC_OK && (todo & CATALOG_PROFILES)) {
		st = profile_set_load_embedded(&c->profiles, c->today, err);
		if (st == GC_OK)
			c->loaded |= CATALOG_PROFILES;
	}
	return st;
}

enum gc_status catalog_load(struct catalog *c, long today, char **err)
{
	enum gc_status st = catalog_init(c, today, err);
	if (st == GC_OK)
		st = catalog_need(c, CATALOG_ALL, err);
	if (st != GC_OK)
		catalog_release(c);
	return st;
}

void catalog_release(struct catalog *c)
{
	gpu_table_free(c->gpus);
	insttype_free(c->types);
	regions_free(c->regions);
	country_table_free(c->countries);
	profile_set_release(&c->profiles);
	c->gpus = NULL;
	c->types = NULL;
	c->regions = NULL;
	c->countries = NULL;
	c->loaded = 0;
}
