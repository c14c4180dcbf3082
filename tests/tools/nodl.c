/* nodl.c - an LD_PRELOAD shim for tests/optional.sh: dlopen fails for the
 * libraries GPUCMP_TEST_NODL names, as if they were not installed.
 *
 * GPUCMP_TEST_NODL is a comma-separated list of name prefixes ("libcurl,
 * libcrypto"); a dlopen of a file whose base name starts with one of them
 * returns NULL (dlerror then says so), any other goes to the real dlopen.
 * Works on a binary that links the C library dynamically: gpucmp calls
 * dlopen through its PLT, which the preloaded definition comes before.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

void *dlopen(const char *file, int mode);

static int hidden(const char *file)
{
	const char *list = getenv("GPUCMP_TEST_NODL");
	if (!file || !list)
		return 0;
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	while (*list) {
		size_t n = strcspn(list, ",");
		if (n && strncmp(base, list, n) == 0)
			return 1;
		list += n + (list[n] == ',');
	}
	return 0;
}

void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	if (hidden(file))
		return NULL;
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "dlopen");
	return real ? real(file, mode) : NULL;
}
