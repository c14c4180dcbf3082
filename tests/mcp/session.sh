#!/bin/sh
# Scripted JSON-RPC sessions with `gpucmp mcp` (docs/MCP.md) over pipes, on
# a seeded cache: the handshake, tools/list, a tools/call of every tool,
# list's answer against `gpucmp list ... --json` byte for byte, and the
# errors: malformed JSON, a wrong jsonrpc, an unknown method and tool, bad
# argument types, a line over 1 MiB, the end of input in mid-message.  The
# server must answer each with the right code and go on, and end cleanly.
#
# usage: session.sh GPUCMP    (GPUCMP_WRAPPER="valgrind ..." wraps the server)
set -u
bin=$1
wrapper=${GPUCMP_WRAPPER:-}
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-mcp.XXXXXX")
trap 'rm -rf "$root"' EXIT INT TERM
export GPUCMP_TODAY=2026-12-02 HOME="$root" XDG_CONFIG_HOME="$root/config" GPUCMP_CONFIG=
export GPUCMP_CACHE="$root/cache.db" NO_COLOR=1
"$bin" --quiet list --limit 0 >/dev/null || { echo "cannot seed the cache"; exit 1; }

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# serve FILE: run the server on the requests in FILE; its stdout in FILE.out,
# its exit code in FILE.rc
serve() {
	# shellcheck disable=SC2086
	$wrapper "$bin" mcp <"$1" >"$1.out" 2>"$1.err"
	echo $? >"$1.rc"
}

# answer FILE ID: the response to request ID, compact
answer() { jq -c --argjson id "$2" 'select(.id == $id)' "$1.out"; }

# check FILE ID JQ WHAT: the response to ID satisfies JQ
check() {
	if answer "$1" "$2" | jq -e "$3" >/dev/null 2>&1; then ok "$4"; else
		bad "$4: $(answer "$1" "$2" | cut -c1-300)"; fi
}

s=$root/s1
cat >"$s" <<'REQ'
{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"session.sh","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list","arguments":{"gpu":"h100:8","ib":true,"region":"eu"}}}
{"jsonrpc":"2.0","id":4,"method":"ping"}
{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"show","arguments":{"provider":"nebius"}}}
{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"compare","arguments":{"providers":["lambda","nebius"],"diff":true}}}
{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"recommend","arguments":{"workload":"training","gpu":"h100","nodes":2,"limit":3}}}
{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"changes","arguments":{"since":"7d"}}}
{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"history","arguments":{"gpu":"h100","days":7}}}
{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"cache_status"}}
{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"list","arguments":{"gpu":"h100:8","ib":true,"region":"eu","available":true}}}
{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"list","arguments":{"vram":"80GB","max-price":2.5,"limit":2,"sort":"price"}}}
{"jsonrpc":"2.0","id":"s13","method":"tools/call","params":{"name":"show","arguments":{"provider":"lambdaa"}}}
{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"compare","arguments":{"providers":["lambda"]}}}
{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"list","arguments":{"gpu":"h100;drop table"}}}
{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"list","arguments":{"k8s":"sometimes"}}}
{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"recommend","arguments":{"workload":"notebook","available":true}}}
{"jsonrpc":"2.0","id":3,"result":{}}
{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}
{"jsonrpc":"2.0","method":"no/such/notification"}
REQ
serve "$s"
[ "$(cat "$s.rc")" = 0 ] && ok "a session ends with 0 at the end of input" ||
	bad "exit $(cat "$s.rc"): $(cat "$s.err")"
if jq -e -s 'all(.[]; .jsonrpc == "2.0")' "$s.out" >/dev/null 2>&1 &&
   [ "$(grep -c . "$s.out")" = 17 ]; then
	ok "one JSON-RPC line for each of the 17 requests, none for notifications or responses"
else bad "stdout is not 17 JSON-RPC lines:"; cut -c1-200 "$s.out"; fi
check "$s" 1 '.result.protocolVersion == "2025-11-25" and .result.capabilities.tools and
	.result.serverInfo.name == "gpucmp"' "initialize answers the client's revision"
check "$s" 2 '[.result.tools[].name] == ["list","show","compare","recommend","changes",
	"history","cache_status"]' "tools/list names the seven tools"
check "$s" 2 'all(.result.tools[]; .inputSchema.type == "object" and .description != ""
	and .annotations.readOnlyHint == true)' "each tool has an object inputSchema"
check "$s" 2 '.result.tools[0].inputSchema.properties | .ib.type == "boolean" and
	.gpu.type == "string" and (.k8s.enum | index("managed")) and .region and
	.available and (has("json") | not) and (has("cache") | not)' \
	"list's schema is its option table, less the output and cache options"
check "$s" 2 '.result.tools[3].inputSchema.properties.available.type == "boolean"' \
	"recommend's schema has --available from its option table"
check "$s" 2 '.result.tools[0].inputSchema.properties | .nodes.type == "integer" and
	.nodes.minimum == 1 and .hours.exclusiveMinimum == 0 and .vram.minimum == 0 and
	(.gpus | .type == "integer" and .minimum == 0 and (has("maximum") | not))' \
	"a number's range and whole-number rule come from its option's definition"
check "$s" 2 '.result.tools[2].inputSchema.required == ["providers"]' \
	"compare requires its providers"
check "$s" 4 '.result == {}' "ping"
for id in 5 6 7 8 9 10 11 12; do
	check "$s" $id '.result.isError == false and (.result.content[0].text | fromjson | type) as $t
		| ($t == "array" or $t == "object")' "tool call $id answers JSON"
done
# the answer is the command's own --json, byte for byte
answer "$s" 3 | jq -j '.result.content[0].text' >"$root/mcp.json"
"$bin" list --gpu h100:8 --ib --region eu --json >"$root/cli.json" 2>/dev/null
if [ -s "$root/cli.json" ] && cmp -s "$root/mcp.json" "$root/cli.json"; then
	ok "list's answer is 'gpucmp list --gpu h100:8 --ib --region eu --json', byte for byte"
else bad "list's answer differs from the command's"; fi
answer "$s" 12 | jq -j '.result.content[0].text' >"$root/mcp.json"
"$bin" list --vram 80GB --max-price 2.5 --limit 2 --sort price --json >"$root/cli.json" \
	2>/dev/null
cmp -s "$root/mcp.json" "$root/cli.json" && ok "a unit string and a number as arguments" ||
	bad "list --vram 80GB --max-price 2.5 differs"
answer "$s" 5 | jq -j '.result.content[0].text' >"$root/mcp.json"
"$bin" show nebius --json >"$root/cli.json" 2>/dev/null
cmp -s "$root/mcp.json" "$root/cli.json" && ok "show's answer is 'show nebius --json'" ||
	bad "show's answer differs"
check "$s" 3 '.result.content[0].text | fromjson | length > 0 and
	all(.[]; .gpu_count == 8 and .infiniband == true and .geo == "eu")' \
	"8xH100 with InfiniBand in the EU"
check "$s" '"s13"' '.result.isError == true and (.result.content[0].text |
	test("unknown provider .lambdaa.; did you mean .lambda.")) and
	(.result.content | length) == 1' "a tool error is isError with the command's one line"
check "$s" 17 '.result.isError == false and (.result.content[0].text | fromjson |
	.picks == []) and (.result.content[1].text |
	test("left out as unknown, not as no: --available [0-9]+ offers"))' \
	"recommend available: nothing known in stock, the unknown counted"
check "$s" 14 '.result.isError == true' "compare with one provider is a tool error"
check "$s" 15 '.result.isError == true' "a gpu that fits none is a tool error"
check "$s" 16 '.result.isError == true and (.result.content[0].text | test("k8s"))' \
	"a value not in the enum is a tool error naming the option"

# the errors of the protocol, each answered, the session going on
e=$root/s2
{
	echo '{"jsonrpc":"2.0","id":1,"method":"ping"'
	echo '{"jsonrpc":"1.0","id":2,"method":"ping"}'
	echo '{"id":3,"method":"ping"}'
	echo '{"jsonrpc":"2.0","id":4,"method":"resources/list"}'
	echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"refresh"}}'
	echo '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"list","arguments":{"ib":"yes"}}}'
	echo '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list","arguments":{"gpus":"8"}}}'
	echo '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"list","arguments":{"cache":"/tmp/x"}}}'
	echo '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"show","arguments":{}}}'
	echo '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"compare","arguments":{"providers":"lambda"}}}'
	echo '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"list","arguments":[1]}}'
	echo '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":[]}'
	echo '[{"jsonrpc":"2.0","id":13,"method":"ping"}]'
	echo '{"jsonrpc":"2.0","id":null,"method":"ping"}'
	echo '{"jsonrpc":"2.0","id":15}'
	echo '{"jsonrpc":"2.0","id":16,"method":"initialize","params":{}}'
	echo '{"jsonrpc":"2.0","id":17,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}'
	echo '"just a string"'
	printf '{"jsonrpc":"2.0","id":19,"method":"ping","pad":"'
	head -c 1200000 /dev/zero | tr '\0' x
	echo '"}'
	echo '{"jsonrpc":"2.0","id":20,"method":"ping"}'
	printf '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"li'
} >"$e"
serve "$e"
[ "$(cat "$e.rc")" = 0 ] && ok "the end of input in mid-message ends the server with 0" ||
	bad "exit $(cat "$e.rc"): $(cat "$e.err")"
# line by line: each request's answer, in order (ids absent from bad ones)
expect='-32700 -32600 -32600 -32601 -32602 -32602 -32602 -32602 -32602 -32602 -32602 -32602
	-32600 -32600 -32600 -32602 ok -32600 -32600 ok -32700'
got=$(jq -r 'if .error then .error.code else "ok" end' "$e.out" | tr '\n' ' ')
if [ "$(echo $got)" = "$(echo $expect)" ]; then
	ok "malformed, wrong version, unknown method and tool, bad params, batch, null id,"
	ok "  no method, a line over 1 MiB and a cut last line: the right codes, in order"
else bad "codes: got '$(echo $got)', want '$(echo $expect)'"; cut -c1-200 "$e.out"; fi
check "$e" 2 '.error.code == -32600' "a wrong jsonrpc keeps the request's id"
check "$e" 5 '.error.message | test("unknown tool .refresh.")' "no refresh tool"
check "$e" 6 '.error.message == "argument '"'ib'"' must be a boolean"' \
	"a bad argument type names the argument"
check "$e" 17 '.result.protocolVersion == "2025-11-25"' \
	"an unknown revision is answered with ours"
check "$e" 20 '.result == {}' "a ping after the oversized line is answered"

# nothing on stdin: a clean end, nothing written
: >"$root/s3"
serve "$root/s3"
[ "$(cat "$root/s3.rc")" = 0 ] && [ ! -s "$root/s3.out" ] && ok "empty input: exit 0, silent" ||
	bad "empty input: exit $(cat "$root/s3.rc")"

# docs/MCP.md's session, replayed: its requests give its answers
doc=$(cd "$(dirname "$0")/../.." && pwd)/docs/MCP.md
t=$root/s4
sed -n 's/^-> //p' "$doc" >"$t"
sed -n 's/^<- \({.*}\)$/\1/p' "$doc" >"$t.want"
serve "$t"
if [ -s "$t" ] && [ "$(grep -c . "$t.want")" -ge 3 ] &&
   [ "$(jq -c --slurpfile w "$t.want" 'select(.id as $id | $w | any(.id == $id))' "$t.out")" = \
     "$(jq -c . "$t.want")" ]; then
	ok "docs/MCP.md's session: the same answers"
else bad "docs/MCP.md's session answers differently now (regenerate its transcript)"; fi

[ $fail = 0 ] && echo "mcp session: all passed"
exit $fail
