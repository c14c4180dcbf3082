#!/bin/sh
# Install what gpucmp needs to build and test, if it is missing (Debian/Ubuntu).
# usage: scripts/deps.sh [build|test]
set -eu
need=${1:-test}
pkgs="build-essential cmake pkg-config libcurl4-openssl-dev libjansson-dev libsqlite3-dev libyaml-dev"
[ "$need" = test ] && pkgs="$pkgs libcmocka-dev libmicrohttpd-dev valgrind sqlite3 groff-base"

missing=""
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
command -v cc >/dev/null 2>&1 || missing=yes
command -v cmake >/dev/null 2>&1 || missing=yes
command -v pkg-config >/dev/null 2>&1 || missing=yes
for m in libcurl jansson sqlite3 yaml-0.1; do have_pc $m || missing=yes; done
if [ "$need" = test ]; then
	have_pc cmocka || missing=yes
	have_pc libmicrohttpd || missing=yes
	command -v valgrind >/dev/null 2>&1 || missing=yes
	command -v sqlite3 >/dev/null 2>&1 || missing=yes
	command -v groff >/dev/null 2>&1 || missing=yes
fi
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1; then
	sudo="sudo"
else
	echo "gpucmp: missing build dependencies; as root run: apt-get install -y $pkgs" >&2
	exit 69
fi
echo "gpucmp: installing build dependencies: $pkgs" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -qq $pkgs >/dev/null
