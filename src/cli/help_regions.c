/* help_regions.c - gpucmp help regions: every word --region takes for a
 * place (the geos, the continents, each country's words), from the
 * built-in tables (data/regions.yaml, data/countries.csv). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/country.h"
#include "gpucmp/field.h"
#include "gpucmp/regions.h"

static const char *const geo_meaning[][2] = {
	{"us", "the United States"},
	{"americas", "the rest of North and South America"},
	{"eu", "Europe, the continent (EU members and GB, CH, NO, ...)"},
	{"mea", "the Middle East (UN M49 Western Asia) and Africa"},
	{"apac", "the rest of Asia, and Oceania"},
};

static void print_places(FILE *out)
{
	fprintf(out, "Words --region takes, in any case: a geo, a continent, a country, or a\n"
		     "provider's region id (eastus, us-east-1: 'gpucmp list --group-by region'\n"
		     "shows them); a value with * ? [ is a glob over region ids ('us-*').\n"
		     "Places come from data/regions.yaml; a region it does not place is\n"
		     "unknown (docs/OUTPUT.md, \"Locations\").\n\nGeos\n");
	for (size_t i = 0; i < sizeof geo_meaning / sizeof geo_meaning[0]; i++)
		fprintf(out, "  %-14s %s\n", geo_meaning[i][0], geo_meaning[i][1]);
	fprintf(out, "\nContinents\n ");
	for (const char *const *v = field_find("continent")->values; *v; v++)
		if (strcmp(*v, "unknown") != 0)
			fprintf(out, " %s", *v);
	fprintf(out, "\n\nCountries: the ISO 3166-1 code, the three-letter code or the English "
		     "name\n(DE, DEU, germany; a name of several words quoted or with -: "
		     "united-states)\n  %-4s %-4s %-14s %-8s %s\n", "CODE", "ISO3", "CONTINENT",
		"GEO", "NAME");
}

int cli_help_regions(FILE *out)
{
	struct catalog cat;
	char *err = NULL;
	enum gc_status st = catalog_init(&cat, catalog_today(), &err);
	if (st == GC_OK)
		st = catalog_need(&cat, CATALOG_REGIONS | CATALOG_COUNTRIES, &err);
	if (st != GC_OK) {
		msg_status(st, err, "cannot load the built-in region tables");
		free(err);
		catalog_release(&cat);
		return exit_code_for(st);
	}
	print_places(out);
	for (size_t i = 0; i < country_count(cat.countries); i++) {
		const struct country *c = country_at(cat.countries, i);
		/* a country data/regions.yaml does not list (Antarctica's) has no place */
		const struct region_country *r =
			regions_country(cat.regions, c->same_as[0] ? c->same_as : c->alpha2);
		if (c->same_as[0]) {
			fprintf(out, "  %-4s %-4s %-14s %-8s %s, as %s (ISO reserves the code)\n",
				c->alpha2, "-", r ? r->continent : "-", r ? r->geo : "-", c->name,
				c->same_as);
			continue;
		}
		const char *also = c->common ? c->common : c->ascii;
		fprintf(out, "  %-4s %-4s %-14s %-8s %s%s%s%s\n", c->alpha2, c->alpha3,
			r ? r->continent : "-", r ? r->geo : "-", c->name, also ? " (" : "",
			also ? also : "", also ? ")" : "");
	}
	catalog_release(&cat);
	return EXIT_OK;
}
