/* cache_path.c - where the cache lives ($GPUCMP_CACHE, XDG, --cache) and
 * what may sit at that path before SQLite opens it: parent directories,
 * a regular file (never a link, FIFO or device), a directory others may
 * write.  cache_open.c calls cache_ready_path; nothing here touches SQLite. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_int.h"
#include "gpucmp/fileio.h"
#include "gpucmp/strutil.h"
#include "sqlite_int.h"

char *cache_default_path(const char *override, char **err)
{
	char *p = NULL;
	cache_locate(override, &p, err);
	return p;
}

enum gc_status cache_locate(const char *override, char **path, char **err)
{
	char *p = NULL;
	*path = NULL;
	if (override && *override)
		p = strdup(override);
	else if (str_user_path("GPUCMP_CACHE", "XDG_CACHE_HOME", ".cache", "cache.db", &p) == 0 &&
		 !p)
		return err_set(err, GC_EUSAGE, "cannot find a cache location: set HOME, "
			       "XDG_CACHE_HOME or GPUCMP_CACHE, or pass --cache PATH");
	if (!p)
		return err_set(err, GC_ENOMEM, "out of memory");
	*path = p;
	return GC_OK;
}

/* mkdir -p for the parent directory of `path`, mode 0700 for new ones. */
static enum gc_status make_parents(const char *path, char **err)
{
	char *dir = strdup(path);
	if (!dir)
		return err_set(err, GC_ENOMEM, "out of memory");
	char *slash = strrchr(dir, '/');
	enum gc_status st = GC_OK;
	if (slash && slash != dir) {
		*slash = '\0';
		for (char *p = dir + 1; st == GC_OK; p++) {
			if (*p != '/' && *p != '\0')
				continue;
			char saved = *p;
			*p = '\0';
			if (mkdir(dir, 0700) != 0 && errno != EEXIST)
				st = err_set(err, GC_EIO, "cannot create cache directory %s: %s",
					     dir, strerror(errno));
			*p = saved;
			if (!saved)
				break;
		}
	}
	free(dir);
	return st;
}

/* The directory part of `path` (new string; "." for a bare name). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	char *d = malloc((size_t)(slash - path) + 1);
	if (d) {
		memcpy(d, path, (size_t)(slash - path));
		d[slash - path] = '\0';
	}
	return d;
}

/* Note in info->open_dir (new) a directory holding the cache that any user
 * may write: they could put a link, a FIFO or a -wal file of theirs where
 * the cache's files go.  The sticky bit (/tmp) does not help: it stops the
 * removal of our files, not the creation of theirs before ours. */
static enum gc_status check_dir(const char *path, struct cache_open_info *info, char **err)
{
	char *dir = dir_of(path);
	struct stat sb;
	if (!dir)
		return err_set(err, GC_ENOMEM, "out of memory");
	if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) && (sb.st_mode & S_IWOTH))
		info->open_dir = dir;
	else
		free(dir);
	return GC_OK;
}

/* What SQLite may open at `path`: a regular file, or nothing (then an
 * empty one is created here, mode 0600, which SQLite fills).  A symbolic
 * link is refused, not followed: a dangling one would create its target, a
 * link to another user's empty file would turn it into a database.  A FIFO
 * or a device would block or break SQLite's open; a directory cannot be
 * one.  These set info->unusable.  Other failures (no permission, a file
 * for a directory) are left for sqlite3_open_v2 to report. */
static enum gc_status check_file(const char *path, struct cache_open_info *info, char **err)
{
	struct stat sb;
	for (int tries = 0; tries < 2; tries++) {
		if (lstat(path, &sb) != 0) {
			if (errno != ENOENT)
				return GC_OK;
			int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
					    O_NOCTTY, 0600);
			if (fd >= 0) {
				close(fd);
				return GC_OK;
			}
			if (errno == EEXIST)
				continue; /* made meanwhile: look at what it is */
			return GC_OK;
		}
		info->unusable = 1;
		if (S_ISLNK(sb.st_mode))
			return err_set(err, GC_EIO,
				       "cache %s is a symbolic link, which gpucmp does "
				       "not follow; remove it, or pass the file it points to with "
				       "--cache", path);
		if (!S_ISREG(sb.st_mode))
			return err_set(err, GC_EIO,
				       "cache %s is %s, not a regular file; remove it, "
				       "or pass another path with --cache", path,
				       file_kind(sb.st_mode));
		info->unusable = 0;
		return GC_OK;
	}
	return GC_OK;
}

enum gc_status cache_ready_path(const char *path, struct cache_open_info *info, char **err)
{
	enum gc_status st = make_parents(path, err);
	if (st == GC_OK)
		st = check_file(path, info, err);
	if (st == GC_OK)
		st = check_dir(path, info, err);
	return st;
}
