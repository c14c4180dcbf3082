/* cmd_cron.c - gpucmp cron: a crontab entry that runs on this machine.
 *
 * cron starts a job with a bare environment (PATH=/usr/bin:/bin, HOME, no
 * XDG_* and none of the shell's variables), so a line written for a prompt
 * fails there: a binary in ~/.local/bin is not found, a cache under
 * $XDG_CACHE_HOME is another cache, a log's folder may not exist, keys
 * exported in a shell are gone.  The entry printed here names the binary
 * and the cache by absolute path, creates the log's folder now, and says
 * which of this shell's settings cron will not see.  Nothing is installed:
 * the user pastes the line into `crontab -e`. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gpucmp/buf.h"
#include "gpucmp/cache.h"
#include "gpucmp/catalog.h"
#include "gpucmp/strutil.h"

extern char **environ;
extern const struct cmd_entry cmd_refresh_entry;

#define CRON_MAX_ALERT 1024

/* s as one shell word inside a crontab line: as it is when it holds
 * nothing special, else in single quotes ('\'' for a
 * quote), and cron's % (a newline there) escaped.  -1 for a newline, which
 * no crontab line can hold. */
static int add_word(struct buf *b, const char *s)
{
	if (strchr(s, '\n') || strchr(s, '\r'))
		return -1;
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			   "_./:=@+,-") == strlen(s)) {
		buf_addstr(b, s); /* nothing the shell or cron would read otherwise */
		return 0;
	}
	buf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_addstr(b, "'\\''");
		else if (*s == '%')
			buf_addstr(b, "\\%");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
	return 0;
}

/* The schedule of --every: N minutes that divide an hour, or N hours that
 * divide a day.  -1 when cron cannot say it. */
static int schedule(const char *every, char *out, size_t size, long long *secs)
{
	*secs = str_duration(every ? every : "30m");
	long long s = *secs;
	if (s >= 60 && s < 3600 && s % 60 == 0 && 3600 % s == 0) {
		snprintf(out, size, s == 60 ? "* * * * *" : "*/%lld * * * *", s / 60);
		return 0;
	}
	if (s >= 3600 && s <= 86400 && s % 3600 == 0 && 86400 % s == 0) {
		snprintf(out, size, s == 86400 ? "0 0 * * *" : "0 */%lld * * *", s / 3600);
		return 0;
	}
	return -1;
}

/* The running binary's absolute path, a new string, or NULL. */
static char *self_path(void)
{
	char p[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", p, sizeof p - 1);
	if (n <= 0)
		return NULL;
	p[n] = '\0';
	return strdup(p);
}

/* --alert's filters, checked as refresh reads them: *argc words into
 * argv (pointing into store).  Prints the error; returns an exit code. */
static int alert_words(const char *alert, char *store, char **argv, int *argc)
{
	*argc = 0;
	if (strlen(alert) >= CRON_MAX_ALERT) {
		msg_error("--alert is longer than %d bytes", CRON_MAX_ALERT - 1);
		return EXIT_USAGE;
	}
	memcpy(store, alert, strlen(alert) + 1);
	for (char *save = NULL, *w = strtok_r(store, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (*argc >= 64) {
			msg_error("--alert has more than 64 words");
			return EXIT_USAGE;
		}
		argv[(*argc)++] = w;
	}
	struct cli_args a;
	memset(&a, 0, sizeof a);
	static const char hint[] = "--alert takes the offer filters of 'refresh --changes' (--gpu, "
				   "--gpus, --vram, --max-price, --spot, --region, --available), "
				   "as in --alert '--gpu h100 --gpus 8 --max-price 20'";
	if (!*argc) {
		msg_error("%s", hint);
		return EXIT_USAGE;
	}
	int rc = cli_parse(&cmd_refresh_entry, *argc, argv, 0, &a);
	int other = a.npos > 0;
	for (int id = 0; id < O_COUNT; id++) {
		int filter = 0;
		for (const struct opt_def *const *f = opts_offer_changes; *f; f++)
			filter |= (*f)->id == (enum opt_id)id;
		other |= a.nvalues[id] && !filter;
	}
	cli_args_release(&a);
	if (rc)
		return EXIT_USAGE;
	if (other) {
		msg_error("%s", hint);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The log's folder, made now (0700) when missing: cron's job cannot
 * append to a file in a folder that does not exist. */
static int log_folder(const char *log)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(log, '/');
	if (!slash || slash == log)
		return EXIT_OK;
	if ((size_t)(slash - log) >= sizeof dir) {
		msg_error("--log path is too long");
		return EXIT_USAGE;
	}
	memcpy(dir, log, (size_t)(slash - log));
	dir[slash - log] = '\0';
	for (char *p = dir + 1;; p++) {
		char c = *p;
		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			msg_error("cannot create the log's folder %s: %s; name another with --log",
				  dir, strerror(errno));
			return EXIT_IOERR;
		}
		*p = c;
		if (!c)
			break;
	}
	return EXIT_OK;
}

/* "# cron will not see ..." lines for this shell's settings the job loses:
 * API keys in the environment (named, never shown) and the variables that
 * move the config file. */
static void lost_settings(struct buf *b)
{
	size_t keys = 0;
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		size_t n = eq ? (size_t)(eq - *e) : strlen(*e);
		int key = n > 8 && (strncmp(*e + n - 8, "_API_KEY", 8) == 0 ||
				    strncmp(*e + n - 6, "_TOKEN", 6) == 0);
		if (!key)
			continue;
		if (!keys++)
			buf_addstr(b, "# cron will not see these keys of this shell (put them "
				      "in the config file, chmod 600, or on the line before the "
				      "command):");
		buf_printf(b, " %.*s", (int)n, *e);
	}
	if (keys)
		buf_addc(b, '\n');
}

static int entry(struct buf *b, const char *bin, const char *cache, const char *log,
		 const char *when, long long secs, char **alert, int nalert, const char *mail)
{
	char now[32];
	str_time_format(catalog_now(), now, sizeof now);
	buf_printf(b, "# gpucmp refresh, checked on this machine %s (gpucmp cron)\n", now);
	buf_printf(b, "#   binary %s (by absolute path: cron's PATH is /usr/bin:/bin)\n", bin);
	buf_printf(b, "#   cache  %s (named: cron has none of this shell's variables)\n", cache);
	buf_printf(b, "#   log    %s (its folder exists)\n", log);
	lost_settings(b);
	if (mail)
		buf_printf(b, "MAILTO=%s\n", mail);
	buf_printf(b, "%s  GPUCMP_CACHE=", when);
	int bad = add_word(b, cache);
	buf_addc(b, ' ');
	bad |= add_word(b, bin);
	/* skip a provider refreshed a little less than one period ago */
	long long a = secs > 300 ? secs - 300 : secs / 2;
	buf_printf(b, " refresh --quiet --max-age %lld%s", a % 60 ? a : a / 60, a % 60 ? "s" : "m");
	if (nalert)
		buf_addstr(b, " --changes --exit-on-change");
	for (int i = 0; i < nalert; i++) {
		buf_addc(b, ' ');
		bad |= add_word(b, alert[i]);
	}
	buf_addstr(b, nalert ? " 2>>" : " >>");
	bad |= add_word(b, log);
	buf_addstr(b, nalert ? "\n" : " 2>&1\n");
	return bad;
}

/* name in path's folder: a new string, or NULL. */
static char *beside(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) + 1 : 0;
	char *out = malloc(n + strlen(name) + 1);
	if (out) {
		memcpy(out, path, n);
		memcpy(out + n, name, strlen(name) + 1);
	}
	return out;
}

static int cmd_cron(struct cli_args *a)
{
	if (a->npos) {
		msg_error("'cron' takes no arguments; see 'gpucmp cron --help'");
		return EXIT_USAGE;
	}
	char when[32], store[CRON_MAX_ALERT], *words[64];
	long long secs;
	int nwords = 0, rc = EXIT_OK;
	if (schedule(cli_opt(a, O_EVERY), when, sizeof when, &secs) != 0) {
		msg_error("--every %s: cron can run every 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30 "
			  "minutes, or 1, 2, 3, 4, 6, 8, 12 or 24 hours", cli_opt(a, O_EVERY));
		return EXIT_USAGE;
	}
	const char *alert = cli_opt(a, O_ALERT), *mail = cli_opt(a, O_MAIL);
	if (alert && (rc = alert_words(alert, store, words, &nwords)))
		return rc;
	if (mail && (strpbrk(mail, " \t\n\r'\"%;|&$`") || !strchr(mail, '@'))) {
		msg_error("--mail '%s' is not an address like you@example.com", mail);
		return EXIT_USAGE;
	}
	char *err = NULL, *cache = cache_default_path(cli_opt(a, O_CACHE), &err);
	char *bin = self_path(), *log = NULL;
	if (!cache || !bin) {
		msg_error("%s", cache ? "cannot find this binary's path (/proc/self/exe)" : err);
		rc = cache ? EXIT_OSERR : EXIT_USAGE;
	} else if (cache[0] != '/' || (cli_opt(a, O_LOG) && cli_opt(a, O_LOG)[0] != '/')) {
		msg_error("the cache and --log must be absolute paths: cron starts in your home");
		rc = EXIT_USAGE;
	} else {
		const char *l = cli_opt(a, O_LOG);
		log = l ? strdup(l) : beside(cache, "refresh.log");
		rc = !log ? EXIT_OSERR : log_folder(log);
	}
	struct buf b;
	buf_init(&b, 0);
	if (!rc && entry(&b, bin, cache, log, when, secs, words, nwords, mail) != 0) {
		msg_error("a path holds a line break: no crontab line can name it");
		rc = EXIT_USAGE;
	}
	if (!rc && (fwrite(b.ptr, 1, b.len, stdout) != b.len || fflush(stdout) != 0)) {
		msg_error("cannot write output");
		rc = EXIT_IOERR;
	}
	buf_free(&b);
	free(err);
	free(cache);
	free(bin);
	free(log);
	return rc;
}

static const struct opt_def opt_every = {.id = O_EVERY, .name = "every", .type = OPT_STRING,
	.arg = "DURATION",
	.help = "how often: 30m (default), 1h, 6h ... (minutes that divide an hour, hours "
	"that divide a day)"};
static const struct opt_def opt_log = {.id = O_LOG, .name = "log", .type = OPT_STRING,
	.arg = "FILE", .hint = HINT_FILE,
	.help = "append the job's messages to FILE (default refresh.log beside the cache); its "
	"folder "
	"is created now"};
static const struct opt_def opt_alert = {.id = O_ALERT, .name = "alert", .type = OPT_STRING,
	.arg = "FILTERS",
	.help = "refresh's offer filters in one quoted word ('--gpu h100 --gpus 8 "
	"--max-price 20'): cron mails the table of what changed among them"};
static const struct opt_def opt_mail = {.id = O_MAIL, .name = "mail", .type = OPT_STRING,
	.arg = "ADDRESS", .help = "a MAILTO line: where cron mails what the job prints"};

static const struct opt_use cron_opts[] = {OPT_GROUP(opts_common), OPT_USE(opt_every),
	OPT_USE(opt_log), OPT_USE(opt_alert), OPT_USE(opt_mail), OPT_END};
static const struct arg_hint cron_args[] = {ARG_END};

const struct cmd_entry cmd_cron_entry = {
	.name = "cron",
	.run = cmd_cron,
	.usage = "cron [--every DURATION] [--log FILE] [--alert FILTERS] [--mail ADDRESS]",
	.summary = "Print a crontab entry for refresh that runs on this machine.",
	.detail = "The entry names this binary and the cache by absolute path (cron's PATH is "
		"/usr/bin:/bin and it has none of your shell's variables), appends to a log "
		"whose folder it creates now, and lists the API key variables of this shell "
		"that cron will not see. Paste it into 'crontab -e'. With --alert, stdout is "
		"left to cron, which mails the table of matching changes (--mail sets MAILTO).",
	.opts = cron_opts,
	.args = cron_args,
};
