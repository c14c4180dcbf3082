#!/bin/sh
# Build the seed corpora and dictionaries of the libFuzzer targets from the
# files the other tests already use, so nothing large is copied into the
# repository.  CMake runs this at build time (tests/fuzz/CMakeLists.txt).
#
# usage: tests/fuzz/seeds.sh SOURCE_DIR OUT_DIR
#
# Writes OUT_DIR/<target>/ (one file per seed) and OUT_DIR/<target>.dict for
# every target: adapter_<id> for each live adapter, profile, where,
# skypilot, config, team, team_lines and team_manifest.  The input formats
# are described at the top of each fuzz_*.c; the regression inputs in
# tests/fuzz/regress/<target>/ are added as they are.
set -eu
src=$1
out=$2
http=$src/tests/fixtures/http
rm -rf "$out"
mkdir -p "$out"

# One response: the kind byte (octal, as printf takes it), then the body.
doc() { # KIND FILE
	printf "\\$(printf %03o "$1")"
	cat "$2"
}

# adapter_<id> seeds: "ID NAME KIND FILE [KIND FILE]..." per line, the
# responses of one run in order (split by 0xff, fuzz_adapter.c).
adapter_seeds() {
	while read -r id name rest; do
		[ -n "$id" ] || continue
		mkdir -p "$out/adapter_$id"
		set -- $rest
		first=1
		while [ $# -ge 2 ]; do
			[ $first = 1 ] || printf '\377'
			doc "$1" "$http/$id/$2"
			first=0
			shift 2
		done >"$out/adapter_$id/$name"
	done
}
adapter_seeds <<'EOF'
azure prices 0 prices.json
azure page2 0 prices-page2.json
azure both 0 prices.json 0 prices-page2.json
azure reservations 0 reservations.json
azure all 0 prices.json 0 prices-page2.json 0 reservations.json
digitalocean sizes 0 sizes.json
digitalocean page2 0 sizes-page2.json
digitalocean both 0 sizes.json 0 sizes-page2.json
gcp page1 0 skus-page1.json
gcp page2 0 skus-page2.json
gcp both 0 skus-page1.json 0 skus-page2.json
gcp commit 0 skus-page1.json 0 skus-commit.json
hyperstack flavors 0 flavors.json
hyperstack pricebook 1 pricebook.json
hyperstack join 0 flavors.json 1 pricebook.json
lambda types 0 instance-types.json
linode types 0 types.json
linode page2 0 types-page2.json
linode both 0 types.json 0 types-page2.json
oci shapes 0 shapes.json
oci products 1 products.json
oci join 0 shapes.json 1 products.json
runpod gpu-types 0 gpu-types.json
runpod list 0 gpu-types-list.json
scaleway servers 2 servers.json
scaleway page2 8 servers-page2.json
scaleway availability 3 availability.json
scaleway empty 0 empty.json
scaleway join 2 servers.json 3 availability.json 8 servers-page2.json
vast bundles 0 bundles.json
verda token 0 token.json
verda types 1 instance-types.json
verda availability 2 instance-availability.json
verda join 0 token.json 1 instance-types.json 2 instance-availability.json
vultr plans 0 plans.json
vultr page2 0 plans-page2.json
vultr metal 1 plans-metal.json
vultr all 0 plans.json 0 plans-page2.json 1 plans-metal.json
EOF

# Dictionary of an adapter: JSON syntax, and the keys and words its source
# names (string literals that are plain words; dotted paths split up).
json_dict() {
	printf '%s\n' '"{"' '"}"' '"["' '"]"' '":"' '","' '"\""' '"null"' '"true"' \
		'"false"' '"0"' '"-1"' '"1e308"' '"-0.0"' '"\\u0000"' '"\\u001b"' '"\\ud800"' \
		'"\xff"'
}
for f in "$src"/src/adapters/*.c; do
	id=$(basename "$f" .c)
	[ -d "$out/adapter_$id" ] || continue
	{
		json_dict
		grep -o '"[A-Za-z0-9_.-]*"' "$f" | tr -d '"' | tr . '\n' |
			grep -E '^[A-Za-z0-9_-]{2,32}$' | sort -u | sed 's/.*/"&"/'
	} >"$out/adapter_$id.dict"
done

# profile: every profile, valid or not; keys and values of the schema.
mkdir -p "$out/profile"
for f in "$src"/providers/*.yaml "$src"/tests/fixtures/profiles/*.yaml; do
	cp "$f" "$out/profile/$(basename "$(dirname "$f")")-$(basename "$f")"
done
{
	printf '%s\n' '"id: "' '"\x0a"' '"\x0a  "' '"- "' '": "' '"unknown"' '"yes"' '"no"' \
		'"source: "' '"note: "' '"https://"' '"2026-01-01"' '"&a"' '"*a"' '"!!str"' \
		'"{"' '"}"' '"["' '"]"' '"---"' '"\x27"' '"\""' '"|"' '">"' '"~"'
	sed -n 's/^ *-\{0,1\} *\([a-z][a-z0-9_]*\):.*/"\1:"/p' "$src"/providers/*.yaml | sort -u
	grep -o '"[a-z][a-z0-9_-]*"' "$src/src/profile.c" | sort -u
} >"$out/profile.dict"

# where: the expressions of tests/unit/test_where.c and the end-to-end cases.
mkdir -p "$out/where"
{
	grep -o 'compile_\(ok\|bad\)("\([^"\\]\|\\.\)*"' "$src/tests/unit/test_where.c" |
		sed 's/^compile_[a-z]*("//; s/"$//; s/\\"/"/g; s/\\\\/\\/g'
	cat "$src"/tests/e2e/cases/*.case |
		sed -n "s/^args:.*--where '\\([^']*\\)'.*/\\1/p; s/^args:.*--where \"\\([^\"]*\\)\".*/\\1/p"
} | awk -v dir="$out/where" '{ f = sprintf("%s/expr-%03d", dir, NR); printf "%s", $0 > f; close(f) }'
{
	printf '%s\n' '"and"' '"or"' '"not"' '"in"' '"("' '")"' '","' '"="' '"=="' '"!="' \
		'"<>"' '"<"' '"<="' '">"' '">="' '"~"' '"!~"' '"\x27"' '"\""' '"true"' \
		'"false"' '"yes"' '"no"' '"null"' '"$"' '"gb"' '"tb"' '"gbps"' '"/h"' '"*"'
	sed -n 's/^[[:space:]]*{"\([a-z_]*\)".*/"\1"/p' "$src/src/field.c"
} | sort -u >"$out/where.dict"

# skypilot: each recorded catalog, behind the byte of its cloud (the order
# of providers[] in fuzz_skypilot.c).
mkdir -p "$out/skypilot"
i=0
for cloud in azure gcp lambda vast verda; do
	{
		printf "\\$(printf %03o $i)"
		cat "$src/tests/fixtures/skypilot/$cloud/vms.csv"
	} >"$out/skypilot/$cloud"
	i=$((i + 1))
done
{
	printf '%s\n' '","' '"\x0a"' '"\x0d\x0a"' '"\""' '"\"\""' '"{"' '"}"' '"["' '"]"' '"\x27"' \
		'": "' '"None"' '"True"' '"nan"' '"inf"' '"1e308"' '"-1"' '"0.5"' \
		'"\x00"' '"\xc2\x9b"' '"\xc2\x85"' '"\x1b["' '"\x7f"' '"\xff"' '"0x"' '"0x1p8"' \
		'"1e-300"' '"0.0009"' '"1e5"' '"\x09"'
	for f in "$src"/tests/fixtures/skypilot/*/vms.csv; do head -n 1 "$f"; done |
		tr -d '\r' | tr ',' '\n' | sort -u | sed 's/.*/"&"/'
	grep -o '"[A-Za-z][A-Za-z0-9_-]*"' "$src/src/skypilot.c" | sort -u
} >"$out/skypilot.dict"

# gpuhunt: each constructed gpuhunt CSV (tests/fixtures/catalogs/gpuhunt),
# behind its control byte (fuzz_gpuhunt.c: the provider is the byte modulo
# 9, azure 1, verda 7; with the top bit set, azure 136 and verda 133, the
# stream's pieces are up to 4096 bytes instead of 16), and azure's with a
# byte-order mark and CRLF line ends.
mkdir -p "$out/gpuhunt"
for seed in azure:1:azure verda:7:verda azure:136:azure-big verda:133:verda-big; do
	name=${seed%%:*}
	rest=${seed#*:}
	{
		printf "\\$(printf %03o "${rest%%:*}")"
		cat "$src/tests/fixtures/catalogs/gpuhunt/$name.csv"
	} >"$out/gpuhunt/${rest#*:}"
done
{
	printf '\001\357\273\277'
	sed 's/$/\r/' "$src/tests/fixtures/catalogs/gpuhunt/azure.csv"
} >"$out/gpuhunt/azure-crlf"
{
	printf '%s\n' '","' '"\x0a"' '"\x0d\x0a"' '"\""' '"True"' '"False"' '"tpu-"' '"google"' \
		'"nvidia"' '"amd"' '"nan"' '"inf"' '"-1"' '"0x10"' '"1e-300"' '"\x00"' '"\xc2\x9b"' '"\x1b["' \
		'"\xef\xbb\xbf"'
	head -n 1 "$src/tests/fixtures/catalogs/gpuhunt/azure.csv" | tr ',' '\n' | sed 's/.*/"&"/'
} >"$out/gpuhunt.dict"

# config: the config sections of the end-to-end cases; the keys and values
# of the settings file.
mkdir -p "$out/config"
for f in "$src"/tests/e2e/cases/*.case; do
	grep -q '^--- config$' "$f" || continue
	awk '/^--- (stdout|stderr|config)$/ { on = ($0 == "--- config"); next } on { print }' "$f" \
		>"$out/config/$(basename "$f" .case)"
done
{
	printf '%s\n' '"columns: "' '"sort: "' '"currency: "' '"providers: "' '"provider:"' \
		'"base_url: "' '"api_key: "' '"\x0a"' '"\x0a  "' '"- "' '": "' '", "' '"-"' '"~"' \
		'"http://"' '"https://"' '"127.0.0.1"' '"EUR"' '"{"' '"}"' '"["' '"]"' '"&a"' '"*a"' \
		'"!!str"' '"---"' '"\x27"' '"\""' '"#"'
	for f in "$src"/src/adapters/*.c; do
		id=$(basename "$f" .c)
		[ "$id" = registry ] || printf '"%s"\n' "$id"
	done
	sed -n 's/^[[:space:]]*{"\([a-z_]*\)".*/"\1"/p' "$src/src/field.c"
} | sort -u >"$out/config.dict"

# team: a force byte, then payload lines (fuzz_team.c); the seeds are in
# tests/fuzz/regress/team/, the dictionary is the line's keys
mkdir -p "$out/team"
for k in type provider sku gpu gpu_name gpu_count gpu_mem_gb vcpus ram_gb disk_gb region \
	price_hr spot_price_hr currency price_native spot_native available infiniband rdma nvlink \
	node_bandwidth_gbps driver_version max_cuda source origin fetched_at as_of price_kind \
	gpu_fraction stale offers last_error; do
	echo "\"$k\""
done >"$out/team.dict"

# team_lines: a mode byte (1: gzip), then a payload (fuzz_team_lines.c): the
# team target's payloads, plain and gzipped; its dictionary is team's
mkdir -p "$out/team_lines"
for f in "$src"/tests/fuzz/regress/team/*; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	{ printf '\000'; tail -c +2 "$f"; } >"$out/team_lines/$n"
	{ printf '\001'; tail -c +2 "$f" | gzip -9n; } >"$out/team_lines/$n.gz"
done
cp "$out/team.dict" "$out/team_lines.dict"

# team_manifest: a manifest as export writes it (fuzz_team_manifest.c)
mkdir -p "$out/team_manifest"
cat >"$out/team_manifest/export" <<'JSON'
{
  "format": "gpucmp-snapshot",
  "version": 1,
  "created_at": "2026-12-01T00:00:00Z",
  "generator": "gpucmp 0.1.0",
  "payload": {
    "file": "offers.ndjson.gz",
    "bytes": 1234,
    "sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
  },
  "offers": 3,
  "providers": [
    {"provider": "aws", "source": "live", "as_of": "2026-12-01T00:00:00Z", "fetched_at": "2026-12-01T00:00:00Z", "offers": 2, "stale": false},
    {"provider": "lambda", "source": "import", "as_of": "2026-11-30T00:00:00Z", "fetched_at": "2026-12-01T00:00:00Z", "offers": 1, "stale": true}
  ]
}
JSON
for k in format version created_at generator payload file bytes sha256 offers providers \
	provider source as_of fetched_at stale gpucmp-snapshot offers.ndjson.gz; do
	echo "\"$k\""
done >"$out/team_manifest.dict"

# Inputs that once failed (docs/RELIABILITY.md), replayed first in every run.
if [ -d "$src/tests/fuzz/regress" ]; then
	for d in "$src"/tests/fuzz/regress/*/; do
		t=$(basename "$d")
		[ -d "$out/$t" ] || continue
		for f in "$d"*; do
			[ -f "$f" ] && cp "$f" "$out/$t/regress-$(basename "$f")"
		done
	done
fi
exit 0
