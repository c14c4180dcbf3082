/* lock.h - one writer at a time: an advisory lock beside the cache file.
 *
 * A refresh or import holds "<cache>.lock" (fcntl F_SETLK, released by
 * the kernel when the process dies, so a killed run never leaves it held).
 */
#ifndef GPUCMP_LOCK_H
#define GPUCMP_LOCK_H

#include "gpucmp/err.h"

/* Take the lock, waiting up to `wait_ms`.  On success *fd holds it (pass to
 * lock_release).  GC_ETEMPFAIL when another process keeps it; the message
 * names that process.  GC_EIO when the lock file cannot be created. */
enum gc_status lock_acquire(const char *cache_path, long wait_ms, int *fd, char **err);
void lock_release(int fd);

#endif
