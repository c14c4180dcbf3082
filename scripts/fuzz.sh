#!/bin/sh
# Run one libFuzzer target for longer than the test suite does, keeping
# what it finds.  Builds the fuzz tree first (clang, -DGPUCMP_FUZZ=ON) when
# it is missing.  See docs/RELIABILITY.md ("Fuzzing").
#
# usage: scripts/fuzz.sh TARGET [SECONDS] [-- LIBFUZZER_OPTION...]
#        scripts/fuzz.sh list
#
#   TARGET   adapter_<id> (azure, digitalocean, gcp, hyperstack, lambda,
#            linode, oci, runpod, scaleway, vast, verda, vultr), profile,
#            where or skypilot
#   SECONDS  how long to fuzz (default 300)
#
# Environment: GPUCMP_FUZZ_BUILD, the build tree (default build-fuzz);
# GPUCMP_FUZZ_CORPUS, where the corpus grows (default
# $GPUCMP_FUZZ_BUILD/tests/fuzz/corpus/TARGET, seeded from the fixtures and
# tests/fuzz/regress on first use); GPUCMP_FUZZ_JOBS, build jobs (2).
# A crash, leak or timeout leaves the input in
# $GPUCMP_FUZZ_BUILD/tests/fuzz/artifacts/ and exits non-zero; re-run it with
#   $GPUCMP_FUZZ_BUILD/tests/fuzz/fuzz_TARGET FILE
# and, once fixed, add it to tests/fuzz/regress/TARGET/.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GPUCMP_FUZZ_BUILD:-$root/build-fuzz}
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
	sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 64
fi
target=$1
secs=${2:-300}
[ $# -ge 2 ] && shift 2 || shift $#
[ "${1:-}" = -- ] && shift

if [ ! -f "$build/CMakeCache.txt" ]; then
	CC=clang cmake -S "$root" -B "$build" -DGPUCMP_FUZZ=ON -DGPUCMP_TESTS=OFF \
		-DCMAKE_BUILD_TYPE=Debug >/dev/null
fi
cmake --build "$build" -j"${GPUCMP_FUZZ_JOBS:-2}" >/dev/null
dir=$build/tests/fuzz
if [ "$target" = list ]; then
	for f in "$dir"/fuzz_*; do [ -x "$f" ] && basename "$f" | sed 's/^fuzz_//'; done
	exit 0
fi
bin=$dir/fuzz_$target
if [ ! -x "$bin" ]; then
	echo "gpucmp: no fuzz target '$target'; 'scripts/fuzz.sh list' names them" >&2
	exit 64
fi
corpus=${GPUCMP_FUZZ_CORPUS:-$dir/corpus/$target}
mkdir -p "$corpus" "$dir/artifacts"
# new seeds (a fixture or a regression input added since) join the corpus
cp -n "$dir/seeds/$target"/* "$corpus/" 2>/dev/null || true
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
exec "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 -dict="$dir/seeds/$target.dict" \
	-artifact_prefix="$dir/artifacts/$target-" "$@" "$corpus"
