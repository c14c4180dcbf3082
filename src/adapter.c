/* adapter.c - what every adapter shares: the request queue, offer
 * completion (GPU by gpu_infer, currency), the loop over a response's
 * elements, API error messages and small JSON readers.  Paginated lists:
 * adapter_page.c. */
#include "gpucmp/adapter.h"
#include "gpucmp/retired.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/strutil.h"

void adapter_run_init(struct adapter_run *run, const struct adapter *ad, const char *base,
		      const char *key)
{
	memset(run, 0, sizeof *run);
	run->ad = ad;
	run->base = base ? base : ad->base_url;
	run->key = key;
}

void adapter_request_release(struct adapter_request *r)
{
	if (!r)
		return;
	free(r->url);
	free(r->body);
	for (size_t i = 0; i < ADAPTER_MAX_HEADERS; i++)
		free(r->headers[i]);
	memset(r, 0, sizeof *r);
}

void adapter_run_release(struct adapter_run *run)
{
	for (size_t i = run->qhead; i < run->nqueue; i++)
		adapter_request_release(&run->queue[i]);
	free(run->queue);
	if (run->state && run->ad->free_state)
		run->ad->free_state(run->state);
	if (run->secret2) {
		memset(run->secret2, 0, strlen(run->secret2));
		free(run->secret2);
	}
	run->queue = NULL;
	run->state = NULL;
	run->secret2 = NULL;
	run->nqueue = run->qhead = run->qcap = 0;
}

enum gc_status adapter_queue(struct adapter_run *run, int kind, const char *method,
			     const char *body, char **err, const char *url_fmt, ...)
{
	if (run->requests + (run->nqueue - run->qhead) >= ADAPTER_MAX_REQUESTS)
		return err_set(err, GC_EDATA, "more than %d requests: pagination does not end",
			       ADAPTER_MAX_REQUESTS);
	if (run->nqueue == run->qcap) {
		/* compact what was already popped before growing */
		if (run->qhead) {
			memmove(run->queue, run->queue + run->qhead,
				(run->nqueue - run->qhead) * sizeof *run->queue);
			run->nqueue -= run->qhead;
			run->qhead = 0;
		}
		if (buf_grow_array(&run->queue, &run->qcap, run->nqueue, sizeof *run->queue, 8))
			return err_set(err, GC_ENOMEM, "out of memory");
	}
	struct adapter_request *r = &run->queue[run->nqueue];
	memset(r, 0, sizeof *r);
	va_list ap;
	va_start(ap, url_fmt);
	int n = vsnprintf(NULL, 0, url_fmt, ap);
	va_end(ap);
	r->url = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (r->url) {
		va_start(ap, url_fmt);
		vsnprintf(r->url, (size_t)n + 1, url_fmt, ap);
		va_end(ap);
	}
	r->body = body ? strdup(body) : NULL;
	if (!r->url || (body && !r->body)) {
		adapter_request_release(r);
		return err_set(err, GC_ENOMEM, "out of memory");
	}
	r->kind = kind;
	r->method = method;
	run->nqueue++;
	return GC_OK;
}

enum gc_status adapter_queue_header(struct adapter_run *run, const char *header, char **err)
{
	if (run->nqueue == run->qhead)
		return err_set(err, GC_EUSAGE, "no request queued");
	struct adapter_request *r = &run->queue[run->nqueue - 1];
	for (size_t i = 0; i < ADAPTER_MAX_HEADERS; i++)
		if (!r->headers[i]) {
			r->headers[i] = strdup(header);
			return r->headers[i] ? GC_OK : err_set(err, GC_ENOMEM, "out of memory");
		}
	return err_set(err, GC_EUSAGE, "too many headers");
}

struct adapter_request *adapter_next(struct adapter_run *run)
{
	if (run->qhead == run->nqueue)
		return NULL;
	struct adapter_request *r = malloc(sizeof *r);
	if (!r)
		return NULL;
	*r = run->queue[run->qhead++];
	run->requests++;
	return r;
}

void adapter_urlencode(char *out, size_t n, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t j = 0;
	for (; *s && j + 4 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
			out[j++] = (char)c;
		} else {
			out[j++] = '%';
			out[j++] = hex[c >> 4];
			out[j++] = hex[c & 15];
		}
	}
	if (n)
		out[j < n ? j : n - 1] = '\0';
}

void adapter_set_prices(struct offer *o, const char *currency, double price, double spot)
{
	if (!currency || !*currency || strcmp(currency, "USD") == 0) {
		o->price_hr = price;
		o->spot_price_hr = spot;
	} else {
		/* adapter_emit converts them, or keeps them alone without a rate */
		o->currency = currency;
		o->price_native = price;
		o->spot_native = spot;
	}
}

/* Network text as it may be stored (str_field, the cache's one sanitizer):
 * `s` itself when it is clean, else a copy in buf with control characters
 * (and broken UTF-8) as '?', cut to STR_FIELD_MAX bytes. */
static const char *clean_text(char *buf, const char *s, int *dirty)
{
	return str_field(buf, s, dirty);
}


static enum gc_status emit_checked(struct adapter_run *run, struct offer *o, char **err);

enum gc_status adapter_emit(struct adapter_run *run, struct offer *o, char **err)
{
	/* cleaned copies live only for the call; o's own pointers come back */
	char b[7][STR_FIELD_MAX + 1];
	const struct offer orig = *o;
	int dirty = 0;
	o->sku = clean_text(b[0], o->sku, &dirty);
	o->region = clean_text(b[1], o->region, &dirty);
	o->gpu_name = clean_text(b[2], o->gpu_name, &dirty);
	o->currency = clean_text(b[3], o->currency, &dirty);
	o->driver_version = clean_text(b[4], o->driver_version, &dirty);
	o->max_cuda = clean_text(b[5], o->max_cuda, &dirty);
	o->rdma = clean_text(b[6], o->rdma, &dirty);
	run->cleaned += dirty;
	enum gc_status st = emit_checked(run, o, err);
	o->sku = orig.sku;
	if (o->region == b[1])
		o->region = orig.region;
	if (o->gpu_name == b[2])
		o->gpu_name = orig.gpu_name;
	o->currency = orig.currency;
	o->driver_version = orig.driver_version;
	o->max_cuda = orig.max_cuda;
	o->rdma = orig.rdma;
	return st;
}

/* A size the provider has retired, or a second name of another size
 * (data/retired.yaml): not an offer anyone can rent. */
static int retired(struct adapter_run *run, const struct offer *o)
{
	enum retired_verdict v = o->sku ? offer_retired(o->provider, o->sku, o->region)
					: RETIRED_KEEP;
	if (v == RETIRED_ERROR)
		return -1;
	if (v == RETIRED_KEEP)
		return 0;
	run->skipped++;
	run->drop_retired++;
	return 1;
}

/* The GPU (gpu_infer) and what the instance-type table `it` (may be NULL)
 * adds: the curated count first, since the count decides the per-GPU
 * memory of a slice. */
static void complete_gpu(const struct adapter_run *run, struct offer *o,
			 const struct insttype *it)
{
	if (it && it->gpu_count > 0 && isnan(o->gpu_count))
		o->gpu_count = it->gpu_count;
	if (!o->gpu) {
		struct gpu_hint h = {.name = o->gpu_name, .sku = o->sku,
				     .id = it ? it->gpu : NULL, .count = o->gpu_count,
				     .mem_gb = o->gpu_mem_gb};
		struct gpu_guess g;
		gpu_infer(run->gpus, &h, &g);
		o->gpu = g.model ? g.model->id : NULL;
		o->gpu_mem_gb = g.mem_gb;
	}
	if (!it)
		return;
	if (o->infiniband < 0)
		o->infiniband = it->infiniband;
	if (o->nvlink < 0)
		o->nvlink = it->nvlink;
	if (!o->rdma)
		o->rdma = it->rdma;
	if (isnan(o->node_bandwidth_gbps) && it->node_bandwidth_gbps > 0)
		o->node_bandwidth_gbps = it->node_bandwidth_gbps;
}

/* 0 (and counted) when the offer has no sane GPU count. */
static int count_ok(struct adapter_run *run, const struct offer *o)
{
	if (o->gpu_count > 0 && o->gpu_count <= OFFER_MAX_GPUS)
		return 1;
	run->skipped++;
	if (o->gpu_count > OFFER_MAX_GPUS)
		run->drop_bad_number++; /* 1e308 GPUs, or infinity */
	else
		run->drop_no_gpu++; /* not a GPU offer */
	return 0;
}

/* Prices in USD; 1 when the currency has no rate (price_hr stays unknown,
 * the native price is kept alone). */
static int to_usd(const struct adapter_run *run, struct offer *o)
{
	if (!o->currency)
		o->currency = "USD";
	if (strcmp(o->currency, "USD") == 0) {
		o->price_native = o->spot_native = NAN;
		return 0;
	}
	double r = rates_usd(run->rates, o->currency);
	o->price_hr = isnan(o->price_native) ? NAN : o->price_native * r;
	o->spot_price_hr = isnan(o->spot_native) ? NAN : o->spot_native * r;
	return isnan(r);
}

/* Hostile or broken numbers never reach the cache as prices: zero,
 * negative, NaN, infinite, below OFFER_MIN_PRICE_HR (1e-300 would list
 * first) or beyond any real rental (offer_price_ok).  0 (and counted why)
 * when no price is left. */
static int prices_ok(struct adapter_run *run, struct offer *o)
{
	int priced = !isnan(o->price_hr) || !isnan(o->spot_price_hr) ||
		     !isnan(o->price_native) || !isnan(o->spot_native);
	int no_rate = to_usd(run, o);
	if (!offer_price_ok(o->price_hr))
		o->price_hr = NAN;
	if (!offer_price_ok(o->spot_price_hr))
		o->spot_price_hr = NAN;
	if (!(o->price_native >= OFFER_MIN_PRICE_HR && o->price_native <= 1e9))
		o->price_native = NAN;
	if (!(o->spot_native >= OFFER_MIN_PRICE_HR && o->spot_native <= 1e9))
		o->spot_native = NAN;
	if (!isnan(o->price_hr) || !isnan(o->spot_price_hr))
		return 1;
	run->skipped++;
	if (!priced)
		run->drop_no_price++;
	else if (no_rate)
		run->drop_currency++;
	else
		run->drop_bad_price++;
	return 0;
}

static enum gc_status emit_checked(struct adapter_run *run, struct offer *o, char **err)
{
	o->provider = run->ad->id;
	o->source = "live";
	o->origin = run->origin;
	o->fetched_at = run->fetched_at;
	if (!o->region || !*o->region)
		o->region = "unknown";
	int gone = retired(run, o);
	if (gone < 0)
		return err_set(err, GC_ENOMEM, "out of memory");
	if (gone)
		return GC_OK;
	const struct insttype *it =
		o->sku ? insttype_lookup(run->types, run->ad->id, o->sku) : NULL;
	/* a source that names no GPU (Azure's price list): the table's model
	 * stands in, as it does for the snapshot */
	if (!o->gpu_name || !*o->gpu_name)
		o->gpu_name = it && it->gpu ? it->gpu : "";
	offer_sizes_sane(o); /* the column table's ranges, as the door's */
	complete_gpu(run, o, it);
	if (!count_ok(run, o) || !prices_ok(run, o))
		return GC_OK;
	run->spot_dropped += (size_t)offer_spot_sane(o);
	if (!o->gpu)
		run->unknown_gpu++;
	run->offers++;
	/* through the cache's door like every producer (origin included) */
	return run->emit ? offer_deliver(run->emit, run->emit_ctx, o, NULL, err) : GC_OK;
}

enum gc_status adapter_emit_regions(struct adapter_run *run, struct offer *o,
				    const json_t *regions, char **err)
{
	size_t i, n = 0;
	json_t *r;
	json_array_foreach(regions, i, r) {
		if (!json_is_string(r) || !*json_string_value(r))
			continue;
		struct offer copy = *o;
		copy.region = json_string_value(r);
		n++;
		enum gc_status st = adapter_emit(run, &copy, err);
		if (st != GC_OK)
			return st;
	}
	if (n)
		return GC_OK;
	/* listed nowhere: still an offer, so that the price is seen */
	o->region = "unknown";
	o->available = 0;
	return adapter_emit(run, o, err);
}

enum gc_status adapter_each(struct adapter_run *run, json_t *list, adapter_item_fn fn,
			    char **err)
{
	enum gc_status st = GC_OK;
	size_t i;
	const char *key;
	json_t *v;
	if (json_is_object(list)) {
		json_object_foreach(list, key, v) {
			if ((st = fn(run, v, err)) != GC_OK)
				break;
		}
	} else {
		json_array_foreach(list, i, v) {
			if ((st = fn(run, v, err)) != GC_OK)
				break;
		}
	}
	return st;
}

struct kept {
	json_t *doc[ADAPTER_MAX_KEPT];
};

enum gc_status adapter_keep(struct adapter_run *run, int kind, json_t *doc, char **err)
{
	if (kind < 0 || kind >= ADAPTER_MAX_KEPT)
		return err_set(err, GC_EUSAGE, "unknown request kind %d", kind);
	if (!run->state && !(run->state = calloc(1, sizeof(struct kept))))
		return err_set(err, GC_ENOMEM, "out of memory");
	struct kept *k = run->state;
	json_decref(k->doc[kind]);
	k->doc[kind] = json_incref(doc);
	return GC_OK;
}

json_t *adapter_kept(const struct adapter_run *run, int kind)
{
	const struct kept *k = run->state;
	return k && kind >= 0 && kind < ADAPTER_MAX_KEPT ? k->doc[kind] : NULL;
}

enum gc_status adapter_each_kept(struct adapter_run *run, int kind, adapter_item_fn fn,
				 char **err)
{
	return adapter_each(run, adapter_kept(run, kind), fn, err);
}

void adapter_kept_free(void *state)
{
	struct kept *k = state;
	for (size_t i = 0; k && i < ADAPTER_MAX_KEPT; i++)
		json_decref(k->doc[i]);
	free(k);
}

static size_t json_max_values = ADAPTER_JSON_MAX_VALUES;

void adapter_json_budget(size_t max_values)
{
	json_max_values = max_values ? max_values : ADAPTER_JSON_MAX_VALUES;
}

/* Weigh the values of a JSON text, up to `max` + 1, without allocating:
 * by what jansson will spend on each (about 27 bytes a unit: an object
 * ~215 bytes, an array ~120, a string ~75, a number or literal ~28), an
 * object counts 8, an array 4, a string (keys too) 3, a scalar 1.  A value
 * starts at '{', '[', '"', or at the first byte of a scalar that follows
 * the start, '[', ',' or ':'.  Malformed text is weighed somehow; jansson
 * rejects it afterwards. */
static size_t json_weigh(const char *p, size_t len, size_t max)
{
	size_t n = 0;
	int in_str = 0, esc = 0;
	char prev = '[';
	for (size_t i = 0; i < len && n <= max; i++) {
		char ch = p[i];
		if (in_str) {
			if (esc)
				esc = 0;
			else if (ch == '\\')
				esc = 1;
			else if (ch == '"')
				in_str = 0;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
			continue;
		if (ch == '"')
			in_str = 1, n += 3;
		else if (ch == '{')
			n += 8;
		else if (ch == '[')
			n += 4;
		else if (prev == '[' || prev == ',' || prev == ':')
			n += ch != ']' && ch != '}';
		prev = ch == '"' ? 's' : ch;
	}
	return n;
}

/* What kind of error jansson met, in words that quote nothing: its own
 * text ends in "near '<up to 20 bytes of the token>'", which may be most
 * of an API key the body echoed. */
static const char *json_error_kind(const json_error_t *je)
{
	switch (json_error_code(je)) {
	case json_error_out_of_memory:
		return "out of memory";
	case json_error_stack_overflow:
		return "maximum parsing depth reached";
	case json_error_premature_end_of_input:
		return "premature end of input";
	case json_error_end_of_input_expected:
		return "text after the end of the document";
	case json_error_invalid_utf8:
		return "invalid UTF-8";
	case json_error_numeric_overflow:
		return "real number overflow";
	case json_error_duplicate_key:
		return "duplicate object key";
	case json_error_null_character:
		return "NUL byte in a string";
	default:
		return "syntax error";
	}
}

/* jansson lets some of its own failed allocations pass: its lexer drops a
 * byte it cannot append, so a parse under memory pressure can return a
 * document with a changed number or key and no error.  Its allocations go
 * through json_counted, which counts the failures; a parse that saw one is
 * out of memory (the fault suite found a linode page read as 13 offers of
 * 24).  Installed once, before the first parse. */
static atomic_ulong json_failed;

static void *json_counted(size_t n)
{
	void *p = malloc(n);
	if (!p)
		atomic_fetch_add(&json_failed, 1);
	return p;
}

static void json_count_install(void)
{
	json_set_alloc_funcs(json_counted, free);
}

static json_t *json_parse(const char *body, size_t len, size_t flags, json_error_t *je,
			  int *oom)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, json_count_install);
	unsigned long before = atomic_load(&json_failed);
	json_t *root = json_loadb(body, len, flags, je);
	*oom = atomic_load(&json_failed) != before;
	if (!*oom)
		return root;
	json_decref(root);
	return NULL;
}

json_t *adapter_json(const char *body, size_t len, char **err)
{
	if (json_weigh(body, len, json_max_values) > json_max_values) {
		err_set(err, GC_EDATA,
			"too many JSON values (more than the cap of %zu in one response, an object "
			"counting 8, an array 4, a string 3; raise it with "
			"GPUCMP_REFRESH_MAX_JSON_VALUES)",
			json_max_values);
		return NULL;
	}
	json_error_t je;
	int oom;
	json_t *root = json_parse(body, len, JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES, &je,
				  &oom);
	if (root)
		return root;
	if (oom) {
		err_set(err, GC_ENOMEM, "out of memory");
		return NULL;
	}
	size_t i = 0;
	while (i < len && isspace((unsigned char)body[i]))
		i++;
	if (i < len && body[i] == '<')
		err_set(err, GC_EDATA, "response is HTML, not JSON (an error page?)");
	else if (len == 0)
		err_set(err, GC_EDATA, "empty response");
	else
		err_set(err, GC_EDATA,
			"response is not valid JSON: %s at line %d, column %d (byte %d)",
			json_error_kind(&je), je.line, je.column, je.position);
	return NULL;
}

enum gc_status adapter_json_capped(const char *text, size_t len, size_t max_values, size_t flags,
				   json_t **out, char **err)
{
	*out = NULL;
	if (json_weigh(text, len, max_values) > max_values)
		return err_set(err, GC_EDATA, "more than %zu JSON values (an object counting 8, an "
			       "array 4, a string 3)", max_values);
	json_error_t je;
	int oom;
	*out = json_parse(text, len, flags, &je, &oom);
	if (*out)
		return GC_OK;
	if (oom)
		return err_set(err, GC_ENOMEM, "out of memory");
	return err_set(err, GC_EDATA, "not valid JSON: %s at line %d, column %d (byte %d)",
		       json_error_kind(&je), je.line, je.column, je.position);
}

enum gc_status adapter_api_error(char **err, const char *what, const char *msg)
{
	/* the text comes from the network and is shown on a terminal: no
	 * control characters, and not more than a line's worth */
	char clean[1024];
	str_sanitize(clean, sizeof clean, msg ? msg : "");
	/* cut at a blank, not inside a word: the word could be the API key
	 * the error quotes back, and a key cut short escapes redaction */
	size_t n = strlen(clean);
	if (n > 200) {
		n = 201;
		while (n && clean[n - 1] != ' ')
			n--;
		while (n && clean[n - 1] == ' ')
			n--;
		clean[n] = '\0';
		return err_set(err, GC_EDATA, "%s: %s ...", what, clean);
	}
	return err_set(err, GC_EDATA, "%s: %s", what, clean);
}

double aj_num(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (json_is_number(v))
		return json_number_value(v);
	double d;
	if (json_is_string(v) && str_to_double(json_string_value(v), &d) == 0)
		return d;
	return NAN;
}

const char *aj_str(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

long aj_int(const json_t *obj, const char *key, long dflt)
{
	double d = aj_num(obj, key);
	if (isnan(d) || d < -2e9 || d > 2e9)
		return dflt;
	return (long)d;
}

/* Element `digits` of array a ("0"), or NULL. */
static json_t *array_at(json_t *a, const char *digits)
{
	size_t i = 0;
	if (!*digits || strlen(digits) > 9)
		return NULL;
	for (const char *p = digits; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return NULL;
		i = i * 10 + (size_t)(*p - '0');
	}
	return json_array_get(a, i);
}

json_t *aj_path(json_t *obj, const char *path)
{
	char part[64];
	while (obj && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof part)
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		obj = json_is_array(obj) ? array_at(obj, part) : json_object_get(obj, part);
		path += n;
		if (*path == '.')
			path++;
	}
	return obj;
}
