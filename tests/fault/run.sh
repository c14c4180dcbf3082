#!/bin/sh
# Failure injection (docs/RELIABILITY.md): run list, refresh and import with
# the Nth allocation, then the Nth cache write, made to fail, for N over the
# allocations and writes a clean run makes, and check every run:
#   - no crash and no sanitizer report (ASan, UBSan, LeakSanitizer);
#   - exit 0 with the same output as the clean run (the code recovered), or
#     a documented failure code with exactly one new "gpucmp: " error line;
#   - the cache passes PRAGMA integrity_check, and each provider holds
#     either exactly its old offers or exactly its new ones (list: the cache
#     is unchanged; a failed import or refresh keeps the old offers).
#
# usage: run.sh GPUCMP FIXTURED [SCENARIO...]
#   scenarios: list list-json list-csv refresh refresh-json import
#   GPUCMP must be built with -DGPUCMP_FAULT=ON (src/fault/fault.c);
#   normally also with -DGPUCMP_SANITIZE=ON, so leaks end the run.
#   FAULT_RUNS=R   at most about R injected runs per scenario and kind
#                  (default 30): N walks 1..count with a stride; the first
#                  FAULT_RUNS/3 values of N are always all run
#   FAULT_FULL=1   every N (slow: thousands of runs per scenario)
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fixtured=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
only="$*" # scenario names; none: all
here=$(cd "$(dirname "$0")" && pwd)
src=${FAULT_SRC:-$(cd "$here/../.." && pwd)} # (for a copy run from elsewhere)
. "$src/tests/lib/fixtured.sh"
runs=${FAULT_RUNS:-30}
full=${FAULT_FULL:-0}
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-fault.XXXXXX")
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A sanitizer report ends the run with its own exit code.
export ASAN_OPTIONS=exitcode=86:detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS=exitcode=87
export UBSAN_OPTIONS=exitcode=88:halt_on_error=1:print_stacktrace=1
unset XDG_CACHE_HOME XDG_CONFIG_HOME NO_COLOR COLUMNS
for v in $(env | sed -n 's/^\(GPUCMP_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export HOME="$root/home" GPUCMP_TODAY=2026-12-02 LC_ALL=C
# hosted catalogs: never the public ones (a closed loopback port)
export GPUCMP_SKYPILOT_CATALOG_URL=http://127.0.0.1:9/v8 GPUCMP_GPUHUNT_CATALOG_URL=http://127.0.0.1:9/v3
mkdir -p "$HOME"

# --- helpers ---------------------------------------------------------------

# The offers, one line each, sorted: what "the cache holds" means here
# (fetched_at left out: a refresh stamps the time it ran).
dump() {
	sqlite3 "$1" "SELECT provider, sku, gpu, gpu_count, region, price_hr, spot_price_hr,
		available, source, origin FROM offer ORDER BY 1, 2, 5, 9, 6, 7, 8, 10" 2>&1
}
state() {
	sqlite3 "$1" "SELECT * FROM provider_state ORDER BY 1" 2>&1
}
# Refresh lines carry timings: "(0.1 s" -> "(T s".
norm() { sed 's/([0-9.]* s/(T s/; s/"seconds": [0-9.e-]*/"seconds": T/' "$1"; }

# The loopback fixture server with the routes on stdin (files relative to
# tests/fixtures/http); sets BASE.
server() {
	cat >"$root/routes"
	fixtured_start "$fixtured" "$root/routes" "$src/tests/fixtures/http" "$root"
	started=$?
	pid=$FIXTURED_PID
	if [ $started -ne 0 ]; then
		echo "fixture server did not start"; cat "$root/server.err"; exit 1
	fi
	BASE=$FIXTURED_BASE
}

# run DIR VAR N ARGS...: gpucmp on a copy of the scenario's cache, with
# VAR=N (VAR empty: a clean run); exit code in $rc, fault counts in $counts.
run() {
	d=$1 var=$2 n=$3
	shift 3
	if [ -n "$start" ]; then cp "$start" "$d/cache.db"; else rm -f "$d/cache.db"; fi
	rm -f "$d/cache.db-wal" "$d/cache.db-shm" "$d/cache.db.lock" "$d/count"
	if [ -n "$var" ]; then
		env "$var=$n" GPUCMP_CACHE="$d/cache.db" GPUCMP_FAULT_COUNT="$d/count" \
			"$bin" "$@" >"${stdout:-$d/out}" 2>"$d/err"
	else
		GPUCMP_CACHE="$d/cache.db" GPUCMP_FAULT_COUNT="$d/count" "$bin" "$@" \
			>"${stdout:-$d/out}" 2>"$d/err"
	fi
	rc=$?
	counts=$(cat "$d/count" 2>/dev/null)
}

bad=0
problem() {
	bad=$((bad + 1))
	echo "FAIL $scenario $var=$n: $* (exit $rc; gpucmp $cmd)"
	sed 's/^/  stderr: /' "$d/err" | head -12
}

# Does each provider hold either all its offers from before or all from
# after the clean run?  (One awk over the three dumps: this runs often.)
atomic() {
	dump "$d/cache.db" >"$d/dump"
	p=$(awk -F'|' '
		FILENAME == ARGV[1] { old[$1] = old[$1] $0 "\n"; all[$1]; next }
		FILENAME == ARGV[2] { new[$1] = new[$1] $0 "\n"; all[$1]; next }
		{ now[$1] = now[$1] $0 "\n"; all[$1] }
		END { for (p in all) if (now[p] != old[p] && now[p] != new[p]) { print p; exit } }
	' "$d/before" "$d/after" "$d/dump")
	[ -z "$p" ] || problem "provider $p holds neither its old nor its new offers"
}

# check: the run just made, with a failure injected at N.
check() {
	case $rc in
	86 | 87 | 88) problem "sanitizer report"; return ;;
	esac
	if [ "$rc" -ge 128 ] || [ -z "$counts" ]; then
		problem "crashed"; return
	fi
	if grep -qv '^gpucmp: ' "$d/err" || grep -q '(null)' "$d/err"; then
		problem "stray text on stderr"; return
	fi
	ok=$(sqlite3 "$d/cache.db" 'PRAGMA integrity_check' 2>&1)
	[ "$ok" = ok ] || { problem "integrity_check: $ok"; return; }
	# lines not in the clean run's stderr
	new=$(grep -cvxF -f "$d/clean.err" "$d/err")
	if [ "$rc" = 0 ]; then
		norm "$d/out" | cmp -s - "$d/clean.out" || { problem "exit 0 but other output"; return; }
		[ "$new" = 0 ] || { problem "exit 0 but new messages"; return; }
		[ "$(dump "$d/cache.db")" = "$(cat "$d/after")" ] ||
			{ problem "exit 0 but the cache holds other offers"; return; }
		return
	fi
	case " $codes " in
	*" $rc "*) ;;
	*) problem "exit $rc is not one of $codes"; return ;;
	esac
	[ "$new" = 1 ] || { problem "$new new messages, want 1"; return; }
	atomic
	if [ "$path" = list ] && [ "$(state "$d/cache.db")" != "$(cat "$d/state")" ]; then
		problem "list changed provider_state"
	fi
}

# The Ns to try out of 1..K: all up to runs/3, then a stride.
ns() {
	k=$1
	if [ "$full" = 1 ] || [ "$k" -le "$runs" ]; then
		seq 1 "$k"
		return
	fi
	head=$((runs / 3))
	stride=$(((k - head) / (runs - head) + 1))
	seq 1 "$head"
	seq $((head + 1)) "$stride" "$k"
}

total_runs=0
# scenario NAME PATH ALLOC WRITE ARGS...: the clean run, then every
# injected one.  PATH is list, refresh or import; ALLOC and WRITE the exit
# codes a failed allocation and a failed write may give.
scenario() {
	scenario=$1 path=$2 alloc_codes=$3 write_codes=$4
	shift 4
	case " ${only:-$scenario} " in *" $scenario "*) ;; *) return ;; esac
	cmd="$*"
	d="$root/$scenario"
	mkdir -p "$d"
	dump "$start" >"$d/before"
	state "$start" >"$d/state"
	var="" n=0
	run "$d" "" 0 "$@"
	if [ "$rc" != 0 ]; then
		echo "FAIL $scenario: the clean run exited $rc"; cat "$d/err"; bad=$((bad + 1)); return
	fi
	norm "$d/out" >"$d/clean.out"
	cp "$d/err" "$d/clean.err"
	dump "$d/cache.db" >"$d/after"
	allocs=$(echo "$counts" | awk '{print $2}')
	writes=$(echo "$counts" | awk '{print $4}')
	for kind in ALLOC WRITE; do
		var=GPUCMP_FAULT_$kind
		k=$allocs codes=$alloc_codes
		[ $kind = WRITE ] && k=$writes codes=$write_codes
		tried=0 failed=0 before_bad=$bad
		for n in $(ns "$k"); do
			run "$d" "$var" "$n" "$@"
			check
			tried=$((tried + 1))
			[ "$rc" = 0 ] || failed=$((failed + 1))
		done
		total_runs=$((total_runs + tried))
		printf '%-13s %-5s %6s made %5s injected: %5s failed, %5s recovered, %3s bad\n' \
			"$scenario" "$kind" "$k" "$tried" "$failed" "$((tried - failed))" \
			"$((bad - before_bad))"
	done
	# stdout on a full disk: exit 74 with one message, never success; the
	# cache as after a clean run (the output comes after the commit)
	var=stdout n=/dev/full
	stdout=/dev/full run "$d" "" 0 "$@"
	if [ "$rc" != 74 ] || [ "$(grep -vxF -f "$d/clean.err" "$d/err")" != "gpucmp: cannot write output" ]; then
		problem "want exit 74 and 'cannot write output' with stdout on /dev/full"
	elif [ "$(dump "$d/cache.db")" != "$(cat "$d/after")" ]; then
		problem "stdout on /dev/full changed what was stored"
	fi
}

# --- scenarios ---------------------------------------------------------------

# A seeded cache: what every scenario starts from.
template="$root/template.db"
GPUCMP_CACHE=$template "$bin" --quiet list --limit 0 >/dev/null || exit 1
start=$template
# 71 out of memory, 74 cache I/O (docs/EXIT-CODES.md)
scenario list list 71 74 list
scenario list-json list 71 74 list --json --where 'vram >= 40 and price < 8' --sort -price,gpu
scenario list-csv list 71 74 list --format csv --gpu h100,a100 --provider lambda,vast,azure \
	--columns provider,sku,gpu,price,region --spot --limit 20

# 69 and 75: a provider failed (out of memory, or the cache write), kept
# its offers and was marked stale, the others were stored; 71 and 74: the
# run as a whole failed
server <<EOF
GET /api/v1/instance-types file=lambda/instance-types.json
GET /v4/linode/types?page=2 file=linode/types-page2.json
GET /v4/linode/types file=linode/types.json
GET /v4/regions/availability?page=2 file=linode/availability-page2.json
GET /v4/regions/availability file=linode/availability.json
POST /api/v0/bundles/ file=vast/bundles.json
EOF
export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LINODE_BASE_URL="$BASE" GPUCMP_VAST_BASE_URL="$BASE"
export GPUCMP_LAMBDA_API_KEY=k1 GPUCMP_LINODE_API_KEY=k2 GPUCMP_VAST_API_KEY=k3
scenario refresh refresh "69 71 75" "69 74 75" refresh lambda linode vast
scenario refresh-json refresh "69 71 75" "69 74 75" refresh --json lambda vast

# a folder of five catalogs, one transaction each (--force: the small
# fixture catalogs would shrink the snapshot's providers below 10%)
scenario import import 71 74 import --force "$src/tests/fixtures/skypilot"

if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""; fi
echo "$total_runs injected runs, $bad bad"
[ "$bad" = 0 ]
