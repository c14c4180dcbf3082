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
# The publisher's side: links planted in the export folder, a folder
# others can change, a signing key that is a FIFO or readable by others,
# --gen-key's mode, no local path in an export, a full disk.
# usage: run.sh GPUCMP FIXTURED GENOFFERS
set -u
gpucmp=$1 fixtured=$2 genoffers=$3
. "$(dirname "$0")/../lib/fixtured.sh"
t=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-team.XXXXXX")
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; umount "$t/full" 2>/dev/null; rm -rf "$t"' EXIT INT TERM
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

# --- the publisher's files: folder, temporary files, key, origin, disk --------
src=$(cd "$(dirname "$0")/../.." && pwd)
ck() { cksum "$@" 2>/dev/null; }
# links planted where export's temporary files used to go: never followed
mkdir -p "$t/planted"
echo precious >"$t/victim"
for f in .offers.ndjson.gz.tmp .manifest.json.tmp .manifest.sig.tmp manifest.json; do
	ln -s "$t/victim" "$t/planted/$f"
done
expect "export past planted links" 0 "$gpucmp" --cache "$t/pub.db" export "$t/planted" --sign "$t/team.key"
[ "$(cat "$t/victim")" = precious ] && ok "planted links: nothing written through them" ||
	bad "export wrote through a link planted in its folder"
[ -f "$t/planted/manifest.json" ] && [ ! -L "$t/planted/manifest.json" ] &&
	cmp -s "$t/planted/manifest.json" "$srv/good/manifest.json" &&
	ok "a link at manifest.json is replaced, not followed" || bad "manifest.json after a planted link"
[ "$(ls -A "$t/planted" | grep -c '^\.')" = 3 ] && ok "no temporary file left behind" ||
	bad "temporary files left: $(ls -A "$t/planted")"
# a folder any user may change (no sticky bit), or another user's: refused
mkdir -p "$t/open"
chmod 777 "$t/open"
expect "folder anyone can write" 64 "$gpucmp" --cache "$t/pub.db" export "$t/open"
grep -q "can be changed by any user.*chmod o-w" "$t/err" && ok "open folder: says so" ||
	bad "open folder message"
[ -z "$(ls -A "$t/open")" ] && ok "open folder: nothing written" || bad "open folder written"
chmod 1777 "$t/open"
expect "sticky folder anyone can write (as /tmp)" 0 "$gpucmp" --cache "$t/pub.db" export "$t/open"
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$t/theirs"
	chown 65534:65534 "$t/theirs"
	expect "another user's folder" 64 "$gpucmp" --cache "$t/pub.db" export "$t/theirs"
	grep -q "belongs to another user (uid 65534)" "$t/err" && ok "another user's folder: says so" ||
		bad "another user's folder message"
else
	echo "SKIP another user's folder: needs root to make one"
fi
# the signing key: a FIFO is never waited on; readable by others is refused
mkfifo "$t/fifo.key"
expect "key is a FIFO" 64 timeout 60 "$gpucmp" --cache "$t/pub.db" export "$t/k1" --sign "$t/fifo.key"
grep -q "signing key .*fifo.key is not a regular file (a FIFO)" "$t/err" &&
	ok "FIFO key: says so" || bad "FIFO key message"
cp "$t/team.key" "$t/loose.key"
chmod 644 "$t/loose.key"
expect "key readable by others" 64 "$gpucmp" --cache "$t/pub.db" export "$t/k2" --sign "$t/loose.key"
grep -q "signing key .*loose.key is readable by other users; run: chmod 600 " "$t/err" &&
	ok "0644 key: the config file's rule and wording" || bad "0644 key message"
[ ! -e "$t/k2" ] && ok "0644 key: nothing written" || bad "0644 key: written"
[ "$(stat -c %a "$t/team.key")" = 600 ] && ok "--gen-key writes 0600" || bad "--gen-key mode"
before_key=$(ck "$t/team.key")
expect "--gen-key over a key" 74 "$gpucmp" export --gen-key "$t/team.key"
[ "$(ck "$t/team.key")" = "$before_key" ] && ok "--gen-key never replaces a key" || bad "key replaced"
ln -s "$t/made-by-link" "$t/link.key"
expect "--gen-key at a link" 74 "$gpucmp" export --gen-key "$t/link.key"
[ ! -e "$t/made-by-link" ] && ok "--gen-key does not follow a link" || bad "--gen-key followed a link"
# offers imported from a local path: their file's name, never the path
"$gpucmp" --cache "$t/imp.db" --quiet import "$src/tests/fixtures/skypilot/lambda/vms.csv" \
	--force >/dev/null 2>&1
expect "export of an import" 0 "$gpucmp" --cache "$t/imp.db" export "$t/imp"
if gzip -dc "$t/imp/offers.ndjson.gz" | grep -q "$src"; then bad "the export publishes a local path"
elif gzip -dc "$t/imp/offers.ndjson.gz" | grep -q '"origin":"vms.csv"'; then
	ok "origin in an export: the file's name, no local path"
else bad "origin in an export: not the file's name"; fi
# a full disk: said in words, the previous snapshot left as it was
mkdir -p "$t/full"
if mount -t tmpfs -o size=64k tmpfs "$t/full" 2>/dev/null; then
	"$gpucmp" --cache "$t/imp.db" export "$t/full" >/dev/null 2>&1
	was=$(ck "$t/full/manifest.json" "$t/full/offers.ndjson.gz")
	dd if=/dev/zero of="$t/full/fill" bs=4k 2>/dev/null
	expect "export on a full disk" 74 "$gpucmp" --cache "$t/pub.db" export "$t/full"
	grep -q "offers.ndjson.gz: no space left on device; free some space" "$t/err" &&
		ok "full disk: says no space left on device" || bad "full disk message: $(cat "$t/err")"
	[ "$(ck "$t/full/manifest.json" "$t/full/offers.ndjson.gz")" = "$was" ] &&
		[ "$(ls -A "$t/full" | grep -c '^\.')" = 0 ] &&
		ok "full disk: the previous snapshot kept, no temporary file left" ||
		bad "full disk: the folder changed"
	umount "$t/full"
else
	echo "SKIP full disk: cannot mount a tmpfs here"
fi

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
expect "server down" 69 "$gpucmp" --cache "$t/client.db" refresh --from "$base/good" --retries 0
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
