#!/bin/bash
# Benchmark: the grouped table (issue 23) against the sqlite3 shell running
# the same GROUP BY on a flat indexed table of the same rows, and against
# another build (BEFORE), on two caches:
#   big    N offers (default 10^6): bench/gencsv.sh's catalog imported as
#          provider benchcloud, beside the built-in snapshot
#   sku1   one SKU in 99,999 regions (a 5.6 MB catalog, under the offer cap)
#
# usage: bench/grouped.sh [N]       (default 1000000)
#   RUNS=3  BUILD=build  BENCH_DIR=bench/tmp
#   BEFORE=DIR   a build directory of another revision (its gpucmp): timed
#                once per query on the same caches, its output compared
#
# Sides, each in turn RUNS times (median wall time; BEFORE once):
#   gpucmp      `gpucmp list <query>` as a person runs it: a table (not a
#               terminal: no width to fit), the footer with its counts on
#               stderr
#   table       `sqlite3 -csv flat.db "<GROUP BY>"`: a plain table named
#               offer_v made of every row and column of the view, indexed on
#               each grouping's key ((provider, sku), (gpu, gpu_count),
#               (provider, region)), ANALYZEd; the statement selects the
#               table's columns with the group's cheapest offer as SQLite's
#               bare columns of min(), the group's count, ORDER BY the
#               minimum, the LIMIT if any.  The planner walks the index.
#   scan        the same statement with NOT INDEXED (a scan and a sort;
#               faster here than the index walk): the floor the ratio uses
#               is the faster of the two
# Temporary space: SQLITE_TMPDIR is a fresh folder per side; its files are
# deleted as SQLite opens them, so the peak is the largest sum of the sizes
# of that folder's open files in /proc/PID/fd, polled every 50 ms, in one
# extra run each.  Peak memory: /usr/bin/time's maximum resident set.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
dir=${BENCH_DIR:-$root/bench/tmp}
runs=${RUNS:-3}
n=${1:-1000000}
before=${BEFORE:-}
mkdir -p "$dir"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target gpucmp -j2 >/dev/null
gpucmp="$build/gpucmp"
command -v sqlite3 >/dev/null || { echo "bench needs the sqlite3 shell" >&2; exit 69; }

# cache FILE CSV: a cache holding the snapshot and CSV as provider benchcloud
cache() {
	[ -f "$1" ] && return
	GPUCMP_CACHE=$1 "$gpucmp" --quiet list --limit 0 >/dev/null
	GPUCMP_CACHE=$1 "$gpucmp" --quiet import "$2" --provider benchcloud --new-provider \
		>/dev/null 2>&1
}
# flat CACHE FILE: the view as one indexed table
flat() {
	[ -f "$2" ] && [ "$2" -nt "$1" ] && return
	rm -f "$2"
	sqlite3 "$2" "ATTACH '$1' AS c; CREATE TABLE offer_v AS SELECT * FROM c.offer_v;
		CREATE INDEX flat_sku ON offer_v(provider, sku);
		CREATE INDEX flat_gpu ON offer_v(gpu, gpu_count);
		CREATE INDEX flat_region ON offer_v(provider, region); ANALYZE;"
}
csv="$dir/import-$n.csv"
[ -s "$csv" ] || "$root/bench/gencsv.sh" "$n" >"$csv"
sku1csv="$dir/sku1.csv"
[ -s "$sku1csv" ] || awk 'BEGIN {
	print "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice"
	for (i = 0; i < 99999; i++)
		printf "gpu_8x_H100,H100,8,64.0,512.0,%.2f,region-%d,,%.2f\n",
			10 + (i * 7919 % 10000) / 100.0, i, 5 + (i * 104729 % 5000) / 100.0 }' >"$sku1csv"
big="$dir/grouped-$n.db" sku1="$dir/grouped-sku1.db"
cache "$big" "$csv"
cache "$sku1" "$sku1csv"
flat "$big" "$dir/grouped-flat-$n.db"
flat "$sku1" "$dir/grouped-flat-sku1.db"

# The table's columns of a group row (query_table_columns), the group's
# count in COUNT's place.
cols() {
	echo "provider, sku, gpu, gpu_count, gpu_mem_gb, vcpus, ram_gb, region, $1," \
		"min(price_hr) AS p, spot_price_hr, available, k8s, mig, infiniband, price_kind"
}
floor_sql() { # KEY COUNT LIMIT
	local lim=""
	[ -n "$3" ] && lim=" LIMIT $3"
	echo "SELECT $(cols "$2") FROM offer_v GROUP BY $1 ORDER BY p IS NULL, p, $1$lim"
}

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
secs() { # CMD...: wall seconds of one run, output dropped
	local t0=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	echo "$EPOCHREALTIME - $t0" | bc -l
}
# peak_temp DIR CMD...: the peak bytes of the files SQLite keeps open in DIR
peak_temp() {
	local d=$1 peak=0 now pid f
	shift
	rm -rf "$d"
	mkdir -p "$d"
	SQLITE_TMPDIR=$d "$@" >/dev/null 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		now=0
		for f in /proc/"$pid"/fd/*; do
			case $(readlink "$f" 2>/dev/null) in
			"$d"/*) now=$((now + $(stat -L -c %s "$f" 2>/dev/null || echo 0))) ;;
			esac
		done
		[ "$now" -gt "$peak" ] && peak=$now
		sleep 0.05
	done
	wait "$pid" || true
	rm -rf "$d"
	echo "$peak"
}
rss() { # CMD...: peak resident set, MB
	/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.0f", $1 / 1024 }'
}

# name|cache|gpucmp args|group key|count column|limit
cases=(
	"10^6|$big|list|provider, sku|count(DISTINCT region)|"
	"10^6|$big|list --limit 20|provider, sku|count(DISTINCT region)|20"
	"10^6|$big|list --group-by provider|provider|count(*)|"
	"10^6|$big|list --group-by gpu --limit 20|gpu, gpu_count|count(*)|20"
	"10^6|$big|list --group-by region --limit 20|provider, region|count(*)|20"
	"10^6|$big|list --group-by sku --format json --limit 20|provider, sku|count(DISTINCT region)|20"
	"sku1|$sku1|list --limit 5|provider, sku|count(DISTINCT region)|5"
)
hdr="| cache | query | lines out | gpucmp s | table s | scan s | ratio (gpucmp / floor) | temp MB | RSS MB"
sep="|---|---|---:|---:|---:|---:|---:|---:|---:"
[ -n "$before" ] && hdr+=" | before s | before temp MB | after / before" && sep+="|---:|---:|---:"
echo "$hdr |"
echo "$sep|"
for c in "${cases[@]}"; do
	IFS='|' read -r name db q key count lim <<<"$c"
	read -r -a args <<<"$q"
	flatdb="$dir/grouped-flat-${name/10^6/$n}.db"
	[ "$name" = sku1 ] && flatdb="$dir/grouped-flat-sku1.db"
	sql=$(floor_sql "$key" "$count" "$lim")
	scan=${sql/FROM offer_v/FROM offer_v NOT INDEXED}
	rows=$(GPUCMP_CACHE=$db "$gpucmp" "${args[@]}" 2>/dev/null | wc -l)
	g=() t=() s=()
	for ((r = 0; r < runs; r++)); do
		g+=("$(GPUCMP_CACHE=$db secs "$gpucmp" "${args[@]}")")
		t+=("$(secs sqlite3 -csv "$flatdb" "$sql")")
		s+=("$(secs sqlite3 -csv "$flatdb" "$scan")")
	done
	gm=$(printf '%s\n' "${g[@]}" | median)
	tm=$(printf '%s\n' "${t[@]}" | median)
	sm=$(printf '%s\n' "${s[@]}" | median)
	floor=$(printf '%s\n%s\n' "$tm" "$sm" | sort -g | head -1)
	temp=$(GPUCMP_CACHE=$db peak_temp "$dir/sqlite-tmp" "$gpucmp" "${args[@]}")
	mem=$(GPUCMP_CACHE=$db rss "$gpucmp" "${args[@]}")
	line=$(printf '| %s | `%s` | %s | %.2f | %.2f | %.2f | %.2f | %.1f | %s' "$name" "$q" \
		"$rows" "$gm" "$tm" "$sm" "$(echo "$gm / $floor" | bc -l)" \
		"$(echo "$temp / 1048576" | bc -l)" "$mem")
	if [ -n "$before" ]; then
		a=$(GPUCMP_CACHE=$db "$gpucmp" "${args[@]}" 2>/dev/null | md5sum)
		b=$(GPUCMP_CACHE=$db "$before/gpucmp" "${args[@]}" 2>/dev/null | md5sum)
		[ "$a" = "$b" ] || { echo "grouped.sh: before and after differ on $q" >&2; exit 1; }
		bs=$(GPUCMP_CACHE=$db secs "$before/gpucmp" "${args[@]}")
		btemp=$(GPUCMP_CACHE=$db peak_temp "$dir/sqlite-tmp" "$before/gpucmp" "${args[@]}")
		line+=$(printf ' | %.2f | %.1f | %.3f' "$bs" "$(echo "$btemp / 1048576" | bc -l)" \
			"$(echo "$gm / $bs" | bc -l)")
	fi
	echo "$line |"
done
