# lib.sh - sourced by the hostile-input benches (bench/hostile*.sh).

. "$(dirname "${BASH_SOURCE[0]}")/../tests/lib/fixtured.sh"

# bench_server FIXTURED DIR: the fixture server on DIR/routes (file= paths
# under DIR), stopped when the script exits; sets base to its URL.
bench_server() {
	fixtured_start "$1" "$2/routes" "$2" "$2" ||
		{ echo "the fixture server did not start: $(cat "$2/server.err")" >&2; exit 1; }
	spid=$FIXTURED_PID
	trap 'kill $spid 2>/dev/null; wait $spid 2>/dev/null' EXIT
	base=$FIXTURED_BASE
}

# time_v FILE: the peak RSS (kB) and wall time /usr/bin/time -v wrote to
# FILE, into rss and wall.
time_v() {
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$1")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1")
}
