// MCP over Streamable HTTP at /mcp with the SDK's own Client: the catalogue's tools, consent to spend, job
// progress and resources, and the refusals (mcp-flows.ts); and what only HTTP has: bearer authentication.
import { describe, expect, it } from "vitest";
import { mcpFlows, useMcpFixture } from "./support/mcp-flows.ts";
import { mcpOverHttp } from "./support/mcp.ts";

const fixture = useMcpFixture();
mcpFlows("Streamable HTTP", fixture, mcpOverHttp);

describe("/mcp authentication", () => {
  it("answers 401 with a Bearer challenge without a credential, and ignores the session cookie", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const anonymous = await fetch(`${fixture.app.url}/mcp`, { method: "POST", headers, body: JSON.stringify(init) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="adgen"');
    const withCookie = await fetch(`${fixture.app.url}/mcp`, {
      method: "POST",
      headers: { ...headers, cookie: `session=${fixture.owner.jwt}` },
      body: JSON.stringify(init),
    });
    expect(withCookie.status).toBe(401);
    await expect(mcpOverHttp(fixture.app.url, "ca_not-a-key")).rejects.toThrow(/Authentication required/);
  });

  it("a session opened by one account is unknown to another", async () => {
    const client = await mcpOverHttp(fixture.app.url, fixture.fullKey);
    const sessionId = (client.transport as { sessionId?: string }).sessionId!;
    const theirs = await fetch(`${fixture.app.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${fixture.stranger.jwt}`,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(theirs.status).toBe(404);
    await client.close();
  });
});
