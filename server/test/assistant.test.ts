// The built-in assistant (no language model configured): POST /api/chat/query answers over SSE with the
// text in pieces, each tool call as its own event and a final `done` naming the thread; each intent calls
// its tool and the answer carries the tool's real numbers. A launch happens only on a later "yes", and is
// charged once. Threads are kept, listed by GET /api/chat/history, and private to their account.
import { randomUUID } from "node:crypto";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { indexPassages } from "../src/modules/knowledge/passages.ts";
import { type Account, adminClient, signUp } from "./support/accounts.ts";
import { ask } from "./support/chat.ts";
import { graphql, type RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
let user: Account;
let stranger: Account;

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "Root.Admin@Example.com", ADMIN_PASSWORD: "admin-password-1" });
  admin = await adminClient(app);
  user = await signUp(app, "assistant");
  stranger = await signUp(app, "assistant-other");
});
afterAll(() => app?.close());

async function balance(account: Account): Promise<number> {
  const res = await account.client.get("/user/credits");
  expect(res.status).toBe(200);
  return res.body.data.balance;
}

async function grant(account: Account, amount: number) {
  const res = await admin.post(`/admin/users/${account.id}/credits`, { amount, reason: "assistant tests" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("POST /api/chat/query, the built-in assistant", () => {
  it("streams the answer: several text events, each tool call, then done with a new thread's id", async () => {
    const answer = await ask(app, user, { message: "How much is a cinematic ad?" });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/event-stream/);
    expect(answer.texts.length).toBeGreaterThan(1);
    expect(answer.events.map((e) => e.event)).toEqual(["tool", ...answer.texts.map(() => "text"), "done"]);
    expect(answer.tools).toEqual([
      {
        name: "estimate_launch",
        arguments: expect.objectContaining({ type: "cinematic" }),
        result: expect.objectContaining({ cost: 1, balance: 10 }),
      },
    ]);
    expect(answer.text).toContain("costs 1 credit; your balance is 10");
    expect(answer.done).toMatchObject({ type: "done", threadId: expect.any(String), text: answer.text.trim() });
    const again = await ask(app, user, { message: "How much would a premium influencer ad cost?", threadId: answer.done.threadId });
    expect(again.done.threadId).toBe(answer.done.threadId);
    expect(again.tools[0]).toMatchObject({
      name: "estimate_launch",
      result: { type: "influencer", quality: "premium", cost: 15, sufficient: false },
    });
    expect(again.text).toContain("costs 15 credits");
  });

  it("reads performance with the account's real figures", async () => {
    const account = await signUp(app, "assistant-perf");
    const launched = await account.client.post("/workflow", { type: "staticad", concept: "Cold brew at six" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const answer = await ask(app, account, { message: "How are my ads doing?" });
    expect(answer.tools).toHaveLength(1);
    expect(answer.tools[0]).toMatchObject({ name: "read_performance", result: { totalProjects: 1, creditsCharged: 1, inProgress: 1 } });
    expect(answer.text).toContain("you made 1 project");
    expect(answer.text).toContain("You used 1 credit (1 charged, 0 refunded)");
  });

  it("reads the ads' ingested figures: impressions, CTR and ROAS per creative", async () => {
    const account = await signUp(app, "assistant-ads");
    const ingested = await account.client.post("/workflow/performance", {
      creativeId: "summer-hook-1",
      impressions: 1000,
      clicks: 20,
      conversions: 2,
      spend: 10,
      revenue: 30,
    });
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(200);
    const answer = await ask(app, account, { message: "How is my ad performance?" });
    expect(answer.tools[0]!.result.ads.creatives).toEqual([
      expect.objectContaining({ creativeId: "summer-hook-1", impressions: 1000, clicks: 20, ctr: 0.02, roas: 3, decaying: false }),
    ]);
    expect(answer.text).toContain(
      "Your ads had 1000 impressions, 20 clicks and 2 conversions (CTR 2.00 %), spent 10.00 and brought 30.00 (ROAS 3.00×)",
    );
    expect(answer.text).toContain("summer-hook-1: 1000 impressions, CTR 2.00 %, ROAS 3.00×");
    const stranger = await ask(app, user, { message: "How is my ad performance?" });
    expect(stranger.tools[0]!.result.ads.creatives).toEqual([]);
  });

  it("plans a multi-week campaign within the budget, priced from the price table", async () => {
    const answer = await ask(app, user, { message: "Plan a 3-week campaign with 4 credits" });
    const [call] = answer.tools;
    expect(call).toMatchObject({ name: "plan_campaign", arguments: { weeks: 3, budgetCredits: 4 } });
    expect(call!.result.weeks).toHaveLength(3);
    expect(call!.result.weeks[0].launches.map((l: any) => [l.type, l.credits])).toEqual([
      ["staticad", 1],
      ["painpoint", 1],
    ]);
    expect(call!.result.totalCredits).toBeLessThanOrEqual(4);
    expect(call!.result.leftOut.length).toBeGreaterThan(0);
    expect(answer.text).toContain(`plan for ${call!.result.totalCredits} credits (budget 4`);
    expect(answer.text).toMatch(/Week 1 \(from \d{4}-\d\d-\d\d\), Test hooks/);
  });

  it("launches only after a later yes, charges once, and a second yes launches nothing", async () => {
    const account = await signUp(app, "assistant-launch");
    await grant(account, 5);
    const proposed = await ask(app, account, { message: "Launch a static ad about our cold brew that is ready at six" });
    expect(proposed.tools[0]).toMatchObject({ name: "launch_workflow", result: { proposed: true, awaitingConfirmation: true } });
    expect(proposed.text).toContain('reply "yes"');
    expect(await balance(account)).toBe(15);
    expect(await app.services.prisma.job.count({ where: { userId: account.id } })).toBe(0);
    const threadId = proposed.done.threadId;
    const pending = (await account.client.get("/chat/history")).body.data.threads[0];
    expect(pending).toMatchObject({ id: threadId, pendingLaunch: { type: "staticad", cost: 1 } });

    const confirmed = await ask(app, account, { message: "Yes", threadId });
    expect(confirmed.tools).toHaveLength(1);
    expect(confirmed.tools[0]).toMatchObject({ name: "confirm_launch", result: { launched: true, creditsCharged: 1, status: "queued" } });
    const jobId = confirmed.tools[0]!.result.jobId;
    const job = await account.client.get(`/workflow/job?jobId=${jobId}`);
    expect(job.status, JSON.stringify(job.body)).toBe(200);
    expect(job.body.data).toMatchObject({
      type: "staticad",
      input: expect.objectContaining({ concept: "our cold brew that is ready at six" }),
    });
    expect(await balance(account)).toBe(14);

    const twice = await ask(app, account, { message: "yes", threadId });
    expect(twice.tools).toEqual([]);
    expect(twice.text).toContain("nothing waiting");
    expect(await balance(account)).toBe(14);
    expect(await app.services.prisma.job.count({ where: { userId: account.id } })).toBe(1);
  });

  it("drops a proposed launch when the next message is not a yes", async () => {
    const account = await signUp(app, "assistant-drop");
    const proposed = await ask(app, account, { message: "launch a pain point ad for tired parents" });
    expect(proposed.tools[0]?.result.proposed).toBe(true);
    const next = await ask(app, account, { message: "no, what is my status?", threadId: proposed.done.threadId });
    expect(next.text).toContain("I did not launch Pain Point");
    expect(next.tools.map((t) => t.name)).toEqual(["project_status"]);
    const late = await ask(app, account, { message: "yes", threadId: proposed.done.threadId });
    expect(late.tools).toEqual([]);
    expect(await balance(account)).toBe(10);
  });

  it("a plain no (the page's Drop it) drops the launch and says nothing was charged", async () => {
    const account = await signUp(app, "assistant-no");
    const proposed = await ask(app, account, { message: "launch a static ad about oat milk" });
    expect(proposed.tools[0]?.result.proposed).toBe(true);
    const no = await ask(app, account, { message: "no", threadId: proposed.done.threadId });
    expect(no.tools).toEqual([]);
    expect(no.text).toMatch(/^Dropped: I did not launch Static Ad \(standard\) in 9:16 for 1 credit, and nothing was charged\.$/);
    expect((await ask(app, account, { message: "yes", threadId: proposed.done.threadId })).tools).toEqual([]);
    expect(await balance(account)).toBe(10);
  });

  it("says why a launch cannot be proposed, from the domain's own check", async () => {
    const answer = await ask(app, user, { message: "launch a multi-format ad" });
    expect(answer.tools[0]).toMatchObject({ name: "launch_workflow", result: { error: expect.stringContaining("needs a web page") } });
    expect(answer.text).toContain("I could not do that: The Multi-Format workflow needs a web page");
  });

  it("searches the account's brand knowledge, and only its own", async () => {
    const item = await app.services.prisma.knowledgeItem.create({
      data: { userId: user.id, type: "file", name: "facts.txt", status: "ready", mimeType: "text/plain" },
    });
    await app.services.prisma.$transaction((tx) =>
      indexPassages(tx, item, "Each Brewly can holds 212 mg of caffeine, measured by Eurofins in March.\n\nThe founders met in Molde."),
    );
    const answer = await ask(app, user, { message: "What do we know about caffeine?" });
    expect(answer.tools[0]).toMatchObject({ name: "search_knowledge", arguments: { query: "caffeine" } });
    expect(answer.tools[0]!.result.passages[0]).toEqual({ source: "facts.txt", passage: expect.stringContaining("212 mg") });
    expect(answer.text).toContain("212 mg of caffeine");
    const other = await ask(app, stranger, { message: "What do we know about caffeine?" });
    expect(other.tools[0]!.result.passages).toEqual([]);
    expect(other.text).toContain("has nothing about");
  });

  it("tells a project's status", async () => {
    const account = await signUp(app, "assistant-status");
    const launched = await account.client.post("/workflow", { type: "painpoint", concept: "Backpacks that survive toddlers" });
    const jobId = launched.body.data.jobId;
    const answer = await ask(app, account, { message: `What is the status of ${jobId}?` });
    expect(answer.tools[0]).toMatchObject({
      name: "project_status",
      arguments: { projectId: jobId },
      result: { projects: [{ id: jobId, status: "queued", creditsUsed: 1 }] },
    });
    expect(answer.text).toContain("is queued, 1 credit");
    const foreign = await ask(app, stranger, { message: `What is the status of ${jobId}?` });
    expect(foreign.tools[0]!.result).toEqual({ error: "Job not found" });
  });

  it("says what it can do instead when it cannot do something", async () => {
    const answer = await ask(app, user, { message: "Sing me a song about the sea" });
    expect(answer.tools).toEqual([]);
    expect(answer.text).toContain("That is not something I can do. What I can do instead:");
    expect(answer.text).not.toContain("I did not understand");
    for (const can of ["read your performance", "plan a campaign", "estimate a launch", "launch a workflow", "brand knowledge", "status"]) {
      expect(answer.text).toContain(can);
    }
  });

  it("answers what it can do, with examples from the account's own brand and projects", async () => {
    const account = await signUp(app, "assistant-help");
    // A new account gets neutral examples, never another business's product.
    const fresh = await ask(app, account, { message: "What can you do?" });
    expect(fresh.tools).toEqual([]);
    expect(fresh.text).toMatch(/^I can: 1\. read your performance/);
    expect(fresh.text).not.toMatch(/cold brew|caffeine/i);

    expect((await account.client.post("/user/brand", { brandName: "Pawsome", industry: "pet food" })).status).toBe(200);
    const launched = await account.client.post("/workflow", { type: "staticad", concept: "Grain-free kibble for senior dogs" });
    expect(launched.status).toBe(200);
    const answer = await ask(app, account, { message: "help" });
    expect(answer.text).toContain('"how is Pawsome doing?"');
    expect(answer.text).toContain('"plan a 4-week campaign for Pawsome with 20 credits"');
    expect(answer.text).toContain('"launch a static ad about Pawsome\'s pet food"');
    expect(answer.text).toContain('"what do we know about pet food?"');
    expect(answer.text).toContain("the latest being “Grain-free kibble for senior dogs”");
  });

  it("refuses bad questions with 4xx before streaming", async () => {
    expect(await ask(app, user, {})).toMatchObject({ status: 400, error: expect.stringContaining("message is required") });
    expect(await ask(app, user, { message: "   " })).toMatchObject({ status: 400, error: expect.stringContaining("message is required") });
    expect(await ask(app, user, { message: "x".repeat(2001) })).toMatchObject({
      status: 400,
      error: expect.stringContaining("at most 2000"),
    });
    expect(await ask(app, null, { message: "hello" })).toMatchObject({ status: 401 });
    expect(await ask(app, user, { message: "hello", threadId: randomUUID() })).toMatchObject({ status: 404, error: "Thread not found" });
  });
});

describe("GET /api/chat/history", () => {
  it("lists the account's own threads with their messages and tool calls, in order", async () => {
    const account = await signUp(app, "assistant-history");
    const first = await ask(app, account, { message: "how much is a static ad" });
    await ask(app, account, { message: "what is my status", threadId: first.done.threadId });
    const second = await ask(app, account, { message: "hello there" });
    const res = await account.client.get("/chat/history");
    expect(res.status).toBe(200);
    const threads = res.body.data.threads;
    expect(threads.map((t: any) => t.id)).toEqual([second.done.threadId, first.done.threadId]);
    expect(threads[1]).toMatchObject({ title: "how much is a static ad", pendingLaunch: null });
    expect(threads[1].messages.map((m: any) => [m.role, m.toolCalls.map((c: any) => c.name)])).toEqual([
      ["user", []],
      ["assistant", ["estimate_launch"]],
      ["user", []],
      ["assistant", ["project_status"]],
    ]);
    expect(threads[1].messages[1].content).toBe(first.done.text);
    expect(threads[1].messages[1].toolCalls[0].result).toMatchObject({ cost: 1 });

    const theirs = await stranger.client.get("/chat/history");
    expect(theirs.body.data.threads.map((t: any) => t.id)).not.toContain(first.done.threadId);
    const intrude = await ask(app, stranger, { message: "yes", threadId: first.done.threadId });
    expect(intrude).toMatchObject({ status: 404, error: "Thread not found" });
    expect((await account.client.get("/chat/history")).body.data.threads[1].messages).toHaveLength(4);
  });
});

describe("the other transports, from the catalogue", () => {
  it("answers the history on tRPC and typed on GraphQL", async () => {
    const account = await signUp(app, "assistant-transports");
    const asked = await ask(app, account, { message: "how much is a painpoint ad" });
    const viaTrpc = await trpcClient(app.url, account.jwt).chat.history.query();
    expect(viaTrpc.threads.map((t) => t.id)).toEqual([asked.done.threadId]);
    const viaGraphql = await graphql(
      app.url,
      "{ chatHistory { threads { id messages { role content toolCalls { name arguments result } } } } }",
      {},
      account.jwt,
    );
    expect(viaGraphql.body.errors).toBeUndefined();
    const [thread] = viaGraphql.body.data.chatHistory.threads;
    expect(thread.id).toBe(asked.done.threadId);
    expect(thread.messages[1]).toMatchObject({
      role: "assistant",
      toolCalls: [{ name: "estimate_launch", result: expect.objectContaining({ cost: 1 }) }],
    });
  });

  it("streams the same events as a GraphQL subscription", async () => {
    const account = await signUp(app, "assistant-gql-stream");
    const client = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${account.jwt}` },
      retryAttempts: 0,
    });
    try {
      const events = await new Promise<any[]>((resolve, reject) => {
        const seen: any[] = [];
        client.subscribe(
          { query: 'subscription { chatQuery(message: "how much is a static ad") { type threadId text tool { name result } } }' },
          { next: (value) => seen.push((value.data as any).chatQuery), error: reject, complete: () => resolve(seen) },
        );
      });
      expect(events.map((e) => e.type)).toEqual(["tool", ...events.slice(1, -1).map(() => "text"), "done"]);
      expect(events[0].tool).toMatchObject({ name: "estimate_launch", result: expect.objectContaining({ cost: 1 }) });
      expect(events.at(-1).text).toContain("costs 1 credit");
    } finally {
      await client.dispose();
    }
  });
});
