/* fuzz_config.c - libFuzzer target for the config file parser
 * (config_parse, as every command calls it on ~/.config/gpucmp/config.yaml).
 *
 * The input is the YAML text of the file.  A parsed config is read back
 * through its accessors; a failed one must say why in one line naming the
 * file, and must hold no settings.  Every input must finish quickly: deep
 * nesting is refused by ydoc_load (YDOC_MAX_DEPTH) before libyaml's
 * quadratic scanner gets to it (the regression seed is 60,000 '[').
 */
#include "fuzz_common.h"
#include "gpucmp/config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void read_back(const struct config *c)
{
	if (c->columns)
		(void)strlen(c->columns);
	if (c->sort)
		(void)strlen(c->sort);
	if (strlen(config_currency(c)) != 3)
		fuzz_fail("currency '%s' is not a 3-letter code", config_currency(c));
	/* a live adapter, or a hosted catalog that covers it (catalog-only) */
	for (size_t i = 0; i < c->nproviders; i++)
		if (!c->providers[i] ||
		    (!adapter_find(c->providers[i]) && !hosted_find(c->providers[i])))
			fuzz_fail("provider #%zu has no source", i);
	for (size_t i = 0; i < c->nprovider; i++) {
		const struct config_provider *p = &c->provider[i];
		if (!p->id || config_base_url(c, p->id) != p->base_url ||
		    config_api_key(c, p->id) != p->api_key)
			fuzz_fail("provider settings #%zu not found by id", i);
		if (p->base_url && strlen(p->base_url) > CONFIG_MAX_URL)
			fuzz_fail("base_url longer than CONFIG_MAX_URL");
		if (p->api_key && strlen(p->api_key) > CONFIG_MAX_KEY)
			fuzz_fail("api_key longer than CONFIG_MAX_KEY");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = fuzz_copy(data, size);
	struct config c;
	char *err = NULL;
	config_init(&c);
	enum gc_status st = config_parse(&c, "fuzz.yaml", copy, size, &err);
	fuzz_check_err(st, err);
	if (st == GC_OK) {
		read_back(&c);
	} else {
		if (strncmp(err, "fuzz.yaml", 9) != 0 && st != GC_ENOMEM)
			fuzz_fail("error without the file name: %s", err);
		if (strchr(err, '\n'))
			fuzz_fail("error of more than one line: %s", err);
		if (c.columns || c.sort || c.nproviders || c.nprovider)
			fuzz_fail("settings kept after an error");
	}
	config_release(&c);
	free(err);
	free(copy);
	return 0;
}
