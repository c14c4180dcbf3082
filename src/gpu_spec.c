/* gpu_spec.c - a --gpu value (docs/GPUS.md, "Asking for a GPU"): names,
 * a vendor, a memory size or range and a GPU count, dstack's order-free
 * "name:memory:count" with SkyPilot's "name:count" as a case of it. */
#include "gpucmp/gpu_spec.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gpucmp/strutil.h"

#define SPEC_TEXT_MAX 512
#define SPEC_NAMES 16

/* What one --gpu value says, before it is resolved. */
struct parsed {
	const char *names[SPEC_NAMES];
	size_t nnames;
	const char *vendor;
	double mem_lo, mem_hi; /* NAN: no bound; mem_exact: lo is one size */
	int has_mem, mem_exact, has_count;
	double count_lo, count_hi;
};

void gpu_spec_init(struct gpu_spec *s)
{
	memset(s, 0, sizeof *s);
	s->min_count = s->max_count = NAN;
}

static const char *const vendor_words[] = {"nvidia", "amd", "intel", "google", NULL};

static const char *vendor_of(const char *w)
{
	for (const char *const *v = vendor_words; *v; v++)
		if (strcasecmp(w, *v) == 0)
			return *v;
	return NULL;
}

static char *trim(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strlen(p);
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		p[--n] = '\0';
	return p;
}

static enum gc_status bad(char **err, const char *what, const char *text)
{
	char safe[64];
	return err_set(err, GC_EUSAGE, "bad %s '%s' in --gpu (gpucmp help gpu)", what,
		       str_sanitize(safe, sizeof safe, text));
}

static int same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

/* "8", "2..8", "8..", "..8": lo and hi of a range of numbers (NAN: open);
 * a single number is both.  -1 if not one. */
static int parse_range(const char *w, enum str_unit want, double *lo, double *hi)
{
	const char *dots = strstr(w, "..");
	char side[2][64] = {"", ""};
	if (strlen(w) >= sizeof side[0])
		return -1;
	snprintf(side[0], sizeof side[0], "%.*s", dots ? (int)(dots - w) : (int)strlen(w), w);
	snprintf(side[1], sizeof side[1], "%s", dots ? dots + 2 : side[0]);
	double v[2] = {NAN, NAN};
	for (int i = 0; i < 2; i++) {
		enum str_unit u = SU_NONE;
		if (*side[i] && (str_to_quantity(side[i], &v[i], &u) != 0 || u != want ||
				 !(v[i] >= 0)))
			return -1;
	}
	if ((!*side[0] && !*side[1]) || v[0] > v[1])
		return -1;
	*lo = v[0];
	*hi = v[1];
	return 0;
}

/* A memory size ("80GB": that size, as sources round it) or range
 * ("24GB..80GB", "24GB..", "..80GB"). */
static enum gc_status parse_memory(const char *w, struct parsed *p, char **err)
{
	double lo, hi;
	if (parse_range(w, SU_MEMORY, &lo, &hi) != 0)
		return bad(err, "memory", w);
	int exact = strstr(w, "..") == NULL;
	if (p->has_mem && (p->mem_exact != exact || !same(p->mem_lo, lo) || !same(p->mem_hi, hi)))
		return err_set(err, GC_EUSAGE, "--gpu gives two memory sizes; give one per --gpu");
	p->has_mem = 1;
	p->mem_exact = exact;
	p->mem_lo = lo;
	p->mem_hi = hi;
	return GC_OK;
}

/* NAN (no bound) or a whole number of GPUs. */
static int whole(double x)
{
	return isnan(x) || (x >= 1 && x == floor(x));
}

/* A GPU count ("8": exactly 8) or range ("2..8", "8..", "..8"). */
static enum gc_status parse_count(const char *w, struct parsed *p, char **err)
{
	double lo, hi;
	if (parse_range(w, SU_NONE, &lo, &hi) != 0 || !whole(lo) || !whole(hi))
		return bad(err, "GPU count", w);
	if (p->has_count && (!same(p->count_lo, lo) || !same(p->count_hi, hi)))
		return err_set(err, GC_EUSAGE, "--gpu gives two GPU counts; give one");
	p->has_count = 1;
	p->count_lo = lo;
	p->count_hi = hi;
	return GC_OK;
}

static int is_count(const char *w)
{
	return *w && strspn(w, "0123456789.") == strlen(w);
}

/* Starts like a number and is not a count: a memory size, or a mistake. */
static int is_memory(const char *w)
{
	return (isdigit((unsigned char)*w) || *w == '.') && !is_count(w);
}

/* One ':'-separated part.  The first part of a term is a name unless it
 * is a memory size ("4090" is a name); after a ':' a number is a count. */
static enum gc_status parse_part(char *w, int first, struct parsed *p, char **err)
{
	const char *v = vendor_of(w);
	if (!*w)
		return err_set(err, GC_EUSAGE, "empty name in --gpu (gpucmp help gpu)");
	if (v) {
		if (p->vendor && strcmp(p->vendor, v) != 0)
			return err_set(err, GC_EUSAGE, "--gpu gives two vendors; give one");
		p->vendor = v;
		return GC_OK;
	}
	double lo, hi;
	/* first: "24GB" is memory, "4070ti" a name */
	if (is_memory(w) && (!first || parse_range(w, SU_MEMORY, &lo, &hi) == 0))
		return parse_memory(w, p, err);
	if (!first && is_count(w))
		return parse_count(w, p, err);
	if (p->nnames >= SPEC_NAMES)
		return err_set(err, GC_EUSAGE, "too many names in one --gpu (at most %d)",
			       SPEC_NAMES);
	p->names[p->nnames++] = w;
	return GC_OK;
}

/* Split `buf` (a copy of the value, cut in place) into p. */
static enum gc_status parse_value(char *buf, struct parsed *p, char **err)
{
	enum gc_status st = GC_OK;
	char *save_term = NULL;
	for (char *term = strtok_r(buf, ",", &save_term); term && st == GC_OK;
	     term = strtok_r(NULL, ",", &save_term)) {
		int first = 1;
		for (char *part = term; part && st == GC_OK; first = 0) {
			char *colon = strchr(part, ':');
			if (colon)
				*colon = '\0';
			st = parse_part(trim(part), first, p, err);
			part = colon ? colon + 1 : NULL;
		}
	}
	/* a count alone is --gpus's job: a value names GPUs */
	if (st == GC_OK && !p->nnames && !p->vendor && !p->has_mem)
		st = err_set(err, GC_EUSAGE, "empty --gpu value (gpucmp help gpu)");
	return st;
}

/* "did you mean 'a', 'b' or 'c'?" for an unknown name. */
static enum gc_status unknown(const struct gpu_table *t, const char *name, char **err)
{
	const char *near[3];
	size_t n = gpu_nearest(t, name, near, 3);
	char safe[64], list[160] = "";
	size_t o = 0;
	for (size_t i = 0; i < n && o < sizeof list; i++)
		o += (size_t)snprintf(list + o, sizeof list - o, "%s'%s'",
				      i == 0 ? "" : i + 1 == n ? " or " : ", ", near[i]);
	str_sanitize(safe, sizeof safe, name);
	if (n)
		return err_set(err, GC_EUSAGE, "unknown GPU '%s'; did you mean %s?", safe, list);
	return err_set(err, GC_EUSAGE, "unknown GPU '%s'; 'gpucmp gpus' lists the known ones",
		       safe);
}

static int has_id(const char *const *ids, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(ids[i], id) == 0)
			return 1;
	return 0;
}

/* Does model m fit the value's vendor and memory? */
static int fits(const struct parsed *p, const struct gpu_model *m)
{
	if (p->vendor && strcmp(m->vendor, p->vendor) != 0)
		return 0;
	if (p->has_mem && p->mem_exact)
		return gpu_mem_matches(m, p->mem_lo);
	if (p->has_mem)
		return !(m->memory_gb < p->mem_lo) && !(m->memory_gb > p->mem_hi);
	return 1;
}

/* The models p names: each name's (gpu_match), else every model. */
static enum gc_status candidates(const struct gpu_table *t, const struct parsed *p,
				 const char **out, size_t *n, char **err)
{
	*n = 0;
	if (!p->nnames) {
		for (size_t i = 0; i < gpu_table_count(t) && *n < GPU_SPEC_MAX; i++)
			out[(*n)++] = gpu_table_at(t, i)->id;
		return GC_OK;
	}
	for (size_t k = 0; k < p->nnames; k++) {
		const char *got[GPU_SPEC_MAX];
		size_t m = gpu_match(t, p->names[k], got, GPU_SPEC_MAX);
		if (m == 0)
			return unknown(t, p->names[k], err);
		for (size_t i = 0; i < m && *n < GPU_SPEC_MAX; i++)
			if (!has_id(out, *n, got[i]))
				out[(*n)++] = got[i];
	}
	return GC_OK;
}

/* The value's models that fit its vendor and memory, added to s. */
static enum gc_status add_models(const struct gpu_table *t, const struct parsed *p,
				 const char *text, struct gpu_spec *s, char **err)
{
	const char *ids[GPU_SPEC_MAX];
	size_t n, kept = 0;
	enum gc_status st = candidates(t, p, ids, &n, err);
	for (size_t i = 0; st == GC_OK && i < n; i++) {
		if (!fits(p, gpu_find(t, ids[i])))
			continue;
		kept++;
		if (has_id(s->ids, s->nids, ids[i]))
			continue;
		if (s->nids >= GPU_SPEC_MAX)
			return err_set(err, GC_EUSAGE, "--gpu names more than %d GPU models; "
				       "name fewer", GPU_SPEC_MAX);
		s->ids[s->nids++] = ids[i];
	}
	if (st == GC_OK && kept == 0) {
		char safe[64];
		return err_set(err, GC_EUSAGE, "no GPU model fits '%s' ('gpucmp gpus' lists each "
			       "model's vendor and memory)", str_sanitize(safe, sizeof safe, text));
	}
	return st;
}

/* The value's count, the one count of every --gpu. */
static enum gc_status add_count(const struct parsed *p, struct gpu_spec *s, char **err)
{
	if (!p->has_count)
		return GC_OK;
	int had = !isnan(s->min_count) || !isnan(s->max_count);
	if (had && (!same(s->min_count, p->count_lo) || !same(s->max_count, p->count_hi)))
		return err_set(err, GC_EUSAGE, "two --gpu values give different GPU counts; "
			       "give one");
	s->min_count = p->count_lo;
	s->max_count = p->count_hi;
	return GC_OK;
}

enum gc_status gpu_spec_add(const struct gpu_table *t, const char *text, struct gpu_spec *s,
			    char **err)
{
	char buf[SPEC_TEXT_MAX];
	struct parsed p;
	memset(&p, 0, sizeof p);
	p.mem_lo = p.mem_hi = p.count_lo = p.count_hi = NAN;
	if (strlen(text) >= sizeof buf)
		return err_set(err, GC_EUSAGE, "--gpu value is longer than %d bytes",
			       SPEC_TEXT_MAX - 1);
	snprintf(buf, sizeof buf, "%s", text);
	enum gc_status st = parse_value(buf, &p, err);
	if (st == GC_OK)
		st = add_models(t, &p, text, s, err);
	return st == GC_OK ? add_count(&p, s, err) : st;
}
