/* test_cli_entries.c - the command entries (src/cli/commands.c) are whole:
 * each command documented, each option defined once and typed, in the man
 * page and in the bash completion the entries generate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"
#include "gpucmp/fileio.h"

/* A whole file (NUL-terminated, caller frees). */
static char *read_all(const char *path)
{
	char *text = NULL, *err = NULL;
	size_t len;
	assert_int_equal(file_read_all(path, 0, &text, &len, &err), GC_OK);
	free(err);
	return text;
}

/* Every entry: the commands, then help and the options before a command. */
static const struct cmd_entry *entry_at(size_t i)
{
	const struct cmd_entry *c = cli_command_at(i);
	if (c)
		return c;
	if (cli_command_at(i - 1))
		return &cli_help;
	return cli_command_at(i - 2) ? &cli_global : NULL;
}

static void test_entries_documented(void **state)
{
	(void)state;
	const struct cmd_entry *c;
	size_t n = 0;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++, n++) {
		assert_non_null(c->name);
		assert_true(c->usage && strncmp(c->usage, c->name, strlen(c->name)) == 0);
		assert_true(c->summary && *c->summary && c->summary[strlen(c->summary) - 1] == '.');
		assert_non_null(c->run);
		assert_non_null(c->opts);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(cli_command_at(k)->name, c->name);
		for (const char *const *al = c->aliases; al && *al; al++)
			for (size_t k = 0; cli_command_at(k); k++)
				assert_string_not_equal(cli_command_at(k)->name, *al);
	}
	assert_true(n >= 11);
	assert_true(n <= CLI_MAX_COMMANDS); /* the completion scripts' room */
	assert_non_null(cli_help.summary);
}

/* Typed: a flag has no metavar, an enum has its choices (a string may: the
 * words of its comma list), only a string has a completion hint; the help
 * is lowercase-style, without a full stop. */
static void check_typed(const struct opt_def *o)
{
	assert_true(o->id >= 0 && o->id < O_COUNT);
	assert_true(o->name && *o->name && o->name[0] != '-');
	assert_true((o->type == OPT_BOOL) == (o->arg == NULL));
	assert_true(o->type != OPT_ENUM || o->choices != NULL);
	assert_true(o->type != OPT_BOOL || o->choices == NULL);
	/* a number says its range (the parser checks it), in a sane order */
	assert_true(o->type != OPT_NUMBER || (o->num && o->num->min < o->num->max));
	assert_true(o->hint == HINT_NONE || o->type == OPT_STRING);
	assert_true(o->help && *o->help && o->help[strlen(o->help) - 1] != '.');
}

/* Within an entry no name, short name or id twice; across entries one
 * definition per id, and one name means the same short name and arity. */
static void test_options_defined_once(void **state)
{
	(void)state;
	const struct opt_def *by_id[O_COUNT] = {0};
	const struct opt_def *all[CLI_MAX_OPTS * 4];
	size_t nall = 0;
	const struct cmd_entry *c;
	for (size_t i = 0; (c = entry_at(i)) != NULL; i++) {
		const struct opt_def *o[CLI_MAX_OPTS];
		size_t n = cli_options_of(c, o, CLI_MAX_OPTS);
		assert_true(n < CLI_MAX_OPTS);
		for (size_t k = 0; k < n; k++) {
			check_typed(o[k]);
			for (size_t j = 0; j < k; j++) {
				assert_string_not_equal(o[j]->name, o[k]->name);
				assert_true(!o[k]->short_name ||
					    o[j]->short_name != o[k]->short_name);
				assert_int_not_equal(o[j]->id, o[k]->id);
			}
			if (by_id[o[k]->id])
				assert_ptr_equal(by_id[o[k]->id], o[k]);
			by_id[o[k]->id] = o[k];
			for (size_t j = 0; j < nall; j++)
				if (strcmp(all[j]->name, o[k]->name) == 0) {
					assert_int_equal(all[j]->short_name, o[k]->short_name);
					assert_int_equal(all[j]->arg == NULL, o[k]->arg == NULL);
				}
			if (nall < sizeof all / sizeof all[0])
				all[nall++] = o[k];
		}
	}
	for (int id = 0; id < O_COUNT; id++)
		assert_ptr_equal(cli_option((enum opt_id)id), by_id[id]);
}

/* Argument hints: words where words are offered, an after_opt that is a
 * flag of the command. */
static void test_arg_hints(void **state)
{
	(void)state;
	const struct cmd_entry *c;
	for (size_t i = 0; (c = entry_at(i)) != NULL; i++)
		for (const struct arg_hint *h = c->args; h && h->source != ARG_NONE; h++) {
			assert_non_null(h->label);
			if (h->source == ARG_WORDS || h->source == ARG_COMMANDS)
				assert_true(h->words && *h->words);
			if (!h->after_opt)
				continue;
			const struct opt_def *o[CLI_MAX_OPTS];
			size_t n = cli_options_of(c, o, CLI_MAX_OPTS), k = 0;
			while (k < n && strcmp(o[k]->name, h->after_opt) != 0)
				k++;
			assert_true(k < n && o[k]->type == OPT_BOOL);
		}
}

/* "max-age" as troff writes it: "\-\-max\-age". */
static void troff_name(const char *name, char *out, size_t n)
{
	size_t k = (size_t)snprintf(out, n, "\\-\\-");
	for (; *name && k + 3 < n; name++) {
		if (*name == '-')
			out[k++] = '\\';
		out[k++] = *name;
	}
	out[k] = '\0';
}

static void test_options_in_man_page(void **state)
{
	(void)state;
	char *page = read_all(GPUCMP_SOURCE_DIR "/docs/gpucmp.1");
	const struct cmd_entry *c;
	for (size_t i = 0; (c = entry_at(i)) != NULL; i++) {
		const struct opt_def *o[CLI_MAX_OPTS];
		size_t n = cli_options_of(c, o, CLI_MAX_OPTS);
		for (size_t k = 0; k < n; k++) {
			char want[96];
			troff_name(o[k]->name, want, sizeof want);
			if (!strstr(page, want))
				fail_msg("docs/gpucmp.1 lacks %s (gpucmp %s)", want, c->name);
		}
	}
	free(page);
}

/* What `gpucmp completion bash` prints (NUL-terminated, caller frees). */
static char *bash_script(void)
{
	char path[] = TEST_TMPDIR "/cli_entries_bash.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0 && dup2(fd, STDOUT_FILENO) >= 0);
	struct cli_args a;
	memset(&a, 0, sizeof a);
	const char *pos[] = {"bash"};
	a.pos = pos;
	a.npos = 1;
	const struct cmd_entry *c = NULL;
	for (size_t i = 0; (c = cli_command_at(i)) != NULL; i++)
		if (strcmp(c->name, "completion") == 0)
			break;
	assert_non_null(c);
	a.cmd = c;
	int rc = c->run(&a);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	assert_int_equal(rc, 0);
	char *text = read_all(path);
	unlink(path);
	return text;
}

/* Every enum option offers its choices, every command its fixed words. */
static void test_bash_completion_offers(void **state)
{
	(void)state;
	char *script = bash_script();
	const struct cmd_entry *c;
	for (size_t i = 0; (c = entry_at(i)) != NULL; i++) {
		const struct opt_def *o[CLI_MAX_OPTS];
		size_t n = cli_options_of(c, o, CLI_MAX_OPTS);
		for (size_t k = 0; k < n; k++) {
			if (!o[k]->choices)
				continue;
			char want[256];
			size_t w = (size_t)snprintf(want, sizeof want, "--%s) echo '", o[k]->name);
			for (const char *const *ch = o[k]->choices; *ch; ch++)
				w += (size_t)snprintf(want + w, sizeof want - w, "%s%s",
						      ch == o[k]->choices ? "" : " ", *ch);
			snprintf(want + w, sizeof want - w, "' ;;");
			if (!strstr(script, want))
				fail_msg("bash completion lacks \"%s\" (gpucmp %s)", want, c->name);
		}
		for (const struct arg_hint *h = c->args; h && h->source != ARG_NONE; h++)
			if (h->source == ARG_WORDS && !strstr(script, h->words))
				fail_msg("bash completion lacks '%s' (gpucmp %s)", h->words,
					 c->name);
	}
	free(script);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries_documented),
		cmocka_unit_test(test_options_defined_once),
		cmocka_unit_test(test_arg_hints),
		cmocka_unit_test(test_options_in_man_page),
		cmocka_unit_test(test_bash_completion_offers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
