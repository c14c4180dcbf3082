#!/bin/sh
# Build gpucmp and run the whole test suite: unit tests (cmocka), the
# end-to-end cases, the end-to-end cases under valgrind, then everything
# again in an AddressSanitizer + UndefinedBehaviorSanitizer build.
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

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer"
cmake -S "$root" -B "$root/build-asan" -DGPUCMP_TESTS=ON -DGPUCMP_SANITIZE=ON \
	-DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$root/build-asan" -j"$jobs"
echo "== tests under the sanitizers"
(cd "$root/build-asan" && ctest -j"$jobs" --output-on-failure)
