/* cmd_mcp.c - gpucmp mcp: a Model Context Protocol server on stdio
 * (JSON-RPC 2.0, one message a line; docs/MCP.md).
 *
 * Its tools are the read commands (list, show, compare, recommend,
 * changes, history, cache status).  A tool's input schema is made from
 * the command's own option table (the one --help and the completion
 * scripts read); a call becomes that command's argv plus --json, run by
 * the command's own function in a child process whose stdout and stderr
 * are files: the answer is the bytes `gpucmp CMD ... --json` prints, and
 * nothing the command prints can reach the protocol channel (our stdout).
 * No tool refreshes or writes the cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"

enum {
	MCP_MAX_LINE = 1 << 20,     /* a request line, bytes */
	MCP_MAX_ANSWER = 64 << 20,  /* a tool's JSON answer, bytes */
	MCP_MAX_NOTES = 16 << 10,   /* what a tool said on stderr, bytes kept */
	MCP_MAX_ARGV = 96
};

/* JSON-RPC 2.0 error codes. */
enum {
	RPC_PARSE = -32700, RPC_INVALID = -32600, RPC_METHOD = -32601, RPC_PARAMS = -32602,
	RPC_INTERNAL = -32603
};

/* The protocol revisions we answer in, newest first (the newest is ours). */
static const char *const mcp_versions[] = {"2025-11-25", "2025-06-18", "2025-03-26",
	"2024-11-05", NULL};

extern const struct cmd_entry cmd_list_entry, cmd_show_entry, cmd_compare_entry,
	cmd_recommend_entry, cmd_changes_entry, cmd_history_entry, cmd_cache_entry;

/* One tool: a command, and what its positional arguments are called. */
struct mcp_tool {
	const char *name;
	const struct cmd_entry *cmd;
	const char *word;             /* a fixed first argument ("status"), or NULL */
	const char *pos[3];           /* string properties, in argument order */
	int required;                 /* how many of pos are required */
	const char *list;             /* an array-of-strings property, or NULL */
	const char *pos_help[3];
};

static const struct mcp_tool mcp_tools[] = {
	{"list", &cmd_list_entry, NULL, {NULL}, 0, NULL, {NULL}},
	{"show", &cmd_show_entry, NULL, {"provider", NULL}, 1, NULL,
	 {"provider id (gpucmp providers lists them)", NULL}},
	{"compare", &cmd_compare_entry, NULL, {NULL}, 0, "providers", {NULL}},
	{"recommend", &cmd_recommend_entry, NULL, {NULL}, 0, NULL, {NULL}},
	{"changes", &cmd_changes_entry, NULL, {NULL}, 0, NULL, {NULL}},
	{"history", &cmd_history_entry, NULL, {"provider", "sku", "region"}, 0, NULL,
	 {"one offer's series: its provider id", "... its SKU (with provider)",
	  "... and region (optional)"}},
	{"cache_status", &cmd_cache_entry, "status", {NULL}, 0, NULL, {NULL}},
};
enum { MCP_NTOOLS = sizeof mcp_tools / sizeof mcp_tools[0] };

/* Options a tool does not take: the output is JSON, the cache the server's,
 * and nothing interactive. */
static int mcp_skipped(const struct opt_def *o)
{
	static const enum opt_id skip[] = {O_HELP, O_VERSION, O_CACHE, O_COLOR, O_QUIET,
		O_FORMAT, O_JSON, O_EXPLAIN, O_NO_LEGEND, O_WAIT, O_VERBOSE};
	for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (o->id == skip[i])
			return 1;
	return 0;
}

/* The options of tool t, each once, into out; returns their count. */
static size_t mcp_options(const struct mcp_tool *t, const struct opt_def **out)
{
	const struct opt_def *all[CLI_MAX_OPTS];
	size_t n = cli_options_of(t->cmd, all, CLI_MAX_OPTS), k = 0;
	for (size_t i = 0; i < n; i++) {
		int dup = mcp_skipped(all[i]);
		for (size_t j = 0; j < k && !dup; j++)
			dup = strcmp(out[j]->name, all[i]->name) == 0;
		if (!dup)
			out[k++] = all[i];
	}
	return k;
}

/* Does a number option take a unit (80GB, $2.5) as a string too? */
static int takes_unit(const struct opt_def *o)
{
	return o->num && (o->num->unit == UNIT_GB || o->num->unit == UNIT_USD);
}

/* A number option's type and range, from its definition (the parser's
 * own check): "integer" for a count, a minimum (exclusive when the value
 * must be more than it) and a maximum unless it is the sanity cap.  A
 * size or price may also be a string with its unit (the range then holds
 * for the number form only, as JSON Schema's keywords do). */
static json_t *schema_number(double d)
{
	return d == floor(d) && fabs(d) < 1e15 ? json_integer((json_int_t)d) : json_real(d);
}

static void number_schema(const struct opt_def *o, json_t *s)
{
	const struct opt_number *n = o->num;
	const char *type = n && n->whole ? "integer" : "number";
	json_object_set_new(s, "type", takes_unit(o) ? json_pack("[ss]", type, "string")
						      : json_string(type));
	if (!n)
		return;
	json_object_set_new(s, n->above ? "exclusiveMinimum" : "minimum", schema_number(n->min));
	if (n->max < OPT_NO_MAX)
		json_object_set_new(s, "maximum", schema_number(n->max));
}

/* One option's JSON Schema (a new reference). */
static json_t *opt_schema(const struct opt_def *o)
{
	json_t *s = json_object();
	switch (o->type) {
	case OPT_BOOL:
		json_object_set_new(s, "type", json_string("boolean"));
		break;
	case OPT_NUMBER:
		number_schema(o, s);
		break;
	case OPT_ENUM: {
		json_t *e = json_array();
		for (const char *const *c = o->choices; c && *c; c++)
			json_array_append_new(e, json_string(*c));
		json_object_set_new(s, "type", json_string("string"));
		json_object_set_new(s, "enum", e);
		break;
	}
	case OPT_STRING:
		json_object_set_new(s, "type", json_string("string"));
		break;
	}
	json_object_set_new(s, "description", json_string(o->help));
	return s;
}

/* Tool t's inputSchema (a new reference). */
static json_t *tool_schema(const struct mcp_tool *t)
{
	json_t *props = json_object(), *req = json_array();
	for (int i = 0; i < 3 && t->pos[i]; i++) {
		json_object_set_new(props, t->pos[i], json_pack("{s:s,s:s}", "type", "string",
								"description", t->pos_help[i]));
		if (i < t->required)
			json_array_append_new(req, json_string(t->pos[i]));
	}
	if (t->list) {
		json_object_set_new(props, t->list,
				    json_pack("{s:s,s:{s:s},s:i,s:s}", "type", "array", "items",
					      "type", "string", "minItems", 2, "description",
					      "provider ids, two or more"));
		json_array_append_new(req, json_string(t->list));
	}
	const struct opt_def *o[CLI_MAX_OPTS];
	size_t n = mcp_options(t, o);
	for (size_t i = 0; i < n; i++)
		json_object_set_new(props, o[i]->name, opt_schema(o[i]));
	json_t *s = json_pack("{s:s,s:o,s:b}", "type", "object", "properties", props,
			      "additionalProperties", 0);
	if (s && json_array_size(req))
		json_object_set(s, "required", req);
	json_decref(req);
	return s;
}

/* The tools/list answer (a new reference). */
static json_t *tools_list(void)
{
	json_t *tools = json_array();
	char desc[512];
	for (size_t i = 0; i < MCP_NTOOLS; i++) {
		const struct mcp_tool *t = &mcp_tools[i];
		snprintf(desc, sizeof desc, "%s Answers with the JSON of 'gpucmp %s%s --json' "
			 "(docs/OUTPUT.md).", t->cmd->summary, t->cmd->name,
			 t->word ? " status" : "");
		json_array_append_new(tools, json_pack("{s:s,s:s,s:o,s:{s:b,s:b}}", "name", t->name,
						       "description", desc, "inputSchema",
						       tool_schema(t), "annotations",
						       "readOnlyHint", 1, "openWorldHint", 0));
	}
	return json_pack("{s:o}", "tools", tools);
}

/* --- a call: arguments to argv --- */

struct mcp_argv {
	char *v[MCP_MAX_ARGV];
	int n;
};

static int argv_add(struct mcp_argv *av, const char *s)
{
	if (av->n >= MCP_MAX_ARGV - 1)
		return -1;
	av->v[av->n] = strdup(s);
	return av->v[av->n] ? av->n++, 0 : -1;
}

static void argv_free(struct mcp_argv *av)
{
	for (int i = 0; i < av->n; i++)
		free(av->v[i]);
	av->n = 0;
}

/* One option's value into argv; returns 0, or -1 with *why set. */
static int add_option(struct mcp_argv *av, const struct opt_def *o, json_t *v, const char **why)
{
	char flag[64], num[64];
	snprintf(flag, sizeof flag, "--%s", o->name);
	if (o->type == OPT_BOOL) {
		if (!json_is_boolean(v))
			return *why = "a boolean", -1;
		return json_is_true(v) ? argv_add(av, flag) : 0;
	}
	const char *text = json_string_value(v);
	if (o->type == OPT_NUMBER && json_is_number(v)) {
		double d = json_number_value(v);
		if (json_is_integer(v))
			snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		else
			snprintf(num, sizeof num, "%.17g", d);
		text = num;
	} else if (o->type == OPT_NUMBER && !takes_unit(o)) {
		return *why = "a number", -1;
	}
	if (!text)
		return *why = o->type == OPT_NUMBER ? "a number or a string" : "a string", -1;
	return argv_add(av, flag) || argv_add(av, text) ? (*why = "within the argument limit", -1)
							 : 0;
}

/* The option of t named `key`, or NULL. */
static const struct opt_def *tool_option(const struct mcp_tool *t, const char *key)
{
	const struct opt_def *o[CLI_MAX_OPTS];
	size_t n = mcp_options(t, o);
	for (size_t i = 0; i < n; i++)
		if (strcmp(o[i]->name, key) == 0)
			return o[i];
	return NULL;
}

/* The positional arguments of t from `args` into argv; 0, or -1 with msg. */
static int add_positional(struct mcp_argv *av, const struct mcp_tool *t, json_t *args,
			  char *msg, size_t n)
{
	if (t->word && argv_add(av, t->word))
		return snprintf(msg, n, "out of memory"), -1;
	for (int i = 0; i < 3 && t->pos[i]; i++) {
		json_t *v = json_object_get(args, t->pos[i]);
		if (!v && i < t->required)
			return snprintf(msg, n, "missing argument '%s'", t->pos[i]), -1;
		if (v && !json_is_string(v))
			return snprintf(msg, n, "argument '%s' must be a string", t->pos[i]), -1;
		if (v && argv_add(av, json_string_value(v)))
			return snprintf(msg, n, "too many arguments"), -1;
	}
	if (!t->list)
		return 0;
	json_t *l = json_object_get(args, t->list), *e;
	size_t i;
	if (!json_is_array(l))
		return snprintf(msg, n, "argument '%s' must be an array of strings", t->list), -1;
	json_array_foreach(l, i, e) {
		if (!json_is_string(e))
			return snprintf(msg, n, "argument '%s' must hold strings", t->list), -1;
		if (argv_add(av, json_string_value(e)))
			return snprintf(msg, n, "too many values in '%s'", t->list), -1;
	}
	return 0;
}

/* Is `key` one of t's positional properties? */
static int is_positional(const struct mcp_tool *t, const char *key)
{
	for (int i = 0; i < 3 && t->pos[i]; i++)
		if (strcmp(t->pos[i], key) == 0)
			return 1;
	return t->list && strcmp(t->list, key) == 0;
}

/* argv for tool t called with `args` (an object, or NULL): "gpucmp
 * [--cache PATH] [--quiet] CMD ... --json".  0, or -1 with msg (bad params). */
static int build_argv(struct mcp_argv *av, const struct mcp_tool *t, json_t *args,
		      const char *cache, int s_quiet, char *msg, size_t n)
{
	if (argv_add(av, "gpucmp") || (cache && (argv_add(av, "--cache") || argv_add(av, cache))) ||
	    (s_quiet && argv_add(av, "--quiet")) || argv_add(av, t->cmd->name))
		return snprintf(msg, n, "out of memory"), -1;
	json_t *empty = json_object();
	if (add_positional(av, t, args ? args : empty, msg, n)) {
		json_decref(empty);
		return -1;
	}
	json_decref(empty);
	const char *key;
	json_t *v;
	json_object_foreach(args, key, v) {
		if (is_positional(t, key))
			continue;
		const struct opt_def *o = tool_option(t, key);
		const char *why = NULL;
		if (!o)
			return snprintf(msg, n, "tool '%s' has no argument '%.64s'", t->name,
					key), -1;
		if (add_option(av, o, v, &why))
			return snprintf(msg, n, "argument '%s' must be %s", key, why), -1;
	}
	return argv_add(av, "--json") ? snprintf(msg, n, "out of memory"), -1 : 0;
}

/* --- a call: run the command --- */

/* In the child: parse argv as main does and run the command; never returns. */
static void run_child(const struct mcp_tool *t, struct mcp_argv *av, FILE *out, FILE *err)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(fileno(out), STDOUT_FILENO) < 0 ||
	    dup2(fileno(err), STDERR_FILENO) < 0)
		_exit(EXIT_OSERR);
	struct cli_args a;
	memset(&a, 0, sizeof a);
	a.cmd = &cli_global;
	int i = 1;
	for (; i < av->n && av->v[i][0] == '-'; i++) {
		int rc = cli_parse_one(&cli_global, av->n, av->v, &i, &a);
		if (rc)
			_exit(rc);
	}
	int rc = cli_parse(t->cmd, av->n, av->v, i + 1, &a);
	if (rc == 0) {
		msg_set_quiet(cli_flag(&a, O_QUIET));
		rc = t->cmd->run(&a);
	}
	cli_args_release(&a);
	if (fflush(stdout) != 0 || ferror(stdout))
		rc = rc ? rc : EXIT_IOERR;
	fflush(stderr);
	_exit(rc);
}

/* Up to `max` bytes of f from its start into a new string in *s (its
 * length in *len); 1 when f holds more, -1 on an error. */
static int slurp(FILE *f, size_t max, char **s, size_t *len)
{
	*s = NULL;
	*len = 0;
	if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
		return -1;
	char *b = malloc(max + 1);
	if (!b)
		return -1;
	size_t n = fread(b, 1, max + 1, f);
	if (ferror(f)) {
		free(b);
		return -1;
	}
	int more = n > max;
	*len = more ? max : n;
	b[*len] = '\0';
	*s = b;
	return more;
}

/* What the command said on stderr (its first MCP_MAX_NOTES bytes), the
 * trailing newlines dropped; "" when it said nothing. */
static void trim_notes(char *s, size_t *len)
{
	while (*len && (s[*len - 1] == '\n' || s[*len - 1] == '\r'))
		s[--*len] = '\0';
}

/* A tool result: `text` (and `notes`, when not empty) as text content. */
static json_t *tool_result(const char *text, size_t len, const char *notes, size_t nlen,
			   int is_error)
{
	json_t *content = json_array(), *t = json_stringn(text, len);
	if (!t)
		t = json_string("the answer is not valid UTF-8");
	json_array_append_new(content, json_pack("{s:s,s:o}", "type", "text", "text", t));
	json_t *n = nlen ? json_stringn(notes, nlen) : NULL;
	if (n)
		json_array_append_new(content, json_pack("{s:s,s:o}", "type", "text", "text", n));
	return json_pack("{s:o,s:b}", "content", content, "isError", is_error);
}

/* The result of a child that ended with `status`, its stdout in out and
 * stderr in err (a new reference). */
static json_t *child_result(const struct mcp_tool *t, int status, FILE *out, FILE *err)
{
	char *o = NULL, *e = NULL, line[160];
	size_t olen = 0, elen = 0;
	int ob = slurp(out, MCP_MAX_ANSWER, &o, &olen);
	int eb = slurp(err, MCP_MAX_NOTES, &e, &elen);
	json_t *r;
	if (eb >= 0)
		trim_notes(e, &elen);
	if (ob < 0 || eb < 0) {
		r = tool_result("gpucmp: cannot read the answer back", 35, NULL, 0, 1);
	} else if (!WIFEXITED(status)) {
		int n = snprintf(line, sizeof line, "gpucmp: %s stopped by signal %d", t->name,
				 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
		r = tool_result(line, (size_t)n, e, elen, 1);
	} else if (WEXITSTATUS(status) != 0) {
		int n = snprintf(line, sizeof line, "gpucmp %s failed (exit %d)", t->name,
				 WEXITSTATUS(status));
		r = elen ? tool_result(e, elen, NULL, 0, 1)
			 : tool_result(line, (size_t)n, NULL, 0, 1);
	} else if (ob > 0) {
		int n = snprintf(line, sizeof line, "gpucmp: the answer is larger than %d MiB; "
				 "narrow it (filters, limit)", MCP_MAX_ANSWER >> 20);
		r = tool_result(line, (size_t)n, NULL, 0, 1);
	} else {
		r = tool_result(o, olen, e, elen, 0);
	}
	free(o);
	free(e);
	return r;
}

/* Run tool t with argv in a child; the tool result (a new reference). */
static json_t *run_tool(const struct mcp_tool *t, struct mcp_argv *av)
{
	FILE *out = tmpfile(), *err = tmpfile();
	json_t *r = NULL;
	if (!out || !err) {
		r = tool_result("gpucmp: cannot create a temporary file", 38, NULL, 0, 1);
		goto done;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0)
		run_child(t, av, out, err);
	int status = 0;
	if (pid < 0) {
		r = tool_result("gpucmp: cannot start the command", 32, NULL, 0, 1);
		goto done;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			r = tool_result("gpucmp: lost the command", 24, NULL, 0, 1);
			goto done;
		}
	r = child_result(t, status, out, err);
done:
	if (out)
		fclose(out);
	if (err)
		fclose(err);
	return r;
}

/* --- the protocol --- */

struct mcp_server {
	const char *cache; /* --cache given, or NULL */
	int quiet;         /* --quiet: no notes in the tool results */
	char msg[256];     /* a bad-params message */
	/* the line and the message being answered, held here (in memory, not
	 * only in registers) so that a tool's child, which never returns to
	 * serve, still reaches them when it exits (valgrind's leak check) */
	char *line;
	json_t *request;
};

static const struct mcp_tool *find_tool(const char *name)
{
	for (size_t i = 0; name && i < MCP_NTOOLS; i++)
		if (strcmp(mcp_tools[i].name, name) == 0)
			return &mcp_tools[i];
	return NULL;
}

/* tools/call: a result, or NULL with *code and s->msg set. */
static json_t *tools_call(struct mcp_server *s, json_t *params, int *code)
{
	const char *name = json_string_value(json_object_get(params, "name"));
	json_t *args = json_object_get(params, "arguments");
	*code = RPC_PARAMS;
	if (!name)
		return snprintf(s->msg, sizeof s->msg, "params.name must be a tool name"), NULL;
	const struct mcp_tool *t = find_tool(name);
	if (!t)
		return snprintf(s->msg, sizeof s->msg, "unknown tool '%.64s'; tools/list names "
				"them", name), NULL;
	if (args && !json_is_object(args) && !json_is_null(args))
		return snprintf(s->msg, sizeof s->msg, "params.arguments must be an object"), NULL;
	struct mcp_argv av = {{NULL}, 0};
	if (build_argv(&av, t, json_is_object(args) ? args : NULL, s->cache, s->quiet, s->msg,
		       sizeof s->msg)) {
		argv_free(&av);
		return NULL;
	}
	json_t *r = run_tool(t, &av);
	argv_free(&av);
	if (!r)
		*code = RPC_INTERNAL, snprintf(s->msg, sizeof s->msg, "out of memory");
	return r;
}

/* initialize: our revision is the client's when we know it, else ours. */
static json_t *initialize(struct mcp_server *s, json_t *params, int *code)
{
	const char *want = json_string_value(json_object_get(params, "protocolVersion"));
	const char *v = mcp_versions[0];
	*code = RPC_PARAMS;
	if (!want)
		return snprintf(s->msg, sizeof s->msg, "params.protocolVersion must be a string"),
		       NULL;
	for (const char *const *p = mcp_versions; *p; p++)
		if (strcmp(*p, want) == 0)
			v = *p;
	return json_pack("{s:s,s:{s:{s:b}},s:{s:s,s:s},s:s}", "protocolVersion", v,
			 "capabilities", "tools", "listChanged", 0, "serverInfo", "name", "gpucmp",
			 "version", GPUCMP_VERSION, "instructions",
			 "gpucmp compares rented GPU offers across clouds from its local cache. "
			 "Tools are read-only and answer with gpucmp's --json output "
			 "(docs/OUTPUT.md); unknown is null, never no. None refreshes the cache.");
}

/* A method's result, or NULL with *code and s->msg. */
static json_t *dispatch(struct mcp_server *s, const char *method, json_t *params, int *code)
{
	if (strcmp(method, "initialize") == 0)
		return initialize(s, params, code);
	if (strcmp(method, "ping") == 0)
		return json_object();
	if (strcmp(method, "tools/list") == 0)
		return tools_list();
	if (strcmp(method, "tools/call") == 0)
		return tools_call(s, params, code);
	*code = RPC_METHOD;
	snprintf(s->msg, sizeof s->msg, "unknown method '%.64s'", method);
	return NULL;
}

/* Write one message, compact, on one line; 0, or -1 when stdout failed. */
static int send_msg(json_t *m)
{
	int rc = m ? json_dumpf(m, stdout, JSON_COMPACT) : -1;
	json_decref(m);
	if (rc == 0)
		rc = fputc('\n', stdout) == EOF || fflush(stdout) != 0 ? -1 : 0;
	return rc;
}

static int send_error(json_t *id, int code, const char *message)
{
	return send_msg(json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id",
				  id ? id : json_null(), "error", "code", code, "message",
				  message));
}

/* Is `id` what JSON-RPC (and MCP) allow: a string or an integer? */
static int good_id(json_t *id)
{
	return json_is_string(id) || json_is_integer(id);
}

/* One parsed message: answer it (a notification gets no answer). */
static int handle(struct mcp_server *s, json_t *m)
{
	json_t *id = json_object_get(m, "id"), *params = json_object_get(m, "params");
	const char *method = json_string_value(json_object_get(m, "method"));
	if (!json_is_object(m))
		return send_error(NULL, RPC_INVALID, "a request must be a JSON object "
				  "(batches are not part of MCP)");
	if (id && !good_id(id))
		return send_error(NULL, RPC_INVALID, "id must be a string or an integer");
	if (!json_is_string(json_object_get(m, "jsonrpc")) ||
	    strcmp(json_string_value(json_object_get(m, "jsonrpc")), "2.0") != 0)
		return send_error(id, RPC_INVALID, "jsonrpc must be \"2.0\"");
	if (!method && (json_object_get(m, "result") || json_object_get(m, "error")))
		return 0; /* a response: we send no requests, so nothing to match */
	if (!method)
		return send_error(id, RPC_INVALID, "method must be a string");
	if (!id)
		return 0; /* a notification: initialized, cancelled, ... */
	if (params && !json_is_object(params))
		return send_error(id, RPC_PARAMS, "params must be an object");
	int code = RPC_INTERNAL;
	s->msg[0] = '\0';
	json_t *r = dispatch(s, method, params, &code);
	if (!r)
		return send_error(id, code, s->msg[0] ? s->msg : "out of memory");
	return send_msg(json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", r));
}

/* Read one line of at most MCP_MAX_LINE bytes into buf (NUL-terminated,
 * its length in *len, the newline and a CR before it dropped).  Returns 1
 * for a line, 2 for one too long (the rest of it read and dropped), 0 at
 * the end of input; a last line without a newline still counts. */
static int read_line(char *buf, size_t *len)
{
	int c, over = 0, any = 0;
	size_t n = 0;
	while ((c = getc(stdin)) != EOF && c != '\n') {
		any = 1;
		if (n < MCP_MAX_LINE)
			buf[n++] = (char)c;
		else
			over = 1;
	}
	if (c == EOF && !any)
		return 0;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	*len = n;
	return over ? 2 : 1;
}

/* The server loop: one message a line until the end of input. */
static int serve(struct mcp_server *s)
{
	char *buf = s->line = malloc(MCP_MAX_LINE + 1);
	if (!buf) {
		msg_error("out of memory");
		return EXIT_OSERR;
	}
	size_t len;
	int rc = 0, got;
	while (rc == 0 && (got = read_line(buf, &len)) != 0) {
		if (got == 2) {
			rc = send_error(NULL, RPC_INVALID, "request larger than 1 MiB");
			continue;
		}
		if (strspn(buf, " \t") == len)
			continue;
		json_error_t jerr;
		json_t *m = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
		s->request = m;
		rc = m ? handle(s, m) : send_error(NULL, RPC_PARSE, "parse error: not JSON");
		s->request = NULL;
		json_decref(m);
	}
	free(buf);
	return rc ? EXIT_IOERR : EXIT_OK;
}

static int cmd_mcp(struct cli_args *a)
{
	if (a->npos) {
		msg_error("mcp takes no arguments; an MCP client starts 'gpucmp mcp' and talks "
			  "on its stdin");
		return EXIT_USAGE;
	}
	struct mcp_server s = {cli_opt(a, O_CACHE), cli_flag(a, O_QUIET), "", NULL, NULL};
	signal(SIGPIPE, SIG_IGN);
	int rc = serve(&s);
	if (rc)
		msg_error("cannot write to the client (stdout closed)");
	return rc;
}

static const struct opt_use mcp_opts[] = {OPT_GROUP(opts_common), OPT_END};

const struct cmd_entry cmd_mcp_entry = {
	.name = "mcp",
	.run = cmd_mcp,
	.usage = "mcp",
	.summary = "A Model Context Protocol server on stdio: list, show, compare ... as tools.",
	.detail =
		"For an AI agent: JSON-RPC 2.0, one message a line on stdin and stdout (MCP\n"
		"revision 2025-11-25; docs/MCP.md).  The tools are list, show, compare,\n"
		"recommend, changes, history and cache_status, with the options of those\n"
		"commands as their arguments; each answers with the JSON the command prints\n"
		"with --json.  Read-only: no tool refreshes or writes the cache (run\n"
		"'gpucmp refresh' or 'gpucmp cron' for that).  A request line is at most 1 MiB.\n\n"
		"client configuration (Claude Desktop, VS Code and others):\n"
		"  {\"command\": \"gpucmp\", \"args\": [\"mcp\"]}",
	.opts = mcp_opts,
};
