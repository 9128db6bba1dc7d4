// Web pages in the knowledge base, as SPEC says: adding one answers 200 at once with the item
// `extracting`; the page is fetched on the queue with the SSRF-safe fetcher and the item becomes `ready`
// (its readable text kept: no scripts, styles or navigation) or `error` with a message the user can read.
// A private, loopback, metadata or encoded address answers 400 at once and adds nothing; a redirect to
// one is refused when the fetch follows it. At most 10 per account. The network is closed: host names
// resolve through a fake resolver and msw answers the requests, so nothing leaves this machine.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";
import { settled } from "./support/knowledge-files.ts";

// A globally routable address the fake resolver hands out; msw answers before any connection is made.
const SITE_IP = "93.184.216.34";
const resolver: Resolver = async (host) => {
  if (host.endsWith("brewly.example")) return [SITE_IP];
  if (host === "intranet.example") return ["10.1.2.3"];
  if (host === "down.example") return ["93.184.216.35"];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

const ABOUT = `<!doctype html><html><head><title>About Brewly</title><style>.x{color:red}</style>
<script>window.tracking = "do not keep";</script></head>
<body><nav>Home · Shop · Login</nav><main><h1>Our story</h1><p>Brewly is cold-brewed for 20 hours in Tromsø.</p>
<ul><li>Fair-trade beans</li><li>Zero sugar</li></ul></main><footer>© Brewly AS</footer></body></html>`;

let downIsBack = false;
const network = setupServer(
  http.get("https://brewly.example/about", () => HttpResponse.html(ABOUT)),
  http.get(/https:\/\/brewly\.example\/page-\d+/, ({ request }) => HttpResponse.html(`<p>Page ${new URL(request.url).pathname}</p>`)),
  http.get(
    "https://brewly.example/to-private",
    () => new HttpResponse(null, { status: 302, headers: { location: "http://10.0.0.7/admin" } }),
  ),
  http.get(
    "https://brewly.example/to-metadata",
    () => new HttpResponse(null, { status: 301, headers: { location: "http://169.254.169.254/latest/meta-data/" } }),
  ),
  // A public address where nothing answers: the connection fails.
  http.get("https://down.example/", () =>
    downIsBack ? HttpResponse.html("<main><p>Back online: oat lattes.</p></main>") : HttpResponse.error(),
  ),
  http.get(
    "https://brewly.example/logo.png",
    () => new HttpResponse(new Uint8Array([0x89, 0x50]), { headers: { "content-type": "image/png" } }),
  ),
);

let app: TestApp;
let user: Account;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ WORKERS: "1" }, { resolver });
  user = await signUp(app, "knowledge-urls");
});
afterAll(async () => {
  await app?.close();
  network.close();
});

const list = async () => (await user.client.get("/user/brand/knowledge")).body.data as any[];

describe("adding a page", () => {
  it("keeps the page's readable text, without scripts, styles or navigation", async () => {
    const res = await user.client.post("/user/brand/knowledge/urls", { url: "https://brewly.example/about" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      type: "url",
      status: "extracting",
      sourceUrl: "https://brewly.example/about",
      mimeType: "text/html",
    });
    const item = await settled(user, res.body.data[0].id);
    expect(item.status).toBe("ready");
    expect(item.extractedText).toContain("Our story");
    expect(item.extractedText).toContain("Brewly is cold-brewed for 20 hours in Tromsø.");
    expect(item.extractedText).toContain("Zero sugar");
    expect(item.extractedText).not.toMatch(/tracking|color:red|Login|© Brewly/);
  });

  it("something that is not a web page ends as an error item saying what to do instead", async () => {
    const res = await user.client.post("/user/brand/knowledge/urls", { url: "https://brewly.example/logo.png" });
    expect(res.status).toBe(200);
    const item = await settled(user, res.body.data[0].id);
    expect(item).toMatchObject({ status: "error", extractedText: "" });
    expect(item.error).toMatch(/is not a web page \(it is image\/png\); upload documents as files instead/);
  });
});

describe("a page that cannot be reached", () => {
  it.each([
    ["an unreachable public address", "https://down.example/", /^Could not read https:\/\/down\.example\/: .+\. Check the address/],
    ["a name that does not resolve now", "https://nowhere.example/shop", /nowhere\.example could not be resolved\. Check the address/],
  ])("%s answers 200 `extracting` at once, then becomes `error` with a readable message", async (_what, url, message) => {
    const started = Date.now();
    const res = await user.client.post("/user/brand/knowledge/urls", { url });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(res.body.data).toMatchObject([{ type: "url", status: "extracting", sourceUrl: url, error: null }]);
    const item = await settled(user, res.body.data[0].id);
    expect(item.status).toBe("error");
    expect(item.error).toMatch(message);
  });
});

describe("trying an item again", () => {
  it("fetches the page anew: an error item becomes ready once the site is back, keeping its id", async () => {
    downIsBack = false;
    const res = await user.client.post("/user/brand/knowledge/urls", { url: "https://down.example/" });
    const id = res.body.data[0].id;
    expect((await settled(user, id)).status).toBe("error");
    downIsBack = true;
    const retried = await user.client.post(`/user/brand/knowledge/${id}/retry`, {});
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data).toMatchObject({ id, status: "extracting", error: null });
    const item = await settled(user, id);
    expect(item).toMatchObject({ id, status: "ready" });
    expect(item.extractedText).toContain("Back online: oat lattes.");
    // Only a failed item can be tried again; another account's is not found.
    const again = await user.client.post(`/user/brand/knowledge/${id}/retry`, {});
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already read; only one that failed can be tried again/);
    const stranger = await signUp(app, "knowledge-stranger");
    expect((await stranger.client.post(`/user/brand/knowledge/${id}/retry`, {})).status).toBe(404);
    await user.client.delete(`/user/brand/knowledge/${id}`);
  });
});

describe("private addresses (SSRF)", () => {
  it.each([
    ["loopback", "http://127.0.0.1:3000/"],
    ["localhost", "http://localhost/"],
    ["IPv6 loopback", "http://[::1]/"],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
    ["a decimal-encoded loopback", "http://2130706433/"],
    ["a hex-encoded loopback", "http://0x7f000001/"],
    ["a short-form loopback", "http://127.1/"],
    ["an IPv4-mapped IPv6 loopback", "http://[::ffff:127.0.0.1]/"],
    ["a name that resolves to a private address", "http://intranet.example/"],
  ])("refuses %s with 400 and adds nothing", async (_what, url) => {
    const before = (await list()).length;
    const res = await user.client.post("/user/brand/knowledge/urls", { url });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatch(/private|local|not allowed|could not|must/i);
    expect(await list()).toHaveLength(before);
  });

  it.each([
    ["a private address", "https://brewly.example/to-private"],
    ["the metadata address", "https://brewly.example/to-metadata"],
  ])("a redirect to %s is refused when the fetch follows it: the item ends as an error, nothing fetched there", async (_what, url) => {
    const res = await user.client.post("/user/brand/knowledge/urls", { url });
    expect(res.status).toBe(200);
    const item = await settled(user, res.body.data[0].id);
    expect(item).toMatchObject({ status: "error", extractedText: "" });
    expect(item.error).toMatch(/private or local address/);
  });

  it("adds none of a list when one address is private", async () => {
    const before = (await list()).length;
    const res = await user.client.post("/user/brand/knowledge/urls", { urls: ["https://brewly.example/page-1", "http://10.0.0.1/"] });
    expect(res.status).toBe(400);
    expect(await list()).toHaveLength(before);
  });
});

describe("the limit of 10 pages", () => {
  it("takes 10; the 11th answers 400 and stores nothing", async () => {
    for (const item of await list()) await user.client.delete(`/user/brand/knowledge/${item.id}`);
    const nine = Array.from({ length: 9 }, (_, i) => `https://brewly.example/page-${i + 1}`);
    const first = await user.client.post("/user/brand/knowledge/urls", { urls: nine });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toHaveLength(9);
    // Two more would be 11: neither is added.
    const two = await user.client.post("/user/brand/knowledge/urls", {
      urls: ["https://brewly.example/page-10", "https://brewly.example/page-11"],
    });
    expect(two.status).toBe(400);
    expect(two.body.error).toMatch(/at most 10 web pages/);
    expect(await list()).toHaveLength(9);
    expect((await user.client.post("/user/brand/knowledge/urls", { url: "https://brewly.example/page-10" })).status).toBe(200);
    const eleventh = await user.client.post("/user/brand/knowledge/urls", { url: "https://brewly.example/page-11" });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.error).toMatch(/already holds 10 web pages, the most it can/);
    expect(await list()).toHaveLength(10);
  });

  it("refuses a list longer than 10 with a 400 naming the field", async () => {
    const urls = Array.from({ length: 11 }, (_, i) => `https://brewly.example/page-${i + 1}`);
    const res = await user.client.post("/user/brand/knowledge/urls", { urls });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/urls may hold at most 10/);
  });

  it("asks for a url when none is given", async () => {
    const res = await user.client.post("/user/brand/knowledge/urls", {});
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/url is required/);
  });
});
