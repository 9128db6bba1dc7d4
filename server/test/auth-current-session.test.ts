// auth.currentSession: "who is signed in?" answers null for a signed-out visitor on every transport,
// so public pages ask it without a failed request, while GET /api/auth/session keeps SPEC's 401.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const SESSION_FIELDS = "userId email role expiresAt trialEndsAt";

describe("auth.currentSession", () => {
  it("answers 200 with null when signed out on REST, and the documented session route still answers 401", async () => {
    const anonymous = new RestClient(app.url);
    const current = await anonymous.get("/auth/current-session");
    expect(current.status).toBe(200);
    expect(current.body).toEqual({ success: true, data: null });

    const documented = await anonymous.get("/auth/session");
    expect(documented.status).toBe(401);
  });

  it("answers the same session as GET /api/auth/session when signed in", async () => {
    const account = await signUp(app, "current-session");
    const current = await account.client.get("/auth/current-session");
    const documented = await account.client.get("/auth/session");
    expect(current.status).toBe(200);
    expect(current.body.data).toEqual(documented.body.data);
    expect(current.body.data).toMatchObject({ userId: account.id, email: account.email, role: "user" });
  });

  it("answers null over tRPC with HTTP 200 when signed out (the browser logs no failed request)", async () => {
    const response = await fetch(`${app.url}/trpc/auth.currentSession`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ result: { data: null } });

    const account = await signUp(app, "current-session-trpc");
    expect(await trpcClient(app.url, account.jwt).auth.currentSession.query()).toMatchObject({ userId: account.id });
  });

  it("answers null over GraphQL when signed out, and the session with a bearer token", async () => {
    const query = `{ authCurrentSession { ${SESSION_FIELDS} } }`;
    const anonymous = await graphql(app.url, query);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ data: { authCurrentSession: null } });

    const account = await signUp(app, "current-session-gql");
    const signedIn = await graphql(app.url, query, {}, account.jwt);
    expect(signedIn.body.errors).toBeUndefined();
    expect(signedIn.body.data).toMatchObject({ authCurrentSession: { userId: account.id, email: account.email } });
  });

  it("treats an invalid or revoked token as signed out, not as an error", async () => {
    const stale = new RestClient(app.url);
    stale.cookie = "not-a-valid-session-token";
    const res = await stale.get("/auth/current-session");
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
  });
});
