/* fileio.c - whole-file reads with a size cap, private files, safe
 * temporary files, and directory listings. */
#include "gpucmp/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpucmp/buf.h"

const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)	? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISLNK(mode)	? "a symbolic link"
	       : S_ISREG(mode)	? "a regular file"
				: "not a regular file";
}

/* Open `path` for reading without waiting: O_NONBLOCK, so that opening a
 * FIFO does not wait for a writer (only regular files are read, which
 * O_NONBLOCK does not change).  Its descriptor and *sb, or -1 with errno. */
static int open_nowait(const char *path, struct stat *sb)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 && fstat(fd, sb) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* All of the open regular file fd (at most limit bytes) into a new
 * NUL-terminated buffer; fd is closed. */
static enum gc_status read_fd(int fd, const char *path, size_t limit, char **data, size_t *len,
			      char **err)
{
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	enum gc_status st = GC_OK;
	struct buf b;
	buf_init(&b, limit);
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		st = buf_add(&b, chunk, n);
		if (st != GC_OK)
			break;
	}
	if (st == GC_OK && ferror(f))
		st = err_set(err, GC_EIO, "%s: read error", path);
	else if (st == GC_EDATA)
		err_set(err, st, "%s: larger than %zu bytes", path, limit);
	else if (st == GC_ENOMEM)
		err_set(err, st, "%s: out of memory", path);
	fclose(f);
	if (st == GC_OK && buf_add(&b, "", 0) != GC_OK)
		st = err_set(err, GC_ENOMEM, "out of memory");
	if (st != GC_OK) {
		buf_free(&b);
		return st;
	}
	*len = b.len;
	*data = b.ptr ? b.ptr : calloc(1, 1);
	if (!*data)
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

enum gc_status file_read_all(const char *path, size_t limit, char **data, size_t *len,
			     char **err)
{
	*data = NULL;
	*len = 0;
	struct stat sb;
	int fd = open_nowait(path, &sb);
	if (fd < 0)
		return err_set(err, errno == ENOENT ? GC_ENOTFOUND : GC_EIO, "%s: %s", path,
			       strerror(errno));
	enum gc_status st = GC_OK;
	if (S_ISDIR(sb.st_mode))
		st = err_set(err, GC_EIO, "%s: is a directory", path);
	else if (!S_ISREG(sb.st_mode))
		st = err_set(err, GC_EIO, "%s: not a regular file (%s)", path,
			     file_kind(sb.st_mode));
	if (st != GC_OK) {
		close(fd);
		return st;
	}
	return read_fd(fd, path, limit, data, len, err);
}

/* The rule for a file holding a secret (the config file's, src/config.c):
 * the user's own (or root's), neither readable nor writable by others. */
static enum gc_status private_ok(const char *path, const char *what, const struct stat *sb,
				 char **err)
{
	uid_t me = geteuid();
	if (!S_ISREG(sb->st_mode))
		return err_set(err, GC_EUSAGE, "%s %s is not a regular file (%s)", what, path,
			       file_kind(sb->st_mode));
	if (sb->st_uid != me && sb->st_uid != 0)
		return err_set(err, GC_EUSAGE, "%s %s belongs to another user (uid %ld); use "
			       "your own", what, path, (long)sb->st_uid);
	if (sb->st_mode & 044)
		return err_set(err, GC_EUSAGE, "%s %s is readable by other users; run: chmod "
			       "600 %s", what, path, path);
	if (sb->st_mode & 022)
		return err_set(err, GC_EUSAGE, "%s %s can be changed by other users; run: chmod "
			       "600 %s", what, path, path);
	return GC_OK;
}

enum gc_status file_read_private(const char *path, const char *what, size_t limit, char **data,
				 size_t *len, char **err)
{
	*data = NULL;
	*len = 0;
	struct stat sb;
	int fd = open_nowait(path, &sb);
	if (fd < 0)
		return err_set(err, errno == ENOENT ? GC_ENOTFOUND : GC_EUSAGE,
			       "cannot read the %s %s: %s", what, path, strerror(errno));
	enum gc_status st = private_ok(path, what, &sb, err);
	if (st != GC_OK) {
		close(fd);
		return st;
	}
	return read_fd(fd, path, limit, data, len, err);
}

/* A name no one can guess: the clock, the process and a counter, mixed
 * (splitmix64).  O_EXCL makes the file safe whatever the name; the name
 * only keeps others from taking it first. */
static unsigned long long temp_bits(unsigned long long n)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	unsigned long long x = (unsigned long long)ts.tv_nsec ^
			       ((unsigned long long)ts.tv_sec << 30) ^
			       ((unsigned long long)getpid() << 40) ^ (n * 0x9e3779b97f4a7c15ULL) ^
			       (unsigned long long)(uintptr_t)&ts;
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

int file_temp_at(int dirfd, const char *name, mode_t mode, char *tmp, size_t n)
{
	static const char abc[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
	static unsigned long long counter;
	for (int tries = 0; tries < 100; tries++) {
		unsigned long long x = temp_bits(++counter);
		char r[13];
		for (int i = 0; i < 12; i++, x >>= 5)
			r[i] = abc[(x ^ (x >> 40)) & 63];
		r[12] = '\0';
		int w = snprintf(tmp, n, ".%s.%s", name, r);
		if (w < 0 || (size_t)w >= n) {
			errno = ENAMETOOLONG;
			return -1;
		}
		int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
					     O_NOCTTY, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int file_is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int file_is_file(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

enum gc_status file_list(const char *dir, const char *suffix, char ***names, size_t *n,
			 char **err)
{
	*names = NULL;
	*n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return err_set(err, errno == ENOENT ? GC_ENOTFOUND : GC_EIO, "%s: %s", dir,
			       strerror(errno));
	size_t cap = 0, slen = strlen(suffix);
	struct dirent *e;
	enum gc_status st = GC_OK;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < slen ||
		    strcmp(e->d_name + len - slen, suffix) != 0)
			continue;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char **grown = realloc(*names, ncap * sizeof *grown);
			if (!grown) {
				st = GC_ENOMEM;
				break;
			}
			*names = grown;
			cap = ncap;
		}
		size_t need = strlen(dir) + len + 2;
		char *s = malloc(need);
		if (!s) {
			st = GC_ENOMEM;
			break;
		}
		snprintf(s, need, "%s/%s", dir, e->d_name);
		(*names)[(*n)++] = s;
	}
	closedir(d);
	if (st != GC_OK) {
		file_list_free(*names, *n);
		*names = NULL;
		*n = 0;
		return err_set(err, st, "out of memory");
	}
	if (*n)
		qsort(*names, *n, sizeof **names, cmp_str);
	return GC_OK;
}

void file_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
