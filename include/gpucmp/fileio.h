/* fileio.h - whole-file reads with a size cap, and directory listings.
 */
#ifndef GPUCMP_FILEIO_H
#define GPUCMP_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

#include "gpucmp/err.h"

/* Read all of `path` (at most `limit` bytes, 0 = no limit) into a new
 * NUL-terminated buffer.  GC_ENOTFOUND if it does not exist, GC_EIO if it
 * cannot be read or is not a regular file (a directory, FIFO, device: never
 * waited on), GC_EDATA if larger than `limit`. */
enum gc_status file_read_all(const char *path, size_t limit, char **data, size_t *len,
			     char **err);

/* "a directory", "a FIFO", ... for a st_mode, for messages (static). */
const char *file_kind(mode_t mode);

/* Is `path` a directory?  A regular file? */
int file_is_dir(const char *path);
int file_is_file(const char *path);

/* Names "dir/<name>" of the entries of `dir` whose names end in `suffix`,
 * sorted; a new array of new strings (free with file_list_free). */
enum gc_status file_list(const char *dir, const char *suffix, char ***names, size_t *n,
			 char **err);
void file_list_free(char **names, size_t n);

#endif
