#!/bin/bash
# Benchmark: `gpucmp import` of a SkyPilot-format vms.csv with N GPU rows
# into a fresh cache (and again, replacing them), median of RUNS.
#
# usage: bench/import.sh [N]       (default 1000000)   RUNS=3 BUILD=build
#
# The catalog is bench/gencsv.sh's: synthetic but shaped like the real
# ones, and adversarial for the per-SKU caches.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
n=${1:-1000000}
runs=${RUNS:-3}
dir=${BENCH_DIR:-$root/bench/tmp}
mkdir -p "$dir"
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target gpucmp -j2 >/dev/null
gpucmp="$build/gpucmp"
csv="$dir/import-$n.csv"
[ -s "$csv" ] || "$root/bench/gencsv.sh" "$n" >"$csv"
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
fresh=() again=()
for _ in $(seq "$runs"); do
	rm -f "$dir"/import.db*
	GPUCMP_CACHE="$dir/import.db" "$gpucmp" --quiet list --limit 0 >/dev/null
	t0=$(date +%s.%N)
	GPUCMP_CACHE="$dir/import.db" "$gpucmp" --quiet import "$csv" --provider benchcloud --new-provider >/dev/null 2>&1
	t1=$(date +%s.%N)
	GPUCMP_CACHE="$dir/import.db" "$gpucmp" --quiet import "$csv" --provider benchcloud --new-provider >/dev/null 2>&1
	t2=$(date +%s.%N)
	fresh+=("$(echo "$t1 - $t0" | bc -l)")
	again+=("$(echo "$t2 - $t1" | bc -l)")
done
check=$(sqlite3 "$dir/import.db" "PRAGMA integrity_check; SELECT count(*) FROM offer WHERE provider = 'benchcloud'" | tr '\n' ' ')
f=$(printf '%s\n' "${fresh[@]}" | median)
a=$(printf '%s\n' "${again[@]}" | median)
printf '| rows | import into a fresh cache | import again (replacing them) | rows/s (fresh) | check |\n'
printf '|---|---|---|---|---|\n'
printf '| %d | %.2f s | %.2f s | %.0f | %s|\n' "$n" "$f" "$a" "$(echo "$n / $f" | bc -l)" "$check"
