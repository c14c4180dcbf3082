/* refresh_result.c - what a refresh came to: names, JSON, the verdict. */
#include "gpucmp/refresh.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>

const char *refresh_outcome_name(enum refresh_outcome o)
{
	switch (o) {
	case REFRESH_UPDATED:
		return "updated";
	case REFRESH_UNCHANGED:
		return "unchanged";
	case REFRESH_KEPT:
		return "kept";
	case REFRESH_RECENT:
		return "recent";
	case REFRESH_NO_KEY:
		return "no-key";
	case REFRESH_FAILED:
		return "failed";
	case REFRESH_NO_SOURCE:
		return "no-source";
	}
	return "?";
}

json_t *refresh_result_json(const struct refresh_result *r)
{
	json_t *o = json_object();
	int bad = !o;
	bad |= json_object_set_new(o, "provider", json_string(r->id));
	bad |= json_object_set_new(o, "result", json_string(refresh_outcome_name(r->outcome)));
	bad |= json_object_set_new(o, "tier", r->tier ? json_string(r->tier) : json_null());
	bad |= json_object_set_new(o, "offers", r->outcome == REFRESH_UPDATED
							? json_integer((json_int_t)r->offers)
							: json_null());
	bad |= json_object_set_new(o, "unknown_gpu", json_integer((json_int_t)r->unknown_gpu));
	bad |= json_object_set_new(o, "requests", json_integer((json_int_t)r->requests));
	bad |= json_object_set_new(o, "seconds", json_real(round(r->seconds * 1000) / 1000));
	bad |= json_object_set_new(o, "message",
				   r->message ? json_string(r->message) : json_null());
	bad |= json_object_set_new(o, "live_error",
				   r->live_error ? json_string(r->live_error) : json_null());
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *refresh_results_json(const struct refresh_result *r, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n && arr; i++) {
		if (json_array_append_new(arr, refresh_result_json(&r[i])) != 0) {
			json_decref(arr);
			arr = NULL;
		}
	}
	return arr;
}

enum refresh_verdict refresh_verdict(const struct refresh_result *r, size_t n)
{
	size_t tried = 0, failed = 0, keyed_live = 0;
	for (size_t i = 0; i < n; i++) {
		int lost_key = r[i].outcome == REFRESH_NO_KEY && r[i].named;
		tried += lost_key || (r[i].outcome != REFRESH_NO_KEY &&
				      r[i].outcome != REFRESH_RECENT &&
				      r[i].outcome != REFRESH_NO_SOURCE);
		failed += lost_key || r[i].outcome == REFRESH_FAILED;
		/* current from a catalog, but the live API the user keyed failed */
		keyed_live += r[i].keyed && r[i].live_error && r[i].outcome != REFRESH_FAILED;
	}
	if (failed && failed == tried)
		return REFRESH_ALL_FAILED;
	return failed || keyed_live ? REFRESH_SOME_FAILED : REFRESH_ALL_CURRENT;
}
