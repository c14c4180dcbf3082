/* http.c - concurrent HTTP transfers on libcurl's multi interface. */
#include "gpucmp/http.h"

#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gpucmp/dynlib.h"

/* libcurl is loaded when the first client is made, not at start-up: linking
 * it pulls in some thirty libraries (TLS, Kerberos, LDAP, ...) whose
 * relocations cost more than everything a small `gpucmp list` does.  Only
 * refresh and import from a URL pay for it. */
static struct {
	void (*easy_cleanup)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	CURL *(*easy_init)(void);
	void (*easy_reset)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	const char *(*easy_strerror)(CURLcode);
	void (*global_cleanup)(void);
	CURLcode (*global_init)(long);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_cleanup)(CURLM *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_perform)(CURLM *, int *);
	CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} api;

static enum gc_status api_load(char **err)
{
	static const char *const sonames[] = {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4",
					      NULL};
	static const struct dynlib_sym syms[] = {
		{"curl_easy_cleanup", (void **)&api.easy_cleanup},
		{"curl_easy_getinfo", (void **)&api.easy_getinfo},
		{"curl_easy_init", (void **)&api.easy_init},
		{"curl_easy_reset", (void **)&api.easy_reset},
		{"curl_easy_setopt", (void **)&api.easy_setopt},
		{"curl_easy_strerror", (void **)&api.easy_strerror},
		{"curl_global_cleanup", (void **)&api.global_cleanup},
		{"curl_global_init", (void **)&api.global_init},
		{"curl_multi_add_handle", (void **)&api.multi_add_handle},
		{"curl_multi_cleanup", (void **)&api.multi_cleanup},
		{"curl_multi_info_read", (void **)&api.multi_info_read},
		{"curl_multi_init", (void **)&api.multi_init},
		{"curl_multi_perform", (void **)&api.multi_perform},
		{"curl_multi_poll", (void **)&api.multi_poll},
		{"curl_multi_remove_handle", (void **)&api.multi_remove_handle},
		{"curl_slist_append", (void **)&api.slist_append},
		{"curl_slist_free_all", (void **)&api.slist_free_all}
	};
	static struct dynlib lib = {"libcurl", "install libcurl4 to fetch over HTTP", sonames,
				    syms, sizeof syms / sizeof syms[0], NULL};
	return dynlib_load(&lib, err);
}

struct xfer {
	struct http_client *client;
	struct xfer *next;        /* in the client's list */
	CURL *easy;
	struct curl_slist *headers;
	char *method, *url, *body, *secret, *label;
	char *if_none_match, *if_modified_since;
	const char *hdr_in[HTTP_MAX_HEADERS + 1];
	http_done_fn done;
	void *user;
	struct http_response resp;
	char errbuf[CURL_ERROR_SIZE];
	double started;           /* first attempt, monotonic seconds */
	double wake;              /* > 0: waiting to retry until then */
	double deadline;          /* > 0: no attempt runs past it (monotonic seconds) */
	size_t *budget;           /* bytes the request's group may still take, or NULL */
	int clamped;              /* this attempt's timeout is what was left to the deadline */
	int running;              /* attached to the multi handle */
};

struct http_client {
	CURLM *multi;
	struct http_opts opts;
	char ua[64];
	struct xfer *xfers;       /* every unfinished transfer */
	unsigned rng;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double http_now(void)
{
	return now_s();
}

void http_opts_default(struct http_opts *o)
{
	o->connect_timeout_ms = 10000;
	o->timeout_ms = 60000;
	o->max_retries = 3;
	o->retry_base_ms = 500;
	o->retry_max_ms = 30000;
	o->max_body = 64u << 20;
	o->user_agent = NULL;
	o->log = NULL;
	o->log_arg = NULL;
}

/* A run of this many characters of a key is masked wherever it appears:
 * a message that quotes a key cut short (jansson quotes up to 20 bytes of
 * the token it choked on) must not show most of it. */
enum { REDACT_MIN_RUN = 8 };

/* The longest prefix of p that is a substring of secret (n bytes). */
static size_t key_run(const char *p, const char *secret, size_t n)
{
	size_t best = 0;
	for (size_t k = 0; k < n && n - k > best; k++) {
		size_t l = 0;
		while (k + l < n && p[l] == secret[k + l])
			l++;
		if (l > best)
			best = l;
	}
	return best;
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* How many bytes of the secret (n bytes) to mask at p in s: a run of
 * REDACT_MIN_RUN of its characters; a secret shorter than that, where it
 * stands whole as a word (no letter or digit either side: a key "k" does
 * not mask the k of "kept").  0: none. */
static size_t secret_at(const char *s, const char *p, const char *secret, size_t n)
{
	if (n >= REDACT_MIN_RUN) {
		size_t run = key_run(p, secret, n);
		return run >= REDACT_MIN_RUN ? run : 0;
	}
	if (strncmp(p, secret, n) != 0 || (p > s && word_char(p[-1]) && word_char(secret[0])) ||
	    (word_char(p[n]) && word_char(secret[n - 1])))
		return 0;
	return n;
}

void http_redact(char *s, const char *secret)
{
	if (!s || !secret || !*secret)
		return;
	size_t n = strlen(secret), m = n < 3 ? n : 3;
	/* go on after each mask: a key of stars would match its own mask */
	for (char *p = s; *p;) {
		size_t run = secret_at(s, p, secret, n);
		if (!run) {
			p++;
			continue;
		}
		/* run >= m, so the mask never grows the text */
		memset(p, '*', m);
		memmove(p + m, p + run, strlen(p + run) + 1);
		p += m;
	}
}

int http_mentions(const char *s, const char *secret)
{
	if (!s || !secret || !*secret)
		return 0;
	size_t n = strlen(secret);
	for (const char *p = s; *p; p++)
		if (secret_at(s, p, secret, n))
			return 1;
	return 0;
}

int http_validator_ok(const char *v)
{
	size_t n = 0;
	for (; v && v[n]; n++)
		if ((unsigned char)v[n] < 0x20 || (unsigned char)v[n] > 0x7e ||
		    n >= HTTP_MAX_VALIDATOR)
			return 0;
	return n > 0;
}

/* Does a query parameter of this name carry a credential? */
static int secret_param(const char *name, size_t len)
{
	static const char *const parts[] = {"key", "token", "secret", "pass", "auth", "sig",
					    "credential", "session", NULL};
	for (size_t i = 0; parts[i]; i++) {
		size_t m = strlen(parts[i]);
		for (size_t k = 0; k + m <= len; k++)
			if (strncasecmp(name + k, parts[i], m) == 0)
				return 1;
	}
	return 0;
}

/* Append s[0..len) to out (size n) at *j, truncating. */
static void put(char *out, size_t n, size_t *j, const char *s, size_t len)
{
	while (len-- && *j + 1 < n)
		out[(*j)++] = *s++;
}

void http_url_redact(char *out, size_t n, const char *url, const char *secret)
{
	if (!n)
		return;
	size_t j = 0;
	const char *p = url ? url : "";
	const char *sep = strstr(p, "://");
	if (sep && sep == p + strcspn(p, ":/?#")) {
		const char *host = sep + 3;
		size_t auth = strcspn(host, "/?#");
		const char *at = memchr(host, '@', auth);
		put(out, n, &j, p, (size_t)(host - p));
		if (at) {
			put(out, n, &j, "***", 3);
			host = at;
		}
		p = host;
	}
	size_t path = strcspn(p, "?#");
	put(out, n, &j, p, path);
	p += path;
	if (*p == '?') {
		put(out, n, &j, "?", 1);
		p++;
		while (*p && *p != '#') {
			size_t plen = strcspn(p, "&#");
			size_t name = strcspn(p, "=&#");
			put(out, n, &j, p, name);
			if (name < plen) {
				if (secret_param(p, name))
					put(out, n, &j, "=***", 4);
				else
					put(out, n, &j, p + name, plen - name);
			}
			p += plen;
			if (*p == '&')
				put(out, n, &j, p++, 1);
		}
	}
	put(out, n, &j, p, strlen(p));
	out[j] = '\0';
	if (!secret || !*secret)
		return;
	http_redact(out, secret);
	char enc[512];
	size_t e = 0;
	static const char hex[] = "0123456789ABCDEF";
	for (const unsigned char *s = (const unsigned char *)secret; *s && e + 4 < sizeof enc;
	     s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("-_.~", *s)) {
			enc[e++] = (char)*s;
		} else {
			enc[e++] = '%';
			enc[e++] = hex[*s >> 4];
			enc[e++] = hex[*s & 15];
		}
	}
	enc[e] = '\0';
	http_redact(out, enc);
}

static void set_message(struct xfer *x, enum gc_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

enum gc_status http_client_new(struct http_client **out, const struct http_opts *opts,
			       char **err)
{
	*out = NULL;
	enum gc_status lst = api_load(err);
	if (lst != GC_OK)
		return lst;
	if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return err_set(err, GC_EUNAVAILABLE, "cannot initialise libcurl");
	struct http_client *c = calloc(1, sizeof *c);
	if (!c) {
		api.global_cleanup();
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	if (opts)
		c->opts = *opts;
	else
		http_opts_default(&c->opts);
	snprintf(c->ua, sizeof c->ua, "gpucmp/%s", GPUCMP_VERSION);
	if (!c->opts.user_agent)
		c->opts.user_agent = c->ua;
	c->rng = (unsigned)time(NULL) ^ (unsigned)(size_t)c;
	c->multi = api.multi_init();
	if (!c->multi) {
		free(c);
		api.global_cleanup();
		return err_set(err, GC_ENOMEM, "cannot create a libcurl multi handle");
	}
	*out = c;
	return GC_OK;
}

static void resp_reset(struct http_response *r)
{
	free(r->message);
	free(r->content_type);
	free(r->etag);
	free(r->last_modified);
	r->message = r->content_type = r->etag = r->last_modified = NULL;
	buf_reset(&r->body);
	r->status = 0;
	r->error = GC_OK;
}

static void xfer_free(struct xfer *x)
{
	if (x->running)
		api.multi_remove_handle(x->client->multi, x->easy);
	api.easy_cleanup(x->easy);
	api.slist_free_all(x->headers);
	resp_reset(&x->resp);
	buf_free(&x->resp.body);
	free(x->method);
	free(x->url);
	free(x->body);
	if (x->secret) {
		memset(x->secret, 0, strlen(x->secret));
		free(x->secret);
	}
	free(x->if_none_match);
	free(x->if_modified_since);
	free(x->label);
	free(x);
}

void http_client_free(struct http_client *c)
{
	if (!c)
		return;
	while (c->xfers) {
		struct xfer *x = c->xfers;
		c->xfers = x->next;
		xfer_free(x);
	}
	api.multi_cleanup(c->multi);
	free(c);
	api.global_cleanup();
}

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n;
	/* a short count makes libcurl abort the transfer with CURLE_WRITE_ERROR */
	if (x->budget) {
		if (len > *x->budget) {
			*x->budget = 0;
			x->resp.over_budget = 1;
			return 0;
		}
		*x->budget -= len;
	}
	return buf_add(&x->resp.body, data, len) == GC_OK ? len : 0;
}

/* Keep the headers we need from the final response ("ETag: ..."). */
static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t len = size * n;
	if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
		/* a new response (after a redirect or 100-continue): forget the old headers */
		free(x->resp.etag);
		free(x->resp.last_modified);
		x->resp.etag = x->resp.last_modified = NULL;
		return len;
	}
	static const char *const names[] = {"etag:", "last-modified:"};
	char **slots[] = {&x->resp.etag, &x->resp.last_modified};
	for (size_t i = 0; i < 2; i++) {
		size_t nl = strlen(names[i]);
		if (len <= nl || strncasecmp(data, names[i], nl) != 0)
			continue;
		const char *v = data + nl;
		size_t vl = len - nl;
		while (vl && (*v == ' ' || *v == '\t'))
			v++, vl--;
		while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' '))
			vl--;
		char *s = malloc(vl + 1);
		if (s) {
			memcpy(s, v, vl);
			s[vl] = '\0';
			if (!http_validator_ok(s)) {
				/* a bare CR would become a header line of the next request */
				free(s);
				s = NULL;
			}
			free(*slots[i]);
			*slots[i] = s;
		}
	}
	return len;
}

static enum gc_status setup_easy(struct xfer *x, char **err)
{
	const struct http_opts *o = &x->client->opts;
	CURL *e = x->easy;
	api.easy_reset(e);
	api.easy_setopt(e, CURLOPT_URL, x->url);
	api.easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	api.easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	/* A request that carries a key is never redirected: libcurl drops only
	 * Authorization and Cookie on a jump to another host, not a key in a
	 * header of the provider's own name.  A 3xx then fails the request. */
	api.easy_setopt(e, CURLOPT_FOLLOWLOCATION, x->secret ? 0L : 1L);
	api.easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
	api.easy_setopt(e, CURLOPT_USERAGENT, o->user_agent);
	api.easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	long connect_ms = o->connect_timeout_ms, total_ms = o->timeout_ms;
	if (x->deadline > 0) {
		double left = (x->deadline - now_s()) * 1000.0;
		long l = left < 1 ? 1 : left > 1e9 ? 1000000000L : (long)left;
		connect_ms = connect_ms > 0 && connect_ms < l ? connect_ms : l;
		x->clamped = !(total_ms > 0 && total_ms < l);
		total_ms = x->clamped ? l : total_ms;
	}
	api.easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
	api.easy_setopt(e, CURLOPT_TIMEOUT_MS, total_ms);
	api.easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	api.easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_body);
	api.easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
	api.easy_setopt(e, CURLOPT_WRITEDATA, x);
	api.easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	api.easy_setopt(e, CURLOPT_HEADERDATA, x);
	api.easy_setopt(e, CURLOPT_ERRORBUFFER, x->errbuf);
	api.easy_setopt(e, CURLOPT_PRIVATE, x);
	if (x->body) {
		api.easy_setopt(e, CURLOPT_POSTFIELDS, x->body);
		api.easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(x->body));
	}
	if (x->method && strcmp(x->method, "GET") != 0 && strcmp(x->method, "POST") != 0)
		api.easy_setopt(e, CURLOPT_CUSTOMREQUEST, x->method);
	api.easy_setopt(e, CURLOPT_HTTPHEADER, x->headers);
	x->errbuf[0] = '\0';
	resp_reset(&x->resp);
	x->resp.past_deadline = x->resp.over_budget = 0;
	if (api.multi_add_handle(x->client->multi, e) != CURLM_OK)
		return err_set(err, GC_ENOMEM, "cannot start a transfer");
	x->running = 1;
	return GC_OK;
}

enum gc_status http_add(struct http_client *c, const struct http_request *req,
			const char *secret, http_done_fn done, void *user, char **err)
{
	struct xfer *x = calloc(1, sizeof *x);
	if (!x)
		return err_set(err, GC_ENOMEM, "out of memory");
	x->client = c;
	x->done = done;
	x->user = user;
	buf_init(&x->resp.body, c->opts.max_body);
	x->easy = api.easy_init();
	x->method = strdup(req->method ? req->method : "GET");
	x->url = dup_or_null(req->url);
	x->body = dup_or_null(req->body);
	x->secret = dup_or_null(secret);
	x->label = dup_or_null(req->label);
	int ok = x->easy && x->method && x->url && (!req->body || x->body) &&
		 (!secret || x->secret) && (!req->label || x->label);
	struct curl_slist *h = NULL;
	for (size_t i = 0; ok && i < HTTP_MAX_HEADERS && req->headers[i]; i++) {
		struct curl_slist *t = api.slist_append(h, req->headers[i]);
		ok = t != NULL;
		h = t ? t : h;
	}
	char line[512];
	x->deadline = req->deadline;
	x->budget = req->budget;
	if (ok && http_validator_ok(req->if_none_match)) {
		snprintf(line, sizeof line, "If-None-Match: %s", req->if_none_match);
		struct curl_slist *t = api.slist_append(h, line);
		ok = t != NULL;
		h = t ? t : h;
	}
	if (ok && http_validator_ok(req->if_modified_since)) {
		snprintf(line, sizeof line, "If-Modified-Since: %s", req->if_modified_since);
		struct curl_slist *t = api.slist_append(h, line);
		ok = t != NULL;
		h = t ? t : h;
	}
	/* an empty Expect: stops libcurl waiting for 100-continue on POSTs */
	if (ok && x->body) {
		struct curl_slist *t = api.slist_append(h, "Expect:");
		ok = t != NULL;
		h = t ? t : h;
	}
	x->headers = h;
	if (!ok) {
		xfer_free(x);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	x->started = now_s();
	x->next = c->xfers;
	c->xfers = x;
	if (x->deadline > 0 && x->started >= x->deadline) {
		/* nothing is started past the deadline: done, failed, at once */
		x->resp.past_deadline = 1;
		set_message(x, GC_EUNAVAILABLE, "the deadline came before the request could start");
		x->wake = -1;
		return GC_OK;
	}
	enum gc_status st = setup_easy(x, err);
	if (st != GC_OK) {
		c->xfers = x->next;
		xfer_free(x);
	}
	return st;
}

/* Is this outcome worth another attempt? */
static int retryable(CURLcode rc, long status)
{
	if (rc == CURLE_OK)
		return status == 429 || status == 408 || (status >= 500 && status <= 599);
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_PARTIAL_FILE:
		return 1;
	default:
		return 0;
	}
}

/* Seconds to wait before attempt number `attempt` (1 = first retry):
 * base * 2^(attempt-1), with +-25% jitter, or Retry-After when the server
 * sent one; never more than retry_max_ms. */
static double backoff_s(struct http_client *c, int attempt, curl_off_t retry_after)
{
	double base = (double)c->opts.retry_base_ms / 1000.0;
	double d = base;
	for (int i = 1; i < attempt; i++)
		d *= 2;
	c->rng = c->rng * 1103515245u + 12345u;
	double jitter = ((double)((c->rng >> 16) & 0x7fff) / 32767.0 - 0.5) * 0.5;
	d *= 1.0 + jitter;
	if (retry_after > 0 && (double)retry_after > d)
		d = (double)retry_after;
	double cap = (double)c->opts.retry_max_ms / 1000.0;
	return d > cap ? cap : d;
}

static void set_message(struct xfer *x, enum gc_status st, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	http_redact(msg, x->secret);
	free(x->resp.message);
	x->resp.message = strdup(msg);
	x->resp.error = st;
}

/* Host and path of the URL, without the query (which may hold a key)
 * and without userinfo. */
static void url_for_message(const struct xfer *x, char *out, size_t n)
{
	http_url_redact(out, n, x->url, x->secret);
	out[strcspn(out, "?#")] = '\0';
}

/* --verbose: one line for the attempt that just ended. */
static void log_attempt(struct http_client *c, struct xfer *x, CURLcode rc, long status,
			double wait)
{
	if (!c->opts.log)
		return;
	char url[1024], what[320], line[1600];
	http_url_redact(url, sizeof url, x->url, x->secret);
	double t = 0;
	api.easy_getinfo(x->easy, CURLINFO_TOTAL_TIME, &t);
	if (rc == CURLE_OK)
		snprintf(what, sizeof what, "HTTP %ld, %zu bytes", status, x->resp.body.len);
	else
		snprintf(what, sizeof what, "failed: %s",
			 x->errbuf[0] ? x->errbuf : api.easy_strerror(rc));
	int n = snprintf(line, sizeof line, "%s%s%s %s: %s, %.3f s, attempt %d",
			 x->label ? x->label : "", x->label ? ": " : "", x->method, url, what, t,
			 x->resp.attempts);
	size_t k = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
	if (wait >= 0)
		snprintf(line + k, sizeof line - k, "; retrying in %.1f s", wait);
	else if (rc == CURLE_OK && status >= 300 && status < 400 && x->secret)
		snprintf(line + k, sizeof line - k,
			 "; redirect not followed (the request carries a key)");
	else if (retryable(rc, status))
		snprintf(line + k, sizeof line - k, "; giving up after %d attempt%s",
			 x->resp.attempts, x->resp.attempts == 1 ? "" : "s");
	http_redact(line, x->secret);
	c->opts.log(c->opts.log_arg, line);
}

/* One attempt finished: retry, or settle the outcome and hand it over. */
static void finish_attempt(struct http_client *c, struct xfer *x, CURLcode rc)
{
	api.multi_remove_handle(c->multi, x->easy);
	x->running = 0;
	x->resp.attempts++;
	long status = 0;
	api.easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
	x->resp.status = rc == CURLE_OK ? status : 0;
	double now = now_s();
	int late = x->deadline > 0 &&
		   (now >= x->deadline || (rc == CURLE_OPERATION_TIMEDOUT && x->clamped));
	if (retryable(rc, status) && x->resp.attempts <= c->opts.max_retries) {
		curl_off_t ra = 0;
		if (rc == CURLE_OK)
			api.easy_getinfo(x->easy, CURLINFO_RETRY_AFTER, &ra);
		double wait = backoff_s(c, x->resp.attempts, ra);
		/* a retry never starts past the deadline */
		late |= x->deadline > 0 && now + wait >= x->deadline;
		if (!late) {
			log_attempt(c, x, rc, status, wait);
			x->wake = now + wait;
			return;
		}
	}
	log_attempt(c, x, rc, status, -1);
	char where[256];
	url_for_message(x, where, sizeof where);
	char *ct = NULL;
	api.easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
	x->resp.content_type = dup_or_null(ct);
	x->resp.past_deadline = late && (rc == CURLE_OPERATION_TIMEDOUT || retryable(rc, status));
	if (x->resp.over_budget)
		set_message(x, GC_EDATA, "%s: the byte budget of its crawl ran out", where);
	else if (rc == CURLE_WRITE_ERROR || rc == CURLE_FILESIZE_EXCEEDED)
		set_message(x, GC_EDATA, "%s: response larger than %zu bytes", where,
			    c->opts.max_body);
	else if (x->resp.past_deadline)
		set_message(x, GC_EUNAVAILABLE, "%s: %s after %d attempt%s; the deadline came",
			    where, rc == CURLE_OK ? "no good answer" : "timed out",
			    x->resp.attempts, x->resp.attempts == 1 ? "" : "s");
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		set_message(x, GC_EUNAVAILABLE, "%s: timed out after %d attempt%s", where,
			    x->resp.attempts, x->resp.attempts == 1 ? "" : "s");
	else if (rc != CURLE_OK)
		set_message(x, GC_EUNAVAILABLE, "%s: %s", where,
			    x->errbuf[0] ? x->errbuf : api.easy_strerror(rc));
	else if (status >= 400 || (status >= 100 && status < 200))
		set_message(x, status == 429 || status >= 500 ? GC_EUNAVAILABLE : GC_EDATA,
			    "%s: HTTP %ld%s", where, status,
			    x->resp.attempts > 1 ? " after retries" : "");
	x->resp.seconds = now_s() - x->started;
	x->wake = -1; /* done */
}

enum gc_status http_client_run(struct http_client *c, char **err)
{
	for (;;) {
		int still = 0;
		if (api.multi_perform(c->multi, &still) != CURLM_OK)
			return err_set(err, GC_EUNAVAILABLE, "libcurl multi interface failed");
		CURLMsg *m;
		int left;
		while ((m = api.multi_info_read(c->multi, &left)) != NULL) {
			if (m->msg != CURLMSG_DONE)
				continue;
			struct xfer *x = NULL;
			api.easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&x);
			if (x)
				finish_attempt(c, x, m->data.result);
		}
		/* hand over finished transfers; restart those whose backoff ended */
		double now = now_s(), next_wake = 0;
		for (struct xfer **pp = &c->xfers; *pp;) {
			struct xfer *x = *pp;
			if (x->wake < 0) {
				*pp = x->next;
				x->done(x->user, &x->resp);
				xfer_free(x);
				/* the callback may have pushed new transfers at the head */
				continue;
			}
			if (x->wake > 0 && !x->running) {
				if (x->wake <= now) {
					x->wake = 0;
					enum gc_status st = setup_easy(x, err);
					if (st != GC_OK)
						return st;
				} else if (!next_wake || x->wake < next_wake) {
					next_wake = x->wake;
				}
			}
			pp = &x->next;
		}
		/* a callback may have added transfers at the head, some of them
		 * already done (the deadline had come): hand those over at once */
		int ready = 0;
		for (struct xfer *x = c->xfers; x; x = x->next)
			ready |= x->wake < 0;
		if (!c->xfers)
			return GC_OK;
		int timeout_ms = 1000;
		if (ready) {
			timeout_ms = 0;
		} else if (next_wake) {
			double w = (next_wake - now_s()) * 1000.0;
			timeout_ms = w < 0 ? 0 : w > 1000 ? 1000 : (int)w + 1;
		}
		if (api.multi_poll(c->multi, NULL, 0, timeout_ms, NULL) != CURLM_OK)
			return err_set(err, GC_EUNAVAILABLE, "libcurl multi interface failed");
	}
}

enum gc_status http_run_one(const struct http_opts *opts, const struct http_request *req,
			    http_done_fn done, void *user, char **err)
{
	struct http_client *c = NULL;
	enum gc_status st = http_client_new(&c, opts, err);
	if (st == GC_OK)
		st = http_add(c, req, NULL, done, user, err);
	if (st == GC_OK)
		st = http_client_run(c, err);
	http_client_free(c);
	return st;
}

static void got_done(void *user, struct http_response *resp)
{
	struct http_got *g = user;
	g->status = resp->status;
	g->st = resp->error;
	g->past_deadline = resp->past_deadline;
	g->message = dup_or_null(resp->message);
	g->etag = dup_or_null(resp->etag);
	g->last_modified = dup_or_null(resp->last_modified);
	if (resp->error == GC_OK && resp->status >= 200 && resp->status < 300) {
		g->len = resp->body.len;
		g->body = buf_steal(&resp->body);
		if (!g->body)
			g->st = GC_ENOMEM;
	}
}

enum gc_status http_get_one(const struct http_opts *opts, const struct http_request *req,
			    struct http_got *out, char **err)
{
	memset(out, 0, sizeof *out);
	return http_run_one(opts, req, got_done, out, err);
}

void http_got_release(struct http_got *g)
{
	free(g->message);
	free(g->body);
	free(g->etag);
	free(g->last_modified);
	memset(g, 0, sizeof *g);
}
