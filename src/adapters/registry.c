/* registry.c - the adapters `gpucmp refresh` knows, sorted by id.
 * Add a new adapter here (and nowhere else). */
#include "gpucmp/adapter.h"

extern const struct adapter adapter_azure;
extern const struct adapter adapter_digitalocean;
extern const struct adapter adapter_gcp;
extern const struct adapter adapter_hyperstack;
extern const struct adapter adapter_lambda;
extern const struct adapter adapter_linode;
extern const struct adapter adapter_oci;
extern const struct adapter adapter_runpod;
extern const struct adapter adapter_scaleway;
extern const struct adapter adapter_vast;
extern const struct adapter adapter_verda;
extern const struct adapter adapter_vultr;

const struct adapter *const adapters[] = {
	&adapter_azure,
	&adapter_digitalocean,
	&adapter_gcp,
	&adapter_hyperstack,
	&adapter_lambda,
	&adapter_linode,
	&adapter_oci,
	&adapter_runpod,
	&adapter_scaleway,
	&adapter_vast,
	&adapter_verda,
	&adapter_vultr,
};
const size_t adapter_count = sizeof adapters / sizeof adapters[0];
