// The built-in assistant understands plain requests: a set of phrasings people use (including issue 44's:
// "a static ad please" after its own question, "How many credits do I have left") and what each must be
// read as: the tool it calls with its key argument, or the words its answer must hold. Read on a real
// account's data (credits, brands), through the same reading the chat uses (follow-up.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readInContext } from "../src/modules/assistant/follow-up.ts";
import type { AssistantUser } from "../src/modules/assistant/assistant-user.ts";
import type { HistoryMessage } from "../src/modules/assistant/context.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let account: Account;
let user: AssistantUser;
beforeAll(async () => {
  app = await startTestApp({ WORKERS: "0" });
  account = await signUp(app, "phrasings");
  expect((await account.client.post("/user/brand", { brandName: "Barkwell Kibble" })).status).toBe(200);
  const row = await app.services.prisma.user.findUniqueOrThrow({ where: { id: account.id } });
  user = { ...row, role: row.role, credential: { kind: "session" }, mayCall: async () => {} };
});
afterAll(() => app?.close());

const ASKED_LAUNCH: HistoryMessage[] = [
  { role: "user", content: "Make me an ad for our autumn sale https://shop.example/autumn" },
  { role: "assistant", content: "Which workflow should I launch? Name one: Static Ad (staticad) 1 credit, …" },
];
const ASKED_ESTIMATE: HistoryMessage[] = [
  { role: "user", content: "How much would an ad cost?" },
  { role: "assistant", content: "Which workflow should I estimate? Name one: Static Ad (staticad) 1 credit, …" },
];

type Expected = { tool: string; type?: string } | { says: RegExp };
const CASES: [string, Expected, HistoryMessage[]?][] = [
  // Answers to its own question (issue 44).
  ["a static ad please", { tool: "launch_workflow", type: "staticad" }, ASKED_LAUNCH],
  ["Static Ad", { tool: "launch_workflow", type: "staticad" }, ASKED_LAUNCH],
  ["static", { tool: "launch_workflow", type: "staticad" }, ASKED_LAUNCH],
  ["the Multi-Format one", { tool: "launch_workflow", type: "factory" }, ASKED_LAUNCH],
  ["Director", { tool: "launch_workflow", type: "cinematic" }, ASKED_LAUNCH],
  ["pain point please", { tool: "launch_workflow", type: "painpoint" }, ASKED_LAUNCH],
  ["a presenter ad", { tool: "launch_workflow", type: "avatar" }, ASKED_LAUNCH],
  ["cinematic", { tool: "launch_workflow", type: "cinematic" }, ASKED_LAUNCH],
  ["Static Ad", { tool: "estimate_launch", type: "staticad" }, ASKED_ESTIMATE],
  ["the factory", { tool: "estimate_launch", type: "factory" }, ASKED_ESTIMATE],
  // Credits, in the words people use.
  ["How many credits do I have left", { says: /You have 10 credits/ }],
  ["how many credits do i have?", { says: /You have 10 credits/ }],
  ["What's my balance?", { says: /You have 10 credits/ }],
  ["credits?", { says: /You have 10 credits/ }],
  ["my balance", { says: /You have 10 credits/ }],
  ["Show me my credits", { says: /You have 10 credits/ }],
  ["how much credit have I got left", { says: /You have 10 credits/ }],
  ["check balance", { says: /You have 10 credits/ }],
  ["credits remaining", { says: /You have 10 credits/ }],
  ["What is my credit balance now", { says: /You have 10 credits/ }],
  // Brands.
  ["Which brands do I have?", { says: /Barkwell Kibble/ }],
  ["list my brands", { says: /Barkwell Kibble/ }],
  ["what brands have I saved", { says: /Barkwell Kibble/ }],
  ["show our brands", { says: /\[Brand page\]\(\/brand\)/ }],
  ["my brands", { says: /Barkwell Kibble/ }],
  // Jobs and results.
  ["Where are my videos?", { tool: "project_status" }],
  ["show me my ads", { tool: "project_status" }],
  ["Is my ad ready?", { tool: "project_status" }],
  ["are my videos done", { tool: "project_status" }],
  ["what did I make", { tool: "project_status" }],
  ["Status of my projects", { tool: "project_status" }],
  ["where can I find my downloads", { tool: "project_status" }],
  ["my jobs", { tool: "project_status" }],
  ["is it finished?", { tool: "project_status" }],
  ["How are my ads doing?", { tool: "read_performance" }],
  ["results for the last 7 days", { tool: "read_performance" }],
  ["show my stats", { tool: "read_performance" }],
  ["How is Barkwell Kibble doing?", { tool: "read_performance" }],
  // Launches and prices.
  ["Make a static ad for our autumn sale", { tool: "launch_workflow", type: "staticad" }],
  ["I'd like a cinematic ad about cold brew", { tool: "launch_workflow", type: "cinematic" }],
  ["a static ad please", { tool: "launch_workflow", type: "staticad" }],
  ["give me a multi-format ad", { tool: "launch_workflow", type: "factory" }],
  ["Create a pain point video for https://shop.example/mattress", { tool: "launch_workflow", type: "painpoint" }],
  ["run a local audit of https://cafe.example", { tool: "launch_workflow", type: "local-audit" }],
  ["How much is a cinematic ad?", { tool: "estimate_launch", type: "cinematic" }],
  ["what does a static ad cost", { tool: "estimate_launch", type: "staticad" }],
  ["price of the influencer", { tool: "estimate_launch", type: "influencer" }],
  ["Which workflow should I use?", { says: /./ }],
  ["make an ad", { says: /Which workflow should I launch\?/ }],
  // Plans and knowledge, and what it cannot do.
  ["Plan a 4-week campaign", { tool: "plan_campaign" }],
  ["plan a campaign for 3 weeks with 20 credits", { tool: "plan_campaign" }],
  ["What do we know about shipping", { tool: "search_knowledge" }],
  ["What can you do?", { says: /./ }],
  ["hello", { says: /./ }],
];

describe("the assistant's phrasing set", () => {
  it(`reads each of ${CASES.length} phrasings as meant`, async () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
    const misread: string[] = [];
    for (const [message, expected, history] of CASES) {
      const reading = await readInContext(app.services, user, message, history ?? []);
      const ok =
        "says" in expected
          ? reading.tool === null && expected.says.test(reading.reply)
          : reading.tool === expected.tool &&
            (expected.type === undefined || (reading.tool !== null && (reading.args as { type?: string }).type === expected.type));
      if (!ok) misread.push(`${JSON.stringify(message)} → ${JSON.stringify(reading).slice(0, 160)}`);
    }
    expect(misread, misread.join("\n")).toEqual([]);
  });

  it("keeps the earlier request's page and brief when the answer names the workflow", async () => {
    const reading = await readInContext(app.services, user, "a static ad please", ASKED_LAUNCH);
    expect(reading).toMatchObject({
      tool: "launch_workflow",
      args: { type: "staticad", url: "https://shop.example/autumn", concept: expect.stringContaining("autumn sale") },
    });
  });

  it("never answers 'That is not something I can do' to a question about credits", async () => {
    const reading = await readInContext(app.services, user, "How many credits do I have left", []);
    expect(JSON.stringify(reading)).not.toMatch(/not something I can do/);
  });
});
