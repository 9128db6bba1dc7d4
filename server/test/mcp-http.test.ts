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

/** GraphQL names fields in camelCase (`credits_balance` → `creditsBalance`). */
const camel = (key: string) => key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const camelKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(camelKeys)
    : value && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), camelKeys(v)]))
      : value;
/** GraphQL's enum names for values that are not names (`_9_16` is the format "9:16"). */
const fromGraphqlEnums = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(fromGraphqlEnums)
    : value && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromGraphqlEnums(v)]))
      : typeof value === "string"
        ? value.replace(/^_(\d+)_(\d+)$/, "$1:$2")
        : value;

/** A GraphQL selection of every field a REST answer has (objects and lists of objects opened). */
function selectionOf(value: unknown): string {
  const item = Array.isArray(value) ? value[0] : value;
  if (item === null || typeof item !== "object") return "";
  const fields = Object.entries(item as Record<string, unknown>).map(([key, v]) => `${camel(key)} ${selectionOf(v)}`);
  return `{ ${fields.join(" ")} }`;
}

describe("transport parity with MCP", () => {
  const estimate = { type: "painpoint", concept: "Parity backpacks", formats: ["1:1", "9:16"] };
  const cases: {
    operation: string;
    rest: [string, string, unknown?];
    graphqlField: string;
    graphqlKind: "query";
    input?: Record<string, unknown>;
  }[] = [
    { operation: "user.profile", rest: ["GET", "/user/profile"], graphqlField: "userProfile", graphqlKind: "query" },
    { operation: "user.credits", rest: ["GET", "/user/credits"], graphqlField: "userCredits", graphqlKind: "query" },
    {
      operation: "workflow.estimate",
      rest: ["POST", "/workflow/estimate", estimate],
      graphqlField: "workflowEstimate",
      graphqlKind: "query",
      input: estimate,
    },
  ];

  it("the same input gives the same data on REST, tRPC, GraphQL and MCP", async () => {
    const { RestClient, graphql, trpcClient } = await import("./support/clients.ts");
    const jwt = fixture.owner.jwt;
    const rest = new RestClient(fixture.app.url, { bearer: jwt });
    const trpc = trpcClient(fixture.app.url, jwt) as unknown as Record<
      string,
      Record<string, { query(input?: unknown): Promise<unknown> }>
    >;
    const client = await mcpOverHttp(fixture.app.url, jwt);
    try {
      for (const c of cases) {
        const viaRest = (await rest.call(c.rest[0], c.rest[1], c.rest[2])).body.data;
        const [area, key] = c.operation.split(".") as [string, string];
        const viaTrpc = await trpc[area]![key]!.query(c.input);
        const variables = c.input ? `(type: painpoint, concept: "Parity backpacks", formats: ["1:1", "9:16"])` : "";
        const gql = await graphql(fixture.app.url, `{ ${c.graphqlField}${variables} ${selectionOf(viaRest)} }`, {}, jwt);
        expect(gql.body.errors, `${c.operation}: ${JSON.stringify(gql.body.errors)}`).toBeUndefined();
        const viaMcp = await client.callTool({ name: c.operation.replace(".", "_"), arguments: c.input ?? {} });
        expect(viaMcp.isError ?? false, c.operation).toBe(false);
        const json = (value: unknown) => JSON.parse(JSON.stringify(value));
        expect(json(viaTrpc), `${c.operation} on tRPC`).toEqual(viaRest);
        expect(fromGraphqlEnums(gql.body.data[c.graphqlField]), `${c.operation} on GraphQL`).toEqual(camelKeys(viaRest));
        expect(viaMcp.structuredContent, `${c.operation} on MCP`).toEqual(viaRest);
      }
    } finally {
      await client.close();
    }
  });
});
