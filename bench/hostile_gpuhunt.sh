#!/bin/bash
# Benchmark: peak memory and time of `gpucmp refresh` on a hostile gpuhunt
# catalog.zip served on loopback (docs/RELIABILITY.md, "Hostile providers").
#
#   gpurows   one tiny GPU row (26 bytes) repeated to 250 MiB, 10 million
#             rows of one instance and location (the issue's input: a zip
#             of about 600 KB)
#   gpurows67 a whole gpuhunt row (67 bytes) repeated the same way
#   cpurows   one CPU row (gpu_count 0, never kept) repeated to 250 MiB:
#             what is left is the cap on inflated bytes (256 MiB)
#
# The zips are built with python3's zipfile module (streamed: nothing of
# 250 MiB is held or written but the zip itself).  verda is priced from
# them: its SkyPilot file answers 404, so gpuhunt's version and zip follow.
#
# usage: bench/hostile_gpuhunt.sh [GPUCMP...]     (default: build/gpucmp)
#   FORCE=1 refreshes with --force, so that the plausible-answer rule (one
#   offer where the snapshot has 22) does not hide what the reader let in.
#   Each binary given is measured on every case (e.g. an old build and the
#   new one).  FIXTURED=build/tests/gpucmp-fixtured (-DGPUCMP_TESTS=ON).
# Prints per binary and case: exit code, peak RSS ("Maximum resident set
# size" of /usr/bin/time -v), wall time, verda's offers in the cache
# afterwards, and gpucmp's message.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
fixtured=${FIXTURED:-$root/build/tests/gpucmp-fixtured}
dir=${BENCH_DIR:-$root/bench/tmp}/hostile_gpuhunt
[ $# -gt 0 ] || set -- "$root/build/gpucmp"
command -v python3 >/dev/null || { echo "bench/hostile_gpuhunt.sh needs python3" >&2; exit 69; }
command -v sqlite3 >/dev/null || { echo "bench/hostile_gpuhunt.sh needs sqlite3" >&2; exit 69; }
[ -x "$fixtured" ] || { echo "no fixture server at $fixtured (build with -DGPUCMP_TESTS=ON)" >&2; exit 66; }
mkdir -p "$dir"

# --- zips ----------------------------------------------------------------------
header="instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags,cpu_arch,provider_data"
tinyrow="a,b,2.19,1,1,1,H100,80,False"
gpurow="1H100.80S.30V,FIN-01,2.19,30,120.0,1,H100,80.0,False,,nvidia,,x86,"
cpurow="CPU.4V.16G,FIN-01,0.05,4,16.0,0,,,False,,,,x86,"
mkzip() { # NAME ROW MIB
	[ -s "$dir/$1.zip" ] && return
	python3 - "$dir/$1.zip" "$header" "$2" "$3" <<'EOF'
import sys, zipfile
out, header, row, mib = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
chunk = ((row + "\n") * 16384).encode()
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    with z.open("verda.csv", "w", force_zip64=True) as f:
        f.write((header + "\n").encode())
        n = 0
        while n < mib << 20:
            f.write(chunk)
            n += len(chunk)
EOF
}
mkzip gpurows "$tinyrow" 250
mkzip gpurows67 "$gpurow" 250
mkzip cpurows "$cpurow" 250
{
	echo "GET /v8/verda/vms.csv status=404 body=not-found"
	echo "GET /v3/verda/version body=20261130-3 type=text/plain"
	for c in gpurows gpurows67 cpurows; do
		echo "GET /v3/$c/verda/20261130-3/catalog.zip file=$c.zip type=application/zip"
		echo "GET /v3/$c/verda/version body=20261130-3 type=text/plain"
	done
} >"$dir/routes"

# --- server --------------------------------------------------------------------
bench_server "$fixtured" "$dir"

# --- runs ----------------------------------------------------------------------
run() { # BINARY CASE
	local bin=$1 case=$2 cache="$dir/cache-$2.db"
	rm -f "$cache" "$cache"-wal "$cache"-shm "$cache".lock
	GPUCMP_CACHE=$cache HOME=$dir XDG_CONFIG_HOME=$dir "$bin" --quiet list --limit 0 >/dev/null
	local rc=0
	env GPUCMP_CACHE="$cache" HOME="$dir" XDG_CONFIG_HOME="$dir" \
		GPUCMP_SKYPILOT_CATALOG_URL="$base/v8" GPUCMP_GPUHUNT_CATALOG_URL="$base/v3/$case" \
		/usr/bin/time -v "$bin" refresh ${FORCE:+--force} verda >"$dir/out" 2>"$dir/err" || rc=$?
	local rss wall offers
	time_v "$dir/err"
	offers=$(sqlite3 "$cache" "SELECT count(*) FROM offer WHERE provider='verda' AND source='catalog'")
	printf '%-40s %-9s %5s KB zip  exit %-3s peak RSS %7.1f MB  wall %-8s verda catalog offers %s\n' \
		"$bin" "$case" "$(($(stat -c %s "$dir/$case.zip") / 1024))" "$rc" \
		"$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$wall" "$offers"
	grep '^gpucmp: ' "$dir/err" | grep -v 'created cache' | cut -c1-400 | sed 's/^/    /' || true
}
for bin in "$@"; do
	for c in gpurows gpurows67 cpurows; do run "$bin" "$c"; done
done
