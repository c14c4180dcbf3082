#!/bin/bash
# Benchmark: does the hosted catalog tier of `gpucmp refresh` fetch its
# providers concurrently?
#
# One loopback fixture server plays both catalogs (SkyPilot files from
# tests/fixtures/catalogs, a gpuhunt zip built here), every response delayed
# by DELAY_MS.  Refreshed: every provider the tier takes when no key is set
# and no key-less live adapter outranks it (aws cudo daytona gcp hyperbolic
# hyperstack jarvislabs lambda lium mithril nebius primeintellect seeweb
# shadeform spheron yotta verda: 17 of the 21 SkyPilot folders the mapping
# covers; azure, oci, runpod and vast have key-less live APIs, which win).  Clouds without a fixture file are served another
# cloud's file (timing only).  verda's SkyPilot file answers 404, so it
# takes the longest chain: SkyPilot, then gpuhunt's version, then its zip,
# three delays one after another.  Concurrent providers overlap, so the wall
# time should be about three delays, not the sum over all requests.
# Then every provider that has a source at all: the live adapters against
# their recorded fixtures (tests/fixtures/http/<id>.routes, one delayed
# server each, a fake key set so that the live API wins) plus the providers
# only a catalog covers, from the same catalog server, in one refresh.
# Prints a Markdown table; a ratio, never a test assertion.
#
# usage: bench/catalog.sh          DELAY_MS=200 RUNS=5 BUILD=build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
delay=${DELAY_MS:-200}
runs=${RUNS:-5}
cmake -S "$root" -B "$build" -DGPUCMP_TESTS=ON >/dev/null
cmake --build "$build" --target gpucmp gpucmp-fixtured gpucmp-mkzip -j2 >/dev/null
gpucmp="$build/gpucmp"
fixtured="$build/tests/gpucmp-fixtured"
cat="$root/tests/fixtures/catalogs"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-bench-catalog.XXXXXX")
pid=""
pids=()
cleanup() { kill $pid "${pids[@]}" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

providers="aws cudo daytona gcp hyperbolic hyperstack jarvislabs lambda lium mithril nebius primeintellect
seeweb shadeform spheron yotta verda"
mkdir -p "$tmp/root/gh/verda/20261130-3" "$tmp/root/gh/cloudrift/20261201-2"
"$build/tests/gpucmp-mkzip" "$tmp/root/gh/cloudrift/20261201-2/catalog.zip" cloudrift.csv \
	"$cat/gpuhunt/cloudrift.csv"
"$build/tests/gpucmp-mkzip" "$tmp/root/gh/verda/20261130-3/catalog.zip" verda.csv "$cat/gpuhunt/verda.csv"
{
	for folder in ${providers% verda}; do
		src=$folder
		[ -f "$cat/skypilot/$src/vms.csv" ] || src=lambda
		cp "$cat/skypilot/$src/vms.csv" "$tmp/root/$folder.csv"
		echo "GET /v8/$folder/vms.csv file=$folder.csv type=text/plain delay_ms=$delay"
	done
	echo "GET /v8/verda/vms.csv status=404 body=none delay_ms=$delay"
	echo "GET /v3/verda/version body=20261130-3 type=text/plain delay_ms=$delay"
	echo "GET /v3/verda/20261130-3/catalog.zip file=gh/verda/20261130-3/catalog.zip type=application/zip delay_ms=$delay"
	echo "GET /v3/cloudrift/version body=20261201-2 type=text/plain delay_ms=$delay"
	echo "GET /v3/cloudrift/20261201-2/catalog.zip file=gh/cloudrift/20261201-2/catalog.zip type=application/zip delay_ms=$delay"
} >"$tmp/routes"
"$fixtured" --routes "$tmp/routes" --root "$tmp/root" --port-file "$tmp/port" 2>/dev/null &
pid=$!
while [ ! -s "$tmp/port" ]; do sleep 0.02; done
base="http://127.0.0.1:$(cat "$tmp/port")"
for v in $(env | sed -n 's/^\(GPUCMP_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export GPUCMP_SKYPILOT_CATALOG_URL="$base/v8" GPUCMP_GPUHUNT_CATALOG_URL="$base/v3"
export GPUCMP_CACHE="$tmp/cache.db" HOME="$tmp" XDG_CONFIG_HOME="$tmp/config"
"$gpucmp" --quiet list --limit 0 >/dev/null

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
time_refresh() { # args -> median wall seconds over RUNS
	for _ in $(seq "$runs"); do
		local t0 t1
		t0=$(date +%s.%N)
		# --force: the fixture files are smaller than the snapshot's rows
		# (the plausible-answer rule); --max-age is not given: all refetched
		"$gpucmp" refresh --quiet --force "$@" $providers >/dev/null ||
			{ echo "refresh failed" >&2; exit 1; }
		t1=$(date +%s.%N)
		echo "$t1 - $t0" | bc -l
	done | median
}

# $providers is split on purpose (one argument each)
# shellcheck disable=SC2086
"$gpucmp" refresh --force --json $providers >"$tmp/result.json"
n=$(grep -c '"result": "updated"' "$tmp/result.json")
total=$(grep -o '"requests": [0-9]*' "$tmp/result.json" | awk '{ s += $2 } END { print s }')
seq_t=$(time_refresh --jobs 1)
par_t=$(time_refresh)
d=$(echo "$delay / 1000" | bc -l)
printf '| providers (catalog tier) | requests | delay per response | --jobs 1 | default jobs | default / delay | speed-up |\n'
printf '|---|---|---|---|---|---|---|\n'
printf '| %d | %d | %d ms | %.2f s | %.2f s | %.1f | %.1fx |\n' "$n" "$total" "$delay" \
	"$seq_t" "$par_t" "$(echo "$par_t / $d" | bc -l)" "$(echo "$seq_t / $par_t" | bc -l)"

# --- every provider with a source: live adapters (keys set) + catalog-only
fixtures="$root/tests/fixtures/http"
live=0
for routes in "$fixtures"/*.routes; do
	id=$(basename "$routes" .routes)
	[ "$id" = selftest ] && continue
	awk -v d="$delay" '/^[A-Z]+ / { print $0 " delay_ms=" d; next } { print }' "$routes" >"$tmp/$id.routes"
	"$fixtured" --routes "$tmp/$id.routes" --root "$fixtures/$id" --port-file "$tmp/$id.port" 2>/dev/null &
	pids+=($!)
	while [ ! -s "$tmp/$id.port" ]; do sleep 0.02; done
	up=$(echo "$id" | tr 'a-z-' 'A-Z_')
	export "GPUCMP_${up}_BASE_URL=http://127.0.0.1:$(cat "$tmp/$id.port")"
	case $id in
	gcp) export GPUCMP_GCP_API_KEY=fixture-key ;;
	verda) export GPUCMP_VERDA_API_KEY=bench-id:bench-secret ;;
	*) export "GPUCMP_${up}_API_KEY=bench-key" ;;
	esac
	live=$((live + 1))
done
providers="" # no IDs: every provider with a live adapter or a catalog
"$gpucmp" refresh --force --json >"$tmp/all.json" || { echo "refresh failed" >&2; exit 1; }
n_all=$(grep -c '"result": "updated"' "$tmp/all.json")
n_cat=$(grep -c '"tier": "skypilot"\|"tier": "gpuhunt"' "$tmp/all.json")
total_all=$(grep -o '"requests": [0-9]*' "$tmp/all.json" | awk '{ s += $2 } END { print s }')
all_seq=$(time_refresh --jobs 1)
all_par=$(time_refresh)
printf '\n| providers (%d live + %d catalog) | requests | delay per response | --jobs 1 | default jobs | default / delay | speed-up |\n' \
	"$((n_all - n_cat))" "$n_cat"
printf '|---|---|---|---|---|---|---|\n'
printf '| %d | %d | %d ms | %.2f s | %.2f s | %.1f | %.1fx |\n' "$n_all" "$total_all" "$delay" \
	"$all_seq" "$all_par" "$(echo "$all_par / $d" | bc -l)" "$(echo "$all_seq / $all_par" | bc -l)"
[ "$n_all" = "$((live + n_cat))" ] || echo "note: $n_all providers updated, $live live servers" >&2
