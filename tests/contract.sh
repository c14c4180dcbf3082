#!/bin/sh
# Output contract: every documented field exists, every JSON output matches
# its schema in docs/, for every provider and every snapshot offer.
# usage: contract.sh GPUCMP SCHEMACHECK SOURCE_DIR
set -eu
bin=$1 check=$2 src=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-contract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
export GPUCMP_CACHE="$tmp/cache.db" HOME="$tmp" GPUCMP_TODAY=2026-12-02
# never the user's config file (its keys would send refresh to the real APIs)
unset GPUCMP_CONFIG
export XDG_CONFIG_HOME="$tmp/config"
# a refresh without a key falls back to the hosted catalogs: never the
# real ones from a test (port 9 on loopback refuses at once)
export GPUCMP_SKYPILOT_CATALOG_URL=http://127.0.0.1:9/v8 GPUCMP_GPUHUNT_CATALOG_URL=http://127.0.0.1:9/v3
fail=0
# 1. the registry and docs/OUTPUT.md and the schema agree
#    (help fields: the offer fields, a blank line, then a group's members)
for key in $("$bin" help fields | awk 'NR > 3 && !NF { exit } NR > 3 { print $1 }'); do
	grep -q "^| \`$key\` |" "$src/docs/OUTPUT.md" || { echo "docs/OUTPUT.md lacks field '$key'"; fail=1; }
	grep -q "\"$key\":" "$src/docs/offer.schema.json" || { echo "offer.schema.json lacks '$key'"; fail=1; }
	grep -q "\"$key\":" "$src/docs/group.schema.json" || { echo "group.schema.json lacks '$key'"; fail=1; }
done
for key in $("$bin" help fields | awk '/^Fields a group adds/ { g = 1; next } g && NF { print $1 }'); do
	grep -q "^| \`$key\` |" "$src/docs/OUTPUT.md" || { echo "docs/OUTPUT.md lacks group member '$key'"; fail=1; }
	grep -q "\"$key\":" "$src/docs/group.schema.json" || { echo "group.schema.json lacks '$key'"; fail=1; }
done
# 1b. every grouping, as JSON and NDJSON, matches the group schema
for by in sku provider gpu region; do
	"$bin" --quiet list --group-by $by --json >"$tmp/group.json"
	"$check" --array "$src/docs/group.schema.json" <"$tmp/group.json" >/dev/null || { echo "group-by $by"; fail=1; }
done
"$bin" --quiet list --group-by gpu --spot --format ndjson >"$tmp/group.ndjson"
"$check" --lines "$src/docs/group.schema.json" <"$tmp/group.ndjson" || fail=1
# 2. every snapshot offer, as JSON and NDJSON, matches the offer schema
"$bin" --quiet list --json >"$tmp/all.json"
"$check" --array "$src/docs/offer.schema.json" <"$tmp/all.json" || fail=1
"$bin" --quiet list --format ndjson --spot >"$tmp/spot.ndjson"
"$check" --lines "$src/docs/offer.schema.json" <"$tmp/spot.ndjson" || fail=1
# 3. every provider's sheet matches the show schema
for id in $("$bin" --quiet providers --format csv | awk -F, 'NR > 1 { print $1 }'); do
	"$bin" show "$id" --json >"$tmp/show.json"
	"$check" "$src/docs/show.schema.json" <"$tmp/show.json" >/dev/null || { echo "show $id"; fail=1; }
done
# 4. the JSON of providers and gpus parses
"$bin" --quiet providers --json | "$check" --array "$src/docs/provider-summary.schema.json" || fail=1
# 5. compare of every provider at once (12 at most per call), cache status, refresh results
ids=$("$bin" --quiet providers --format csv | awk -F, 'NR > 1 { print $1 }')
set -- $ids
while [ $# -ge 2 ]; do
	chunk="" k=0
	while [ $# -gt 0 ] && [ $k -lt 12 ]; do chunk="$chunk $1"; shift; k=$((k + 1)); done
	[ $k -ge 2 ] || chunk="$chunk aws"
	# shellcheck disable=SC2086
	"$bin" compare $chunk --json | "$check" "$src/docs/compare.schema.json" >/dev/null || { echo "compare$chunk"; fail=1; }
done
"$bin" --quiet cache status --json | "$check" --array "$src/docs/cache-status.schema.json" || fail=1
# (only loopback: no key, then a closed port; tests never reach the network)
"$bin" --quiet refresh lambda --json | "$check" --array "$src/docs/refresh-result.schema.json" || fail=1
GPUCMP_LAMBDA_API_KEY=k GPUCMP_LAMBDA_BASE_URL=http://127.0.0.1:1 "$bin" --quiet refresh lambda --retries 0 --json 2>/dev/null |
	"$check" --array "$src/docs/refresh-result.schema.json" || fail=1
# 5b. team snapshots: an export of an imported provider, its manifest, a pull and a 304-less re-pull
"$bin" --quiet import "$src/tests/fixtures/skypilot/lambda/vms.csv" --provider lambda --force >/dev/null
"$bin" --quiet export "$tmp/team" --json | "$check" "$src/docs/export-result.schema.json" >/dev/null ||
	{ echo "export"; fail=1; }
"$check" "$src/docs/team-manifest.schema.json" <"$tmp/team/manifest.json" >/dev/null || { echo "manifest"; fail=1; }
"$bin" --quiet refresh --from "$tmp/team" --json | "$check" "$src/docs/pull-result.schema.json" >/dev/null ||
	{ echo "pull"; fail=1; }
# 6. recommend, every workload (one and four nodes for training)
for w in "inference" "training" "training --nodes 4" "batch" "notebook"; do
	# shellcheck disable=SC2086
	"$bin" --quiet recommend --workload $w --json | "$check" "$src/docs/recommend.schema.json" >/dev/null ||
		{ echo "recommend $w"; fail=1; }
done
"$bin" --quiet recommend --workload training --hours 10 --budget 300 --json |
	"$check" "$src/docs/recommend.schema.json" >/dev/null || { echo "recommend budget"; fail=1; }
# 7. the price history (docs/HISTORY.md): two imports of different data
h="$src/tests/fixtures/history"
"$bin" --quiet import --force --provider lambda "$h/day1.csv" >/dev/null
"$bin" --quiet import --force --provider lambda "$h/day2.csv" >/dev/null
"$bin" changes --json >"$tmp/changes.json"
grep -q '"change"' "$tmp/changes.json" || { echo "changes found none"; fail=1; }
"$check" --array "$src/docs/changes.schema.json" <"$tmp/changes.json" || fail=1
"$bin" history --days 3 --json | "$check" --array "$src/docs/history-day.schema.json" || fail=1
"$bin" history lambda gpu_8x_a100 --json |
	"$check" --array "$src/docs/history-event.schema.json" || fail=1
if [ $fail -eq 0 ]; then echo "contract: 1 passed, 0 failed"; else echo "contract: 0 passed, 1 failed"; fi
exit $fail
