/* fileio.c - whole-file reads with a size cap, and directory listings. */
#include "gpucmp/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

enum gc_status file_read_all(const char *path, size_t limit, char **data, size_t *len,
			     char **err)
{
	*data = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; only regular
	 * files are read, which O_NONBLOCK does not change */
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_set(err, errno == ENOENT ? GC_ENOTFOUND : GC_EIO, "%s: %s", path,
			       strerror(errno));
	struct stat sb;
	enum gc_status st = GC_OK;
	if (fstat(fd, &sb) != 0)
		st = err_set(err, GC_EIO, "%s: %s", path, strerror(errno));
	else if (S_ISDIR(sb.st_mode))
		st = err_set(err, GC_EIO, "%s: is a directory", path);
	else if (!S_ISREG(sb.st_mode))
		st = err_set(err, GC_EIO, "%s: not a regular file (%s)", path,
			     file_kind(sb.st_mode));
	if (st != GC_OK) {
		close(fd);
		return st;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
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
