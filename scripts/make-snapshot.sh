#!/bin/sh
# Regenerate data/snapshot.csv from SkyPilot-format catalogs.
# usage: scripts/make-snapshot.sh [CATALOG_DIR] [BUILD_DIR]
# CATALOG_DIR defaults to ../shared/reference/catalogs/skypilot (the copy the
# snapshot was built from); origins and dates come from data/snapshot-sources.csv.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
catalogs=${1:-$root/../shared/reference/catalogs/skypilot}
build=${2:-$root/build}
cmake -S "$root" -B "$build" >/dev/null
cmake --build "$build" --target gpucmp-mksnapshot -j2 >/dev/null
"$build/gpucmp-mksnapshot" --gpus "$root/data/gpus.yaml" \
	--types "$root/data/instance-types.yaml" \
	--sources "$root/data/snapshot-sources.csv" \
	--out "$root/data/snapshot.csv" "$catalogs"
echo "wrote $root/data/snapshot.csv ($(($(wc -l < "$root/data/snapshot.csv") - 1)) offers)"
