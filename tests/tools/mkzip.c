/* mkzip.c - gpucmp-mkzip OUT.zip NAME FILE: a zip holding FILE as NAME.
 *
 * Builds gpuhunt-style catalog.zip fixtures at test time (libzip, the
 * library the reader uses), so no zip is committed. */
#include <stdio.h>
#include <zip.h>

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: gpucmp-mkzip OUT.zip NAME FILE\n");
		return 2;
	}
	int ze = 0;
	zip_t *z = zip_open(argv[1], ZIP_CREATE | ZIP_TRUNCATE, &ze);
	if (!z) {
		fprintf(stderr, "gpucmp-mkzip: cannot create %s\n", argv[1]);
		return 1;
	}
	zip_source_t *src = zip_source_file(z, argv[3], 0, -1);
	if (!src || zip_file_add(z, argv[2], src, ZIP_FL_OVERWRITE) < 0) {
		fprintf(stderr, "gpucmp-mkzip: cannot add %s: %s\n", argv[3], zip_strerror(z));
		zip_source_free(src);
		zip_discard(z);
		return 1;
	}
	if (zip_close(z) != 0) {
		fprintf(stderr, "gpucmp-mkzip: cannot write %s: %s\n", argv[1], zip_strerror(z));
		zip_discard(z);
		return 1;
	}
	return 0;
}
