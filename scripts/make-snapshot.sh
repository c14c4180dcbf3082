#!/bin/sh
# Regenerate data/snapshot.csv from SkyPilot-format catalogs.
#
# usage: scripts/make-snapshot.sh [--out PATH] [--build DIR | --bin DIR] [--providers ID,ID...]
#                                 [CATALOG_DIR | URL] [BUILD_DIR]
#
# URL (anything with "://"): the base of a SkyPilot catalog, schema version
#   included, e.g. the public one:
#     https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v8
#   The snapshot is built through refresh's hosted catalog tier itself:
#   `gpucmp refresh --catalog-only --force` into a throwaway cache (no config
#   file, GPUCMP_SKYPILOT_CATALOG_URL=URL), then every offer it stored from a
#   catalog is written as a snapshot row: origin the catalog file's URL,
#   as-of its date (the response's Last-Modified). Every provider a catalog
#   covers is taken (AWS included when the catalog has aws/vms.csv), or those
#   of --providers; the script fails when one of them fails.
# CATALOG_DIR (default ../shared/reference/catalogs/skypilot, the copy the
#   committed snapshot was built from): the folder is read directly, the
#   clouds, origins and dates listed in data/snapshot-sources.csv.
# --out PATH: write there instead of data/snapshot.csv (the tests do).
# --bin DIR: use the gpucmp and gpucmp-mksnapshot already built in DIR
#   (no cmake run; the tests do).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/data/snapshot.csv
build=$root/build
providers=""
bin=""
src=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--providers) providers=$2; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	-h|--help) sed -n '2,22p' "$0"; exit 0 ;;
	-*) echo "make-snapshot.sh: unknown option $1" >&2; exit 64 ;;
	*)
		if [ -z "$src" ]; then src=$1; else build=$1; fi
		shift ;;
	esac
done
src=${src:-$root/../shared/reference/catalogs/skypilot}
# build what is needed, unless --bin names binaries already built
need() {
	if [ -z "$bin" ]; then
		cmake -S "$root" -B "$build" >/dev/null
		cmake --build "$build" --target "$@" -j2 >/dev/null
		bin=$build
	fi
}

case $src in
*://*)
	need gpucmp gpucmp-mksnapshot
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-snapshot.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT INT TERM
	# the IDs split on purpose (one argument each)
	# shellcheck disable=SC2046
	if ! GPUCMP_CACHE=$tmp/cache.db XDG_CONFIG_HOME=$tmp/config GPUCMP_CONFIG='' \
		GPUCMP_SKYPILOT_CATALOG_URL=$src \
		"$bin/gpucmp" refresh --catalog-only --force $(echo "$providers" | tr ',' ' ') \
		>"$tmp/refresh.out" 2>"$tmp/refresh.err"; then
		cat "$tmp/refresh.out" "$tmp/refresh.err" >&2
		echo "make-snapshot.sh: the catalog refresh failed; $out is unchanged" >&2
		exit 69
	fi
	cat "$tmp/refresh.out" >&2
	"$bin/gpucmp-mksnapshot" --from-cache "$tmp/cache.db" --out "$tmp/snapshot.csv"
	mv "$tmp/snapshot.csv" "$out"
	;;
*)
	need gpucmp-mksnapshot
	"$bin/gpucmp-mksnapshot" --gpus "$root/data/gpus.yaml" \
		--types "$root/data/instance-types.yaml" \
		--sources "$root/data/snapshot-sources.csv" \
		--out "$out" "$src"
	;;
esac
echo "wrote $out ($(($(wc -l < "$out") - 1)) offers)"
