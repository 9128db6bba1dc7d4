// SPEC 4.12 and CONTRACT admin rules over REST: gating, user list, updates, suspension, credits through the
// ledger, password reset, self-protection, and an audit row for every admin action.
import { restRoutes } from "./support/rest-routes.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, ADMIN_EMAIL, ADMIN_ENV, adminClient, logIn, PASSWORD, signUp } from "./support/accounts.ts";
import { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let admin: RestClient;
let adminId: string;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  admin = await adminClient(app);
  adminId = (await admin.get("/auth/session")).body.data.userId;
});
afterAll(() => app?.close());

const adminRoutes = restRoutes.filter((r) => r.auth === "admin");
const FORBIDDEN = { success: false, error: "admin access required" };

/** One account for the refused requests, each of which checks that it changed nothing (saves signups). */
let untouched: Promise<Account> | undefined;
const untouchedUser = () => (untouched ??= signUp(app, "untouched"));

async function balanceOf(userId: string) {
  return (await app.services.prisma.user.findUniqueOrThrow({ where: { id: userId } })).creditsBalance;
}

describe("the bootstrapped admin", () => {
  it("exists with role admin, active, and its creation is audited", async () => {
    const user = await app.services.prisma.user.findUniqueOrThrow({ where: { email: ADMIN_EMAIL } });
    expect(user).toMatchObject({ id: adminId, role: "admin", status: "active" });
    const session = await admin.get("/auth/session");
    expect(session.body.data).toMatchObject({ email: ADMIN_EMAIL, role: "admin" });
    const audit = await app.services.prisma.auditLog.findMany({ where: { action: "admin.bootstrap_created" } });
    expect(audit).toEqual([expect.objectContaining({ targetType: "user", targetId: adminId })]);
  });
});

describe("admin gating", () => {
  it("finds the account admin routes in the REST table (the gating tests below walk every admin route)", () => {
    expect(adminRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "GET /admin/users",
        "GET /admin/users/{id}",
        "PATCH /admin/users/{id}",
        "PATCH /admin/users/{id}/status",
        "POST /admin/reset-password",
        "POST /admin/users/{id}/credits",
      ]),
    );
  });

  it("answers 403 'admin access required' to a signed-in non-admin on every admin route, whatever the body", async () => {
    const user = await signUp(app, "nonadmin");
    for (const route of adminRoutes) {
      const path = route.path.replace(/\{\w+\}/g, user.id);
      for (const body of [undefined, {}, { status: "active", amount: 5, role: "admin", userId: user.id, newPassword: "x" }]) {
        if (route.method === "GET" && body !== undefined) continue;
        const res = await user.client.call(route.method, path, body ?? (route.method === "GET" ? undefined : {}));
        expect({ route: `${route.method} ${route.path}`, body, status: res.status, json: res.body }).toEqual({
          route: `${route.method} ${route.path}`,
          body,
          status: 403,
          json: FORBIDDEN,
        });
      }
    }
  });

  it("changes nothing for a non-admin who tries valid admin requests on their own account", async () => {
    const user = await signUp(app, "escalate");
    const attempts = [
      await user.client.patch(`/admin/users/${user.id}`, { role: "admin" }),
      await user.client.post(`/admin/users/${user.id}/credits`, { amount: 1000 }),
      await user.client.post("/admin/reset-password", { userId: user.id, newPassword: "hijacked password" }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([403, 403, 403]);
    const row = await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ role: "user", creditsBalance: 10 });
    await logIn(app, user.email, PASSWORD);
  });

  it("answers 401 without a session on every admin route", async () => {
    const anonymous = new RestClient(app.url);
    for (const route of adminRoutes) {
      const res = await anonymous.call(route.method, route.path.replace(/\{\w+\}/g, adminId), route.method === "GET" ? undefined : {});
      expect([`${route.method} ${route.path}`, res.status, res.body]).toEqual([
        `${route.method} ${route.path}`,
        401,
        { success: false, error: "Authentication required" },
      ]);
    }
  });
});

describe("GET /admin/users", () => {
  it("pages through accounts newest first and searches by part of the e-mail, case-insensitively", async () => {
    const tag = `pagetag${Math.random().toString(36).slice(2, 8)}`;
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await signUp(app, tag)).email);
    const newestFirst = [...created].reverse();

    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await admin.get(`/admin/users?search=${tag.toUpperCase()}&pageSize=2&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ page, pageSize: 2, total: 5, totalPages: 3 });
      pages.push(...res.body.data.users.map((u: { email: string }) => u.email));
    }
    expect(pages).toEqual(newestFirst);

    const beyond = await admin.get(`/admin/users?search=${tag}&pageSize=2&page=4`);
    expect(beyond.body.data).toEqual({ users: [], page: 4, pageSize: 2, total: 5, totalPages: 3 });

    // A middle part of one address finds exactly that account.
    const middle = created[2]!.slice(tag.length, created[2]!.indexOf("@"));
    const one = await admin.get(`/admin/users?search=${encodeURIComponent(middle)}`);
    expect(one.body.data.users.map((u: { email: string }) => u.email)).toEqual([created[2]]);
  });

  it("treats % and _ in the search as literal characters, not wildcards", async () => {
    const tag = `lit${Math.random().toString(36).slice(2, 8)}`;
    const underscored = await signUp(app, `${tag}_x`);
    await signUp(app, `${tag}ax`);
    const exact = await admin.get(`/admin/users?search=${tag}_x`);
    expect(exact.body.data.users.map((u: { email: string }) => u.email)).toEqual([underscored.email]);
    const percent = await admin.get(`/admin/users?search=${encodeURIComponent("%")}`);
    expect(percent.body.data).toMatchObject({ total: 0, users: [] });
  });

  it("defaults to page 1 of 20 over all accounts, with SPEC UserProfile rows", async () => {
    const res = await admin.get("/admin/users");
    expect(res.status).toBe(200);
    const total = await app.services.prisma.user.count();
    expect(res.body.data).toMatchObject({ page: 1, pageSize: 20, total, totalPages: Math.max(1, Math.ceil(total / 20)) });
    expect(res.body.data.users.length).toBe(Math.min(20, total));
    const adminRow = (await admin.get(`/admin/users?search=${encodeURIComponent(ADMIN_EMAIL)}`)).body.data.users;
    expect(adminRow).toEqual([
      expect.objectContaining({
        id: adminId,
        email: ADMIN_EMAIL,
        role: "admin",
        status: "active",
        current_plan_id: "subscription_enterprise",
      }),
    ]);
  });

  it.each([
    ["page=0", "page must be 1 or more"],
    ["pageSize=101", "pageSize must be between 1 and 100"],
  ])("answers 400 for %s", async (query, message) => {
    const res = await admin.get(`/admin/users?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
  });

  it("answers 400 naming the field for a page that is not a number", async () => {
    const res = await admin.get("/admin/users?page=abc");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^page: /);
  });
});

describe("GET /admin/users/{id}", () => {
  it("answers the account, and 404 for an unknown id", async () => {
    const user = await signUp(app, "getone");
    const res = await admin.get(`/admin/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, email: user.email, credits_balance: 10, role: "user", status: "active" });
    const malformed = await admin.get("/admin/users/%ZZ");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ success: false, error: "id is not a valid URL path segment" });
    for (const id of ["00000000-0000-4000-8000-000000000000", "no-such-user"]) {
      const missing = await admin.get(`/admin/users/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ success: false, error: "User not found" });
    }
  });
});

describe("PATCH /admin/users/{id}", () => {
  it("updates each writable field", async () => {
    const user = await signUp(app, "patch");
    expect((await user.client.get("/user/profile")).body.data.trial_ends_at).not.toBeNull();
    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      // Leaving the trial plan ends the trial: the dashboard no longer counts down days of it.
      [{ current_plan_id: "subscription_pro" }, { current_plan_id: "subscription_pro", trial_ends_at: null }],
      [{ provider_preference: "fal" }, { provider_preference: "fal" }],
      [{ trial_ends_at: "2030-01-02T05:04:05+02:00" }, { trial_ends_at: "2030-01-02T03:04:05.000Z" }],
      [{ trial_ends_at: null }, { trial_ends_at: null }],
      [
        { role: "admin", current_plan_id: "free", trial_ends_at: "2031-06-01T00:00:00Z" },
        { role: "admin", current_plan_id: "free", trial_ends_at: "2031-06-01T00:00:00.000Z" },
      ],
    ];
    for (const [patch, expected] of steps) {
      const res = await admin.patch(`/admin/users/${user.id}`, patch);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ id: user.id, ...expected });
    }
    // The user sees the change, and the new admin role takes effect on the next request.
    expect((await user.client.get("/user/profile")).body.data).toMatchObject({
      role: "admin",
      current_plan_id: "free",
      provider_preference: "fal",
    });
    expect((await user.client.get("/admin/users")).status).toBe(200);
    expect((await admin.patch(`/admin/users/${user.id}`, { role: "user" })).status).toBe(200);
    expect((await user.client.get("/admin/users")).body).toEqual(FORBIDDEN);
  });

  it.each([
    [{ email: "new@example.com" }, /^not writable here: email(;|$)/],
    [{ credits_balance: 1000 }, /^not writable here: credits_balance(;|$)/],
    [{ role: "admin", password_hash: "x" }, /^not writable here: password_hash$/],
    [{}, /^give at least one of role, status, current_plan_id, trial_ends_at, provider_preference$/],
    [{ trial_ends_at: "next tuesday" }, /^trial_ends_at must be an ISO date-time or null$/],
  ])("answers 400 for %j and changes nothing", async (patch, message) => {
    const user = await untouchedUser();
    const res = await admin.patch(`/admin/users/${user.id}`, patch);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: expect.stringMatching(message) });
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      email: user.email,
      role: "user",
      creditsBalance: 10,
    });
  });

  it.each([
    [{ role: "owner" }, "role"],
    [{ status: "banned" }, "status"],
    [{ current_plan_id: "gold" }, "current_plan_id"],
    [{ provider_preference: "openai" }, "provider_preference"],
  ])("answers 400 naming the field for %j", async (patch, field) => {
    const user = await untouchedUser();
    const res = await admin.patch(`/admin/users/${user.id}`, patch);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(new RegExp(`^${field}: `));
  });

  it("answers 404 for an unknown id", async () => {
    const res = await admin.patch("/admin/users/00000000-0000-4000-8000-000000000000", { role: "admin" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "User not found" });
  });
});

describe("suspension", () => {
  it("PATCH status suspended ends the account's sessions at once; login answers 403; reactivation lets it back in", async () => {
    const user = await signUp(app, "suspend");
    const bearer = new RestClient(app.url, { bearer: user.jwt });
    expect((await bearer.get("/user/profile")).status).toBe(200);

    const res = await admin.patch(`/admin/users/${user.id}`, { status: "suspended" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, status: "suspended" });
    expect(await app.services.prisma.session.count({ where: { userId: user.id } })).toBe(0);

    for (const client of [user.client, bearer]) {
      const after = await client.get("/user/profile");
      expect(after.status).toBe(401);
      expect(after.body).toEqual({ success: false, error: "Authentication required" });
    }
    const login = await new RestClient(app.url).post("/auth/login", { email: user.email, password: PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ success: false, error: "Account suspended" });

    const reactivated = await admin.patch(`/admin/users/${user.id}/status`, { status: "active" });
    expect(reactivated.status).toBe(200);
    expect(reactivated.body.data.status).toBe("active");
    const back = await logIn(app, user.email, PASSWORD);
    expect((await back.get("/user/profile")).body.data.status).toBe("active");
    // The sessions ended by the suspension stay ended.
    expect((await user.client.get("/user/profile")).status).toBe(401);
  });

  it("PATCH /admin/users/{id}/status suspends too, and validates status", async () => {
    const user = await signUp(app, "suspend2");
    const bad = await admin.patch(`/admin/users/${user.id}/status`, { status: "paused" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^status: /);
    const missing = await admin.patch(`/admin/users/${user.id}/status`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^status: /);
    expect((await admin.patch(`/admin/users/${user.id}/status`, { status: "suspended" })).status).toBe(200);
    expect((await user.client.get("/auth/session")).status).toBe(401);
    expect((await new RestClient(app.url).post("/auth/login", { email: user.email, password: PASSWORD })).status).toBe(403);
    expect((await admin.patch("/admin/users/00000000-0000-4000-8000-000000000000/status", { status: "active" })).status).toBe(404);
  });
});

describe("self-protection", () => {
  it("an admin cannot suspend or demote themselves", async () => {
    const attempts = [
      [await admin.patch(`/admin/users/${adminId}`, { status: "suspended" }), "You cannot suspend your own account"],
      [await admin.patch(`/admin/users/${adminId}/status`, { status: "suspended" }), "You cannot suspend your own account"],
      [await admin.patch(`/admin/users/${adminId}`, { role: "user" }), "You cannot remove your own admin role"],
    ] as const;
    for (const [res, message] of attempts) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: message });
    }
    expect(await app.services.prisma.user.findUniqueOrThrow({ where: { id: adminId } })).toMatchObject({ role: "admin", status: "active" });
    expect((await admin.get("/admin/users")).status).toBe(200);
  });
});

describe("POST /admin/users/{id}/credits", () => {
  it("adds and removes through the ledger, answering the new balance", async () => {
    const user = await signUp(app, "grant");
    const add = await admin.post(`/admin/users/${user.id}/credits`, { amount: 15, reason: "goodwill" });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ success: true, data: { balance: 25, entryId: expect.any(String) } });
    const remove = await admin.post(`/admin/users/${user.id}/credits`, { amount: -5 });
    expect(remove.body).toEqual({ success: true, data: { balance: 20, entryId: expect.any(String) } });

    expect((await user.client.get("/user/credits")).body.data).toEqual({ balance: 20 });
    const ledger = await app.services.prisma.creditLedgerEntry.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
    expect(ledger).toEqual([
      expect.objectContaining({ delta: 10, balanceAfter: 10, reason: "signup_grant" }),
      expect.objectContaining({
        id: add.body.data.entryId,
        delta: 15,
        balanceAfter: 25,
        reason: "admin_adjustment",
        actorId: adminId,
        note: "goodwill",
      }),
      expect.objectContaining({
        id: remove.body.data.entryId,
        delta: -5,
        balanceAfter: 20,
        reason: "admin_adjustment",
        actorId: adminId,
        note: null,
      }),
    ]);
  });

  it("refuses a removal below zero with 400 and changes nothing", async () => {
    const user = await signUp(app, "overdraw");
    const res = await admin.post(`/admin/users/${user.id}/credits`, { amount: -11 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "That would take the balance below zero: the account holds 10 credits and 11 would be removed. Remove at most 10.",
    });
    expect(await balanceOf(user.id)).toBe(10);
    expect(await app.services.prisma.creditLedgerEntry.count({ where: { userId: user.id } })).toBe(1);
    expect(await app.services.prisma.auditLog.count({ where: { action: "admin.credits_adjusted", targetId: user.id } })).toBe(0);
    // Exactly to zero is allowed.
    expect((await admin.post(`/admin/users/${user.id}/credits`, { amount: -10 })).body.data.balance).toBe(0);
  });

  it.each([
    [{ amount: 0 }, "amount must not be zero"],
    [{ amount: 1.5 }, "amount must be an integer"],
    [{ amount: "5" }, "amount must be an integer"],
    [{}, "amount must be an integer"],
    [{ amount: 2_000_000 }, "amount must be between -1000000 and 1000000"],
  ])("answers 400 for %j", async (body, message) => {
    const user = await untouchedUser();
    const res = await admin.post(`/admin/users/${user.id}/credits`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
    expect(await balanceOf(user.id)).toBe(10);
  });

  it("answers 404 for an unknown account", async () => {
    const res = await admin.post("/admin/users/00000000-0000-4000-8000-000000000000/credits", { amount: 5 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "User not found" });
  });
});

describe("POST /admin/reset-password", () => {
  it("validates, 404s an unknown account, then sets the password and ends the account's sessions", async () => {
    const user = await signUp(app, "reset");
    const short = await admin.post("/admin/reset-password", { userId: user.id, newPassword: "short" });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ success: false, error: "The new password must be at least 8 characters" });
    const noUser = await admin.post("/admin/reset-password", { newPassword: "long enough password" });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toEqual({ success: false, error: "userId is required" });
    const unknown = await admin.post("/admin/reset-password", {
      userId: "00000000-0000-4000-8000-000000000000",
      newPassword: "long enough password",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, error: "User not found" });

    const res = await admin.post("/admin/reset-password", { userId: user.id, newPassword: "reset by admin 1" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { userId: user.id, reset: true } });
    expect((await user.client.get("/auth/session")).status).toBe(401);
    expect((await new RestClient(app.url).post("/auth/login", { email: user.email, password: PASSWORD })).status).toBe(401);
    await logIn(app, user.email, "reset by admin 1");
  });
});

describe("audit trail", () => {
  it("records actor, action and target for every admin action", async () => {
    const user = await signUp(app, "audited");
    expect((await admin.patch(`/admin/users/${user.id}`, { current_plan_id: "subscription_starter" })).status).toBe(200);
    expect((await admin.patch(`/admin/users/${user.id}/status`, { status: "suspended" })).status).toBe(200);
    expect((await admin.patch(`/admin/users/${user.id}/status`, { status: "active" })).status).toBe(200);
    expect((await admin.post(`/admin/users/${user.id}/credits`, { amount: 7, reason: "audit" })).status).toBe(200);
    expect((await admin.post("/admin/reset-password", { userId: user.id, newPassword: "another password" })).status).toBe(200);

    const rows = await app.services.prisma.auditLog.findMany({
      where: { targetId: user.id, action: { startsWith: "admin." } },
      orderBy: { createdAt: "asc" },
    });
    expect(rows.map((r) => [r.action, r.actorId, r.targetType, r.targetId])).toEqual([
      ["admin.user_updated", adminId, "user", user.id],
      ["admin.user_updated", adminId, "user", user.id],
      ["admin.user_updated", adminId, "user", user.id],
      ["admin.credits_adjusted", adminId, "user", user.id],
      ["admin.password_reset", adminId, "user", user.id],
    ]);
    expect(rows[0]!.metadata).toEqual({ changes: { current_plan_id: "subscription_starter" }, before: { current_plan_id: "trial" } });
    expect(rows[1]!.metadata).toEqual({ changes: { status: "suspended" }, before: { status: "active" } });
    expect(rows[3]!.metadata).toMatchObject({ amount: 7, reason: "audit", balance: 17 });
  });
});
