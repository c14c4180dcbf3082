/* dynlib.h - load a shared library when first needed, not at start-up.
 *
 * A library linked to the executable is mapped and relocated on every run,
 * with everything it depends on: libcurl's thirty libraries, libzip's
 * libcrypto.  Those a command may never use are loaded here instead.
 */
#ifndef GPUCMP_DYNLIB_H
#define GPUCMP_DYNLIB_H

#include <stddef.h>

#include "gpucmp/err.h"

struct dynlib_sym {
	const char *name; /* "curl_easy_init" */
	void **slot;      /* where its address goes */
};

struct dynlib {
	const char *what;              /* "libcurl", in messages */
	const char *hint;              /* what to install: "install libcurl4 to ..." */
	const char *const *sonames;    /* tried in turn; NULL-terminated */
	const struct dynlib_sym *syms; /* every one must resolve */
	size_t nsyms;
	void *handle;                  /* set once loaded, kept for the process */
};

/* Load lib (once; later calls return at once) and fill every symbol's slot.
 * Safe from several threads: a caller that returns GC_OK sees the slots
 * filled.  GC_EUNAVAILABLE when no soname loads or a symbol is missing. */
enum gc_status dynlib_load(struct dynlib *lib, char **err);

#endif
