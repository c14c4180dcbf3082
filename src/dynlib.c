/* dynlib.c - load a shared library when first needed (dynlib.h). */
#include "gpucmp/dynlib.h"

#include <dlfcn.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static enum gc_status load(struct dynlib *lib, char **err)
{
	void *h = NULL;
	for (size_t i = 0; !h && lib->sonames[i]; i++)
		h = dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return err_set(err, GC_EUNAVAILABLE, "cannot load %s (%s): %s", lib->what,
			       lib->sonames[0], lib->hint);
	for (size_t i = 0; i < lib->nsyms; i++) {
		/* POSIX: a dlsym result converts to a function pointer */
		*lib->syms[i].slot = dlsym(h, lib->syms[i].name);
		if (!*lib->syms[i].slot) {
			dlclose(h);
			return err_set(err, GC_EUNAVAILABLE, "%s lacks %s (too old?)", lib->what,
				       lib->syms[i].name);
		}
	}
	lib->handle = h;
	return GC_OK;
}

enum gc_status dynlib_load(struct dynlib *lib, char **err)
{
	pthread_mutex_lock(&lock);
	enum gc_status st = lib->handle ? GC_OK : load(lib, err);
	pthread_mutex_unlock(&lock);
	return st;
}
