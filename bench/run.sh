#!/bin/bash
# Benchmark: gpucmp list against the same SQL in the sqlite3 shell, on the
# same cache file, for N synthetic offers.  Prints a Markdown table of
# median wall times (of RUNS runs each) and the ratio gpucmp / sqlite3.
#
# usage: bench/run.sh [N ...]            (default: 10000 100000 1000000)
#   RUNS=5  BUILD=build  BENCH_DIR=bench/tmp
#
# The SQL is what `gpucmp list ... --explain` prints, so both sides run the
# identical statement; gpucmp's time includes loading its catalog, opening
# the cache and formatting every row as CSV, like the shell's -csv mode.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
dir=${BENCH_DIR:-$root/bench/tmp}
runs=${RUNS:-5}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(10000 100000 1000000)
mkdir -p "$dir"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target gpucmp gpucmp-genoffers -j2 >/dev/null
gpucmp="$build/gpucmp"
command -v sqlite3 >/dev/null || { echo "bench needs the sqlite3 shell" >&2; exit 69; }

queries=(
	"--gpu h100 --gpus 2 --max-price 60"
	"--k8s managed --mig --limit 100"
	"--region us-* --spot --sort -gpu_count,price"
	"--sort price --limit 20"
	"--where 'vram >= 24 and price < 20 and gpus >= 2' --sort value --limit 100"
)

now() { date +%s.%N; }
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
time_cmd() { # runs a command RUNS times, prints the median seconds
	for _ in $(seq "$runs"); do
		local t0 t1
		t0=$(now)
		"$@" >/dev/null
		t1=$(now)
		echo "$t1 - $t0" | bc -l
	done | median
}

echo "| offers | query | rows | gpucmp s | sqlite3 s | ratio |"
echo "|---:|---|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
	db="$dir/cache-$n.db"
	if [ ! -f "$db" ]; then
		rm -f "$db" "$db-wal" "$db-shm"
		t0=$(now)
		"$build/gpucmp-genoffers" "$db" "$n"
		t1=$(now)
		printf 'generated %s offers in %.2f s\n' "$n" "$(echo "$t1 - $t0" | bc -l)" >&2
	fi
	for q in "${queries[@]}"; do
		eval "args=($q)" # the queries quote their --where expressions
		sql=$(GPUCMP_CACHE=$db "$gpucmp" list "${args[@]}" --format csv --explain)
		rows=$(GPUCMP_CACHE=$db "$gpucmp" --quiet list "${args[@]}" --format csv | tail -n +2 | wc -l)
		g=$(GPUCMP_CACHE=$db time_cmd "$gpucmp" --quiet list "${args[@]}" --format csv)
		s=$(time_cmd sqlite3 -csv -header "$db" "$sql")
		printf '| %s | `%s` | %s | %.3f | %.3f | %.2f |\n' "$n" "$q" "$rows" "$g" "$s" \
			"$(echo "$g / $s" | bc -l)"
	done
done
