/* exitcode.c - library status -> process exit code (BSD sysexits).
 * Documented in docs/EXIT-CODES.md and the man page; keep them in step. */
#include "cli.h"

int exit_code_for(enum gc_status st)
{
	switch (st) {
	case GC_OK:
		return EXIT_OK;
	case GC_EUSAGE:
	case GC_ENOTFOUND:
		return EXIT_USAGE;
	case GC_EDATA:
		return EXIT_DATAERR;
	case GC_EUNAVAILABLE:
		return EXIT_UNAVAILABLE;
	case GC_ENOMEM:
		return EXIT_OSERR;
	case GC_EIO:
		return EXIT_IOERR;
	case GC_ETEMPFAIL:
		return EXIT_TEMPFAIL;
	case GC_ECONFIG:
		return EXIT_CONFIG;
	}
	return EXIT_SOFTWARE;
}
