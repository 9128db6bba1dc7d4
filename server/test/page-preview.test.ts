// The studio's page preview before paying: what the page reader finds (title, images, colours), a plain
// "could not read" otherwise, a 400 for private addresses, and nothing charged.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const DNS: Record<string, string[]> = { "shop.example": ["93.184.216.34"], "empty.example": ["93.184.216.36"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};
const network = setupServer(
  http.get("https://shop.example/mug", () =>
    HttpResponse.html(`<!doctype html><html><head><title>Steel Travel Mug</title>
      <meta name="description" content="Keeps coffee hot for 12 hours.">
      <meta property="og:image" content="https://shop.example/img/mug.jpg">
      <meta name="theme-color" content="#0a84ff"></head><body></body></html>`),
  ),
  http.get("https://empty.example/", () => HttpResponse.html("<!doctype html><html><head></head><body></body></html>")),
);

let app: TestApp;
let user: Account;
beforeAll(async () => {
  network.listen({ onUnhandledRequest: (request, print) => (new URL(request.url).hostname !== "127.0.0.1" ? print.error() : undefined) });
  app = await startTestApp({}, { resolver });
  user = await signUp(app, "preview");
});
afterAll(async () => {
  await app?.close();
  network.close();
});

describe("GET /api/workflow/preview", () => {
  it("shows the title, description, images and colours an ad would use, and charges nothing", async () => {
    const res = await user.client.get(`/workflow/preview?url=${encodeURIComponent("https://shop.example/mug")}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      readable: true,
      title: "Steel Travel Mug",
      description: "Keeps coffee hot for 12 hours.",
      images: ["https://shop.example/img/mug.jpg"],
      colors: expect.arrayContaining(["#0a84ff"]),
      warnings: [],
    });
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(10);
  });

  it("says plainly when it can read nothing, so the user knows before launching", async () => {
    const empty = await user.client.get(`/workflow/preview?url=${encodeURIComponent("https://empty.example/")}`);
    expect(empty.body.data).toMatchObject({ readable: false, warnings: ["https://empty.example/ has no title or description"] });
    const nowhere = await user.client.get(`/workflow/preview?url=${encodeURIComponent("https://nowhere.example/p")}`);
    expect(nowhere.status).toBe(200);
    expect(nowhere.body.data.readable).toBe(false);
    expect(nowhere.body.data.warnings[0]).toMatch(/nowhere\.example could not be resolved/);
  });

  it("refuses a private address and a non-http URL with a 400 naming url, on REST and GraphQL", async () => {
    const local = await user.client.get(`/workflow/preview?url=${encodeURIComponent("http://127.0.0.1:8080/admin")}`);
    expect(local.status).toBe(400);
    expect(local.body.error).toMatch(/^url /);
    const ftp = await user.client.get(`/workflow/preview?url=${encodeURIComponent("ftp://shop.example/x")}`);
    expect(ftp.body).toEqual({ success: false, error: "The page address must be a web address starting with http:// or https://" });
    const gql = await graphql(app.url, `{ workflowPreviewPage(url: "http://10.0.0.1/") { readable } }`, {}, user.jwt);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    expect((await new RestClient(app.url).get(`/workflow/preview?url=${encodeURIComponent("https://shop.example/mug")}`)).status).toBe(401);
  });
});
