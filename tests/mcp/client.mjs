// The reference MCP client (@modelcontextprotocol/sdk, pinned in
// package.json) against `gpucmp mcp` over stdio: connect, list the tools,
// call each, check the answers; tests/mcp/sdk.sh runs it.
//
// usage: node client.mjs GPUCMP EXPECTED_LIST_JSON
//   EXPECTED_LIST_JSON: what `gpucmp list --gpu h100:8 --ib --region eu
//   --json` printed on the same cache
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const [gpucmp, expectedFile] = process.argv.slice(2);
let failed = 0;
const ok = (cond, what) => {
	console.log(`${cond ? "ok" : "FAIL"}: ${what}`);
	if (!cond) failed = 1;
};

// the calls: one per tool, each answered with its command's --json
const calls = {
	list: { gpu: "h100:8", ib: true, region: "eu" },
	show: { provider: "nebius" },
	compare: { providers: ["lambda", "nebius", "azure"], diff: true },
	recommend: { workload: "training", gpu: "h100", nodes: 2, limit: 3 },
	changes: { since: "7d" },
	history: { gpu: "h100", days: 7 },
	cache_status: {},
};

const env = {};
for (const [k, v] of Object.entries(process.env))
	if (k.startsWith("GPUCMP_") || ["HOME", "PATH", "XDG_CONFIG_HOME", "NO_COLOR"].includes(k))
		env[k] = v;
const transport = new StdioClientTransport({ command: gpucmp, args: ["mcp"], env, stderr: "inherit" });
const client = new Client({ name: "gpucmp-sdk-test", version: "1.0.0" });
await client.connect(transport);
const version = client.getServerVersion();
ok(version?.name === "gpucmp", `initialize: server ${version?.name} ${version?.version}`);
ok(client.getServerCapabilities()?.tools !== undefined, "the server offers tools");

const { tools } = await client.listTools();
ok(tools.length === Object.keys(calls).length, `tools/list: ${tools.map((t) => t.name).join(" ")}`);
for (const t of tools) {
	ok(t.inputSchema?.type === "object" && t.annotations?.readOnlyHint === true,
	   `${t.name}: an object inputSchema of ${Object.keys(t.inputSchema?.properties ?? {}).length} properties, read-only`);
	const args = calls[t.name];
	ok(args !== undefined, `${t.name}: a call planned`);
	if (args === undefined) continue;
	const r = await client.callTool({ name: t.name, arguments: args });
	let answer;
	try {
		answer = JSON.parse(r.content[0].text);
	} catch {
		answer = undefined;
	}
	ok(!r.isError && answer !== undefined,
	   `${t.name}: answered ${Array.isArray(answer) ? answer.length + " rows" : typeof answer}`);
	if (t.name === "list")
		ok(r.content[0].text === readFileSync(expectedFile, "utf8"),
		   "list: the answer is `gpucmp list --gpu h100:8 --ib --region eu --json`, byte for byte");
}

// a tool error and a protocol error, as the SDK sees them
const bad = await client.callTool({ name: "show", arguments: { provider: "lambdaa" } });
ok(bad.isError === true && /did you mean 'lambda'/.test(bad.content[0].text),
   `a tool error: isError, "${bad.content[0].text}"`);
try {
	await client.callTool({ name: "list", arguments: { ib: "yes" } });
	ok(false, "a bad argument type is refused");
} catch (e) {
	ok(e instanceof McpError && e.code === -32602, `a bad argument type: ${e.code} ${e.message}`);
}
await client.ping();
ok(true, "ping");
await client.close();
console.log(failed ? "mcp sdk client: FAILED" : "mcp sdk client: all passed");
process.exit(failed);
