#!/bin/bash
# Benchmark: selective `gpucmp list` queries against the sqlite3 shell on an
# indexed table holding the same rows (issue 15 part 9), N synthetic offers.
#
# usage: bench/select.sh [N]        (default 1000000)
#   RUNS=21  BUILD=build  BENCH_DIR=bench/tmp
#   BEFORE=DIR   a build directory of another revision (its gpucmp and
#                gpucmp-genoffers): timed in the same run, on its own cache
#                of the same rows, for a before/after column
#
# Three sides, the same rows and the same result:
#   gpucmp    `gpucmp --quiet list <query> --format csv` on cache-N.db
#   view      `sqlite3 -csv -header cache-N.db "<SQL>"`: the shell on the
#             same cache running what `gpucmp list ... --explain` prints
#   table     `sqlite3 -csv -header flat-N.db "<PLAIN>"`: the shell on a
#             plain table named offer_v made of every row and column of the
#             view (CREATE TABLE ... AS SELECT * FROM offer_v), with the
#             index the query wants: (gpu_id, gpu_count, price_hr), ANALYZEd.
#             PLAIN is the plain statement, SELECT ... FROM offer_v WHERE ...
#             ORDER BY ... LIMIT n (gpucmp's --explain of the query without
#             --limit, the LIMIT put back): with a LIMIT gpucmp looks the
#             rows up late (an inner query on table offer), which a flat
#             table has no use for
# Runs are interleaved (one of each side in turn, RUNS times) and the median
# wall time is reported; the ratio is gpucmp / table.  Both shells' outputs
# are compared (they must be identical) and gpucmp's row count with theirs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
dir=${BENCH_DIR:-$root/bench/tmp}
runs=${RUNS:-21}
n=${1:-1000000}
before=${BEFORE:-}
mkdir -p "$dir"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target gpucmp gpucmp-genoffers -j2 >/dev/null
command -v sqlite3 >/dev/null || { echo "bench needs the sqlite3 shell" >&2; exit 69; }

gen() { # genoffers cache: the same seeded rows for any revision
	[ -f "$2" ] && return
	rm -f "$2" "$2-wal" "$2-shm"
	"$1" "$2" "$n"
}
db="$dir/cache-$n.db"
gen "$build/gpucmp-genoffers" "$db"
GPUCMP_CACHE=$db "$build/gpucmp" --quiet list --limit 0 >/dev/null # migrate an older cache
flat="$dir/flat-$n.db"
if [ ! -f "$flat" ] || [ "$db" -nt "$flat" ]; then
	rm -f "$flat"
	sqlite3 "$flat" "ATTACH '$db' AS c; CREATE TABLE offer_v AS SELECT * FROM c.offer_v;
		CREATE INDEX flat_sel ON offer_v(gpu_id, gpu_count, price_hr); ANALYZE;"
fi
if [ -n "$before" ]; then
	dbb="$dir/cache-before-$n.db"
	gen "$before/gpucmp-genoffers" "$dbb"
	GPUCMP_CACHE=$dbb "$before/gpucmp" --quiet list --limit 0 >/dev/null # its catalog synced
fi

queries=(
	"--gpu h100 --gpus 8 --max-price 40 --limit 20"
	"--gpu a100 --gpus 8"
	"--limit 0"
	"--gpu h100 --limit 0"
)

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# time_sides CMD...: each a shell command string; RUNS rounds of one run of
# each in turn; prints the median seconds of each, space separated
time_sides() {
	local tmp r i t0 t1
	tmp=$(mktemp -d)
	for ((r = 0; r < runs; r++)); do
		for ((i = 1; i <= $#; i++)); do
			t0=$EPOCHREALTIME
			eval "${!i}" >/dev/null
			t1=$EPOCHREALTIME
			echo "$t1 - $t0" | bc -l >>"$tmp/$i"
		done
	done
	for ((i = 1; i <= $#; i++)); do
		printf '%s ' "$(median <"$tmp/$i")"
	done
	rm -rf "$tmp"
}

hdr="| offers | query | rows | gpucmp ms | shell, view ms | shell, table ms | ratio (gpucmp / table)"
sep="|---:|---|---:|---:|---:|---:|---:"
[ -n "$before" ] && hdr+=" | before ms | after / before" && sep+="|---:|---:"
echo "$hdr |"
echo "$sep|"
for q in "${queries[@]}"; do
	eval "args=($q)"
	sql=$(GPUCMP_CACHE=$db "$build/gpucmp" list "${args[@]}" --format csv --explain)
	plain=$sql
	if [[ $q =~ (.*)--limit\ ([0-9]+)(.*) ]]; then
		eval "pargs=(${BASH_REMATCH[1]} ${BASH_REMATCH[3]})"
		plain=$(GPUCMP_CACHE=$db "$build/gpucmp" list "${pargs[@]}" --format csv --explain)
		plain="${plain%;} LIMIT ${BASH_REMATCH[2]};"
	fi
	[ "$q" = "${q%--limit 0}" ] || sql="SELECT 1" plain="SELECT 1" # start-up: the file opened
	rows=$(GPUCMP_CACHE=$db "$build/gpucmp" --quiet list "${args[@]}" --format csv |
		tail -n +2 | wc -l)
	a=$(sqlite3 -csv "$db" "$sql" | md5sum)
	b=$(sqlite3 -csv "$flat" "$plain" | md5sum)
	trows=$(sqlite3 -csv "$flat" "$plain" | wc -l)
	[ "$sql" = "SELECT 1" ] && trows=0
	if [ "$a" != "$b" ] || [ "$rows" != "$trows" ]; then
		echo "select.sh: the sides disagree on $q ($rows / $trows rows)" >&2
		exit 1
	fi
	sides=("GPUCMP_CACHE='$db' '$build/gpucmp' --quiet list $q --format csv"
		"sqlite3 -csv -header '$db' \"\$sql\""
		"sqlite3 -csv -header '$flat' \"\$plain\"")
	[ -n "$before" ] &&
		sides+=("GPUCMP_CACHE='$dbb' '$before/gpucmp' --quiet list $q --format csv")
	read -r -a t <<<"$(time_sides "${sides[@]}")"
	line=$(printf '| %s | `%s` | %s | %.1f | %.1f | %.1f | %.2f' "$n" "$q" "$rows" \
		"$(echo "${t[0]} * 1000" | bc -l)" "$(echo "${t[1]} * 1000" | bc -l)" \
		"$(echo "${t[2]} * 1000" | bc -l)" "$(echo "${t[0]} / ${t[2]}" | bc -l)")
	[ -n "$before" ] && line+=$(printf ' | %.1f | %.2f' "$(echo "${t[3]} * 1000" | bc -l)" \
		"$(echo "${t[0]} / ${t[3]}" | bc -l)")
	echo "$line |"
done
