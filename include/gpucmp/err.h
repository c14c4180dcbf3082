/* err.h - status codes and error messages of the library.
 *
 * Library calls return an `enum gc_status` and, on failure, fill `*err`
 * with a new one-line message (lowercase, no trailing full stop) that the
 * caller frees.  `err` may be NULL when the caller does not want the text.
 * Only the command-line front turns a status into an exit code
 * (src/cli/exitcode.c holds the one documented table).
 */
#ifndef GPUCMP_ERR_H
#define GPUCMP_ERR_H

enum gc_status {
	GC_OK = 0,
	GC_EUSAGE,       /* bad argument or flag value */
	GC_EDATA,        /* malformed profile, snapshot, catalog or response */
	GC_EIO,          /* cache or file I/O */
	GC_ENOMEM,       /* allocation failed */
	GC_EUNAVAILABLE, /* a service could not be reached */
	GC_ETEMPFAIL,    /* partial failure, try again later */
	GC_ENOTFOUND,    /* a named thing (provider, gpu) does not exist */
	GC_ECONFIG       /* the config file is malformed or unsafe to read */
};

/* Replace *err (if err is not NULL) with a new formatted message.
 * Returns `status` so callers can write `return err_set(err, GC_EIO, ...)`. */
enum gc_status err_set(char **err, enum gc_status status, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Prefix an existing message: "context: old message".  No-op if *err is NULL. */
void err_prefix(char **err, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

#endif
