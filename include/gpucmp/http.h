/* http.h - concurrent HTTP transfers on libcurl's multi interface.
 *
 * One struct http_client runs many requests at once.  Each request is
 * retried on timeouts, connection failures, 429 and 5xx with exponential
 * backoff and jitter, honouring Retry-After; bodies are capped; gzip and
 * deflate are accepted; TLS verification stays on; proxies come from the
 * environment as libcurl reads them.  When a request is finished (after its
 * last attempt) its callback runs, and may add further requests (the next
 * page), so a whole crawl runs inside one http_client_run().
 */
#ifndef GPUCMP_HTTP_H
#define GPUCMP_HTTP_H

#include <stddef.h>

#include "gpucmp/buf.h"
#include "gpucmp/err.h"

struct http_opts {
	long connect_timeout_ms; /* default 10000 */
	long timeout_ms;         /* whole transfer, default 60000 */
	int max_retries;         /* after the first attempt, default 3 */
	long retry_base_ms;      /* first backoff, doubled each retry; default 500 */
	long retry_max_ms;       /* longest single wait (also caps Retry-After); default 30000 */
	size_t max_body;         /* bytes, default 64 MiB */
	const char *user_agent;  /* default "gpucmp/<version>" */
	/* --verbose: called with one line per attempt (method, URL with its
	 * secrets masked, status or error, bytes, time, the retry decision);
	 * NULL = silent.  The line is borrowed for the call. */
	void (*log)(void *arg, const char *line);
	void *log_arg;
};
void http_opts_default(struct http_opts *o);

enum { HTTP_MAX_HEADERS = 8 };

struct http_request {
	/* in: set by the caller (strings are copied by http_add) */
	const char *method;                        /* "GET" (default) or "POST" */
	const char *url;
	const char *body;                          /* POST body, NULL for none */
	const char *headers[HTTP_MAX_HEADERS + 1]; /* "Name: value", NULL-terminated */
	const char *if_none_match;                 /* ETag of a previous response */
	const char *if_modified_since;             /* its Last-Modified */
	const char *label; /* prefix of its log lines ("lambda"), may be NULL */
	/* Monotonic time (http_now()) after which no attempt runs: each
	 * attempt's timeout is the smaller of timeout_ms and what is left, and
	 * a retry that would start after it is not made; 0 = none. */
	double deadline;
	/* Bytes the bodies of a group of requests (one provider's crawl) may
	 * still take, shared and decremented as bodies arrive (retries
	 * included); the transfer that would go past it fails (error GC_EDATA,
	 * over_budget set).  Borrowed; must outlive the request; NULL = none. */
	size_t *budget;
};

struct http_response {
	long status;          /* final HTTP status; 0 when no response came */
	enum gc_status error; /* GC_OK, or why the transfer failed */
	char *message;        /* one line when error != GC_OK (no secrets: see below) */
	struct buf body;
	char *content_type;   /* may be NULL */
	char *etag;           /* may be NULL */
	char *last_modified;  /* may be NULL */
	int attempts;
	double seconds;       /* from first attempt to the end */
	int past_deadline;    /* it failed because the request's deadline came */
	int over_budget;      /* it failed because the request's byte budget ran out */
};

struct http_client;

/* Called once per request, when it is done (success or final failure).
 * `resp` is borrowed for the call; the callback may take the body with
 * buf_steal(&resp->body) instead of copying it. */
typedef void (*http_done_fn)(void *user, struct http_response *resp);

enum gc_status http_client_new(struct http_client **out, const struct http_opts *opts,
			       char **err);
void http_client_free(struct http_client *c);

/* Queue a request; it starts at once (libcurl runs all in parallel).
 * `secret`, if not NULL, is a string (an API key) that must never appear in
 * response messages: it is masked in every message this request produces. */
enum gc_status http_add(struct http_client *c, const struct http_request *req,
			const char *secret, http_done_fn done, void *user, char **err);

/* Run until every request (including ones added by callbacks) is done. */
enum gc_status http_client_run(struct http_client *c, char **err);

/* One request on a client of its own, run to its end (a single fetch:
 * import's URL, a team snapshot's files); `done` as for http_add.  Returns
 * the client's status; the transfer's is the response's. */
enum gc_status http_run_one(const struct http_opts *opts, const struct http_request *req,
			    http_done_fn done, void *user, char **err);

/* What http_get_one keeps of its one response, owned: release it with
 * http_got_release (also after a failure). */
struct http_got {
	long status;       /* HTTP status; 0 when no response came */
	enum gc_status st; /* of the transfer */
	char *message;     /* one line when st != GC_OK, or NULL */
	char *body;        /* a 2xx answer's body (taken, not copied), else NULL */
	size_t len;
	char *etag, *last_modified; /* validators, or NULL */
	int past_deadline; /* the request's deadline ended it (http_response's) */
};
/* http_run_one keeping the response in *out (zeroed first): a single
 * fetch's whole answer without a callback of its own. */
enum gc_status http_get_one(const struct http_opts *opts, const struct http_request *req,
			    struct http_got *out, char **err);
void http_got_release(struct http_got *g);

/* Mask `secret` in `s`, in place: every run of at least 8 consecutive
 * characters of it (any substring of the key that long: a key quoted cut
 * short, or its tail) becomes "***"; a secret shorter than 8 characters
 * (no real API key is) is masked where it appears whole as a word of its
 * own, with no letter or digit either side (as up to 3 stars): a key "k"
 * leaves "kept" alone. */
void http_redact(char *s, const char *secret);
/* 1 when http_redact(s, secret) would mask something in s, else 0. */
int http_mentions(const char *s, const char *secret);

/* Whether `v` may be sent back as a validator (If-None-Match,
 * If-Modified-Since): 1 to HTTP_MAX_VALIDATOR bytes, each printable ASCII
 * (space to '~').  A received ETag or Last-Modified that is not is
 * dropped, and one that is not is never sent: a CR or LF in it would add a
 * header line to the request. */
enum { HTTP_MAX_VALIDATOR = 256 };
int http_validator_ok(const char *v);

/* Monotonic seconds, the clock of http_request.deadline. */
double http_now(void);

/* `url` as it may be shown or logged, into out (always terminated):
 * userinfo ("user:pass@") becomes "***@", the value of every query
 * parameter whose name looks like a credential (key, token, secret, pass,
 * auth, sig, ... in any case: "api_key", "pageToken") becomes "***", and
 * `secret` (may be NULL), raw or percent-encoded, is masked as by
 * http_redact. */
void http_url_redact(char *out, size_t n, const char *url, const char *secret);

#endif
