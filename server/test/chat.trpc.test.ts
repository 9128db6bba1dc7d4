// chat.query as a tRPC subscription, through the real tRPC client (httpSubscriptionLink: server-sent
// events on /trpc): the tool-call event, the text events and `done` with the thread id arrive in order,
// the same thread goes on when its id is sent back, and bad or anonymous questions are refused with
// tRPC's error codes before anything streams.
import { TRPCClientError } from "@trpc/client";
import type { AppRouter } from "../src/trpc/router.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { trpcSubscriptionClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let user: Account;
beforeAll(async () => {
  app = await startTestApp();
  user = await signUp(app, "chat-trpc");
});
afterAll(() => app?.close());

const client = (jwt?: string) => trpcSubscriptionClient(app.url, jwt);

type Received = { id?: string; data: { type: string; threadId: string; text?: string; tool?: any; messageId?: string } };

/** Subscribes to chat.query and collects every event until the subscription completes. */
function askOverTrpc(api: ReturnType<typeof client>, input: { message: string; threadId?: string }) {
  return new Promise<Received[]>((resolve, reject) => {
    const seen: Received[] = [];
    const subscription = api.chat.query.subscribe(input, {
      onData: (value) => seen.push(value as unknown as Received),
      onError: (error) => {
        subscription.unsubscribe();
        reject(error);
      },
      onComplete: () => resolve(seen),
    });
  });
}

describe("chat.query over tRPC", () => {
  it("streams the tool call, the text and then done with the thread id, in order", async () => {
    const api = client(user.jwt);
    const events = await askOverTrpc(api, { message: "How much is a static ad?" });
    const types = events.map((e) => e.data.type);
    expect(types[0]).toBe("tool");
    expect(types.at(-1)).toBe("done");
    expect(types.slice(1, -1).length).toBeGreaterThan(1);
    expect(new Set(types.slice(1, -1))).toEqual(new Set(["text"]));
    // Tracked ids follow the stream's order.
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => String(i + 1)));

    expect(events[0]!.data.tool).toMatchObject({
      name: "estimate_launch",
      arguments: { type: "staticad" },
      result: expect.objectContaining({ type: "staticad", cost: 1, balance: 10 }),
    });
    const text = events
      .filter((e) => e.data.type === "text")
      .map((e) => e.data.text)
      .join("");
    expect(text).toContain("Static Ad (standard) in");
    expect(text).toContain("costs 1 credit; your balance is 10");
    const done = events.at(-1)!.data;
    expect(done).toMatchObject({ threadId: expect.any(String), messageId: expect.any(String), text: text.trim() });
    expect(events.every((e) => e.data.threadId === done.threadId)).toBe(true);

    // The same thread goes on, and its history holds both turns.
    const next = await askOverTrpc(api, { message: "and a cinematic ad?", threadId: done.threadId });
    expect(next.at(-1)!.data.threadId).toBe(done.threadId);
    const history = await api.chat.history.query();
    const thread = history.threads.find((t) => t.id === done.threadId)!;
    expect(thread.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(thread.messages[1]!.toolCalls[0]).toMatchObject({ name: "estimate_launch" });
  });

  it("refuses an empty question and another account's thread before streaming, with tRPC codes", async () => {
    const api = client(user.jwt);
    const empty = await askOverTrpc(api, { message: "   " }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(TRPCClientError);
    expect((empty as TRPCClientError<AppRouter>).data?.code).toBe("BAD_REQUEST");
    expect((empty as TRPCClientError<AppRouter>).message).toMatch(/message is required/);

    const stranger = await signUp(app, "chat-trpc-stranger");
    const mine = await askOverTrpc(api, { message: "status of my projects" });
    const intrude = await askOverTrpc(client(stranger.jwt), { message: "yes", threadId: mine.at(-1)!.data.threadId }).catch(
      (e: unknown) => e,
    );
    expect((intrude as TRPCClientError<AppRouter>).data?.code).toBe("NOT_FOUND");
    expect((intrude as TRPCClientError<AppRouter>).message).toBe("Thread not found");

    const anonymous = await askOverTrpc(client(), { message: "hello" }).catch((e: unknown) => e);
    expect((anonymous as TRPCClientError<AppRouter>).data?.code).toBe("UNAUTHORIZED");
  });
});
