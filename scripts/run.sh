#!/bin/sh
# Build gpucmp (installing build dependencies if missing) and run it.
# usage: scripts/run.sh [gpucmp arguments]   (default: list --k8s managed --mig)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh" build
cmake -S "$root" -B "$root/build" -DGPUCMP_TESTS=OFF >/dev/null
cmake --build "$root/build" --target gpucmp -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
[ $# -eq 0 ] && set -- list --k8s managed --mig
exec "$root/build/gpucmp" "$@"
