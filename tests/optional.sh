#!/bin/sh
# The optional libraries (README, "Install"): libcurl, libzip and libcrypto
# are loaded when a command first needs one (src/dynlib.c).  With them
# hidden (tests/tools/nodl.c, preloaded, fails their dlopen as if they were
# not installed) the main job still runs, and a command that needs one
# says what to install, exits 69 (EX_UNAVAILABLE) and writes nothing.
# usage: optional.sh GPUCMP NODL_SO
set -u
gpucmp=$1 nodl=$2
t=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-optional.XXXXXX")
trap 'rm -rf "$t"' EXIT INT TERM
src=$(cd "$(dirname "$0")/.." && pwd)
export HOME="$t" XDG_CACHE_HOME="$t/cache" XDG_CONFIG_HOME="$t/config" GPUCMP_TODAY=2026-12-02
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
# run HIDE NAME CODE ARGS...: gpucmp with the libraries HIDE hidden
run() {
	hide=$1 name=$2 want=$3
	shift 3
	GPUCMP_TEST_NODL=$hide LD_PRELOAD=$nodl "$gpucmp" "$@" >"$t/out" 2>"$t/err"
	got=$?
	if [ "$got" = "$want" ]; then ok "$name (exit $got)"; else
		bad "$name: exit $got, expected $want"; cat "$t/out" "$t/err"; fi
}
# says NAME TEXT: stderr is that one line
says() {
	if [ "$(cat "$t/err")" = "$2" ]; then ok "$1: says what to install"; else
		bad "$1: stderr is '$(cat "$t/err")', expected '$2'"; fi
}
all=libcurl,libzip,libcrypto

# the shim works: with nothing hidden, a signed key is made
run "" "nothing hidden: --gen-key" 0 export --gen-key "$t/made.key"
[ -f "$t/made.key" ] || bad "the shim hides libraries it was not asked to"

# the main job needs none of them
run $all "--version without libcurl, libzip, libcrypto" 0 --version
run $all "list --k8s managed --mig without them (seeds the cache)" 0 list --k8s managed --mig
grep -q "managed" "$t/out" && ok "list printed offers" || bad "list printed no offers"
run $all "list again on the cache" 0 --quiet list --gpu a100 --gpus 8 --json
run $all "import from a file without them" 0 --quiet import \
	"$src/tests/fixtures/skypilot/lambda/vms.csv" --force

# libcrypto: signing, and hashing a team snapshot
msg="gpucmp: cannot load libcrypto (libcrypto.so.3): install libssl3 to sign or verify team snapshots"
run libcrypto "export --gen-key without libcrypto" 69 export --gen-key "$t/team.key"
says "--gen-key" "$msg"
[ ! -e "$t/team.key" ] && ok "--gen-key: no key file made" || bad "--gen-key made a file"
run libcrypto "export without libcrypto" 69 export "$t/snap"
says "export" "$msg"
[ ! -e "$t/snap" ] && ok "export: no folder made" || bad "export made $t/snap"
run libcrypto "export --sign without libcrypto" 69 export "$t/snap" --sign "$t/made.key"
says "export --sign" "$msg"

# a signed pull checks its signature with libcrypto: without it, what to
# install, not "tampered"
run "" "export --sign of a snapshot to pull" 0 --quiet export "$t/signed" --sign "$t/made.key"
pub=$(grep -o '"key": *"[^"]*"' "$t/signed/manifest.sig" | sed 's/.*"\([^"]*\)"$/\1/')
mkdir -p "$t/config/gpucmp"
printf 'trusted_keys: [%s]\n' "$pub" >"$t/config/gpucmp/config.yaml"
chmod 600 "$t/config/gpucmp/config.yaml"
run libcrypto "signed pull without libcrypto" 69 refresh --from "$t/signed"
says "signed pull" "$msg"
rm -f "$t/config/gpucmp/config.yaml"

# libcurl: anything fetched over HTTP
run libcurl "import from a URL without libcurl" 69 import http://127.0.0.1:9/vms.csv \
	--provider lambda
says "import URL" "gpucmp: cannot load libcurl (libcurl.so.4): install libcurl4 to fetch over HTTP"

[ $fail -eq 0 ] || exit 1
echo "optional: the main job runs without libcurl, libzip and libcrypto; each says what to install"
