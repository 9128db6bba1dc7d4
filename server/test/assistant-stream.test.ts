// The assistant streams the language model's answer (LLM_* set): msw answers the chat-completions call
// with `stream: true` as OpenAI documents it (SSE chunks of `choices[0].delta`, then `data: [DONE]`),
// from a stream the test controls, so it can hold the model's answer half-way and check that the client
// already has the first words; streamed tool calls are assembled before they run; a model that breaks
// off mid-answer ends the answer with an `error` event, and the thread keeps what was said.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { boundedHistory } from "../src/modules/assistant/model-agent.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { openChat } from "./support/chat-stream.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const LLM_ENV = { LLM_BASE_URL: "https://llm.test/v1", LLM_API_KEY: "sk-test-key", LLM_MODEL: "house-model" };

/** A model answer the test writes piece by piece. */
function modelStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  const send = (data: object | string) =>
    controller.enqueue(encoder.encode(`data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`));
  return {
    response: () => new HttpResponse(body, { headers: { "content-type": "text/event-stream" } }),
    delta: (delta: object, finish: string | null = null) =>
      send({
        id: "chatcmpl-s",
        object: "chat.completion.chunk",
        created: 1,
        model: "house-model",
        choices: [{ index: 0, delta, finish_reason: finish }],
      }),
    done() {
      send("[DONE]");
      controller.close();
    },
    fail: (error: Error) => controller.error(error),
  };
}

type ModelStream = ReturnType<typeof modelStream>;
const requests: any[] = [];
/** The model's answers, in the order the requests arrive. */
let answers: ModelStream[] = [];

const network = setupServer(
  http.post("https://llm.test/v1/chat/completions", async ({ request }) => {
    requests.push(await request.json());
    const next = answers.shift();
    if (!next) return HttpResponse.json({ error: { message: "no answer scripted" } }, { status: 500 });
    return next.response();
  }),
);

let app: TestApp;
let user: Account;
beforeAll(async () => {
  network.listen({ onUnhandledRequest: "bypass" });
  app = await startTestApp(LLM_ENV);
  user = await signUp(app, "assistant-stream");
});
afterAll(async () => {
  await app?.close();
  network.close();
});
beforeEach(() => {
  requests.length = 0;
  answers = [];
});

const textOf = (events: { event: string; data: any }[]) =>
  events
    .filter((e) => e.event === "text")
    .map((e) => e.data.text)
    .join("");

describe("the model's answer, streamed", () => {
  it("sends the first words to the client before the model has finished", async () => {
    const model = modelStream();
    answers = [model];
    const chat = await openChat(app, user, { message: "Which ad is best?" });
    expect(chat.status).toBe(200);
    model.delta({ role: "assistant", content: "Your best ad " });
    const first = await chat.waitFor((e) => e.event === "text");
    expect(first.data.text).toBe("Your best ad ");
    // The model has not finished: nothing else has arrived, and no `done`.
    expect(chat.events.map((e) => e.event)).toEqual(["text"]);
    expect(requests[0]).toMatchObject({ model: "house-model", stream: true, tool_choice: "auto" });

    model.delta({ content: "is the cold brew one." });
    model.delta({}, "stop");
    model.done();
    const events = await chat.finished;
    expect(events.map((e) => e.event)).toEqual(["text", "text", "done"]);
    expect(textOf(events)).toBe("Your best ad is the cold brew one.");
    const done = events.at(-1)!.data;
    expect(done.text).toBe("Your best ad is the cold brew one.");
    const thread = (await user.client.get("/chat/history")).body.data.threads.find((t: any) => t.id === done.threadId);
    expect(thread.messages.map((m: any) => m.content)).toEqual(["Which ad is best?", "Your best ad is the cold brew one."]);
  });

  it("assembles streamed tool calls from their pieces and runs each once with the whole arguments", async () => {
    const asking = modelStream();
    const answering = modelStream();
    answers = [asking, answering];
    const chat = await openChat(app, user, { message: "What would a cinematic ad cost, and how are my projects?" });
    asking.delta({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id: "call_cost", type: "function", function: { name: "estimate_launch", arguments: "" } }],
    });
    asking.delta({
      tool_calls: [{ index: 1, id: "call_status", type: "function", function: { name: "project_status", arguments: '{"li' } }],
    });
    asking.delta({ tool_calls: [{ index: 0, function: { arguments: '{"type":' } }] });
    asking.delta({ tool_calls: [{ index: 1, function: { arguments: 'mit":2}' } }] });
    asking.delta({ tool_calls: [{ index: 0, function: { arguments: ' "cinematic"}' } }] });
    asking.delta({}, "tool_calls");
    asking.done();
    const tool = await chat.waitFor((e) => e.event === "tool");
    expect(tool.data.tool).toMatchObject({
      name: "estimate_launch",
      arguments: { type: "cinematic" },
      result: { type: "cinematic", cost: 1 },
    });
    answering.delta({ role: "assistant", content: "A cinematic ad costs 1 credit. " });
    answering.delta({ content: "You have no projects yet." }, "stop");
    answering.done();

    const events = await chat.finished;
    const tools = events.filter((e) => e.event === "tool").map((e) => e.data.tool);
    expect(tools).toEqual([
      { name: "estimate_launch", arguments: { type: "cinematic" }, result: expect.objectContaining({ cost: 1 }) },
      { name: "project_status", arguments: { limit: 2 }, result: { projects: [] } },
    ]);
    expect(textOf(events)).toBe("A cinematic ad costs 1 credit. You have no projects yet.");
    expect(requests).toHaveLength(2);
    const sent = requests[1].messages;
    expect(sent.at(-3)).toMatchObject({
      role: "assistant",
      tool_calls: [
        { id: "call_cost", type: "function", function: { name: "estimate_launch", arguments: '{"type": "cinematic"}' } },
        { id: "call_status", type: "function", function: { name: "project_status", arguments: '{"limit":2}' } },
      ],
    });
    expect(sent.at(-2)).toMatchObject({ role: "tool", tool_call_id: "call_cost" });
    expect(sent.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_status" });
    expect(JSON.parse(sent.at(-2).content)).toMatchObject({ cost: 1 });
  });

  it("a model that breaks off mid-answer ends it with an error event in words; the thread keeps what was said", async () => {
    const model = modelStream();
    answers = [model];
    const chat = await openChat(app, user, { message: "Summarise my week" });
    model.delta({ role: "assistant", content: "This week your ads " });
    await chat.waitFor((e) => e.event === "text");
    model.fail(new Error("connection reset by peer"));
    const events = await chat.finished;
    expect(events.map((e) => e.event)).toEqual(["text", "error", "done"]);
    const error = events[1]!.data.error as string;
    expect(error).toMatch(/stopped in the middle of its answer/);
    expect(error).not.toMatch(/llm\.test|connection reset/);
    const threadId = events.at(-1)!.data.threadId;
    const thread = (await user.client.get("/chat/history")).body.data.threads.find((t: any) => t.id === threadId);
    expect(thread.messages.map((m: any) => [m.role, m.content])).toEqual([
      ["user", "Summarise my week"],
      ["assistant", "This week your ads"],
    ]);
  });

  it("sends the thread's earlier turns to the model with the next question", async () => {
    const first = modelStream();
    answers = [first];
    const opening = await openChat(app, user, { message: "Remember: our product is cold brew." });
    first.delta({ role: "assistant", content: "Noted: " });
    first.delta({ content: "cold brew." }, "stop");
    first.done();
    const threadId = (await opening.finished).at(-1)!.data.threadId;

    const second = modelStream();
    answers = [second];
    const next = await openChat(app, user, { message: "What is our product?", threadId });
    second.delta({ role: "assistant", content: "Cold brew." }, "stop");
    second.done();
    await next.finished;
    expect(
      requests
        .at(-1)
        .messages.slice(1)
        .map((m: any) => [m.role, m.content]),
    ).toEqual([
      ["user", "Remember: our product is cold brew."],
      ["assistant", "Noted: cold brew."],
      ["user", "What is our product?"],
    ]);
  });

  it("keeps the latest messages within the history budget", () => {
    const long = (n: number) => ({ role: "user" as const, content: `${n}`.repeat(10_000) });
    const kept = boundedHistory([long(1), long(2), long(3), { role: "assistant", content: "latest" }]);
    expect(kept.map((m) => m.content[0])).toEqual(["2", "3", "l"]);
  });
});
