#!/bin/bash
# Benchmark: peak memory and cache size of `gpucmp refresh` against a
# hostile provider on loopback (docs/RELIABILITY.md, "Hostile providers").
#
#   empties   one 60 MiB body of empty objects, [{},{},...] (20 million
#             values under the 64 MiB body cap), served as Lambda's
#             instance-types
#   pages     20 Linode-shaped pages of 100,000 GPU types each (about 30 MB a
#             page), linked by page/pages as Linode's API links them
#   pages+    the same with GPUCMP_REFRESH_MAX_JSON_VALUES=16000000, so that
#             the pages parse and the offers cap (100,000) is what stops it
#
# usage: bench/hostile.sh [GPUCMP...]     (default: build/gpucmp)
#   Each binary given is measured on both (e.g. an old build and the new one).
#   FIXTURED=build/tests/gpucmp-fixtured (built with -DGPUCMP_TESTS=ON).
# Prints per binary and case: exit code, peak RSS ("Maximum resident set
# size" of /usr/bin/time -v), wall time and the cache's size afterwards.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
fixtured=${FIXTURED:-$root/build/tests/gpucmp-fixtured}
dir=${BENCH_DIR:-$root/bench/tmp}/hostile
[ $# -gt 0 ] || set -- "$root/build/gpucmp"
command -v bc >/dev/null || { echo "bench/hostile.sh needs bc" >&2; exit 69; }
[ -x "$fixtured" ] || { echo "no fixture server at $fixtured (build with -DGPUCMP_TESTS=ON)" >&2; exit 66; }
mkdir -p "$dir"

# --- bodies ------------------------------------------------------------------
[ -s "$dir/empties.json" ] || awk 'BEGIN {
	n = 60 * 1048576 / 3 - 1; printf "["
	for (i = 1; i < n; i++) printf "{},"
	print "{}]" }' >"$dir/empties.json"
for p in $(seq 1 20); do
	[ -s "$dir/page$p.json" ] && continue
	awk -v p="$p" 'BEGIN {
		printf "{\"data\": ["
		for (i = 0; i < 100000; i++) {
			if (i) printf ","
			printf "{\"id\": \"g1-gpu-rtx6000-%d-%d\", \"label\": \"Dedicated 32GB + RTX6000 GPU x1\", " \
			       "\"price\": {\"hourly\": %.4f, \"monthly\": 1000.0}, \"region_prices\": [], " \
			       "\"memory\": 32768, \"disk\": 655360, \"transfer\": 16000, \"vcpus\": 8, " \
			       "\"gpus\": 1, \"network_out\": 10000, \"class\": \"gpu\", \"successor\": null}",
			       p, i, 1.5 + i / 100000.0
		}
		printf "], \"page\": %d, \"pages\": 20, \"results\": 2000000}\n", p }' >"$dir/page$p.json"
done
{
	echo "GET /api/v1/instance-types file=empties.json"
	for p in $(seq 2 20); do echo "GET /v4/linode/types?page=$p file=page$p.json"; done
	echo "GET /v4/linode/types file=page1.json"
} >"$dir/routes"

# --- server ------------------------------------------------------------------
bench_server "$fixtured" "$dir"

# --- runs --------------------------------------------------------------------
run() { # BINARY CASE PROVIDER [VAR=VALUE...]
	local bin=$1 case=$2 id=$3 cache="$dir/cache-$2.db"
	shift 3
	rm -f "$cache" "$cache"-wal "$cache"-shm "$cache".lock
	GPUCMP_CACHE=$cache HOME=$dir XDG_CONFIG_HOME=$dir "$bin" --quiet list --limit 0 >/dev/null
	local rc=0
	env GPUCMP_CACHE="$cache" HOME="$dir" XDG_CONFIG_HOME="$dir" GPUCMP_LAMBDA_API_KEY=bench \
		GPUCMP_LAMBDA_BASE_URL="$base" GPUCMP_LINODE_BASE_URL="$base" "$@" \
		/usr/bin/time -v "$bin" refresh "$id" >"$dir/out" 2>"$dir/err" || rc=$?
	local rss wall size
	time_v "$dir/err"
	size=$(du -k "$cache" | cut -f1)
	printf '%-40s %-8s exit %-3s peak RSS %8.1f MB  wall %-8s cache %8.1f MB\n' \
		"$bin" "$case" "$rc" "$(echo "$rss / 1024" | bc -l)" "$wall" "$(echo "$size / 1024" | bc -l)"
	grep '^gpucmp: ' "$dir/err" | grep -v 'created cache' | cut -c1-200 | sed 's/^/    /' || true
}
for bin in "$@"; do
	run "$bin" empties lambda
	run "$bin" pages linode
	run "$bin" pages+ linode GPUCMP_REFRESH_MAX_JSON_VALUES=16000000
done
