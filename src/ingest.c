/* ingest.c - the one door into the cache (ingest.h): every stored row's
 * text, numbers, words, dates, provider and count, checked by the column
 * table (offer.h) in one place. */
#include "gpucmp/ingest.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "gpucmp/catalog.h"
#include "gpucmp/strutil.h"

static const char *const sources[] = {"live", "catalog", "import", "snapshot", "list", NULL};
static const char *const rdmas[] = {"ib", "roce", "efa", "no", NULL};
static const char *const price_kinds[] = {"fixed", "auction_floor", "marketplace", NULL};

static int one_of(const char *s, const char *const *set)
{
	for (size_t i = 0; s && set[i]; i++)
		if (strcmp(s, set[i]) == 0)
			return 1;
	return 0;
}

int ingest_source_ok(const char *source)
{
	return one_of(source, sources);
}

int ingest_valid_id(const char *id)
{
	if (!id || !*id || strlen(id) > 40)
		return 0;
	for (const char *p = id; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-')
			return 0;
	return 1;
}

long long ingest_date(const char *s, long long now)
{
	long long t = s ? str_time_epoch(s) : -1;
	if (t < 0)
		return -1;
	if (!now)
		now = catalog_now();
	return t > now + INGEST_SKEW_S ? -2 : t;
}

enum gc_status ingest_check_date(const char *what, const char *s, long long now, char **err)
{
	char safe[64];
	long long t = ingest_date(s, now);
	if (t == -1)
		return err_set(err, GC_EDATA, "%s '%s' is not an RFC 3339 UTC date "
			       "(YYYY-MM-DDTHH:MM:SSZ, a real calendar day)", what,
			       str_sanitize(safe, sizeof safe, s ? s : ""));
	if (t == -2)
		return err_set(err, GC_EDATA, "%s %s is in the future (later than now and %d "
			       "minutes)", what, str_sanitize(safe, sizeof safe, s),
			       INGEST_SKEW_S / 60);
	return GC_OK;
}

enum gc_status ingest_begin(struct ingest *in, const struct ingest_policy *p,
			    const char *provider, int known, char **err)
{
	memset(in, 0, sizeof *in);
	if (p)
		in->p = *p;
	if (!in->p.now)
		in->p.now = catalog_now();
	if (!in->p.max_offers)
		in->p.max_offers = INGEST_MAX_OFFERS;
	in->provider = provider;
	char safe[64];
	if (provider && !ingest_valid_id(provider))
		return err_set(err, GC_EUSAGE, "'%s' is not a provider id (1 to 40 lowercase "
			       "letters, digits and '-')",
			       str_sanitize(safe, sizeof safe, provider));
	if (provider && !known && !in->p.new_provider)
		return err_set(err, GC_EUSAGE, "'%s' is not a known provider (no built-in "
			       "profile); --new-provider stores it anyway", provider);
	return GC_OK;
}

/* Numbers outside their column's range become unknown; 0 when a required
 * one (the GPU count) is then missing. */
static int numbers(struct ingest *in, struct offer *o)
{
	for (size_t i = 0; i < offer_ncols; i++) {
		const struct offer_col *c = &offer_cols[i];
		if (c->kind == OFFER_TRI) {
			int v = offer_col_tri(o, c);
			offer_col_set_tri(o, c, v > 1 ? 1 : v < -1 ? -1 : v);
		}
		if (c->kind != OFFER_NUM)
			continue;
		double v = offer_col_num(o, c);
		if (isnan(v) || (v >= c->lo && v <= c->hi))
			continue;
		offer_col_set_num(o, c, NAN);
		in->s.numbers++;
	}
	/* the count and the share of a GPU make every per-GPU figure */
	if (!isnan(o->gpu_count) && !isnan(o->gpu_fraction))
		return 1;
	in->s.no_gpu++;
	return 0;
}

/* Three capital letters, and USD or a currency the rate table knows. */
static int currency_ok(const struct ingest *in, const char *cur)
{
	if (!cur)
		return 1;
	for (int i = 0; i < 3; i++)
		if (cur[i] < 'A' || cur[i] > 'Z')
			return 0;
	if (cur[3] != '\0')
		return 0;
	return strcmp(cur, "USD") == 0 || (in->p.rates && !isnan(rates_usd(in->p.rates, cur)));
}

/* The words and prices of o; 0 (counted) when it cannot be stored. */
static int words_and_prices(struct ingest *in, struct offer *o)
{
	if (o->rdma && !one_of(o->rdma, rdmas))
		o->rdma = NULL, in->s.words++;
	if (o->price_kind && !one_of(o->price_kind, price_kinds))
		o->price_kind = NULL, in->s.words++;
	if (!o->region || !*o->region)
		o->region = "unknown";
	if (!o->currency)
		o->currency = "USD";
	if (!currency_ok(in, o->currency)) {
		in->s.currency++;
		return 0;
	}
	if (!o->currency || strcmp(o->currency, "USD") == 0)
		o->price_native = o->spot_native = NAN;
	if (isnan(o->price_hr) && isnan(o->spot_price_hr)) {
		in->s.no_price++;
		return 0;
	}
	in->s.spot_dropped += (size_t)offer_spot_sane(o);
	return 1;
}

/* The row's dates, its source and provider: GC_EDATA refuses the store. */
static enum gc_status whole(struct ingest *in, const struct offer *o, char **err)
{
	char safe[64];
	if (in->provider && (!o->provider || strcmp(o->provider, in->provider) != 0))
		return err_set(err, GC_EDATA, "an offer of '%s' among %s's",
			       str_sanitize(safe, sizeof safe, o->provider ? o->provider : ""),
			       in->provider);
	if (!in->provider && !ingest_valid_id(o->provider))
		return err_set(err, GC_EDATA, "an offer's provider '%s' is not a provider id",
			       str_sanitize(safe, sizeof safe, o->provider ? o->provider : ""));
	if (!ingest_source_ok(o->source))
		return err_set(err, GC_EDATA, "an offer's source '%s' is none of live, catalog, "
			       "import, snapshot, list",
			       str_sanitize(safe, sizeof safe, o->source ? o->source : ""));
	if (!o->sku || !*o->sku)
		return err_set(err, GC_EDATA, "an offer has no sku");
	const char *name[] = {"an offer's fetched_at", "an offer's as_of"};
	const char *v[] = {o->fetched_at, o->as_of};
	for (int i = 0; i < 2; i++) {
		if (i == 1 && !v[i])
			continue; /* no as_of: unknown (stale), or a live row's fetch */
		if (v[i] && *v[i] && strcmp(v[i], in->good_date[i]) == 0)
			continue;
		enum gc_status st = ingest_check_date(name[i], v[i], in->p.now, err);
		if (st != GC_OK)
			return st;
		if (strlen(v[i]) < sizeof in->good_date[i])
			memcpy(in->good_date[i], v[i], strlen(v[i]) + 1);
	}
	return GC_OK;
}

enum gc_status ingest_offer(struct ingest *in, const struct offer *raw, struct offer *out,
			    struct offer_text *t, int *keep, char **err)
{
	*keep = 0;
	if (++in->s.rows > in->p.max_offers)
		return err_set(err, GC_EDATA, "more than %zu offers of one provider (the cap per "
			       "provider; raise it with GPUCMP_REFRESH_MAX_OFFERS)",
			       in->p.max_offers);
	if (offer_clean(raw, out, t))
		in->s.cleaned++;
	enum gc_status st = whole(in, out, err);
	if (st != GC_OK)
		return st;
	/* a live answer describes the moment it was fetched; any other source
	 * without a date of its own is of unknown age (stale), never "now" */
	if (!out->as_of && out->source && strcmp(out->source, "live") == 0)
		out->as_of = out->fetched_at;
	/* a catalog or the snapshot lists what is sold, not what is in stock
	 * now: its stock is unknown, whatever a row says */
	if (out->source && (strcmp(out->source, "catalog") == 0 ||
			    strcmp(out->source, "snapshot") == 0))
		out->available = -1;
	if (!numbers(in, out) || !words_and_prices(in, out))
		return GC_OK;
	in->s.stored++;
	*keep = 1;
	return GC_OK;
}

static const char *const commit_types[] = {"reserved", "capacity_block", NULL};

/* The reason a committed price is refused, or NULL (ingest.h). */
static const char *commit_fault(struct ingest *in, const struct offer *o,
				const struct offer_commit *c, const struct offer_commit *prev,
				size_t n)
{
	if (!one_of(c->type, commit_types))
		return "type";
	if ((strcmp(c->type, "reserved") == 0 || c->term_months != 0) &&
	    !offer_term_ok(c->term_months))
		return "term";
	if (!offer_price_ok(c->price_hr))
		return "price";
	if (!isnan(o->price_hr) && c->price_hr >= o->price_hr)
		return "not below on-demand";
	for (size_t i = 0; i < n; i++)
		if (strcmp(prev[i].type, c->type) == 0 && prev[i].term_months == c->term_months)
			return "duplicate";
	if (c->as_of && ingest_date(c->as_of, in->p.now) < 0)
		return "date";
	return NULL;
}

int ingest_commit(struct ingest *in, const struct offer *o, const struct offer_commit *raw,
		  const struct offer_commit *prev, size_t n, struct offer_commit *out,
		  struct offer_text *t, const char **why)
{
	*out = *raw;
	const char *fault = commit_fault(in, o, raw, prev, n);
	if (why)
		*why = fault;
	if (fault) {
		in->s.commits_refused++;
		in->s.commit_why = fault;
		return 0;
	}
	/* the texts as an offer's: control characters out, cut to size */
	int changed = 0;
	out->type = raw->type; /* one of commit_types: clean */
	out->origin = raw->origin ? str_field(t->b[0], raw->origin, &changed) : o->origin;
	out->as_of = raw->as_of ? str_field(t->b[1], raw->as_of, &changed) : o->as_of;
	in->s.commits++;
	return 1;
}
