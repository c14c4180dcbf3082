/* cmd_completion.c - gpucmp completion bash|zsh|fish: shell completion
 * scripts made from the command entries (commands.c: each command's options
 * and argument hints), the field registry and the built-in catalog, so a
 * script cannot offer what the parser refuses.  Nothing here knows a
 * command: each shell's fixed code is a template (completions/NAME.in, embedded)
 * whose @@markers@@ this fills.  The output is deterministic (table order,
 * GPU names sorted) so it can be committed: completions/ holds the three
 * scripts and the completions_drift test fails when they differ from what
 * this prints.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/adapter.h"
#include "gpucmp/buf.h"
#include "gpucmp/embedded.h"
#include "gpucmp/field.h"
#include "gpucmp/strutil.h"

/* A list of borrowed words. */
struct words {
	const char **v;
	size_t n;
};

/* A place options are given: before the command (label '') or after one. */
struct scope {
	const char *label; /* its case label */
	const struct opt_def *opts[CLI_MAX_OPTS];
	size_t nopts;
};

struct gen {
	struct buf b;
	enum gc_status st; /* first failure of an append */
	struct words providers, adapters, gpus, fields, commands; /* commands: the table's */
	struct scope scopes[CLI_MAX_COMMANDS + 1]; /* '' then every command */
	size_t nscopes;
	const struct opt_def *opts[CLI_MAX_OPTS * 2]; /* every option once, in scope order */
	size_t nopts;
};

#define OUT(g, ...)                                                   \
	do {                                                          \
		if ((g)->st == GC_OK)                                 \
			(g)->st = buf_printf(&(g)->b, __VA_ARGS__);  \
	} while (0)

/* Every generated word is spliced into shell code unquoted: allow only
 * characters no shell gives a meaning to. */
static int plain_word(const char *w)
{
	if (!*w)
		return 0;
	for (; *w; w++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *w))
			return 0;
	return 1;
}

static int add_word(struct words *w, const char *s)
{
	if (!plain_word(s))
		return 0;
	const char **v = realloc(w->v, (w->n + 1) * sizeof *v);
	if (!v)
		return -1;
	v[w->n++] = s;
	w->v = v;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* GPU ids and families, sorted, each once. */
static int gpu_words(const struct gpu_table *t, struct words *w)
{
	for (size_t i = 0; i < gpu_table_count(t); i++) {
		const struct gpu_model *m = gpu_table_at(t, i);
		if (add_word(w, m->id) || add_word(w, m->family))
			return -1;
	}
	if (w->n)
		qsort(w->v, w->n, sizeof *w->v, cmp_str);
	size_t k = 0;
	for (size_t i = 0; i < w->n; i++)
		if (k == 0 || strcmp(w->v[k - 1], w->v[i]) != 0)
			w->v[k++] = w->v[i];
	w->n = k;
	return 0;
}

/* Fill the word lists; the catalog's profiles and GPUs must be loaded. */
static int gen_words(struct gen *g, const struct catalog *cat)
{
	for (size_t i = 0; i < cat->profiles.n; i++)
		if (add_word(&g->providers, cat->profiles.items[i]->id))
			return -1;
	for (size_t i = 0; i < adapter_count; i++)
		if (add_word(&g->adapters, adapters[i]->id))
			return -1;
	for (size_t i = 0; i < offer_field_count; i++)
		if (add_word(&g->fields, offer_fields[i].key))
			return -1;
	const struct cmd_entry *c;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++)
		if (add_word(&g->commands, c->name))
			return -1;
	return gpu_words(cat->gpus, &g->gpus);
}

static int has_opt(const struct scope *sc, const struct opt_def *o)
{
	for (size_t i = 0; i < sc->nopts; i++)
		if (sc->opts[i] == o)
			return 1;
	return 0;
}

/* The scopes, and every option once in the order the scopes first list it. */
static void gen_scopes(struct gen *g)
{
	const size_t max = sizeof g->scopes / sizeof g->scopes[0];
	const struct cmd_entry *c = &cli_global;
	for (size_t i = 0; c && g->nscopes < max; c = cli_command_at(i++)) {
		if (!plain_word(c->name))
			continue;
		struct scope *sc = &g->scopes[g->nscopes++];
		sc->label = c == &cli_global ? "''" : c->name;
		sc->nopts = cli_options_of(c, sc->opts, CLI_MAX_OPTS);
	}
	const size_t omax = sizeof g->opts / sizeof g->opts[0];
	for (size_t s = 0; s < g->nscopes; s++)
		for (size_t i = 0; i < g->scopes[s].nopts; i++) {
			const struct opt_def *o = g->scopes[s].opts[i];
			size_t k = 0;
			while (k < g->nopts && g->opts[k] != o)
				k++;
			if (k == g->nopts && g->nopts < omax)
				g->opts[g->nopts++] = o;
		}
}

/* The entries whose arguments complete: the commands, then `help`. */
static const struct cmd_entry *arg_entry(size_t i)
{
	const struct cmd_entry *c = cli_command_at(i);
	if (c)
		return c;
	return cli_command_at(i - 1) ? &cli_help : NULL;
}

static void gen_release(struct gen *g)
{
	buf_free(&g->b);
	free(g->providers.v);
	free(g->adapters.v);
	free(g->gpus.v);
	free(g->fields.v);
	free(g->commands.v);
}

/* The words separated by `sep`. */
static void out_words(struct gen *g, const struct words *w, const char *sep)
{
	for (size_t i = 0; i < w->n; i++)
		OUT(g, "%s%s", i ? sep : "", w->v[i]);
}

static void out_choices(struct gen *g, const char *const *c, const char *sep)
{
	for (size_t i = 0; c[i]; i++)
		OUT(g, "%s%s", i ? sep : "", c[i]);
}

/* How text is escaped inside single quotes: bash and zsh (Q_ZSH_DESC: also
 * [ ] : for an _arguments description), or fish (which also treats \). */
enum quote_style { Q_POSIX, Q_ZSH_DESC, Q_FISH };

static void out_escaped(struct gen *g, const char *text, enum quote_style qs)
{
	for (const char *p = text; *p; p++) {
		if (*p == '\'')
			OUT(g, qs == Q_FISH ? "\\'" : "'\\''");
		else if (*p == '\\')
			OUT(g, qs == Q_POSIX ? "\\" : "\\\\");
		else if (qs == Q_ZSH_DESC && strchr("[]:", *p))
			OUT(g, "\\%c", *p);
		else
			OUT(g, "%c", *p);
	}
}

static void out_quoted(struct gen *g, const char *text, enum quote_style qs)
{
	OUT(g, "'");
	out_escaped(g, text, qs);
	OUT(g, "'");
}

/* ---- bash ---------------------------------------------------------------- */

static void bash_value(struct gen *g, const struct opt_def *o)
{
	static const char *const kinds[] = {
		[HINT_FILE] = "@file", [HINT_GPUS] = "@gpus", [HINT_PROVIDERS] = "@providers",
		[HINT_PROVIDER] = "@provider", [HINT_FIELDS] = "@fields", [HINT_SORT] = "@sort"};
	if (o->short_name)
		OUT(g, "\t\t-%c|", o->short_name);
	else
		OUT(g, "\t\t");
	OUT(g, "--%s) echo ", o->name);
	if (o->choices) {
		OUT(g, "'");
		out_choices(g, o->choices, " ");
		OUT(g, "'");
	} else if (o->hint == HINT_NONE) {
		OUT(g, "''");
	} else {
		OUT(g, "%s", kinds[o->hint]);
	}
	OUT(g, " ;;\n");
}

/* The case arms of _gpucmp_options: the long options of each scope. */
static void bash_options(struct gen *g)
{
	for (size_t s = 0; s < g->nscopes; s++) {
		const struct scope *sc = &g->scopes[s];
		OUT(g, "\t%s) echo '", sc->label);
		for (size_t i = 0; i < sc->nopts; i++)
			OUT(g, "%s--%s", i ? " " : "", sc->opts[i]->name);
		OUT(g, "' ;;\n");
	}
}

/* The case arms of _gpucmp_value: how the value of each option completes. */
static void bash_values(struct gen *g)
{
	for (size_t s = 0; s < g->nscopes; s++) {
		const struct scope *sc = &g->scopes[s];
		OUT(g, "\t%s)\n\t\tcase $2 in\n", sc->label);
		for (size_t i = 0; i < sc->nopts; i++)
			if (sc->opts[i]->arg)
				bash_value(g, sc->opts[i]);
		OUT(g, "\t\t*) return 1 ;;\n\t\tesac ;;\n");
	}
}

/* The words an argument hint offers, as one shell word. */
static void bash_words(struct gen *g, const struct arg_hint *h)
{
	switch (h->source) {
	case ARG_PROVIDERS: OUT(g, "\"$_gpucmp_providers\""); break;
	case ARG_ADAPTERS: OUT(g, "\"$_gpucmp_adapters\""); break;
	case ARG_COMMANDS: OUT(g, "\"$_gpucmp_commands %s\"", h->words); break;
	default: OUT(g, "'%s'", h->words); break;
	}
}

static void bash_action(struct gen *g, const struct arg_hint *h)
{
	if (h->source == ARG_FILES) {
		OUT(g, "_gpucmp_reply @file \"$3\" ''");
		return;
	}
	OUT(g, "_gpucmp_words ");
	bash_words(g, h);
	OUT(g, " '' \"$3\"");
}

/* When the hint applies: "$2 == 0 && ${4-} == clear". */
static void bash_cond(struct gen *g, const struct arg_hint *h)
{
	const char *and = "";
	if (h->pos) {
		OUT(g, "$2 == %d", h->pos - 1);
		and = " && ";
	}
	if (h->after_word) {
		OUT(g, "%s${4-} == %s", and, h->after_word);
		and = " && ";
	}
	if (h->after_opt)
		OUT(g, "%s-n ${5-}", and);
}

static int has_cond(const struct arg_hint *h)
{
	return h->pos || h->after_word || h->after_opt;
}

static void bash_args(struct gen *g, const struct arg_hint *args)
{
	if (args[1].source == ARG_NONE) {
		if (has_cond(&args[0])) {
			OUT(g, "[[ ");
			bash_cond(g, &args[0]);
			OUT(g, " ]] && ");
		}
		bash_action(g, &args[0]);
		OUT(g, " ;;\n");
		return;
	}
	OUT(g, "\n");
	for (const struct arg_hint *h = args; h->source != ARG_NONE; h++) {
		if (has_cond(h)) {
			OUT(g, "\t\t%s [[ ", h == args ? "if" : "elif");
			bash_cond(g, h);
			OUT(g, " ]]; then\n");
		} else {
			OUT(g, "\t\telse\n");
		}
		OUT(g, "\t\t\t");
		bash_action(g, h);
		OUT(g, "\n");
	}
	OUT(g, "\t\tfi\n\t\t;;\n");
}

/* The case arms of _gpucmp_positional: each command's arguments. */
static void bash_positional(struct gen *g)
{
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++) {
		if (!plain_word(c->name) || !c->args || c->args[0].source == ARG_NONE)
			continue;
		OUT(g, "\t%s) ", c->name);
		bash_args(g, c->args);
	}
}

/* CHECK is set once a flag an argument hint waits for was given. */
static void bash_after_opts(struct gen *g)
{
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++)
		for (const struct arg_hint *h = c->args; h && h->source != ARG_NONE; h++)
			if (h->after_opt)
				OUT(g, "\t\t\t[[ $w == --%s ]] && check=1\n", h->after_opt);
}

/* ---- zsh ----------------------------------------------------------------- */

/* The _arguments action completing option o's value. */
static void zsh_action(struct gen *g, const struct opt_def *o)
{
	if (o->choices && o->type == OPT_STRING) { /* a comma list of them */
		OUT(g, "_sequence compadd - ");
		out_choices(g, o->choices, " ");
		return;
	}
	if (o->choices) {
		OUT(g, "(");
		out_choices(g, o->choices, " ");
		OUT(g, ")");
		return;
	}
	switch (o->hint) {
	case HINT_FILE: OUT(g, "_files"); break;
	case HINT_GPUS: OUT(g, "_sequence compadd - $gpus"); break;
	case HINT_PROVIDERS: OUT(g, "_sequence compadd - $providers"); break;
	case HINT_PROVIDER: OUT(g, "compadd -a providers"); break;
	case HINT_FIELDS: OUT(g, "_sequence compadd - $fields"); break;
	case HINT_SORT: OUT(g, "_sequence _gpucmp_sort_key"); break;
	case HINT_NONE: OUT(g, " "); break;
	}
}

/* One _arguments spec: `flag` is "-x" or "--name", `excl` the exclusion
 * list (or ""). */
static void zsh_spec(struct gen *g, const struct opt_def *o, const char *flag, const char *excl)
{
	OUT(g, " \\\n\t\t'%s%s%s[", excl, flag, o->arg ? (flag[1] == '-' ? "=" : "+") : "");
	out_escaped(g, o->help, Q_ZSH_DESC);
	OUT(g, "]");
	if (o->arg) {
		OUT(g, ":");
		out_escaped(g, o->arg, Q_ZSH_DESC);
		OUT(g, ":");
		zsh_action(g, o);
	}
	OUT(g, "'");
}

static void zsh_options(struct gen *g, const struct scope *sc)
{
	for (size_t i = 0; sc && i < sc->nopts; i++) {
		const struct opt_def *o = sc->opts[i];
		char flag[64], excl[80] = "";
		if (o->short_name) {
			snprintf(excl, sizeof excl, "(-%c --%s)", o->short_name, o->name);
			snprintf(flag, sizeof flag, "-%c", o->short_name);
			zsh_spec(g, o, flag, excl);
		}
		snprintf(flag, sizeof flag, "--%s", o->name);
		zsh_spec(g, o, flag, excl);
	}
}

static void zsh_positional(struct gen *g, const struct arg_hint *args)
{
	static const char *const actions[] = {
		[ARG_PROVIDERS] = "compadd -a providers", [ARG_ADAPTERS] = "compadd -a adapters",
		[ARG_FILES] = "_files"};
	for (const struct arg_hint *h = args; h && h->source != ARG_NONE; h++) {
		OUT(g, " \\\n\t\t'");
		if (h->pos)
			OUT(g, "%d:%s:", h->pos, h->label);
		else
			OUT(g, "*:%s:", h->label);
		if (h->source == ARG_WORDS || h->source == ARG_COMMANDS) {
			OUT(g, "(");
			if (h->source == ARG_COMMANDS) {
				out_words(g, &g->commands, " ");
				OUT(g, " ");
			}
			OUT(g, "%s)", h->words);
		} else {
			OUT(g, "%s", actions[h->source]);
		}
		OUT(g, "'");
	}
}

/* The scope of command c (NULL: none, as for help). */
static const struct scope *scope_of(const struct gen *g, const struct cmd_entry *c)
{
	for (size_t s = 1; s < g->nscopes; s++)
		if (strcmp(g->scopes[s].label, c->name) == 0)
			return &g->scopes[s];
	return NULL;
}

/* The items of the commands array: "name:summary". */
static void zsh_commands(struct gen *g)
{
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++) {
		if (!plain_word(c->name))
			continue;
		char item[256];
		snprintf(item, sizeof item, "%s:%s", c->name, c->summary);
		OUT(g, "\t\t");
		out_quoted(g, item, Q_POSIX);
		OUT(g, "\n");
	}
}

static void zsh_global_options(struct gen *g)
{
	zsh_options(g, &g->scopes[0]);
}

/* The case arms for each command: its options and arguments. */
static void zsh_arguments(struct gen *g)
{
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++) {
		if (!plain_word(c->name))
			continue;
		const struct scope *sc = scope_of(g, c);
		OUT(g, "\t\t(%s)\n\t\t_arguments%s", c->name, sc && sc->nopts ? " -S" : "");
		zsh_options(g, sc);
		zsh_positional(g, c->args);
		OUT(g, " && ret=0\n\t\t;;\n");
	}
}

/* ---- fish ---------------------------------------------------------------- */

/* The cases of __gpucmp_valued: the options of each scope that take a value. */
static void fish_valued(struct gen *g)
{
	for (size_t s = 0; s < g->nscopes; s++) {
		const struct scope *sc = &g->scopes[s];
		OUT(g, "        case %s\n            contains -- $argv[2]", sc->label);
		for (size_t i = 0; i < sc->nopts; i++) {
			const struct opt_def *o = sc->opts[i];
			if (!o->arg)
				continue;
			if (o->short_name)
				OUT(g, " -%c", o->short_name);
			OUT(g, " --%s", o->name);
		}
		OUT(g, "\n");
	}
}

/* The condition of option o: the scopes that take it. */
static void fish_condition(struct gen *g, const struct opt_def *o)
{
	OUT(g, " -n '__gpucmp_using");
	for (size_t s = 0; s < g->nscopes; s++)
		if (has_opt(&g->scopes[s], o))
			OUT(g, " %s", s == 0 ? "\"\"" : g->scopes[s].label);
	OUT(g, "'");
}

static void fish_option(struct gen *g, const struct opt_def *o)
{
	static const char *const lists[] = {
		[HINT_GPUS] = "$__gpucmp_gpus", [HINT_PROVIDERS] = "$__gpucmp_providers",
		[HINT_FIELDS] = "$__gpucmp_fields", [HINT_SORT] = "- $__gpucmp_fields"};
	OUT(g, "complete -c gpucmp");
	fish_condition(g, o);
	if (o->short_name)
		OUT(g, " -s %c", o->short_name);
	OUT(g, " -l %s", o->name);
	if (o->choices) {
		OUT(g, " -x -a '");
		out_choices(g, o->choices, " ");
		OUT(g, "'");
	} else if (o->arg && o->hint == HINT_FILE) {
		OUT(g, " -r -F");
	} else if (o->arg && o->hint == HINT_PROVIDER) {
		OUT(g, " -x -a '");
		out_words(g, &g->providers, " ");
		OUT(g, "'");
	} else if (o->arg && o->hint != HINT_NONE) {
		OUT(g, " -x -a '(__gpucmp_list %s)'", lists[o->hint]);
	} else if (o->arg) {
		OUT(g, " -x");
	}
	OUT(g, " -d ");
	out_quoted(g, o->help, Q_FISH);
	OUT(g, "\n");
}

/* The fish condition of an argument hint after "__gpucmp_using CMD". */
static void fish_cond(struct gen *g, const struct arg_hint *h)
{
	if (h->pos)
		OUT(g, "; and __gpucmp_nargs %d%s%s", h->pos - 1, h->after_word ? " " : "",
		    h->after_word ? h->after_word : "");
	if (h->after_opt)
		OUT(g, "; and __fish_contains_opt %s", h->after_opt);
}

static void fish_positional(struct gen *g, const struct cmd_entry *c)
{
	for (const struct arg_hint *h = c->args; h && h->source != ARG_NONE; h++) {
		OUT(g, "complete -c gpucmp -n '__gpucmp_using %s", c->name);
		fish_cond(g, h);
		OUT(g, "'");
		if (h->source == ARG_FILES) {
			OUT(g, " -F\n");
			continue;
		}
		OUT(g, " -a '");
		if (h->source == ARG_PROVIDERS || h->source == ARG_ADAPTERS)
			out_words(g, h->source == ARG_ADAPTERS ? &g->adapters : &g->providers, " ");
		if (h->source == ARG_COMMANDS) {
			out_words(g, &g->commands, " ");
			OUT(g, " ");
		}
		if (h->words && h->source != ARG_PROVIDERS && h->source != ARG_ADAPTERS)
			OUT(g, "%s", h->words);
		OUT(g, "'\n");
	}
}

static void fish_commands(struct gen *g)
{
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++) {
		if (!plain_word(c->name))
			continue;
		OUT(g, "complete -c gpucmp -n '__gpucmp_using \"\"' -a %s -d ", c->name);
		out_quoted(g, c->summary, Q_FISH);
		OUT(g, "\n");
	}
}

static void fish_options(struct gen *g)
{
	for (size_t i = 0; i < g->nopts; i++)
		fish_option(g, g->opts[i]);
}

static void fish_arguments(struct gen *g)
{
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++)
		if (plain_word(c->name))
			fish_positional(g, c);
}

/* ---- the templates ------------------------------------------------------- */

/* What fills a @@name@@ marker of a template: fn, or the word list at
 * offset `words` of struct gen, space-separated. */
struct section {
	const char *name;
	void (*fn)(struct gen *g);
	size_t words;
};

#define WORDS(list) {#list, NULL, offsetof(struct gen, list)}
#define WORD_SECTIONS WORDS(commands), WORDS(providers), WORDS(adapters), WORDS(gpus), WORDS(fields)

static const struct section bash_sections[] = {
	WORD_SECTIONS, {"options", bash_options, 0}, {"values", bash_values, 0},
	{"arguments", bash_positional, 0}, {"after_opts", bash_after_opts, 0}, {NULL, NULL, 0}};
static const struct section zsh_sections[] = {
	WORD_SECTIONS, {"commands_described", zsh_commands, 0},
	{"global_options", zsh_global_options, 0}, {"arguments", zsh_arguments, 0},
	{NULL, NULL, 0}};
static const struct section fish_sections[] = {
	WORD_SECTIONS, {"valued", fish_valued, 0}, {"commands_described", fish_commands, 0},
	{"options", fish_options, 0}, {"arguments", fish_arguments, 0}, {NULL, NULL, 0}};

/* Fill the marker at `m` ("@@name@@..."); returns the text after it, or
 * NULL for an unknown marker. */
static const char *fill(struct gen *g, const char *m, const struct section *secs)
{
	const char *name = m + 2, *end = strstr(name, "@@");
	if (!end)
		return NULL;
	for (const struct section *s = secs; s->name; s++)
		if (strlen(s->name) == (size_t)(end - name) &&
		    strncmp(s->name, name, (size_t)(end - name)) == 0) {
			const char *base = (const char *)g;
			if (s->fn)
				s->fn(g);
			else
				out_words(g, (const struct words *)(base + s->words), " ");
			return end + 2;
		}
	return NULL;
}

/* The template with each marker filled.  A marker alone on its line
 * replaces the line; a line starting "@@#" is the template's own comment. */
static void expand(struct gen *g, const char *tpl, const struct section *secs)
{
	const char *p = tpl;
	while (*p && g->st == GC_OK) {
		int bol = p == tpl || p[-1] == '\n';
		if (bol && strncmp(p, "@@#", 3) == 0) {
			p += strcspn(p, "\n");
			p += *p == '\n';
			continue;
		}
		const char *m = strstr(p, "@@");
		if (!m) {
			OUT(g, "%s", p);
			break;
		}
		OUT(g, "%.*s", (int)(m - p), p);
		int alone = m == tpl || m[-1] == '\n';
		p = fill(g, m, secs);
		if (!p) {
			g->st = GC_EDATA;
			break;
		}
		if (alone && *p == '\n')
			p++;
	}
}

/* ---- the command --------------------------------------------------------- */

/* Each shell's template (completions/, embedded) and what fills its markers. */
static const struct shell {
	const char *name, *tpl;
	const struct section *secs;
} shells[] = {
	{"bash", "completions/gpucmp.bash.in", bash_sections},
	{"zsh", "completions/_gpucmp.in", zsh_sections},
	{"fish", "completions/gpucmp.fish.in", fish_sections},
};
enum { NSHELLS = sizeof shells / sizeof shells[0] };

static int bad_shell(const char *name)
{
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; i < NSHELLS; i++)
		suggest_try(&s, shells[i].name);
	return cli_unknown("shell", name, suggest_best(&s), "expected bash, zsh or fish");
}

/* Print the script of shell `sh`; returns an exit code. */
static int generate(const struct shell *sh, const struct catalog *cat)
{
	char *err = NULL;
	const struct embedded_file *tpl = embedded_require(sh->tpl, &err);
	if (!tpl) {
		msg_status(GC_EDATA, err, NULL);
		free(err);
		return EXIT_SOFTWARE;
	}
	struct gen g;
	memset(&g, 0, sizeof g);
	buf_init(&g.b, 0);
	if (gen_words(&g, cat) != 0)
		g.st = GC_ENOMEM;
	gen_scopes(&g);
	expand(&g, (const char *)tpl->data, sh->secs);
	int rc = EXIT_OK;
	if (g.st == GC_EDATA) {
		msg_error("bad marker in %s", sh->tpl);
		rc = EXIT_SOFTWARE;
	} else if (g.st != GC_OK || !g.b.ptr) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
	} else if (fwrite(g.b.ptr, 1, g.b.len, stdout) != g.b.len || fflush(stdout) != 0) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	}
	gen_release(&g);
	return rc;
}

static int cmd_completion(struct cli_args *a)
{
	if (a->npos != 1) {
		msg_error(a->npos ? "'completion' takes one shell name"
				  : "'completion' needs a shell: bash, zsh or fish");
		return EXIT_USAGE;
	}
	size_t i = 0;
	while (i < NSHELLS && strcmp(a->pos[0], shells[i].name) != 0)
		i++;
	if (i == NSHELLS)
		return bad_shell(a->pos[0]);
	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.lock_fd = -1;
	int rc = cli_catalog_need(&env, CATALOG_GPUS | CATALOG_PROFILES);
	if (!rc)
		rc = generate(&shells[i], &env.cat);
	cli_env_release(&env);
	return rc;
}

static const struct opt_use completion_opts[] = {
	OPT_GROUP(opts_common), OPT_END};
static const struct arg_hint completion_args[] = {
	{ARG_WORDS, 1, "shell", "bash zsh fish", NULL, NULL},
	ARG_END};

const struct cmd_entry cmd_completion_entry = {
	.name = "completion",
	.run = cmd_completion,
	.usage = "completion bash|zsh|fish",
	.summary = "Print the shell completion script for bash, zsh or fish.",
	.detail =
		"The script completes commands, options, their values, provider ids and GPU\n"
		"names; it is generated from gpucmp's own tables. 'cmake --install' puts the\n"
		"scripts where each shell looks: share/bash-completion/completions,\n"
		"share/zsh/site-functions, share/fish/vendor_completions.d.\n\n"
		"examples:\n"
		"  source <(gpucmp completion bash)\n"
		"  gpucmp completion zsh > ~/.zfunc/_gpucmp   (a directory in $fpath)\n"
		"  gpucmp completion fish > ~/.config/fish/completions/gpucmp.fish",
	.opts = completion_opts,
	.args = completion_args,
};
