#!/bin/sh
# mcp-demo.sh BIN - an MCP session end to end: "the cheapest 8x H100 with
# InfiniBand available now in the EU".  The cache is filled by refreshing
# every adapter that reports stock against the loopback fixture server with
# the suite's recorded answers (tests/fixtures/http: each folder's README
# names its origin), under the test clock; then `gpucmp mcp` is asked over
# stdio, as an agent would: initialize, tools/list, one tools/call of list.
# Prints the transcript (requests as sent, answers as received, the long
# tools/list answer cut to its tool names).
#
# usage: scripts/mcp-demo.sh build/gpucmp
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
fx=${FIXTURED:-$(dirname "$bin")/tests/gpucmp-fixtured}
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-demo.XXXXXX")
trap '[ -n "${KEEP:-}" ] && cp "$root/cache.db" "$KEEP"; rm -rf "$root"' EXIT INT TERM
export GPUCMP_TODAY=2026-12-02 HOME="$root" XDG_CONFIG_HOME="$root/config" GPUCMP_CONFIG=
export GPUCMP_CACHE="$root/cache.db" NO_COLOR=1 GPUCMP_NOW=2026-12-02T11:00:00Z
# shellcheck source=tests/lib/fixtured.sh
. "$top/tests/lib/fixtured.sh"
for p in lambda runpod vast verda linode hyperstack digitalocean scaleway vultr; do
	up=$(echo "$p" | tr '[:lower:]' '[:upper:]')
	fixtured_start "$fx" "$top/tests/fixtures/http/$p.routes" \
		"$top/tests/fixtures/http/$p" "$root" >/dev/null
	key=fixture-key
	[ "$p" = verda ] && key=client-id:fixture-secret
	env "GPUCMP_${up}_BASE_URL=$FIXTURED_BASE" "GPUCMP_${up}_API_KEY=$key" \
		"$bin" --quiet refresh --retries 0 "$p" >/dev/null 2>"$root/refresh.err" ||
		{ echo "refresh $p failed:"; cat "$root/refresh.err"; }
	kill "$FIXTURED_PID"; wait "$FIXTURED_PID" 2>/dev/null || true
done
cat >"$root/req" <<'REQ'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list","arguments":{"gpu":"h100:8","ib":true,"available":true,"region":"eu","sort":"price","limit":3}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list","arguments":{"gpu":"h100:8","ib":true,"available":true,"region":"eu","include-unknown":true,"limit":3}}}
REQ
"$bin" mcp <"$root/req" >"$root/out" 2>"$root/err"
echo "# cache: refreshed from the recorded answers of: $(sqlite3 "$GPUCMP_CACHE" "SELECT group_concat(provider, ', ') FROM provider_state" 2>/dev/null || echo '?')"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	echo "--> $line"
	id=$(printf '%s' "$line" | jq -r '.id // empty')
	[ -n "$id" ] || continue
	if [ "$id" = 2 ]; then
		jq -c 'select(.id == 2) | {jsonrpc, id, result: {tools: [.result.tools[].name]}}' "$root/out" |
			sed 's/^/<-- /;s/$/   (inputSchemas left out)/'
	else
		jq -c --argjson id "$id" 'select(.id == $id)' "$root/out" | sed 's/^/<-- /'
	fi
done <"$root/req"
for id in 3 4; do
	echo "# call $id: the first text item (the JSON of --json), pretty:"
	jq -r --argjson id "$id" "select(.id == \$id) | .result.content[0].text" "$root/out" | jq .
	echo "# call $id: the second text item (what the command said on stderr):"
	jq -r --argjson id "$id" "select(.id == \$id) | .result.content[1].text // \"(none)\"" "$root/out"
done
