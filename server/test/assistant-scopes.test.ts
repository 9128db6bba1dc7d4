// The assistant's tools are operation calls: a tool that changes something is refused to a caller the
// operation it stands for refuses. A read-only (analytics) API key gets 403 on POST /api/workflow, so
// asking the assistant to launch, then saying "yes", must not launch or charge either, on REST, tRPC and
// GraphQL; the chat itself still answers, and the tools that only read still work for it.
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { EVERY_TOOL } from "../src/modules/assistant/run-tool.ts";
import { operationByName } from "../src/operations/catalogue.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { type Asker, ask } from "./support/chat.ts";
import { trpcSubscriptionClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const READ_ONLY = "This API key is read-only (analytics): it may read the account, not change it.";
const LAUNCH = "Launch a static ad about running shoes now";
const YES = "yes, launch it";

let app: TestApp;
let owner: Account;
let analyticsKey: string;
let fullKey: string;

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  owner = await signUp(app, "assistant-scopes");
  const admin = await adminClient(app);
  // API keys come with the agency plan; 40 credits so every launch below could be paid for.
  expect((await admin.patch(`/admin/users/${owner.id}`, { current_plan_id: "subscription_agency" })).status).toBe(200);
  expect((await admin.post(`/admin/users/${owner.id}/credits`, { amount: 30, reason: "assistant scope tests" })).status).toBe(200);
  analyticsKey = (await owner.client.post("/user/api-key", { scope: "analytics" })).body.data.apiKey;
  fullKey = (await owner.client.post("/user/api-key")).body.data.apiKey;
});
afterAll(() => app?.close());

/** What the account has: its balance and how many projects (jobs) it holds. */
async function holdings() {
  const credits = await owner.client.get("/user/credits");
  const projects = await owner.client.get("/user/projects");
  expect(credits.status).toBe(200);
  expect(projects.status).toBe(200);
  return { balance: credits.body.data.balance as number, projects: (projects.body.data as unknown[]).length };
}

/** A refusal as a tool's result: the operation's 403, in the chat's words. */
function expectRefused(tool: { name: string; result: any }, text: string) {
  expect(tool.result).toMatchObject({ error: READ_ONLY, status: 403 });
  expect(text).toContain("403");
  expect(text).toContain(READ_ONLY);
}

describe("an analytics key asking the assistant to launch, then saying yes", () => {
  it("over REST: the chat answers, both steps are refused with 403 wording, nothing is charged or created", async () => {
    const before = await holdings();
    const key = { bearer: analyticsKey };
    const proposed = await ask(app, key, { message: LAUNCH });
    expect(proposed.status).toBe(200);
    expect(proposed.tools.map((t) => t.name)).toEqual(["launch_workflow"]);
    expectRefused(proposed.tools[0]!, proposed.text);
    const confirmed = await ask(app, key, { message: YES, threadId: proposed.done.threadId });
    expect(confirmed.status).toBe(200);
    expect(confirmed.tools.filter((t) => t.result?.launched)).toEqual([]);
    expect(await holdings()).toEqual(before);
  });

  it("over tRPC (chat.query): nothing is charged or created", async () => {
    const before = await holdings();
    const api = trpcSubscriptionClient(app.url, analyticsKey);
    const turn = (input: { message: string; threadId?: string }) =>
      new Promise<any[]>((resolve, reject) => {
        const seen: any[] = [];
        const subscription = api.chat.query.subscribe(input, {
          onData: (value) => seen.push((value as { data: unknown }).data),
          onError: (error) => {
            subscription.unsubscribe();
            reject(error);
          },
          onComplete: () => resolve(seen),
        });
      });
    const proposed = await turn({ message: LAUNCH });
    const tool = proposed.find((e) => e.type === "tool")!.tool;
    const text = proposed
      .filter((e) => e.type === "text")
      .map((e) => e.text)
      .join("");
    expect(tool.name).toBe("launch_workflow");
    expectRefused(tool, text);
    const confirmed = await turn({ message: YES, threadId: proposed.at(-1).threadId });
    expect(confirmed.at(-1).type).toBe("done");
    expect(confirmed.filter((e) => e.type === "tool" && e.tool.result?.launched)).toEqual([]);
    expect(await holdings()).toEqual(before);
  });

  it("over a GraphQL WebSocket (chatQuery): nothing is charged or created", async () => {
    const before = await holdings();
    const client = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${analyticsKey}` },
      retryAttempts: 0,
    });
    const turn = (message: string, threadId?: string) =>
      new Promise<any[]>((resolve, reject) => {
        const seen: any[] = [];
        client.subscribe(
          {
            query:
              "subscription($m: String!, $t: String) { chatQuery(message: $m, threadId: $t) { type threadId text tool { name result } } }",
            variables: { m: message, t: threadId ?? null },
          },
          { next: (value) => seen.push((value.data as any).chatQuery), error: reject, complete: () => resolve(seen) },
        );
      });
    try {
      const proposed = await turn(LAUNCH);
      const tool = proposed.find((e) => e.type === "tool")!.tool;
      const text = proposed.at(-1).text as string;
      expect(tool.name).toBe("launch_workflow");
      expectRefused(tool, text);
      const confirmed = await turn(YES, proposed.at(-1).threadId);
      expect(confirmed.at(-1).type).toBe("done");
      expect(confirmed.filter((e) => e.type === "tool" && e.tool.result?.launched)).toEqual([]);
    } finally {
      await client.dispose();
    }
    expect(await holdings()).toEqual(before);
  });
});

/** A message that makes the built-in assistant call each tool (confirm_launch: a "yes" to a proposal). */
const CALLS: Record<string, string> = {
  read_performance: "How are my ads doing?",
  plan_campaign: "Plan a 2-week campaign with 5 credits",
  estimate_launch: "How much is a static ad?",
  launch_workflow: LAUNCH,
  search_knowledge: "What do we know about running shoes?",
  project_status: "status of my projects",
  confirm_launch: YES,
};

/** The tools that change something: only a credential that may launch may call them. */
const ACTING = ["launch_workflow", "confirm_launch"];

const CREDENTIALS: { kind: string; asker: () => Asker; mayAct: boolean }[] = [
  { kind: "session (cookie)", asker: () => owner, mayAct: true },
  { kind: "session (JWT bearer)", asker: () => ({ bearer: owner.jwt }), mayAct: true },
  { kind: "full API key", asker: () => ({ bearer: fullKey }), mayAct: true },
  { kind: "analytics API key", asker: () => ({ bearer: analyticsKey }), mayAct: false },
];

describe("every assistant tool with every credential kind", () => {
  it("names for each tool the catalogue operations it stands for, the acting ones a launch", () => {
    expect(EVERY_TOOL.map((t) => t.name).sort()).toEqual(Object.keys(CALLS).sort());
    for (const tool of EVERY_TOOL) {
      expect(tool.standsFor.length, tool.name).toBeGreaterThan(0);
      for (const name of tool.standsFor) expect(operationByName.has(name), `${tool.name} stands for ${name}`).toBe(true);
      const changes = tool.standsFor.some((name) => operationByName.get(name)!.kind === "mutation");
      expect(changes, tool.name).toBe(ACTING.includes(tool.name));
    }
  });

  for (const credential of CREDENTIALS) {
    it(`${credential.kind}: ${credential.mayAct ? "every tool runs" : "reads run, launches and confirmations get 403"}`, async () => {
      for (const tool of EVERY_TOOL) {
        const refused = ACTING.includes(tool.name) && !credential.mayAct;
        const before = await holdings();
        let threadId: string | undefined;
        if (tool.name === "confirm_launch") {
          // The proposal comes from the account's own session; the credential under test says "yes".
          const proposed = await ask(app, owner, { message: LAUNCH });
          expect(proposed.tools[0]?.result, JSON.stringify(proposed.tools)).toMatchObject({ proposed: true });
          threadId = proposed.done.threadId;
        }
        const answer = await ask(app, credential.asker(), { message: CALLS[tool.name]!, ...(threadId ? { threadId } : {}) });
        expect(answer.status, `${tool.name}: ${answer.error}`).toBe(200);
        expect(answer.done, tool.name).toMatchObject({ type: "done" });
        const call = answer.tools.find((t) => t.name === tool.name);
        expect(call, `${tool.name} was called: ${JSON.stringify(answer.tools)}`).toBeDefined();
        const after = await holdings();
        if (refused) {
          expectRefused(call!, answer.text);
          expect(after, tool.name).toEqual(before);
          continue;
        }
        expect(call!.result?.error, `${tool.name}: ${JSON.stringify(call!.result)}`).toBeUndefined();
        if (tool.name === "launch_workflow") expect(call!.result).toMatchObject({ proposed: true });
        if (tool.name === "confirm_launch") {
          expect(call!.result).toMatchObject({ launched: true, creditsCharged: 1 });
          expect(after).toEqual({ balance: before.balance - 1, projects: before.projects + 1 });
        } else expect(after, tool.name).toEqual(before);
      }
    });
  }
});
