#!/bin/sh
# Docs checked against the data: every figure README.md and docs/ quote
# about the built-in data is recomputed here, so a change to the data that
# leaves a document behind fails the suite.
#   - README's first example is what that command prints (on a terminal
#     200 columns wide, on a fresh cache, on the tests' day);
#   - the provider count in README, PROFILES.md and TEAM.md is the number of
#     providers/*.yaml;
#   - SNAPSHOT.md's offers per provider and as-of dates are data/snapshot.csv's;
#   - the first run's message (offers and list prices) is what README quotes;
#   - RECOMMEND.md's worked cases (each ``` block opening with
#     "$ gpucmp recommend") are what those commands print.
# usage: docs.sh GPUCMP
#   UPDATE=1 docs.sh GPUCMP  rewrites the provider counts and RECOMMEND.md's
#   cases from what the data and the binary say (read the diff), as a new
#   provider profile needs (HACKING.md, "Add a provider")
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-docs.XXXXXX")
trap 'rm -rf "$t"' EXIT INT TERM
export HOME="$t" GPUCMP_CACHE="$t/cache.db" GPUCMP_TODAY=2026-12-02 XDG_CONFIG_HOME="$t/config"
unset COLUMNS NO_COLOR
export TERM=xterm
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# the first run, as README quotes it
"$bin" list --limit 1 >/dev/null 2>"$t/first"
first=$(sed -n 's/^gpucmp: created cache .* from the built-in snapshot of \([0-9-]*\) (\([0-9]*\) offers, [0-9]* days old) and \([0-9]*\) list prices$/\1 \2 \3/p' "$t/first")
[ -n "$first" ] || { bad "the first run's message changed: $(cat "$t/first")"; first="? ? ?"; }
set -- $first
snap_date=$1 snap_offers=$2 list_prices=$3

# 1. README's first example: the lines between the first ``` pair
sed -n '/^```$/,/^```$/p' "$src/README.md" | sed '1d;$d' | sed -n '1,/^```/p' >"$t/readme"
cmd=$(head -1 "$t/readme" | sed 's/^\$ gpucmp //')
sed 1d "$t/readme" >"$t/want"
# shellcheck disable=SC2086
script -qec "stty cols 200 rows 50; '$bin' $cmd" /dev/null </dev/null | tr -d '\r' |
	sed "s/$(printf '\033')\[[0-9;]*m//g" >"$t/got"
if cmp -s "$t/want" "$t/got"; then ok "README's example is what 'gpucmp $cmd' prints"; else
	bad "README's example differs from 'gpucmp $cmd':"; diff "$t/want" "$t/got"; fi

# 2. provider counts
n=$(ls "$src"/providers/*.yaml | wc -l)
for f in README.md:'Provider profiles\*\* for \([0-9]*\) providers' \
	docs/PROFILES.md:'What the \([0-9]*\) profiles hold' \
	docs/TEAM.md:'every laptop refreshing \([0-9]*\) providers'; do
	file=${f%%:*} re=${f#*:}
	if [ -n "${UPDATE:-}" ]; then
		pre=${re%%'\([0-9]*\)'*} post=${re#*'\([0-9]*\)'}
		sed "s/\($pre\)[0-9]*\($post\)/\1$n\2/" "$src/$file" >"$t/upd" && cat "$t/upd" >"$src/$file"
	fi
	got=$(sed -n "s/.*$re.*/\1/p" "$src/$file" | head -1)
	[ "$got" = "$n" ] && ok "$file says $n providers" ||
		bad "$file says '${got:-nothing}' providers; providers/ holds $n"
done

# 3. SNAPSHOT.md's table against data/snapshot.csv
total=0
for p in $(cut -d, -f1 "$src/data/snapshot.csv" | sed 1d | sort -u); do
	rows=$(grep -c "^$p," "$src/data/snapshot.csv")
	total=$((total + rows))
	line=$(grep "^| $p |" "$src/docs/SNAPSHOT.md" | head -1)
	doc=$(printf '%s\n' "$line" | awk -F'|' '{gsub(/ /, "", $(NF-1)); print $(NF-1)}')
	[ "$doc" = "$rows" ] && ok "SNAPSHOT.md: $p $rows offers" ||
		bad "SNAPSHOT.md says $p has '${doc:-no row}', data/snapshot.csv has $rows"
	printf '%s\n' "$line" | grep -q "$snap_date" ||
		bad "SNAPSHOT.md: $p's date is not the snapshot's $snap_date"
done
[ "$total" = "$snap_offers" ] && ok "the first run's $snap_offers offers are snapshot.csv's rows" ||
	bad "data/snapshot.csv has $total rows; the first run says $snap_offers"

# 4. the list prices the first run counts are data/list-prices.yaml's rows
rows=$(grep -c '^  - provider:' "$src/data/list-prices.yaml")
[ "$rows" = "$list_prices" ] && ok "$list_prices list prices" ||
	bad "data/list-prices.yaml has $rows rows; the first run says $list_prices"
# 5. RECOMMEND.md's worked cases, each a ``` block whose first line is the command
# (UPDATE: each block's lines after the command become what it prints now)
if [ -n "${UPDATE:-}" ]; then
	state=text
	while IFS= read -r line; do
		case $state in
		skip) [ "$line" = '```' ] || continue; state=text ;;
		open) case $line in '$ gpucmp recommend '*)
			printf '%s\n' "$line"
			# shellcheck disable=SC2086
			"$bin" -q ${line#'$ gpucmp '} 2>/dev/null
			state=skip; continue ;; esac
			state=block ;;
		block) [ "$line" = '```' ] && state=text ;;
		text) [ "$line" = '```' ] && state=open ;;
		esac
		printf '%s\n' "$line"
	done <"$src/docs/RECOMMEND.md" >"$t/rec.md" && cat "$t/rec.md" >"$src/docs/RECOMMEND.md"
fi
awk -v dir="$t" '
	/^```$/ && on { on = 0; close(f); next }
	/^```$/ { getline l; if (l ~ /^\$ gpucmp recommend /) { n++; f = dir "/rec" n;
		print l > f; on = 1 } ; next }
	on { print > f }' "$src/docs/RECOMMEND.md"
n=0
for f in "$t"/rec[0-9]*; do
	[ -e "$f" ] || { bad "RECOMMEND.md has no worked case"; break; }
	n=$((n + 1))
	cmd=$(head -1 "$f" | sed 's/^\$ gpucmp //')
	sed 1d "$f" >"$t/want"
	# shellcheck disable=SC2086
	"$bin" -q $cmd >"$t/got" 2>/dev/null
	if cmp -s "$t/want" "$t/got"; then ok "RECOMMEND.md: 'gpucmp $cmd'"; else
		bad "RECOMMEND.md's case differs from 'gpucmp $cmd':"; diff "$t/want" "$t/got"; fi
done
exit $fail
