#!/bin/sh
# Team snapshots end to end (docs/TEAM.md): `gpucmp export` on a publisher's
# cache, served by the loopback fixture server, pulled with
# `gpucmp refresh --from` into a client's cache.  Checks: the same cache
# gives the same bytes; a pull stores what the exporter had (a re-export is
# byte for byte the same); ETag and 304; a tampered payload, a truncated
# download, an unknown signing key, an unsigned snapshot, an unknown format
# version, an older snapshot (local newer stays; --force takes it), a
# server that is down: each refused or kept with the documented exit code,
# and the client's cache unchanged (its own export is the same bytes).
# Hostile snapshots (docs/RELIABILITY.md): a line of 3 M empty objects, a
# gzip bomb, a 4 MiB manifest (each under `ulimit -v`, refused), a manifest
# that never comes (--deadline ends the pull; an import runs meanwhile: the
# lock is not held across the network), an unsolicited 304, 403/404 on the
# manifest (69), file:// and other schemes, a bare trusted_keys.
# usage: run.sh GPUCMP FIXTURED GENOFFERS
set -u
gpucmp=$1 fixtured=$2 genoffers=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib/fixtured.sh"
t=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-team.XXXXXX")
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$t"' EXIT INT TERM
fail=0
export HOME="$t" GPUCMP_CONFIG="$t/config.yaml" GPUCMP_TODAY=2026-12-02
: >"$t/config.yaml"
chmod 600 "$t/config.yaml"
srv=$t/srv
mkdir -p "$srv"

ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
# expect NAME CODE CMD...: run, check the exit code
expect() {
	name=$1 want=$2
	shift 2
	"$@" >"$t/out" 2>"$t/err"
	got=$?
	if [ "$got" = "$want" ]; then ok "$name (exit $got)"; else
		bad "$name: exit $got, expected $want"; cat "$t/out" "$t/err"; fi
}
# the client's cache as bytes: its own export's payload
client_sum() {
	rm -rf "$t/cx"
	"$gpucmp" --cache "$t/client.db" --quiet export "$t/cx" >/dev/null 2>&1
	cksum <"$t/cx/offers.ndjson.gz" 2>/dev/null
}

# --- publisher: 300 offers, a key, two exports of the same cache -------------
"$genoffers" "$t/pub.db" 300 || { echo "FAIL genoffers"; exit 1; }
GENOFFERS_FETCHED_AT=2026-11-01T00:00:00Z "$genoffers" "$t/old.db" 300
pub=$("$gpucmp" export --gen-key "$t/team.key" 2>/dev/null)
other=$("$gpucmp" export --gen-key "$t/other.key" 2>/dev/null)
expect "export signed" 0 "$gpucmp" --cache "$t/pub.db" export "$srv/good" --sign "$t/team.key"
"$gpucmp" --cache "$t/pub.db" export "$t/again" --sign "$t/team.key" >/dev/null
for f in offers.ndjson.gz manifest.json manifest.sig; do
	if cmp -s "$srv/good/$f" "$t/again/$f"; then ok "same cache, same $f"; else
		bad "two exports of one cache differ in $f"; fi
done
"$gpucmp" --cache "$t/pub.db" export "$srv/unsigned" >/dev/null
"$gpucmp" --cache "$t/old.db" export "$srv/old" --sign "$t/team.key" >/dev/null
"$gpucmp" --cache "$t/pub.db" export "$srv/otherkey" --sign "$t/other.key" >/dev/null
mkdir -p "$srv/future" "$srv/tampered"
# the same size, one byte changed (a byte that is not 'X' where it lands)
cp "$srv/good/offers.ndjson.gz" "$srv/tampered/"
at=500
while [ "$(dd if="$srv/good/offers.ndjson.gz" bs=1 skip=$at count=1 2>/dev/null)" = X ]; do
	at=$((at + 1))
done
printf X | dd of="$srv/tampered/offers.ndjson.gz" bs=1 seek=$at conv=notrunc 2>/dev/null
cp "$srv/good/offers.ndjson.gz" "$srv/future/"
sed 's/"version": 1/"version": 2/' "$srv/good/manifest.json" >"$srv/future/manifest.json"
mkdir -p "$srv/version0"
sed 's/"version": 1/"version": 0/' "$srv/good/manifest.json" >"$srv/version0/manifest.json"
"$gpucmp" export "$t/none" >/dev/null 2>&1
expect "export of nothing refused" 65 "$gpucmp" --cache "$t/empty.db" export "$t/none"

# --- hostile snapshots (unsigned: the config for them trusts no key) -------
: >"$t/nokeys.yaml"
chmod 600 "$t/nokeys.yaml"
rec='{"type":"provider","provider":"lambda","source":"live","as_of":"2027-01-01T00:00:00Z","fetched_at":"2027-01-01T00:00:00Z","offers":1,"stale":false}'
offer='{"provider":"lambda","sku":"a","gpu_name":"H100","gpu_count":1,"region":"r","price_hr":0.5,"source":"live","fetched_at":"2027-01-01T00:00:00Z"'
# snapshot DIR: DIR/manifest.json for the DIR/offers.ndjson.gz there
snapshot() {
	printf '{"format": "gpucmp-snapshot", "version": 1, "created_at": "2027-01-01T00:00:00Z", "generator": "test", "payload": {"file": "offers.ndjson.gz", "bytes": %s, "sha256": "%s"}, "offers": 1, "providers": [{"provider": "lambda", "offers": 1, "stale": false}]}\n' \
		"$(wc -c <"$1/offers.ndjson.gz" | tr -d ' ')" \
		"$(sha256sum "$1/offers.ndjson.gz" | cut -d' ' -f1)" >"$1/manifest.json"
}
mkdir -p "$srv/values" "$srv/bomb" "$srv/bigmanifest"
# one offer line whose extra key holds 3,000,000 empty objects (9 MB, 9 KB gzipped)
{
	echo "$rec"
	printf '%s,"x":[' "$offer"
	awk 'BEGIN { for (i = 1; i < 3000000; i++) printf "{},"; print "{}]}" }'
} | gzip -9n >"$srv/values/offers.ndjson.gz"
snapshot "$srv/values"
# a gzip bomb: 256 MiB of one line from 1.2 MB
{
	echo "$rec"
	printf '%s,"x":"' "$offer"
	head -c 268435456 /dev/zero | tr '\0' a
	echo '"}'
} | gzip -1n >"$srv/bomb/offers.ndjson.gz"
snapshot "$srv/bomb"
# a 4 MiB manifest of [{},{},...] (a real one is about 1 KB), signed by nobody
awk 'BEGIN { printf "["; for (i = 1; i < 1398101; i++) printf "{},"; printf "{}]" }' \
	>"$srv/bigmanifest/manifest.json"
cp "$srv/good/manifest.sig" "$srv/good/offers.ndjson.gz" "$srv/bigmanifest/"

cat >"$t/routes" <<R
GET /good/manifest.json file=good/manifest.json etag=m1 type=application/json
GET /good/manifest.sig file=good/manifest.sig
GET /good/offers.ndjson.gz file=good/offers.ndjson.gz type=application/gzip
GET /tampered/manifest.json file=good/manifest.json
GET /tampered/manifest.sig file=good/manifest.sig
GET /tampered/offers.ndjson.gz file=tampered/offers.ndjson.gz
GET /truncated/manifest.json file=good/manifest.json
GET /truncated/manifest.sig file=good/manifest.sig
GET /truncated/offers.ndjson.gz file=good/offers.ndjson.gz truncate=1000
GET /stall/manifest.json stall=1 mark=stall.arrived
GET /always304/manifest.json status=304
GET /forbidden/manifest.json status=403
GET /bigmanifest/manifest.json size=1000000
R
for d in unsigned old otherkey future; do
	for f in manifest.json manifest.sig offers.ndjson.gz; do
		[ -f "$srv/$d/$f" ] && echo "GET /$d/$f file=$d/$f" >>"$t/routes"
	done
done
fixtured_start "$fixtured" "$t/routes" "$srv" "$t" --log "$t/server.log" ||
	{ echo "FAIL fixtured did not start"; cat "$t/server.err"; exit 1; }
pid=$FIXTURED_PID
base=$FIXTURED_BASE
printf 'trusted_keys: [%s]\n' "$pub" >"$t/config.yaml"

# --- pull, ETag, 304 -------------------------------------------------------
expect "pull signed" 0 "$gpucmp" --cache "$t/client.db" refresh --from "$base/good"
grep -q "aws .*offers (pulled" "$t/out" && ok "pull names each provider" || bad "pull output"
rm -rf "$t/re"
"$gpucmp" --cache "$t/client.db" export "$t/re" >/dev/null
cmp -s "$t/re/offers.ndjson.gz" "$srv/good/offers.ndjson.gz" &&
	ok "a pull stores what the exporter had (re-export is the same bytes)" ||
	bad "re-export of a pulled cache differs"
before=$(client_sum)
expect "second pull: 304" 0 "$gpucmp" --cache "$t/client.db" refresh --from "$base/good/" --json
grep -q '"not-modified"' "$t/out" && ok "304 reported as not-modified" || bad "304 output"
grep -q 'If-None-Match: "m1"' "$t/server.log" && ok "If-None-Match sent" || bad "no If-None-Match"

# --- refused, and nothing changes ------------------------------------------
expect "tampered payload" 65 "$gpucmp" --cache "$t/client.db" refresh --from "$base/tampered"
grep -q "sha256" "$t/err" && ok "tampered: names the sha256" || bad "tampered message"
expect "truncated download" 65 "$gpucmp" --cache "$t/client.db" refresh --from "$base/truncated"
grep -q "cut short" "$t/err" && ok "truncated: says cut short" || bad "truncated message"
expect "unknown signing key" 65 "$gpucmp" --cache "$t/client.db" refresh --from "$base/otherkey"
grep -q "unknown key" "$t/err" && ok "unknown key named" || bad "unknown key message"
expect "unsigned with trusted_keys" 65 "$gpucmp" --cache "$t/client.db" refresh --from "$base/unsigned"
# (the signature is checked before the manifest is read: these are unsigned)
expect "unknown format version" 65 env GPUCMP_CONFIG="$t/nokeys.yaml" "$gpucmp" \
	--cache "$t/client.db" refresh --from "$base/future"
grep -q "format version 2 is of a newer gpucmp" "$t/err" && ok "version named" ||
	bad "version message"
expect "format version 0" 65 env GPUCMP_CONFIG="$t/nokeys.yaml" "$gpucmp" \
	--cache "$t/client.db" refresh --from "$srv/version0"
grep -q "unknown snapshot format version 0" "$t/err" && ! grep -q newer "$t/err" &&
	ok "version 0 is not called newer" || bad "version 0 message"
[ "$(client_sum)" = "$before" ] && ok "refused pulls changed nothing" || bad "a refused pull changed the cache"

# --- hostile snapshots: refused, memory bounded, nothing changes -------------
# (not under ASan, whose shadow memory needs more address space than this)
limit=200000
nm "$gpucmp" 2>/dev/null | grep -q __asan_init && limit=unlimited
bounded() { # NAME CODE CONFIG CMD...: expect, in at most $limit KiB of address space
	name=$1 code=$2 cfg=$3
	shift 3
	expect "$name" "$code" sh -c 'ulimit -v "$1"; shift; exec "$@"' sh "$limit" \
		env GPUCMP_CONFIG="$cfg" "$@"
}
bounded "3 M values in an offer line" 65 "$t/nokeys.yaml" \
	"$gpucmp" --cache "$t/client.db" refresh --from "$srv/values"
grep -q "payload line 2 is longer than 65536 bytes" "$t/err" && ok "values: the line cap names it" ||
	bad "values message"
bounded "gzip bomb" 65 "$t/nokeys.yaml" "$gpucmp" --cache "$t/client.db" refresh --from "$srv/bomb"
grep -q "payload line 2 is longer than" "$t/err" && ok "bomb: refused at the line cap" ||
	bad "bomb message"
bounded "4 MiB manifest" 65 "$t/config.yaml" \
	"$gpucmp" --cache "$t/client.db" refresh --from "$srv/bigmanifest"
grep -q "larger than 65536 bytes" "$t/err" && ok "big manifest: refused by size, unparsed" ||
	bad "big manifest message"
expect "1 MB manifest over HTTP" 65 "$gpucmp" --cache "$t/client.db" refresh --from "$base/bigmanifest"
grep -q "larger than 65536 bytes" "$t/err" && ok "big manifest over HTTP: refused by size" ||
	bad "big manifest over HTTP message"
[ "$(client_sum)" = "$before" ] && ok "hostile snapshots changed nothing" || bad "a hostile snapshot changed the cache"

# --- a manifest that never comes: the deadline, and no lock meanwhile ---------
rm -f "$srv/stall.arrived"
"$gpucmp" --cache "$t/client.db" refresh --from "$base/stall" --deadline 3 --timeout 30 \
	--retries 0 >"$t/stall.out" 2>"$t/stall.err" &
pull=$!
i=0
while [ ! -e "$srv/stall.arrived" ] && [ $i -lt 600 ] && kill -0 "$pull" 2>/dev/null; do
	i=$((i + 1))
	sleep 0.05
done
[ -e "$srv/stall.arrived" ] && ok "the stalled manifest was asked for" || bad "the pull never asked"
# the pull waits on the network: an import takes the lock at once
expect "import while a pull waits on the network" 0 "$gpucmp" --cache "$t/client.db" --quiet \
	import --force --wait 0 "$root/tests/fixtures/skypilot/lambda/vms.csv"
wait "$pull"
got=$?
[ "$got" = 69 ] && ok "stalled pull ends (exit 69)" || { bad "stalled pull: exit $got"; cat "$t/stall.err"; }
grep -q "deadline of 3 s" "$t/stall.err" && ok "stalled pull: the deadline names itself" ||
	bad "stalled pull message"
# the import changed lambda: take the good snapshot back
"$gpucmp" --cache "$t/client.db" refresh --from "$srv/good" --force >/dev/null 2>&1
[ "$(client_sum)" = "$before" ] && ok "back to the good snapshot" || bad "cannot restore the client"

# --- 304 without a validator; 403 and 404 on the manifest: 69 --------------------
expect "unsolicited 304" 69 "$gpucmp" --cache "$t/client.db" refresh --from "$base/always304"
grep -q "304 Not Modified to a request without a validator" "$t/err" &&
	ok "unsolicited 304 named" || bad "unsolicited 304 message"
expect "403 on the manifest" 69 "$gpucmp" --cache "$t/client.db" refresh --from "$base/forbidden"
expect "404 on the manifest" 69 "$gpucmp" --cache "$t/client.db" refresh --from "$base/nothing"
grep -q "no snapshot at" "$t/err" && ok "404 says no snapshot there" || bad "404 message"
[ "$(client_sum)" = "$before" ] && ok "304/403/404 changed nothing" || bad "304/403/404 changed the cache"

# --- an older snapshot: local newer stays, --force takes it ----------------
expect "older snapshot" 0 "$gpucmp" --cache "$t/client.db" refresh --from "$base/old"
grep -q "kept: the cache's data" "$t/out" && ok "older: local newer kept" || bad "older output"
[ "$(client_sum)" = "$before" ] && ok "older snapshot changed nothing" || bad "older snapshot changed the cache"

# --- the server is down: previous data stays --------------------------------
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=""
expect "server down" 69 "$gpucmp" --cache "$t/client.db" refresh --from "$base/good" --retries 0
[ "$(client_sum)" = "$before" ] && ok "server down changed nothing" || bad "server down changed the cache"

# --- a folder, --force, the config's pull_from ----------------------------------
expect "folder, older, --force" 0 "$gpucmp" --cache "$t/client.db" refresh --from "$srv/old" --force
[ "$(client_sum)" != "$before" ] && ok "--force took the older snapshot" || bad "--force kept local"
printf 'trusted_keys: [%s]\npull_from: %s\n' "$pub" "$srv/good" >"$t/config.yaml"
expect "pull_from in the config" 0 "$gpucmp" --cache "$t/client.db" refresh --quiet
[ "$(client_sum)" = "$before" ] && ok "pull_from pulled the good snapshot" || bad "pull_from"
printf 'trusted_keys: [%s]\npull_from: file://%s\n' "$pub" "$srv/good" >"$t/config.yaml"
expect "pull_from: file:// URL" 0 "$gpucmp" --cache "$t/client.db" refresh --quiet
expect "--from file:// URL" 0 "$gpucmp" --cache "$t/client.db" refresh --from "file://$srv/good"
expect "--from another scheme" 64 "$gpucmp" --cache "$t/client.db" refresh --from "ftp://127.0.0.1/x"
grep -q "an http:// or https:// URL, a file:// URL or a folder" "$t/err" &&
	ok "another scheme: says what is taken" || bad "scheme message"
printf 'pull_from: s3://bucket/team\n' >"$t/config.yaml"
expect "pull_from: another scheme" 78 "$gpucmp" --cache "$t/client.db" refresh --quiet
printf 'trusted_keys:\npull_from: %s\n' "$srv/unsigned" >"$t/config.yaml"
expect "a bare trusted_keys: refused" 78 "$gpucmp" --cache "$t/client.db" refresh --quiet
grep -q "'trusted_keys' is empty" "$t/err" && ok "bare trusted_keys named" || bad "trusted_keys message"
printf 'trusted_keys: [%s]\n' "$pub" >"$t/config.yaml"
[ "$(client_sum)" = "$before" ] && ok "pull_from pulled the good snapshot" || bad "pull_from"
expect "--from with an id" 64 "$gpucmp" --cache "$t/client.db" refresh lambda --from "$srv/good"
expect "no export there" 64 "$gpucmp" --cache "$t/client.db" refresh --from "$t"

[ $fail -eq 0 ] && echo "team: all passed"
exit $fail
