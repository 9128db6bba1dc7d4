// MCP clients for tests: the SDK's own `Client`, over Streamable HTTP (`/mcp` with a bearer) and over stdio
// (`pnpm mcp`'s bridge, started as a child process with MCP_API_KEY, relaying to the test app's `/mcp`).
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export type McpConnect = (credential: string) => Promise<Client>;

export async function mcpOverHttp(baseUrl: string, credential: string): Promise<Client> {
  const client = new Client({ name: "adgen-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${credential}` } },
  });
  await client.connect(transport);
  return client;
}

const serverDir = fileURLToPath(new URL("../..", import.meta.url));

/** `pnpm mcp` as a desktop agent starts it (the same script, without pnpm's own start-up). */
export async function mcpOverStdio(baseUrl: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: "adgen-test-stdio", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/mcp/stdio-bridge.ts"],
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? "", MCP_API_KEY: apiKey, MCP_URL: `${baseUrl}/mcp` },
    stderr: "pipe",
  });
  await client.connect(transport);
  return client;
}

/** A tool's answer text (its error's words, or its JSON). */
export const textOf = (result: CallToolResult | Record<string, unknown>) =>
  ((result as CallToolResult).content ?? [])
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("\n");
