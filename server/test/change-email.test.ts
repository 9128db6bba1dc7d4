// POST /user/email (user.changeEmail): the sign-in address changes only with the right password, to
// a valid address no other account has; the next login uses the new address.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logIn, PASSWORD, signUp } from "./support/accounts.ts";
import { graphql, RestClient, trpcClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe("POST /user/email", () => {
  it("changes the address; the profile shows it and login works with it, not with the old one", async () => {
    const user = await signUp(app, "move");
    const next = uniqueEmail("moved");
    const res = await user.client.post("/user/email", { email: `  ${next.toUpperCase()} `, password: PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ success: true, data: { email: next } });
    expect((await user.client.get("/user/profile")).body.data.email).toBe(next);

    await logIn(app, next, PASSWORD);
    const old = await new RestClient(app.url).post("/auth/login", { email: user.email, password: PASSWORD });
    expect(old.status).toBe(401);
  });

  it("refuses a wrong password with a message for people, and changes nothing", async () => {
    const user = await signUp(app, "wrong-pass");
    const res = await user.client.post("/user/email", { email: uniqueEmail("x"), password: "not my password" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("The password is not correct. Enter the password you sign in with.");
    expect((await user.client.get("/user/profile")).body.data.email).toBe(user.email);
  });

  it("refuses an address another account has with 409", async () => {
    const user = await signUp(app, "taker");
    const other = await signUp(app, "owner");
    const res = await user.client.post("/user/email", { email: other.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("Another account already uses that e-mail address. Choose a different one.");
    expect((await user.client.get("/user/profile")).body.data.email).toBe(user.email);
  });

  it.each([
    ["not an address", { email: "nope", password: PASSWORD }, /e-mail address/],
    ["no password", { email: "someone@example.com" }, /Enter your current password/],
    ["no address", { password: PASSWORD }, /Enter your e-mail address/],
  ])("answers 400 for %s", async (_what, body, message) => {
    const user = await signUp(app, "bad-input");
    const res = await user.client.post("/user/email", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it("answers 400 when the address is already the account's", async () => {
    const user = await signUp(app, "same");
    const res = await user.client.post("/user/email", { email: user.email, password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`${user.email} is already your e-mail address.`);
  });

  it("answers 401 without a session", async () => {
    const res = await new RestClient(app.url).post("/user/email", { email: uniqueEmail(), password: PASSWORD });
    expect(res.status).toBe(401);
  });

  it("is served on tRPC and GraphQL too", async () => {
    const user = await signUp(app, "move-trpc");
    const viaTrpc = uniqueEmail("via-trpc");
    expect(await trpcClient(app.url, user.jwt).user.changeEmail.mutate({ email: viaTrpc, password: PASSWORD })).toEqual({ email: viaTrpc });

    const viaGraphql = uniqueEmail("via-graphql");
    const res = await graphql(
      app.url,
      "mutation ($email: String!, $password: String!) { userChangeEmail(email: $email, password: $password) { email } }",
      { email: viaGraphql, password: PASSWORD },
      user.jwt,
    );
    expect(res.body).toEqual({ data: { userChangeEmail: { email: viaGraphql } } });
  });
});
