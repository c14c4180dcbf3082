/* query.h - offer filters and sort order compiled to SQL over offer_v.
 *
 * Every value from the user is a bound parameter; no user text is ever
 * pasted into SQL.  Field names are taken only from the field registry.
 */
#ifndef GPUCMP_QUERY_H
#define GPUCMP_QUERY_H

#include <sqlite3.h>
#include <stddef.h>

#include "gpucmp/buf.h"
#include "gpucmp/err.h"
#include "gpucmp/field.h"
#include "gpucmp/where.h"

#define QUERY_MAX_LIST 64
#define QUERY_MAX_SORT 8
#define QUERY_MAX_BINDS 320

enum query_k8s { Q_K8S_ANY_OR_NONE = 0, Q_K8S_MANAGED, Q_K8S_JOIN, Q_K8S_ANY, Q_K8S_NONE };
enum query_docker { Q_DOCKER_ANY = 0, Q_DOCKER_CUSTOM, Q_DOCKER_DAEMON, Q_DOCKER_BASE };

struct sort_key {
	const struct field *field; /* NULL: the effective price (spot with --spot) */
	int desc;
};

struct query {
	const char *gpus[QUERY_MAX_LIST];      /* canonical ids (borrowed) */
	size_t ngpus;
	const char *providers[QUERY_MAX_LIST]; /* borrowed */
	size_t nproviders;
	const char *region_glob;               /* case-insensitive glob or NULL */
	double min_gpus, min_vram, max_price;  /* NAN = no limit */
	int spot;                              /* only offers with a spot price; prices mean spot */
	int available;
	int mig, mps, time_slicing, ib, rdma, nvlink;
	enum query_k8s k8s;
	enum query_docker docker;
	struct sort_key sort[QUERY_MAX_SORT];
	size_t nsort;                          /* 0: effective price ascending */
	long limit;                            /* < 0: none */
	const struct where_result *where;      /* a compiled --where, or NULL */
	/* --cuda: versions as numbers (cuda_version_num); 0 = not asked */
	long long cuda_num, cuda_min_driver_num;
	int cuda_strict;                       /* drop offers whose driver is unknown */
	double hours, nodes;                   /* --hours, --nodes; NAN = no estimate */
	int k8s_fee;                           /* the estimate includes the control plane */
	long long stale_after;                 /* seconds: older data is stale (QUERY_STALE_AFTER) */
	char sql_cuda_ok[320], sql_cost[200], sql_spot_cost[200], sql_stale[96];
};

/* Data older than this is stale whatever its source (24 h). */
#define QUERY_STALE_AFTER (24 * 3600LL)

/* The SQL of field f in this query: f->sql, except for the fields whose
 * value depends on --cuda, --hours or the staleness age (cuda_ok,
 * est_cost_usd, est_spot_cost_usd, stale: the provider's last refresh
 * failed, or the row's as_of is older than stale_after before
 * catalog_now()), computed from validated numbers only.  Call
 * query_prepare_fields() after setting those options. */
const char *query_field_sql(const struct query *q, const struct field *f);
void query_prepare_fields(struct query *q);

void query_init(struct query *q);

struct query_bind {
	int is_text;
	const char *text; /* borrowed */
	double num;
};

struct query_sql {
	struct buf sql;
	struct query_bind binds[QUERY_MAX_BINDS];
	int nbinds;
};

/* Build "SELECT <cols> FROM offer_v WHERE ... ORDER BY ... LIMIT ?". */
enum gc_status query_build(const struct query *q, const struct field *const *cols,
			   size_t ncols, struct query_sql *out, char **err);
void query_sql_release(struct query_sql *qs);

/* Prepare and bind; the caller steps and finalizes the statement. */
enum gc_status query_prepare(sqlite3 *db, const struct query_sql *qs,
			     sqlite3_stmt **stmt, char **err);

/* The SQL with its parameters inlined as SQL literals (quotes doubled), for
 * --explain and the benchmark; a new string. */
char *query_inline(const struct query_sql *qs);

#endif
