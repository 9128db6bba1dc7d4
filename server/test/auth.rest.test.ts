// SPEC 4.1 and 5 over REST: signup, login, session, logout, cookie and bearer credentials, audit rows.
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_ENV, adminClient, PASSWORD, signUp } from "./support/accounts.ts";
import { RestClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
});
afterAll(() => app?.close());

const COOKIE = /^session=([^;]+); HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=(\d+); Expires=/;

async function auditRows(action: string, targetId: string) {
  return app.services.prisma.auditLog.findMany({ where: { action, targetId }, orderBy: { createdAt: "asc" } });
}

describe("REST signup", () => {
  it("signs up with a session cookie, trial plan and signup credits from the ledger", async () => {
    const client = new RestClient(app.url);
    const email = uniqueEmail("Signup");
    const res = await client.post("/auth/signup", { email, password: "correct horse" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: expect.any(String), email: email.toLowerCase(), role: "user" } });
    const cookie = res.cookie?.match(COOKIE);
    expect(cookie, res.cookie ?? "no Set-Cookie").not.toBeNull();
    // The cookie lives as long as the session (SESSION_DAYS, 30 by default).
    expect(Number(cookie![2])).toBeGreaterThan(29 * 86_400);
    expect(Number(cookie![2])).toBeLessThanOrEqual(30 * 86_400);
    const profile = await client.get("/user/profile");
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({
      email: email.toLowerCase(),
      current_plan_id: "trial",
      credits_balance: 10,
      status: "active",
      has_api_key: false,
    });
    const ledger = await app.services.prisma.creditLedgerEntry.findMany({ where: { userId: res.body.data.id } });
    expect(ledger).toEqual([expect.objectContaining({ delta: 10, balanceAfter: 10, reason: "signup_grant" })]);
    const audit = await auditRows("auth.signup", res.body.data.id);
    expect(audit).toEqual([
      expect.objectContaining({ actorId: res.body.data.id, targetType: "user", ip: expect.stringContaining("127.0.0.1") }),
    ]);
  });

  it("accepts passwords of exactly 8 and 128 characters", async () => {
    for (const password of ["12345678", "p".repeat(128)]) {
      const res = await new RestClient(app.url).post("/auth/signup", { email: uniqueEmail("bounds"), password });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it.each([
    ["a malformed e-mail", { email: "not-an-email", password: PASSWORD }, "email", "Enter a valid e-mail address, like name@example.com"],
    [
      "a password of 7 characters",
      { email: "seven@example.com", password: "1234567" },
      "password",
      "Your password must be at least 8 characters",
    ],
    [
      "a password of 129 characters",
      { email: "long@example.com", password: "p".repeat(129) },
      "password",
      "Your password must be at most 128 characters",
    ],
    ["no e-mail", { password: PASSWORD }, "email", "Enter your e-mail address"],
    ["no password", { email: "nopassword@example.com" }, "password", "Your password is required"],
    ["an e-mail that is not a string", { email: 42, password: PASSWORD }, "email", "Your e-mail address must be text"],
  ])("answers 400 in words for people, with the field key apart, for %s", async (_label, body, field, message) => {
    const res = await new RestClient(app.url).post("/auth/signup", body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: message });
    expect(res.fields).toEqual([{ field, message }]);
    expect(res.cookie).toBeNull();
  });

  it("answers 400 naming both fields for an empty body", async () => {
    const res = await new RestClient(app.url).call("POST", "/auth/signup");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Enter your e-mail address; Your password is required" });
    expect(res.fields?.map((f) => f.field)).toEqual(["email", "password"]);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const broken = await new RestClient(app.url).call("POST", "/auth/signup", "{email: nope", { "content-type": "application/json" });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ success: false, error: "Request body is not valid JSON" });
    const form = await new RestClient(app.url).call("POST", "/auth/signup", "email=a%40b.com&password=12345678", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ success: false, error: "Request body must be JSON (Content-Type: application/json)" });
  });

  it("answers 409 for a duplicate e-mail in any case, and creates no second account", async () => {
    const email = uniqueEmail();
    expect((await new RestClient(app.url).post("/auth/signup", { email, password: "password123" })).status).toBe(200);
    const again = await new RestClient(app.url).post("/auth/signup", { email: email.toUpperCase(), password: "password123" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, error: "Email already registered" });
    expect(again.cookie).toBeNull();
    expect(await app.services.prisma.user.count({ where: { email: email.toLowerCase() } })).toBe(1);
  });
});

describe("REST signup races", () => {
  it("three concurrent signups with one e-mail: one account, the others 409", async () => {
    const email = uniqueEmail("race");
    const results = await Promise.all(
      [email, email.toUpperCase(), email].map((e) => new RestClient(app.url).post("/auth/signup", { email: e, password: PASSWORD })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body).toEqual({ success: false, error: "Email already registered" });
    const users = await app.services.prisma.user.findMany({ where: { email: email.toLowerCase() } });
    expect(users).toHaveLength(1);
    expect(await app.services.prisma.creditLedgerEntry.count({ where: { userId: users[0]!.id } })).toBe(1);
  });
});

describe("REST login", () => {
  it("signs in with the right password in any e-mail case, sets the cookie and records last_login", async () => {
    const account = await signUp(app, "login");
    const client = new RestClient(app.url);
    const res = await client.post("/auth/login", { email: account.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: account.id, email: account.email, role: "user" } });
    expect(res.cookie).toMatch(COOKIE);
    expect(client.cookie).not.toBe(account.jwt);
    const profile = await client.get("/user/profile");
    expect(profile.body.data.id).toBe(account.id);
    expect(Date.now() - Date.parse(profile.body.data.last_login)).toBeLessThan(10_000);
    const audit = await auditRows("auth.login", account.id);
    expect(audit).toEqual([expect.objectContaining({ actorId: account.id, targetType: "user" })]);
  });

  it("answers 401 with one message for a wrong password and for an unknown e-mail, and audits both", async () => {
    const account = await signUp(app, "wrongpw");
    const wrong = await new RestClient(app.url).post("/auth/login", { email: account.email, password: "not the password" });
    const unknownEmail = uniqueEmail("nobody");
    const unknown = await new RestClient(app.url).post("/auth/login", { email: unknownEmail, password: PASSWORD });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: "Invalid email or password" });
      expect(res.cookie).toBeNull();
    }
    expect(await auditRows("auth.login_failed", account.id)).toEqual([
      expect.objectContaining({ actorId: null, metadata: { reason: "wrong_password" } }),
    ]);
    const unknownRows = await app.services.prisma.auditLog.findMany({ where: { action: "auth.login_failed", targetId: null } });
    expect(unknownRows.some((row) => (row.metadata as { email?: string }).email === unknownEmail.toLowerCase())).toBe(true);
  });

  it("validates login input like signup", async () => {
    const res = await new RestClient(app.url).post("/auth/login", { email: "x@example.com", password: "short" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Your password must be at least 8 characters" });
  });

  it("answers 403 for a suspended account (right password), 401 still for a wrong one", async () => {
    const account = await signUp(app, "suspended");
    const admin = await adminClient(app);
    expect((await admin.patch(`/admin/users/${account.id}/status`, { status: "suspended" })).status).toBe(200);
    const res = await new RestClient(app.url).post("/auth/login", { email: account.email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: "Account suspended" });
    expect(res.cookie).toBeNull();
    const wrong = await new RestClient(app.url).post("/auth/login", { email: account.email, password: "wrong password" });
    expect(wrong.status).toBe(401);
  });
});

describe("REST session", () => {
  it("describes the session with an integer expiry in the future and the trial end", async () => {
    const account = await signUp(app, "session");
    const res = await account.client.get("/auth/session");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { userId: account.id, email: account.email, role: "user", expiresAt: expect.any(Number), trialEndsAt: expect.any(String) },
    });
    const { expiresAt, trialEndsAt } = res.body.data;
    const now = Date.now() / 1000;
    expect(Number.isInteger(expiresAt)).toBe(true);
    expect(expiresAt).toBeGreaterThan(now + 29 * 86_400);
    expect(expiresAt).toBeLessThanOrEqual(now + 30 * 86_400 + 5);
    // TRIAL_DAYS defaults to 7.
    expect(Date.parse(trialEndsAt) / 1000 - now).toBeGreaterThan(7 * 86_400 - 60);
    expect(Date.parse(trialEndsAt) / 1000 - now).toBeLessThanOrEqual(7 * 86_400);
  });

  it("shows role admin for the bootstrapped admin", async () => {
    const admin = await adminClient(app);
    const res = await admin.get("/auth/session");
    expect(res.body.data).toMatchObject({ email: ADMIN_ENV.ADMIN_EMAIL.toLowerCase(), role: "admin" });
  });

  it("answers 401 without a credential, with garbage, and with a JWT signed by another secret", async () => {
    const account = await signUp(app, "forged");
    const payload = JSON.parse(Buffer.from(account.jwt.split(".")[1]!, "base64url").toString());
    // Same claims (a live session token), wrong key.
    const forged = await new SignJWT(payload)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(new TextEncoder().encode("another-secret-another-secret-another-secret"));
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${account.jwt.split(".")[1]}.`;
    const attempts: RestClient[] = [
      new RestClient(app.url),
      Object.assign(new RestClient(app.url), { cookie: "garbage" }),
      new RestClient(app.url, { bearer: "not.a.jwt" }),
      Object.assign(new RestClient(app.url), { cookie: forged }),
      new RestClient(app.url, { bearer: forged }),
      new RestClient(app.url, { bearer: unsigned }),
    ];
    for (const client of attempts) {
      const res = await client.get("/auth/session");
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: "Authentication required" });
    }
    // The genuine token still works, so the 401s above are about the signature.
    expect((await new RestClient(app.url, { bearer: account.jwt }).get("/auth/session")).status).toBe(200);
  });

  it("accepts the session JWT as a bearer credential", async () => {
    const account = await signUp(app, "bearer");
    const res = await new RestClient(app.url, { bearer: account.jwt }).get("/user/profile");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: account.id, email: account.email });
  });
});

describe("REST logout", () => {
  it("clears the cookie, revokes the JWT at once for cookie and bearer use, and audits", async () => {
    const account = await signUp(app, "logout");
    const other = await new RestClient(app.url).post("/auth/login", { email: account.email, password: PASSWORD });
    expect(other.status).toBe(200);
    const jwt = account.jwt;
    const res = await account.client.post("/auth/logout");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { loggedOut: true } });
    expect(res.cookie).toMatch(/^session=; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=0/);
    const asCookie = Object.assign(new RestClient(app.url), { cookie: jwt });
    expect((await asCookie.get("/auth/session")).status).toBe(401);
    expect((await new RestClient(app.url, { bearer: jwt }).get("/user/profile")).status).toBe(401);
    expect((await asCookie.post("/auth/logout")).status).toBe(401);
    expect(await auditRows("auth.logout", account.id)).toEqual([
      expect.objectContaining({ actorId: account.id, metadata: { method: "session" } }),
    ]);
  });

  it("ends only the session it was called with", async () => {
    const account = await signUp(app, "logout-one");
    const second = new RestClient(app.url);
    expect((await second.post("/auth/login", { email: account.email, password: PASSWORD })).status).toBe(200);
    expect((await account.client.post("/auth/logout")).status).toBe(200);
    expect((await second.get("/auth/session")).status).toBe(200);
  });

  it("answers 401 without a session", async () => {
    const res = await new RestClient(app.url).post("/auth/logout");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Authentication required" });
  });
});
