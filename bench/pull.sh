#!/bin/bash
# Benchmark: a team pull against a full refresh of the same data (issue 16,
# docs/PERFORMANCE.md "Team snapshots").
#
# N synthetic offers (default 10^5) are written as SkyPilot vms.csv catalogs
# of the 16 providers the SkyPilot catalog covers and served by the loopback
# fixture server.  A publisher's cache refreshes them all
# (`refresh --catalog-only`, the hosted catalog tier: every request, parse
# and per-provider replace of a real refresh) and exports the result; the
# export is served by the same server and pulled (`refresh --from URL`) into
# a client's cache.  Both start from a copy of the same freshly created
# cache, run RUNS times alternately; medians.  Also: the export, the payload's
# size, and a second pull that gets 304.  Prints a Markdown table.
#
# usage: bench/pull.sh          N=100000 RUNS=3 BUILD=build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
n=${N:-100000}
runs=${RUNS:-3}
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target gpucmp gpucmp-fixtured -j2 >/dev/null
gpucmp="$build/gpucmp"
fixtured="$build/tests/gpucmp-fixtured"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-bench-pull.XXXXXX")
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
export HOME="$tmp" GPUCMP_CONFIG="$tmp/config.yaml"
: >"$tmp/config.yaml"

folders="aws azure cudo gcp hyperbolic hyperstack jarvislabs lambda lium mithril nebius oci runpod vast verda yotta"
nf=16
mkdir -p "$tmp/srv/v8" "$tmp/srv/team"
: >"$tmp/routes"
i=0
for f in $folders; do
	mkdir -p "$tmp/srv/v8/$f"
	rows=$((n / nf + (i < n % nf ? 1 : 0)))
	awk -v rows="$rows" -v seed="$i" 'BEGIN {
		split("H100 A100-80GB A100 L4 A10G V100 T4 L40S RTX4090 H200", gpu, " ")
		split("1 1 2 4 8", cnt, " ")
		split("us-east-1 us-west-2 eu-west-1 europe-west4 asia-south1 us-central1", reg, " ")
		srand(seed + 1)
		print "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region"
		for (r = 0; r < rows; r++) {
			g = gpu[int(rand() * 10) + 1]; c = cnt[int(rand() * 5) + 1]
			p = sprintf("%.3f", (0.2 + rand() * 4) * c)
			s = rand() < 0.3 ? sprintf("%.3f", p * 0.6) : ""
			printf "bench-%s-%dx-%d,%s,%d,%d,%d,%s,%s,%s\n", g, c, r, g, c, 8 * c, 64 * c, p, s, reg[int(rand() * 6) + 1]
		}
	}' >"$tmp/srv/v8/$f/vms.csv"
	echo "GET /v8/$f/vms.csv file=v8/$f/vms.csv type=text/csv last_modified=Tue,_01_Dec_2026_00:00:00_GMT" >>"$tmp/routes"
	i=$((i + 1))
done
export GPUCMP_SKYPILOT_CATALOG_URL=http://127.0.0.1:1/v8 GPUCMP_GPUHUNT_CATALOG_URL=http://127.0.0.1:1

# a fresh cache to copy for every run
"$gpucmp" --cache "$tmp/fresh.db" --quiet list --limit 0 >/dev/null 2>&1

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
clock() { date +%s.%N; }
# timed OUT CMD...: append "wall cpu" (cpu: user + system seconds, which a
# busy machine disturbs less than wall time) to OUT
timed() {
	out=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$tmp/time" >>"$out"
}

# The publisher's refresh once (untimed), its export, then the server.
start_server() {
	"$fixtured" --routes "$tmp/routes" --root "$tmp/srv" --port-file "$tmp/port" 2>"$tmp/server.err" &
	pid=$!
	while [ ! -s "$tmp/port" ]; do
		kill -0 "$pid" 2>/dev/null || { cat "$tmp/server.err" >&2; exit 1; }
		sleep 0.02
	done
	base="http://127.0.0.1:$(cat "$tmp/port")"
	export GPUCMP_SKYPILOT_CATALOG_URL="$base/v8"
}
start_server
cp "$tmp/fresh.db" "$tmp/pub.db"
"$gpucmp" --cache "$tmp/pub.db" refresh --catalog-only --quiet >/dev/null
t0=$(clock)
"$gpucmp" --cache "$tmp/pub.db" export "$tmp/srv/team" >/dev/null
t1=$(clock)
export_s=$(echo "$t1 - $t0" | bc -l)
offers=$(python3 -c "import json,sys; print(json.load(open('$tmp/srv/team/manifest.json'))['offers'])")
bytes=$(stat -c %s "$tmp/srv/team/offers.ndjson.gz")
# files are read when the server starts: restart it to serve the export
for f in manifest.json offers.ndjson.gz; do
	echo "GET /team/$f file=team/$f etag=bench" >>"$tmp/routes"
done
kill "$pid"; wait "$pid" 2>/dev/null || true; rm -f "$tmp/port"
start_server

: >"$tmp/refresh.t"; : >"$tmp/pull.t"; : >"$tmp/304.t"
for _ in $(seq "$runs"); do
	cp "$tmp/fresh.db" "$tmp/r.db"; rm -f "$tmp/r.db-wal" "$tmp/r.db-shm"
	timed "$tmp/refresh.t" "$gpucmp" --cache "$tmp/r.db" refresh --catalog-only --quiet
	cp "$tmp/fresh.db" "$tmp/p.db"; rm -f "$tmp/p.db-wal" "$tmp/p.db-shm"
	timed "$tmp/pull.t" "$gpucmp" --cache "$tmp/p.db" refresh --from "$base/team" --quiet
	timed "$tmp/304.t" "$gpucmp" --cache "$tmp/p.db" refresh --from "$base/team" --quiet
done
col() { awk -v c="$1" '{ print $c }' "$2" | median; }
rs=$(col 1 "$tmp/refresh.t"); ps=$(col 1 "$tmp/pull.t"); ns=$(col 1 "$tmp/304.t")
rc=$(col 2 "$tmp/refresh.t"); pc=$(col 2 "$tmp/pull.t")
csv=$(cat "$tmp"/srv/v8/*/vms.csv | wc -c)
echo "| offers | refresh s (cpu) | pull s (cpu) | ratio wall (cpu) | 304 pull s | export s | payload bytes | catalog bytes |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '| %s | %.3f (%.2f) | %.3f (%.2f) | %.2f (%.2f) | %.3f | %.3f | %s | %s |\n' "$offers" \
	"$rs" "$rc" "$ps" "$pc" "$(echo "$ps / $rs" | bc -l)" "$(echo "$pc / $rc" | bc -l)" "$ns" \
	"$export_s" "$bytes" "$csv"
