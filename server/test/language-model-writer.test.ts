// The words of an ad from a language model (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): an OpenAI-compatible
// chat-completions endpoint, answered here by msw in OpenAI's documented shape. Its copy is rendered when it
// follows the storyboard's shape; garbage, refusals, errors and silence leave the built-in director's copy,
// with a warning that names no provider. Without the variables the endpoint is never called.
import { HttpResponse, delay, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLanguageModel, LanguageModelError } from "../src/modules/language-model/chat-completions.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const LLM_ENV = { LLM_BASE_URL: "https://llm.test/v1", LLM_API_KEY: "sk-test-key", LLM_MODEL: "house-model" };

type Mode = "copy" | "bad-lines" | "not-json" | "wrong-shape" | "no-product" | "refusal" | "server-error" | "slow";
let mode: Mode = "copy";
const requests: { headers: Headers; body: any }[] = [];

/** A chat completion in OpenAI's shape, its message the given content. */
const completion = (content: string | null, extra: object = {}) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "house-model",
  choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, ...extra } }],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
});

const network = setupServer(
  http.post("https://llm.test/v1/chat/completions", async ({ request }) => {
    const body = (await request.json()) as any;
    requests.push({ headers: request.headers, body });
    const brief = JSON.parse(body.messages.at(-1).content);
    const scenes = brief.draft.map((_: unknown, i: number) => ({
      headline: i === 0 ? `Meet ${brief.product}` : `Model line ${i + 1}`,
      body: i === 0 ? "Cold, smooth and ready at six" : null,
      cta: i === brief.draft.length - 1 ? "Grab a can" : null,
    }));
    switch (mode) {
      case "copy":
        return HttpResponse.json(completion(JSON.stringify({ title: "Written by the model", scenes })));
      case "bad-lines":
        // A glued question and a list of values, then the first scene's line said again.
        scenes[1] = { ...scenes[1], headline: "Want nurses lose sleep every week chasing shifts?" };
        if (scenes[2]) scenes[2] = { ...scenes[2], headline: "Simplicity, freshness, craft" };
        if (scenes.length > 3) scenes[3] = { ...scenes[3], body: "Cold, smooth and ready at six" };
        return HttpResponse.json(completion(JSON.stringify({ title: "Written by the model", scenes })));
      case "not-json":
        return HttpResponse.json(completion("Sure! Here is a great ad for you."));
      case "wrong-shape":
        return HttpResponse.json(completion(JSON.stringify({ title: "x", scenes: scenes.slice(1) })));
      case "no-product":
        return HttpResponse.json(
          completion(JSON.stringify({ title: "x", scenes: scenes.map((s: any) => ({ ...s, headline: "Something else" })) })),
        );
      case "refusal":
        return HttpResponse.json(completion(null, { refusal: "I can't help with that." }));
      case "server-error":
        return HttpResponse.json({ error: { message: "overloaded", type: "server_error" } }, { status: 503 });
      case "slow":
        await delay(5_000);
        return HttpResponse.json(completion("{}"));
    }
  }),
);

let plain: TestApp;
let withModel: TestApp;
let user: Account;
let modelUser: Account;

beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  [plain, withModel] = await Promise.all([
    startTestApp({ WORKERS: "1", SIGNUP_CREDITS: "100" }),
    startTestApp({ WORKERS: "1", SIGNUP_CREDITS: "100", ...LLM_ENV }),
  ]);
  [user, modelUser] = await Promise.all([signUp(plain, "builtin"), signUp(withModel, "model")]);
});
afterEach(() => {
  mode = "copy";
});
afterAll(async () => {
  await Promise.all([plain?.close(), withModel?.close()]);
  network.close();
});

const BRIEF = { type: "cinematic", concept: "Brewly cold brew keeps night-shift nurses sharp", formats: ["1:1"], async: false };

/** The built-in director's ad for BRIEF, made once (it is deterministic). */
let builtInAd: Promise<any> | undefined;
const builtIn = () => {
  builtInAd ??= launch(user);
  return builtInAd;
};

async function launch(account: Account) {
  const res = await account.client.post("/workflow", BRIEF);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.status, JSON.stringify(res.body)).toBe("completed");
  return res.body.data.result;
}

describe("the chat-completions client", () => {
  it("asks for JSON following a schema, with the key, and answers the parsed object", async () => {
    requests.length = 0;
    const model = createLanguageModel({ baseUrl: "https://llm.test/v1/", apiKey: LLM_ENV.LLM_API_KEY, model: LLM_ENV.LLM_MODEL });
    const answer = await model.structured({
      messages: [{ role: "user", content: JSON.stringify({ product: "Brewly", draft: [{}, {}] }) }],
      schemaName: "ad_copy",
      schema: { type: "object" },
    });
    expect(answer).toMatchObject({ title: "Written by the model", scenes: [{ headline: "Meet Brewly" }, { cta: "Grab a can" }] });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer sk-test-key");
    expect(requests[0]!.body).toMatchObject({
      model: "house-model",
      response_format: { type: "json_schema", json_schema: { name: "ad_copy", strict: true, schema: { type: "object" } } },
    });
  });

  it.each([
    ["not-json", "malformed"],
    ["refusal", "refused"],
    ["server-error", "unavailable"],
  ] as const)("turns %s into a LanguageModelError (%s)", async (given, kind) => {
    mode = given;
    const model = createLanguageModel({ baseUrl: "https://llm.test/v1", apiKey: "k", model: "m" });
    const error = await model
      .structured({ messages: [{ role: "user", content: JSON.stringify({ product: "B", draft: [{}] }) }], schemaName: "x", schema: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LanguageModelError);
    expect((error as LanguageModelError).kind).toBe(kind);
  });

  it("gives up on a model that does not answer in time", async () => {
    mode = "slow";
    const model = createLanguageModel({ baseUrl: "https://llm.test/v1", apiKey: "k", model: "m" }, { timeoutMs: 200 });
    const error = await model
      .structured({ messages: [{ role: "user", content: JSON.stringify({ product: "B", draft: [{}] }) }], schemaName: "x", schema: {} })
      .catch((e: unknown) => e);
    expect((error as LanguageModelError).kind).toBe("timeout");
  });
});

describe("an ad written by the language model", () => {
  it("renders the model's copy in the storyboard, the plan's timing and colours kept, and the brief sent", {
    timeout: 120_000,
  }, async () => {
    requests.length = 0;
    const builtInResult = await builtIn();
    expect(requests).toHaveLength(0);
    const written = await launch(modelUser);
    expect(requests).toHaveLength(1);
    const brief = JSON.parse(requests[0]!.body.messages.at(-1).content);
    expect(brief).toMatchObject({ workflow: "Director", concept: BRIEF.concept });
    expect(brief.draft).toHaveLength(builtInResult.storyboard.scenes.length);

    const headlines = written.storyboard.scenes.map((s: { headline: string }) => s.headline);
    expect(headlines[0]).toMatch(/^Meet Brewly/);
    expect(headlines.slice(1)).toEqual(headlines.slice(1).map((_: string, i: number) => `Model line ${i + 2}`));
    expect(written.storyboard.scenes.at(-1).cta).toBe("Grab a can");
    expect(written.storyboard.scenes.map((s: { durationSec: number }) => s.durationSec)).toEqual(
      builtInResult.storyboard.scenes.map((s: { durationSec: number }) => s.durationSec),
    );
    expect(written.storyboard.brand).toEqual(builtInResult.storyboard.brand);
    // The cinematic shot list is planned from the model's words.
    expect(written.shotList[0].prompt).toContain("Meet Brewly");
    expect(written.warnings).toEqual([]);
  });

  it("replaces each of the model's lines that is not English, or is said twice, by the built-in director's", {
    timeout: 120_000,
  }, async () => {
    const builtInResult = await builtIn();
    mode = "bad-lines";
    const written = await launch(modelUser);
    const planned = builtInResult.storyboard.scenes;
    const scenes = written.storyboard.scenes;
    expect(scenes[1].headline).toBe(planned[1].headline);
    if (scenes.length > 2) expect(scenes[2].headline).toBe(planned[2].headline);
    if (scenes.length > 3) expect(scenes[3].body).toBe(planned[3].body);
    const lines = scenes.flatMap((s: { headline: string; body?: string }) => [s.headline, s.body].filter(Boolean));
    expect(lines).not.toContain("Want nurses lose sleep every week chasing shifts?");
    expect(lines).not.toContain("Simplicity, freshness, craft");
  });

  it.each(["not-json", "wrong-shape", "no-product", "refusal", "server-error"] as const)(
    "falls back to the built-in director when the model answers %s, and says so without naming a provider",
    { timeout: 120_000 },
    async (given) => {
      const builtInResult = await builtIn();
      mode = given;
      const result = await launch(modelUser);
      expect(result.storyboard.scenes.map((s: { headline: string }) => s.headline)).toEqual(
        builtInResult.storyboard.scenes.map((s: { headline: string }) => s.headline),
      );
      const warning = result.warnings.find((w: string) => w.includes("built-in director"));
      expect(warning).toMatch(/^The language model's copy could not be used \(.+\); the built-in director wrote this ad$/);
      expect(JSON.stringify(result)).not.toMatch(/llm\.test|house-model|openai/i);
    },
  );
});

describe("configuration", () => {
  it("needs all three variables together", async () => {
    await expect(startTestApp({ LLM_BASE_URL: "https://llm.test/v1" })).rejects.toThrow(
      /LLM_BASE_URL, LLM_API_KEY and LLM_MODEL must be set together/,
    );
  });
});
