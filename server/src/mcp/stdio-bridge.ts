// `pnpm mcp`: the MCP server over stdio, for desktop agents (Claude Desktop, IDE agents) that start a
// command. It speaks MCP on stdin/stdout with the SDK's stdio transport and relays each message, unchanged,
// to the running service's `/mcp` (the SDK's Streamable HTTP client transport) with `MCP_API_KEY` as the
// bearer: the account is the key's, and every tool, resource and prompt is the service's own. The service
// owns the database and the workers (an embedded PGlite database admits one process), so this process holds
// no state and opens no database. Only MCP goes to stdout; what it says itself goes to stderr.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const key = process.env.MCP_API_KEY?.trim();
if (!key) {
  process.stderr.write("MCP_API_KEY is not set: create an API key (Settings → API, or POST /api/user/api-key) and set MCP_API_KEY to it\n");
  process.exit(2);
}
const url = new URL(process.env.MCP_URL ?? `http://127.0.0.1:${process.env.PORT ?? "3000"}/mcp`);

const upstream = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } } });
const local = new StdioServerTransport();
/** The id of the initialize request, whose answer names the protocol version later requests must carry. */
let initializeId: string | number | null = null;

local.onmessage = (message: JSONRPCMessage) => {
  if (isJSONRPCRequest(message) && message.method === "initialize") initializeId = message.id;
  upstream.send(message).catch((error: unknown) => {
    const text = `The AdGen service at ${url.origin} refused or did not answer: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${text}\n`);
    if (isJSONRPCRequest(message)) void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: text } });
  });
};

upstream.onmessage = (message: JSONRPCMessage) => {
  if (isJSONRPCResultResponse(message) && message.id === initializeId) {
    const version = (message.result as { protocolVersion?: string }).protocolVersion;
    if (version) upstream.setProtocolVersion(version);
  }
  void local.send(message);
};
upstream.onerror = (error) => process.stderr.write(`MCP relay: ${error.message}\n`);

let closing = false;
async function shutDown(code: number): Promise<void> {
  if (closing) return;
  closing = true;
  await upstream.terminateSession().catch(() => {});
  await upstream.close().catch(() => {});
  process.exit(code);
}
local.onclose = () => void shutDown(0);
process.stdin.on("end", () => void shutDown(0));
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void shutDown(0));

await upstream.start();
await local.start();
