#!/bin/bash
# Benchmark: peak memory, time and lock hold of `gpucmp refresh --from`
# (a team pull) against hostile snapshots (docs/RELIABILITY.md, "Hostile
# team snapshots"; docs/TEAM.md).
#
#   values    an unsigned snapshot whose one offer line carries an extra key
#             holding 3,000,000 empty objects ("x":[{},{},...]): 9 MB of
#             text in a 9 KB offers.ndjson.gz, with a manifest that matches
#   bomb      a gzip bomb: 2.1 MB of gzip that inflates to 2.2 GB (a provider
#             record, then an offer line that never ends: 'a' after 'a')
#   lines     a gzip bomb of whole lines: 9.6 MB of gzip, 2.2 GB inflated, a
#             record of a provider dated 2000 (the client's data is newer, so
#             its "offers" are read and skipped, never stored) and 36,000
#             lines of 60 KB: read to the end, refused at the inflate cap
#   manifest  a 4 MiB manifest.json of [{},{},...] with trusted_keys set
#   stall     a manifest served at 1 byte every 5 s, `--deadline 10`; the
#             lock hold is how long the cache's writer lock stayed taken,
#             probed every 0.2 s with fcntl (what an import waits on)
#
# usage: bench/hostile_pull.sh [GPUCMP...]     (default: build/gpucmp)
#   Each binary given is measured on every case (e.g. an old build, then the
#   new one).  FIXTURED=build/tests/gpucmp-fixtured (-DGPUCMP_TESTS=ON);
#   CASES="values bomb manifest stall" picks the cases.
# Prints per binary and case: exit code, peak RSS ("Maximum resident set
# size" of /usr/bin/time -v), wall time, the first line of stderr, and for
# `stall` the seconds the lock was held.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
fixtured=${FIXTURED:-$root/build/tests/gpucmp-fixtured}
dir=${BENCH_DIR:-$root/bench/tmp}/hostile_pull
cases=${CASES:-values bomb lines manifest stall}
[ $# -gt 0 ] || set -- "$root/build/gpucmp"
command -v python3 >/dev/null || { echo "bench/hostile_pull.sh needs python3" >&2; exit 69; }
[ -x "$fixtured" ] || { echo "no fixture server at $fixtured (build with -DGPUCMP_TESTS=ON)" >&2; exit 66; }
mkdir -p "$dir"

rec='{"type":"provider","provider":"lambda","source":"live","as_of":"2026-12-01T00:00:00Z","fetched_at":"2026-12-01T00:00:00Z","offers":1,"stale":false}'
offer='{"provider":"lambda","sku":"a","gpu_name":"H100","gpu_count":1,"region":"r","price_hr":0.5,"source":"live","fetched_at":"2026-12-01T00:00:00Z"'

# manifest DIR [OFFERS]: DIR/manifest.json for DIR/offers.ndjson.gz (one provider)
manifest() {
	local bytes sum n=${2:-1}
	bytes=$(stat -c %s "$1/offers.ndjson.gz")
	sum=$(sha256sum "$1/offers.ndjson.gz" | cut -d' ' -f1)
	printf '{"format": "gpucmp-snapshot", "version": 1, "created_at": "2026-12-01T00:00:00Z", "generator": "bench", "payload": {"file": "offers.ndjson.gz", "bytes": %s, "sha256": "%s"}, "offers": %s, "providers": [{"provider": "lambda", "offers": %s, "stale": false}]}\n' \
		"$bytes" "$sum" "$n" "$n" >"$1/manifest.json"
}

# --- inputs ------------------------------------------------------------------
if [ ! -s "$dir/values/manifest.json" ]; then
	mkdir -p "$dir/values"
	{
		echo "$rec"
		printf '%s,"x":[' "$offer"
		python3 -c 'import sys; sys.stdout.write("{}," * 2999999 + "{}")'
		echo ']}'
	} | gzip -9n >"$dir/values/offers.ndjson.gz"
	manifest "$dir/values"
fi
if [ ! -s "$dir/bomb/manifest.json" ]; then
	mkdir -p "$dir/bomb"
	{
		echo "$rec"
		printf '%s,"x":"' "$offer"
		head -c 2200000000 /dev/zero | tr '\0' a
		echo '"}'
	} | gzip -9n >"$dir/bomb/offers.ndjson.gz"
	manifest "$dir/bomb"
fi
if [ ! -s "$dir/lines/manifest.json" ]; then
	mkdir -p "$dir/lines"
	python3 -c '
import sys
out = sys.stdout
out.write("{\"type\":\"provider\",\"provider\":\"lambda\",\"source\":\"live\",\"as_of\":\"2000-01-01T00:00:00Z\",\"fetched_at\":\"2000-01-01T00:00:00Z\",\"offers\":36000,\"stale\":false}\n")
line = "{\"x\":\"" + "a" * 60000 + "\"}\n"
for _ in range(36000):
    out.write(line)
' | gzip -1n >"$dir/lines/offers.ndjson.gz"
	manifest "$dir/lines" 36000
fi
if [ ! -s "$dir/manifest/manifest.json" ]; then
	mkdir -p "$dir/manifest"
	python3 -c 'import sys; n = (4 << 20) // 3; sys.stdout.write("[" + "{}," * (n - 1) + "{}]")' \
		>"$dir/manifest/manifest.json"
	echo '{"algorithm":"ed25519","key":"6Tj5zS+H0Mmm+sjUmjdNmkJlTwDlAPungFZk3GBiP30=","signature":"x"}' \
		>"$dir/manifest/manifest.sig"
	: >"$dir/manifest/offers.ndjson.gz"
fi
printf '{"format": "gpucmp-snapshot", "version": 1}\n' >"$dir/stall.json"
echo "GET /stall/manifest.json file=stall.json trickle_ms=5000" >"$dir/routes"
printf 'trusted_keys: [6Tj5zS+H0Mmm+sjUmjdNmkJlTwDlAPungFZk3GBiP30=]\n' >"$dir/trusted.yaml"
: >"$dir/none.yaml"
chmod 600 "$dir/trusted.yaml" "$dir/none.yaml"

# --- server ------------------------------------------------------------------
bench_server "$fixtured" "$dir"

# --- runs --------------------------------------------------------------------
# held CACHE PID: seconds (0.2 s steps) the lock beside CACHE stays taken while PID runs
held() {
	python3 - "$1.lock" "$2" <<'PY'
import fcntl, os, sys, time
path, pid = sys.argv[1], int(sys.argv[2])
t0, held = time.monotonic(), 0.0
while True:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        break
    try:
        with open(path, "a") as f:
            fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        held += 0.2
    time.sleep(0.2)
print("%.1f" % held)
PY
}

run() { # BINARY CASE CONFIG FROM [ARGS...]
	local bin=$1 case=$2 cfg=$3 from=$4 cache="$dir/cache-$2.db" rc=0 lock=""
	shift 4
	rm -f "$cache" "$cache"-wal "$cache"-shm "$cache".lock
	GPUCMP_CACHE=$cache HOME=$dir GPUCMP_CONFIG=$cfg "$bin" --quiet list --limit 0 >/dev/null
	GPUCMP_CACHE=$cache HOME=$dir GPUCMP_CONFIG=$cfg /usr/bin/time -v \
		"$bin" refresh --from "$from" "$@" >"$dir/out" 2>"$dir/err" &
	local pid=$!
	[ "$case" = stall ] && lock=$(held "$cache" "$pid")
	wait "$pid" || rc=$?
	local rss wall
	time_v "$dir/err"
	printf '%-34s %-8s exit %-3s peak RSS %8.1f MB  wall %-8s%s\n' "$bin" "$case" "$rc" \
		"$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$wall" \
		"${lock:+  lock held $lock s}"
	grep '^gpucmp: ' "$dir/err" | grep -v 'created cache' | head -n 1 | cut -c1-200 |
		sed 's/^/    /' || true
}
for bin in "$@"; do
	for c in $cases; do
		case $c in
		values) run "$bin" values "$dir/none.yaml" "$dir/values" ;;
		bomb) run "$bin" bomb "$dir/none.yaml" "$dir/bomb" ;;
		lines) run "$bin" lines "$dir/none.yaml" "$dir/lines" ;;
		manifest) run "$bin" manifest "$dir/trusted.yaml" "$dir/manifest" ;;
		stall) run "$bin" stall "$dir/none.yaml" "$base/stall" --deadline 10 ;;
		esac
	done
done
