#!/bin/sh
# The reference MCP client against `gpucmp mcp`: the TypeScript SDK
# (@modelcontextprotocol/sdk, the version package-lock.json pins) installed
# once into the build tree with `npm ci`, then client.mjs connects over
# stdio, lists the tools and calls each.  Without node, npm or (before the
# first install) the registry the test fails: it does not skip.
#
# usage: sdk.sh GPUCMP WORKDIR    (WORKDIR: where the SDK is installed, kept)
set -u
bin=$1
dir=$2
here=$(cd "$(dirname "$0")" && pwd)
for tool in node npm; do
	command -v $tool >/dev/null 2>&1 || {
		echo "FAIL: $tool is missing (scripts/deps.sh test installs it)"; exit 1; }
done
mkdir -p "$dir" || exit 1
cp "$here/package.json" "$here/package-lock.json" "$here/client.mjs" "$dir/" || exit 1
# installed once per lock file: later runs need no network
if ! cmp -s "$dir/package-lock.json" "$dir/.installed-lock" ||
   [ ! -d "$dir/node_modules/@modelcontextprotocol/sdk" ]; then
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >"$dir/npm.log" 2>&1 || {
		echo "FAIL: cannot install @modelcontextprotocol/sdk with npm ci:"
		tail -5 "$dir/npm.log"; exit 1; }
	cp "$dir/package-lock.json" "$dir/.installed-lock"
fi
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-mcp-sdk.XXXXXX")
trap 'rm -rf "$root"' EXIT INT TERM
export GPUCMP_TODAY=2026-12-02 HOME="$root" XDG_CONFIG_HOME="$root/config" GPUCMP_CONFIG=
export GPUCMP_CACHE="$root/cache.db" NO_COLOR=1
"$bin" --quiet list --limit 0 >/dev/null || { echo "FAIL: cannot seed the cache"; exit 1; }
"$bin" list --gpu h100:8 --ib --region eu --json >"$root/list.json" 2>/dev/null || exit 1
sdk=$dir/node_modules/@modelcontextprotocol/sdk/package.json
echo "@modelcontextprotocol/sdk $(node -e \
	'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).version)' "$sdk")"
node "$dir/client.mjs" "$bin" "$root/list.json"
