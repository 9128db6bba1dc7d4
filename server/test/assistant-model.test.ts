// The assistant through a language model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL), answered here by msw in
// OpenAI's documented chat-completions shape: the model is offered the tools, asks for one, receives its
// result as a `tool` message, and answers from it. A launch it asks for is only proposed; the user's
// "yes" launches it (charged once) without asking the model. A failing model leaves the built-in answer.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { ask } from "./support/chat.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const LLM_ENV = { LLM_BASE_URL: "https://llm.test/v1", LLM_API_KEY: "sk-test-key", LLM_MODEL: "house-model" };
const requests: { headers: Headers; body: any }[] = [];

const completion = (message: object, finish = "stop") => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "house-model",
  choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content: null, ...message } }],
});
const callTool = (name: string, args: object) =>
  HttpResponse.json(
    completion(
      { tool_calls: [{ id: `call_${name}`, type: "function", function: { name, arguments: JSON.stringify(args) } }] },
      "tool_calls",
    ),
  );

const network = setupServer(
  http.post("https://llm.test/v1/chat/completions", async ({ request }) => {
    const body = (await request.json()) as any;
    requests.push({ headers: request.headers, body });
    const last = body.messages.at(-1);
    if (last.role === "tool") {
      const result = JSON.parse(last.content);
      if (last.tool_call_id === "call_read_performance") {
        return HttpResponse.json(
          completion({ content: `You made ${result.totalProjects} project and spent ${result.creditsUsed} credit. Keep going!` }),
        );
      }
      return HttpResponse.json(completion({ content: `Proposed: ${result.summary}. Say yes to launch it.` }));
    }
    const asked = String(last.content).toLowerCase();
    if (asked.includes("break")) return HttpResponse.json({ error: { message: "overloaded" } }, { status: 503 });
    if (asked.includes("doing")) return callTool("read_performance", { days: 7 });
    if (asked.includes("launch")) return callTool("launch_workflow", { type: "staticad", concept: "Cold brew at six" });
    return HttpResponse.json(completion({ content: "Hello! Ask me about your ads." }));
  }),
);

let app: TestApp;
let user: Account;
beforeAll(async () => {
  network.listen({ onUnhandledRequest: "bypass" });
  app = await startTestApp(LLM_ENV);
  user = await signUp(app, "assistant-model");
});
afterAll(async () => {
  await app?.close();
  network.close();
});
beforeEach(() => {
  requests.length = 0;
});

async function balance(account: Account): Promise<number> {
  return (await account.client.get("/user/credits")).body.data.balance;
}

describe("the assistant with a language model", () => {
  it("offers the tools, runs the one the model asks for, and streams the model's answer from its result", async () => {
    const launched = await user.client.post("/workflow", { type: "staticad", concept: "Cold brew at six" });
    expect(launched.status).toBe(200);
    const answer = await ask(app, user, { message: "How are my ads doing?" });
    expect(answer.status).toBe(200);
    expect(answer.tools).toEqual([
      { name: "read_performance", arguments: { days: 7 }, result: expect.objectContaining({ days: 7, totalProjects: 1, creditsUsed: 1 }) },
    ]);
    expect(answer.text).toBe("You made 1 project and spent 1 credit. Keep going!");
    expect(answer.texts.length).toBeGreaterThan(1);

    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer sk-test-key");
    const offered = requests[0]!.body.tools.map((t: any) => t.function.name);
    expect(offered).toEqual([
      "read_performance",
      "plan_campaign",
      "estimate_launch",
      "launch_workflow",
      "search_knowledge",
      "project_status",
    ]);
    expect(requests[0]!.body.tools[0]).toMatchObject({ type: "function", function: { parameters: { type: "object" } } });
    const second = requests[1]!.body.messages;
    expect(second.at(-2)).toMatchObject({
      role: "assistant",
      tool_calls: [{ id: "call_read_performance", function: { name: "read_performance" } }],
    });
    expect(second.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_read_performance" });
    expect(JSON.parse(second.at(-1).content)).toMatchObject({ totalProjects: 1 });
  });

  it("only proposes the launch the model asks for; the user's yes launches it once without the model", async () => {
    const account = await signUp(app, "assistant-model-launch");
    const proposed = await ask(app, account, { message: "Please launch a static ad" });
    expect(proposed.tools[0]).toMatchObject({ name: "launch_workflow", result: { proposed: true } });
    expect(proposed.text).toContain("Say yes to launch it");
    expect(await balance(account)).toBe(10);
    requests.length = 0;
    const confirmed = await ask(app, account, { message: "yes", threadId: proposed.done.threadId });
    expect(requests).toHaveLength(0);
    expect(confirmed.tools[0]).toMatchObject({ name: "confirm_launch", result: { launched: true, creditsCharged: 1 } });
    expect(await balance(account)).toBe(9);
    expect(await app.services.prisma.job.count({ where: { userId: account.id } })).toBe(1);
  });

  it("sends the thread's earlier messages to the model", async () => {
    const first = await ask(app, user, { message: "hello" });
    expect(first.text).toBe("Hello! Ask me about your ads.");
    await ask(app, user, { message: "hello again", threadId: first.done.threadId });
    const messages = requests.at(-1)!.body.messages.map((m: any) => [m.role, m.content]);
    expect(messages.slice(1)).toEqual([
      ["user", "hello"],
      ["assistant", "Hello! Ask me about your ads."],
      ["user", "hello again"],
    ]);
  });

  it("answers with the built-in assistant when the model fails", async () => {
    const answer = await ask(app, user, { message: "break: how much is a cinematic ad" });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("The language model did not answer");
    expect(answer.tools[0]).toMatchObject({ name: "estimate_launch", result: { cost: 1 } });
    expect(answer.text).not.toContain("llm.test");
  });
});
