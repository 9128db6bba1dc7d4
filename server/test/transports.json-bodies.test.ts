// GraphQL and tRPC read a JSON body straight from Node's stream (graphql/json-body-from-node.ts,
// trpc/lean-request.ts): the answers a client sees are what they were, a body that is not JSON or not an
// object is a 400 that says so, and a good body works on a kept-alive connection, several calls in a row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

describe("GraphQL JSON bodies", () => {
  it("refuses a body that is not JSON with 400, naming the problem", async () => {
    const res = await post("/graphql", "{ query: nope");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors[0].message).toBe("POST body sent invalid JSON.");
  });

  it("refuses a JSON body that is not an object", async () => {
    const res = await post("/graphql", "42");
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toBe("POST body is expected to be object but received number");
  });

  it("answers good documents one after another, with variables, a signed-up caller's own profile included", async () => {
    const email = uniqueEmail();
    const signup = await post(
      "/graphql",
      JSON.stringify({
        query: "mutation($email: String!, $password: String!) { authSignup(email: $email, password: $password) { token } }",
        variables: { email, password: "password123" },
      }),
    );
    expect(signup.status).toBe(200);
    const token = (await signup.json()).data.authSignup.token as string;
    for (let i = 0; i < 3; i++) {
      const res = await post("/graphql", JSON.stringify({ query: "{ userProfile { email } }" }), { authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
      expect((await res.json()).data.userProfile.email).toBe(email);
    }
  });
});

describe("tRPC JSON bodies", () => {
  it("refuses a mutation whose body is not JSON with 400", async () => {
    const res = await post("/trpc/auth.login", "{ email: nope");
    expect(res.status).toBe(400);
    expect((await res.json()).error.data.code).toBe("BAD_REQUEST");
  });

  it("reads a mutation's JSON body: a wrong password is refused, the right one signs in", async () => {
    const email = uniqueEmail();
    expect((await post("/trpc/auth.signup", JSON.stringify({ email, password: "password123" }))).status).toBe(200);
    const wrong = await post("/trpc/auth.login", JSON.stringify({ email, password: "password124" }));
    expect(wrong.status).toBe(401);
    const right = await post("/trpc/auth.login", JSON.stringify({ email, password: "password123" }));
    expect(right.status).toBe(200);
    expect((await right.json()).result.data.email).toBe(email);
  });
});
