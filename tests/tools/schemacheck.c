/* schemacheck - validate JSON on stdin against one of our JSON Schema files.
 *
 * usage: schemacheck [--array|--lines] SCHEMA.json < data
 *   --array  stdin is a JSON array; every element must match
 *   --lines  stdin is NDJSON; every line must match
 *
 * Supports the subset of JSON Schema our schemas use: type (string or list),
 * enum, required, properties, additionalProperties: false, pattern (only the
 * date shapes: checked as "digits where the pattern has [0-9]").
 * Exits 0 when everything matches, 1 with a message naming the first
 * mismatch otherwise.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static int type_ok(const char *t, json_t *v)
{
	if (strcmp(t, "string") == 0)
		return json_is_string(v);
	if (strcmp(t, "number") == 0)
		return json_is_number(v);
	if (strcmp(t, "integer") == 0)
		return json_is_integer(v);
	if (strcmp(t, "boolean") == 0)
		return json_is_boolean(v);
	if (strcmp(t, "null") == 0)
		return json_is_null(v);
	if (strcmp(t, "array") == 0)
		return json_is_array(v);
	if (strcmp(t, "object") == 0)
		return json_is_object(v);
	return 0;
}

/* "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" style patterns: compare shape. */
static int shape_ok(const char *pattern, const char *s)
{
	char shape[64];
	size_t n = 0;
	for (const char *p = pattern; *p && n + 1 < sizeof shape; p++) {
		if (*p == '^' || *p == '$')
			continue;
		if (strncmp(p, "[0-9]{", 6) == 0) {
			int k = 0;
			sscanf(p + 6, "%d", &k);
			while (k-- > 0 && n + 1 < sizeof shape)
				shape[n++] = '9';
			p = strchr(p, '}');
			continue;
		}
		shape[n++] = *p;
	}
	shape[n] = '\0';
	if (strlen(s) != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (shape[i] == '9' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != shape[i])
			return 0;
	return 1;
}

/* The schema file's root, where a "$ref": "#/$defs/NAME" is looked up. */
static json_t *root;

static int check(json_t *schema, json_t *v, const char *path);

/* "$ref" (only "#/$defs/NAME") and "items" (every element of an array). */
static int check_ref_items(json_t *schema, json_t *v, const char *path)
{
	const char *ref = json_string_value(json_object_get(schema, "$ref"));
	if (ref) {
		json_t *def = strncmp(ref, "#/$defs/", 8) == 0
				      ? json_object_get(json_object_get(root, "$defs"), ref + 8)
				      : NULL;
		if (!def) {
			fprintf(stderr, "%s: unknown $ref %s\n", path, ref);
			return 0;
		}
		if (!check(def, v, path))
			return 0;
	}
	json_t *items = json_object_get(schema, "items");
	if (!items || !json_is_array(v))
		return 1;
	size_t i;
	json_t *e;
	json_array_foreach(v, i, e) {
		char sub[256];
		snprintf(sub, sizeof sub, "%s[%zu]", path, i);
		if (!check(items, e, sub))
			return 0;
	}
	return 1;
}

static int check(json_t *schema, json_t *v, const char *path)
{
	if (!check_ref_items(schema, v, path))
		return 0;
	json_t *type = json_object_get(schema, "type");
	if (json_is_string(type) && !type_ok(json_string_value(type), v)) {
		fprintf(stderr, "%s: not %s\n", path, json_string_value(type));
		return 0;
	}
	if (json_is_array(type)) {
		size_t i;
		json_t *t;
		int ok = 0;
		json_array_foreach(type, i, t) ok |= type_ok(json_string_value(t), v);
		if (!ok) {
			fprintf(stderr, "%s: wrong type\n", path);
			return 0;
		}
	}
	json_t *en = json_object_get(schema, "enum");
	if (en) {
		size_t i;
		json_t *e;
		int ok = 0;
		json_array_foreach(en, i, e) ok |= json_equal(e, v);
		if (!ok) {
			fprintf(stderr, "%s: value not in enum\n", path);
			return 0;
		}
	}
	json_t *pat = json_object_get(schema, "pattern");
	if (pat && json_is_string(v) && !shape_ok(json_string_value(pat), json_string_value(v))) {
		fprintf(stderr, "%s: '%s' does not match %s\n", path, json_string_value(v),
			json_string_value(pat));
		return 0;
	}
	if (!json_is_object(v))
		return 1;
	json_t *props = json_object_get(schema, "properties");
	json_t *req = json_object_get(schema, "required");
	size_t i;
	json_t *r;
	json_array_foreach(req, i, r) {
		if (!json_object_get(v, json_string_value(r))) {
			fprintf(stderr, "%s: missing '%s'\n", path, json_string_value(r));
			return 0;
		}
	}
	const char *key;
	json_t *val;
	json_object_foreach(v, key, val) {
		char sub[256];
		snprintf(sub, sizeof sub, "%s.%s", path, key);
		json_t *ps = props ? json_object_get(props, key) : NULL;
		if (!ps) {
			if (json_is_false(json_object_get(schema, "additionalProperties"))) {
				fprintf(stderr, "%s: not allowed\n", sub);
				return 0;
			}
			continue;
		}
		if (!check(ps, val, sub))
			return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	int array = 0, lines = 0, a = 1;
	if (argc > 1 && strcmp(argv[1], "--array") == 0)
		array = 1, a++;
	else if (argc > 1 && strcmp(argv[1], "--lines") == 0)
		lines = 1, a++;
	if (a >= argc) {
		fprintf(stderr, "usage: schemacheck [--array|--lines] SCHEMA\n");
		return 2;
	}
	json_error_t e;
	json_t *schema = json_load_file(argv[a], 0, &e);
	root = schema;
	if (!schema) {
		fprintf(stderr, "%s:%d: %s\n", argv[a], e.line, e.text);
		return 2;
	}
	int ok = 1;
	size_t n = 0;
	if (lines) {
		char line[1 << 16];
		while (ok && fgets(line, sizeof line, stdin)) {
			json_t *v = json_loads(line, 0, &e);
			if (!v) {
				fprintf(stderr, "line %zu: %s\n", n + 1, e.text);
				ok = 0;
				break;
			}
			ok = check(schema, v, "$");
			json_decref(v);
			n++;
		}
	} else {
		json_t *doc = json_loadf(stdin, 0, &e);
		if (!doc) {
			fprintf(stderr, "stdin:%d: %s\n", e.line, e.text);
			ok = 0;
		} else if (array) {
			size_t i;
			json_t *v;
			if (!json_is_array(doc)) {
				fprintf(stderr, "$: not an array\n");
				ok = 0;
			}
			json_array_foreach(doc, i, v) {
				char path[32];
				snprintf(path, sizeof path, "$[%zu]", i);
				if (ok && !check(schema, v, path))
					ok = 0;
				n++;
			}
		} else {
			ok = check(schema, doc, "$");
			n = 1;
		}
		json_decref(doc);
	}
	json_decref(schema);
	if (ok)
		printf("%zu document%s match %s\n", n, n == 1 ? "" : "s", argv[a]);
	return ok ? 0 : 1;
}
