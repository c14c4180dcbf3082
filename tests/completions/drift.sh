#!/bin/sh
# The committed completions/ scripts are what `gpucmp completion SHELL`
# prints now: a new command, option, choice, provider or GPU changes the
# generated script, and this test fails until the files are regenerated.
# usage: drift.sh GPUCMP SRCDIR
set -u
bin=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-drift.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
for pair in bash:gpucmp.bash zsh:_gpucmp fish:gpucmp.fish; do
	shell=${pair%%:*} file=${pair#*:}
	if ! HOME=$tmp XDG_CONFIG_HOME=$tmp "$bin" completion "$shell" >"$tmp/$file"; then
		echo "FAIL gpucmp completion $shell exited non-zero"
		fail=1
	elif ! cmp -s "$src/completions/$file" "$tmp/$file"; then
		echo "FAIL completions/$file differs from 'gpucmp completion $shell':"
		diff -u "$src/completions/$file" "$tmp/$file" | head -30
		fail=1
	fi
done
if [ $fail -ne 0 ]; then
	echo "regenerate them: scripts/completions.sh BUILD/gpucmp (or: cmake --build BUILD --target completions)"
	exit 1
fi
echo "completions/: bash, zsh and fish scripts match the binary's tables"
