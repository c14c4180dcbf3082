#!/bin/bash
# Benchmark: what issue 22/24 added to every answer, at 10^6 offers, this
# build against another (BEFORE, a build directory of an earlier revision):
# the footer's count of the answer's own dates (the grouped pass and the
# count read as_of), the per-filter count of offers left out as unknown
# (one extra count per capability filter or region word), and $/GPU/H.
# Each side gets its own cache of the same catalog (bench/gencsv.sh's N
# rows as provider benchcloud, dated with --as-of), since the schemas
# differ; each query is timed RUNS times, the median reported, and the
# ratio this/before printed.  On a shared, busy machine wall time says
# little: CPU=1 times user + system CPU seconds instead (/usr/bin/time).
# KEEP=1 reuses the caches of an earlier run with the same BEFORE.
#
# usage: BEFORE=DIR bench/answers.sh [N]      (default 1000000)
#   RUNS=3  BUILD=build-release  BENCH_DIR=bench/tmp  CPU=0  KEEP=0
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-release}
dir=${BENCH_DIR:-$root/bench/tmp}
runs=${RUNS:-3}
n=${1:-1000000}
before=${BEFORE:?BEFORE=DIR: a build directory of the revision to compare with}
mkdir -p "$dir"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_TESTS=OFF >/dev/null
cmake --build "$build" --target gpucmp -j2 >/dev/null
export GPUCMP_TODAY=2026-12-02
csv="$dir/import-$n.csv"
[ -s "$csv" ] || "$root/bench/gencsv.sh" "$n" >"$csv"

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
secs() {
	if [ "${CPU:-0}" = 1 ]; then
		/usr/bin/time -f '%U %S' -o "$dir/answers.time" "$@" >/dev/null 2>&1 || true
		awk 'END { print $1 + $2 }' "$dir/answers.time"
		return
	fi
	local t0=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	echo "$EPOCHREALTIME - $t0" | bc -l
}
# cache BIN FILE: the snapshot and the catalog, imported by BIN
cache() {
	[ "${KEEP:-0}" = 1 ] && [ -s "$2" ] && return
	rm -f "$2" "$2-wal" "$2-shm"
	GPUCMP_CACHE=$2 "$1" --quiet list --limit 0 >/dev/null
	GPUCMP_CACHE=$2 "$1" --quiet import "$csv" --provider benchcloud --new-provider \
		--as-of 2026-12-01 >/dev/null 2>&1
}
cache "$before/gpucmp" "$dir/answers-before.db"
cache "$build/gpucmp" "$dir/answers-after.db"

printf '%-44s %9s %9s %7s\n' query before after ratio
while IFS= read -r q; do
	[ -n "$q" ] || continue
	for side in before after; do
		b=$before/gpucmp
		[ $side = after ] && b=$build/gpucmp
		t=$(for _ in $(seq "$runs"); do
			# shellcheck disable=SC2086
			GPUCMP_CACHE=$dir/answers-$side.db secs "$b" list $q; done | median)
		eval "t_$side=$t"
	done
	# CPU=1 counts in 10 ms steps: a quick answer reads 0
	ratio=$(echo "if ($t_before > 0) $t_after / $t_before else 0" | bc -l)
	printf '%-44s %8.3fs %8.3fs %6.2fx\n' "$q" "$t_before" "$t_after" "$ratio"
done <<'Q'
--limit 20
--gpu h100 --gpus 8 --limit 20
--ib --limit 20
--k8s managed --mig --limit 20
--region us --limit 20
--format csv --limit 20
--all-regions --limit 20
--gpu l4 --region eu --ib
Q
