#!/bin/bash
# Benchmark: the price history (docs/HISTORY.md) at N offers.
#
# usage: bench/history.sh [N]   (default 100000)   REFRESHES=48 PER_DAY=48
#        PERMILLE=20 DAYS=90 RUNS=3 BUILD=build
#
# 1. Growth: N offers spread over the providers, then REFRESHES refreshes
#    (PER_DAY a day) through cache_store as refresh stores them
#    (bench/genhistory.c), PERMILLE per mille of the prices changing each
#    time and one offer in a thousand going or coming back.  The history's
#    size (dbstat: tables and indexes) after the baseline and after the
#    refreshes gives bytes per refresh, and 4 weeks of PER_DAY refreshes by
#    that rate; the same refreshes without the history give its cost.
# 2. Query: DAYS days of PER_DAY refreshes at the same rate of events,
#    written by SQL into that cache; `gpucmp changes --since 30d` against
#    the sqlite3 shell running the statement `changes --explain` prints,
#    median of RUNS each, alternating.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
n=${1:-100000}
refreshes=${REFRESHES:-48} per_day=${PER_DAY:-48} permille=${PERMILLE:-20}
days=${DAYS:-90} runs=${RUNS:-3}
dir=${BENCH_DIR:-$root/bench/tmp}
mkdir -p "$dir"
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target gpucmp gpucmp-genhistory -j2 >/dev/null
gpucmp="$build/gpucmp" gen="$build/gpucmp-genhistory"
db="$dir/history.db" off="$dir/history-off.db"
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
hsize() {
	sqlite3 "$1" "SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'history%'"
}
secs() { awk '/^day/ { s += $6 } END { print s }'; }

# 1. growth and cost
rm -f "$db"* "$off"*
"$gen" "$db" "$n" 0 "$per_day" "$permille" >/dev/null
base=$(hsize "$db")
rm -f "$db"*
t_on=$("$gen" "$db" "$n" "$refreshes" "$per_day" "$permille" | secs)
t_off=$(GENHISTORY_OFF=1 "$gen" "$off" "$n" "$refreshes" "$per_day" "$permille" | secs)
after=$(hsize "$db")
events=$(sqlite3 "$db" "SELECT count(*) FROM history")
per=$(( (after - base) / refreshes ))
weeks4=$(( base + per * 28 * per_day ))
echo "| offers | refreshes | events | history before / after | per refresh |" \
	"4 weeks x $per_day (extrapolated) | s per refresh, history on / off |"
echo "|---|---|---|---|---|---|---|"
printf '| %d | %d | %d | %.1f / %.1f MB | %.0f kB | %.0f MB | %.2f / %.2f |\n' "$n" \
	"$refreshes" "$events" "$(echo "$base / 1048576" | bc -l)" \
	"$(echo "$after / 1048576" | bc -l)" "$(echo "$per / 1024" | bc -l)" \
	"$(echo "$weeks4 / 1048576" | bc -l)" "$(echo "$t_on / $refreshes" | bc -l)" \
	"$(echo "$t_off / $refreshes" | bc -l)"

# 2. DAYS days of events at the rate measured, then changes --since 30d
total=$(( days * per_day )) rate=$(( events / refreshes ))
end=$(date -u -d "2026-09-01T00:00:00Z + $days days" +%Y-%m-%dT%H:%M:%SZ)
sqlite3 "$db" <<SQL
DELETE FROM history;
DROP INDEX history_offer_at;
WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < $total - 1),
k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < $rate - 1)
INSERT INTO history(offer, at, kind, price_hr, was_price_hr)
SELECT 1 + abs(random()) % (SELECT max(id) FROM history_offer),
 strftime('%Y-%m-%dT%H:%M:%SZ', '2026-09-01T00:00:00Z', '+' || (i * 1440 / $per_day) || ' minutes'),
 4, 1 + abs(random()) % 4000 / 100.0, 1 + abs(random()) % 4000 / 100.0 FROM r, k;
CREATE INDEX history_offer_at ON history(offer, at);
ANALYZE;
SQL
hist90=$(hsize "$db") events90=$(sqlite3 "$db" "SELECT count(*) FROM history")
export GPUCMP_NOW="$end"
sql=$(GPUCMP_CACHE="$db" "$gpucmp" changes --since 30d --explain)
rows=$(GPUCMP_CACHE="$db" "$gpucmp" changes --since 30d --format csv | wc -l)
ours=() shell=()
for _ in $(seq "$runs"); do
	t0=$(date +%s.%N)
	GPUCMP_CACHE="$db" "$gpucmp" changes --since 30d --format csv >/dev/null
	t1=$(date +%s.%N)
	sqlite3 -csv "$db" "$sql" >/dev/null
	t2=$(date +%s.%N)
	ours+=("$(echo "$t1 - $t0" | bc -l)")
	shell+=("$(echo "$t2 - $t1" | bc -l)")
done
o=$(printf '%s\n' "${ours[@]}" | median)
s=$(printf '%s\n' "${shell[@]}" | median)
echo
echo "| offers | days of history | events | history size | changes --since 30d rows |" \
	"gpucmp | sqlite3 shell | ratio |"
echo "|---|---|---|---|---|---|---|---|"
printf '| %d | %d | %d | %.0f MB | %d | %.2f s | %.2f s | %.2f |\n' "$n" "$days" "$events90" \
	"$(echo "$hist90 / 1048576" | bc -l)" "$((rows - 1))" "$o" "$s" "$(echo "$o / $s" | bc -l)"
