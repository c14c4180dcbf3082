#!/bin/bash
# Benchmark: does `gpucmp refresh` fetch providers concurrently?
#
# Every live adapter gets its own loopback fixture server (its recorded
# responses, tests/fixtures/http/<id>.routes) with every response delayed by
# DELAY_MS.  A refresh of all of them is timed with --jobs 1 and with the
# default jobs.  Concurrent providers overlap, so the wall time should be
# close to the longest provider's chain of requests (requests x delay), not
# the sum over all providers.  Prints a Markdown table.
#
# usage: bench/refresh.sh          DELAY_MS=200 RUNS=3 BUILD=build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
delay=${DELAY_MS:-200}
runs=${RUNS:-3}
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target gpucmp gpucmp-fixtured -j2 >/dev/null
gpucmp="$build/gpucmp"
fixtured="$build/tests/gpucmp-fixtured"
fixtures="$root/tests/fixtures/http"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-bench-refresh.XXXXXX")
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

n=0
for routes in "$fixtures"/*.routes; do
	id=$(basename "$routes" .routes)
	[ "$id" = selftest ] && continue
	# the same routes, each answer delayed
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
	n=$((n + 1))
done
export GPUCMP_CACHE="$tmp/cache.db" HOME="$tmp"
"$gpucmp" --quiet list --limit 0 >/dev/null

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
time_refresh() { # args -> median wall seconds over RUNS
	for _ in $(seq "$runs"); do
		local t0 t1
		t0=$(date +%s.%N)
		"$gpucmp" refresh --quiet --no-catalog "$@" >/dev/null || { echo "refresh failed" >&2; exit 1; }
		t1=$(date +%s.%N)
		echo "$t1 - $t0" | bc -l
	done | median
}

# requests per provider, from one run's JSON
"$gpucmp" refresh --no-catalog --json >"$tmp/result.json"
total=$(grep -o '"requests": [0-9]*' "$tmp/result.json" | awk '{ s += $2 } END { print s }')

seq_t=$(time_refresh --jobs 1)
par_t=$(time_refresh)
d=$(echo "$delay / 1000" | bc -l)
printf '| providers | requests | delay per response | all requests one after another | --jobs 1 | default (16 providers, 4 requests each at once) | speed-up |\n'
printf '|---|---|---|---|---|---|---|\n'
printf '| %d | %d | %d ms | %.2f s | %.2f s | %.2f s | %.1fx |\n' "$n" "$total" "$delay" \
	"$(echo "$total * $d" | bc -l)" "$seq_t" "$par_t" "$(echo "$seq_t / $par_t" | bc -l)"
