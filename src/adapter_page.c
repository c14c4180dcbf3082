/* adapter_page.c - the paginated lists of the adapters' APIs: a page's
 * list parsed (each element, or the pages joined for finish()), the API's
 * own error when the list is missing, and the next page queued, whether
 * the page names it by a link, a token or cursor, or a page number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/adapter.h"

/* Host of an absolute URL ("https://h:443/x" -> "h", length 1); -1 when
 * the URL has no scheme (a path, or a relative link). */
static int url_host(const char *url, const char **host, size_t *len)
{
	size_t n = url ? strcspn(url, ":/?#") : 0;
	if (n == 0 || strncmp(url + n, "://", 3) != 0)
		return -1;
	*host = url + n + 3;
	*len = strcspn(*host, ":/?#");
	return 0;
}

static int same_host(const char *host, size_t len, const char *url)
{
	const char *h;
	size_t n;
	return url_host(url, &h, &n) == 0 && n == len && strncasecmp(h, host, len) == 0;
}

enum gc_status adapter_follow(struct adapter_run *run, const struct adapter_request *req,
			      const char *next, char **err)
{
	if (!next || !*next)
		return GC_OK;
	const char *rest = next;
	const char *host;
	size_t n;
	if (url_host(next, &host, &n) == 0) {
		/* the API key goes with every request: never to another host */
		if (!same_host(host, n, run->ad->base_url) && !same_host(host, n, run->base))
			return err_set(err, GC_EDATA,
				       "next-page link to another host refused: %.100s", next);
		rest = host + n;
		rest += strcspn(rest, "/?#"); /* past a port */
	}
	char url[8192];
	size_t j = (size_t)snprintf(url, sizeof url, "%s%s", run->base, rest[0] == '/' ? "" : "/");
	if (j >= sizeof url)
		return err_set(err, GC_EDATA, "next-page link too long");
	for (const unsigned char *s = (const unsigned char *)rest; *s; s++) {
		if (j + 4 >= sizeof url)
			return err_set(err, GC_EDATA, "next-page link too long");
		if (*s <= ' ' || *s >= 0x7f || strchr("\"<>\\^`{|}", *s))
			j += (size_t)snprintf(url + j, 4, "%%%02X", *s);
		else
			url[j++] = (char)*s;
	}
	url[j] = '\0';
	if (req->url && strcmp(url, req->url) == 0)
		return GC_OK; /* a page that links to itself would never end */
	return adapter_queue(run, req->kind, NULL, NULL, err, "%s", url);
}

/* Queue `url`?|&`param`=`token` (URL-encoded) unless it is the request
 * being answered: a token that comes back would never end. */
static enum gc_status follow_token(struct adapter_run *run, const struct adapter_request *req,
				   const struct adapter_pager *p, const char *token, char **err)
{
	if (!token || !*token)
		return GC_OK;
	size_t max = p->max_token && p->max_token < ADAPTER_MAX_TOKEN ? p->max_token
								      : ADAPTER_MAX_TOKEN;
	if (strlen(token) > max)
		return err_set(err, GC_EDATA,
			       "%s is too long (a page token or cursor of more than %zu bytes)",
			       p->next, max);
	char enc[3 * ADAPTER_MAX_TOKEN + 1], url[8192];
	adapter_urlencode(enc, sizeof enc, token);
	int n = snprintf(url, sizeof url, "%s%s%c%s=%s", run->base, p->url,
			 strchr(p->url, '?') ? '&' : '?', p->param, enc);
	if (n < 0 || (size_t)n >= sizeof url)
		return err_set(err, GC_EDATA, "%s is too long", p->next);
	if (req && req->url && strcmp(url, req->url) == 0)
		return err_set(err, GC_EDATA, "%s repeats: pagination does not end", p->next);
	return adapter_queue(run, req ? req->kind : 0, NULL, NULL, err, "%s", url);
}

/* Page `page` of `pages`: the next one, up to ADAPTER_MAX_PAGES; a number
 * that is missing or out of range ends the list. */
static enum gc_status follow_number(struct adapter_run *run, const struct adapter_request *req,
				    const struct adapter_pager *p, json_t *root, char **err)
{
	long page = aj_int(root, p->next, 0), pages = aj_int(root, p->pages, 0);
	if (page < 1 || page >= pages || page >= ADAPTER_MAX_PAGES)
		return GC_OK;
	return adapter_queue(run, req ? req->kind : 0, NULL, NULL, err, "%s%s%c%s=%ld",
			     run->base, p->url, strchr(p->url, '?') ? '&' : '?', p->param,
			     page + 1);
}

enum gc_status adapter_next_page(struct adapter_run *run, const struct adapter_request *req,
				 json_t *root, const struct adapter_pager *p, int *more,
				 char **err)
{
	size_t waiting = run->nqueue - run->qhead;
	enum gc_status st = GC_OK;
	json_t *next = p->next ? aj_path(root, p->next) : NULL;
	if (p->style == ADAPTER_PAGE_LINK && req)
		st = adapter_follow(run, req, json_string_value(next), err);
	else if (p->style == ADAPTER_PAGE_TOKEN)
		st = follow_token(run, req, p, json_string_value(next), err);
	else if (p->style == ADAPTER_PAGE_NUMBER)
		st = follow_number(run, req, p, root, err);
	if (more)
		*more = run->nqueue - run->qhead > waiting;
	return st;
}

/* Join a page's array to the pages of its kind kept before. */
static enum gc_status keep_page(struct adapter_run *run, int kind, json_t *list, char **err)
{
	json_t *kept = adapter_kept(run, kind);
	if (!kept || !json_is_array(list))
		return adapter_keep(run, kind, list, err);
	if (json_array_extend(kept, list) != 0)
		return err_set(err, GC_ENOMEM, "out of memory");
	return GC_OK;
}

/* The error of a page without its list: the API's message, or else that
 * the list is missing. */
static enum gc_status missing(const struct adapter_list *l, json_t *root, char **err)
{
	const char *msg = l->error ? json_string_value(aj_path(root, l->error)) : NULL;
	if (msg)
		return adapter_api_error(err, l->what ? l->what : "API error", msg);
	if (l->why)
		return l->why(root, err);
	return err_set(err, GC_EDATA, "no '%s' %s in the response", l->path,
		       l->type == JSON_OBJECT ? "object" : "array");
}

enum gc_status adapter_parse_page(struct adapter_run *run, const struct adapter_request *req,
				  const char *body, size_t len, const struct adapter_list *l,
				  char **err)
{
	json_t *root = adapter_json(body, len, err);
	if (!root)
		return GC_EDATA;
	json_t *list = aj_path(root, l->path);
	enum gc_status st;
	if (list && json_typeof(list) == l->type)
		st = l->each ? adapter_each(run, list, l->each, err)
			     : keep_page(run, req ? req->kind : 0, list, err);
	else
		st = missing(l, root, err);
	int more = 0;
	/* an empty page may end the list whatever it says of the next */
	int empty = json_array_size(list) == 0 && json_object_size(list) == 0;
	if (st == GC_OK && !(l->stop_empty && empty))
		st = adapter_next_page(run, req, root, &l->pager, &more, err);
	if (st == GC_OK && !more && l->last)
		st = l->last(run, req ? req->kind : 0, err);
	json_decref(root);
	return st;
}

enum gc_status adapter_parse_list(struct adapter_run *run, const char *body, size_t len,
				  json_type type, const char *path, adapter_item_fn fn,
				  enum gc_status (*why)(json_t *root, char **err), char **err)
{
	struct adapter_list l = {.path = path, .type = type, .each = fn, .why = why};
	return adapter_parse_page(run, NULL, body, len, &l, err);
}
