// Addresses saved now and fetched later (push endpoints, the account's webhook URL): a literal private or
// loopback address is refused at once, but a host name that does not resolve at this moment is accepted,
// because the check that matters runs at each fetch (safeFetch), against what the name resolves to then.
import { randomBytes, createECDH } from "node:crypto";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

/** Changes during the tests, as DNS does: a name unknown today may resolve tomorrow, anywhere. */
const DNS: Record<string, string[]> = {};
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

const hits: string[] = [];
const network = setupServer(
  http.post("https://later.example/in", ({ request }) => {
    hits.push(request.url);
    return new HttpResponse("ok", { status: 200 });
  }),
);

function pushSubscription(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  };
}

let app: TestApp;
let user: Account;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({}, { resolver });
  user = await signUp(app, "deferred-urls");
});
afterAll(async () => {
  await app?.close();
  network.close();
});

describe("the account's webhook URL", () => {
  it("refuses literal private and loopback addresses and local names at once", async () => {
    for (const url of [
      "http://127.0.0.1/hook",
      "http://10.0.0.1/in",
      "https://[::1]/in",
      "http://169.254.169.254/latest",
      "http://localhost:3000/in",
    ]) {
      const res = await user.client.post("/user/webhook", { url });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body.error).toMatch(/private or local address/);
    }
  });

  it("accepts a name that does not resolve now, and checks it again at each delivery", async () => {
    delete DNS["later.example"];
    const saved = await user.client.post("/user/webhook", { url: "https://later.example/in" });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.url).toBe("https://later.example/in");

    const unresolved = await user.client.post("/user/webhook/test", {});
    expect(unresolved.status).toBe(200);
    expect(unresolved.body.data).toMatchObject({ status: "failed", lastError: expect.stringMatching(/could not be resolved/) });

    // The name now leads inside: refused when the delivery is made, nothing is sent.
    DNS["later.example"] = ["10.0.0.9"];
    const inside = await user.client.post("/user/webhook/test", {});
    expect(inside.body.data).toMatchObject({ status: "failed", lastError: expect.stringMatching(/private or local address/) });
    expect(hits).toEqual([]);

    DNS["later.example"] = ["93.184.216.34"];
    const delivered = await user.client.post("/user/webhook/test", {});
    expect(delivered.body.data).toMatchObject({ status: "delivered", lastStatus: 200 });
    expect(hits).toEqual(["https://later.example/in"]);
  });
});

describe("push subscriptions", () => {
  it("accept an endpoint whose name does not resolve now; refuse a literal private address", async () => {
    const later = await user.client.post("/notifications/subscribe", { subscription: pushSubscription("https://push-later.example/abc") });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.data).toMatchObject({ subscribed: true, endpoint: "https://push-later.example/abc" });
    for (const endpoint of ["https://10.1.2.3/x", "https://127.0.0.1/x", "https://[fd00::1]/x"]) {
      const res = await user.client.post("/notifications/subscribe", { subscription: pushSubscription(endpoint) });
      expect({ endpoint, status: res.status }).toEqual({ endpoint, status: 400 });
      expect(res.body.error).toMatch(/private or local address/);
    }
    expect(await app.services.prisma.pushSubscription.count({ where: { userId: user.id } })).toBe(1);
  });
});
