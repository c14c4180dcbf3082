/* registry.c - the adapters `gpucmp refresh` knows, sorted by id, and
 * the lookup by id.  A new adapter is its src/adapters/<id>.c defining
 * `const struct adapter adapter_<id>` (the build finds the file), one line
 * X(<id>) below, and its recorded responses: tests/fixtures/http/<id>/ with
 * <id>.routes (the net test replays every routes file) and the suite
 * tests/unit/test_adapter_<id>.c (found by the build too). */
#include <string.h>

#include "gpucmp/adapter.h"

#define ADAPTERS(X)      \
	X(azure)         \
	X(digitalocean)  \
	X(gcp)           \
	X(hyperstack)    \
	X(lambda)        \
	X(linode)        \
	X(oci)           \
	X(runpod)        \
	X(scaleway)      \
	X(vast)          \
	X(verda)         \
	X(vultr)

#define DECLARE(id) extern const struct adapter adapter_##id;
#define ENTRY(id) &adapter_##id,

ADAPTERS(DECLARE)

const struct adapter *const adapters[] = {ADAPTERS(ENTRY)};
const size_t adapter_count = sizeof adapters / sizeof adapters[0];

const struct adapter *adapter_find(const char *id)
{
	for (size_t i = 0; i < adapter_count; i++)
		if (strcmp(adapters[i]->id, id) == 0)
			return adapters[i];
	return NULL;
}
