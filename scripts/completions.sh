#!/bin/sh
# Regenerate the committed shell completions in completions/ from a built
# gpucmp (they are made from its command entries, the templates
# completions/*.in and its built-in catalog; the completions_drift test fails
# when they are out of date).
# usage: scripts/completions.sh [GPUCMP]      (default: build/gpucmp)
#    or: cmake --build build --target completions
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/gpucmp}
[ -x "$bin" ] || { echo "gpucmp: no binary at $bin; build first (cmake --build build)" >&2; exit 66; }
out=$root/completions
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-compl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
# a private HOME: no user configuration can change what is generated
for pair in bash:gpucmp.bash zsh:_gpucmp fish:gpucmp.fish; do
	shell=${pair%%:*} file=${pair#*:}
	HOME=$tmp XDG_CONFIG_HOME=$tmp "$bin" completion "$shell" >"$tmp/$file"
	if cmp -s "$tmp/$file" "$out/$file"; then
		echo "completions/$file: up to date"
	else
		cp "$tmp/$file" "$out/$file"
		echo "completions/$file: regenerated"
	fi
done
