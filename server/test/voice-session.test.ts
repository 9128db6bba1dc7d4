// Voice (SPEC 4.7, /api/voice/elevenlabs): the configuration, sessions bound to a chat thread, and a
// spoken turn: a transcript (or audio through speech-to-text) in, the assistant's reply as text plus the
// URL of its speech, a WAV served only to the session's owner. Without ELEVENLABS_API_KEY the offline
// voice speaks and audio is refused with a 400 that says so; with it, ElevenLabs' speech-to-text and
// voice are called (answered here by msw in their documented shapes).
import { randomUUID } from "node:crypto";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { ask } from "./support/chat.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const sttRequests: { key: string | null; model: FormDataEntryValue | null; file: File | null }[] = [];
const ttsRequests: string[] = [];

const network = setupServer(
  http.post("https://api.elevenlabs.io/v1/speech-to-text", async ({ request }) => {
    const form = await request.formData();
    sttRequests.push({ key: request.headers.get("xi-api-key"), model: form.get("model_id"), file: form.get("file") as File | null });
    return HttpResponse.json({ language_code: "en", language_probability: 0.99, text: "How much is a cinematic ad?", words: [] });
  }),
  http.post("https://api.elevenlabs.io/v1/text-to-speech/:voice/with-timestamps", ({ params }) => {
    ttsRequests.push(String(params.voice));
    const pcm = Buffer.alloc(22_050 * 2);
    for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 300 * i) / 22_050)), i * 2);
    return HttpResponse.json({ audio_base64: pcm.toString("base64"), alignment: null });
  }),
);

let plain: TestApp;
let keyed: TestApp;
let user: Account;
let stranger: Account;
beforeAll(async () => {
  network.listen({ onUnhandledRequest: "bypass" });
  plain = await startTestApp();
  keyed = await startTestApp({ ELEVENLABS_API_KEY: "el-test-key" });
  user = await signUp(plain, "voice");
  stranger = await signUp(plain, "voice-other");
});
afterAll(async () => {
  await plain?.close();
  await keyed?.close();
  network.close();
});

const fakeAudio = () => Buffer.from("RIFF....WAVEfmt fake speech bytes for the test").toString("base64");

async function fetchSpeech(app: TestApp, account: Account, url: string) {
  const res = await fetch(`${app.url}${url}`, { headers: { cookie: `session=${account.jwt}` } });
  return { status: res.status, type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("voice without an ElevenLabs key", () => {
  it("GET /api/voice/elevenlabs says it is not configured and lists the offline voices as available", async () => {
    const res = await user.client.get("/voice/elevenlabs");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ provider: "elevenlabs", configured: false, speechToText: false, defaultVoice: "en-us" });
    const voices = res.body.data.voices.map((v: any) => [v.id, v.kind, v.available]);
    expect(voices).toContainEqual(["en-us", "builtin", true]);
    expect(voices).toContainEqual(["natural-en-us", "natural", false]);
  });

  it("creates a session on a new thread, answers a transcript with text and the offline voice's WAV, for its owner only", async () => {
    const created = await user.client.post("/voice/elevenlabs/session", {});
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const session = created.body.data.session;
    expect(session).toMatchObject({ provider: "elevenlabs", voice: "en-us", turns: 0, threadId: expect.any(String) });

    const turn = await user.client.post("/voice/elevenlabs", { sessionId: session.id, transcript: "How much is a static ad?" });
    expect(turn.status, JSON.stringify(turn.body)).toBe(200);
    expect(turn.body.data).toMatchObject({
      sessionId: session.id,
      threadId: session.threadId,
      transcript: "How much is a static ad?",
      voice: "en-us",
    });
    expect(turn.body.data.reply).toContain("costs 1 credit");
    expect(turn.body.data.durationSec).toBeGreaterThan(0.5);
    const speech = await fetchSpeech(plain, user, turn.body.data.audioUrl);
    expect(speech.status).toBe(200);
    expect(speech.type).toBe("audio/wav");
    expect(speech.bytes.subarray(0, 4).toString()).toBe("RIFF");
    expect(speech.bytes.subarray(8, 12).toString()).toBe("WAVE");
    expect((await fetchSpeech(plain, stranger, turn.body.data.audioUrl)).status).toBe(404);

    // The turn is on the session's chat thread, like a typed question.
    const history = await user.client.get("/chat/history");
    const thread = history.body.data.threads.find((t: any) => t.id === session.threadId);
    expect(thread.messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
    expect(thread.messages[1].toolCalls[0].name).toBe("estimate_launch");

    const state = await user.client.get(`/voice/elevenlabs/session?sessionId=${session.id}`);
    expect(state.body.data.session).toMatchObject({ id: session.id, turns: 1 });
    expect((await user.client.get("/voice/elevenlabs/session")).body.data.session.id).toBe(session.id);
    expect((await stranger.client.get("/voice/elevenlabs/session")).body.data.session).toBeNull();
    expect(await stranger.client.get(`/voice/elevenlabs/session?sessionId=${session.id}`)).toMatchObject({
      status: 404,
      body: { error: "Voice session not found" },
    });
    expect(await stranger.client.post("/voice/elevenlabs", { sessionId: session.id, transcript: "hi" })).toMatchObject({ status: 404 });
  });

  it("binds a session to an existing thread of the account, and not to another's", async () => {
    const chat = await ask(plain, user, { message: "what is my status" });
    const created = await user.client.post("/voice/elevenlabs/session", { threadId: chat.done.threadId });
    expect(created.body.data.session.threadId).toBe(chat.done.threadId);
    expect(await stranger.client.post("/voice/elevenlabs/session", { threadId: chat.done.threadId })).toMatchObject({
      status: 404,
      body: { error: "Thread not found" },
    });
  });

  it("refuses audio with a 400 that says speech-to-text is not configured", async () => {
    const res = await user.client.post("/voice/elevenlabs", { audio: fakeAudio(), audioType: "audio/wav" });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("speech-to-text");
    expect(res.body.error).toContain("send a transcript");
  });

  it("answers 400 for bad input, naming what to fix", async () => {
    expect((await user.client.post("/voice/elevenlabs", {})).body.error).toContain("Send either a transcript or audio");
    expect((await user.client.post("/voice/elevenlabs", { transcript: "hi", audio: fakeAudio() })).status).toBe(400);
    expect((await user.client.post("/voice/elevenlabs", { transcript: "x".repeat(2001) })).body.error).toContain("at most 2000");
    expect((await user.client.post("/voice/elevenlabs", { audio: "not base64!" })).body.error).toContain("base64");
    const provider = await user.client.get("/voice/other");
    expect(provider.status).toBe(400);
    expect(provider.body.error).toContain("elevenlabs");
    const natural = await user.client.post("/voice/elevenlabs/session", { voice: "natural-en-us" });
    expect(natural.status).toBe(400);
    expect(natural.body.error).toContain("ELEVENLABS_API_KEY");
    expect((await user.client.post("/voice/elevenlabs/session", { voice: "robot" })).body.error).toContain("voice must be one of");
    expect(await user.client.post("/voice/elevenlabs", { sessionId: randomUUID(), transcript: "hi" })).toMatchObject({ status: 404 });
  });
});

describe("voice with an ElevenLabs key", () => {
  it("is configured, transcribes audio with scribe_v1, and speaks the reply with the natural voice", async () => {
    const account = await signUp(keyed, "voice-keyed");
    const config = await account.client.get("/voice/elevenlabs");
    expect(config.body.data).toMatchObject({ configured: true, speechToText: true, defaultVoice: "natural-en-us" });
    expect(config.body.data.voices.find((v: any) => v.id === "natural-en-us").available).toBe(true);

    const turn = await account.client.post("/voice/elevenlabs", { audio: fakeAudio(), audioType: "audio/wav" });
    expect(turn.status, JSON.stringify(turn.body)).toBe(200);
    expect(sttRequests).toHaveLength(1);
    expect(sttRequests[0]).toMatchObject({ key: "el-test-key", model: "scribe_v1" });
    expect(sttRequests[0]!.file?.size).toBeGreaterThan(10);
    expect(turn.body.data).toMatchObject({ transcript: "How much is a cinematic ad?", voice: "natural-en-us" });
    expect(turn.body.data.reply).toContain("costs 1 credit");
    expect(ttsRequests).toEqual(["pNInz6obpgDQGcFmaJgB"]);
    const speech = await fetchSpeech(keyed, account, turn.body.data.audioUrl);
    expect(speech.status).toBe(200);
    expect(speech.bytes.subarray(0, 4).toString()).toBe("RIFF");

    const offline = await account.client.post("/voice/elevenlabs/session", { voice: "en-us" });
    const spoken = await account.client.post("/voice/elevenlabs", {
      sessionId: offline.body.data.session.id,
      transcript: "what is my status",
    });
    expect(spoken.status).toBe(200);
    expect(ttsRequests).toHaveLength(1);
  });
});
