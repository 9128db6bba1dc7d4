// The operation catalogue: every operation on every transport (or a written reason why not), one rate
// limit shared by REST, tRPC and GraphQL, authentication before validation everywhere, and streams that
// release their bus listeners when the client goes away.
import { readFileSync, writeFileSync } from "node:fs";
import { TRPCClientError } from "@trpc/client";
import { getNamedType, GraphQLObjectType } from "graphql";
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ANALYTICS_ROOT_FIELDS } from "../src/graphql/graph/viewer.ts";
import { graphqlFieldName, graphQLSchema } from "../src/graphql/schema.ts";
import { operations } from "../src/operations/catalogue.ts";
import { restRoutes } from "./support/rest-routes.ts";
import { appRouter } from "../src/trpc/router.ts";
import { signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

type Transport = "rest" | "trpc" | "graphql";

/** Where each operation is served, or the reason its definition gives for not serving it. */
function parity() {
  const procedures = appRouter._def.procedures as Record<string, unknown>;
  const rootFields = new Map<string, string>();
  for (const root of [graphQLSchema().getQueryType(), graphQLSchema().getMutationType(), graphQLSchema().getSubscriptionType()]) {
    for (const name of Object.keys(root?.getFields() ?? {})) rootFields.set(name, root!.name);
  }
  return operations.map((op) => {
    const rest = restRoutes.find((r) => r.operation === op.name);
    const row: Record<Transport, string> = {
      rest: rest ? `${rest.method} /api${rest.path}` : `none: ${"none" in op.rest ? op.rest.none : "?"}`,
      trpc: op.name in procedures ? op.name : `none: ${op.trpc?.none ?? "?"}`,
      graphql: rootFields.has(graphqlFieldName(op.name))
        ? `${rootFields.get(graphqlFieldName(op.name))}.${graphqlFieldName(op.name)}`
        : `none: ${op.graphql?.none ?? "?"}`,
    };
    return { op, row };
  });
}

describe("parity", () => {
  it("serves every operation on REST, tRPC and GraphQL, or its definition says why not", () => {
    const missing: string[] = [];
    for (const { op, row } of parity()) {
      for (const [transport, where] of Object.entries(row)) {
        // A reason is a sentence, not a placeholder.
        if (where.startsWith("none:") && !/^none: \w.{10,}/.test(where)) missing.push(`${op.name} on ${transport}: ${where}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("docs/operations.md lists every operation on every transport, as served", () => {
    const table = ["| operation | REST | tRPC | GraphQL |", "| --- | --- | --- | --- |"]
      .concat(parity().map(({ op, row }) => `| \`${op.name}\` | ${row.rest} | ${row.trpc} | ${row.graphql} |`))
      .join("\n");
    const doc = new URL("../../docs/operations.md", import.meta.url);
    const [start, end] = ["<!-- operations:start -->", "<!-- operations:end -->"];
    // The table's generator: UPDATE_OPERATIONS_DOC=1 writes it between the markers (then `npx biome check
    // --write docs/operations.md` pads it); the comparison below then holds for what was written.
    if (process.env.UPDATE_OPERATIONS_DOC) {
      const text = readFileSync(doc, "utf8");
      writeFileSync(doc, `${text.split(start)[0]}${start}\n${table}\n${end}${text.split(end)[1] ?? "\n"}`);
    }
    const text = readFileSync(doc, "utf8");
    const listed = text.split(start)[1]?.split(end)[0]?.trim() ?? "";
    // Cells compared without the padding a formatter adds.
    const cells = (markdown: string) =>
      markdown.split("\n").map((line) =>
        line
          .split("|")
          .map((cell) => cell.trim().replace(/^-+$/, "---"))
          .join("|"),
      );
    expect(cells(listed), `docs/operations.md between the operations markers should be:\n${table}`).toEqual(cells(table));
  });

  it("only downloads and uploads skip tRPC and GraphQL, and every operation has REST", () => {
    for (const { op, row } of parity()) {
      if (op.kind !== "download" && op.kind !== "upload") {
        expect(row.trpc, op.name).not.toMatch(/^none/);
        expect(row.graphql, op.name).not.toMatch(/^none/);
      }
      expect(row.rest, op.name).not.toMatch(/^none/);
    }
  });

  it("serves nothing that is not in the catalogue (GraphQL: beside the analytics graph's roots)", () => {
    const names = new Set(operations.map((op) => op.name));
    expect(Object.keys(appRouter._def.procedures).filter((p) => !names.has(p))).toEqual([]);
    const fieldNames = new Set<string>([...operations.map((op) => graphqlFieldName(op.name)), ...ANALYTICS_ROOT_FIELDS]);
    for (const root of [graphQLSchema().getQueryType(), graphQLSchema().getMutationType(), graphQLSchema().getSubscriptionType()]) {
      expect(Object.keys(root?.getFields() ?? {}).filter((f) => !fieldNames.has(f))).toEqual([]);
    }
    expect(new Set(restRoutes.map((r) => r.operation)).size).toBe(restRoutes.length);
  });

  it("answers typed objects on GraphQL: JSON only for free-form records", () => {
    const jsonFields: string[] = [];
    const seen = new Set<string>();
    const visit = (type: GraphQLObjectType, path: string) => {
      if (seen.has(type.name)) return;
      seen.add(type.name);
      for (const [name, field] of Object.entries(type.getFields())) {
        const named = getNamedType(field.type);
        if (named.name === "JSON") jsonFields.push(`${type.name}.${name}`);
        if (named instanceof GraphQLObjectType) visit(named, `${path}.${name}`);
      }
    };
    for (const root of [graphQLSchema().getQueryType(), graphQLSchema().getMutationType(), graphQLSchema().getSubscriptionType()]) {
      for (const [name, field] of Object.entries(root?.getFields() ?? {})) {
        const named = getNamedType(field.type);
        expect(named.name, `${name} answers untyped JSON`).not.toBe("JSON");
        if (named instanceof GraphQLObjectType) visit(named, name);
      }
    }
    // Records keyed by data (workflow types, ledger reasons) are lists of typed { key, value } entries; a
    // job's launch input, its storyboard and its events' results have open typed shapes. Free-form remain
    // audit metadata, an agent's run result and a marketing run's output (each kind reports its own shape),
    // and an assistant tool call's arguments and result (each tool has its own).
    expect(jsonFields.sort()).toEqual([
      "AdminActivityEntries.metadata",
      "AdminAgentsAgents.lastResult",
      "AdminGenerateMarketingRuns.output",
      "AdminMarketingRuns.output",
      "AdminTriggerAgent.lastResult",
      "AssistantToolCall.arguments",
      "AssistantToolCall.result",
    ]);
  });
});

describe("one invocation path", () => {
  let app: TestApp;
  const sockets: Client[] = [];
  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_API_PER_MINUTE: "100", RATE_LIMIT_STREAM_PER_HOUR: "100" });
  });
  afterAll(async () => {
    for (const socket of sockets) await socket.dispose();
    await app?.close();
  });

  it("the 101st tRPC call of an operation within a minute is TOO_MANY_REQUESTS", async () => {
    const account = await signUp(app, "trpc-limit");
    const api = trpcClient(app.url, account.jwt);
    for (let i = 0; i < 100; i++) expect(await api.user.credits.query()).toEqual({ balance: 10 });
    const refused = await api.user.credits.query().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<never>).data).toMatchObject({ code: "TOO_MANY_REQUESTS", httpStatus: 429 });
    // The same counter on REST: the account's budget for user.credits is spent there too.
    const rest = await new RestClient(app.url, { bearer: account.jwt }).get("/user/credits");
    expect(rest.status).toBe(429);
    expect(rest.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("the 101st GraphQL call of an operation within a minute is RATE_LIMITED with HTTP 429", async () => {
    const account = await signUp(app, "gql-limit");
    for (let i = 0; i < 100; i++) {
      const ok = await graphql(app.url, "{ userCredits { balance } }", {}, account.jwt);
      expect(ok.body).toEqual({ data: { userCredits: { balance: 10 } } });
    }
    const refused = await graphql(app.url, "{ userCredits { balance } }", {}, account.jwt);
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
  });

  it("REST, tRPC and GraphQL share one counter per operation and account", async () => {
    const account = await signUp(app, "shared-limit");
    const rest = new RestClient(app.url, { bearer: account.jwt });
    const api = trpcClient(app.url, account.jwt);
    for (let i = 0; i < 40; i++) expect((await rest.get("/user/profile")).status).toBe(200);
    for (let i = 0; i < 40; i++) await api.user.profile.query();
    for (let i = 0; i < 20; i++) expect((await graphql(app.url, "{ userProfile { id } }", {}, account.jwt)).status).toBe(200);
    expect((await rest.get("/user/profile")).status).toBe(429);
    expect((await graphql(app.url, "{ userProfile { id } }", {}, account.jwt)).status).toBe(429);
    // Another operation has its own budget.
    expect((await rest.get("/user/credits")).status).toBe(200);
  });

  it("authenticates before validating: an anonymous invalid launch is 401 on every transport", async () => {
    const refused = await trpcClient(app.url)
      .workflow.launch.mutate({ type: "nope" } as never)
      .catch((error: unknown) => error);
    expect((refused as TRPCClientError<never>).data).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await new RestClient(app.url).post("/workflow", { type: "nope" })).status).toBe(401);
    const gql = await graphql(app.url, `mutation { workflowLaunch(type: cinematic, url: "not a url") { jobId } }`);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe("UNAUTHORIZED");
  });

  it("names each invalid field on tRPC and GraphQL, like REST's message", async () => {
    const account = await signUp(app, "fields");
    const refused = await trpcClient(app.url, account.jwt)
      .workflow.launch.mutate({ type: "cinematic", url: "ftp://x" })
      .catch((error: unknown) => error);
    expect((refused as TRPCClientError<never>).message).toBe("The page address must be a web address starting with http:// or https://");
    expect((refused as { data?: unknown }).data).toMatchObject({
      code: "BAD_REQUEST",
      fields: [{ field: "url", message: "The page address must be a web address starting with http:// or https://" }],
    });
    const gql = await graphql(app.url, `mutation { workflowLaunch(type: cinematic, url: "ftp://x") { jobId } }`, {}, account.jwt);
    expect(gql.body.errors?.[0]).toMatchObject({
      message: "The page address must be a web address starting with http:// or https://",
      extensions: {
        code: "BAD_REQUEST",
        fields: [{ field: "url", message: "The page address must be a web address starting with http:// or https://" }],
      },
    });
    expect((await new RestClient(app.url, { bearer: account.jwt }).post("/workflow", { type: "cinematic", url: "ftp://x" })).body).toEqual({
      success: false,
      error: "The page address must be a web address starting with http:// or https://",
    });
  });

  it("a GraphQL subscription releases its bus listener when the client unsubscribes and when the socket closes", async () => {
    const account = await signUp(app, "listeners");
    const bus = app.services.events;
    const before = bus.listenerCount();
    const client = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${account.jwt}` },
      retryAttempts: 0,
    });
    sockets.push(client);
    const events = client.iterate({ query: "subscription { userBalanceChanges { balance delta reason } }" });
    const first = events.next();
    await expect.poll(() => bus.listenerCount()).toBe(before + 1);
    await events.return?.(undefined);
    await expect.poll(() => bus.listenerCount()).toBe(before);
    void first.catch(() => {});

    const again = client.iterate({ query: "subscription { userBalanceChanges { balance } }" });
    void again.next().catch(() => {});
    await expect.poll(() => bus.listenerCount()).toBe(before + 1);
    await client.dispose();
    await expect.poll(() => bus.listenerCount()).toBe(before);
  });

  it("a tRPC subscription and an SSE stream release their listeners when the client goes away", async () => {
    const account = await signUp(app, "sse-listeners");
    const bus = app.services.events;
    const before = bus.listenerCount();
    const controller = new AbortController();
    const response = await fetch(`${app.url}/api/events/stream`, {
      headers: { authorization: `Bearer ${account.jwt}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read(); // ": connected"
    await expect.poll(() => bus.listenerCount()).toBe(before + 1);
    controller.abort();
    await expect.poll(() => bus.listenerCount()).toBe(before);

    const trpcAbort = new AbortController();
    const sse = await fetch(`${app.url}/trpc/user.balanceChanges`, {
      headers: { authorization: `Bearer ${account.jwt}`, accept: "text/event-stream" },
      signal: trpcAbort.signal,
    });
    expect(sse.status).toBe(200);
    const trpcReader = sse.body!.getReader();
    await trpcReader.read();
    await expect.poll(() => bus.listenerCount()).toBe(before + 1);
    trpcAbort.abort();
    await expect.poll(() => bus.listenerCount()).toBe(before);
  });
});
