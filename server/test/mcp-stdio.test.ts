// MCP over stdio, as a desktop agent runs `pnpm mcp` with MCP_API_KEY: the SDK's own Client starts the
// bridge and does what an agent does (mcp-flows.ts), relayed to the service's /mcp with the key.
import { describe, expect, it } from "vitest";
import { mcpFlows, useMcpFixture } from "./support/mcp-flows.ts";
import { mcpOverStdio } from "./support/mcp.ts";

const fixture = useMcpFixture();
mcpFlows("stdio", fixture, mcpOverStdio);

describe("pnpm mcp", () => {
  it("refuses to start without MCP_API_KEY, saying how to get one", async () => {
    const { spawnSync } = await import("node:child_process");
    const run = spawnSync(process.execPath, ["--import", "tsx", "src/mcp/stdio-bridge.ts"], {
      cwd: new URL("..", import.meta.url),
      env: { PATH: process.env.PATH ?? "" },
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("MCP_API_KEY is not set");
  });
});
