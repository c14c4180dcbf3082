#!/bin/sh
# End-to-end tests: run the built gpucmp on declarative cases and compare
# stdout, stderr and the exit code with what each case file expects.
#
# usage: run.sh GPUCMP CASES_DIR [CASE...]
#   GPUCMP_WRAPPER="valgrind ..."  run every command under a wrapper
#   GPUCMP_SAMPLE=N                without named cases, run every Nth case
#                                  (the 1st, the N+1th, ...): the valgrind
#                                  run's sample (tests/CMakeLists.txt)
#   GPUCMP_SHARD=I/K               of those, the Ith of every K (1-based):
#                                  K shards together run the sample once
#   UPDATE=1                       rewrite the expected sections from this run
#
# A case file (CASES_DIR/NAME.case):
#   # free text: what the case checks
#   args: list --gpu h100 --json        (words split by the shell; quotes allowed)
#   exit: 0
#   env: COLUMNS=100                    (any number of env: lines)
#   before: import --provider x FILE    (any number: gpucmp runs before args,
#                                        in the same cache; their stdout and
#                                        stderr come first in what is compared,
#                                        a non-zero exit is noted on stderr)
#   setup: seeded | fresh | corrupt | truncated | empty | newer-schema | foreign | unwritable
#          | fifo | dir | symlink | dangling | open-dir | config-fifo
#          | lock-symlink | lock-fifo
#          (fifo, dir: the cache path is a FIFO, a directory; symlink: a link
#          to a seeded cache elsewhere; dangling: a link to nowhere; open-dir:
#          a seeded cache in a directory anyone can write; config-fifo: a
#          seeded cache, and a FIFO where the config file goes; lock-*: a
#          seeded cache whose lock file is a link to ../victim, or a FIFO)
#   stdout: full | closed               (stdout on /dev/full, or closed)
#   config-mode: 644                    (of the config file; default 600)
#   --- config                          (optional, before stdout: the case's
#   ...config.yaml...                    config file, in $XDG_CONFIG_HOME)
#   --- stdout
#   ...expected stdout...
#   --- stderr
#   ...expected stderr...  (@CACHE@ stands for the cache path, @SRC@ for
#                           the source tree, which args can name as $SRC)
#
# Every case gets its own temporary HOME and cache; GPUCMP_TODAY pins "today"
# so ages in messages do not change from day to day.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cases=$(cd "$2" && pwd)
# the source tree, for cases that name its files (args may say $SRC/...)
SRC=$(cd "$cases/../../.." && pwd)
export SRC
shift 2
wrapper=${GPUCMP_WRAPPER:-}
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-e2e.XXXXXX")
trap 'rm -rf "$root"' EXIT INT TERM

run_bin() {
	# a hang fails its case instead of stopping the suite
	# shellcheck disable=SC2086
	timeout "${GPUCMP_CASE_TIMEOUT:-300}" $wrapper "$bin" "$@"
}

# One seeded cache, copied into each case that wants one.
template="$root/template.db"
GPUCMP_CACHE=$template GPUCMP_TODAY=2026-12-02 HOME=$root XDG_CONFIG_HOME=$root/config GPUCMP_CONFIG= \
	run_bin --quiet list --limit 0 >/dev/null 2>"$root/template.err" || {
	echo "cannot create the template cache:"; cat "$root/template.err"; exit 1; }

section() { # file name -> the lines of section `name`
	awk -v want="--- $2" '
		/^--- (stdout|stderr|config)$/ { on = ($0 == want); next }
		on { print }' "$1"
}

header() { # file key -> value of the first "key:" header line
	awk -v key="$2:" '/^--- / { exit } $1 == key { sub(/^[^:]*: ?/, ""); print; exit }' "$1"
}

pass=0
fail=0
failed=""
if [ $# -gt 0 ]; then
	list=""
	for c in "$@"; do list="$list $cases/$c.case"; done
else
	list=$(ls "$cases"/*.case | awk -v n="${GPUCMP_SAMPLE:-1}" -v shard="${GPUCMP_SHARD:-1/1}" '
		BEGIN { if (split(shard, s, "/") != 2 || s[1] !~ /^[0-9]+$/ || s[2] !~ /^[0-9]+$/ ||
			s[1] < 1 || s[1] > s[2]) exit; i = s[1] - 1; k = s[2] }
		(NR - 1) % n == 0 && ((NR - 1) / n) % k == i')
	[ -n "$list" ] || { echo "no case chosen (GPUCMP_SAMPLE=${GPUCMP_SAMPLE:-}," \
		"GPUCMP_SHARD=${GPUCMP_SHARD:-})"; exit 1; }
fi
for file in $list; do
	name=$(basename "$file" .case)
	dir="$root/$name"
	mkdir -p "$dir/home"
	cache="$dir/cache/cache.db"
	mkdir -p "$dir/cache"
	setup=$(header "$file" setup)
	case "${setup:-seeded}" in
	seeded) cp "$template" "$cache" ;;
	fresh) ;;
	corrupt) head -c 4096 /dev/urandom >"$cache" ;;
	truncated) head -c $(($(wc -c <"$template") / 2)) "$template" >"$cache" ;;
	empty) : >"$cache" ;;
	newer-schema) cp "$template" "$cache"; sqlite3 "$cache" "PRAGMA user_version = 99" ;;
	foreign) sqlite3 "$cache" "CREATE TABLE notes(x)" ;;
	unwritable) : >"$dir/plainfile"; cache="$dir/plainfile/cache.db" ;;
	fifo) mkfifo "$cache" ;;
	dir) mkdir "$cache" ;;
	symlink) mkdir "$dir/elsewhere"; cp "$template" "$dir/elsewhere/real.db"
		ln -s ../elsewhere/real.db "$cache" ;;
	dangling) ln -s ../nowhere/target.db "$cache" ;;
	open-dir) cp "$template" "$cache"; chmod 777 "$dir/cache" ;;
	lock-symlink) cp "$template" "$cache"; ln -s ../victim "$cache.lock" ;;
	lock-fifo) cp "$template" "$cache"; mkfifo "$cache.lock" ;;
	config-fifo) cp "$template" "$cache"; mkdir -p "$dir/config/gpucmp"
		mkfifo "$dir/config/gpucmp/config.yaml" ;;
	*) echo "$name: unknown setup '$setup'"; fail=$((fail + 1)); continue ;;
	esac
	# never the user's config: each case has its own (the "--- config" section)
	if grep -q '^--- config$' "$file"; then
		mkdir -p "$dir/config/gpucmp"
		section "$file" config >"$dir/config/gpucmp/config.yaml"
		mode=$(header "$file" config-mode)
		chmod "${mode:-600}" "$dir/config/gpucmp/config.yaml"
	fi
	args=$(header "$file" args)
	want_exit=$(header "$file" exit)
	envs=$(awk '/^--- / { exit } $1 == "env:" { sub(/^env: ?/, ""); print }' "$file")
	befores=$(awk '/^--- / { exit } $1 == "before:" { sub(/^before: ?/, ""); print }' "$file")
	(
		cd "$dir" || exit 1
		unset XDG_CACHE_HOME XDG_CONFIG_HOME NO_COLOR COLUMNS GPUCMP_CACHE GPUCMP_CONFIG
		export HOME="$dir/home" GPUCMP_CACHE="$cache" GPUCMP_TODAY=2026-12-02 LC_ALL=C TERM=dumb
		# hosted catalogs: never the public ones (a closed loopback port)
		export GPUCMP_SKYPILOT_CATALOG_URL=http://127.0.0.1:9/v8 GPUCMP_GPUHUNT_CATALOG_URL=http://127.0.0.1:9/v3
		export XDG_CONFIG_HOME="$dir/config"
		for e in $envs; do export "$e"; done
		: >"$dir/stdout"
		: >"$dir/stderr.raw"
		while IFS= read -r b; do
			[ -n "$b" ] || continue
			eval "set -- $b"
			run_bin "$@" >>"$dir/stdout" 2>>"$dir/stderr.raw" </dev/null ||
				echo "(before: exit $?)" >>"$dir/stderr.raw"
		done <<EOF
$befores
EOF
		eval "set -- $args"
		case $(header "$file" stdout) in
		full) run_bin "$@" >/dev/full 2>>"$dir/stderr.raw" ;;
		closed) run_bin "$@" >&- 2>>"$dir/stderr.raw" ;;
		*) run_bin "$@" >>"$dir/stdout" 2>>"$dir/stderr.raw" ;;
		esac
		echo $? >"$dir/exit"
	)
	# stable paths in messages
	sed -e "s|$cache|@CACHE@|g" -e "s|$dir|@DIR@|g" -e "s|$SRC|@SRC@|g" -e "s|corrupt-[0-9]*T[0-9]*Z|corrupt-@STAMP@|g" "$dir/stderr.raw" >"$dir/stderr"
	got_exit=$(cat "$dir/exit")
	if [ "${UPDATE:-}" = 1 ]; then
		{
			awk '/^--- / { exit } /^exit:/ { next } { print }' "$file"
			echo "exit: $got_exit"
			if grep -q '^--- config$' "$file"; then
				echo "--- config"
				section "$file" config
			fi
			echo "--- stdout"
			cat "$dir/stdout"
			echo "--- stderr"
			cat "$dir/stderr"
		} >"$file.new" && mv "$file.new" "$file"
		continue
	fi
	ok=1
	if [ "$got_exit" != "$want_exit" ]; then
		echo "FAIL $name: exit $got_exit, want $want_exit"
		ok=0
	fi
	section "$file" stdout >"$dir/want.stdout"
	section "$file" stderr >"$dir/want.stderr"
	for s in stdout stderr; do
		if ! cmp -s "$dir/want.$s" "$dir/$s"; then
			echo "FAIL $name: $s differs"
			diff -u "$dir/want.$s" "$dir/$s" | head -40
			ok=0
		fi
	done
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed="$failed $name"
	fi
done
[ "${UPDATE:-}" = 1 ] && { echo "updated the expected output of the cases"; exit 0; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] || { echo "failed:$failed"; exit 1; }
