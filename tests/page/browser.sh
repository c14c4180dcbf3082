#!/bin/sh
# The page in a real browser: headless Chromium loads index.html from disk
# (file://, nothing served) and its DOM is read after the page's script ran
# (--dump-dom).  A view is asked for in the URL's fragment, as a person's
# link would (#q=h100,a100:8&sort=-price_hr).  Checks: with JavaScript off,
# every row in list's order and the filter form hidden; with it on, all
# rows shown; the search box's GPU grammar keeps the rows `list --gpu` keeps
# (the same provider and SKU pairs); a sort orders the rows by the column,
# unknowns last; a capability filter keeps list's rows and counts those it
# left out as unknown.  A page of more rows than it shows at first (1500
# synthetic offers, GENOFFERS): the first 1000 without JavaScript, and its
# filters reach the others.  A screenshot is kept (ARTIFACT).  Chromium
# missing is a failure, not a skip: scripts/deps.sh test installs it.
# usage: browser.sh GPUCMP GENOFFERS ARTIFACT.png
set -u
gpucmp=$1 genoffers=$2 shot=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-browser.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT INT TERM
export HOME="$t" GPUCMP_CONFIG="$t/config.yaml" GPUCMP_CACHE="$t/cache.db" GPUCMP_TODAY=2026-12-02
: >"$t/config.yaml"
chmod 600 "$t/config.yaml"
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
[ -n "$chrome" ] || { echo "FAIL no chromium: run scripts/deps.sh test (apt-get install chromium)"; exit 1; }
command -v jq >/dev/null 2>&1 || { echo "FAIL jq is needed (scripts/deps.sh test installs it)"; exit 1; }

h=$root/tests/fixtures/history
GPUCMP_NOW=2026-11-25T12:00:00Z "$gpucmp" --quiet import --force --provider lambda "$h/day1.csv" >/dev/null 2>&1
GPUCMP_NOW=2026-11-30T12:00:00Z "$gpucmp" --quiet import --force --provider lambda "$h/day2.csv" >/dev/null 2>&1
"$gpucmp" --quiet export "$t/out" --html >/dev/null 2>"$t/err" || { bad "export: $(cat "$t/err")"; exit 1; }
url="file://$t/out/index.html"
mkdir -p "$(dirname "$shot")"
"$genoffers" "$t/big.db" 1500 >/dev/null 2>&1 || { bad "genoffers"; exit 1; }
GPUCMP_CACHE=$t/big.db "$gpucmp" --quiet export "$t/big" --html >/dev/null 2>"$t/err" ||
	{ bad "export of 1500 offers: $(cat "$t/err")"; exit 1; }
big="file://$t/big/index.html"
n=$(GPUCMP_CACHE=$t/big.db "$gpucmp" list --group-by sku --json 2>/dev/null | jq length)

# browse OUT FRAGMENT [FLAGS]: the DOM after the page's script, one row a
# line, without the rows the <template> keeps aside (never shown)
browse() {
	out=$1 frag=$2 page=${PAGE:-$url}
	shift 2
	# --no-sandbox: the suite may run as root (a container, CI)
	"$chrome" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
		--user-data-dir="$t/profile" "$@" --dump-dom "$page$frag" 2>"$t/chrome.err" |
		sed 's/<tr/\n<tr/g' | sed '/<template/,/<\/template>/d' >"$out"
	grep -q '<table id="t">' "$out" || { bad "chromium showed no page: $(tail -3 "$t/chrome.err")"; exit 1; }
}
# cells OUT: each shown row's values (data-v, else the text), tab-separated
cells() {
	grep '^<tr><td' "$1" | awk '{
		n = split($0, c, "<td")
		line = ""
		for (i = 2; i <= n; i++) {
			v = c[i]
			if (match(v, /data-v="[^"]*"/))
				v = substr(v, RSTART + 8, RLENGTH - 9)
			else {
				sub(/^[^>]*>/, "", v)
				sub(/<.*/, "", v)
			}
			gsub(/&amp;/, "\\&", v)
			line = line (i > 2 ? "\t" : "") v
		}
		print line
	}'
}
rows() { cells "$1" | cut -f1,2; }
cli() { "$gpucmp" list --group-by sku --json "$@" 2>/dev/null | jq -r '.[] | "\(.provider)\t\(.sku)"'; }

# --- JavaScript off: the plain table ----------------------------------------------
# (Chromium's own switch for it, --blink-settings=scriptEnabled=false, also
# stops --dump-dom: the page is loaded with its scripts taken out instead,
# which is what a browser with JavaScript off runs of it)
awk '/<script/ { skip = 1 } !skip { print } /<\/script>/ { skip = 0 }' "$t/big/index.html" \
	>"$t/big/nojs.html"
PAGE="file://$t/big/nojs.html" browse "$t/off" ""
rows "$t/off" >"$t/off.rows"
GPUCMP_CACHE=$t/big.db cli | head -n 1000 >"$t/want.rows"
if [ "$n" -ge 1500 ] && cmp -s "$t/off.rows" "$t/want.rows"; then
	ok "JavaScript off: the first 1000 of $n rows, in list's order"
else
	bad "JavaScript off: $(wc -l <"$t/off.rows") rows, want list's first 1000 of $n"
fi
grep -q '<p id="more" class="note">Without JavaScript this page shows the cheapest 1000 rows' \
	"$t/off" && ok "JavaScript off: says the others need it" || bad "no note on the rows not shown"
grep -q '<form id="f" hidden=""' "$t/off" && ok "JavaScript off: no dead filter form" ||
	bad "the filter form shows without JavaScript"

# --- the search box's GPU grammar and a sort --------------------------------------------
PAGE=$big browse "$t/q" "#q=h100,a100:8&sort=-price_hr"
rows "$t/q" | sort >"$t/q.rows"
GPUCMP_CACHE=$t/big.db cli --gpu h100,a100:8 | sort >"$t/q.want"
k=$(wc -l <"$t/q.want")
if [ "$k" -gt 5 ] && [ "$k" -lt 1000 ] && cmp -s "$t/q.rows" "$t/q.want"; then
	ok "q=h100,a100:8 keeps list --gpu h100,a100:8's $k rows"
else
	bad "q=h100,a100:8: $(wc -l <"$t/q.rows") rows, want $k"
	diff "$t/q.rows" "$t/q.want" | head -5
fi
col=$(grep -o '<th [^>]*data-k="[a-z0-9_]*"' "$t/q" | grep -n 'data-k="price_hr"' | cut -d: -f1)
cells "$t/q" | cut -f"$col" >"$t/prices"
if [ "$(grep -c . "$t/prices")" = "$k" ] && sort -g -r -c "$t/prices" 2>/dev/null; then
	ok "sort=-price_hr: the rows by price, dearest first"
else
	bad "sort=-price_hr: $(tr '\n' ' ' <"$t/prices")"
fi
[ "$(grep -c '^<tr' "$t/q")" = "$((k + 1))" ] && grep -q "<p id=\"shown\"[^>]*>$k of $n rows match" "$t/q" &&
	ok "$k of $n rows match, all $k in the table" ||
	bad "rows: $(grep -c '^<tr' "$t/q") in the table; $(grep -o '<p id="shown"[^<]*' "$t/q")"
grep -q 'data-load-ms="[0-9]' "$t/q" && ok "the script ran" || bad "the script did not run"
grep -q 'data-k="price_hr"[^>]*aria-sort="descending"\|aria-sort="descending"[^>]*data-k="price_hr"' "$t/q" &&
	ok "the sorted column says so (aria-sort)" || bad "no aria-sort on the sorted column"

# --- a capability filter, its unknowns counted, and the screenshot -------------------------
browse "$t/mig" "#cap=mig&sort=price_per_gpu_hr" --window-size=1400,1000 --screenshot="$shot"
rows "$t/mig" | sort >"$t/mig.rows"
cli --mig | sort >"$t/mig.want"
k=$(wc -l <"$t/mig.want")
[ "$k" -gt 0 ] && cmp -s "$t/mig.rows" "$t/mig.want" && ok "cap=mig keeps list --mig's $k rows" ||
	bad "cap=mig: $(wc -l <"$t/mig.rows") rows, want $k"
grep -q '<p id="omit"[^>]*>left out as unknown, not as no: --mig [0-9]* rows (' "$t/mig" &&
	ok "says how many rows --mig left out as unknown" || bad "no unknown count: $(grep -o '<p id="omit"[^<]*' "$t/mig")"
[ -s "$shot" ] && ok "screenshot kept: $shot" || bad "no screenshot at $shot"
exit "$fail"
