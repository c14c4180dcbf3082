/* cmd_completion.c - gpucmp completion bash|zsh|fish: shell completion
 * scripts generated from the command entries (commands.c: each command's
 * options and argument hints), the field registry and the built-in catalog,
 * so a script cannot offer what the parser refuses.  Nothing here knows a
 * command.  The output is deterministic (table order, GPU names sorted) so it
 * can be committed: completions/ holds the three scripts and the
 * completions_drift test fails when they differ from what this prints.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gpucmp/adapter.h"
#include "gpucmp/buf.h"
#include "gpucmp/field.h"
#include "gpucmp/strutil.h"

static const char *const shells[] = {"bash", "zsh", "fish", NULL};

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
	struct scope scopes[32]; /* '' then every command */
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
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *w))
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

static const char bash_head[] =
	"# bash completion for gpucmp                               -*- shell-script -*-\n"
	"#\n"
	"# Generated by 'gpucmp completion bash' from gpucmp's command and option\n"
	"# tables and its built-in catalog; do not edit: run scripts/completions.sh.\n"
	"# Self-contained: works with or without the bash-completion package.\n\n";

static const char bash_body1[] =
	"# _gpucmp_command WORD: the command WORD names (exact, or a unique prefix)\n"
	"_gpucmp_command()\n"
	"{\n"
	"\tlocal c hit= n=0\n"
	"\t[[ $1 == help ]] && { echo help; return; }\n"
	"\tfor c in $_gpucmp_commands; do\n"
	"\t\t[[ $c == \"$1\" ]] && { echo \"$c\"; return; }\n"
	"\t\t[[ $c == \"$1\"* ]] && { hit=$c; n=$((n + 1)); }\n"
	"\tdone\n"
	"\t[[ $n == 1 ]] && echo \"$hit\" || echo \"$1\"\n"
	"}\n\n"
	"# _gpucmp_words WORDS PREFIX CUR: reply PREFIX+WORD for each WORD starting with CUR\n"
	"_gpucmp_words()\n"
	"{\n"
	"\tlocal w\n"
	"\tCOMPREPLY=()\n"
	"\tfor w in $1; do\n"
	"\t\t[[ $w == \"$3\"* ]] && COMPREPLY+=(\"$2$w\")\n"
	"\tdone\n"
	"}\n\n"
	"# _gpucmp_list WORDS CUR PREFIX [SIGN]: the item after the last comma of CUR\n"
	"# (SIGN: an item may start with '-')\n"
	"_gpucmp_list()\n"
	"{\n"
	"\tlocal head=$3 item=$2\n"
	"\tif [[ $item == *,* ]]; then\n"
	"\t\thead+=${item%,*},\n"
	"\t\titem=${item##*,}\n"
	"\tfi\n"
	"\tif [[ -n ${4-} && $item == -* ]]; then\n"
	"\t\thead+=-\n"
	"\t\titem=${item#-}\n"
	"\tfi\n"
	"\t_gpucmp_words \"$1\" \"$head\" \"$item\"\n"
	"}\n\n"
	"# _gpucmp_reply KIND CUR PREFIX: complete an option's value\n"
	"_gpucmp_reply()\n"
	"{\n"
	"\tcase $1 in\n"
	"\t@file)\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\tlocal IFS=$'\\n'\n"
	"\t\tCOMPREPLY=($(compgen -f -- \"$2\"))\n"
	"\t\t[[ -n $3 ]] && COMPREPLY=(\"${COMPREPLY[@]/#/$3}\")\n"
	"\t\t;;\n"
	"\t@gpus) _gpucmp_list \"$_gpucmp_gpus\" \"$2\" \"$3\" ;;\n"
	"\t@providers) _gpucmp_list \"$_gpucmp_providers\" \"$2\" \"$3\" ;;\n"
	"\t@provider) _gpucmp_words \"$_gpucmp_providers\" \"$3\" \"$2\" ;;\n"
	"\t@fields) _gpucmp_list \"$_gpucmp_fields\" \"$2\" \"$3\" ;;\n"
	"\t@sort) _gpucmp_list \"$_gpucmp_fields\" \"$2\" \"$3\" - ;;\n"
	"\t*) _gpucmp_words \"$1\" \"$3\" \"$2\" ;;\n"
	"\tesac\n"
	"}\n\n"
	"_gpucmp()\n"
	"{\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} cword=$COMP_CWORD i=1 w cmd= valopt=\n"
	"\tlocal dd= npos=0 first= check= kind\n"
	"\tCOMPREPLY=()\n"
	"\t# bash splits --opt=value at '=' (COMP_WORDBREAKS): '--opt' '=' 'value'\n"
	"\tif [[ $cur == = && ${COMP_WORDS[cword-1]} == --* ]]; then\n"
	"\t\tvalopt=${COMP_WORDS[cword-1]} cur=\n"
	"\telif [[ $cword -ge 2 && ${COMP_WORDS[cword-1]} == = && ${COMP_WORDS[cword-2]} == --* ]]; then\n"
	"\t\tvalopt=${COMP_WORDS[cword-2]}\n"
	"\tfi\n"
	"\t# the command, and the arguments before the cursor\n"
	"\twhile [[ $i -lt $cword ]]; do\n"
	"\t\tw=${COMP_WORDS[i]}\n"
	"\t\tif [[ -z $dd && $w == --* && ${COMP_WORDS[i+1]-} == = ]]; then\n"
	"\t\t\ti=$((i + 3))\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tif [[ -z $dd && $w == -?* ]]; then\n"
	"\t\t\tif [[ $w == -- ]]; then\n"
	"\t\t\t\tdd=1\n"
	"\t\t\telif _gpucmp_value \"$cmd\" \"$w\" >/dev/null; then\n"
	"\t\t\t\t[[ $((i + 1)) == \"$cword\" ]] && valopt=$w\n"
	"\t\t\t\ti=$((i + 1))\n"
	"\t\t\tfi\n"
	"";

/* ... a line per argument hint's after_opt (bash_after_opts), then: */
static const char bash_body2[] =
	"\t\telif [[ -z $cmd ]]; then\n"
	"\t\t\tcmd=$(_gpucmp_command \"$w\")\n"
	"\t\telse\n"
	"\t\t\t[[ $npos == 0 ]] && first=$w\n"
	"\t\t\tnpos=$((npos + 1))\n"
	"\t\tfi\n"
	"\t\ti=$((i + 1))\n"
	"\tdone\n"
	"\tif [[ -n $valopt ]]; then\n"
	"\t\tkind=$(_gpucmp_value \"$cmd\" \"$valopt\") && _gpucmp_reply \"$kind\" \"$cur\" ''\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tif [[ -z $dd && $cur == --*=* ]]; then\n"
	"\t\tkind=$(_gpucmp_value \"$cmd\" \"${cur%%=*}\") &&\n"
	"\t\t\t_gpucmp_reply \"$kind\" \"${cur#*=}\" \"${cur%%=*}=\"\n"
	"\t\treturn 0\n"
	"\tfi\n"
	"\tif [[ -z $dd && $cur == -* ]]; then\n"
	"\t\t_gpucmp_words \"$(_gpucmp_options \"$cmd\")\" '' \"$cur\"\n"
	"\telif [[ -z $cmd ]]; then\n"
	"\t\t_gpucmp_words \"$_gpucmp_commands help\" '' \"$cur\"\n"
	"\telse\n"
	"\t\t_gpucmp_positional \"$cmd\" \"$npos\" \"$cur\" \"$first\" \"$check\"\n"
	"\tfi\n"
	"\treturn 0\n"
	"}\n\n"
	"complete -F _gpucmp gpucmp\n";

static void bash_value(struct gen *g, const struct opt_def *o)
{
	static const char *const kinds[] = {
		[HINT_FILE] = "@file",     [HINT_GPUS] = "@gpus",     [HINT_PROVIDERS] = "@providers",
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

static void bash_tables(struct gen *g)
{
	OUT(g, "# _gpucmp_options COMMAND: the long options of COMMAND ('' = before one)\n"
	       "_gpucmp_options()\n{\n\tcase $1 in\n");
	for (size_t s = 0; s < g->nscopes; s++) {
		const struct scope *sc = &g->scopes[s];
		OUT(g, "\t%s) echo '", sc->label);
		for (size_t i = 0; i < sc->nopts; i++)
			OUT(g, "%s--%s", i ? " " : "", sc->opts[i]->name);
		OUT(g, "' ;;\n");
	}
	OUT(g, "\tesac\n}\n\n");
	OUT(g, "# _gpucmp_value COMMAND OPTION: how OPTION's value completes (words, or\n"
	       "# @file, @gpus, @providers, @provider, @fields, @sort; '' for free text);\n"
	       "# fails when OPTION takes no value\n"
	       "_gpucmp_value()\n{\n\tcase $1 in\n");
	for (size_t s = 0; s < g->nscopes; s++) {
		const struct scope *sc = &g->scopes[s];
		OUT(g, "\t%s)\n\t\tcase $2 in\n", sc->label);
		for (size_t i = 0; i < sc->nopts; i++)
			if (sc->opts[i]->arg)
				bash_value(g, sc->opts[i]);
		OUT(g, "\t\t*) return 1 ;;\n\t\tesac ;;\n");
	}
	OUT(g, "\t*) return 1 ;;\n\tesac\n}\n\n");
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

static void bash_positional(struct gen *g)
{
	OUT(g, "# _gpucmp_positional COMMAND N CUR FIRST CHECK: argument N+1 of COMMAND\n"
	       "# (FIRST: its first argument; CHECK: --check was given)\n"
	       "_gpucmp_positional()\n{\n\tcase $1 in\n");
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++) {
		if (!plain_word(c->name) || !c->args || c->args[0].source == ARG_NONE)
			continue;
		OUT(g, "\t%s) ", c->name);
		bash_args(g, c->args);
	}
	OUT(g, "\tesac\n\treturn 0\n}\n\n");
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

static void gen_bash(struct gen *g)
{
	OUT(g, "%s", bash_head);
	OUT(g, "_gpucmp_commands='");
	out_words(g, &g->commands, " ");
	OUT(g, "'\n_gpucmp_providers='");
	out_words(g, &g->providers, " ");
	OUT(g, "'\n_gpucmp_adapters='");
	out_words(g, &g->adapters, " ");
	OUT(g, "'\n_gpucmp_gpus='");
	out_words(g, &g->gpus, " ");
	OUT(g, "'\n_gpucmp_fields='");
	out_words(g, &g->fields, " ");
	OUT(g, "'\n\n");
	bash_tables(g);
	bash_positional(g);
	OUT(g, "%s", bash_body1);
	bash_after_opts(g);
	OUT(g, "%s", bash_body2);
}

/* ---- zsh ----------------------------------------------------------------- */

/* The _arguments action completing option o's value. */
static void zsh_action(struct gen *g, const struct opt_def *o)
{
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

static const char zsh_head[] =
	"#compdef gpucmp\n"
	"# zsh completion for gpucmp\n"
	"#\n"
	"# Generated by 'gpucmp completion zsh' from gpucmp's command and option\n"
	"# tables and its built-in catalog; do not edit: run scripts/completions.sh.\n"
	"# Install as _gpucmp in a directory of $fpath, before compinit runs.\n\n"
	"# an offer field, maybe with '-' (descending), for --sort\n"
	"_gpucmp_sort_key()\n"
	"{\n"
	"\tcompset -P '-'\n"
	"\tcompadd \"$@\" -a fields\n"
	"}\n\n"
	"_gpucmp()\n"
	"{\n"
	"\tlocal curcontext=$curcontext state state_descr line cmd ret=1\n"
	"\ttypeset -A opt_args\n"
	"\tlocal -a providers adapters gpus fields commands names hits\n";

static void gen_zsh(struct gen *g)
{
	OUT(g, "%s", zsh_head);
	OUT(g, "\tproviders=(");
	out_words(g, &g->providers, " ");
	OUT(g, ")\n\tadapters=(");
	out_words(g, &g->adapters, " ");
	OUT(g, ")\n\tgpus=(");
	out_words(g, &g->gpus, " ");
	OUT(g, ")\n\tfields=(");
	out_words(g, &g->fields, " ");
	OUT(g, ")\n\tcommands=(\n");
	const struct cmd_entry *c;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++) {
		if (!plain_word(c->name))
			continue;
		char item[256];
		snprintf(item, sizeof item, "%s:%s", c->name, c->summary);
		OUT(g, "\t\t");
		out_quoted(g, item, Q_POSIX);
		OUT(g, "\n");
	}
	char item[256];
	snprintf(item, sizeof item, "%s:%s", cli_help.name, cli_help.summary);
	OUT(g, "\t\t");
	out_quoted(g, item, Q_POSIX);
	OUT(g, "\n\t)\n\n");
	OUT(g, "\t_arguments -C -S");
	zsh_options(g, &g->scopes[0]);
	OUT(g, " \\\n\t\t'1: :->command' \\\n\t\t'*:: :->argument' && return 0\n\n"
	       "\tcase $state in\n"
	       "\tcommand)\n"
	       "\t\t_describe -t commands 'gpucmp command' commands && ret=0\n"
	       "\t\t;;\n"
	       "\targument)\n"
	       "\t\t# the command: its name, or a unique prefix of one\n"
	       "\t\tnames=(${commands%%%%:*})\n"
	       "\t\tif (( ${names[(Ie)$words[1]]} )); then\n"
	       "\t\t\tcmd=$words[1]\n"
	       "\t\telse\n"
	       "\t\t\thits=(${(M)${names:#help}:#${(b)words[1]}*})\n"
	       "\t\t\t(( $#hits == 1 )) && cmd=$hits[1]\n"
	       "\t\tfi\n"
	       "\t\tcurcontext=\"${curcontext%%:*:*}:gpucmp-$cmd:\"\n"
	       "\t\tcase $cmd in\n");
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++) {
		if (!plain_word(c->name))
			continue;
		const struct scope *sc = scope_of(g, c);
		OUT(g, "\t\t(%s)\n\t\t_arguments%s", c->name, sc && sc->nopts ? " -S" : "");
		zsh_options(g, sc);
		zsh_positional(g, c->args);
		OUT(g, " && ret=0\n\t\t;;\n");
	}
	OUT(g, "\t\tesac\n"
	       "\t\t;;\n"
	       "\tesac\n"
	       "\treturn ret\n"
	       "}\n\n"
	       "if [[ $funcstack[1] == _gpucmp ]]; then\n"
	       "\t_gpucmp \"$@\"\n"
	       "else\n"
	       "\tcompdef _gpucmp gpucmp\n"
	       "fi\n");
}

/* ---- fish ---------------------------------------------------------------- */

static const char fish_head[] =
	"# fish completion for gpucmp\n"
	"#\n"
	"# Generated by 'gpucmp completion fish' from gpucmp's command and option\n"
	"# tables and its built-in catalog; do not edit: run scripts/completions.sh.\n\n";

static const char fish_funcs[] =
	"# The command on the line and the arguments after it, one a line; nothing\n"
	"# (and failure) before the command.  A unique prefix names a command.\n"
	"function __gpucmp_words\n"
	"    set -l words (commandline -opc)\n"
	"    set -e words[1]\n"
	"    set -l cmd\n"
	"    set -l skip 0\n"
	"    set -l dd 0\n"
	"    for w in $words\n"
	"        if test $skip = 1\n"
	"            set skip 0\n"
	"        else if test $dd = 0; and test \"$w\" = --\n"
	"            set dd 1\n"
	"        else if test $dd = 0; and string match -q -- '-?*' $w\n"
	"            __gpucmp_valued \"$cmd\" $w; and set skip 1\n"
	"        else if test -z \"$cmd\"\n"
	"            set cmd (__gpucmp_command $w)\n"
	"            echo $cmd\n"
	"        else\n"
	"            echo $w\n"
	"        end\n"
	"    end\n"
	"    test -n \"$cmd\"\n"
	"end\n\n"
	"# Is the command one of the arguments ('' = none yet)?\n"
	"function __gpucmp_using\n"
	"    set -l w (__gpucmp_words)\n"
	"    contains -- \"$w[1]\" $argv\n"
	"end\n\n"
	"# Are there N arguments after the command (and is the first FIRST)?\n"
	"function __gpucmp_nargs\n"
	"    set -l w (__gpucmp_words)\n"
	"    test (count $w) -eq (math $argv[1] + 1); or return 1\n"
	"    test (count $argv) -lt 2; or test \"$w[2]\" = $argv[2]\n"
	"end\n\n"
	"# A comma list: complete the item after the last comma (with `-`: the\n"
	"# item may start with '-')\n"
	"function __gpucmp_list\n"
	"    set -l tok (string replace -r -- '^--[^=]*=' '' (commandline -ct))\n"
	"    set -l head (string replace -r -- '[^,]*$' '' $tok)\n"
	"    if test \"$argv[1]\" = -\n"
	"        set -e argv[1]\n"
	"        string match -q -- '-*' (string replace -r -- '^.*,' '' $tok); and set head $head-\n"
	"    end\n"
	"    for w in $argv\n"
	"        echo $head$w\n"
	"    end\n"
	"end\n\n"
	"complete -c gpucmp -f\n\n";

static void fish_command_fn(struct gen *g)
{
	OUT(g, "# The command WORD names: itself, or the command it is a unique prefix of\n"
	       "function __gpucmp_command\n"
	       "    if test \"$argv[1]\" = help\n"
	       "        echo help\n"
	       "        return\n"
	       "    end\n"
	       "    set -l hits\n"
	       "    for c in ");
	out_words(g, &g->commands, " ");
	OUT(g, "\n"
	       "        if test $c = \"$argv[1]\"\n"
	       "            echo $c\n"
	       "            return\n"
	       "        end\n"
	       "        string match -q -- \"$argv[1]*\" $c; and set -a hits $c\n"
	       "    end\n"
	       "    if test (count $hits) -eq 1\n"
	       "        echo $hits\n"
	       "    else\n"
	       "        echo $argv[1]\n"
	       "    end\n"
	       "end\n\n");
}

static void fish_valued_fn(struct gen *g)
{
	OUT(g, "# Does OPTION take a value after COMMAND ('' = before the command)?\n"
	       "function __gpucmp_valued\n"
	       "    switch \"$argv[1]\"\n");
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
	OUT(g, "        case '*'\n            return 1\n    end\nend\n\n");
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

static void gen_fish(struct gen *g)
{
	OUT(g, "%s", fish_head);
	OUT(g, "set -g __gpucmp_providers ");
	out_words(g, &g->providers, " ");
	OUT(g, "\nset -g __gpucmp_gpus ");
	out_words(g, &g->gpus, " ");
	OUT(g, "\nset -g __gpucmp_fields ");
	out_words(g, &g->fields, " ");
	OUT(g, "\n\n");
	fish_command_fn(g);
	fish_valued_fn(g);
	OUT(g, "%s", fish_funcs);
	OUT(g, "# commands\n");
	const struct cmd_entry *c;
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++) {
		if (!plain_word(c->name))
			continue;
		OUT(g, "complete -c gpucmp -n '__gpucmp_using \"\"' -a %s -d ", c->name);
		out_quoted(g, c->summary, Q_FISH);
		OUT(g, "\n");
	}
	OUT(g, "\n# options, in the order of the option table\n");
	for (size_t i = 0; i < g->nopts; i++)
		fish_option(g, g->opts[i]);
	OUT(g, "\n# arguments\n");
	for (size_t i = 0; (c = arg_entry(i)) != NULL; i++)
		if (plain_word(c->name))
			fish_positional(g, c);
}

/* ---- the command --------------------------------------------------------- */

static int bad_shell(const char *name)
{
	struct suggest s;
	suggest_init(&s, name);
	for (size_t i = 0; shells[i]; i++)
		suggest_try(&s, shells[i]);
	return cli_unknown("shell", name, suggest_best(&s), "expected bash, zsh or fish");
}

static int cmd_completion(struct cli_args *a)
{
	if (a->npos != 1) {
		msg_error(a->npos ? "'completion' takes one shell name"
				  : "'completion' needs a shell: bash, zsh or fish");
		return EXIT_USAGE;
	}
	void (*gen_fn)(struct gen *) = NULL;
	if (strcmp(a->pos[0], "bash") == 0)
		gen_fn = gen_bash;
	else if (strcmp(a->pos[0], "zsh") == 0)
		gen_fn = gen_zsh;
	else if (strcmp(a->pos[0], "fish") == 0)
		gen_fn = gen_fish;
	else
		return bad_shell(a->pos[0]);

	struct cli_env env;
	memset(&env, 0, sizeof env);
	env.lock_fd = -1;
	int rc = cli_catalog_need(&env, CATALOG_GPUS | CATALOG_PROFILES);
	if (rc)
		return rc;
	struct gen g;
	memset(&g, 0, sizeof g);
	buf_init(&g.b, 0);
	if (gen_words(&g, &env.cat) != 0)
		g.st = GC_ENOMEM;
	gen_scopes(&g);
	gen_fn(&g);
	if (g.st != GC_OK || !g.b.ptr) {
		msg_error("out of memory");
		rc = EXIT_OSERR;
	} else if (fwrite(g.b.ptr, 1, g.b.len, stdout) != g.b.len || fflush(stdout) != 0) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	}
	gen_release(&g);
	cli_env_release(&env);
	return rc;
}

static const struct opt_use completion_opts[] = {
	OPT_GROUP(opts_common), {NULL, NULL}};
static const struct arg_hint completion_args[] = {
	{ARG_WORDS, 1, "shell", "bash zsh fish", NULL, NULL},
	{ARG_NONE, 0, NULL, NULL, NULL, NULL}};

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
