// The authentication hot path: the account is read once per request with a prepared statement,
// and a live session is remembered, yet logout and a password change still stop it on the next request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUser } from "../src/modules/auth/read-account.ts";
import { SessionCache } from "../src/modules/auth/session-cache.ts";
import { ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
});
afterAll(() => app?.close());

describe("the account read of every request", () => {
  it("answers exactly the row Prisma answers, every column of the model", async () => {
    const account = await signUp(app, "read-account");
    await app.services.prisma.user.update({
      where: { id: account.id },
      data: { lastLogin: new Date("2026-01-02T03:04:05.678Z"), trialEndsAt: null, providerPreference: "fal" },
    });
    const viaPrisma = await app.services.prisma.user.findUnique({ where: { id: account.id } });
    const viaSql = await readUser(app.services.db.sql, account.id);
    expect(viaSql).toEqual(viaPrisma);
    expect(Object.keys(viaSql!).sort()).toEqual(Object.keys(viaPrisma!).sort());
  });

  it("answers null for an account that does not exist", async () => {
    expect(await readUser(app.services.db.sql, "00000000-0000-0000-0000-000000000000")).toBeNull();
  });

  it("sees a balance change made between two requests of one session", async () => {
    const account = await signUp(app, "fresh-balance");
    const before = (await account.client.get("/user/profile")).body.data.credits_balance as number;
    await app.services.prisma.user.update({ where: { id: account.id }, data: { creditsBalance: before + 7 } });
    expect((await account.client.get("/user/profile")).body.data.credits_balance).toBe(before + 7);
  });
});

describe("remembered sessions", () => {
  it("a remembered session stops working on the request after logout", async () => {
    const account = await signUp(app, "cached-logout");
    const copy = new RestClient(app.url);
    copy.cookie = account.client.cookie;
    expect((await copy.get("/user/credits")).status).toBe(200);
    expect((await account.client.post("/auth/logout")).status).toBe(200);
    expect((await copy.get("/user/credits")).status).toBe(401);
  });

  it("a suspension ends a remembered session at once (401, as with any ended session)", async () => {
    const account = await signUp(app, "cached-suspend");
    expect((await account.client.get("/user/credits")).status).toBe(200);
    const admin = await adminClient(app);
    expect((await admin.call("PATCH", `/admin/users/${account.id}/status`, { status: "suspended" })).status).toBe(200);
    expect((await account.client.get("/user/credits")).status).toBe(401);
  });

  it("the cache forgets one session, or an account's sessions but the one kept", () => {
    const cache = new SessionCache(60_000);
    const expiresAt = new Date(Date.now() + 86_400_000);
    cache.remember("jwt1", { sessionId: "s1", userId: "u1", expiresAt });
    cache.remember("jwt2", { sessionId: "s2", userId: "u1", expiresAt });
    cache.remember("jwt3", { sessionId: "s3", userId: "u2", expiresAt });
    cache.forget({ userId: "u1", except: "s2" });
    expect([cache.get("jwt1"), cache.get("jwt2")?.userId, cache.get("jwt3")?.userId]).toEqual([null, "u1", "u2"]);
    cache.forget({ sessionId: "s3" });
    expect(cache.get("jwt3")).toBeNull();
  });

  it("the cache holds an entry no longer than its time to live, nor past the session's expiry", () => {
    const cache = new SessionCache(1000);
    const now = Date.now();
    cache.remember("s1", { sessionId: "s1", userId: "u1", expiresAt: new Date(now + 86_400_000) }, now);
    cache.remember("s2", { sessionId: "s2", userId: "u1", expiresAt: new Date(now + 500) }, now);
    expect(cache.get("s1", now + 999)?.userId).toBe("u1");
    expect(cache.get("s1", now + 1000)).toBeNull();
    expect(cache.get("s2", now + 500)).toBeNull();
  });
});
