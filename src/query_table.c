/* query_table.c - what list's table shows for a query: its columns, and
 * which a narrow terminal keeps longest. */
#include "gpucmp/query.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The offer field each capability filter is about: a table filtered on it
 * shows it. */
static const char *const cap_field[QC_COUNT] = {
	[QC_AVAILABLE] = "available",
	[QC_K8S_MANAGED] = "k8s",
	[QC_K8S_JOIN] = "k8s",
	[QC_K8S_ANY] = "k8s",
	[QC_K8S_NONE] = "k8s",
	[QC_DOCKER_CUSTOM] = "docker_custom_image",
	[QC_DOCKER_DAEMON] = "docker_daemon",
	[QC_DOCKER_BASE] = "docker_custom_image",
	[QC_MIG] = "mig",
	[QC_MPS] = "mps",
	[QC_TIME_SLICING] = "time_slicing",
	[QC_IB] = "infiniband",
	[QC_RDMA] = "rdma",
	[QC_NVLINK] = "nvlink",
};

const char *query_cap_field(enum query_cap c)
{
	return c < QC_COUNT ? cap_field[c] : NULL;
}

/* Whether q fixes the GPU count (--gpus N with --gpu X:N, or a --where on
 * it both ways): then every row has the same count and $/GPU/H repeats $/H
 * divided by it. */
static int counts_pinned(const struct query *q)
{
	return !isnan(q->min_gpus) && !isnan(q->max_gpus) && q->min_gpus == q->max_gpus;
}

/* The group's count column: regions for one SKU, offers otherwise. */
static const struct field *group_count(const struct query *q)
{
	if (q->group <= QG_NONE || q->group >= QG_COUNT)
		return NULL;
	return group_field_find(q->group == QG_SKU ? "region_count" : "offers");
}


/* The estimate's parts are columns when it has more than the GPUs: a
 * control plane (--k8s managed), --disk or --egress; then also whether
 * every part was known (docs/OUTPUT.md, "The job's cost"). */
static int cost_part_shown(const struct query *q, const char *k)
{
	int more = q->k8s_fee || !isnan(q->disk_gb) || !isnan(q->egress_gb);
	if (isnan(q->hours) || !more || strncmp(k, "cost_", 5) != 0)
		return 0;
	if (strcmp(k, "cost_gpu_usd") == 0)
		return !q->spot; /* the spot total's GPUs are at the spot price */
	if (strcmp(k, "cost_k8s_fee_usd") == 0)
		return q->k8s_fee;
	if (strcmp(k, "cost_disk_usd") == 0)
		return !isnan(q->disk_gb);
	if (strcmp(k, "cost_egress_usd") == 0)
		return !isnan(q->egress_gb);
	return 1;
}

/* Is f a column of a filter q uses, or a key it sorts by (the reason for
 * the order must be on screen)? */
static int filtered(const struct query *q, const struct field *f)
{
	const char *k = f->key;
	for (size_t i = 0; i < q->nsort; i++)
		if (q->sort[i].field == f)
			return 1;
	for (int i = 0; i < QC_COUNT; i++)
		if ((q->caps >> i & 1) && strcmp(cap_field[i], k) == 0)
			return 1;
	for (size_t i = 0; i < q->nwhere_fields; i++)
		if (q->where_fields[i] == f)
			return 1;
	return (strcmp(k, "region") == 0 && q->region_glob) ||
	       (strcmp(k, "gpu_mem_gb") == 0 && !isnan(q->min_vram)) ||
	       (strcmp(k, "spot_price_hr") == 0 && q->spot) ||
	       /* --price-type: the answer says which price it holds */
	       (strcmp(k, "price_type") == 0 && q->price_type != QPT_DEFAULT) ||
	       (strcmp(k, "term_months") == 0 && q->price_type == QPT_RESERVED) ||
	       (q->cuda_num > 0 && (strcmp(k, "cuda_ok") == 0 || strcmp(k, "max_cuda") == 0 ||
				    strcmp(k, "driver_version") == 0)) ||
	       (!isnan(q->hours) && strncmp(k, "est_", 4) == 0) || cost_part_shown(q, k);
}

int query_column_rank(const struct query *q, const struct field *f)
{
	static const char *const always[] = {"provider", "sku", "gpu", "gpu_count", "price_hr"};
	for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
		if (strcmp(f->key, always[i]) == 0)
			return 0;
	if (filtered(q, f))
		return 1;
	if (strcmp(f->key, "price_per_gpu_hr") == 0 && !counts_pinned(q))
		return 3; /* beside REGION: before VRAM and the count */
	if (f == group_count(q))
		return 4; /* after what gpucmp is for: K8S, MIG, IB, REGION */
	return f->table_rank > 0 ? f->table_rank : 9;
}

static size_t add_col(const struct field **cols, size_t n, size_t max, const struct field *f)
{
	if (!f || n >= max)
		return n;
	for (size_t i = 0; i < n; i++)
		if (cols[i] == f)
			return n;
	cols[n] = f;
	return n + 1;
}

size_t query_table_columns(const struct query *q, const struct field **cols, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < offer_field_count; i++) {
		if (offer_fields[i].table_rank > 0)
			n = add_col(cols, n, max, &offer_fields[i]);
		if (strcmp(offer_fields[i].key, "region") == 0)
			n = add_col(cols, n, max, group_count(q));
		/* a price order over 1-, 2- and 8-GPU offers reads by the GPU-hour */
		if (strcmp(offer_fields[i].key, "price_hr") == 0 && !counts_pinned(q))
			n = add_col(cols, n, max, field_find("price_per_gpu_hr"));
	}
	/* the estimate last: its parts, its totals, then whether all were known */
	for (size_t i = 0; i < offer_field_count; i++)
		if (filtered(q, &offer_fields[i]) && strncmp(offer_fields[i].key, "est_", 4) != 0 &&
		    strcmp(offer_fields[i].key, "cost_complete") != 0)
			n = add_col(cols, n, max, &offer_fields[i]);
	for (size_t i = 0; i < q->nsort; i++) /* a group's own sort key too */
		n = add_col(cols, n, max, q->sort[i].field);
	if (!isnan(q->hours)) {
		n = add_col(cols, n, max, field_find("est_cost_usd"));
		n = add_col(cols, n, max, field_find("est_spot_cost_usd"));
	}
	if (cost_part_shown(q, "cost_complete"))
		n = add_col(cols, n, max, field_find("cost_complete"));
	return n;
}

/* Did an item before i show the same mark? */
static int mark_seen(const struct render_seen *seen, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(seen->item[j].value, seen->item[i].value) == 0)
			return 1;
	return 0;
}

/* Column `index`'s part of the legend, "K8S managed: provider-run cluster,
 * join: join your cluster", or with `marks` the marks of every column,
 * "?: unknown, -: none". */
static void legend_part(const struct render_seen *seen, size_t index, int marks, struct buf *b)
{
	size_t k = 0;
	for (size_t i = 0; i < seen->n; i++) {
		const char *v = seen->item[i].value;
		const struct field *f = seen->item[i].col;
		const struct field_value *m =
			marks			       ? field_value_find(NULL, v)
			: seen->item[i].index == index ? field_value_find(f->key, v)
						       : NULL;
		if (!m || !*m->brief || (marks && mark_seen(seen, i)))
			continue;
		buf_printf(b, "%s%s%s%s: %s", k ? ", " : "", marks || k ? "" : f->header,
			   marks || k ? "" : " ", v, m->brief);
		k++;
	}
}

/* The parts of the legend (index ncols: the marks), each a new string or
 * NULL; returns the number of columns plus one. */
static size_t legend_parts(const struct render_seen *seen, size_t ncols, char **parts)
{
	struct buf b;
	for (size_t c = 0; c <= ncols; c++) {
		buf_init(&b, 0);
		legend_part(seen, c, c == ncols, &b);
		parts[c] = b.len && !b.failed ? buf_steal(&b) : NULL;
		buf_free(&b);
	}
	return ncols + 1;
}

/* The shortest part not picked yet; n if none is left. */
static size_t shortest(char *const *parts, const unsigned char *pick, size_t n)
{
	size_t best = n;
	for (size_t c = 0; c < n; c++)
		if (parts[c] && !pick[c] &&
		    (best == n || render_width(parts[c]) < render_width(parts[best])))
			best = c;
	return best;
}

void query_legend(const struct render_seen *seen, size_t ncols, size_t width, char *out,
		  size_t size)
{
	static const char tail[] = "; more: gpucmp help values";
	char *parts[RENDER_SEEN_MAX + 1] = {NULL};
	unsigned char pick[RENDER_SEEN_MAX + 1] = {0};
	ncols = ncols < RENDER_SEEN_MAX ? ncols : RENDER_SEEN_MAX;
	size_t n = legend_parts(seen, ncols, parts), used = sizeof tail - 1;
	/* as many columns as fit: the shortest parts first, shown in column order */
	for (size_t best; (best = shortest(parts, pick, n)) < n; pick[best] = 1) {
		size_t w = render_width(parts[best]) + (used > sizeof tail - 1 ? 2 : 0);
		if (used + w > width)
			break;
		used += w;
	}
	size_t o = 0;
	if (size)
		out[0] = '\0';
	for (size_t c = 0; c < n && o < size; c++)
		if (pick[c])
			o += (size_t)snprintf(out + o, size - o, "%s%s", o ? "; " : "", parts[c]);
	if (o && o < size)
		snprintf(out + o, size - o, "%s", tail);
	for (size_t c = 0; c < n; c++)
		free(parts[c]);
}
