// The same operations over GraphQL (/graphql over HTTP and graphql-ws): tokens from signup/login, bearer
// auth, domain errors as extensions.code with readable messages, admin fields, depth and alias limits,
// and the userBalanceChanges subscription over WebSocket. Root fields are the catalogue's operations
// camel-cased (`auth.signup` → `authSignup`), with the operation's input fields as arguments.
import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ADMIN_EMAIL, ADMIN_ENV, nextBusSubscription, PASSWORD } from "./support/accounts.ts";
import { graphql, RestClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let adminToken: string;
let adminId: string;
const sockets: Client[] = [];
beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  const res = await gql(LOGIN, { email: ADMIN_EMAIL, password: ADMIN_ENV.ADMIN_PASSWORD });
  adminToken = res.data.authLogin.token;
  adminId = res.data.authLogin.id;
});
afterAll(async () => {
  for (const socket of sockets) await socket.dispose();
  await app?.close();
});

const SIGNUP = `mutation($email: String!, $password: String!) { authSignup(email: $email, password: $password) { id email role token expiresAt } }`;
const LOGIN = `mutation($email: String!, $password: String!) { authLogin(email: $email, password: $password) { id email role token expiresAt } }`;

async function gql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const res = await graphql(app.url, query, variables, token);
  expect(res.status).toBe(200);
  return res.body as {
    data?: any;
    errors?: { message: string; extensions?: { code?: string; status?: number; fields?: { field: string; message: string }[] } }[];
  };
}

/** The single error of a response, as a user reads it. */
function onlyError(body: { errors?: { message: string; extensions?: { code?: string } }[] }) {
  expect(body.errors, JSON.stringify(body)).toHaveLength(1);
  return { message: body.errors![0]!.message, code: body.errors![0]!.extensions?.code };
}

async function signUpGql(prefix = "gql") {
  const email = uniqueEmail(prefix).toLowerCase();
  const res = await gql(SIGNUP, { email, password: PASSWORD });
  expect(res.errors).toBeUndefined();
  return { email, id: res.data.authSignup.id as string, token: res.data.authSignup.token as string };
}

function wsClient(connectionParams?: Record<string, unknown>): Client {
  const client = createClient({
    url: `${app.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
  });
  sockets.push(client);
  return client;
}

describe("GraphQL auth", () => {
  it("signup answers a token that works as a bearer credential on GraphQL and REST", async () => {
    const email = uniqueEmail("GqlSignup");
    const res = await gql(SIGNUP, { email, password: PASSWORD });
    expect(res.errors).toBeUndefined();
    expect(res.data.authSignup).toEqual({
      id: expect.any(String),
      email: email.toLowerCase(),
      role: "user",
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      expiresAt: expect.any(String),
    });
    expect(Date.parse(res.data.authSignup.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const me = await gql(
      `{ userProfile { id email role status creditsBalance currentPlanId providerPreference hasApiKey trialEndsAt } }`,
      {},
      res.data.authSignup.token,
    );
    expect(me.data.userProfile).toEqual({
      id: res.data.authSignup.id,
      email: email.toLowerCase(),
      role: "user",
      status: "active",
      creditsBalance: 10,
      currentPlanId: "trial",
      providerPreference: "auto",
      hasApiKey: false,
      trialEndsAt: expect.any(String),
    });
    expect((await new RestClient(app.url, { bearer: res.data.authSignup.token }).get("/user/credits")).body.data).toEqual({ balance: 10 });
  });

  it("login answers a new token; wrong credentials are UNAUTHORIZED with one message", async () => {
    const { email, id, token } = await signUpGql("login");
    const res = await gql(LOGIN, { email: email.toUpperCase(), password: PASSWORD });
    expect(res.data.authLogin).toMatchObject({ id, email, role: "user" });
    expect(res.data.authLogin.token).not.toBe(token);
    const wrong = await gql(LOGIN, { email, password: "wrong password" });
    const unknown = await gql(LOGIN, { email: uniqueEmail("ghost"), password: PASSWORD });
    expect(onlyError(wrong)).toEqual({ message: "Invalid email or password", code: "UNAUTHORIZED" });
    expect(onlyError(unknown)).toEqual(onlyError(wrong));
    // Root fields are nullable: the refused field is null beside its error.
    expect(wrong.data).toEqual({ authLogin: null });
  });

  it("maps a duplicate e-mail to CONFLICT and bad input to BAD_REQUEST naming the field", async () => {
    const { email } = await signUpGql("dup");
    expect(onlyError(await gql(SIGNUP, { email: email.toUpperCase(), password: PASSWORD }))).toEqual({
      message: "Email already registered",
      code: "CONFLICT",
    });
    const longPassword = await gql(SIGNUP, { email: uniqueEmail(), password: "p".repeat(129) });
    expect(onlyError(longPassword)).toEqual({ message: "Your password must be at most 128 characters", code: "BAD_REQUEST" });
    expect(longPassword.errors![0]!.extensions).toMatchObject({
      fields: [{ field: "password", message: "Your password must be at most 128 characters" }],
    });
    const badEmail = await gql(SIGNUP, { email: "nope", password: PASSWORD });
    expect(onlyError(badEmail)).toEqual({ message: "Enter a valid e-mail address, like name@example.com", code: "BAD_REQUEST" });
    expect(badEmail.errors![0]!.extensions).toMatchObject({
      fields: [{ field: "email", message: "Enter a valid e-mail address, like name@example.com" }],
    });
  });

  it("answers UNAUTHORIZED for `userProfile` without a token and after logout", async () => {
    expect(onlyError(await gql(`{ userProfile { id } }`))).toEqual({ message: "Authentication required", code: "UNAUTHORIZED" });
    const { token } = await signUpGql("logout");
    expect((await gql(`mutation { authLogout { loggedOut } }`, {}, token)).data).toEqual({ authLogout: { loggedOut: true } });
    expect(onlyError(await gql(`{ userProfile { id } }`, {}, token))).toEqual({
      message: "Authentication required",
      code: "UNAUTHORIZED",
    });
  });

  it("a suspended account gets FORBIDDEN on login", async () => {
    const { email, id } = await signUpGql("susp");
    const suspended = await gql(`mutation($id: String!) { adminSetUserStatus(id: $id, status: suspended) { status } }`, { id }, adminToken);
    expect(suspended.data).toEqual({ adminSetUserStatus: { status: "suspended" } });
    expect(onlyError(await gql(LOGIN, { email, password: PASSWORD }))).toEqual({ message: "Account suspended", code: "FORBIDDEN" });
  });
});

describe("GraphQL account", () => {
  it("reads the session, credits and preference, and changes them", async () => {
    const { email, id, token } = await signUpGql("acct");
    const res = await gql(
      `{ authSession { userId email role expiresAt trialEndsAt } userCredits { balance } userProviderPreference { preference } }`,
      {},
      token,
    );
    expect(res.data).toEqual({
      authSession: { userId: id, email, role: "user", expiresAt: expect.any(Number), trialEndsAt: expect.any(String) },
      userCredits: { balance: 10 },
      userProviderPreference: { preference: "auto" },
    });
    expect((await gql(`mutation { userSetProviderPreference(preference: fal) { preference } }`, {}, token)).data).toEqual({
      userSetProviderPreference: { preference: "fal" },
    });
    const wrong = await gql(
      `mutation { userChangePassword(currentPassword: "nope nope", newPassword: "another one") { changed } }`,
      {},
      token,
    );
    expect(onlyError(wrong)).toEqual({ message: "Your current password is not correct", code: "BAD_REQUEST" });
    expect(wrong.errors![0]!.extensions).toMatchObject({ fields: [{ field: "currentPassword" }] });
    const changed = await gql(
      `mutation($c: String!) { userChangePassword(currentPassword: $c, newPassword: "another one") { changed } }`,
      { c: PASSWORD },
      token,
    );
    expect(changed.data).toEqual({ userChangePassword: { changed: true } });
    expect((await gql(LOGIN, { email, password: "another one" })).data.authLogin.id).toBe(id);
  });
});

describe("GraphQL admin", () => {
  it("answers FORBIDDEN 'admin access required' to a non-admin", async () => {
    const { id, token } = await signUpGql("nonadmin");
    for (const query of [
      `{ adminUsers { total } }`,
      `{ adminUser(id: "${id}") { id } }`,
      `mutation { adminGrantCredits(id: "${id}", amount: 100) { balance } }`,
      `mutation { adminUpdateUser(id: "${id}", role: admin) { role } }`,
      `mutation { adminSetUserStatus(id: "${id}", status: active) { status } }`,
      `mutation { adminResetPassword(userId: "${id}", newPassword: "hijacked pw") { reset } }`,
    ]) {
      expect(onlyError(await gql(query, {}, token)), query).toEqual({ message: "admin access required", code: "FORBIDDEN" });
    }
    expect((await gql(`{ userCredits { balance } userProfile { role } }`, {}, token)).data).toEqual({
      userCredits: { balance: 10 },
      userProfile: { role: "user" },
    });
  });

  it("lists, reads, updates, credits and resets accounts", async () => {
    const user = await signUpGql("managed");
    const list = await gql(
      `query($s: String) { adminUsers(search: $s, pageSize: 5) { page pageSize total totalPages users { id email } } }`,
      { s: user.email.toUpperCase() },
      adminToken,
    );
    expect(list.data.adminUsers).toEqual({ page: 1, pageSize: 5, total: 1, totalPages: 1, users: [{ id: user.id, email: user.email }] });
    expect(onlyError(await gql(`{ adminUser(id: "00000000-0000-4000-8000-000000000000") { id } }`, {}, adminToken))).toEqual({
      message: "User not found",
      code: "NOT_FOUND",
    });
    const updated = await gql(
      `mutation($id: String!) { adminUpdateUser(id: $id, currentPlanId: subscription_pro, trialEndsAt: null, providerPreference: replicate) { currentPlanId trialEndsAt providerPreference } }`,
      { id: user.id },
      adminToken,
    );
    expect(updated.data.adminUpdateUser).toEqual({ currentPlanId: "subscription_pro", trialEndsAt: null, providerPreference: "replicate" });
    const granted = await gql(
      `mutation($id: String!) { adminGrantCredits(id: $id, amount: 4, reason: "gql") { balance } }`,
      { id: user.id },
      adminToken,
    );
    expect(granted.data).toEqual({ adminGrantCredits: { balance: 14 } });
    const overdraw = await gql(
      `mutation($id: String!) { adminGrantCredits(id: $id, amount: -15) { balance } }`,
      { id: user.id },
      adminToken,
    );
    expect(onlyError(overdraw)).toEqual({
      message: "That would take the balance below zero: the account holds 14 credits and 15 would be removed. Remove at most 14.",
      code: "BAD_REQUEST",
    });
    const demoteSelf = await gql(`mutation($id: String!) { adminUpdateUser(id: $id, role: user) { role } }`, { id: adminId }, adminToken);
    expect(onlyError(demoteSelf)).toEqual({ message: "You cannot remove your own admin role", code: "BAD_REQUEST" });
    const reset = await gql(
      `mutation($id: String!) { adminResetPassword(userId: $id, newPassword: "set by admin") { userId reset } }`,
      { id: user.id },
      adminToken,
    );
    expect(reset.data).toEqual({ adminResetPassword: { userId: user.id, reset: true } });
    expect(onlyError(await gql(`{ userProfile { id } }`, {}, user.token)).code).toBe("UNAUTHORIZED");
    expect((await gql(LOGIN, { email: user.email, password: "set by admin" })).data.authLogin.id).toBe(user.id);
  });
});

describe("GraphQL limits", () => {
  // `__type` is not exempt from the depth rule (only `__schema` is), so it can nest past the limit.
  const nested = (ofTypes: number) =>
    `{ __type(name: "User") { fields { type { ${"ofType { ".repeat(ofTypes)}name${" }".repeat(ofTypes)} } } } }`;

  it("accepts a query of depth 8 and rejects one nested deeper", async () => {
    // __type(1) fields(2) type(3) ofType×4 (4..7) name(8)
    const ok = await gql(nested(4));
    expect(ok.errors).toBeUndefined();
    expect(ok.data.__type.fields.length).toBeGreaterThan(0);
    const deep = await graphql(app.url, nested(6));
    expect(deep.body.data).toBeUndefined();
    expect(deep.body.errors?.map((e) => e.message)).toEqual(["Syntax Error: Query depth limit of 8 exceeded, found 10."]);
  });

  it("over WebSocket, answers a limit violation as that operation's error and keeps the socket open", async () => {
    let closed = false;
    const client = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      on: {
        closed: () => {
          closed = true;
        },
      },
    });
    sockets.push(client);
    const run = (query: string) =>
      new Promise<{ error?: unknown; results: unknown[] }>((resolve) => {
        const results: unknown[] = [];
        client.subscribe(
          { query },
          { next: (value) => results.push(value), error: (error) => resolve({ error, results }), complete: () => resolve({ results }) },
        );
      });
    const deep = await run(nested(6));
    expect(deep.error).toEqual([expect.objectContaining({ message: "Syntax Error: Query depth limit of 8 exceeded, found 10." })]);
    const syntax = await run("{ healthCheck { ");
    expect(syntax.error).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Syntax Error/) })]);
    // The same socket still serves the next operation.
    expect(await run("{ healthCheck { status } }")).toEqual({ results: [{ data: { healthCheck: { status: "ok" } } }] });
    expect(closed).toBe(false);
  });

  it("rejects a query with more than 15 aliases", async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `h${i}: healthCheck { status }`).join(" ")} }`;
    const ok = await gql(aliases(15));
    expect(ok.errors).toBeUndefined();
    expect(Object.keys(ok.data)).toHaveLength(15);
    const tooMany = await graphql(app.url, aliases(16));
    expect(tooMany.body.data).toBeUndefined();
    expect(tooMany.body.errors?.map((e) => e.message)).toEqual(["Syntax Error: Aliases limit of 15 exceeded, found 16."]);
  });
});

describe("GraphQL subscription userBalanceChanges (graphql-ws)", () => {
  const SUBSCRIPTION = `subscription { userBalanceChanges { balance delta reason } }`;

  it("delivers the balance change after an admin grant, authenticated by connectionParams", async () => {
    const user = await signUpGql("sub");
    const client = wsClient({ authorization: `Bearer ${user.token}` });
    const live = nextBusSubscription(app);
    const events = client.iterate({ query: SUBSCRIPTION });
    const first = events.next();
    await live;
    const grant = await gql(`mutation($id: String!) { adminGrantCredits(id: $id, amount: 3) { balance } }`, { id: user.id }, adminToken);
    expect(grant.data).toEqual({ adminGrantCredits: { balance: 13 } });
    expect((await first).value).toEqual({ data: { userBalanceChanges: { balance: 13, delta: 3, reason: "admin_adjustment" } } });
    // A change made over REST reaches the same subscriber.
    await new RestClient(app.url, { bearer: adminToken }).post(`/admin/users/${user.id}/credits`, { amount: -13 });
    expect((await events.next()).value).toEqual({ data: { userBalanceChanges: { balance: 0, delta: -13, reason: "admin_adjustment" } } });
    await events.return?.();
  });

  it("tells a subscriber that fell a thousand events behind what happened, in words, and releases it", async () => {
    const user = await signUpGql("behind");
    const client = wsClient({ authorization: `Bearer ${user.token}` });
    const live = nextBusSubscription(app);
    const received: unknown[] = [];
    const failed = new Promise<unknown>((resolve, reject) =>
      client.subscribe(
        { query: SUBSCRIPTION },
        { next: (value) => received.push(value), error: resolve, complete: () => reject(new Error("completed without an error")) },
      ),
    );
    await live;
    const before = app.services.events.listenerCount();
    // 1,500 changes in one go: more than the thousand a reader may have waiting. Each reason is too large
    // for a NOTIFY (8,000 bytes), so on PostgreSQL too they reach this instance's readers at once, in this
    // tick, as on the embedded bus (through NOTIFY they would come in batches the reader keeps up with).
    const reason = `admin_adjustment ${"x".repeat(9000)}`;
    for (let n = 1; n <= 1500; n++) {
      app.services.events.publish({ kind: "account.balance", userId: user.id, data: { balance: n, delta: 1, reason } });
    }
    const errors = (await failed) as { message: string; extensions?: Record<string, unknown> }[];
    // What was waiting arrives first, in order; then the reason, with what to do.
    expect(received).toHaveLength(1000);
    expect(received.at(-1)).toEqual({ data: { userBalanceChanges: { balance: 1000, delta: 1, reason } } });
    expect(errors).toEqual([
      {
        message: expect.stringMatching(/^This stream fell more than 1000 events behind its reader and was closed; subscribe again/),
        extensions: { code: "UNAVAILABLE", status: 503, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      },
    ]);
    await expect.poll(() => app.services.events.listenerCount(), { timeout: 10_000 }).toBe(before - 1);
  });

  it("rejects a subscription without a credential", async () => {
    const client = wsClient();
    const received: unknown[] = [];
    const outcome = await new Promise<string>((resolve) => {
      client.subscribe(
        { query: SUBSCRIPTION },
        {
          next: (value) => received.push(value),
          error: (error) => received.push({ error }) && resolve("error"),
          complete: () => resolve("complete"),
        },
      );
    });
    expect(outcome).toBe("complete");
    expect(received).toEqual([
      {
        errors: [
          expect.objectContaining({
            message: "Authentication required",
            // Each operation on the socket has its own request id, for the log line.
            extensions: { code: "UNAUTHORIZED", status: 401, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
          }),
        ],
      },
    ]);
  });

  it("rejects a subscription with a revoked token", async () => {
    const user = await signUpGql("revoked");
    await gql(`mutation { authLogout { loggedOut } }`, {}, user.token);
    const client = wsClient({ authorization: `Bearer ${user.token}` });
    const first = await client.iterate({ query: SUBSCRIPTION }).next();
    expect(first.value).toMatchObject({ errors: [{ message: "Authentication required", extensions: { code: "UNAUTHORIZED" } }] });
  });
});
