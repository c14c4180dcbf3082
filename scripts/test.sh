#!/bin/sh
# Build gpucmp and run the whole test suite: unit tests (cmocka), the
# end-to-end cases, network scenarios, a sample of both under valgrind, then everything
# again in an AddressSanitizer + UndefinedBehaviorSanitizer build (with
# allocation and write failure injection, tests/fault/run.sh), then a
# short run of every libFuzzer target (tests/fuzz) in a clang build.
# Installs missing build dependencies first (Debian/Ubuntu).  .ci/run calls this.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
# ctest runs two tests per core: many of them wait (on the loopback server,
# on a held lock, on the kills of tests/crash), and the long ones start
# first (their COST, tests/CMakeLists.txt).  HACKING.md, "Tests", has the
# split and docs/PERFORMANCE.md, "Test suite time", the timings.
tests=$((jobs * 2))
"$root/scripts/deps.sh" test

echo "== build (warnings are errors)"
cmake -S "$root" -B "$root/build" -DGPUCMP_TESTS=ON >/dev/null
cmake --build "$root/build" -j"$jobs"
echo "== tests: unit, end-to-end, network, crash, packaging; a sample under valgrind"
(cd "$root/build" && ctest -j"$tests" --output-on-failure)

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer (+ failure injection)"
# GPUCMP_FAULT: this build's gpucmp can fail its Nth allocation or cache
# write on request; the 'fault' test loops over them (docs/RELIABILITY.md)
cmake -S "$root" -B "$root/build-asan" -DGPUCMP_TESTS=ON -DGPUCMP_SANITIZE=ON \
	-DGPUCMP_FAULT=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$root/build-asan" -j"$jobs"
echo "== tests under the sanitizers, and failure injection"
(cd "$root/build-asan" && ctest -j"$tests" --output-on-failure)

echo "== build with libFuzzer (clang, ASan + UBSan)"
CC=clang cmake -S "$root" -B "$root/build-fuzz" -DGPUCMP_FUZZ=ON -DGPUCMP_TESTS=OFF \
	-DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$root/build-fuzz" -j"$jobs"
echo "== fuzz: each target for 20,000 inputs (8 s at most) on its seeds (scripts/fuzz.sh for longer)"
(cd "$root/build-fuzz" && ctest -L fuzz -j"$jobs" --output-on-failure)
