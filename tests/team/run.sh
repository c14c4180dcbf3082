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
# usage: run.sh GPUCMP FIXTURED GENOFFERS
set -u
gpucmp=$1 fixtured=$2 genoffers=$3
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
"$gpucmp" export "$t/none" >/dev/null 2>&1
expect "export of nothing refused" 65 "$gpucmp" --cache "$t/empty.db" export "$t/none"

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
expect "unknown format version" 65 "$gpucmp" --cache "$t/client.db" refresh --from "$base/future"
grep -q "format version" "$t/err" && ok "version named" || bad "version message"
[ "$(client_sum)" = "$before" ] && ok "refused pulls changed nothing" || bad "a refused pull changed the cache"

# --- an older snapshot: local newer stays, --force takes it ----------------
expect "older snapshot" 0 "$gpucmp" --cache "$t/client.db" refresh --from "$base/old"
grep -q "kept: the cache's data" "$t/out" && ok "older: local newer kept" || bad "older output"
[ "$(client_sum)" = "$before" ] && ok "older snapshot changed nothing" || bad "older snapshot changed the cache"

# --- the server is down: previous data stays --------------------------------
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=""
# nothing listens on the discard port (binding it needs root); the port the
# server freed could be taken at once by another suite's server
down=http://127.0.0.1:9
expect "server down" 69 "$gpucmp" --cache "$t/client.db" refresh --from "$down/good" --retries 0
[ "$(client_sum)" = "$before" ] && ok "server down changed nothing" || bad "server down changed the cache"

# --- a folder, --force, the config's pull_from ----------------------------------
expect "folder, older, --force" 0 "$gpucmp" --cache "$t/client.db" refresh --from "$srv/old" --force
[ "$(client_sum)" != "$before" ] && ok "--force took the older snapshot" || bad "--force kept local"
printf 'trusted_keys: [%s]\npull_from: %s\n' "$pub" "$srv/good" >"$t/config.yaml"
expect "pull_from in the config" 0 "$gpucmp" --cache "$t/client.db" refresh --quiet
[ "$(client_sum)" = "$before" ] && ok "pull_from pulled the good snapshot" || bad "pull_from"
expect "--from with an id" 64 "$gpucmp" --cache "$t/client.db" refresh lambda --from "$srv/good"
expect "no export there" 64 "$gpucmp" --cache "$t/client.db" refresh --from "$t"

[ $fail -eq 0 ] && echo "team: all passed"
exit $fail
