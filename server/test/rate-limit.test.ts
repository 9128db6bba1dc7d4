// SPEC 8.1 and CONTRACT rate limits on a service started with low limits: auth endpoints per client IP,
// other endpoints per account (per IP when anonymous), one counter per endpoint, shared by REST, tRPC and
// GraphQL, 429 with the envelope and the X-RateLimit-* headers.
import { requestFrom } from "./support/request-from.ts";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, type Account, signUp } from "./support/accounts.ts";
import { graphql, RestClient, type RestResult, trpcClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_AUTH_PER_HOUR: "3", RATE_LIMIT_API_PER_MINUTE: "5" });
});
afterAll(() => app?.close());

const TOO_MANY = { success: false, error: "Too many requests. Please try again later." };

function limitHeaders(res: RestResult) {
  return {
    limit: res.headers.get("x-ratelimit-limit"),
    remaining: res.headers.get("x-ratelimit-remaining"),
    reset: Number(res.headers.get("x-ratelimit-reset")),
  };
}

/** A POST from another loopback address, so the server sees another client IP. */
const postFrom = (localAddress: string, path: string, body: unknown) => requestFrom(localAddress, `${app.url}/api${path}`, { body });

// The auth budget is per IP and per endpoint: 3 signups and 3 logins from 127.0.0.1 for the whole file.
let a: Account;
let b: Account;

describe("auth endpoints (3 per hour per IP, per endpoint)", () => {
  it("the 4th login is 429 with the envelope and headers; REST, tRPC and GraphQL share the counter", async () => {
    a = await signUp(app, "limit-a");
    b = await signUp(app, "limit-b");

    const first = await new RestClient(app.url).post("/auth/login", { email: a.email, password: PASSWORD });
    expect(first.status).toBe(200);
    expect(limitHeaders(first)).toMatchObject({ limit: "3", remaining: "2" });
    // A failed login counts as well.
    const second = await new RestClient(app.url).post("/auth/login", { email: a.email, password: "wrong password" });
    expect(second.status).toBe(401);
    expect(limitHeaders(second)).toMatchObject({ limit: "3", remaining: "1" });
    // The third one goes through tRPC: same operation name, same counter.
    await expect(trpcClient(app.url).auth.login.mutate({ email: a.email, password: PASSWORD })).resolves.toEqual({
      id: a.id,
      email: a.email,
      role: "user",
    });

    const fourth = await new RestClient(app.url).post("/auth/login", { email: a.email, password: PASSWORD });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual(TOO_MANY);
    expect(fourth.cookie).toBeNull();
    const headers = limitHeaders(fourth);
    expect(headers).toMatchObject({ limit: "3", remaining: "0" });
    const now = Math.floor(Date.now() / 1000);
    expect(headers.reset).toBeGreaterThan(now);
    expect(headers.reset).toBeLessThanOrEqual(now + 3600 + 1);

    // Exhausted on every transport.
    const viaTrpc = await trpcClient(app.url)
      .auth.login.mutate({ email: a.email, password: PASSWORD })
      .catch((error: unknown) => error);
    expect(viaTrpc).toBeInstanceOf(TRPCClientError);
    expect((viaTrpc as TRPCClientError<any>).data?.code).toBe("TOO_MANY_REQUESTS");
    expect((viaTrpc as TRPCClientError<any>).message).toBe(TOO_MANY.error);
    const viaGraphql = await graphql(app.url, `mutation($e: String!, $p: String!) { authLogin(email: $e, password: $p) { token } }`, {
      e: a.email,
      p: PASSWORD,
    });
    // The request's only error is the rate limit, so the HTTP status is 429 too.
    expect(viaGraphql.status).toBe(429);
    expect(viaGraphql.body.errors).toHaveLength(1);
    expect(viaGraphql.body.errors?.[0]).toMatchObject({ message: TOO_MANY.error, extensions: { code: "RATE_LIMITED", status: 429 } });
  });

  it("signup keeps its own budget after login is exhausted, then runs out too", async () => {
    const third = await new RestClient(app.url).post("/auth/signup", { email: uniqueEmail("limit-c"), password: PASSWORD });
    expect(third.status).toBe(200);
    expect(limitHeaders(third)).toMatchObject({ limit: "3", remaining: "0" });
    const email = uniqueEmail("limit-d");
    const fourth = await new RestClient(app.url).post("/auth/signup", { email, password: PASSWORD });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual(TOO_MANY);
    expect(await app.services.prisma.user.count({ where: { email } })).toBe(0);
  });

  it("counts per client IP: another address still logs in", async () => {
    const res = await postFrom("127.0.0.2", "/auth/login", { email: b.email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: b.id, email: b.email, role: "user" } });
  });

  it("other auth-class endpoints (contact, newsletter, change-password) still have their budgets", async () => {
    expect((await new RestClient(app.url).post("/newsletter/subscribe", { email: uniqueEmail("nl") })).status).toBe(200);
    expect((await new RestClient(app.url).post("/contact", { email: uniqueEmail("c"), message: "hi" })).status).toBe(200);
    // Answered (not 429): the same password is refused on its merits, which keeps the account's password.
    const change = await a.client.post("/user/change-password", { currentPassword: PASSWORD, newPassword: PASSWORD });
    expect(change.status).toBe(400);
    expect(change.body.error).toMatch(/same as your current one/);
  });
});

describe("other endpoints (5 per minute per account)", () => {
  it("the 6th request of an account is 429; another account and another endpoint are unaffected", async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await a.client.get("/user/credits");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("5");
      remaining.push(res.headers.get("x-ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const sixth = await a.client.get("/user/credits");
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual(TOO_MANY);
    const headers = limitHeaders(sixth);
    expect(headers).toMatchObject({ limit: "5", remaining: "0" });
    const now = Math.floor(Date.now() / 1000);
    expect(headers.reset).toBeGreaterThan(now);
    expect(headers.reset).toBeLessThanOrEqual(now + 61);

    // Per account: the same IP, another account.
    const other = await b.client.get("/user/credits");
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("4");
    // Per endpoint: the same account, another endpoint.
    expect((await a.client.get("/user/profile")).status).toBe(200);
    // A bearer credential is the same account, so it is limited too.
    expect((await new RestClient(app.url, { bearer: a.jwt }).get("/user/credits")).status).toBe(429);
  });

  it("counts refused calls too: a 401 and a 403 carry the X-RateLimit-* headers; an unknown path or method counts against nothing", async () => {
    const anonymous = await new RestClient(app.url).get("/user/stats");
    expect(anonymous.status).toBe(401);
    expect(limitHeaders(anonymous)).toMatchObject({ limit: "5", remaining: "4" });
    expect(limitHeaders(anonymous).reset).toBeGreaterThan(Math.floor(Date.now() / 1000));
    const forbidden = await b.client.get("/admin/users");
    expect(forbidden.status).toBe(403);
    expect(limitHeaders(forbidden)).toMatchObject({ limit: "5", remaining: "4" });
    // An API key on a plan without them: the operation's own 403, counted as well.
    const keyless = await b.client.post("/user/api-key");
    expect(keyless.status).toBe(403);
    expect(limitHeaders(keyless)).toMatchObject({ limit: "5", remaining: "4" });

    // No operation, no counter: the document says so (openapi.test.ts), and no header pretends otherwise.
    const unknown = await b.client.get("/no/such/path");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("x-ratelimit-limit")).toBeNull();
    const wrongMethod = await b.client.call("PUT", "/user/credits", {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("limits anonymous callers per IP", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await new RestClient(app.url).get("/config/pricing")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // An account calling the same endpoint has its own counter.
    expect((await b.client.get("/config/pricing")).status).toBe(200);
  });
});
