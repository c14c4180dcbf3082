/* cmd_providers_check.c - gpucmp providers --check: validate profiles.
 *
 * Without arguments the built-in profiles are checked; otherwise each FILE,
 * and every *.yaml in each DIR.  Every problem is printed (one per file,
 * since the loader stops at a file's first error), then duplicate ids
 * across files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/fileio.h"

enum { PROFILE_MAX_BYTES = 1 << 20 };

/* Load one file into `set`; prints its error; returns 1 when it is bad. */
static int check_file(struct profile_set *set, const char *path, long today)
{
	char *data = NULL, *err = NULL;
	size_t len;
	struct profile *p = NULL;
	enum gc_status st = file_read_all(path, PROFILE_MAX_BYTES, &data, &len, &err);
	if (st == GC_OK)
		st = profile_load(&p, path, data, len, today, &err);
	if (st == GC_OK)
		st = profile_set_add(set, p, &err);
	if (st != GC_OK)
		msg_error("%s", err ? err : path);
	free(err);
	free(data);
	return st != GC_OK;
}

int cmd_providers_check(struct cli_args *a)
{
	long today = catalog_today();
	if (!a->npos) {
		struct profile_set set;
		char *err = NULL;
		if (profile_set_load_embedded(&set, today, &err) != GC_OK) {
			msg_error("%s", err ? err : "built-in profiles are invalid");
			free(err);
			return EXIT_DATAERR;
		}
		printf("%zu built-in profiles valid\n", set.n);
		profile_set_release(&set);
		return EXIT_OK;
	}
	struct profile_set set = {0};
	size_t files = 0, bad = 0;
	int rc = EXIT_OK;
	for (int i = 0; i < a->npos; i++) {
		const char *arg = a->pos[i];
		if (!file_is_dir(arg)) {
			files++;
			bad += (size_t)check_file(&set, arg, today);
			continue;
		}
		char **names, *err = NULL;
		size_t n;
		if (file_list(arg, ".yaml", &names, &n, &err) != GC_OK) {
			msg_error("%s", err ? err : arg);
			free(err);
			rc = EXIT_IOERR;
			continue;
		}
		if (!n)
			msg_warn("%s: no *.yaml files", arg);
		for (size_t k = 0; k < n; k++)
			bad += (size_t)check_file(&set, names[k], today);
		files += n;
		file_list_free(names, n);
	}
	profile_set_release(&set);
	if (bad) {
		msg_error("%zu of %zu profiles invalid", bad, files);
		return EXIT_DATAERR;
	}
	if (rc == EXIT_OK)
		printf("%zu profiles valid\n", files);
	return rc;
}
