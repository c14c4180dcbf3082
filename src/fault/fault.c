/* fault.c - failure injection for the test suite (docs/RELIABILITY.md).
 *
 * Built into the gpucmp binary only with -DGPUCMP_FAULT=ON (a test build;
 * never in a release).  The binary is linked with --wrap=malloc,calloc,
 * realloc,strdup,strndup so that gpucmp's own calls come here, and this
 * file routes SQLite's and jansson's allocations here too, before main.
 * libyaml and libcurl allocate on their own and are not counted.
 *
 * Environment (read once, before main):
 *   GPUCMP_FAULT_ALLOC=N  the Nth allocation (from 1) returns NULL, once;
 *                         later ones succeed again
 *   GPUCMP_FAULT_WRITE=N  the Nth write to a cache file (SQLite xWrite,
 *                         xTruncate or xSync, through a VFS shim that is
 *                         the default VFS) fails, once: SQLITE_IOERR_WRITE
 *                         (or _TRUNCATE, _FSYNC) when N is odd, SQLITE_FULL
 *                         (disk full) when N is even
 *   GPUCMP_FAULT_COUNT=F  at exit, write "allocs A writes W" to file F:
 *                         how many the run made, so a test knows how far
 *                         to loop N
 * Counters are atomic: the import pipeline allocates on two threads.
 */
#include <jansson.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static unsigned long fail_alloc, fail_write; /* 0: never */
static atomic_ulong nalloc, nwrite;
static const char *count_file;

static unsigned long env_number(const char *name)
{
	const char *v = getenv(name);
	char *end;
	if (!v || !*v)
		return 0;
	unsigned long n = strtoul(v, &end, 10);
	return *end ? 0 : n;
}

/* Does this allocation fail?  Each call counts one. */
static int alloc_fails(void)
{
	unsigned long n = atomic_fetch_add(&nalloc, 1) + 1;
	return n == fail_alloc;
}

/* The Nth write: 0 when it goes through, else the error to return. */
static int write_fails(int ioerr)
{
	unsigned long n = atomic_fetch_add(&nwrite, 1) + 1;
	if (n != fail_write)
		return 0;
	return n % 2 ? ioerr : SQLITE_FULL;
}

void *__wrap_malloc(size_t n)
{
	return alloc_fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return alloc_fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
	return alloc_fails() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return alloc_fails() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
	return alloc_fails() ? NULL : __real_strndup(s, n);
}

/* --- jansson -------------------------------------------------------------- */

static void *json_alloc(size_t n)
{
	return alloc_fails() ? NULL : __real_malloc(n);
}

static void json_release(void *p)
{
	free(p);
}

/* --- SQLite memory: the default allocator, with failures ------------------ */

static sqlite3_mem_methods sqlite_mem;

static void *sqlite_malloc(int n)
{
	return alloc_fails() ? NULL : sqlite_mem.xMalloc(n);
}

static void *sqlite_realloc(void *p, int n)
{
	return alloc_fails() ? NULL : sqlite_mem.xRealloc(p, n);
}

/* --- SQLite files: a VFS over the default one whose writes can fail ------- */

struct ffile {
	sqlite3_file base;
	sqlite3_file *real; /* the default VFS's file, right after this struct */
};

static sqlite3_vfs *real_vfs;
static sqlite3_vfs fvfs;
static sqlite3_io_methods fio;

#define REAL(f) (((struct ffile *)(f))->real)

static int f_close(sqlite3_file *f)
{
	return REAL(f)->pMethods->xClose(REAL(f));
}

static int f_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
	return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int f_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
	int rc = write_fails(SQLITE_IOERR_WRITE);
	return rc ? rc : REAL(f)->pMethods->xWrite(REAL(f), buf, n, off);
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	int rc = write_fails(SQLITE_IOERR_TRUNCATE);
	return rc ? rc : REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int f_sync(sqlite3_file *f, int flags)
{
	int rc = write_fails(SQLITE_IOERR_FSYNC);
	return rc ? rc : REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int f_size(sqlite3_file *f, sqlite3_int64 *size)
{
	return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int f_lock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xLock(REAL(f), lock);
}

static int f_unlock(sqlite3_file *f, int lock)
{
	return REAL(f)->pMethods->xUnlock(REAL(f), lock);
}

static int f_check_lock(sqlite3_file *f, int *out)
{
	return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int f_control(sqlite3_file *f, int op, void *arg)
{
	return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int f_sector(sqlite3_file *f)
{
	return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int f_caps(sqlite3_file *f)
{
	return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int f_shm_map(sqlite3_file *f, int pg, int pgsz, int extend, void volatile **p)
{
	return REAL(f)->pMethods->xShmMap(REAL(f), pg, pgsz, extend, p);
}

static int f_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
	return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void f_shm_barrier(sqlite3_file *f)
{
	REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int f_shm_unmap(sqlite3_file *f, int del)
{
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int f_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **p)
{
	return REAL(f)->pMethods->xFetch(REAL(f), off, n, p);
}

static int f_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static int f_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags,
		  int *out)
{
	(void)vfs;
	struct ffile *f = (struct ffile *)file;
	f->real = (sqlite3_file *)(f + 1);
	int rc = real_vfs->xOpen(real_vfs, name, f->real, flags, out);
	/* SQLite calls xClose after a failed xOpen only when pMethods is set */
	if (f->real->pMethods) {
		fio.iVersion = f->real->pMethods->iVersion < 3 ? f->real->pMethods->iVersion : 3;
		file->pMethods = &fio;
	} else {
		file->pMethods = NULL;
	}
	return rc;
}

static int v_delete(sqlite3_vfs *v, const char *name, int sync)
{
	(void)v;
	return real_vfs->xDelete(real_vfs, name, sync);
}

static int v_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
	(void)v;
	return real_vfs->xAccess(real_vfs, name, flags, out);
}

static int v_full(sqlite3_vfs *v, const char *name, int n, char *out)
{
	(void)v;
	return real_vfs->xFullPathname(real_vfs, name, n, out);
}

static void *v_dlopen(sqlite3_vfs *v, const char *name)
{
	(void)v;
	return real_vfs->xDlOpen(real_vfs, name);
}

static void v_dlerror(sqlite3_vfs *v, int n, char *out)
{
	(void)v;
	real_vfs->xDlError(real_vfs, n, out);
}

static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *name))(void)
{
	(void)v;
	return real_vfs->xDlSym(real_vfs, h, name);
}

static void v_dlclose(sqlite3_vfs *v, void *h)
{
	(void)v;
	real_vfs->xDlClose(real_vfs, h);
}

static int v_random(sqlite3_vfs *v, int n, char *out)
{
	(void)v;
	return real_vfs->xRandomness(real_vfs, n, out);
}

static int v_sleep(sqlite3_vfs *v, int us)
{
	(void)v;
	return real_vfs->xSleep(real_vfs, us);
}

static int v_time(sqlite3_vfs *v, double *out)
{
	(void)v;
	return real_vfs->xCurrentTime(real_vfs, out);
}

static int v_last_error(sqlite3_vfs *v, int n, char *out)
{
	(void)v;
	return real_vfs->xGetLastError ? real_vfs->xGetLastError(real_vfs, n, out) : 0;
}

static int v_time64(sqlite3_vfs *v, sqlite3_int64 *out)
{
	(void)v;
	return real_vfs->xCurrentTimeInt64(real_vfs, out);
}

static void vfs_install(void)
{
	real_vfs = sqlite3_vfs_find(NULL);
	if (!real_vfs)
		return;
	static const sqlite3_io_methods io = {
		3, f_close, f_read, f_write, f_truncate, f_sync, f_size, f_lock, f_unlock,
		f_check_lock, f_control, f_sector, f_caps, f_shm_map, f_shm_lock,
		f_shm_barrier, f_shm_unmap, f_fetch, f_unfetch};
	fio = io;
	/* files open through f_open (whose writes can fail); the rest is the real VFS's */
	static const sqlite3_vfs calls = {
		.zName = "gpucmp-fault", .xOpen = f_open, .xDelete = v_delete,
		.xAccess = v_access, .xFullPathname = v_full, .xDlOpen = v_dlopen,
		.xDlError = v_dlerror, .xDlSym = v_dlsym, .xDlClose = v_dlclose,
		.xRandomness = v_random, .xSleep = v_sleep, .xCurrentTime = v_time,
		.xGetLastError = v_last_error, .xCurrentTimeInt64 = v_time64};
	fvfs = calls;
	fvfs.iVersion = real_vfs->iVersion < 2 ? real_vfs->iVersion : 2;
	fvfs.szOsFile = (int)sizeof(struct ffile) + real_vfs->szOsFile;
	fvfs.mxPathname = real_vfs->mxPathname;
	sqlite3_vfs_register(&fvfs, 1);
}

/* --- set-up and report ---------------------------------------------------- */

static void report(void)
{
	if (!count_file)
		return;
	FILE *f = fopen(count_file, "w");
	if (!f)
		return;
	fprintf(f, "allocs %lu writes %lu\n", atomic_load(&nalloc), atomic_load(&nwrite));
	fclose(f);
}

__attribute__((constructor)) static void fault_init(void)
{
	fail_alloc = env_number("GPUCMP_FAULT_ALLOC");
	fail_write = env_number("GPUCMP_FAULT_WRITE");
	count_file = getenv("GPUCMP_FAULT_COUNT");
	if (count_file && !*count_file)
		count_file = NULL;
	json_set_alloc_funcs(json_alloc, json_release);
	/* before sqlite3_initialize: the default allocator, wrapped */
	if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &sqlite_mem) == SQLITE_OK) {
		sqlite3_mem_methods m = sqlite_mem;
		m.xMalloc = sqlite_malloc;
		m.xRealloc = sqlite_realloc;
		sqlite3_config(SQLITE_CONFIG_MALLOC, &m);
	}
	vfs_install();
	atexit(report);
}
