// SSRF-safe outbound HTTP. The network is closed: host names resolve through fake resolvers and requests are
// answered by msw (which intercepts the node:http/https layer safeFetch uses). Connection pinning is checked
// against a real socket: a rebinding resolver and a real server on 127.0.0.1 that must never be reached.
import { createServer, request as rawRequest } from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { delay, HttpResponse, http, passthrough } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../src/errors.ts";
import {
  assertPublicUrl,
  createPinnedLookup,
  isPublicAddress,
  type Resolver,
  readPageMeta,
  SafeFetchError,
  safeFetch,
  safeFetchStream,
} from "../src/modules/net/index.ts";

const PUBLIC_IP = "93.184.216.34";
const CDN_IP = "151.101.1.69";

const DNS: Record<string, string[]> = {
  "shop.example": [PUBLIC_IP],
  "cdn.example": [CDN_IP],
  "v6.example": ["2606:2800:220:1:248:1893:25c8:1946"],
  "private.example": ["10.0.0.1"],
  "mixed.example": [PUBLIC_IP, "10.0.0.2"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "metadata.example": ["169.254.169.254"],
};

const lookups: string[] = [];
const resolver: Resolver = async (host) => {
  lookups.push(host);
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

const server = setupServer();
/** Every request that reached the transport (msw sees it before any connection is made). */
const sent: string[] = [];

beforeAll(() => {
  server.listen({ onUnhandledRequest: "error" });
  server.events.on("request:start", ({ request }) => {
    sent.push(`${request.method} ${request.url}`);
  });
});
beforeEach(() => {
  sent.length = 0;
  lookups.length = 0;
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A redirect answer; unlike HttpResponse.redirect it may carry a relative Location. */
function redirect(location: string, status = 302) {
  return new HttpResponse(null, { status, headers: { location } });
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const outcome = await promise.then(
    () => new Error("expected a rejection, got a result"),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(AppError);
  expect((outcome as AppError).code).toBe("BAD_REQUEST");
  expect((outcome as AppError).status).toBe(400);
  return outcome as AppError;
}

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.5",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "239.255.255.250",
    "0.0.0.0",
    "0.1.2.3",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "198.18.0.1",
    "192.0.0.8",
    "::",
    "::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::7f00:1",
    "::127.0.0.1",
    "::ffff:0:7f00:1",
    "64:ff9b::7f00:1",
    "64:ff9b::a00:1",
    "64:ff9b:1::1",
    "2002:7f00:1::",
    "2002:c0a8:101::1",
    "2001:0:4136:e378:8000:63bf:f5ff:fffe",
    "2001:db8::1",
    "3fff::1",
    "100::1",
    "0177.0.0.1",
    "2130706433",
    "0x7f.1",
    "[::1]",
    "localhost",
    "",
  ])("%s is not public", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    PUBLIC_IP,
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:2800:220:1:248:1893:25c8:1946",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is public", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("assertPublicUrl", () => {
  it("relies on WHATWG URL normalising numeric IPv4 hosts", () => {
    expect(new URL("http://2130706433/").hostname).toBe("127.0.0.1");
    expect(new URL("http://0177.0.0.1/").hostname).toBe("127.0.0.1");
    expect(new URL("http://0x7f.0.0.1/").hostname).toBe("127.0.0.1");
    expect(new URL("http://0x7f.1/").hostname).toBe("127.0.0.1");
    expect(new URL("http://[::ffff:127.0.0.1]/").hostname).toBe("[::ffff:7f00:1]");
  });

  const PRIVATE = /must not point to a private or local address/;
  it.each([
    ["http://127.0.0.1/", PRIVATE],
    ["http://localhost/", PRIVATE],
    ["http://LOCALHOST./", PRIVATE],
    ["http://foo.localhost/", PRIVATE],
    ["http://printer.local/", PRIVATE],
    ["http://metadata.google.internal/computeMetadata/v1/", PRIVATE],
    ["http://2130706433/", PRIVATE],
    ["http://0177.0.0.1/", PRIVATE],
    ["http://0x7f.0.0.1/", PRIVATE],
    ["http://0x7f.1/", PRIVATE],
    ["http://127.1/", PRIVATE],
    ["http://[::1]/", PRIVATE],
    ["http://[::ffff:127.0.0.1]/", PRIVATE],
    ["http://[::ffff:7f00:1]/", PRIVATE],
    ["http://[::]/", PRIVATE],
    ["http://10.0.0.5/", PRIVATE],
    ["http://172.16.0.1/", PRIVATE],
    ["http://192.168.1.1/", PRIVATE],
    ["http://169.254.169.254/latest/meta-data", PRIVATE],
    ["http://[fe80::1]/", PRIVATE],
    ["http://[fc00::1]/", PRIVATE],
    ["http://[64:ff9b::a9fe:a9fe]/", PRIVATE],
    ["http://0.0.0.0/", PRIVATE],
    ["http://100.64.0.1/", PRIVATE],
    ["http://224.0.0.1/", PRIVATE],
    ["http://private.example/", PRIVATE],
    ["http://mixed.example/", PRIVATE],
    ["http://mapped.example/", PRIVATE],
    ["http://metadata.example/", PRIVATE],
    ["ftp://x/", /url must use http or https/],
    ["file:///etc/passwd", /url must use http or https/],
    ["javascript:alert(1)", /url must use http or https/],
    ["https://user:pass@shop.example/", /must not contain a user name or password/],
    ["https://user@shop.example/", /must not contain a user name or password/],
    ["not a url", /valid absolute URL/],
    ["https://nowhere.example/", /url could not be resolved/],
  ])("rejects %s", async (url, message) => {
    const error = await rejection(assertPublicUrl(url, { resolver }));
    expect(error.message).toMatch(message);
    expect(error).toBeInstanceOf(SafeFetchError);
  });

  it("rejects a private host without asking DNS, and a resolved one after asking", async () => {
    await rejection(assertPublicUrl("http://10.0.0.5/", { resolver }));
    await rejection(assertPublicUrl("http://private.example/", { resolver }));
    expect(lookups).toEqual(["private.example"]);
  });

  it("answers the parsed URL and the checked addresses", async () => {
    const checked = await assertPublicUrl("https://Shop.Example/a?b=1#c", { resolver });
    expect(checked.url.href).toBe("https://shop.example/a?b=1#c");
    expect(checked.addresses).toEqual([PUBLIC_IP]);
    expect((await assertPublicUrl("http://8.8.8.8:8080/", { resolver })).addresses).toEqual(["8.8.8.8"]);
    expect((await assertPublicUrl(new URL("https://v6.example/"), { resolver })).addresses).toEqual(DNS["v6.example"]);
    expect((await assertPublicUrl("https://[2606:4700:4700::1111]/", { resolver })).addresses).toEqual(["2606:4700:4700::1111"]);
  });

  it("enforces protocols and allowedHosts", async () => {
    const https = await rejection(assertPublicUrl("http://shop.example/", { resolver, protocols: ["https:"] }));
    expect(https.message).toBe("url must use https");

    const notAllowed = await rejection(assertPublicUrl("https://shop.example/v.mp4", { resolver, allowedHosts: ["a.com", "b.com"] }));
    expect(notAllowed.message).toBe("url host shop.example is not allowed; allowed hosts: a.com, b.com");

    const exactOnly = await rejection(assertPublicUrl("https://evil.shop.example/", { resolver, allowedHosts: ["shop.example"] }));
    expect(exactOnly.message).toMatch(/not allowed/);

    await expect(assertPublicUrl("https://shop.example/v.mp4", { resolver, allowedHosts: [" SHOP.Example "] })).resolves.toBeTruthy();
    await expect(assertPublicUrl("https://shop.example:8443/", { resolver, allowedHosts: ["shop.example:8443"] })).resolves.toBeTruthy();
    await rejection(assertPublicUrl("https://shop.example:9443/", { resolver, allowedHosts: ["shop.example:8443"] }));

    // An allowed host is still checked for private addresses.
    await rejection(assertPublicUrl("http://localhost/", { resolver, allowedHosts: ["localhost"] }));
    await rejection(assertPublicUrl("http://private.example/", { resolver, allowedHosts: ["private.example"] }));
  });
});

describe("safeFetch", () => {
  it("fetches a public page", async () => {
    server.use(
      http.get("https://shop.example/", ({ request }) =>
        HttpResponse.text(`hello ${request.headers.get("x-test")}`, { headers: { "x-served-by": "msw" } }),
      ),
    );
    const response = await safeFetch("https://shop.example/", { resolver, headers: { "X-Test": "yes" } });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("hello yes");
    expect(response.headers.get("x-served-by")).toBe("msw");
    expect(response.url).toBe("https://shop.example/");
    expect(response.redirects).toEqual([]);
    expect(lookups).toEqual(["shop.example"]);
  });

  it("answers error statuses instead of throwing, and supports HEAD", async () => {
    server.use(
      http.get("https://shop.example/missing", () => HttpResponse.text("nope", { status: 404 })),
      http.head("https://shop.example/video.mp4", () => new HttpResponse(null, { headers: { "content-type": "video/mp4" } })),
    );
    const missing = await safeFetch("https://shop.example/missing", { resolver });
    expect(missing.status).toBe(404);
    const head = await safeFetch("https://shop.example/video.mp4", { resolver, method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("video/mp4");
    expect(head.body.length).toBe(0);
  });

  it("POSTs a body (webhook deliveries); 307 keeps it, 303 turns it into a GET", async () => {
    const seen: string[] = [];
    server.use(
      http.post("https://shop.example/hook", async ({ request }) => {
        seen.push(
          `${request.method} ${request.headers.get("content-type")} ${request.headers.get("content-length")} ${await request.text()}`,
        );
        return HttpResponse.text("accepted", { status: 202 });
      }),
      http.post("https://shop.example/moved", () => redirect("/hook", 307)),
      http.post("https://shop.example/see-other", () => redirect("/done", 303)),
      http.get("https://shop.example/done", ({ request }) => {
        seen.push(`${request.method} ${request.headers.get("content-type")}`);
        return HttpResponse.text("done");
      }),
    );
    const post = { resolver, method: "POST" as const, body: '{"a":1}', headers: { "content-type": "application/json" } };
    expect((await safeFetch("https://shop.example/hook", post)).status).toBe(202);
    expect((await safeFetch("https://shop.example/moved", post)).status).toBe(202);
    expect((await safeFetch("https://shop.example/see-other", post)).body.toString()).toBe("done");
    expect(seen).toEqual(['POST application/json 7 {"a":1}', 'POST application/json 7 {"a":1}', "GET null"]);
  });

  it.each([
    "http://127.0.0.1/",
    "http://localhost/",
    "http://2130706433/",
    "http://[::ffff:7f00:1]/",
    "http://169.254.169.254/latest/meta-data",
    "http://private.example/",
    "http://mixed.example/",
    "file:///etc/passwd",
    "https://user:pass@shop.example/",
  ])("refuses %s before sending anything", async (url) => {
    const error = await rejection(safeFetch(url, { resolver }));
    expect((error as SafeFetchError).reason).toBe("unsafe_url");
    expect(sent).toEqual([]);
  });

  it("follows a redirect to another public host and lists the hops", async () => {
    server.use(
      http.get("https://shop.example/go", () => HttpResponse.redirect("https://cdn.example/landing?x=1", 302)),
      http.get("https://cdn.example/landing", () => redirect("/final", 301)),
      http.get("https://cdn.example/final", () => HttpResponse.text("arrived")),
    );
    const response = await safeFetch("https://shop.example/go", { resolver });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("arrived");
    expect(response.url).toBe("https://cdn.example/final");
    expect(response.redirects).toEqual(["https://cdn.example/landing?x=1", "https://cdn.example/final"]);
    expect(lookups).toEqual(["shop.example", "cdn.example", "cdn.example"]);
  });

  it("drops credentials when a redirect leaves the origin", async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.get("https://shop.example/private", ({ request }) => {
        seen.push(request.headers.get("authorization"));
        return HttpResponse.redirect("https://cdn.example/file", 302);
      }),
      http.get("https://cdn.example/file", ({ request }) => {
        seen.push(request.headers.get("authorization"));
        return HttpResponse.text("ok");
      }),
    );
    await safeFetch("https://shop.example/private", { resolver, headers: { Authorization: "Bearer secret" } });
    expect(seen).toEqual(["Bearer secret", null]);
  });

  it.each([
    ["http://127.0.0.1/admin", "http://127.0.0.1/admin"],
    ["http://[::1]:8080/", "http://[::1]:8080/"],
    ["//private.example/x", "https://private.example/x"],
    ["http://169.254.169.254/latest/meta-data", "http://169.254.169.254/latest/meta-data"],
  ])("refuses a redirect to %s without following it", async (location, absolute) => {
    server.use(http.get("https://shop.example/go", () => new HttpResponse(null, { status: 302, headers: { location } })));
    const error = await rejection(safeFetch("https://shop.example/go", { resolver }));
    expect(error.message).toBe(`redirect to ${absolute} refused: url must not point to a private or local address`);
    expect((error as SafeFetchError).reason).toBe("unsafe_url");
    expect(sent).toEqual(["GET https://shop.example/go"]);
  });

  it("refuses a redirect that leaves the allowed protocols or hosts", async () => {
    server.use(http.get("https://shop.example/go", () => HttpResponse.redirect("http://cdn.example/", 302)));
    const downgrade = await rejection(safeFetch("https://shop.example/go", { resolver, protocols: ["https:"] }));
    expect(downgrade.message).toBe("redirect to http://cdn.example/ refused: url must use https");

    server.use(http.get("https://shop.example/elsewhere", () => HttpResponse.redirect("https://cdn.example/", 302)));
    const host = await rejection(safeFetch("https://shop.example/elsewhere", { resolver, allowedHosts: ["shop.example"] }));
    expect(host.message).toMatch(/cdn\.example is not allowed; allowed hosts: shop\.example$/);
  });

  it("stops after maxRedirects", async () => {
    server.use(http.get("https://shop.example/loop/:n", ({ params }) => redirect(`/loop/${Number(params.n) + 1}`)));
    const error = await rejection(safeFetch("https://shop.example/loop/0", { resolver, maxRedirects: 3 }));
    expect(error.message).toBe("url redirected more than 3 times");
    expect(sent).toHaveLength(4);

    sent.length = 0;
    await rejection(safeFetch("https://shop.example/loop/0", { resolver }));
    expect(sent).toHaveLength(6);
  });

  it("refuses a body larger than maxBytes, declared or streamed", async () => {
    server.use(
      http.get("https://shop.example/big", () => HttpResponse.text("x".repeat(2000))),
      http.get("https://shop.example/chunked", () => {
        const chunk = new Uint8Array(400).fill(120);
        let sentChunks = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sentChunks++ < 10) controller.enqueue(chunk);
            else controller.close();
          },
        });
        return new HttpResponse(stream, { headers: { "content-type": "application/octet-stream" } });
      }),
    );
    const declared = await rejection(safeFetch("https://shop.example/big", { resolver, maxBytes: 1000 }));
    expect(declared.message).toBe("response from https://shop.example/big is larger than the 1000-byte limit");

    const streamed = await rejection(safeFetch("https://shop.example/chunked", { resolver, maxBytes: 1000 }));
    expect((streamed as SafeFetchError).reason).toBe("too_large");

    expect((await safeFetch("https://shop.example/chunked", { resolver, maxBytes: 4000 })).body.length).toBe(4000);
  });

  it("times out", async () => {
    server.use(
      http.get("https://shop.example/slow", async () => {
        await delay(5000);
        return HttpResponse.text("late");
      }),
    );
    const started = Date.now();
    const error = await rejection(safeFetch("https://shop.example/slow", { resolver, timeoutMs: 200 }));
    expect(error.message).toBe("request to https://shop.example/slow timed out after 200 ms");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("reports a network failure as a 400 naming the URL", async () => {
    server.use(http.get("https://shop.example/broken", () => HttpResponse.error()));
    const error = await rejection(safeFetch("https://shop.example/broken", { resolver }));
    expect(error.message).toMatch(/^could not fetch https:\/\/shop\.example\/broken: /);
    expect((error as SafeFetchError).reason).toBe("network");
  });

  it("passes a caller's abort through", async () => {
    server.use(
      http.get("https://shop.example/slow", async () => {
        await delay(5000);
        return HttpResponse.text("late");
      }),
    );
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    setTimeout(() => controller.abort(reason), 50);
    await expect(safeFetch("https://shop.example/slow", { resolver, signal: controller.signal })).rejects.toBe(reason);
  });
});

describe("safeFetchStream", () => {
  it("streams a public download without buffering it", async () => {
    server.use(
      http.get("https://shop.example/start", () => HttpResponse.redirect("https://cdn.example/video.mp4", 302)),
      http.get(
        "https://cdn.example/video.mp4",
        () => new HttpResponse(new Uint8Array(3000).fill(7), { headers: { "content-type": "video/mp4" } }),
      ),
    );
    const response = await safeFetchStream("https://shop.example/start", { resolver });
    expect(response.status).toBe(200);
    expect(response.url).toBe("https://cdn.example/video.mp4");
    expect(response.headers.get("content-type")).toBe("video/mp4");
    const bytes = new Uint8Array(await new Response(response.body).arrayBuffer());
    expect(bytes.length).toBe(3000);
    expect(bytes.every((b) => b === 7)).toBe(true);
  });

  it("applies the same checks before anything is sent", async () => {
    await rejection(safeFetchStream("http://192.168.1.1/video.mp4", { resolver }));
    await rejection(safeFetchStream("https://shop.example/video.mp4", { resolver, allowedHosts: ["cdn.example"] }));
    expect(sent).toEqual([]);
  });

  it("errors the stream past maxBytes", async () => {
    server.use(
      http.get("https://cdn.example/huge.mp4", () => {
        // Streamed (no content-length), so only counting the bytes can catch it.
        const chunk = new Uint8Array(500).fill(1);
        let count = 0;
        return new HttpResponse(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (count++ < 20) controller.enqueue(chunk);
              else controller.close();
            },
          }),
        );
      }),
    );
    const response = await safeFetchStream("https://cdn.example/huge.mp4", { resolver, maxBytes: 2000 });
    expect(response.headers.get("content-length")).toBeNull();
    const error = await rejection(new Response(response.body).arrayBuffer());
    expect((error as SafeFetchError).reason).toBe("too_large");
  });
});

describe("readPageMeta", () => {
  const page = `<!doctype html>
<html><head>
  <meta charset="utf-8">
  <title>  Acme Shoes — Run Faster </title>
  <meta name="description" content="Lightweight running shoes.">
  <meta property="og:site_name" content="Acme">
  <meta property="og:image" content="/img/hero.jpg">
  <meta name="twitter:image" content="https://cdn.example/tw.png">
  <meta name="theme-color" content="#FF5722">
  <style>
    /* #abcdef in a comment is ignored */
    body { color: #111111; background: #ffffff; }
    #fade, .cta { background-color: #1e88e5; border: 1px solid rgb(30, 136, 229); }
    .badge { color: #2E7D32 }
    a:hover { color: #1e88e5 }
    .muted { color: #888; }
  </style>
</head><body>
  <div style="background: #e91e63; color: #fafafa">Sale</div>
  <img src="/products/large.png" width="640" height="480">
  <img src="/icons/tiny.png" width="16" height="16">
</body></html>`;

  it("extracts title, description, images and colours", async () => {
    server.use(
      http.get("https://shop.example/", () => HttpResponse.redirect("https://shop.example/home", 301)),
      http.get("https://shop.example/home", () => HttpResponse.html(page)),
    );
    const meta = await readPageMeta("https://shop.example/", { resolver });
    expect(meta).toEqual({
      url: "https://shop.example/home",
      title: "Acme Shoes — Run Faster",
      description: "Lightweight running shoes.",
      siteName: "Acme",
      images: ["https://shop.example/img/hero.jpg", "https://cdn.example/tw.png", "https://shop.example/products/large.png"],
      colors: ["#ff5722", "#1e88e5", "#2e7d32", "#e91e63"],
      warnings: [],
    });
  });

  it("falls back to Open Graph fields and honours <base>", async () => {
    server.use(
      http.get("https://shop.example/og", () =>
        HttpResponse.html(`<html><head><base href="https://cdn.example/assets/">
          <meta property="og:title" content="OG title"><meta property="og:description" content="OG description">
          <meta property="og:image" content="hero.png"></head><body></body></html>`),
      ),
    );
    const meta = await readPageMeta("https://shop.example/og", { resolver });
    expect(meta.title).toBe("OG title");
    expect(meta.description).toBe("OG description");
    expect(meta.siteName).toBeNull();
    expect(meta.images).toEqual(["https://cdn.example/assets/hero.png"]);
    expect(meta.colors).toEqual([]);
  });

  it("warns instead of throwing for a page answering 500", async () => {
    server.use(http.get("https://shop.example/down", () => HttpResponse.text("oops", { status: 500 })));
    const meta = await readPageMeta("https://shop.example/down", { resolver });
    expect(meta).toMatchObject({ url: "https://shop.example/down", title: null, description: null, images: [], colors: [] });
    expect(meta.warnings).toEqual(["could not fetch https://shop.example/down: HTTP 500"]);
  });

  it("warns instead of throwing when the host cannot be resolved or the page is broken", async () => {
    const failing: Resolver = async () => {
      throw new Error("SERVFAIL");
    };
    const unresolved = await readPageMeta("https://shop.example/", { resolver: failing });
    expect(unresolved.title).toBeNull();
    expect(unresolved.warnings).toEqual(["could not fetch https://shop.example/: shop.example could not be resolved"]);

    server.use(
      http.get("https://shop.example/broken", () => HttpResponse.error()),
      http.get("https://shop.example/slow", async () => {
        await delay(5000);
        return HttpResponse.html("<title>late</title>");
      }),
      http.get("https://shop.example/logo.png", () =>
        HttpResponse.arrayBuffer(new ArrayBuffer(8), { headers: { "content-type": "image/png" } }),
      ),
    );
    expect((await readPageMeta("https://shop.example/broken", { resolver })).warnings[0]).toMatch(
      /^could not fetch https:\/\/shop\.example\/broken: /,
    );
    expect((await readPageMeta("https://shop.example/slow", { resolver, timeoutMs: 100 })).warnings).toEqual([
      "could not fetch https://shop.example/slow: timed out after 100 ms",
    ]);
    expect((await readPageMeta("https://shop.example/logo.png", { resolver })).warnings).toEqual([
      "https://shop.example/logo.png is not an HTML page (content-type image/png)",
    ]);
  });

  it("throws a 400 for a URL that must not be fetched, also behind a redirect", async () => {
    const direct = await rejection(readPageMeta("http://169.254.169.254/latest/meta-data", { resolver }));
    expect(direct.message).toBe("url must not point to a private or local address");
    await rejection(readPageMeta("ftp://shop.example/", { resolver }));

    server.use(http.get("https://shop.example/sneaky", () => HttpResponse.redirect("http://127.0.0.1/admin", 302)));
    const redirected = await rejection(readPageMeta("https://shop.example/sneaky", { resolver }));
    expect(redirected.message).toMatch(/^redirect to http:\/\/127\.0\.0\.1\/admin refused/);
  });
});

describe("connection pinning", () => {
  it("createPinnedLookup answers only the validated addresses", async () => {
    const lookup = createPinnedLookup("shop.example", [PUBLIC_IP, "2606:2800:220:1:248:1893:25c8:1946"]);
    const call = (host: string, options: Parameters<typeof lookup>[1]) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
        lookup(host, options, (error, address, family) => resolve({ error, address, family })),
      );
    expect(await call("shop.example", {})).toEqual({ error: null, address: PUBLIC_IP, family: 4 });
    expect(await call("SHOP.example.", { family: 6 })).toEqual({ error: null, address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 });
    expect((await call("shop.example", { all: true })).address).toEqual([
      { address: PUBLIC_IP, family: 4 },
      { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
    ]);
    expect((await call("evil.example", {})).error?.code).toBe("ENOTFOUND");
  });

  describe("against a real socket", () => {
    let local: ReturnType<typeof createServer>;
    let port = 0;
    let hits = 0;
    /** The address each outgoing socket was about to connect to, as reported by node:net itself. */
    let attempts: string[] = [];

    beforeAll(async () => {
      local = createServer((_req, res) => {
        hits++;
        res.end("internal secret");
      });
      await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
      port = (local.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => local.close(() => resolve())));

    beforeEach(() => {
      hits = 0;
      attempts = [];
      const connect = net.Socket.prototype.connect;
      vi.spyOn(net.Socket.prototype, "connect").mockImplementation(function (this: net.Socket, ...args: unknown[]) {
        this.once("connectionAttempt", (address: string) => {
          attempts.push(address);
          // Keep the test off the real network: drop any connection that is not to the local server.
          if (address !== "127.0.0.1") process.nextTick(() => this.destroy(new Error(`test network closed (${address})`)));
        });
        return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
      });
    });
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** Public for the first answer (the check), loopback for every later one (the connect, if it asked). */
    function rebinding(): Resolver & { calls: number } {
      const fn = Object.assign(
        async () => {
          fn.calls++;
          return fn.calls === 1 ? [PUBLIC_IP] : ["127.0.0.1"];
        },
        { calls: 0 },
      );
      return fn;
    }

    it("the harness would catch an unpinned client: re-resolving at connect time reaches 127.0.0.1", async () => {
      const dns = rebinding();
      await dns("rebind.example"); // the check saw the public address…
      const body = await new Promise<string>((resolve, reject) => {
        server.use(http.all("http://rebind.example:*/*", () => passthrough()));
        const req = rawRequest(
          {
            hostname: "rebind.example",
            port,
            path: "/",
            agent: false,
            // …but a naive client asks DNS again when it connects.
            lookup: (host, options, callback) => {
              dns(host).then(([address]) =>
                options.all ? callback(null, [{ address: address!, family: 4 }]) : callback(null, address!, 4),
              );
            },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk) => {
              text += chunk;
            });
            res.on("end", () => resolve(text));
          },
        );
        req.on("error", reject);
        req.end();
      });
      expect(body).toBe("internal secret");
      expect(hits).toBe(1);
      expect(attempts).toEqual(["127.0.0.1"]);
    });

    it.each([
      ["through the msw interceptor (pass-through)", true],
      ["with no interceptor installed", false],
    ])("safeFetch connects only to the validated address when DNS rebinds, %s", async (_label, intercepted) => {
      if (intercepted) server.use(http.all("http://rebind.example:*/*", () => passthrough()));
      else server.close();
      try {
        const dns = rebinding();
        const outcome = await safeFetch(`http://rebind.example:${port}/secret`, { resolver: dns, timeoutMs: 2000 }).then(
          (response) => response.body.toString(),
          (error: unknown) => error,
        );
        expect(hits).toBe(0);
        expect(dns.calls).toBe(1);
        expect(attempts).toEqual([PUBLIC_IP]);
        expect(outcome).toBeInstanceOf(SafeFetchError);
        expect((outcome as SafeFetchError).message).toContain(`test network closed (${PUBLIC_IP})`);
      } finally {
        if (!intercepted) server.listen({ onUnhandledRequest: "error" });
      }
    });

    it("a redirect hop is pinned to its own validated address", async () => {
      server.use(
        http.get("https://shop.example/to-rebind", () => HttpResponse.redirect(`http://rebind.example:${port}/secret`, 302)),
        http.all("http://rebind.example:*/*", () => passthrough()),
      );
      const dns = rebinding();
      const hopResolver: Resolver = (host) => (host === "rebind.example" ? dns(host) : resolver(host));
      const outcome = await safeFetch("https://shop.example/to-rebind", { resolver: hopResolver, timeoutMs: 2000 }).catch(
        (e: unknown) => e,
      );
      expect(outcome).toBeInstanceOf(SafeFetchError);
      expect(hits).toBe(0);
      expect(dns.calls).toBe(1);
      expect(attempts).toEqual([PUBLIC_IP]);
    });
  });
});
