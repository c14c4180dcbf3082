#!/bin/sh
# Install what gpucmp needs to build and test, if it is missing (Debian/Ubuntu).
# usage: scripts/deps.sh [build|test]
set -eu
need=${1:-test}
# the -dev packages of jansson, SQLite, libyaml and zlib ship the static
# archives (.a) the default build links (GPUCMP_STATIC); libcurl, libzip and
# libssl are needed for their headers (gpucmp loads them when first used)
pkgs="build-essential cmake pkg-config libcurl4-openssl-dev libjansson-dev libsqlite3-dev libyaml-dev libzip-dev libssl-dev zlib1g-dev"
[ "$need" = test ] && pkgs="$pkgs libcmocka-dev libmicrohttpd-dev valgrind sqlite3 groff-base"
# zsh and fish: the completion tests run the scripts in each real shell
[ "$need" = test ] && pkgs="$pkgs zsh fish"
# jq reads the MCP sessions' answers; node and npm run the reference MCP
# client (tests/mcp: the SDK itself comes from npm, pinned, at test time);
# a node from elsewhere (nodesource ships npm in its nodejs) is kept
[ "$need" = test ] && pkgs="$pkgs jq"
[ "$need" = test ] && ! command -v npm >/dev/null 2>&1 && pkgs="$pkgs nodejs npm"
# chromium: the page's test loads it headless (tests/page/browser.sh)
[ "$need" = test ] && pkgs="$pkgs chromium"
# clang and compiler-rt (libclang-rt-14-dev on Debian 12): libFuzzer and the
# sanitizer runtimes of the fuzz targets (tests/fuzz)
[ "$need" = test ] && pkgs="$pkgs clang libclang-rt-dev"

missing=""
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
# clang links a libFuzzer target with ASan and UBSan (the runtimes are there)
have_fuzzer() {
	command -v clang >/dev/null 2>&1 || return 1
	t=$(mktemp -d) || return 1
	printf '%s\n' '#include <stddef.h>' \
		'int LLVMFuzzerTestOneInput(const unsigned char *d, size_t n);' \
		'int LLVMFuzzerTestOneInput(const unsigned char *d, size_t n) { (void)d; return (int)n * 0; }' \
		>"$t/f.c"
	r=0
	clang -fsanitize=fuzzer,address,undefined -o "$t/f" "$t/f.c" >/dev/null 2>&1 || r=1
	rm -rf "$t"
	return $r
}
command -v cc >/dev/null 2>&1 || missing=yes
command -v cmake >/dev/null 2>&1 || missing=yes
command -v pkg-config >/dev/null 2>&1 || missing=yes
for m in libcurl jansson sqlite3 yaml-0.1 libzip libcrypto zlib; do have_pc $m || missing=yes; done
if [ "$need" = test ]; then
	have_pc cmocka || missing=yes
	have_pc libmicrohttpd || missing=yes
	command -v valgrind >/dev/null 2>&1 || missing=yes
	command -v sqlite3 >/dev/null 2>&1 || missing=yes
	command -v groff >/dev/null 2>&1 || missing=yes
	command -v zsh >/dev/null 2>&1 || missing=yes
	command -v fish >/dev/null 2>&1 || missing=yes
	for t in jq node npm; do command -v $t >/dev/null 2>&1 || missing=yes; done
	command -v chromium >/dev/null 2>&1 || missing=yes
	have_fuzzer || missing=yes
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
