/* cuda.c - CUDA toolkit -> minimum driver table (data/cuda.yaml). */
#include "gpucmp/cuda.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpucmp/strutil.h"
#include "ytable.h"

long long cuda_version_num(const char *s)
{
	long long part[3] = {0, 0, 0};
	int n = 0;
	if (!s || !isdigit((unsigned char)*s))
		return -1;
	while (n < 3) {
		long long v = 0;
		int digits = 0;
		while (isdigit((unsigned char)*s) && digits < 3) {
			v = v * 10 + (*s++ - '0');
			digits++;
		}
		/* every part has 1 to 3 digits (drivers 550.54.14, CUDA 12.4.1) */
		if (!digits || isdigit((unsigned char)*s))
			return -1;
		part[n++] = v;
		if (*s != '.')
			break;
		s++;
	}
	if (*s)
		return -1;
	return part[0] * 1000000 + part[1] * 1000 + part[2];
}

static enum gc_status load_row(struct ydoc *d, yaml_node_t *m, void *rows, size_t i, char **err)
{
	static const char *const keys[] = {"cuda", "min_driver", "source", NULL};
	struct cuda_row *r = (struct cuda_row *)rows + i;
	if (m->type != YAML_MAPPING_NODE)
		return ydoc_error(d, m, err, "each toolkit must be a mapping");
	enum gc_status st = ydoc_check_keys(d, m, keys, err);
	if (st != GC_OK)
		return st;
	yaml_node_t *v = ydoc_get(d, m, "cuda"), *dr = ydoc_get(d, m, "min_driver");
	const char *vs = v ? ydoc_str(v) : NULL, *ds = dr ? ydoc_str(dr) : NULL;
	if (!vs || strlen(vs) >= sizeof r->version || (r->num = cuda_version_num(vs)) < 0)
		return ydoc_error(d, v ? v : m, err, "cuda must be a version like 12.4");
	if (!ds || strlen(ds) >= sizeof r->min_driver ||
	    (r->driver_num = cuda_version_num(ds)) < 0)
		return ydoc_error(d, dr ? dr : m, err,
				  "min_driver must be a driver version like 550.54.14");
	snprintf(r->version, sizeof r->version, "%s", vs);
	snprintf(r->min_driver, sizeof r->min_driver, "%s", ds);
	if (i && r->num <= r[-1].num)
		return ydoc_error(d, m, err, "toolkits must be sorted by version, once each");
	return GC_OK;
}

static enum gc_status load_root(struct ydoc *d, yaml_node_t *root, void *table, char **err)
{
	struct cuda_table *t = table;
	return ydoc_dup_str(d, root, "source", 1, &t->source, err);
}

enum gc_status cuda_load(struct cuda_table *t, const char *file, const char *data, size_t len,
			 char **err)
{
	static const char *const keys[] = {"source", "verified", "note", "minor_compat",
					   "toolkits", NULL};
	static const struct ytable_spec spec = {keys, "toolkits", sizeof(struct cuda_row),
						load_root, load_row};
	void *rows;
	memset(t, 0, sizeof *t);
	enum gc_status st = ytable_load(&spec, t, file, data, len, &rows, &t->n, err);
	t->rows = rows;
	if (st != GC_OK)
		cuda_free(t);
	return st;
}

enum gc_status cuda_load_embedded(struct cuda_table *t, char **err)
{
	return cuda_load(t, "data/cuda.yaml", NULL, 0, err);
}

void cuda_free(struct cuda_table *t)
{
	free(t->source);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

const struct cuda_row *cuda_find(const struct cuda_table *t, const char *version)
{
	long long v = cuda_version_num(version);
	for (size_t i = 0; v >= 0 && i < t->n; i++)
		if (t->rows[i].num == v)
			return &t->rows[i];
	return NULL;
}

/* "CUDA 99.1 is not in gpucmp's table (11.0 to 13.0; nearest below: 13.0)". */
static enum gc_status not_in_table(const struct cuda_table *t, const char *v, char **err)
{
	char safe[64], known[64] = "";
	str_sanitize(safe, sizeof safe, v);
	long long want = cuda_version_num(v);
	if (want < 0)
		return err_set(err, GC_EUSAGE, "bad CUDA version '%s' for --cuda (expected e.g. "
			       "12.4)", safe);
	size_t best = 0; /* the nearest version below, as a hint */
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].num <= want)
			best = i;
	if (!t->n)
		return err_set(err, GC_EUSAGE, "CUDA %s is not in gpucmp's table (it is empty)",
			       safe);
	snprintf(known, sizeof known, "%s to %s", t->rows[0].version, t->rows[t->n - 1].version);
	return err_set(err, GC_EUSAGE, "CUDA %s is not in gpucmp's table (%s; nearest below: %s)",
		       safe, known, t->rows[best].version);
}

enum gc_status cuda_pick(const char *version, struct cuda_row *out, char **err)
{
	struct cuda_table t;
	enum gc_status st = cuda_load_embedded(&t, err);
	if (st != GC_OK)
		return st == GC_ENOMEM ? st : GC_EDATA;
	const struct cuda_row *r = cuda_find(&t, version);
	if (r)
		*out = *r;
	else
		st = not_in_table(&t, version, err);
	cuda_free(&t);
	return st;
}
