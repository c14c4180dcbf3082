/* team_json.c - the JSON answers of export and pull
 * (docs/export-result.schema.json, docs/pull-result.schema.json). */
#include <jansson.h>

#include "gpucmp/team.h"

json_t *team_export_json(const char *dir, const struct team_export_result *r,
			 const struct page_result *page)
{
	json_t *j = json_pack("{s:s, s:s, s:I, s:I, s:I, s:s, s:s?}", "path", dir, "created_at",
			      r->created_at, "providers", (json_int_t)r->providers, "offers",
			      (json_int_t)r->offers, "payload_bytes", (json_int_t)r->payload_bytes,
			      "sha256", r->sha256, "key", r->key[0] ? r->key : NULL);
	json_t *p = !page ? NULL
			  : json_pack("{s:s, s:I, s:I, s:I, s:I}", "file", TEAM_PAGE, "rows",
				      (json_int_t)page->rows, "offers", (json_int_t)page->offers,
				      "history_plots", (json_int_t)page->history_plots,
				      "scatter_plots", (json_int_t)page->scatter_plots);
	if (j && page && json_object_set_new(j, "page", p) != 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static json_t *provider_json(const struct team_provider *t)
{
	return json_pack("{s:s, s:s, s:I, s:s?, s:s?}", "provider", t->id, "outcome",
			 team_outcome_name(t->outcome), "offers", (json_int_t)t->offers, "as_of",
			 t->as_of[0] ? t->as_of : NULL, "local_as_of",
			 t->local_as_of[0] ? t->local_as_of : NULL);
}

json_t *team_pull_json(const struct team_pull_result *r)
{
	json_t *list = json_array();
	for (size_t i = 0; list && i < r->nproviders; i++)
		if (json_array_append_new(list, provider_json(&r->providers[i])) != 0) {
			json_decref(list);
			return NULL;
		}
	if (!list)
		return NULL;
	return json_pack("{s:s, s:s, s:s?, s:s?, s:I, s:o}", "from", r->from, "outcome",
			 r->not_modified ? "not-modified" : "pulled", "created_at",
			 r->created_at[0] ? r->created_at : NULL, "key", r->key[0] ? r->key : NULL,
			 "payload_bytes", (json_int_t)r->payload_bytes, "providers", list);
}
