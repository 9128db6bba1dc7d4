// SPEC 4.3 over REST: the signed-in account's profile, balance, password and provider preference.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, logIn, PASSWORD, signUp } from "./support/accounts.ts";
import { RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

/** One account for the refused requests, each of which checks that it changed nothing (saves signups). */
let untouched: Promise<Account> | undefined;
const untouchedUser = () => (untouched ??= signUp(app, "untouched"));

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe("GET /user/profile and /user/credits", () => {
  it("answers the SPEC 2.1 UserProfile fields and nothing else", async () => {
    const account = await signUp(app, "profile");
    const res = await account.client.get("/user/profile");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: account.id,
        email: account.email,
        role: "user",
        credits_balance: 10,
        current_plan_id: "trial",
        provider_preference: "auto",
        created_at: expect.stringMatching(ISO),
        last_login: expect.stringMatching(ISO),
        status: "active",
        trial_ends_at: expect.stringMatching(ISO),
        has_api_key: false,
      },
    });
    const { created_at, trial_ends_at } = res.body.data;
    expect(Math.abs(Date.now() - Date.parse(created_at))).toBeLessThan(10_000);
    expect(Date.parse(trial_ends_at) - Date.parse(created_at)).toBeGreaterThan(7 * 86_400_000 - 5_000);
    expect(Date.parse(trial_ends_at) - Date.parse(created_at)).toBeLessThan(7 * 86_400_000 + 5_000);
  });

  it("answers the balance", async () => {
    const account = await signUp(app, "credits");
    const res = await account.client.get("/user/credits");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { balance: 10 } });
  });

  it.each(["/user/profile", "/user/credits", "/user/provider-preference"])("answers 401 on %s without a session", async (path) => {
    const res = await new RestClient(app.url).get(path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Authentication required" });
  });
});

describe("POST /user/change-password", () => {
  it("answers 400 for a wrong current password and changes nothing", async () => {
    const account = await signUp(app, "cp-wrong");
    const res = await account.client.post("/user/change-password", {
      currentPassword: "not my password",
      newPassword: "brand new password",
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Your current password is not correct" });
    expect(res.fields).toEqual([{ field: "currentPassword", message: "Your current password is not correct" }]);
    await logIn(app, account.email, PASSWORD);
    const failed = await app.services.prisma.auditLog.findMany({ where: { action: "user.password_change_failed", targetId: account.id } });
    expect(failed).toHaveLength(1);
  });

  it.each([
    [{ currentPassword: PASSWORD, newPassword: "short" }, "newPassword", "Your new password must be at least 8 characters"],
    [{ currentPassword: PASSWORD }, "newPassword", "Your new password is required"],
    [{ newPassword: "brand new password" }, "currentPassword", "Enter your current password"],
  ])("answers 400 in words for people, with the field key apart, for %j", async (body, field, message) => {
    const account = await untouchedUser();
    const res = await account.client.post("/user/change-password", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
    expect(res.fields).toEqual([{ field, message }]);
  });

  it("refuses a new password equal to the current one, and the old one still works", async () => {
    const account = await signUp(app, "cp-same");
    const res = await account.client.post("/user/change-password", { currentPassword: PASSWORD, newPassword: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "Your new password is the same as your current one: choose a different password",
    });
    expect(res.fields).toEqual([{ field: "newPassword", message: expect.stringMatching(/^Your new password is the same/) }]);
    await logIn(app, account.email, PASSWORD);
  });

  it("answers 401 without a session", async () => {
    const res = await new RestClient(app.url).post("/user/change-password", {
      currentPassword: PASSWORD,
      newPassword: "brand new password",
    });
    expect(res.status).toBe(401);
  });

  it("changes the password, keeps this session, ends the others and audits", async () => {
    const account = await signUp(app, "cp");
    const otherBrowser = await logIn(app, account.email, PASSWORD);
    const newPassword = "a much better password";
    const res = await account.client.post("/user/change-password", { currentPassword: PASSWORD, newPassword });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { changed: true, otherSessionsEnded: 1, apiKeyRevoked: false } });

    expect((await account.client.get("/auth/session")).status).toBe(200);
    const other = await otherBrowser.get("/auth/session");
    expect(other.status).toBe(401);
    expect(other.body).toEqual({ success: false, error: "Authentication required" });

    const old = await new RestClient(app.url).post("/auth/login", { email: account.email, password: PASSWORD });
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ success: false, error: "Invalid email or password" });
    await logIn(app, account.email, newPassword);

    const audit = await app.services.prisma.auditLog.findMany({ where: { action: "user.password_changed", targetId: account.id } });
    expect(audit).toEqual([expect.objectContaining({ actorId: account.id, targetType: "user" })]);
  });
});

describe("GET/POST /user/provider-preference", () => {
  it("starts at auto, saves fal and replicate, and the profile shows the choice", async () => {
    const account = await signUp(app, "pref");
    expect((await account.client.get("/user/provider-preference")).body).toEqual({ success: true, data: { preference: "auto" } });
    for (const preference of ["fal", "replicate", "auto", "replicate"]) {
      const res = await account.client.post("/user/provider-preference", { preference });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, data: { preference } });
    }
    expect((await account.client.get("/user/provider-preference")).body).toEqual({ success: true, data: { preference: "replicate" } });
    expect((await account.client.get("/user/profile")).body.data.provider_preference).toBe("replicate");
  });

  it.each([[{ preference: "openai" }], [{ preference: "" }], [{}]])("answers 400 naming preference for %j", async (body) => {
    const account = await untouchedUser();
    const res = await account.client.post("/user/provider-preference", body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(/^preference: /);
    expect((await account.client.get("/user/provider-preference")).body.data).toEqual({ preference: "auto" });
  });
});
