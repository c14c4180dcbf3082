#!/bin/bash
# Benchmark: `gpucmp import` of a SkyPilot-format vms.csv with N GPU rows
# into a fresh cache (and again, replacing them), median of RUNS.
#
# usage: bench/import.sh [N]       (default 1000000)   RUNS=3 BUILD=build
#        BASE=path/to/gpucmp  (another build, run alternately with this one)
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
# BASE=path/to/another/gpucmp: that build too, alternating with this one
# run by run (a shared machine's load falls on both alike).
builds=("$gpucmp")
[ -n "${BASE:-}" ] && builds+=("$BASE")
declare -A fresh again size
for _ in $(seq "$runs"); do
	for g in "${builds[@]}"; do
		rm -f "$dir"/import.db*
		GPUCMP_CACHE="$dir/import.db" "$g" --quiet list --limit 0 >/dev/null
		t0=$(date +%s.%N)
		GPUCMP_CACHE="$dir/import.db" "$g" --quiet import "$csv" --provider benchcloud \
			--new-provider >/dev/null 2>&1
		t1=$(date +%s.%N)
		size[$g]=$(stat -c %s "$dir/import.db")
		GPUCMP_CACHE="$dir/import.db" "$g" --quiet import "$csv" --provider benchcloud \
			--new-provider >/dev/null 2>&1
		t2=$(date +%s.%N)
		fresh[$g]+="$(echo "$t1 - $t0" | bc -l) "
		again[$g]+="$(echo "$t2 - $t1" | bc -l) "
	done
done
printf '| build | rows | import into a fresh cache | import again (replacing them) | µs per offer (fresh) | cache bytes per offer (fresh) | check |\n'
printf '|---|---|---|---|---|---|---|\n'
for g in "${builds[@]}"; do
	# the check and the tables' sizes are those of the last run's cache
	rm -f "$dir"/import.db*
	GPUCMP_CACHE="$dir/import.db" "$g" --quiet list --limit 0 >/dev/null
	GPUCMP_CACHE="$dir/import.db" "$g" --quiet import "$csv" --provider benchcloud \
		--new-provider >/dev/null 2>&1
	check=$(sqlite3 "$dir/import.db" "PRAGMA integrity_check;
		SELECT count(*) FROM offer WHERE provider = 'benchcloud'" | tr '\n' ' ')
	f=$(printf '%s\n' ${fresh[$g]} | median)
	a=$(printf '%s\n' ${again[$g]} | median)
	printf '| %s | %d | %.2f s | %.2f s | %.2f | %.0f | %s|\n' "$g" "$n" "$f" "$a" \
		"$(echo "$f * 1000000 / $n" | bc -l)" "$(echo "${size[$g]} / $n" | bc -l)" "$check"
	# bytes per offer by table and index (dbstat, where the sqlite3 shell has it)
	sqlite3 "$dir/import.db" "SELECT name, round(sum(pgsize) * 1.0 / $n, 1)
		FROM dbstat GROUP BY name HAVING sum(pgsize) > 65536 ORDER BY 2 DESC" 2>/dev/null |
		awk -F'|' '{ printf "%s %s B, ", $1, $2 } END { print "" }'
done
