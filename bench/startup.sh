#!/bin/bash
# Benchmark: start-up (issue 23).  `gpucmp --version` and the README's main
# job, `gpucmp list --k8s managed --mig`, on the built-in data, against the
# sqlite3 shell on the same cache file: its own start (`SELECT 1`) and the
# very statement gpucmp runs (what `list --explain` prints).
#
# usage: bench/startup.sh
#   RUNS=100  ROUNDS=2  BUILD=build-bench  BENCH_DIR=bench/tmp
#   BEFORE=FILE  another revision's gpucmp binary (say the h-door build):
#                timed in the same run on its own cache, for the after /
#                before column
#
# Timing: hyperfine -N (no shell between) when installed, RUNS runs of each
# command, ROUNDS rounds one after the other, the median of each reported
# per round; without hyperfine, RUNS interleaved runs timed by bash.
# Instructions: callgrind's count of one run (the load on the machine does
# not change it), when valgrind is installed.  Every run of the list uses
# the cache it made at its first run ("warm"), except the "fresh cache" row,
# which removes it before each run (the cache made and the snapshot seeded).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build-bench}
dir=${BENCH_DIR:-$root/bench/tmp}/startup
runs=${RUNS:-100}
rounds=${ROUNDS:-2}
before=${BEFORE:-}
command -v sqlite3 >/dev/null || { echo "bench needs the sqlite3 shell" >&2; exit 69; }
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPUCMP_TESTS=OFF >/dev/null
cmake --build "$build" --target gpucmp -j2 >/dev/null
gpucmp=$build/gpucmp
rm -rf "$dir"
mkdir -p "$dir/after" "$dir/before" "$dir/fresh"
job=(list --k8s managed --mig)

# the caches, made by a first run of each binary
HOME=$dir/after XDG_CACHE_HOME=$dir/after "$gpucmp" --quiet "${job[@]}" >/dev/null
db=$dir/after/gpucmp/cache.db
HOME=$dir/after XDG_CACHE_HOME=$dir/after "$gpucmp" "${job[@]}" --explain | head -1 >"$dir/job.sql"
if [ -n "$before" ]; then
	HOME=$dir/before XDG_CACHE_HOME=$dir/before "$before" --quiet "${job[@]}" >/dev/null
fi
# the shell's statement gives the rows of gpucmp's table (one per group)
a=$(HOME=$dir/after XDG_CACHE_HOME=$dir/after "$gpucmp" --quiet "${job[@]}" | tail -n +2 | wc -l)
b=$(sqlite3 "$db" ".read $dir/job.sql" | wc -l)
if [ "$a" = 0 ] || [ "$a" != "$b" ]; then
	echo "startup.sh: gpucmp lists $a rows, the shell's statement $b" >&2
	exit 1
fi

# name|environment|command: what is timed
sides=(
	"gpucmp --version|HOME=$dir/after|$gpucmp --version"
	"gpucmp ${job[*]}|HOME=$dir/after XDG_CACHE_HOME=$dir/after|$gpucmp ${job[*]}"
	"gpucmp ${job[*]}, fresh cache|HOME=$dir/fresh XDG_CACHE_HOME=$dir/fresh|$gpucmp ${job[*]}"
	"sqlite3 cache.db 'SELECT 1'|HOME=$dir/after|sqlite3 $db 'SELECT 1'"
	"sqlite3 cache.db <the list's SQL>|HOME=$dir/after|sqlite3 $db '.read $dir/job.sql'"
)
if [ -n "$before" ]; then
	sides+=(
		"before: gpucmp --version|HOME=$dir/before|$before --version"
		"before: gpucmp ${job[*]}|HOME=$dir/before XDG_CACHE_HOME=$dir/before|$before ${job[*]}"
		"before: gpucmp ${job[*]}, fresh cache|HOME=$dir/fresh XDG_CACHE_HOME=$dir/fresh|$before ${job[*]}"
	)
fi
name() { echo "${1%%|*}"; }
envs() { local r=${1#*|}; echo "${r%%|*}"; }
cmd() { echo "${1##*|}"; }
fresh() { [[ $1 == *"fresh cache"* ]]; }

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# ms SIDE: the median wall time of RUNS runs, in ms
ms() {
	local s=$1 e c
	e=$(envs "$s") c=$(cmd "$s")
	if command -v hyperfine >/dev/null; then
		local prep=true
		fresh "$s" && prep="rm -rf $dir/fresh/gpucmp"
		# shellcheck disable=SC2086
		env $e hyperfine -N -w 3 -r "$runs" --prepare "$prep" --export-json "$dir/h.json" \
			"$c" >/dev/null 2>&1
		python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"] * 1000)' \
			"$dir/h.json"
	else
		local i t0 t1
		for ((i = 0; i < runs; i++)); do
			fresh "$s" && rm -rf "$dir/fresh/gpucmp"
			t0=$EPOCHREALTIME
			eval "env $e $c" >/dev/null 2>&1
			t1=$EPOCHREALTIME
			echo "($t1 - $t0) * 1000" | bc -l
		done | median
	fi
}
# instr SIDE: callgrind's instruction count of one run, in millions
instr() {
	local s=$1 e c
	command -v valgrind >/dev/null || { echo "-"; return; }
	e=$(envs "$s") c=$(cmd "$s")
	fresh "$s" && rm -rf "$dir/fresh/gpucmp"
	eval "env $e valgrind --tool=callgrind --callgrind-out-file='$dir/cg.out' $c" >/dev/null \
		2>"$dir/cg.log"
	awk '/Collected/ { printf "%.2f", $NF / 1e6 }' "$dir/cg.log"
}

echo "rows: gpucmp $a, the shell's statement $b"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A t
for ((r = 1; r <= rounds; r++)); do
	for s in "${sides[@]}"; do
		t["$r|$(name "$s")"]=$(ms "$s")
	done
done
hdr="| command | Minstr"
sep="|---|---:"
for ((r = 1; r <= rounds; r++)); do hdr+=" | ms (round $r)"; sep+="|---:"; done
echo
echo "$hdr |"
echo "$sep|"
for s in "${sides[@]}"; do
	line="| \`$(name "$s")\` | $(instr "$s")"
	for ((r = 1; r <= rounds; r++)); do
		line+=$(printf ' | %.2f' "${t["$r|$(name "$s")"]}")
	done
	echo "$line |"
done
echo
# the ratios, each within one round
j="gpucmp ${job[*]}"
ratio() { echo "${t["$1|$2"]} / ${t["$1|$3"]}" | bc -l; }
for ((r = 1; r <= rounds; r++)); do
	printf 'round %d: list / shell same SQL %.2f; list / shell SELECT 1 %.2f' "$r" \
		"$(ratio "$r" "$j" "sqlite3 cache.db <the list's SQL>")" \
		"$(ratio "$r" "$j" "sqlite3 cache.db 'SELECT 1'")"
	if [ -n "$before" ]; then
		printf '; after / before: --version %.2f, list %.2f, fresh %.2f' \
			"$(ratio "$r" "gpucmp --version" "before: gpucmp --version")" \
			"$(ratio "$r" "$j" "before: $j")" \
			"$(ratio "$r" "$j, fresh cache" "before: $j, fresh cache")"
	fi
	echo
done
