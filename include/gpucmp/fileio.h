/* fileio.h - whole-file reads with a size cap, private files (keys),
 * temporary files that are safe in a shared folder, directory listings.
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

/* Read a private file (a key) at `path` as file_read_all does (opened
 * without waiting on a FIFO, regular files only, at most `limit` bytes;
 * links are followed, the checks are on the file opened), refused with
 * GC_EUSAGE when it belongs to another user (root excepted), when other
 * users can read it ("<what> PATH is readable by other users; run: chmod
 * 600 PATH", the config file's rule) or change it.  `what` names it in
 * messages ("signing key").  GC_ENOTFOUND when it does not exist.  The
 * caller wipes *data after use. */
enum gc_status file_read_private(const char *path, const char *what, size_t limit, char **data,
				 size_t *len, char **err);

/* A new file to write in the folder open at `dirfd`, on its way to being
 * `name`: made with O_CREAT | O_EXCL | O_NOFOLLOW under a random name
 * ".<name>.XXXXXXXXXXXX", so never an existing file nor the target of a
 * link someone planted there, with `mode` (less the umask).  Its
 * descriptor (O_CLOEXEC) and its name into tmp (size n); -1 with errno
 * set.  The caller renames it into place (renameat: a link at `name` is
 * replaced, never followed) or removes it (unlinkat). */
int file_temp_at(int dirfd, const char *name, mode_t mode, char *tmp, size_t n);

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
