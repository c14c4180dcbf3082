#!/bin/bash
# Benchmark: the page (export --html) at the built-in data and at N
# synthetic offers: the export's CPU time, the page's size, and in headless
# Chromium from disk the page's own timings, which its script writes on the
# <html> element (data/page.js): load (navigation start to the end of its
# setup: the whole file parsed and the table built), setup (the script
# alone: reading the header, the names, filling the selects), filter (the
# first filter, columns read on the way: q=h100:8) and sort (-price_hr).
# Medians of RUNS browser runs; the whole Chromium run's wall time beside
# them (its start-up included).
#
# usage: bench/page.sh [N ...]        (default: 100000)
#   RUNS=3  BUILD=/tmp/gpucmp-rel (a Release build)  BENCH_DIR=bench/tmp
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-/tmp/gpucmp-rel}
dir=${BENCH_DIR:-$root/bench/tmp}/page
runs=${RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(100000)
chrome=$(command -v chromium || command -v chromium-browser)
mkdir -p "$dir"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target gpucmp gpucmp-genoffers -j2 >/dev/null
gpucmp="$build/gpucmp"
export HOME="$dir" GPUCMP_CONFIG="$dir/config.yaml" GPUCMP_TODAY=2026-12-02
: >"$dir/config.yaml"
chmod 600 "$dir/config.yaml"

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }

# page NAME CACHE: export it with --html, then browse it RUNS times
page() {
	local name=$1 db=$2 out="$dir/out-$1"
	rm -rf "$out"
	local cpu
	cpu=$( { /usr/bin/time -f '%U %S' env GPUCMP_CACHE="$db" "$gpucmp" --quiet export "$out" \
		--html >/dev/null; } 2>&1 | awk '{ print $1 + $2 }')
	local rows bytes
	rows=$(grep -c '^<tr><td' "$out/index.html")
	bytes=$(stat -c %s "$out/index.html")
	: >"$dir/times"
	for _ in $(seq "$runs"); do
		local t0 t1
		t0=$(now)
		"$chrome" --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$dir/profile" --dump-dom \
			"file://$out/index.html#q=h100:8&sort=-price_hr" 2>/dev/null |
			grep -o '<html[^>]*>' >"$dir/html"
		t1=$(now)
		local a
		a() { sed -n "s/.* $1=\"\([0-9]*\)\".*/\1/p" "$dir/html"; }
		echo "$(a data-load-ms) $(a data-setup-ms) $(a data-filter-ms) $(a data-sort-ms)" \
			"$(echo "($t1 - $t0) * 1000" | bc -l)" >>"$dir/times"
	done
	local m=()
	for c in 1 2 3 4 5; do m+=("$(cut -d' ' -f$c "$dir/times" | median)"); done
	printf '| %s | %s | %.1f | %.2f | %s | %s | %s | %s | %.0f |\n' "$name" "$rows" \
		"$(echo "$bytes / 1048576" | bc -l)" "$cpu" "${m[0]}" "${m[1]}" "${m[2]}" "${m[3]}" \
		"${m[4]}"
}

echo "| data | rows | page MB | export CPU s | load ms | setup ms | filter ms | sort ms | chromium run ms |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
# the built-in data and one imported catalog (an export needs a provider of its own)
db="$dir/builtin.db"
rm -f "$db" "$db-wal" "$db-shm"
GPUCMP_CACHE=$db "$gpucmp" --quiet import --force \
	"$root/tests/fixtures/skypilot/lambda/vms.csv" >/dev/null 2>&1
page built-in "$db"
for n in "${sizes[@]}"; do
	db="$dir/cache-$n.db"
	[ -f "$db" ] || "$build/gpucmp-genoffers" "$db" "$n"
	page "$n offers" "$db"
done
