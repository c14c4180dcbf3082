#!/bin/sh
# Terminal behaviour: gpucmp run on a real pseudo-terminal (util-linux
# script(1)) and through a pipe.  On a terminal tables are coloured and fit
# its width; NO_COLOR, TERM=dumb and --color never turn colour off; through
# a pipe nothing is styled or cut unless asked; JSON and CSV never carry a
# currency sign or an escape sequence; an auction floor ranks last, marked.
#
# usage: term.sh GPUCMP
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-term.XXXXXX")
trap 'rm -rf "$root"' EXIT INT TERM
export HOME="$root" GPUCMP_CACHE="$root/cache.db" GPUCMP_TODAY=2026-12-02
export XDG_CONFIG_HOME="$root/config"
unset COLUMNS NO_COLOR
export TERM=xterm
esc=$(printf '\033')
fails=0
checks=0

ok() { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }

# on_tty COLS CMD...: run CMD on a terminal COLS wide; its output (stdout and
# stderr together, as a terminal shows them) goes to $root/tty with the
# terminal's CRs removed.
on_tty() {
	cols=$1
	shift
	script -qec "stty cols $cols rows 50; $*" /dev/null </dev/null | tr -d '\r' >"$root/tty"
}

"$bin" --quiet list --limit 0 >/dev/null 2>&1 || { echo "FAIL: cannot seed the cache"; exit 1; }

# 1. a terminal: colour on, every line fits 60 cells, the footer is there
on_tty 60 "'$bin' list --limit 5"
if grep -q "$esc\[1m" "$root/tty"; then ok; else bad "no colour on a terminal"; fi
long=$(sed "s/$esc\[[0-9;]*m//g; s/…/./g; s/≥/./g" "$root/tty" | grep -v '^gpucmp: ' | awk '{ if (length($0) > 60) print }' | head -1)
[ -z "$long" ] && ok || bad "a table line wider than the 60-column terminal: $long"
# the footer in few words: one line of the terminal, the data's age in it
if grep -q '^gpucmp: 5 of [0-9]* rows; stale (2026-05-20): gpucmp refresh$' "$root/tty"; then ok
else bad "no one-line footer with the data's age on a 60-column terminal"; fi
# one row is "1 row", not "1 rows"
on_tty 80 "'$bin' list --gpu h100:8 --ib --k8s managed --region us"
if grep -q '^gpucmp: 1 row, [0-9]* offers; stale' "$root/tty"; then ok
else bad "the brief footer of a one-row answer: $(grep '^gpucmp: 1' "$root/tty")"; fi
# a wide terminal gets the whole sentence
on_tty 200 "'$bin' list --limit 5"
if grep -q '^gpucmp: 5 of [0-9]* rows (one per provider and SKU) for [0-9]* offers from [0-9]* providers; built-in snapshot prices are from 2026-05-20' "$root/tty"; then ok
else bad "no whole footer on a 200-column terminal"; fi
if grep -q '\$/H' "$root/tty" && grep -Eq ' \$[0-9]+\.[0-9]+( |$)' "$root/tty"; then ok
else bad "prices in a table carry no currency sign"; fi

# 2. the same terminal, wider: more columns appear
on_tty 200 "'$bin' list --limit 5"
wide=$(head -1 "$root/tty" | sed "s/$esc\[[0-9;]*m//g" | wc -w)
on_tty 60 "'$bin' list --limit 5"
narrow=$(head -1 "$root/tty" | sed "s/$esc\[[0-9;]*m//g" | wc -w)
[ "$wide" -gt "$narrow" ] && ok || bad "200 columns show no more fields ($wide) than 60 ($narrow)"

# 3. NO_COLOR, TERM=dumb and --color never on a terminal: no escapes
for how in "NO_COLOR=1 '$bin' list --limit 3" "TERM=dumb '$bin' list --limit 3" \
	"'$bin' list --limit 3 --color never" "NO_COLOR=1 '$bin' providers" \
	"NO_COLOR=1 '$bin' show lambda" "NO_COLOR=1 '$bin' compare aws gcp"; do
	on_tty 120 "$how"
	if grep -q "$esc" "$root/tty"; then bad "escape sequence with: $how"; else ok; fi
	[ -s "$root/tty" ] && ok || bad "no output with: $how"
done

# 4. --color always wins over NO_COLOR
on_tty 120 "NO_COLOR=1 '$bin' list --limit 3 --color always"
grep -q "$esc\[1m" "$root/tty" && ok || bad "--color always ignored when NO_COLOR is set"

# 5. a pipe: no colour, nothing cut, the footer still on stderr only
"$bin" list --limit 50 >"$root/out" 2>"$root/err"
if grep -q "$esc" "$root/out"; then bad "escape sequence in piped output"; else ok; fi
if grep -q "$(printf '\342\200\246')" "$root/out"; then bad "piped output was cut with an ellipsis"; else ok; fi
[ "$(wc -l <"$root/err")" -eq 1 ] && grep -q '^gpucmp: 50 of [0-9]* rows' "$root/err" && ok ||
	bad "piped: expected one footer line on stderr, got: $(cat "$root/err")"
grep -q '^gpucmp:' "$root/out" && bad "footer on stdout" || ok

# 6. numbers are right-aligned: every price in the $/H column ends in one place
end=$(awk 'NR == 1 { c = index($0, "$/H") + 2 } NR > 1 {
	n = split($0, f, /  +/); for (i = 1; i <= n; i++) if (f[i] ~ /^\$[0-9.]+$/) {
		p = index($0, f[i]) + length(f[i]) - 1; if (p != c) print NR ": " p " vs " c; break } }' "$root/out" | head -1)
[ -z "$end" ] && ok || bad "price column not right-aligned under its header (line $end)"

# 7. JSON and CSV: raw numbers, no currency sign, no escapes, even on a terminal
on_tty 60 "'$bin' list --limit 3 --json --quiet"
if grep -q "$esc" "$root/tty" || grep -q '"\$' "$root/tty"; then bad "JSON on a terminal styled or with a currency sign"
else ok; fi
grep -Eq '"price_hr":[0-9]' "$root/tty" && ok || bad "JSON price is not a bare number"
on_tty 60 "'$bin' list --limit 3 --format csv --quiet"
if grep -q "$esc" "$root/tty" || grep -q '\$' "$root/tty"; then bad "CSV on a terminal styled or with a currency sign"
else ok; fi
[ "$(head -1 "$root/tty" | tr ',' '\n' | wc -l)" -gt 10 ] && ok || bad "CSV on a terminal was fitted to its width"

# 8. --quiet drops the footer, not the table
on_tty 120 "'$bin' list --limit 2 --quiet"
grep -q '^gpucmp:' "$root/tty" && bad "--quiet still printed a note" || ok
[ "$(wc -l <"$root/tty")" -eq 3 ] && ok || bad "--quiet: expected a header and two rows"

# 9. a legend under a table on a terminal, saying what its words mean; not
# with --no-legend, --quiet, the config's legend: false, or through a pipe
on_tty 200 "'$bin' list --k8s managed --mig --limit 3"
last=$(grep -v '^gpucmp: ' "$root/tty" | tail -1)
case $last in
"K8S managed: provider-run; MIG managed: provider sets up"*"gpucmp help values") ok ;;
*) bad "no legend of K8S and MIG under the table: $last" ;;
esac
on_tty 200 "'$bin' list --k8s managed --mig --limit 3 --no-legend"
grep -q 'gpucmp help values' "$root/tty" && bad "--no-legend still printed a legend" || ok
on_tty 200 "'$bin' --quiet list --k8s managed --mig --limit 3"
grep -q 'gpucmp help values' "$root/tty" && bad "--quiet still printed a legend" || ok
mkdir -p "$root/config/gpucmp"
echo 'legend: false' >"$root/config/gpucmp/config.yaml"
on_tty 200 "'$bin' list --k8s managed --mig --limit 3"
grep -q 'gpucmp help values' "$root/tty" && bad "legend: false still printed a legend" || ok
rm "$root/config/gpucmp/config.yaml"
grep -q 'gpucmp help values' "$root/out" && bad "a legend in piped output" || ok
on_tty 200 "'$bin' providers"
grep -q '^K8S managed: provider-run, both: either.*IB some: some types.*gpucmp help values$' \
	"$root/tty" && ok || bad "no legend of K8S and IB under providers: $(tail -1 "$root/tty")"
on_tty 200 "'$bin' providers --no-legend"
grep -q 'gpucmp help values' "$root/tty" && bad "providers --no-legend printed a legend" || ok
on_tty 40 "'$bin' list --k8s managed --mig --limit 3"
long=$(grep -v '^gpucmp: ' "$root/tty" | sed "s/$esc\[[0-9;]*m//g; s/…/./g" | awk 'length($0) > 40' | head -1)
[ -z "$long" ] && ok || bad "a line wider than the 40-column terminal: $long"

# 10. issue 24's table at 80 and 160 columns: what gpucmp is for first
plain() { sed "s/$esc\[[0-9;]*m//g; s/…/./g; s/≥/./g" "$root/tty"; }
on_tty 80 "'$bin' list --limit 5"
hdr=$(plain | head -1)
for col in GPUS '\$/H' K8S MIG IB; do
	echo "$hdr" | grep -Eq "(^| )$col( |\$)" && ok || bad "80 columns: no $col in: $hdr"
done
on_tty 160 "'$bin' list --limit 5"
hdr=$(plain | head -1)
for col in REGION '\$/GPU/H' K8S MIG IB; do
	echo "$hdr" | grep -Eq "(^| )$col( |\$)" && ok || bad "160 columns: no $col in: $hdr"
done
# a sort key is on screen, at 80 too
on_tty 80 "'$bin' list --gpu h100 --sort vcpus --limit 3"
plain | head -1 | grep -q 'VCPUS' && ok || bad "80 columns: --sort vcpus shows no VCPUS"
# a column asked for keeps at least its header's width and the row one line
on_tty 80 "'$bin' list --columns provider,sku,gpu,region,k8s,mig,infiniband,rdma,nvlink --limit 3"
long=$(plain | grep -v '^gpucmp: ' | awk 'length($0) > 80' | head -1)
[ -z "$long" ] && ok || bad "80 columns: a line of asked columns wider than the terminal: $long"
plain | head -1 | grep -q 'NVLINK' && ok || bad "80 columns: an asked column cut below its header"
# every note is one line of the terminal, the unknown note too
on_tty 80 "'$bin' list --ib --limit 3"
long=$(plain | grep '^gpucmp: ' | awk 'length($0) > 80' | head -1)
[ -z "$long" ] && ok || bad "80 columns: a note wider than the terminal: $long"
grep -q '^gpucmp: left out as unknown: --ib [0-9]*; --include-unknown keeps them$' "$root/tty" && ok ||
	bad "80 columns: no one-line unknown note: $(grep 'unknown' "$root/tty")"
on_tty 160 "'$bin' list --ib --k8s managed --mig --region eu --limit 3"
grep -q '^gpucmp: left out as unknown, not as no: --mig [0-9]* offers (nebius' "$root/tty" && ok ||
	bad "160 columns: no whole unknown note: $(grep 'unknown' "$root/tty")"

# 11. an auction floor is not a price to rent at: never the first row of a
# price order, marked with ≥, the legend says what that is; 80 and 160 columns
for cols in 80 160; do
	on_tty $cols "'$bin' list --gpu h100 --gpus 8 --group-by provider"
	sed "s/$esc\[[0-9;]*m//g" "$root/tty" >"$root/plain"
	case $(sed -n 2p "$root/plain") in
	mithril*) bad "Mithril's auction floor is the first row at $cols columns" ;;
	*) ok ;;
	esac
	grep -q '^mithril .* ≥\$8\.00' "$root/plain" && ok ||
		bad "no ≥ before Mithril's floor at $cols columns: $(grep '^mithril' "$root/plain")"
	[ "$(grep -v '^gpucmp: ' "$root/plain" | tail -2 | head -1 | cut -c1-7)" = mithril ] && ok ||
		bad "the floor is not the last row at $cols columns"
	grep -q '≥: auction floor' "$root/plain" && ok || bad "no legend of ≥ at $cols columns"
done

echo "term: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
