import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RestClient, uniqueEmail } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe("REST signup and login", () => {
  it("signs up with a session cookie, trial plan and signup credits from the ledger", async () => {
    const client = new RestClient(app.url);
    const email = uniqueEmail("Signup");
    const res = await client.post("/auth/signup", { email, password: "correct horse" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { id: expect.any(String), email: email.toLowerCase(), role: "user" } });
    expect(res.cookie).toMatch(/^session=[^;]+; HttpOnly; Secure; SameSite=Lax; Path=\//);
    const profile = await client.get("/user/profile");
    expect(profile.status).toBe(200);
    expect(profile.body.data).toMatchObject({ email: email.toLowerCase(), current_plan_id: "trial", credits_balance: 10, status: "active", has_api_key: false });
    const ledger = await app.services.prisma.creditLedgerEntry.findMany({ where: { userId: res.body.data.id } });
    expect(ledger).toEqual([expect.objectContaining({ delta: 10, balanceAfter: 10, reason: "signup_grant" })]);
  });

  it("answers 409 for a duplicate e-mail in any case", async () => {
    const email = uniqueEmail();
    expect((await new RestClient(app.url).post("/auth/signup", { email, password: "password123" })).status).toBe(200);
    const again = await new RestClient(app.url).post("/auth/signup", { email: email.toUpperCase(), password: "password123" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ success: false, error: "Email already registered" });
  });
});
