#!/bin/sh
# Crash safety, concurrency and broken caches (issue 7, parts 3 and 4):
# the built gpucmp against the loopback fixture server, checked with the
# sqlite3 shell.  docs/RELIABILITY.md describes what is tested and why.
#
# usage: run.sh GPUCMP FIXTURED [PART...]
#   parts: kill_refresh kill_import concurrent broken (default: all)
#   CRASH_KILLS=N   refreshes killed (default 150; imports killed: N/3)
#   CRASH_BUDGET=S  seconds each kill loop may take; past it a loop stops
#                   (after at least 20 kills) and says how many it ran
#                   (default 40, so a loaded machine still finishes)
#   CRASH_SEED=N    seed for the kill delays (default: from the clock; printed)
#
# kill_refresh  SIGKILL a refresh of three providers (old data A in the
#               cache, new data B served with delays) at random moments;
#               after each kill the cache passes integrity_check, each
#               provider holds exactly A or exactly B (offers and refresh
#               record together), 'list' works and the lock is free.
# kill_import   the same for a 22,000-row import, whose transaction drops
#               and rebuilds the indexes: killed anywhere, the indexes are
#               all there and the rows are exactly the old or the new ones.
# concurrent    ten refreshes at once with readers ('list', 'cache status')
#               running throughout, with --wait 0 and with a long --wait,
#               and ten first runs at once on no cache at all.
# broken        corrupt, truncated, empty, foreign, newer, read-only and
#               size-limited caches: message, exit code, what happens to
#               the file (the cases the e2e format cannot express).
#
# Each part prints its figures; a part fails at its first failed check.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fixtured=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/fixtured.sh"
fixtures=$(cd "$here/../fixtures/http" && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-crash.XXXXXX")
spid=""
mounted=""
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "$mounted" ] && umount "$mounted"
	chmod -R u+w "$root" 2>/dev/null
	rm -rf "$root"
}
trap cleanup EXIT INT TERM

unset XDG_CACHE_HOME XDG_CONFIG_HOME NO_COLOR COLUMNS
for v in $(env | sed -n 's/^\(GPUCMP_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export HOME="$root/home" GPUCMP_TODAY=2026-12-02 LC_ALL=C
# hosted catalogs: never the public ones (a closed loopback port)
export GPUCMP_SKYPILOT_CATALOG_URL=http://127.0.0.1:9/v8 GPUCMP_GPUHUNT_CATALOG_URL=http://127.0.0.1:9/v3
mkdir -p "$HOME"
KILLS=${CRASH_KILLS:-150}
BUDGET=${CRASH_BUDGET:-40}
SEED=${CRASH_SEED:-$(date +%s)}
PROVIDERS="lambda linode vast"
skips=0

fail() {
	echo "FAIL $part: $*"
	for f in out err; do
		[ -s "$dir/$f" ] && { echo "--- $f"; head -20 "$dir/$f"; }
	done
	return 1
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# g ARGS...: gpucmp on $db; stdout in $dir/out, stderr in $dir/err, exit in $rc.
g() {
	"$bin" --cache "$db" "$@" >"$dir/out" 2>"$dir/err"
	rc=$?
}

expect_rc() { [ "$rc" = "$1" ] || fail "exit $rc, want $1 (gpucmp $2)"; }
has() { grep -qF -- "$2" "$dir/$1" || fail "$1 lacks '$2'"; }
# a full disk or a file-size limit, said as such
has_full() {
	grep -qE 'disk is full|file-size limit|file system holding it is full' "$dir/$1" ||
		fail "$1 does not say the disk is full"
}
sql() { sqlite3 "$db" "$1"; }
integrity_ok() {
	got=$(sqlite3 "$1" "PRAGMA integrity_check" 2>&1)
	[ "$got" = ok ] || fail "integrity_check of $1: $got"
}

# Every column of an offer but its id and fetch time, sorted, one line a
# row ("PROVIDER|ROW"), then each provider's refresh record ("#state|...").
# Data B is served with an ETag, so the record shows which data it belongs to.
ROW="quote(sku)||'|'||quote(gpu)||'|'||quote(gpu_name)||'|'||quote(gpu_count)||'|'||
quote(gpu_mem_gb)||'|'||quote(vcpus)||'|'||quote(ram_gb)||'|'||quote(disk_gb)||'|'||
quote(region)||'|'||quote(price_hr)||'|'||quote(spot_price_hr)||'|'||quote(currency)||'|'||
quote(price_native)||'|'||quote(available)||'|'||quote(source)||'|'||quote(origin)||'|'||
quote(stale)||'|'||quote(driver_version)"
DUMP="SELECT provider, $ROW FROM offer ORDER BY 1, 2;
SELECT '#state', provider, quote(source), quote(etag), stale, quote(last_error)
 FROM provider_state ORDER BY 2;"
INDEXES="SELECT count(*) FROM sqlite_master WHERE type='index' AND tbl_name='offer' AND name LIKE 'offer_%'"
NINDEXES=5 # price, spot, gpu, provider, kind (schema 8)
dump() { sqlite3 "$1" "$DUMP"; }

# classify DB PROVIDERS...: after a kill, one sqlite3 and one awk (this runs
# hundreds of times): prints one letter per provider named, o (its offers
# and refresh record are exactly those in $dir/dumpA) or n (exactly those in
# $dir/dumpB), or a line saying what is wrong: integrity, an offer index
# missing, a provider named that is neither, another provider that changed.
classify() {
	db_=$1
	shift
	sqlite3 "$db_" "PRAGMA integrity_check; $INDEXES; $DUMP" >"$dir/dump" 2>&1
	awk -F'|' -v provs="$*" -v nidx="$NINDEXES" '
		# set: 1 data A, 2 data B, 3 the cache; lines kept one by one
		# (appending to one string per provider is quadratic in awk)
		function add(set,   k) {
			k = $1 == "#state" ? $2 : $1
			n[set, k]++
			l[set, k, n[set, k]] = $0
			seen[k] = 1
		}
		function same(x, y, k,   i) {
			if (n[x, k] != n[y, k])
				return 0
			for (i = 1; i <= n[x, k]; i++)
				if (l[x, k, i] != l[y, k, i])
					return 0
			return 1
		}
		FILENAME == ARGV[1] { add(1); next }
		FILENAME == ARGV[2] { add(2); next }
		FNR == 1 { if ($0 != "ok") { print "integrity_check: " $0; bad = 1; exit } next }
		FNR == 2 { if ($0 != nidx) { print "offer indexes: " $0 " of " nidx; bad = 1; exit } next }
		{ add(3) }
		END {
			if (bad) exit
			np = split(provs, p, " ")
			for (i = 1; i <= np; i++) named[p[i]] = 1
			for (k in seen) if (!(k in named) && !same(1, 3, k)) { print "another provider changed: " k; exit }
			out = ""
			for (i = 1; i <= np; i++) {
				if (same(1, 3, p[i])) out = out "o"
				else if (same(2, 3, p[i])) out = out "n"
				else { print p[i] " holds neither the old nor the new offers"; exit }
			}
			print out
		}' "$dir/dumpA" "$dir/dumpB" "$dir/dump"
}

# server DATADIR [DELAY_LAMBDA DELAY_LINODE DELAY_VAST]: serve three
# providers' recorded responses from DATADIR; sets the base URLs.
server() {
	stop_server
	cat >"$dir/routes" <<EOF
GET  /api/v1/instance-types  file=lambda/instance-types.json delay_ms=${2:-0}
GET  /v4/linode/types?page=2  file=linode/types-page2.json delay_ms=${3:-0}
GET  /v4/linode/types  file=linode/types.json delay_ms=${3:-0}
GET  /v4/regions/availability?page=2  file=linode/availability-page2.json delay_ms=${3:-0}
GET  /v4/regions/availability  file=linode/availability.json delay_ms=${3:-0}
POST /api/v0/bundles/  file=vast/bundles.json delay_ms=${4:-0}
EOF
	[ "$(basename "$1")" = B ] && sed -i 's/$/ etag=B/' "$dir/routes"
	fixtured_start "$fixtured" "$dir/routes" "$1" "$dir"
	started=$?
	spid=$FIXTURED_PID
	if [ $started -ne 0 ]; then
		fail "fixture server did not start: $(cat "$dir/server.err")"
		return 1
	fi
	base=$FIXTURED_BASE
	export GPUCMP_LAMBDA_BASE_URL="$base" GPUCMP_LINODE_BASE_URL="$base" \
		GPUCMP_VAST_BASE_URL="$base" GPUCMP_LAMBDA_API_KEY=fixture-key
}

stop_server() {
	if [ -n "$spid" ]; then
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		spid=""
	fi
}

# Data A is the recorded responses; data B the same with every price the
# adapters read changed (a 1 put in front of it), so each provider's offers
# differ between the two.
make_data() {
	for p in $PROVIDERS; do
		mkdir -p "$root/A/$p" "$root/B/$p"
		cp "$fixtures/$p"/*.json "$root/A/$p/"
		for f in "$fixtures/$p"/*.json; do
			sed -e 's/"price_cents_per_hour": "/&1/' -e 's/"hourly": /&1/' \
				-e 's/"dph_total": /&1/' "$f" >"$root/B/$p/$(basename "$f")"
		done
	done
}

# delays N MAX_MS -> N random delays in seconds, 0..MAX_MS
delays() {
	awk -v n="$1" -v max="$2" -v seed="$SEED" \
		'BEGIN { srand(seed); for (i = 0; i < n; i++) printf "%.3f\n", rand() * max / 1000 }'
}

# run_killed DELAY ARGS...: start gpucmp, SIGKILL it after DELAY seconds;
# $killed is 1 when the signal ended it, 0 when it had finished first.
run_killed() {
	d=$1
	shift
	"$bin" --cache "$db" "$@" >"$dir/out" 2>"$dir/err" &
	p=$!
	sleep "$d"
	kill -9 "$p" 2>/dev/null
	{ wait "$p"; } 2>/dev/null # (no "Killed" from the shell)
	r=$?
	killed=0
	[ $r = 137 ] && killed=1
	[ $r = 137 ] || [ $r = 0 ] || fail "gpucmp $* exited $r before the kill"
}

# kill_loop KILLS SPAN_MS SEED PROVIDERS ARGS...: KILLS times, restore the
# cache holding data A, run gpucmp ARGS, SIGKILL it after 0..SPAN_MS ms and
# check the cache (classify), that 'list' works and says nothing; every
# tenth time, that the next writer gets the lock at once (--wait 0) and
# stores data B.  Outcomes go to $dir/outcomes, one line per kill.
kill_loop() {
	kills=$1 kspan=$2 kseed=$3 provs=$4
	shift 4
	n=0
	: >"$dir/outcomes"
	deadline=$(($(date +%s) + BUDGET))
	for d in $(SEED=$kseed delays "$kills" "$kspan"); do
		# a loaded machine: stop at the time budget, after a minimum of kills
		[ $n -ge 20 ] && [ "$(date +%s)" -gt $deadline ] && break
		n=$((n + 1))
		rm -f "$db-wal" "$db-shm"
		cp "$dir/cacheA.db" "$db"
		run_killed "$d" "$@" || return 1
		got=$(classify "$db" $provs)
		case $got in
		*[!on]*) fail "kill $n after ${d}s: $got" || return 1 ;;
		esac
		echo "$killed $got" >>"$dir/outcomes"
		g list --limit 1 --format csv --columns provider
		expect_rc 0 "list after kill $n" || return 1
		[ ! -s "$dir/err" ] || fail "list after kill $n printed: $(cat "$dir/err")" || return 1
		if [ $((n % 10)) = 0 ]; then
			# the lock died with the process: the next writer goes ahead at once
			g "$@" --wait 0
			expect_rc 0 "$* --wait 0 after kill $n" || return 1
			got=$(classify "$db" $provs)
			[ "$got" = "$(echo $provs | sed 's/[^ ]*/n/g; s/ //g')" ] ||
				fail "after kill $n, '$*' did not store the new data: $got" || return 1
		fi
	done
}

# kill_report WHAT PROVIDERS: the figures from $dir/outcomes
kill_report() {
	awk -v what="$1" -v provs="$2" -v span="$kspan" -v seed="$SEED" '
		{ kills++; if ($1 == 0) finished++
		  if ($2 ~ /o/ && $2 ~ /n/) split_++
		  for (i = 1; i <= length($2); i++) { if (substr($2, i, 1) == "o") old[i]++; else new[i]++ } }
		END {
			printf "%s: %d kills at 0-%d ms (seed %s): integrity_check ok and list exit 0 after every one;", what, kills, span, seed
			printf " %d had finished before the kill", finished
			if (split(provs, p, " ") > 1) printf "; %d left some providers old and others new", split_
			printf "\n"
			for (i = 1; i <= length(provs); i++) if (i in p)
				printf "  %-9s old %3d  new %3d  neither 0\n", p[i], old[i], new[i]
		}' "$dir/outcomes"
}

# --- parts -------------------------------------------------------------------

part_kill_refresh() {
	server "$root/A" || return 1
	g refresh $PROVIDERS
	expect_rc 0 "refresh (data A)" || return 1
	dump "$db" >"$dir/dumpA"
	cp "$db" "$dir/cacheA.db"
	server "$root/B" 40 25 70 || return 1
	g refresh $PROVIDERS
	expect_rc 0 "refresh (data B)" || return 1
	dump "$db" >"$dir/dumpB"
	got=$(classify "$db" $PROVIDERS)
	[ "$got" = nnn ] || fail "data A and B do not differ for every provider: $got" || return 1
	# how long an undisturbed refresh takes, to spread the kills over it
	rm -f "$db-wal" "$db-shm"
	cp "$dir/cacheA.db" "$db"
	t0=$(now_ms)
	g refresh $PROVIDERS
	span=$(($(now_ms) - t0))
	kill_loop "$KILLS" "$span" "$SEED" "$PROVIDERS" refresh $PROVIDERS || return 1
	kill_report kill_refresh "$PROVIDERS"
}

# SKYPILOT_CSV N PRICE_OFFSET: N rows of a SkyPilot vms.csv
big_csv() {
	awk -v n="$1" -v off="$2" 'BEGIN {
		print "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice"
		for (i = 0; i < n; i++)
			printf "gpu_%dx_H100_%d,H100,%d,8.0,64.0,%.2f,region-%d,,%.2f\n", 2 ^ (i % 4), i % 50,
				2 ^ (i % 4), off + 2 + (i % 1000) / 100.0, int(i / 50), off + 1 + (i % 700) / 100.0 }'
}

part_kill_import() {
	g import "$root/a.csv" --provider bigcloud --new-provider
	expect_rc 0 "import (A)" || return 1
	dump "$db" >"$dir/dumpA"
	cp "$db" "$dir/cacheA.db"
	t0=$(now_ms)
	g import "$root/b.csv" --provider bigcloud --new-provider
	span=$(($(now_ms) - t0))
	expect_rc 0 "import (B)" || return 1
	dump "$db" >"$dir/dumpB"
	[ "$(classify "$db" bigcloud)" = n ] || fail "import data A and B do not differ" || return 1
	# the commit and index rebuild come last: let some kills land after it
	kill_loop $((KILLS / 3)) $((span + span / 3)) $((SEED + 1)) bigcloud import "$root/b.csv" --provider bigcloud --new-provider || return 1
	kill_report "kill_import (22000 rows, indexes dropped and rebuilt in the transaction)" bigcloud
}

# readers LOGDIR: run list and cache status until $dir/stop exists;
# each run's exit code and output kept in LOGDIR.
readers() {
	k=0
	mkdir -p "$1"
	while [ ! -e "$dir/stop" ]; do
		k=$((k + 1))
		"$bin" --cache "$db" list --limit 5 --format csv >"$1/list$k.out" 2>"$1/list$k.err"
		echo $? >"$1/list$k.rc"
		"$bin" --cache "$db" cache status >"$1/status$k.out" 2>"$1/status$k.err"
		echo $? >"$1/status$k.rc"
	done
}

# ten refreshes, two reader loops; WAIT is the refreshes' --wait
concurrent_round() { # NAME WAIT
	rm -f "$dir/stop"
	rdir="$dir/$1"
	mkdir -p "$rdir"
	readers "$rdir/r1" &
	r1=$!
	readers "$rdir/r2" &
	r2=$!
	pids=""
	for k in 1 2 3 4 5 6 7 8 9 10; do
		"$bin" --cache "$db" refresh $PROVIDERS --wait "$2" >"$rdir/refresh$k.out" 2>"$rdir/refresh$k.err" &
		pids="$pids $!"
	done
	k=0
	for p in $pids; do
		k=$((k + 1))
		wait "$p"
		echo $? >"$rdir/refresh$k.rc"
	done
	: >"$dir/stop"
	wait $r1 $r2
	ok=0 busy=0
	for k in 1 2 3 4 5 6 7 8 9 10; do
		case $(cat "$rdir/refresh$k.rc") in
		0) ok=$((ok + 1)) ;;
		75)
			busy=$((busy + 1))
			grep -qE '^gpucmp: another gpucmp \(pid [0-9]+\) is updating the cache; try again later$' \
				"$rdir/refresh$k.err" && [ "$(wc -l <"$rdir/refresh$k.err")" = 1 ] ||
				fail "refresh $k (exit 75) said: $(cat "$rdir/refresh$k.err")" || return 1
			;;
		*) fail "refresh $k exited $(cat "$rdir/refresh$k.rc"): $(cat "$rdir/refresh$k.err")" || return 1 ;;
		esac
	done
	reads=$(find "$rdir" -name '*.rc' -path '*/r[12]/*' | wc -l)
	bad=$(find "$rdir" -name '*.rc' -path '*/r[12]/*' -exec grep -L '^0$' {} + | head -1)
	[ -z "$bad" ] || fail "a reader failed: $bad: $(cat "${bad%.rc}.err")" || return 1
	if grep -rliE 'locked|busy' "$rdir" >"$dir/locked"; then
		fail "'locked' or 'busy' in $(head -1 "$dir/locked"): $(grep -hiE 'locked|busy' "$(head -1 "$dir/locked")")"
		return 1
	fi
	integrity_ok "$db" || return 1
	got=$(classify "$db" $PROVIDERS)
	[ "$got" = nnn ] || fail "$1: the cache does not hold data B: $got" || return 1
	echo "concurrent $1: 10 refreshes (--wait $2): $ok exit 0, $busy exit 75 (lock held); $reads reader runs, all exit 0; no 'locked'/'busy'; integrity ok"
	eval "ok_$1=$ok busy_$1=$busy"
}

part_concurrent() {
	server "$root/B" 150 50 100 || return 1
	cp "$db" "$dir/seeded.db"
	dump "$db" >"$dir/dumpA"
	g refresh $PROVIDERS
	expect_rc 0 "refresh (data B)" || return 1
	dump "$db" >"$dir/dumpB"
	fresh_copy
	concurrent_round nowait 0 || return 1
	[ "$ok_nowait" -ge 1 ] || fail "no refresh succeeded" || return 1
	fresh_copy
	# a wait no queue outlasts, however slow the machine (the most --wait takes)
	concurrent_round wait 86400 || return 1
	[ "$ok_wait" = 10 ] || fail "with --wait 86400 only $ok_wait of 10 succeeded" || return 1
	# ten first runs at once, on no cache at all: one creates it, none fails
	rm -f "$db" "$db-wal" "$db-shm" "$db.lock"
	concurrent_round first 86400 || return 1
	[ "$ok_first" = 10 ] || fail "first runs: only $ok_first of 10 succeeded" || return 1
	created=$(cat "$dir/first"/refresh*.err "$dir/first"/r?/*.err | grep -c '^gpucmp: created cache')
	[ "$created" = 1 ] || fail "first runs: 'created cache' said $created times, want 1" || return 1
	# a reader that met the creator's lock while switching to WAL waits, as
	# the busy timeout promises, instead of answering from the snapshot
	! grep -l 'database is locked' "$dir/first"/refresh*.err "$dir/first"/r?/*.err ||
		fail "first runs: a run gave up on a locked cache" || return 1
}
fresh_copy() {
	rm -f "$db" "$db-wal" "$db-shm"
	cp "$dir/seeded.db" "$db"
}

# --- broken caches ---------------------------------------------------------

# `b_case NAME`: a fresh directory and db for one broken-cache check
b_case() {
	bname=$1
	chmod -R u+w "$dir/b" 2>/dev/null
	rm -rf "$dir/b"
	mkdir -p "$dir/b"
	db="$dir/b/cache.db"
	nb=$((nb + 1))
}

# One line naming the cache and where the broken file went; the file kept
# byte for byte; a new cache built from the snapshot.
moved_aside() { # ORIGINAL_COPY
	moved=$(ls "$dir/b"/cache.db.corrupt-* 2>/dev/null | head -1)
	[ -n "$moved" ] || fail "$bname: the broken file was not moved aside" || return 1
	cmp -s "$moved" "$1" || fail "$bname: the file moved aside is not the original" || return 1
	has err "gpucmp: warning: cache $db was not a usable database; moved it to $moved and rebuilt it from the built-in snapshot" || return 1
	has err "gpucmp: created cache $db from the built-in snapshot" || return 1
	integrity_ok "$db"
}

unchanged() { # ORIGINAL_COPY
	cmp -s "$db" "$1" || fail "$bname: the cache was changed" || return 1
	[ -z "$(ls "$dir/b"/cache.db.corrupt-* 2>/dev/null)" ] || fail "$bname: the cache was moved aside"
}

# nopriv CMD...: run as root without the capabilities that bypass file
# permissions, so read-only files and directories are read-only
NOPRIV=""
find_nopriv() {
	: >"$root/probe"
	chmod 444 "$root/probe"
	for w in "setpriv --bounding-set=-dac_override,-dac_read_search,-fowner,-linux_immutable --" \
		"setpriv --reuid=65534 --regid=65534 --clear-groups --"; do
		# shellcheck disable=SC2086
		if ! $w sh -c ": >>'$root/probe'" 2>/dev/null && $w "$bin" --version >/dev/null 2>&1; then
			NOPRIV=$w
			break
		fi
	done
	[ "$(id -u)" != 0 ] && ! sh -c ": >>'$root/probe'" 2>/dev/null && NOPRIV=" "
	chmod 644 "$root/probe"
}
gro() { # g, read-only world
	# shellcheck disable=SC2086
	$NOPRIV "$bin" --cache "$db" "$@" >"$dir/out" 2>"$dir/err"
	rc=$?
}

part_broken() {
	nb=0
	cp "$db" "$dir/good.db"
	size=$(stat -c %s "$dir/good.db")
	pagesize=$(sqlite3 "$dir/good.db" "PRAGMA page_size")
	pages=$((size / pagesize))
	# a truncated file: cut at several places, always detected on open
	for pct in 1 25 50 75 99; do
		b_case "truncated-$pct"
		cut=$((pages * pct / 100 * pagesize))
		[ $cut -gt 0 ] || cut=100
		head -c $cut "$dir/good.db" >"$dir/orig.db"
		cp "$dir/orig.db" "$db"
		g list --limit 1 --format csv --columns provider
		expect_rc 0 "list ($bname)" && moved_aside "$dir/orig.db" || return 1
	done
	# random bytes over the whole file
	b_case random
	head -c 65536 /dev/urandom >"$dir/orig.db"
	cp "$dir/orig.db" "$db"
	g refresh lambda --wait 0 --retries 0 --timeout 1
	[ "$rc" != 74 ] && moved_aside "$dir/orig.db" || fail "refresh on random bytes: exit $rc" || return 1
	# a damaged page that opening does not read (the offer table's root):
	# the list that meets it moves the file aside (exit 74), the next run
	# rebuilds; cache clear, the documented repair, does both at once
	rootpage=$(sqlite3 "$dir/good.db" "SELECT rootpage FROM sqlite_master WHERE name = 'offer'")
	for how in list clear; do
		b_case "damaged-page-$how"
		cp "$dir/good.db" "$dir/orig.db"
		head -c "$pagesize" /dev/urandom | dd of="$dir/orig.db" bs="$pagesize" \
			seek=$((rootpage - 1)) count=1 conv=notrunc 2>/dev/null
		cp "$dir/orig.db" "$db"
		if [ $how = list ]; then
			g list --format csv --columns provider
			expect_rc 74 "list on a damaged page" || return 1
			moved=$(ls "$dir/b"/cache.db.corrupt-* 2>/dev/null | head -1)
			has err "gpucmp: cache $db is not a usable database (database disk image is malformed); moved it to $moved; the next run rebuilds it from the built-in snapshot" || return 1
			g list --limit 1 --format csv --columns provider
			expect_rc 0 "list after a damaged page" && has err "gpucmp: created cache $db from the built-in snapshot" || return 1
		else
			g cache clear
			expect_rc 0 "cache clear on a damaged page" || return 1
			moved=$(ls "$dir/b"/cache.db.corrupt-* 2>/dev/null | head -1)
			has err "gpucmp: warning: cache $db was not a usable database; moved it to $moved and rebuilt it from the built-in snapshot" || return 1
		fi
		[ -n "$moved" ] && cmp -s "$moved" "$dir/orig.db" || fail "$bname: the damaged file was not kept as it was" || return 1
		integrity_ok "$db" || return 1
	done
	# an empty file is an empty SQLite database: simply created
	b_case empty
	: >"$db"
	g list --limit 1 --format csv --columns provider
	expect_rc 0 "list (empty file)" && has err "gpucmp: created cache $db from the built-in snapshot" || return 1
	[ -z "$(ls "$dir/b"/cache.db.corrupt-* 2>/dev/null)" ] || fail "an empty file was moved aside" || return 1
	# newer schema, someone else's SQLite file: refused by every command, untouched
	for kind in newer foreign; do
		b_case $kind
		if [ $kind = newer ]; then
			cp "$dir/good.db" "$db"
			sqlite3 "$db" "PRAGMA user_version = 99"
			want="gpucmp: cache $db has schema version 99, newer than this gpucmp knows"
		else
			sqlite3 "$db" "CREATE TABLE notes(x); INSERT INTO notes VALUES('mine')"
			want="gpucmp: $db is a SQLite database but not a gpucmp cache; refusing to change it"
		fi
		sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
		cp "$db" "$dir/orig.db"
		for cmd in "list" "cache status" "cache clear" "import $root/a.csv --provider x" \
			"refresh lambda --retries 0 --timeout 1"; do
			# shellcheck disable=SC2086
			g $cmd
			expect_rc 74 "$cmd ($kind)" && has err "$want" && unchanged "$dir/orig.db" || return 1
			[ "$(wc -l <"$dir/err")" = 1 ] || fail "$cmd ($kind): more than one line on stderr" || return 1
		done
	done
	broken_readonly || return 1
	broken_full || return 1
	echo "broken: $nb broken-cache checks passed"
}

broken_readonly() {
	find_nopriv
	if [ -z "$NOPRIV" ]; then
		skips=$((skips + 1))
		echo "SKIP broken read-only: cannot drop the right to write read-only files (no setpriv)"
		return 0
	fi
	# a read-only cache file (directory writable): reads work, writes are
	# refused with exit 74 naming the file, the offers stay
	b_case readonly-file
	cp "$dir/good.db" "$db"
	chmod 444 "$db"
	dump "$db" >"$dir/before"
	gro list --limit 1 --format csv --columns provider
	expect_rc 0 "list (read-only file)" || return 1
	gro cache status
	expect_rc 0 "cache status (read-only file)" || return 1
	gro import "$root/a.csv" --provider bigcloud --new-provider
	expect_rc 74 "import (read-only file)" && has err "cache $db: " && has err "readonly database" || return 1
	gro cache clear
	expect_rc 74 "cache clear (read-only file)" && has err "cache $db: " || return 1
	dump "$db" >"$dir/after"
	cmp -s "$dir/before" "$dir/after" || fail "the read-only cache changed" || return 1
	# a read-only directory, no cache yet: list answers from the snapshot
	# with a warning; writers exit 74 naming the file
	b_case readonly-dir-new
	chmod 555 "$dir/b"
	gro list --limit 1 --format csv --columns provider
	expect_rc 0 "list (read-only dir)" && has err "gpucmp: warning: cannot open cache $db: " &&
		has err "answering from the built-in snapshot" || return 1
	gro import "$root/a.csv" --provider bigcloud --new-provider
	expect_rc 74 "import (read-only dir)" && has err "cannot open cache $db: " || return 1
	[ ! -e "$db" ] || fail "a cache appeared in a read-only directory" || return 1
	# a read-only directory holding a seeded cache: list still reads it
	b_case readonly-dir-seeded
	cp "$dir/good.db" "$db"
	chmod 555 "$dir/b"
	gro list --limit 1 --format csv --columns provider
	expect_rc 0 "list (cache in a read-only dir)" && has out "provider" || return 1
	gro import "$root/a.csv" --provider bigcloud --new-provider
	expect_rc 74 "import (cache in a read-only dir)" && has err "$db" || return 1
	cmp -s "$db" "$dir/good.db" || fail "the cache in a read-only directory changed" || return 1
	nb=$((nb))
}

broken_full() {
	# a file-size limit (a full disk, as far as write() can tell): EFBIG,
	# not SIGXFSZ; a writer exits 74 naming the cache, a reader answers
	# from the built-in snapshot with a warning; the old data intact
	b_case fsize-seed
	(ulimit -f 200 && exec "$bin" --cache "$db" import "$root/a.csv" --provider bigcloud \
		--new-provider) >"$dir/out" 2>"$dir/err"
	rc=$?
	expect_rc 74 "import (first run, 200 KiB file limit)" && has err "$db" && has_full err || return 1
	(ulimit -f 200 && exec "$bin" --cache "$db" list --limit 1) >"$dir/out" 2>"$dir/err"
	rc=$?
	expect_rc 0 "list (first run, 200 KiB file limit)" && has err "$db" && has_full err &&
		has err "answering from the built-in snapshot" && has out "PROVIDER" || return 1
	g list --limit 1 --format csv --columns provider
	expect_rc 0 "list after the limit is lifted" || return 1
	b_case fsize-import
	cp "$dir/good.db" "$db"
	dump "$db" >"$dir/before"
	(ulimit -f 1500 && exec "$bin" --cache "$db" import "$root/b.csv" --provider bigcloud --new-provider) \
		>"$dir/out" 2>"$dir/err"
	rc=$?
	expect_rc 74 "import (1500 KiB file limit)" && has err "$db" && has_full err || return 1
	integrity_ok "$db" || return 1
	dump "$db" >"$dir/after"
	cmp -s "$dir/before" "$dir/after" || fail "the cache changed after a failed import" || return 1
	# a real full file system and a read-only medium: a tmpfs of our own
	b_case tmpfs
	mnt="$dir/tmpfs"
	mkdir -p "$mnt"
	if ! mount -t tmpfs -o size=2m,mode=0700 tmpfs "$mnt" 2>"$dir/mount.err"; then
		skips=$((skips + 1))
		echo "SKIP broken tmpfs: cannot mount a tmpfs here ($(cat "$dir/mount.err")):" \
			"the full-disk and read-only-medium checks did not run"
		return 0
	fi
	mounted="$mnt"
	full_import && full_readers && readonly_medium
	r=$?
	umount "$mnt" && mounted=""
	return $r
}

# fill_up: fill the tmpfs to the last byte (a file beside the cache)
fill_up() {
	dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
	[ "$(stat -f -c %a "$mnt")" = 0 ] || fail "$bname: the tmpfs is not full"
}

# tmpfs_cache FILE...: the tmpfs emptied, FILE (and FILE-wal) as its cache
tmpfs_cache() {
	rm -rf "${mnt:?}"/*
	db="$mnt/cache.db"
	cp "$1" "$db"
	[ $# -lt 2 ] || cp "$2" "$db-wal"
}

# no file moved aside anywhere on the tmpfs
none_moved() {
	[ -z "$(ls "$mnt"/*.corrupt-* 2>/dev/null)" ] || fail "$bname: a cache was moved aside: $(ls "$mnt")"
}

full_import() {
	bname=tmpfs-import
	nb=$((nb + 1))
	tmpfs_cache "$dir/good.db"
	dump "$db" >"$dir/before"
	g import "$root/b.csv" --provider bigcloud --new-provider
	expect_rc 74 "import on a full tmpfs" || return 1
	grep -qE "disk is full|File too large|No space|file system holding it is full" "$dir/err" ||
		fail "import on a full tmpfs does not say the disk is full" || return 1
	integrity_ok "$db" || return 1
	dump "$db" >"$dir/after"
	cmp -s "$dir/before" "$dir/after" || fail "the cache changed after an import on a full tmpfs" ||
		return 1
	none_moved
}

# Readers on a full file system (issue 12): they need no write, so they
# answer from the cache read-only (a warning says why), whatever is beside
# it; with no cache, from the built-in snapshot.  Nothing is moved aside.
full_readers() {
	bname=tmpfs-full
	# offers left in the -wal by a writer that did not checkpoint: a copy
	# of both files taken while its connection is still open
	rm -f "$dir/w.db-wal" "$dir/w.db-shm"
	cp "$dir/good.db" "$dir/w.db"
	sqlite3 "$dir/w.db" >/dev/null <<EOF || return 1
PRAGMA wal_autocheckpoint=0;
UPDATE offer SET price_hr = 7777.5 WHERE provider = 'lambda';
.shell cp '$dir/w.db' '$dir/walled.db'
.shell cp '$dir/w.db-wal' '$dir/walled.db-wal'
EOF
	[ -s "$dir/walled.db-wal" ] || fail "no -wal copied" || return 1
	# what each reader prints from the cache when the disk has room
	tmpfs_cache "$dir/good.db"
	for c in "list --limit 3 --format csv" "cache status --json" "history --format csv"; do
		# shellcheck disable=SC2086
		g $c && cp "$dir/out" "$dir/want.$(echo "$c" | cut -d' ' -f1-2 | tr ' ' _)"
	done
	for how in plain wal-shm wal; do
		nb=$((nb + 1))
		tmpfs_cache "$dir/good.db"
		[ $how = plain ] || tmpfs_cache "$dir/walled.db" "$dir/walled.db-wal"
		# an -shm that cannot grow: the 3 bytes a failed open leaves
		[ $how = wal-shm ] && printf 'xxx' >"$db-shm"
		cp "$db" "$dir/orig.db"
		fill_up || return 1
		for c in "list --limit 3 --format csv" "cache status --json" "history --format csv"; do
			# shellcheck disable=SC2086
			g $c
			expect_rc 0 "$c on a full disk ($how)" || return 1
			has err "gpucmp: warning: cache $db: " && has_full err &&
				has err "; reading the cache without updating it" || return 1
			[ $how != plain ] ||
				cmp -s "$dir/out" "$dir/want.$(echo "$c" | cut -d' ' -f1-2 | tr ' ' _)" ||
				fail "$c on a full disk: not the cache's answer" || return 1
		done
		# the offers in the -wal are read, not only the file
		[ $how = plain ] || { g list --provider lambda --format csv --columns price_hr --limit 1
			has out "7777.5" || return 1; }
		g import "$root/b.csv" --provider bigcloud --new-provider
		expect_rc 74 "import on a full disk ($how)" || return 1
		none_moved || return 1
		cmp -s "$db" "$dir/orig.db" || fail "$bname ($how): the cache file changed" || return 1
	done
	# no cache at all: the snapshot, with a warning
	nb=$((nb + 1))
	rm -rf "${mnt:?}"/*
	fill_up || return 1
	g list --limit 1 --format csv --columns provider
	expect_rc 0 "list on a full disk, no cache" && has err "answering from the built-in snapshot" &&
		has out "provider" || return 1
	g cache status
	expect_rc 0 "cache status on a full disk, no cache" || return 1
	none_moved
}

# A read-only medium (the tmpfs remounted read-only): readers read the
# cache as it is, without a word, also with a -wal beside it; writers exit
# 74; a -wal that cannot be read without making a -shm: the snapshot, with
# a warning.  Nothing changes, nothing is moved aside.
readonly_medium() {
	bname=tmpfs-readonly
	for how in plain wal-shm wal; do
		nb=$((nb + 1))
		tmpfs_cache "$dir/good.db"
		[ $how = plain ] || tmpfs_cache "$dir/walled.db" "$dir/walled.db-wal"
		[ $how = wal-shm ] && printf 'xxx' >"$db-shm"
		cp "$db" "$dir/orig.db"
		mount -o remount,ro "$mnt" || fail "cannot remount the tmpfs read-only" || return 1
		g list --provider lambda --format csv --columns price_hr --limit 1
		expect_rc 0 "list on a read-only medium ($how)" || return 1
		if [ $how = wal ]; then
			has err "answering from the built-in snapshot" || return 1
		else
			[ ! -s "$dir/err" ] || fail "list on a read-only medium ($how) said: $(cat "$dir/err")" ||
				return 1
			[ $how = plain ] || has out "7777.5" || return 1
		fi
		g cache status
		expect_rc 0 "cache status on a read-only medium ($how)" || return 1
		g history
		expect_rc 0 "history on a read-only medium ($how)" || return 1
		g cache clear
		expect_rc 74 "cache clear on a read-only medium ($how)" && has err "$db" || return 1
		cmp -s "$db" "$dir/orig.db" || fail "$bname ($how): the cache file changed" || return 1
		none_moved || return 1
		mount -o remount,rw "$mnt" || return 1
	done
}

# --- runner ----------------------------------------------------------------

all="kill_refresh kill_import concurrent broken"
[ $# -gt 0 ] && all="$*"
make_data
big_csv 22000 0 >"$root/a.csv"
big_csv 22000 1 >"$root/b.csv"
template="$root/template.db"
"$bin" --cache "$template" --quiet list --limit 0 >/dev/null || exit 1
pass=0
failed=""
start=$(date +%s)
for part in $all; do
	dir="$root/$part"
	mkdir -p "$dir"
	db="$dir/cache.db"
	cp "$template" "$db"
	if "part_$part"; then
		pass=$((pass + 1))
	else
		failed="$failed $part"
	fi
	stop_server
done
echo "$pass of $(echo $all | wc -w) crash parts passed in $(($(date +%s) - start)) s ($skips skipped checks)"
[ -z "$failed" ] || { echo "failed:$failed"; exit 1; }
