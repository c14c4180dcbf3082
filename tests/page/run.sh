#!/bin/sh
# The page (docs/TEAM.md, "The page"): `gpucmp export DIR --html` on a cache
# with price history (a catalog imported twice, five days apart) and a
# hostile import (<script> and a quote-breaking region).  Checks: the
# page's rows are `list --group-by sku --json`'s on the same cache, row for
# row and value for value (each cell's data-v, else its text); the hostile
# strings are text, never markup; nothing is fetched (no src, href, url()
# or @import); the page names the snapshot's sha256 and its signing key;
# the history and price-performance plots are drawn, with titles, units and
# the providers' names as text.  The browser side: tests/page/browser.sh.
# usage: run.sh GPUCMP
set -u
gpucmp=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-page.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$t"' EXIT INT TERM
export HOME="$t" GPUCMP_CONFIG="$t/config.yaml" GPUCMP_CACHE="$t/cache.db" GPUCMP_TODAY=2026-12-02
: >"$t/config.yaml"
chmod 600 "$t/config.yaml"
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
command -v jq >/dev/null 2>&1 || { echo "FAIL jq is needed (scripts/deps.sh test installs it)"; exit 1; }

h=$root/tests/fixtures/history
GPUCMP_NOW=2026-11-25T12:00:00Z "$gpucmp" --quiet import --force --provider lambda "$h/day1.csv" >/dev/null 2>&1
GPUCMP_NOW=2026-11-30T12:00:00Z "$gpucmp" --quiet import --force --provider lambda "$h/day2.csv" >/dev/null 2>&1
# a constructed catalog in SkyPilot's vms.csv format whose texts are markup
{
	echo 'InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice'
	echo '<script>alert(1)</script>,H100,1.0,26.0,200.0,0.05,"x""><img src=y onerror=alert(2)>",,'
	echo "a&amp;b's,H100,2.0,52.0,400.0,0.07,us-east-1,,"
} >"$t/evil.csv"
"$gpucmp" --quiet import --force --provider hyperbolic "$t/evil.csv" >/dev/null 2>"$t/err" ||
	{ bad "hostile import: $(cat "$t/err")"; }
"$gpucmp" export --gen-key "$t/team.key" >"$t/pub" 2>/dev/null
out=$t/out
if "$gpucmp" export "$out" --html --sign "$t/team.key" >"$t/stdout" 2>"$t/err"; then
	ok "export --html"
else
	bad "export --html: $(cat "$t/err")"
	exit 1
fi
page=$out/index.html
grep -q "^page $out/index.html: " "$t/stdout" && ok "says where the page is" ||
	bad "stdout: $(cat "$t/stdout")"

# --- same truth as list --group-by sku --json ---------------------------------
keys='provider sku gpu gpu_count gpu_mem_gb region region_count price_hr price_per_gpu_hr
spot_price_hr available k8s docker_custom_image docker_daemon mig mps time_slicing infiniband
rdma nvlink geo country source as_of stale'
heads=$(grep -o '<th scope=col data-k="[a-z0-9_]*"' "$page" | sed 's/.*data-k="//; s/"$//' | tr '\n' ' ')
[ "$heads" = "$(echo $keys) " ] && ok "the columns" || bad "columns: $heads"
jqkeys=$(echo $keys | sed 's/\([a-z0-9_]*\)/.\1/g; s/ /, /g')
"$gpucmp" list --group-by sku --json 2>/dev/null |
	jq -r ".[] | [$jqkeys] | map(if . == null then \"\" else tostring end) | join(\"\t\")" \
		>"$t/want"
tab=$(printf '\t')
grep '^<tr><td' "$page" |
	sed -e "s/<td[^>]*data-v=\"\([^\"]*\)\">[^<]*<\/td>/\1$tab/g" \
		-e "s/<td[^>]*>\([^<]*\)<\/td>/\1$tab/g" -e 's/^<tr>//; s/<\/tr>$//' \
		-e "s/$tab\$//" -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g' -e "s/&#39;/'/g" \
		-e 's/&amp;/\&/g' >"$t/got"
n=$(wc -l <"$t/want")
if [ "$n" -gt 100 ] && cmp -s "$t/want" "$t/got"; then
	ok "the page's $n rows are list --group-by sku --json's, in its order"
else
	bad "page rows differ from list --group-by sku --json ($n rows)"
	diff "$t/want" "$t/got" | head -5
fi
grep -q "<p id=count>$n rows (one per provider and SKU)" "$page" && ok "the row count" ||
	bad "count line: $(grep '<p id=count>' "$page")"

"$gpucmp" export "$t/out2" --html --json 2>/dev/null >"$t/json"
[ "$(jq -c '.page | [.file, .rows]' "$t/json")" = "[\"index.html\",$n]" ] &&
	ok "export --html --json: the page's file and rows" || bad "json: $(cat "$t/json")"

# --- escaping: the output door ------------------------------------------------------
grep -q '<script>alert' "$page" && bad "a <script> from the data is markup"
grep -q '<img' "$page" && bad "an <img> from the data is markup"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$page" && ok "<script> in a SKU is text" ||
	bad "the hostile SKU is missing"
grep -q 'x&quot;&gt;&lt;img src=y onerror=alert(2)&gt;' "$page" &&
	ok "a quote in a region cannot end an attribute" || bad "the hostile region is missing"
grep -q 'a&amp;amp;b&#39;s' "$page" && ok "an entity in the data stays as written" ||
	bad "a&amp;b's double-escaped wrong"
# every <script> of the page is one of its own three
[ "$(grep -c '<script' "$page")" = 3 ] && ok "three scripts, all the page's own" ||
	bad "scripts: $(grep -c '<script' "$page")"

# --- self-contained ------------------------------------------------------------------------
if grep -Eq '<[a-z]+ [^>]*(src|href)=|url\(|@import|<link' "$page"; then
	bad "the page fetches something: $(grep -Eo '<[a-z]+ [^>]*(src|href)=[^ >]*|url\([^)]*|@import[^;]*|<link[^>]*' "$page" | head -3)"
else
	ok "nothing fetched: no src, href, url() or @import"
fi

# --- names its snapshot and key ---------------------------------------------------------------
sha=$(jq -r .payload.sha256 "$out/manifest.json")
grep -q "sha256 <code>$sha</code>" "$page" && ok "names the payload's sha256" || bad "no sha256"
grep -q "<code id=key>$(cat "$t/pub")</code>" "$page" && ok "names the signing key" ||
	bad "no key (want $(cat "$t/pub"))"
grep -q "<time id=built datetime=\"$(jq -r .created_at "$out/manifest.json")\">" "$page" &&
	ok "names the snapshot's time" || bad "no created_at"

# --- plots -----------------------------------------------------------------------------------------
hist=$(sed -n '/<h2>Price history/,/<h2>Price and performance/p' "$page")
echo "$hist" | grep -q '<figcaption id="hist[0-9]*">a100-sxm-40gb: the cheapest offer&#39;s price per day' &&
	ok "a history plot per GPU, titled" || bad "no a100 history plot"
echo "$hist" | grep -q 'class=lab>lambda</text>' && ok "history lines carry their provider's name" ||
	bad "history lines unlabelled"
echo "$hist" | grep -q 'class=unit>USD/h</text>' && ok "history plots name their unit" ||
	bad "history unit"
perf=$(sed -n '/<h2>Price and performance/,/<\/section>/p' "$page")
echo "$perf" | grep -q '<figcaption id="perf[0-9]*">hopper GPUs: BF16 TFLOP/s per dollar-hour' &&
	ok "a price-performance plot per architecture, titled" || bad "no hopper scatter"
echo "$perf" | grep -q 'class=unit>TFLOP/s per \$/h</text>' && ok "scatter units" ||
	bad "scatter unit"
echo "$perf" | grep -q 'class=lab>lambda h100-sxm</text>' && ok "scatter points named" ||
	bad "scatter points unlabelled"

# --- nothing to export: no page either ------------------------------------------------------------
GPUCMP_CACHE=$t/empty.db "$gpucmp" export "$t/none" --html >/dev/null 2>&1
rc=$?
[ "$rc" = 65 ] && [ ! -e "$t/none/index.html" ] && ok "nothing to export: exit 65, no page" ||
	bad "nothing to export: exit $rc"

exit "$fail"
