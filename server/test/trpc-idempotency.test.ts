// tRPC honours the Idempotency-Key header as REST does: a launch retried with the same key over tRPC's
// HTTP link is charged once and answers the same job, marked replayed.
import { createTRPCClient, httpLink } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../src/trpc/router.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let buyer: Account;
beforeAll(async () => {
  app = await startTestApp();
  buyer = await signUp(app, "trpc-idem");
});
afterAll(() => app?.close());

/** A tRPC client sending the session and, on every call, this Idempotency-Key header. */
const clientWithKey = (key: string) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${app.url}/trpc`, headers: () => ({ authorization: `Bearer ${buyer.jwt}`, "idempotency-key": key }) })],
  });

async function balance(): Promise<number> {
  return (await buyer.client.get("/user/credits")).body.data.balance;
}

describe("Idempotency-Key over tRPC", () => {
  it("two launches with the same key charge once and return the same job", async () => {
    const before = await balance();
    const api = clientWithKey(`trpc-idem-${Date.now()}`);
    const first = await api.workflow.launch.mutate({ type: "staticad", concept: "Cold brew, once" });
    const second = await api.workflow.launch.mutate({ type: "staticad", concept: "Cold brew, once" });
    expect(first.replayed).toBe(false);
    expect(second).toMatchObject({ jobId: first.jobId, replayed: true });
    expect(await balance()).toBe(before - first.cost);
    expect((await buyer.client.get("/user/projects")).body.data).toHaveLength(1);
  });

  it("the same key with another body is a 409 that says so, and charges nothing", async () => {
    const api = clientWithKey(`trpc-idem-other-${Date.now()}`);
    await api.workflow.launch.mutate({ type: "staticad", concept: "Tea, first" });
    const before = await balance();
    const reused = await api.workflow.launch.mutate({ type: "staticad", concept: "Tea, changed" }).catch((error: unknown) => error);
    expect((reused as { data?: { code?: string; httpStatus?: number } }).data).toMatchObject({ code: "CONFLICT", httpStatus: 409 });
    expect((reused as Error).message).toMatch(/Idempotency-Key/i);
    expect(await balance()).toBe(before);
  });
});
