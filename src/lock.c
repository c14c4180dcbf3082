/* lock.c - an advisory lock beside the cache file (fcntl, POSIX). */
#include "gpucmp/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum gc_status lock_acquire(const char *cache_path, long wait_ms, int *fd, char **err)
{
	*fd = -1;
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s.lock", cache_path) >= sizeof path)
		return err_set(err, GC_EIO, "cache path too long");
	/* never through a link (another user could plant one in a shared
	 * directory) and never blocking on a FIFO planted there */
	int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	if (f < 0 && errno == ELOOP)
		return err_set(err, GC_EIO,
			       "lock %s is a symbolic link; remove it (gpucmp creates its own)",
			       path);
	if (f < 0)
		return err_set(err, GC_EIO, "cannot create lock %s: %s", path, strerror(errno));
	struct stat sb;
	if (fstat(f, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(f);
		return err_set(err, GC_EIO, "lock %s is not a regular file; remove it", path);
	}
	struct flock fl;
	long waited = 0;
	for (;;) {
		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		if (fcntl(f, F_SETLK, &fl) == 0)
			break;
		if (errno != EACCES && errno != EAGAIN) {
			int e = errno;
			close(f);
			return err_set(err, GC_EIO, "cannot lock %s: %s", path, strerror(e));
		}
		if (waited >= wait_ms) {
			memset(&fl, 0, sizeof fl);
			fl.l_type = F_WRLCK;
			fl.l_whence = SEEK_SET;
			long pid = 0;
			if (fcntl(f, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
				pid = (long)fl.l_pid;
			close(f);
			if (pid > 0)
				return err_set(err, GC_ETEMPFAIL, "another gpucmp (pid %ld) is "
					       "updating the cache; try again later", pid);
			return err_set(err, GC_ETEMPFAIL,
				       "another gpucmp is updating the cache; try again later");
		}
		struct timespec ts = {0, 100 * 1000000L};
		nanosleep(&ts, NULL);
		waited += 100;
	}
	*fd = f;
	return GC_OK;
}

void lock_release(int fd)
{
	if (fd >= 0)
		close(fd); /* closing drops the fcntl lock */
}
