#!/bin/sh
# Run one libFuzzer target for a bounded number of inputs (and at most a
# number of seconds, for a loaded machine) on a copy of its seed corpus,
# so the source and build trees are not changed (the inputs it finds are
# thrown away).  Fails on any crash, leak, timeout or out-of-memory.
# The ctest tests labelled `fuzz` (tests/fuzz/CMakeLists.txt) call this;
# scripts/fuzz.sh runs a target for longer and keeps its corpus.
#
# usage: tests/fuzz/run.sh BINARY SEEDS_DIR DICT SECONDS [ARTIFACT_DIR [RUNS]]
#   RUNS: stop after this many inputs (the seeds included; libFuzzer's
#   -runs); without it, or when SECONDS come first, after SECONDS
set -eu
bin=$1
seeds=$2
dict=$3
secs=$4
art=${5:-$(pwd)/fuzz-artifacts}
runs=${6:--1}
name=$(basename "$bin")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-$name.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/corpus" "$art"
cp "$seeds"/* "$tmp/corpus/" 2>/dev/null || true
# halt_on_error etc. are libFuzzer's defaults under ASan; leaks are
# reported at exit of each input (detect_leaks=1 in libFuzzer).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
set -- -max_total_time="$secs" -runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	-print_final_stats=1 -artifact_prefix="$art/$name-"
[ -s "$dict" ] && set -- "$@" -dict="$dict"
"$bin" "$@" "$tmp/corpus"
