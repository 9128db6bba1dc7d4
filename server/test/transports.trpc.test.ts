// The same operations over tRPC (/trpc): cookies on signup/login/logout, bearer JWTs, the domain error
// codes as tRPC codes with readable messages, admin procedures, and the balance subscription over SSE.
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_EMAIL, ADMIN_ENV, nextBusSubscription, PASSWORD } from "./support/accounts.ts";
import { RestClient, trpcClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { openSse } from "./support/sse.ts";

let app: TestApp;
let adminJwt: string;
let adminId: string;
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  const signedIn = await rawTrpc("auth.login", { email: ADMIN_EMAIL, password: ADMIN_ENV.ADMIN_PASSWORD });
  adminJwt = signedIn.jwt!;
  adminId = signedIn.body.result.data.id;
});
afterAll(() => app?.close());

const COOKIE = /^session=([^;]+); HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=\d+; Expires=/;

/** A tRPC mutation as a browser sends it, so the Set-Cookie header can be read. */
async function rawTrpc(path: string, input: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${app.url}/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: input === undefined ? undefined : JSON.stringify(input),
  });
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("session=")) ?? null;
  return { status: response.status, body: (await response.json()) as any, setCookie, jwt: setCookie?.match(COOKIE)?.[1] ?? null };
}

async function signUpTrpc(prefix = "trpc") {
  const email = uniqueEmail(prefix).toLowerCase();
  const res = await rawTrpc("auth.signup", { email, password: PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { email, id: res.body.result.data.id as string, jwt: res.jwt!, api: trpcClient(app.url, res.jwt!) };
}

/** The tRPC error a call rejects with (fails the test if it resolves). */
async function trpcError(call: Promise<unknown>): Promise<{ code: string; httpStatus: number; message: string }> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a tRPC error, got ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const e = error as TRPCClientError<any>;
  return { code: e.data?.code, httpStatus: e.data?.httpStatus, message: e.message };
}

describe("tRPC auth", () => {
  it("auth.signup sets the session cookie and answers the account", async () => {
    const email = uniqueEmail("TrpcSignup");
    const res = await rawTrpc("auth.signup", { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { data: { id: expect.any(String), email: email.toLowerCase(), role: "user" } } });
    expect(res.setCookie).toMatch(COOKIE);
    // The cookie authenticates later calls.
    const session = await fetch(`${app.url}/trpc/auth.session`, { headers: { cookie: `session=${res.jwt}` } });
    expect((await session.json()).result.data).toMatchObject({ userId: res.body.result.data.id, role: "user" });
    expect(await app.services.prisma.user.findUnique({ where: { id: res.body.result.data.id } })).toMatchObject({ creditsBalance: 10 });
  });

  it("maps a duplicate e-mail to CONFLICT and bad input to BAD_REQUEST naming the field", async () => {
    const { email } = await signUpTrpc("dup");
    expect(await trpcError(trpcClient(app.url).auth.signup.mutate({ email: email.toUpperCase(), password: PASSWORD }))).toEqual({
      code: "CONFLICT",
      httpStatus: 409,
      message: "Email already registered",
    });
    expect(await trpcError(trpcClient(app.url).auth.signup.mutate({ email: uniqueEmail(), password: "1234567" }))).toEqual({
      code: "BAD_REQUEST",
      httpStatus: 400,
      message: "Your password must be at least 8 characters",
    });
    expect(await trpcError(trpcClient(app.url).auth.signup.mutate({ email: "nope", password: PASSWORD }))).toEqual({
      code: "BAD_REQUEST",
      httpStatus: 400,
      message: "Enter a valid e-mail address, like name@example.com",
    });
  });

  it("auth.login sets the cookie; wrong credentials are UNAUTHORIZED with one message", async () => {
    const { email, id } = await signUpTrpc("login");
    const res = await rawTrpc("auth.login", { email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual({ id, email, role: "user" });
    expect(res.setCookie).toMatch(COOKIE);
    const wrong = await trpcError(trpcClient(app.url).auth.login.mutate({ email, password: "wrong password" }));
    const unknown = await trpcError(trpcClient(app.url).auth.login.mutate({ email: uniqueEmail("ghost"), password: PASSWORD }));
    expect(wrong).toEqual({ code: "UNAUTHORIZED", httpStatus: 401, message: "Invalid email or password" });
    expect(unknown).toEqual(wrong);
  });

  it("a suspended account gets FORBIDDEN on login", async () => {
    const { email, id } = await signUpTrpc("susp");
    await trpcClient(app.url, adminJwt).admin.setUserStatus.mutate({ id, status: "suspended" });
    expect(await trpcError(trpcClient(app.url).auth.login.mutate({ email, password: PASSWORD }))).toEqual({
      code: "FORBIDDEN",
      httpStatus: 403,
      message: "Account suspended",
    });
  });

  it("auth.logout clears the cookie and revokes the JWT at once", async () => {
    const { jwt, api } = await signUpTrpc("logout");
    const res = await rawTrpc("auth.logout", undefined, { cookie: `session=${jwt}` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: { data: { loggedOut: true } } });
    expect(res.setCookie).toMatch(/^session=; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=0/);
    expect(await trpcError(api.auth.session.query())).toEqual({
      code: "UNAUTHORIZED",
      httpStatus: 401,
      message: "Authentication required",
    });
  });

  it("answers UNAUTHORIZED without a credential or with a forged one", async () => {
    for (const api of [trpcClient(app.url), trpcClient(app.url, "forged.jwt.value")]) {
      expect(await trpcError(api.user.profile.query())).toEqual({
        code: "UNAUTHORIZED",
        httpStatus: 401,
        message: "Authentication required",
      });
    }
  });
});

describe("tRPC account", () => {
  it("reads the session, profile, credits and provider preference with a bearer JWT", async () => {
    const { email, id, jwt, api } = await signUpTrpc("acct");
    const session = await api.auth.session.query();
    expect(session).toEqual({ userId: id, email, role: "user", expiresAt: expect.any(Number), trialEndsAt: expect.any(String) });
    expect(session.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(await api.user.profile.query()).toMatchObject({ id, email, credits_balance: 10, current_plan_id: "trial", has_api_key: false });
    expect(await api.user.credits.query()).toEqual({ balance: 10 });
    expect(await api.user.providerPreference.query()).toEqual({ preference: "auto" });
    expect(await api.user.setProviderPreference.mutate({ preference: "replicate" })).toEqual({ preference: "replicate" });
    // The same account over REST sees the change.
    expect((await new RestClient(app.url, { bearer: jwt }).get("/user/provider-preference")).body.data).toEqual({
      preference: "replicate",
    });
    const bad = await trpcError(api.user.setProviderPreference.mutate({ preference: "openai" as never }));
    expect(bad.code).toBe("BAD_REQUEST");
    expect(bad.message).toMatch(/^preference: /);
  });

  it("changes the password", async () => {
    const { email, api } = await signUpTrpc("pw");
    const wrong = await trpcError(api.user.changePassword.mutate({ currentPassword: "nope nope", newPassword: "a new password" }));
    expect(wrong).toEqual({ code: "BAD_REQUEST", httpStatus: 400, message: "Your current password is not correct" });
    expect(await api.user.changePassword.mutate({ currentPassword: PASSWORD, newPassword: "a new password" })).toEqual({
      changed: true,
      otherSessionsEnded: 0,
      apiKeyRevoked: false,
    });
    expect((await rawTrpc("auth.login", { email, password: "a new password" })).status).toBe(200);
    expect((await rawTrpc("auth.login", { email, password: PASSWORD })).status).toBe(401);
  });
});

describe("tRPC admin", () => {
  it("answers FORBIDDEN 'admin access required' to a non-admin", async () => {
    const { id, api } = await signUpTrpc("nonadmin");
    const forbidden = { code: "FORBIDDEN", httpStatus: 403, message: "admin access required" };
    expect(await trpcError(api.admin.users.query({}))).toEqual(forbidden);
    expect(await trpcError(api.admin.user.query({ id }))).toEqual(forbidden);
    expect(await trpcError(api.admin.updateUser.mutate({ id, role: "admin" }))).toEqual(forbidden);
    expect(await trpcError(api.admin.setUserStatus.mutate({ id, status: "active" }))).toEqual(forbidden);
    expect(await trpcError(api.admin.grantCredits.mutate({ id, amount: 100 }))).toEqual(forbidden);
    expect(await trpcError(api.admin.resetPassword.mutate({ userId: id, newPassword: "hijacked pw" }))).toEqual(forbidden);
    expect(await api.user.credits.query()).toEqual({ balance: 10 });
    // The gate comes before validation, as on REST: bad input from a non-admin is still FORBIDDEN.
    expect(await trpcError(api.admin.grantCredits.mutate({ id, amount: 0.5 }))).toEqual(forbidden);
    expect(await trpcError(api.admin.resetPassword.mutate({ userId: id, newPassword: "short" }))).toEqual(forbidden);
  });

  it("lists, reads, updates, credits and resets accounts", async () => {
    const admin = trpcClient(app.url, adminJwt).admin;
    const user = await signUpTrpc("managed");
    const list = await admin.users.query({ search: user.email.toUpperCase() });
    expect(list).toMatchObject({ page: 1, pageSize: 20, total: 1, totalPages: 1, users: [{ id: user.id, email: user.email }] });
    expect(await admin.user.query({ id: user.id })).toMatchObject({ id: user.id, role: "user" });
    expect(await trpcError(admin.user.query({ id: "00000000-0000-4000-8000-000000000000" }))).toEqual({
      code: "NOT_FOUND",
      httpStatus: 404,
      message: "User not found",
    });
    expect(await admin.updateUser.mutate({ id: user.id, current_plan_id: "subscription_agency" })).toMatchObject({
      current_plan_id: "subscription_agency",
    });
    const notWritable = await trpcError(admin.updateUser.mutate({ id: user.id, email: "x@example.com" } as never));
    expect(notWritable.code).toBe("BAD_REQUEST");
    expect(notWritable.message).toMatch(/not writable here: email/);
    expect(await admin.grantCredits.mutate({ id: user.id, amount: 5, reason: "trpc" })).toEqual({
      balance: 15,
      entryId: expect.any(String),
    });
    const overdraw = await trpcError(admin.grantCredits.mutate({ id: user.id, amount: -16 }));
    expect(overdraw).toEqual({
      code: "BAD_REQUEST",
      httpStatus: 400,
      message: "That would take the balance below zero: the account holds 15 credits and 16 would be removed. Remove at most 15.",
    });
    const self = await trpcError(admin.setUserStatus.mutate({ id: adminId, status: "suspended" }));
    expect(self).toEqual({ code: "BAD_REQUEST", httpStatus: 400, message: "You cannot suspend your own account" });
    expect(await admin.resetPassword.mutate({ userId: user.id, newPassword: "set by admin" })).toEqual({ userId: user.id, reset: true });
    expect(await trpcError(user.api.user.profile.query())).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await rawTrpc("auth.login", { email: user.email, password: "set by admin" })).status).toBe(200);
  });
});

describe("tRPC public", () => {
  it("answers health, pricing, studio and capabilities like REST", async () => {
    const api = trpcClient(app.url);
    expect(await api.health.check.query()).toMatchObject({ status: "ok", version: "1.0.0" });
    const rest = new RestClient(app.url);
    expect(await api.public.pricing.query()).toEqual((await rest.get("/config/pricing")).body.data);
    expect(await api.public.studio.query()).toEqual((await rest.get("/config/studio")).body.data);
    expect(await api.public.modelsStatus.query()).toEqual((await rest.get("/models/status")).body.data);
  });
});

describe("tRPC subscription user.balanceChanges (SSE)", () => {
  it("delivers {balance, delta, reason} when an admin grants credits, to that account only", async () => {
    const user = await signUpTrpc("sub");
    const bystander = await signUpTrpc("bystander");
    const live = nextBusSubscription(app);
    const stream = await openSse(`${app.url}/trpc/user.balanceChanges`, { authorization: `Bearer ${user.jwt}` });
    const otherLive = live.then(() => nextBusSubscription(app));
    await live;
    const other = await openSse(`${app.url}/trpc/user.balanceChanges`, { authorization: `Bearer ${bystander.jwt}` });
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(await stream.next()).toMatchObject({ event: "connected" });
      await otherLive;

      const grant = await new RestClient(app.url, { bearer: adminJwt }).post(`/admin/users/${user.id}/credits`, {
        amount: 7,
        reason: "sse",
      });
      expect(grant.body.data.balance).toBe(17);
      const event = await stream.next();
      expect(event.event).toBe("message");
      expect(JSON.parse(event.data)).toEqual({ balance: 17, delta: 7, reason: "admin_adjustment" });

      await trpcClient(app.url, adminJwt).admin.grantCredits.mutate({ id: user.id, amount: -2 });
      expect(JSON.parse((await stream.next()).data)).toEqual({ balance: 15, delta: -2, reason: "admin_adjustment" });

      // The bystander's stream saw only its own connection event.
      expect(await other.next()).toMatchObject({ event: "connected" });
      await expect(other.next(300)).rejects.toThrow(/no SSE message/);
    } finally {
      stream.close();
      other.close();
    }
  });

  it("refuses an unauthenticated subscription with UNAUTHORIZED", async () => {
    const stream = await openSse(`${app.url}/trpc/user.balanceChanges`);
    try {
      expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(await stream.next()).toMatchObject({ event: "connected" });
      const message = await stream.next();
      expect(message.event).toBe("serialized-error");
      expect(JSON.parse(message.data)).toMatchObject({
        message: "Authentication required",
        data: { code: "UNAUTHORIZED", httpStatus: 401, path: "user.balanceChanges" },
      });
    } finally {
      stream.close();
    }
  });
});
