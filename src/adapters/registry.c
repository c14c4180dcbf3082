/* registry.c - the adapters `gpucmp refresh` knows, sorted by id.
 * Add a new adapter here (and nowhere else). */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_lambda;

const struct adapter *const adapters[] = {
	&adapter_lambda,
};
const size_t adapter_count = sizeof adapters / sizeof adapters[0];
