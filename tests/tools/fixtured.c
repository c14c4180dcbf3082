/* fixtured.c - loopback HTTP server replaying recorded API responses and faults for tests.
 *
 * usage: gpucmp-fixtured --routes FILE --root DIR --port-file FILE [--log FILE]
 *
 * Listens on 127.0.0.1 on an ephemeral port, writes the port to --port-file
 * (atomically) and serves the routes until SIGTERM or SIGINT, then exits 0.
 * SIGUSR1 releases the requests held by hold=usr1 routes.
 * Bad arguments or routes: one line on stderr, exit 2.  The routes format is
 * described in tests/http/README.md.
 */
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <microhttpd.h>

#define MAX_HEADERS 16
#define LOG_BODY_MAX 4096

struct route {
	char *line;			/* the routes-file line; the strings below point into it */
	const char *method, *path, *query; /* query NULL: any query matches */
	const char *type, *last_modified;
	char *etag;			/* quoted, owned */
	const char *hdr[MAX_HEADERS][2]; /* extra response headers: name, value */
	size_t nhdr;
	int status;
	const char *body;		/* body=, or file_data; NULL with filler */
	char *file_data;		/* file= contents, owned */
	int filler;			/* size=: len bytes of 'x' */
	size_t len;			/* body length after truncate= */
	unsigned long delay_ms, times;	/* times 0: unlimited */
	unsigned long trickle_ms;	/* > 0: the body one byte at a time, this far apart */
	int stall;			/* stall=1: no answer till the client goes or a stop */
	char *mark;			/* mark=: ROOT/REL created when a request matches, owned */
	int hold;			/* hold=usr1: answer after a SIGUSR1 (hold_wait) */
	atomic_ulong used;		/* matching requests seen, for times= */
};

/* One request in flight: created by the URI callback, freed when it completes. */
struct request {
	char *uri;			/* raw request target, query included */
	int started;			/* the access handler has seen the headers */
	size_t body_total, body_len;
	char body[LOG_BODY_MAX];
};

static struct route *routes;
static size_t nroutes;
static FILE *log_fp;
static int stop_pipe[2] = {-1, -1}; /* written once on SIGTERM/SIGINT: stalls end */

/* hold=usr1: a request waits for a SIGUSR1 that arrives after it was
 * logged (one signal releases every request waiting), or for the stop.
 * A test waits for the request in the log, does what must happen while it
 * is held, then signals: no sleep, no race. */
static pthread_mutex_t hold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static unsigned long releases; /* SIGUSR1s seen */
static int stopping;

static unsigned long hold_ticket(void)
{
	pthread_mutex_lock(&hold_mu);
	unsigned long t = releases;
	pthread_mutex_unlock(&hold_mu);
	return t;
}

static void hold_wait(unsigned long ticket)
{
	pthread_mutex_lock(&hold_mu);
	while (releases == ticket && !stopping)
		pthread_cond_wait(&hold_cv, &hold_mu);
	pthread_mutex_unlock(&hold_mu);
}

static void hold_release(int stop)
{
	pthread_mutex_lock(&hold_mu);
	releases++;
	stopping |= stop;
	pthread_cond_broadcast(&hold_cv);
	pthread_mutex_unlock(&hold_mu);
}

static const char notfound[] = "{\"error\":\"no fixture route\"}";

static int parse_num(const char *s, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (!*s || *s == '-' || *end || errno)
		return -1;
	*out = v;
	return 0;
}

/* The whole of a regular file; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	long n = -1;
	char *data = NULL;
	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)n + 1)) && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
		errno = errno ? errno : EIO;
	}
	if (f)
		fclose(f);
	*len = (size_t)n;
	return data;
}

/* stall=1 or mark=REL into r; NULL on success, else the complaint. */
static const char *parse_hold(struct route *r, const char *tok, const char *v, const char *root)
{
	if (strcmp(tok, "stall") == 0) {
		if (strcmp(v, "1") != 0)
			return "bad stall (stall=1)";
		r->stall = 1;
		return NULL;
	}
	size_t len = strlen(root) + strlen(v) + 2;
	free(r->mark);
	if (!*v || !(r->mark = malloc(len)))
		return *v ? "out of memory" : "bad mark";
	snprintf(r->mark, len, "%s/%s", root, v);
	return NULL;
}

/* Parse the option token `tok` into r; NULL on success, else the complaint. */
static const char *parse_option(struct route *r, char *tok, const char *root,
				unsigned long *size, unsigned long *trunc)
{
	char *v = strchr(tok, '=');
	if (!v)
		return "expected NAME=VALUE";
	*v++ = '\0';
	unsigned long n;
	if (strcmp(tok, "status") == 0) {
		if (parse_num(v, &n) || n < 100 || n > 599)
			return "bad status";
		r->status = (int)n;
	} else if (strcmp(tok, "file") == 0 || strcmp(tok, "body") == 0 ||
		   strcmp(tok, "size") == 0) {
		if (r->body || r->filler)
			return "only one of file=, body=, size=";
		if (tok[0] == 'b') {
			r->body = v;
			r->len = strlen(v);
		} else if (tok[0] == 's') {
			if (parse_num(v, size))
				return "bad size";
			r->filler = 1;
			r->len = *size;
		} else {
			static char msg[PATH_MAX + 64];
			char path[PATH_MAX];
			snprintf(path, sizeof path, "%s/%s", root, v);
			errno = 0;
			if (!(r->file_data = read_file(path, &r->len))) {
				snprintf(msg, sizeof msg, "%s: %s", path,
					 strerror(errno ? errno : ENOMEM));
				return msg;
			}
			r->body = r->file_data;
		}
	} else if (strcmp(tok, "type") == 0) {
		r->type = v;
	} else if (strcmp(tok, "header") == 0) {
		char *colon = strchr(v, ':');
		if (!colon || colon == v)
			return "expected header=Name:Value";
		if (r->nhdr == MAX_HEADERS)
			return "too many headers";
		*colon = '\0';
		r->hdr[r->nhdr][0] = v;
		r->hdr[r->nhdr++][1] = colon + 1;
	} else if (strcmp(tok, "etag") == 0) {
		free(r->etag);
		if (!(r->etag = malloc(strlen(v) + 3)))
			return "out of memory";
		snprintf(r->etag, strlen(v) + 3, "\"%s\"", v);
	} else if (strcmp(tok, "last_modified") == 0) {
		for (char *p = v; *p; p++)
			if (*p == '_')
				*p = ' ';
		r->last_modified = v;
	} else if (strcmp(tok, "delay_ms") == 0) {
		if (parse_num(v, &r->delay_ms))
			return "bad delay_ms";
	} else if (strcmp(tok, "trickle_ms") == 0) {
		if (parse_num(v, &r->trickle_ms) || r->trickle_ms == 0)
			return "bad trickle_ms";
	} else if (strcmp(tok, "truncate") == 0) {
		if (parse_num(v, trunc))
			return "bad truncate";
	} else if (strcmp(tok, "stall") == 0 || strcmp(tok, "mark") == 0) {
		return parse_hold(r, tok, v, root);
	} else if (strcmp(tok, "hold") == 0) {
		if (strcmp(v, "usr1") != 0)
			return "bad hold (hold=usr1)";
		r->hold = 1;
	} else if (strcmp(tok, "times") == 0) {
		if (parse_num(v, &r->times) || r->times == 0)
			return "bad times";
	} else {
		return "unknown option";
	}
	return NULL;
}

static void route_free(struct route *r)
{
	free(r->mark);
	free(r->line);
	free(r->etag);
	free(r->file_data);
}

/* Load the routes file; on error print FILE:LINE: message and return -1. */
static int load_routes(const char *file, const char *root)
{
	FILE *f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	const char *err = NULL;
	while (!err && getline(&line, &cap, f) >= 0) {
		lineno++;
		struct route r = {.status = 200, .type = "application/json"};
		if (!(r.line = strdup(line))) {
			err = "out of memory";
			break;
		}
		char *save, *tok = strtok_r(r.line, " \t\r\n", &save);
		if (!tok || tok[0] == '#') {
			free(r.line);
			continue;
		}
		r.method = tok;
		r.path = strtok_r(NULL, " \t\r\n", &save);
		if (!r.path || r.path[0] != '/')
			err = "expected METHOD /PATH";
		char *q = r.path ? strchr(r.path, '?') : NULL;
		if (q) {
			*q = '\0';
			r.query = q + 1;
		}
		unsigned long size = 0, trunc = ULONG_MAX;
		while (!err && (tok = strtok_r(NULL, " \t\r\n", &save)) && tok[0] != '#')
			err = parse_option(&r, tok, root, &size, &trunc);
		if (r.len > trunc)
			r.len = trunc;
		struct route *p = err ? NULL : realloc(routes, (nroutes + 1) * sizeof *routes);
		if (!p) {
			err = err ? err : "out of memory";
			route_free(&r);
			break;
		}
		routes = p;
		routes[nroutes++] = r;
	}
	if (!err && ferror(f))
		err = strerror(errno);
	if (err)
		fprintf(stderr, "%s:%zu: %s\n", file, lineno, err);
	free(line);
	fclose(f);
	return err ? -1 : 0;
}

/* First route matching METHOD and the raw request target; counts times=. */
static struct route *match(const char *method, const char *uri)
{
	const char *q = strchr(uri, '?');
	size_t plen = q ? (size_t)(q - uri) : strlen(uri);
	for (size_t i = 0; i < nroutes; i++) {
		struct route *r = &routes[i];
		if (strcmp(r->method, method) != 0 || strlen(r->path) != plen ||
		    strncmp(r->path, uri, plen) != 0)
			continue;
		if (r->query && strcmp(r->query, q ? q + 1 : "") != 0)
			continue;
		if (r->times && atomic_fetch_add(&r->used, 1) >= r->times)
			continue;
		return r;
	}
	return NULL;
}

static enum MHD_Result log_header(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value)
{
	(void)cls;
	(void)kind;
	fprintf(log_fp, "  %s: %s\n", key, value ? value : "");
	return MHD_YES;
}

static void log_request(struct MHD_Connection *c, const char *method, struct request *rq)
{
	if (!log_fp)
		return;
	flockfile(log_fp);
	fprintf(log_fp, "%s %s\n", method, rq->uri);
	MHD_get_connection_values(c, MHD_HEADER_KIND, log_header, NULL);
	if (rq->body_total) {
		for (size_t i = 0; i < rq->body_len; i++)
			if ((unsigned char)rq->body[i] < ' ')
				rq->body[i] = ' ';
		fprintf(log_fp, "  body: %.*s\n", (int)rq->body_len, rq->body);
	}
	fputc('\n', log_fp);
	fflush(log_fp);
	funlockfile(log_fp);
}

static ssize_t fill(void *cls, uint64_t pos, char *buf, size_t max)
{
	const struct route *r = cls;
	if (pos >= r->len)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (max > r->len - pos)
		max = (size_t)(r->len - pos);
	memset(buf, 'x', max);
	return (ssize_t)max;
}

/* trickle_ms=: one byte of the body (or of the size= filler) per call,
 * after a sleep; each connection has its own thread, so only it waits. */
static ssize_t trickle(void *cls, uint64_t pos, char *buf, size_t max)
{
	const struct route *r = cls;
	if (pos >= r->len)
		return MHD_CONTENT_READER_END_OF_STREAM;
	if (max < 1)
		return 0;
	struct timespec ts = { (time_t)(r->trickle_ms / 1000),
			       (long)(r->trickle_ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
	buf[0] = r->filler ? 'x' : r->body[pos];
	return 1;
}

/* Whether the request's validators make this a 304 (If-None-Match wins). */
static int not_modified(struct MHD_Connection *c, const struct route *r)
{
	const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
	if (r->etag && inm)
		return strstr(inm, r->etag) != NULL || strcmp(inm, "*") == 0;
	const char *ims = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-Modified-Since");
	return r->last_modified && ims && strcmp(ims, r->last_modified) == 0;
}

/* mark=: the file that says a request arrived (tests wait on it). */
static void mark(const struct route *r)
{
	FILE *f = r->mark ? fopen(r->mark, "w") : NULL;
	if (f)
		fclose(f);
}

/* stall=1: answer nothing; return when the client closes the connection
 * or the server stops (then the connection is dropped).  No timer: a
 * client's own timeout or deadline is what ends it. */
static void stall(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct pollfd pfd[2] = {{stop_pipe[0], POLLIN, 0}, {ci ? ci->connect_fd : -1, POLLIN, 0}};
	while (poll(pfd, 2, -1) < 0 && errno == EINTR)
		;
}

static enum MHD_Result respond(struct MHD_Connection *c, const char *method, const char *uri,
			       unsigned long ticket)
{
	static struct route no_route = {.method = "", .path = "", .status = MHD_HTTP_NOT_FOUND,
					.type = "application/json", .body = notfound,
					.len = sizeof notfound - 1};
	struct route *r = match(method, uri);
	if (!r)
		r = &no_route;
	mark(r);
	if (r->stall) {
		stall(c);
		return MHD_NO;
	}
	if (r->hold)
		hold_wait(ticket);
	if (r->delay_ms) {
		struct timespec ts = {(time_t)(r->delay_ms / 1000),
				      (long)(r->delay_ms % 1000) * 1000000L};
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	int nm = not_modified(c, r);
	struct MHD_Response *resp;
	if (nm)
		resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
	else if (r->trickle_ms)
		resp = MHD_create_response_from_callback(r->len, 1, trickle, r, NULL);
	else if (r->filler)
		resp = MHD_create_response_from_callback(r->len, 65536, fill, r, NULL);
	else
		resp = MHD_create_response_from_buffer(r->len, (void *)(r->body ? r->body : ""),
						       MHD_RESPMEM_PERSISTENT);
	if (resp && !nm)
		MHD_add_response_header(resp, "Content-Type", r->type);
	if (resp && r->etag)
		MHD_add_response_header(resp, "ETag", r->etag);
	if (resp && r->last_modified)
		MHD_add_response_header(resp, "Last-Modified", r->last_modified);
	for (size_t i = 0; resp && i < r->nhdr; i++)
		MHD_add_response_header(resp, r->hdr[i][0], r->hdr[i][1]);
	if (!resp)
		return MHD_NO;
	enum MHD_Result ret =
		MHD_queue_response(c, nm ? MHD_HTTP_NOT_MODIFIED : (unsigned)r->status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static void *uri_cb(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls;
	(void)c;
	struct request *rq = calloc(1, sizeof *rq);
	if (rq)
		rq->uri = strdup(uri); /* NULL: the handler drops the connection */
	return rq;
}

static void completed_cb(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)c;
	(void)toe;
	struct request *rq = *con_cls;
	if (rq)
		free(rq->uri);
	free(rq);
}

/* Called once for the headers, once per body chunk, then once more to answer. */
static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url,
			       const char *method, const char *version, const char *upload,
			       size_t *upload_size, void **con_cls)
{
	(void)cls;
	(void)url;
	(void)version;
	struct request *rq = *con_cls;
	if (!rq || !rq->uri)
		return MHD_NO;
	if (!rq->started) {
		rq->started = 1;
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;
		if (n > LOG_BODY_MAX - rq->body_len)
			n = LOG_BODY_MAX - rq->body_len;
		memcpy(rq->body + rq->body_len, upload, n);
		rq->body_len += n;
		rq->body_total += *upload_size;
		*upload_size = 0;
		return MHD_YES;
	}
	unsigned long ticket = hold_ticket(); /* before the log line a test waits for */
	log_request(c, method, rq);
	return respond(c, method, rq->uri, ticket);
}

/* Write the port through a temporary file, so a reader never sees half of it. */
static int write_port_file(const char *path, unsigned port)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	int ok = f && fprintf(f, "%u\n", port) > 0;
	if ((f && fclose(f) != 0) || !ok || rename(tmp, path) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *routes_file = NULL, *root = NULL, *port_file = NULL, *log_file = NULL;
	int ok = 1;
	for (int i = 1; ok && i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--routes")      ? &routes_file
				   : !strcmp(argv[i], "--root")      ? &root
				   : !strcmp(argv[i], "--port-file") ? &port_file
				   : !strcmp(argv[i], "--log")       ? &log_file
								     : NULL;
		if ((ok = opt && i + 1 < argc))
			*opt = argv[++i];
	}
	if (!ok || !routes_file || !root || !port_file) {
		fputs("usage: gpucmp-fixtured --routes FILE --root DIR --port-file FILE"
		      " [--log FILE]\n", stderr);
		return 2;
	}
	int rc = 1;
	struct MHD_Daemon *d = NULL;
	if (load_routes(routes_file, root) != 0) {
		rc = 2;
		goto out;
	}
	if (log_file && !(log_fp = fopen(log_file, "a"))) {
		fprintf(stderr, "%s: %s\n", log_file, strerror(errno));
		rc = 2;
		goto out;
	}

	/* Block the stop and release signals before MHD starts its threads,
	 * so only sigwait sees them. */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGUSR1);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (pipe(stop_pipe) != 0) {
		fprintf(stderr, "gpucmp-fixtured: pipe: %s\n", strerror(errno));
		goto out;
	}

	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = 0};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	d = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
				     MHD_USE_ERROR_LOG,
			     0, NULL, NULL, handler, NULL, MHD_OPTION_SOCK_ADDR, &sa,
			     MHD_OPTION_URI_LOG_CALLBACK, uri_cb, NULL,
			     MHD_OPTION_NOTIFY_COMPLETED, completed_cb, NULL, MHD_OPTION_END);
	const union MHD_DaemonInfo *info = d ? MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT)
					     : NULL;
	if (!info || !info->port) {
		fprintf(stderr, "gpucmp-fixtured: cannot listen on 127.0.0.1\n");
		goto out;
	}
	if (write_port_file(port_file, info->port) != 0) {
		fprintf(stderr, "%s: cannot write: %s\n", port_file, strerror(errno));
		goto out;
	}
	for (;;) {
		int sig;
		if (sigwait(&stop, &sig) != 0)
			continue;
		if (sig != SIGUSR1)
			break;
		hold_release(0);
	}
	rc = 0;
	if (write(stop_pipe[1], "", 1) != 1)
		rc = 1;
out:
	hold_release(1); /* held requests answer, so the daemon can stop */
	if (d)
		MHD_stop_daemon(d);
	if (log_fp)
		fclose(log_fp);
	for (size_t i = 0; i < nroutes; i++)
		route_free(&routes[i]);
	free(routes);
	return rc;
}
