#!/bin/sh
# gpucmp cron: the line it prints runs as cron would run it.  cron gives a
# job a bare environment (HOME, LOGNAME, SHELL=/bin/sh, PATH=/usr/bin:/bin),
# runs the command with /bin/sh -c, and reads an unescaped % as a line
# break (\% as %).  The test prints an entry from a shell with XDG_CACHE_HOME
# set, in a fresh HOME whose name holds a quote, a space and a % (the
# quoting), whose log folder does not exist yet, then runs the entry's
# command under env -i with cron's variables only: it must refresh the
# cache the prompt uses (vultr, from the loopback fixture server, named by
# the config file in HOME) and write the log.
# usage: cron.sh GPUCMP FIXTURED
set -u
gpucmp=$1 fixtured=$2
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/tests/lib/fixtured.sh"
t=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-cron.XXXXXX")
FIXTURED_PID=
trap '[ -n "$FIXTURED_PID" ] && kill "$FIXTURED_PID" 2>/dev/null; rm -rf "$t"' EXIT INT TERM
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

fixtured_start "$fixtured" "$src/tests/fixtures/http/vultr.routes" \
	"$src/tests/fixtures/http/vultr" "$t" || { echo "FAIL fixture server"; exit 1; }
home="$t/it's 100% home"
mkdir -p "$home/.config/gpucmp"
cat >"$home/.config/gpucmp/config.yaml" <<CFG
catalog: false
providers: [vultr]
provider:
  vultr:
    base_url: $FIXTURED_BASE
CFG
chmod 600 "$home/.config/gpucmp/config.yaml"

# at the prompt: the cache is moved by XDG_CACHE_HOME, a key is exported
env HOME="$home" XDG_CACHE_HOME="$home/xdg" GPUCMP_LAMBDA_API_KEY=secret-value-123 \
	PATH="$PATH" "$gpucmp" cron --every 15m >"$t/entry" 2>"$t/err"
rc=$?
[ "$rc" = 0 ] && ok "cron prints an entry" || { bad "cron: exit $rc"; cat "$t/err"; }
grep -q 'GPUCMP_LAMBDA_API_KEY' "$t/entry" && ok "names the key cron will not see" ||
	bad "the exported key is not named"
grep -q 'secret-value-123' "$t/entry" && bad "the key's value is printed" || ok "never its value"
[ -d "$home/xdg/gpucmp" ] && ok "the log's folder is made now" || bad "no log folder"
line=$(grep -v '^#' "$t/entry" | grep -v '^[A-Z]*=' | tail -1)
case "$line" in
"*/15 * * * *  "*) ok "schedule every 15 minutes" ;;
*) bad "schedule: $line" ;;
esac
# cron's reading of the command: five fields off, \% is %, a bare % ends it
cmd=$(printf '%s\n' "$line" | sed 's/^[^ ]* [^ ]* [^ ]* [^ ]* [^ ]* *//')
case "$cmd" in *[!\\]%*) bad "an unescaped % in the command: $cmd" ;; esac
cmd=$(printf '%s\n' "$cmd" | sed 's/\\%/%/g')
(cd / && env -i HOME="$home" LOGNAME=cron SHELL=/bin/sh PATH=/usr/bin:/bin /bin/sh -c "$cmd")
rc=$?
[ "$rc" = 0 ] && ok "the line runs under env -i (exit 0)" || bad "the line under env -i: exit $rc"
[ -f "$home/xdg/gpucmp/refresh.log" ] && ok "the log exists" || bad "no log"
n=$("$gpucmp" --cache "$home/xdg/gpucmp/cache.db" list --provider vultr --format csv \
	--columns provider --all-regions 2>/dev/null | grep -c '^vultr$')
[ "$n" -gt 0 ] && ok "the prompt's cache got $n vultr offers" ||
	bad "the job refreshed another cache (no vultr offers in the prompt's)"

# the alert form: filters quoted for the shell, stdout left to cron's mail
"$gpucmp" --cache "$t/c.db" cron --alert "--gpu h100 --region eu*" --mail ops@example.com \
	>"$t/alert" 2>"$t/err" || bad "cron --alert failed"
grep -q '^MAILTO=ops@example.com$' "$t/alert" && ok "MAILTO line" || bad "no MAILTO line"
grep -q -- "--changes --exit-on-change --gpu h100 --region 'eu\*' 2>>" "$t/alert" &&
	ok "alert filters quoted, stdout to cron" || { bad "alert line"; cat "$t/alert"; }

# refused: what cron cannot schedule, filters that are not filters, a relative log
for bad_args in "--every 7m" "--alert --json" "--alert lambda" "--log rel.log" "--mail nobody"; do
	# shellcheck disable=SC2086
	"$gpucmp" --cache "$t/c.db" cron $bad_args >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = 64 ] && [ "$(wc -l <"$t/err")" = 1 ] && [ ! -s "$t/out" ]; then
		ok "cron $bad_args: one line, exit 64"
	else
		bad "cron $bad_args: exit $rc"; cat "$t/err"
	fi
done
exit $fail
