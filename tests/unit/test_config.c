/* test_config.c - the config file: parsing, every error with file:line,
 * the permission rules, where it is found, and precedence over it. */
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "testutil.h"

#include "gpucmp/adapter.h"
#include "gpucmp/config.h"
#include "gpucmp/config_show.h"
#include "gpucmp/hosted.h"
#include "gpucmp/fileio.h"
#include "gpucmp/refresh.h"
#include "gpucmp/yamldoc.h"

static enum gc_status parse(struct config *c, const char *text, char **err)
{
	config_init(c);
	return config_parse(c, "cfg.yaml", text, strlen(text), err);
}

static void test_full_example(void **state)
{
	(void)state;
	struct config c;
	char *err = NULL;
	const char *text = "# settings\n"
			   "columns: [provider, gpu, gpu_count, price]\n"
			   "sort: -gpu_count, price\n"
			   "currency: eur\n"
			   "providers: [vast, lambda, vast]\n"
			   "provider:\n"
			   "  lambda:\n"
			   "    base_url: http://127.0.0.1:8080/\n"
			   "    api_key: sk-test-1234\n"
			   "  vast:\n"
			   "    base_url: https://example.org/api\n";
	assert_int_equal(parse(&c, text, &err), GC_OK);
	assert_null(err);
	assert_string_equal(c.columns, "provider,gpu,gpu_count,price");
	assert_string_equal(c.sort, "-gpu_count,price");
	assert_string_equal(config_currency(&c), "EUR");
	assert_int_equal(c.nproviders, 2); /* the duplicate dropped, order kept */
	assert_string_equal(c.providers[0], "vast");
	assert_string_equal(c.providers[1], "lambda");
	assert_string_equal(config_base_url(&c, "lambda"), "http://127.0.0.1:8080");
	assert_string_equal(config_api_key(&c, "lambda"), "sk-test-1234");
	assert_string_equal(config_base_url(&c, "vast"), "https://example.org/api");
	assert_null(config_api_key(&c, "vast"));
	assert_null(config_api_key(&c, "runpod"));
	assert_true(config_has_keys(&c));
	config_release(&c);
	assert_null(c.provider);
	assert_string_equal(config_currency(&c), "USD");
	assert_string_equal(config_currency(NULL), "USD");
	assert_null(config_api_key(NULL, "lambda"));
}

static void test_catalog_keys(void **state)
{
	(void)state;
	struct config c;
	char *err = NULL;
	const char *text = "catalog: false\n"
			   "legend: false\n"
			   "providers: [aws, nebius]\n"
			   "skypilot_catalog_url: http://127.0.0.1:8080/v8/\n"
			   "gpuhunt_catalog_url: https://mirror.example/v3\n";
	unsetenv("GPUCMP_SKYPILOT_CATALOG_URL");
	unsetenv("GPUCMP_GPUHUNT_CATALOG_URL");
	assert_int_equal(parse(&c, text, &err), GC_OK);
	assert_int_equal(c.catalog, 0);
	assert_int_equal(c.legend, 0);
	assert_false(config_catalog_enabled(&c));
	assert_int_equal(c.nproviders, 2); /* catalog-only providers are refreshable */
	char from[32];
	assert_string_equal(config_catalog_url(&c, HOSTED_SKYPILOT, from, sizeof from),
			    "http://127.0.0.1:8080/v8");
	assert_string_equal(from, "config");
	assert_string_equal(config_catalog_url(&c, HOSTED_GPUHUNT, NULL, 0),
			    "https://mirror.example/v3");
	/* the variable wins over the config key */
	setenv("GPUCMP_GPUHUNT_CATALOG_URL", "http://127.0.0.1:9/v3", 1);
	assert_string_equal(config_catalog_url(&c, HOSTED_GPUHUNT, from, sizeof from),
			    "http://127.0.0.1:9/v3");
	assert_string_equal(from, "GPUCMP_GPUHUNT_CATALOG_URL");
	unsetenv("GPUCMP_GPUHUNT_CATALOG_URL");
	config_release(&c);
	assert_int_equal(c.catalog, -1);
	assert_int_equal(c.legend, -1);
	assert_true(config_catalog_enabled(&c));
	assert_string_equal(config_catalog_url(&c, HOSTED_SKYPILOT, from, sizeof from),
			    HOSTED_SKYPILOT_URL);
	assert_string_equal(from, "default");
}

static void test_empty_and_null(void **state)
{
	(void)state;
	static const char *const texts[] = {"", "\n\n", "# only a comment\n  # another\n",
					    "sort:\ncolumns: ~\n",
					    "provider:\n  lambda:\n    api_key:\n"};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct config c;
		char *err = NULL;
		assert_int_equal(parse(&c, texts[i], &err), GC_OK);
		assert_null(c.sort);
		assert_null(c.columns);
		assert_false(config_has_keys(&c));
		config_release(&c);
	}
}

/* pull_from: a file:/// URL is a folder's (team_pull reads it) */
static void test_pull_from_file_url(void **state)
{
	(void)state;
	struct config c;
	char *err = NULL;
	assert_int_equal(parse(&c, "pull_from: file:///srv/team\n", &err), GC_OK);
	assert_string_equal(c.pull_from, "file:///srv/team");
	config_release(&c);
}

static void test_errors(void **state)
{
	(void)state;
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "sortt: price\n", "cfg.yaml:1: unknown key 'sortt'; did you mean 'sort'?" },
		{ "sort: price\nprovders: [vast]\n",
		  "cfg.yaml:2: unknown key 'provders'; did you mean 'providers'?" },
		{ "columns: provider,vramm\n",
		  "cfg.yaml:1: unknown field 'vramm' in columns; did you mean 'vram'?" },
		{ "sort:\n  - price\n  - -gpuz\n",
		  "cfg.yaml:3: unknown field 'gpuz' in sort; did you mean 'gpu'?" },
		{ "sort: a,b,c,d,e,f,g,h,i\n", "cfg.yaml:1: unknown field 'a' in sort" },
		{ "sort: price,price,price,price,price,price,price,price,price\n",
		  "cfg.yaml:1: too many names in 'sort' (at most 8)" },
		{ "columns: []\n", "cfg.yaml:1: 'columns' is empty; leave it out for the default" },
		/* a bare key: not "no signature check", said nowhere */
		{ "trusted_keys:\n", "cfg.yaml:1: 'trusted_keys' is empty" },
		{ "trusted_keys: ~\n", "cfg.yaml:1: 'trusted_keys' is empty" },
		{ "trusted_keys: []\n", "cfg.yaml:1: 'trusted_keys' is empty" },
		{ "pull_from: ftp://example.org/team\n",
		  "cfg.yaml:1: pull_from must be an http(s) URL, a file:/// URL or a folder" },
		{ "pull_from: file://host/team\n",
		  "cfg.yaml:1: pull_from must be an http(s) URL, a file:/// URL or a folder" },
		{ "columns: [[gpu]]\n",
		  "cfg.yaml:1: 'columns' must be a list of names or one comma-separated "
		  "line of them" },
		{ "currency: GBP\n", "cfg.yaml:1: unknown currency 'GBP' (expected USD, EUR)" },
		{ "currency: euro\n", "cfg.yaml:1: unknown currency 'euro'" },
		{ "providers: [lamda]\n",
		  "cfg.yaml:1: provider 'lamda' has no live price adapter; "
		  "did you mean 'lambda'?" },
		{ "providers: civo\n",
		  "cfg.yaml:1: provider 'civo' has no live price adapter "
		  "(these do: azure, " },
		{ "catalog: maybe\n", "cfg.yaml:1: catalog must be true or false" },
		{ "legend: 1\n", "cfg.yaml:1: legend must be true or false" },
		{ "skypilot_catalog_url: ftp://x\n",
		  "cfg.yaml:1: bad skypilot_catalog_url 'ftp://x'" },
		{ "providers: {lambda: {}}\n",
		  "cfg.yaml:1: 'providers' is the list of providers refresh fetches" },
		{ "provider: [lambda]\n", "cfg.yaml:1: 'provider' holds settings per provider" },
		{ "provider: lambda\n", "cfg.yaml:1: 'provider' must be a mapping" },
		{ "provider:\n  lamda: {}\n",
		  "cfg.yaml:2: provider 'lamda' has no live price adapter; "
		  "did you mean 'lambda'?" },
		{ "provider:\n  lambda:\n",
		  "cfg.yaml:2: provider.lambda must be a mapping with base_url "
		  "and/or api_key" },
		{ "provider:\n  lambda:\n    apikey: x\n",
		  "cfg.yaml:3: unknown key 'apikey'; did you mean 'api_key'?" },
		{ "provider:\n  lambda:\n    base_url: ftp://example.org\n",
		  "cfg.yaml:3: bad provider.lambda.base_url 'ftp://example.org' "
		  "(expected http:// or https://" },
		{ "provider:\n  vast:\n    base_url: http://\n",
		  "cfg.yaml:3: bad provider.vast.base_url" },
		{ "provider:\n  vast:\n    base_url: \"http://a b\"\n",
		  "cfg.yaml:3: bad provider.vast.base_url" },
		{ "provider:\n  vast:\n    base_url: http://h/?q=1\n",
		  "cfg.yaml:3: bad provider.vast.base_url" },
		/* a password in the URL: refused, and not echoed */
		{ "provider:\n  vast:\n    base_url: https://u:pw-9x@h/v1\n",
		  "cfg.yaml:3: provider.vast.base_url must not hold a user or password; "
		  "put the key in api_key" },
		{ "provider:\n  vast:\n    api_key: \"\"\n",
		  "cfg.yaml:3: provider.vast.api_key must be non-empty text" },
		{ "provider:\n  vast:\n    api_key: \"sk-1\\r\\nX-Evil: 1\"\n",
		  "cfg.yaml:3: provider.vast.api_key holds a space, a control character" },
		{ "provider:\n  vast:\n    api_key: [a]\n",
		  "cfg.yaml:3: provider.vast.api_key must be non-empty text" },
		{ "sort: price\nsort: gpu\n", "cfg.yaml:2: duplicate key 'sort'" },
		{ "- sort\n", "cfg.yaml:1: expected settings as 'key: value' lines" },
		{ "sort: [price\n", "cfg.yaml:2: " },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct config c;
		char *err = NULL;
		enum gc_status st = parse(&c, cases[i].text, &err);
		if (st != GC_ECONFIG || !err || strstr(err, cases[i].want) != err)
			fail_msg("case %zu: status %d, message '%s', want '%s'", i, st,
				 err ? err : "(none)", cases[i].want);
		assert_null(c.columns);
		assert_null(c.provider);
		free(err);
		config_release(&c);
	}
}

/* A key is never quoted in a message. */
static void test_key_not_in_messages(void **state)
{
	(void)state;
	struct config c;
	char *err = NULL;
	const char *text = "provider:\n  vast:\n    api_key: \"sk-secret 42\"\n";
	assert_int_equal(parse(&c, text, &err), GC_ECONFIG);
	assert_null(strstr(err, "sk-secret"));
	free(err);
	config_release(&c);
}

static void test_check_mode(void **state)
{
	(void)state;
	static const struct {
		mode_t mode;
		uid_t owner;
		int keys;
		const char *want; /* NULL: accepted */
	} cases[] = {
		{ 0600, 1000, 1, NULL },
		{ 0400, 1000, 1, NULL },
		{ 0644, 1000, 0, NULL },
		{ 0664, 1000, 0, NULL }, /* a private group's umask 002 */
		{ 0600, 0, 1, NULL },    /* root's, say /etc/gpucmp.yaml */
		{ 0644, 1000, 1,
		  "config F holds API keys but is readable by other users; run: chmod 600 F" },
		{ 0640, 1000, 1,
		  "config F holds API keys but is readable by other users; run: chmod 600 F" },
		{ 0604, 1000, 1,
		  "config F holds API keys but is readable by other users; run: chmod 600 F" },
		{ 0620, 1000, 1,
		  "config F holds API keys but other users can change it; run: chmod 600 F" },
		{ 0666, 1000, 0, "config F can be changed by any user; run: chmod go-w F" },
		{ 0600, 1001, 0, "config F belongs to another user (uid 1001)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *err = NULL;
		enum gc_status st = config_check_mode("F", cases[i].mode, cases[i].owner, 1000,
						      cases[i].keys, &err);
		if (!cases[i].want) {
			if (st != GC_OK)
				fail_msg("case %zu refused: %s", i, err);
			continue;
		}
		if (st != GC_ECONFIG || !err || strstr(err, cases[i].want) != err)
			fail_msg("case %zu: status %d, message '%s', want '%s'", i, st,
				 err ? err : "(none)", cases[i].want);
		free(err);
	}
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void test_load_file(void **state)
{
	(void)state;
	const char *path = scratch_path("test_config.yaml");
	struct config c;
	char *err = NULL;
	/* missing: no error, nothing set */
	config_init(&c);
	assert_int_equal(config_load(&c, path, &err), GC_OK);
	assert_false(c.found);
	assert_string_equal(c.path, path);
	config_release(&c);
	/* keys in a file others can read: refused, one line saying how to fix it */
	write_file(path, "provider:\n  lambda:\n    api_key: sk-x\n", 0644);
	config_init(&c);
	assert_int_equal(config_load(&c, path, &err), GC_ECONFIG);
	assert_non_null(strstr(err, "is readable by other users; run: chmod 600 "));
	assert_null(strchr(err, '\n'));
	assert_null(config_api_key(&c, "lambda"));
	free(err);
	err = NULL;
	config_release(&c);
	/* chmod 600: read */
	assert_int_equal(chmod(path, 0600), 0);
	config_init(&c);
	assert_int_equal(config_load(&c, path, &err), GC_OK);
	assert_true(c.found);
	assert_string_equal(config_api_key(&c, "lambda"), "sk-x");
	config_release(&c);
	/* without keys 0644 is fine */
	write_file(path, "sort: vram\n", 0644);
	config_init(&c);
	assert_int_equal(config_load(&c, path, &err), GC_OK);
	assert_string_equal(c.sort, "vram");
	config_release(&c);
	/* a syntax error names the file and line */
	write_file(path, "sort: vram\ncolumns: [gpu\n", 0600);
	config_init(&c);
	assert_int_equal(config_load(&c, path, &err), GC_ECONFIG);
	assert_true(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':');
	free(err);
	config_release(&c);
	remove(path);
}

static void test_default_path(void **state)
{
	(void)state;
	char *err = NULL, *p;
	setenv("GPUCMP_CONFIG", "/x/explicit.yaml", 1);
	setenv("XDG_CONFIG_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	p = config_default_path(&err);
	assert_string_equal(p, "/x/explicit.yaml");
	free(p);
	unsetenv("GPUCMP_CONFIG");
	p = config_default_path(&err);
	assert_string_equal(p, "/xdg/gpucmp/config.yaml");
	free(p);
	setenv("XDG_CONFIG_HOME", "relative", 1); /* ignored, as the XDG spec says */
	p = config_default_path(&err);
	assert_string_equal(p, "/home/u/.config/gpucmp/config.yaml");
	free(p);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	assert_null(config_default_path(&err));
	assert_non_null(strstr(err, "set HOME, XDG_CONFIG_HOME or GPUCMP_CONFIG"));
	free(err);
	/* no location at all: an empty config, not an error */
	struct config c;
	config_init(&c);
	err = NULL;
	assert_int_equal(config_load(&c, NULL, &err), GC_OK);
	assert_null(c.path);
	assert_false(c.found);
	config_release(&c);
}

/* flag > environment > config file > built-in default, decided in one
 * place (refresh_key / refresh_base_url). */
static void test_precedence(void **state)
{
	(void)state;
	struct config c;
	char *err = NULL;
	const char *text = "provider:\n  lambda:\n    base_url: http://cfg.example\n"
			   "    api_key: cfg-key\n";
	assert_int_equal(parse(&c, text, &err), GC_OK);
	const struct adapter *ad = adapter_find("lambda");
	assert_non_null(ad);
	char from[96];
	unsetenv("GPUCMP_LAMBDA_API_KEY");
	unsetenv("LAMBDA_API_KEY");
	unsetenv("GPUCMP_LAMBDA_BASE_URL");
	assert_string_equal(refresh_key(ad, &c, from, sizeof from), "cfg-key");
	assert_string_equal(from, "config");
	assert_string_equal(refresh_base_url(ad, &c, from, sizeof from), "http://cfg.example");
	assert_string_equal(from, "config");
	setenv("LAMBDA_API_KEY", "usual-key", 1);
	assert_string_equal(refresh_key(ad, &c, from, sizeof from), "usual-key");
	assert_string_equal(from, "LAMBDA_API_KEY");
	setenv("GPUCMP_LAMBDA_API_KEY", "env-key", 1);
	setenv("GPUCMP_LAMBDA_BASE_URL", "http://env.example", 1);
	assert_string_equal(refresh_key(ad, &c, from, sizeof from), "env-key");
	assert_string_equal(from, "GPUCMP_LAMBDA_API_KEY");
	assert_string_equal(refresh_base_url(ad, &c, NULL, 0), "http://env.example");
	/* an empty variable counts as unset */
	setenv("GPUCMP_LAMBDA_API_KEY", "", 1);
	unsetenv("LAMBDA_API_KEY");
	assert_string_equal(refresh_key(ad, &c, NULL, 0), "cfg-key");
	unsetenv("GPUCMP_LAMBDA_API_KEY");
	unsetenv("GPUCMP_LAMBDA_BASE_URL");
	/* no config: nothing */
	assert_null(refresh_key(ad, NULL, from, sizeof from));
	assert_string_equal(from, "");
	assert_null(refresh_base_url(ad, NULL, NULL, 0));
	config_release(&c);
}

static const struct config_shown_provider *shown(const struct config_effective *e,
						 const char *id)
{
	for (size_t i = 0; i < e->nprovider; i++)
		if (strcmp(e->provider[i].id, id) == 0)
			return &e->provider[i];
	return NULL;
}

static void test_effective(void **state)
{
	(void)state;
	struct config c;
	struct config_effective e;
	const char *text = "sort: -gpu_count\nproviders: [vast, lambda]\n"
			   "stale_after: 6h\nlegend: false\n"
			   "provider:\n  lambda:\n    api_key: cfg-secret\n";
	assert_int_equal(parse(&c, text, NULL), GC_OK);
	unsetenv("GPUCMP_LAMBDA_API_KEY");
	unsetenv("LAMBDA_API_KEY");
	setenv("GPUCMP_LAMBDA_BASE_URL", "http://user:pw@env.example/api?token=t0k", 1);
	assert_int_equal(config_effective(&e, &c, NULL), GC_OK);
	static const char *const keys[] = {"columns", "sort", "currency", "providers",
					   "min_keep_percent", "stale_after", "legend", "catalog",
					   "skypilot_catalog_url", "gpuhunt_catalog_url",
					   "pull_from", "trusted_keys", "history_days"};
	for (size_t i = 0; i < CONFIG_SHOWN_TOP; i++)
		assert_string_equal(e.top[i].key, keys[i]);
	assert_null(e.top[0].value); /* columns: unset, "auto" for people */
	assert_string_equal(e.top[0].from, "default");
	assert_string_equal(e.top[0].unset, "auto");
	assert_string_equal(e.top[1].value, "-gpu_count");
	assert_string_equal(e.top[1].from, "config");
	assert_string_equal(e.top[2].value, "USD");
	assert_string_equal(e.top[2].from, "default");
	assert_string_equal(e.top[3].value, "vast,lambda");
	assert_string_equal(e.top[4].value, "10");
	assert_string_equal(e.top[5].value, "6h"); /* as the config writes it */
	assert_string_equal(e.top[6].value, "false");
	assert_string_equal(e.top[6].from, "config");
	assert_null(e.top[10].value); /* pull_from: none */
	const struct config_shown_provider *p = shown(&e, "lambda");
	assert_non_null(p);
	assert_string_equal(p->api_key.value, CONFIG_REDACTED);
	assert_string_equal(p->api_key.from, "config");
	assert_string_equal(p->base_url.from, "GPUCMP_LAMBDA_BASE_URL");
	assert_null(strstr(p->base_url.value, "pw"));
	assert_null(strstr(p->base_url.value, "t0k"));
	assert_non_null(strstr(p->base_url.value, "env.example"));
	/* the JSON document: every setting, no secret */
	json_t *j = config_effective_json(&e);
	assert_non_null(j);
	assert_true(json_is_false(json_object_get(j, "found")));
	assert_true(json_is_null(json_object_get(json_object_get(j, "columns"), "value")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "sort"),
							      "from")), "config");
	json_t *key = json_object_get(json_object_get(json_object_get(j, "provider"), "lambda"),
				      "api_key");
	assert_string_equal(json_string_value(json_object_get(key, "value")), CONFIG_REDACTED);
	char *dump = json_dumps(j, 0);
	assert_null(strstr(dump, "cfg-secret"));
	free(dump);
	json_decref(j);
	config_effective_release(&e);
	/* no base URL from the environment: the adapter's own, from "default" */
	unsetenv("GPUCMP_LAMBDA_BASE_URL");
	assert_int_equal(config_effective(&e, &c, NULL), GC_OK);
	p = shown(&e, "lambda");
	assert_string_equal(p->base_url.from, "default");
	assert_null(shown(&e, "vast"));
	config_effective_release(&e);
	config_release(&c);
}

/* `text` repeated n times between `head` and `tail`, in a new string */
static char *repeat(const char *head, const char *text, size_t n, const char *mid,
		    const char *close, const char *tail)
{
	size_t tl = strlen(text), cl = strlen(close);
	size_t cap = strlen(head) + n * (tl + cl) + strlen(mid) + strlen(tail) + 1;
	char *s = malloc(cap), *p = s;
	assert_non_null(s);
	p += snprintf(p, cap, "%s", head);
	for (size_t i = 0; i < n; i++, p += tl)
		memcpy(p, text, tl);
	p += snprintf(p, cap - (size_t)(p - s), "%s", mid);
	for (size_t i = 0; i < n; i++, p += cl)
		memcpy(p, close, cl);
	snprintf(p, cap - (size_t)(p - s), "%s", tail);
	return s;
}

/* Nesting past YDOC_MAX_DEPTH is refused before libyaml builds the
 * document (its scanner is quadratic in flow depth: a 1 MiB file of '['
 * took minutes): the error names file:line and the limit. */
static void test_deep_nesting(void **state)
{
	(void)state;
	struct {
		const char *head, *open, *mid, *close, *tail;
		size_t n;
		int line;
	} deep[] = {
		{"columns: ", "[", "gpu", "]", "\n", 100, 1},
		{"sort: price\ncolumns: ", "{a: ", "b", "}", "\n", 70, 2},
		{"columns:\n", "- ", "gpu", "", "\n", 80, 2},
		{"columns: ", "[", "", "", "\n", 500000, 1}, /* unclosed, under 1 MiB */
		{"# [[[[\nsort: '[[[['\ncolumns: ", "[", "", "", "\n", 300000, 3},
	};
	char want[64];
	snprintf(want, sizeof want, "nested deeper than %d levels", YDOC_MAX_DEPTH);
	for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
		char *text = repeat(deep[i].head, deep[i].open, deep[i].n, deep[i].mid,
				    deep[i].close, deep[i].tail);
		struct config c;
		char *err = NULL;
		assert_int_equal(parse(&c, text, &err), GC_ECONFIG);
		char at[32];
		snprintf(at, sizeof at, "cfg.yaml:%d: ", deep[i].line);
		if (strncmp(err, at, strlen(at)) != 0 || !strstr(err, want))
			fail_msg("case %zu: %s", i, err);
		free(err);
		free(text);
		config_release(&c);
	}
	/* at the limit: parsed, and refused for what it says (a list of lists) */
	char *text = repeat("columns: ", "[", YDOC_MAX_DEPTH - 1, "gpu", "]", "\n");
	struct config c;
	char *err = NULL;
	assert_int_equal(parse(&c, text, &err), GC_ECONFIG);
	if (strstr(err, "nested deeper"))
		fail_msg("refused at the limit: %s", err);
	free(err);
	free(text);
	config_release(&c);
}

/* A FIFO (or a device) as the config file is refused at once, not opened
 * for a read that waits for a writer forever. */
static void test_not_regular(void **state)
{
	(void)state;
	const char *path = scratch_path("test_config.fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(60); /* a hang fails the test (SIGALRM ends it) */
	struct config c;
	char *err = NULL;
	config_init(&c);
	assert_int_equal(config_load(&c, path, &err), GC_ECONFIG);
	assert_non_null(strstr(err, "is not a regular file"));
	free(err);
	err = NULL;
	config_release(&c);
	char *data;
	size_t len;
	assert_int_equal(file_read_all(path, 1024, &data, &len, &err), GC_EIO);
	assert_non_null(strstr(err, "not a regular file"));
	assert_null(data);
	free(err);
	err = NULL;
	config_init(&c);
	assert_int_equal(config_load(&c, "/dev/zero", &err), GC_ECONFIG);
	assert_non_null(strstr(err, "is not a regular file"));
	free(err);
	config_release(&c);
	alarm(0);
	remove(path);
}

/* The other quadratic paths of a YAML load: libyaml checks each anchor
 * against all earlier ones (40,000 took 8 s), and the duplicate-key check
 * compares each key with the earlier ones (110,000 keys: 96 s).  Both are
 * refused past their limits with file:line. */
static void test_anchor_and_key_limits(void **state)
{
	(void)state;
	struct buf b;
	buf_init(&b, 0);
	assert_int_equal(buf_addstr(&b, "sort: price\ncolumns: ["), GC_OK);
	for (int i = 0; i <= YDOC_MAX_ANCHORS; i++)
		assert_int_equal(buf_printf(&b, "%s&a%d gpu", i ? ", " : "", i), GC_OK);
	assert_int_equal(buf_addstr(&b, "]\n"), GC_OK);
	struct config c;
	char *err = NULL;
	char want[96];
	snprintf(want, sizeof want, "cfg.yaml:2: more than %d anchors", YDOC_MAX_ANCHORS);
	assert_int_equal(parse(&c, b.ptr, &err), GC_ECONFIG);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("%s", err);
	free(err);
	err = NULL;
	config_release(&c);
	buf_free(&b);
	buf_init(&b, 0);
	assert_int_equal(buf_addstr(&b, "provider:\n"), GC_OK);
	for (int i = 0; i <= YDOC_MAX_KEYS; i++)
		assert_int_equal(buf_printf(&b, "  k%d: {}\n", i), GC_OK);
	snprintf(want, sizeof want, "cfg.yaml:2: more than %d keys in one mapping", YDOC_MAX_KEYS);
	assert_int_equal(parse(&c, b.ptr, &err), GC_ECONFIG);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("%s", err);
	free(err);
	config_release(&c);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_example),
		cmocka_unit_test(test_catalog_keys),
		cmocka_unit_test(test_empty_and_null),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_pull_from_file_url),
		cmocka_unit_test(test_key_not_in_messages),
		cmocka_unit_test(test_check_mode),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_effective),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_anchor_and_key_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
