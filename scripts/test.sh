#!/bin/sh
# Build gpucmp and run the whole test suite: unit tests (cmocka), the
# end-to-end cases, the end-to-end cases under valgrind, then everything
# again in an AddressSanitizer + UndefinedBehaviorSanitizer build (with
# allocation and write failure injection, tests/fault/run.sh), then a
# short run of every libFuzzer target (tests/fuzz) in a clang build.
# Installs missing build dependencies first (Debian/Ubuntu).  .ci/run calls this.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
"$root/scripts/deps.sh" test

echo "== build (warnings are errors)"
cmake -S "$root" -B "$root/build" -DGPUCMP_TESTS=ON >/dev/null
cmake --build "$root/build" -j"$jobs"
echo "== tests: unit, end-to-end, end-to-end under valgrind"
(cd "$root/build" && ctest -j"$jobs" --output-on-failure)

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer (+ failure injection)"
# GPUCMP_FAULT: this build's gpucmp can fail its Nth allocation or cache
# write on request; the 'fault' test loops over them (docs/RELIABILITY.md)
cmake -S "$root" -B "$root/build-asan" -DGPUCMP_TESTS=ON -DGPUCMP_SANITIZE=ON \
	-DGPUCMP_FAULT=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$root/build-asan" -j"$jobs"
echo "== tests under the sanitizers, and failure injection"
(cd "$root/build-asan" && ctest -j"$jobs" --output-on-failure)

echo "== build with libFuzzer (clang, ASan + UBSan)"
CC=clang cmake -S "$root" -B "$root/build-fuzz" -DGPUCMP_FUZZ=ON -DGPUCMP_TESTS=OFF \
	-DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$root/build-fuzz" -j"$jobs"
echo "== fuzz: each target for a few seconds on its seeds (scripts/fuzz.sh for longer)"
(cd "$root/build-fuzz" && ctest -L fuzz -j"$jobs" --output-on-failure)
