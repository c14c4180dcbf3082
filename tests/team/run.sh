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
mkdir -p "$srv/version0"
sed 's/"version": 1/"version": 0/' "$srv/good/manifest.json" >"$srv/version0/manifest.json"
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
# --- hostile snapshots (unsigned: the config for them trusts no key) -------
: >"$t/nokeys.yaml"
chmod 600 "$t/nokeys.yaml"
rec='{"type":"provider","provider":"lambda","source":"live","as_of":"2026-12-02T11:00:00Z","fetched_at":"2026-12-02T11:00:00Z","offers":1,"stale":false}'
offer='{"provider":"lambda","sku":"a","gpu_name":"H100","gpu_count":1,"region":"r","price_hr":0.5,"source":"live","fetched_at":"2026-12-02T11:00:00Z"'
# snapshot DIR: DIR/manifest.json for the DIR/offers.ndjson.gz there
snapshot() {
	printf '{"format": "gpucmp-snapshot", "version": 1, "created_at": "2026-12-02T11:00:00Z", "generator": "test", "payload": {"file": "offers.ndjson.gz", "bytes": %s, "sha256": "%s"}, "offers": 1, "providers": [{"provider": "lambda", "offers": 1, "stale": false}]}\n' \
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

# --- hostile values through the door (docs/RELIABILITY.md, "One door in") ---
# A payload of unsigned snapshots whose offers and records carry what a
# pull once stored as given; each snapshot DIR holds one provider P with
# the offer lines given after the record.
door_snapshot() { # DIR PROVIDER RECORD_EXTRA OFFER_LINE...
	d=$1 p=$2 extra=$3
	shift 3
	mkdir -p "$d"
	{
		printf '{"type":"provider","provider":"%s","source":"live","fetched_at":"2026-12-02T11:00:00Z","offers":%s,"stale":false%s}\n' "$p" "$#" "$extra"
		for line in "$@"; do echo "$line"; done
	} | gzip -9n >"$d/offers.ndjson.gz"
	printf '{"format": "gpucmp-snapshot", "version": 1, "created_at": "2026-12-02T11:00:00Z", "generator": "test", "payload": {"file": "offers.ndjson.gz", "bytes": %s, "sha256": "%s"}, "offers": %s, "providers": [{"provider": "%s", "offers": %s, "stale": false}]}\n' \
		"$(wc -c <"$d/offers.ndjson.gz" | tr -d ' ')" "$(sha256sum "$d/offers.ndjson.gz" | cut -d' ' -f1)" \
		"$#" "$p" "$#" >"$d/manifest.json"
}
o() { # PROVIDER SKU PRICE EXTRA: one offer line
	printf '{"provider":"%s","sku":"%s","gpu_name":"H100","gpu_count":1,"region":"r","price_hr":%s,"source":"live","fetched_at":"2026-12-02T11:00:00Z"%s}' "$1" "$2" "$3" "$4"
}
esc='\u001b]8;;http://x\u0007' # JSON escapes: the reader decodes them
door_snapshot "$srv/evil" evil-corp "" "$(o evil-corp cheap 0.01 '')"
door_snapshot "$srv/values2" lambda ",\"last_error\":\"boom${esc}\"" \
	"$(o lambda neg 2.5 ',"vcpus":-5,"ram_gb":1e308,"gpu_mem_gb":-80')" \
	"$(o lambda tiny 2.5 ',"gpu_fraction":1e-300')" \
	"$(o lambda xxx 2.5 ',"currency":"XXX"')" \
	"$(o lambda "esc${esc}" 2.5 ',"vcpus":8,"ram_gb":64,"gpu_mem_gb":80')"
door_snapshot "$srv/future" lambda ',"as_of":"9999-12-31T00:00:00Z"' "$(o lambda f 2.5 '')"
door_snapshot "$srv/zzzz" lambda ',"as_of":"zzzz"' "$(o lambda z 2.5 '')"
door_snapshot "$srv/feb31" lambda ',"as_of":"2026-12-02T11:30:00Z"' \
	"$(o lambda d 2.5 ',"as_of":"2026-02-31T00:00:00Z"')"
rm -f "$t/door.db"
cp "$t/client.db" "$t/door.db"
dsum() { sqlite3 "$t/door.db" "SELECT provider, sku, price_hr, vcpus, ram_gb, gpu_mem_gb, gpu_fraction, currency FROM offer ORDER BY 1, 2, 3" | cksum; }
was=$(dsum)
expect "a provider without a profile" 64 env GPUCMP_CONFIG="$t/nokeys.yaml" "$gpucmp" \
	--cache "$t/door.db" refresh --from "$srv/evil"
grep -q "'evil-corp' is not a known provider (no built-in profile); --new-provider" "$t/err" &&
	ok "evil-corp: the same confirmation as import" || bad "evil-corp message: $(cat "$t/err")"
[ "$(dsum)" = "$was" ] && ok "evil-corp: nothing stored" || bad "evil-corp changed the cache"
expect "--new-provider confirms it" 0 env GPUCMP_CONFIG="$t/nokeys.yaml" "$gpucmp" \
	--cache "$t/door.db" refresh --from "$srv/evil" --new-provider
[ "$(sqlite3 "$t/door.db" "SELECT count(*) FROM offer WHERE provider='evil-corp'")" = 1 ] &&
	ok "evil-corp stored when confirmed" || bad "evil-corp not stored with --new-provider"
expect "hostile values" 0 env GPUCMP_CONFIG="$t/nokeys.yaml" "$gpucmp" \
	--cache "$t/door.db" refresh --from "$srv/values2" --force
[ "$(sqlite3 "$t/door.db" "SELECT sku, vcpus IS NULL, ram_gb IS NULL, gpu_mem_gb IS NULL FROM offer WHERE provider='lambda' ORDER BY sku" | tr '\n' ' ')" = "esc?]8;;http://x?|0|0|0 neg|1|1|1 " ] &&
	ok "sizes out of range unknown, a 1e-300 share and currency XXX dropped, escapes cleaned" ||
	bad "hostile values: $(sqlite3 "$t/door.db" "SELECT sku, vcpus, ram_gb, gpu_mem_gb FROM offer WHERE provider='lambda'" | tr '\n' ' ')"
[ "$(sqlite3 "$t/door.db" "SELECT last_error FROM provider_state WHERE provider='lambda'")" = "boom?]8;;http://x?" ] &&
	ok "the record's last_error cleaned" || bad "last_error stored raw"
[ "$(sqlite3 "$t/door.db" "SELECT (SELECT count(*) FROM offer WHERE instr(sku || region || source || gpu_name, char(27))) + (SELECT count(*) FROM provider_state WHERE instr(COALESCE(last_error, '') || source, char(27)))")" = 0 ] &&
	ok "no ESC in the cache" || bad "an ESC reached the cache"
was=$(dsum)
for d in future zzzz feb31; do
	expect "pulled date: $d" 65 env GPUCMP_CONFIG="$t/nokeys.yaml" "$gpucmp" \
		--cache "$t/door.db" refresh --from "$srv/$d"
	[ "$(dsum)" = "$was" ] && ok "$d: nothing stored" || bad "$d changed the cache"
done
grep -q "is not an RFC 3339 UTC date" "$t/err" && ok "an impossible day named" || bad "feb31 message: $(cat "$t/err")"

[ -n "${KEEP_T:-}" ] && echo "kept $t"
[ $fail -eq 0 ] && echo "team: all passed"
exit $fail
