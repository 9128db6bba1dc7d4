// brand (Brand Clone): the job reads the brand's site (served by msw behind a fake resolver; the network
// is closed) for its colours, logo, fonts, tone and claims, saves them to the brand profile as its kit
// (GET /api/user/brand shows it; colours and logo the user set are kept), and the result carries it. The
// user can edit the kit; a bad one is a 400 naming the field. Without a url or a websiteUrl the launch is a
// 400 that charges nothing.
import { createCanvas } from "@napi-rs/canvas";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const SITE = "https://northwind-coffee.example";
const DNS: Record<string, string[]> = { "northwind-coffee.example": ["93.184.216.50"], "fonts.googleapis.com": ["142.250.74.10"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

// A brand's home page: a theme colour, a linked style sheet, Google Fonts, a logo in the header (and in
// its JSON-LD), copy with claims, a menu and fine print that are not copy.
const PAGE = `<!doctype html><html lang="en"><head>
<meta charset="utf-8">
<title>Northwind Coffee — small-batch roasters</title>
<meta name="description" content="Small-batch coffee, roasted to order in Portland.">
<meta name="theme-color" content="#7b3f00">
<link rel="stylesheet" href="/css/site.css">
<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Playfair+Display:wght@700&family=Work+Sans:wght@400;600&display=swap">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<style>.hero { background: #7b3f00; color: #fff } .cta { background-color: #e8a33d; font-family: "Work Sans", sans-serif; }</style>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Northwind Coffee","logo":"${SITE}/img/northwind-logo.png"}</script>
</head><body>
<header><a class="site-logo" href="/"><img src="/img/northwind-logo.png" alt="Northwind Coffee"></a>
<nav><ul><li><a href="/shop">Shop the best coffee</a></li><li><a href="/about">About us</a></li></ul></nav></header>
<main>
<section class="hero">
<h1>Coffee you'll actually look forward to.</h1>
<p>We roast every bag to order, so your beans arrive fresh. Our farmers are paid 40% above fair-trade prices.</p>
</section>
<ul class="perks"><li>Free shipping on orders over $30.</li><li>Rated 4.9 out of 5 by 12,000 customers.</li><li>Roasted in Portland since 2009.</li></ul>
<p>Love it or your money back, guaranteed.</p>
<h2>Why do people switch?</h2>
<p>You pick the roast, we handle the rest. It's simple, and it's honest coffee.</p>
<a class="cta" href="/shop">Find your roast</a>
</main>
<footer><p>© 2024 Northwind Coffee. The best coffee company in all of Portland, probably.</p></footer>
</body></html>`;

const STYLESHEET = `:root { --font-heading: "Playfair Display", Georgia, serif; --font-size-lg: 1.25rem; }
body { font-family: "Work Sans", Helvetica, Arial, sans-serif; color: #2b2b2b; }
h1, h2 { font-family: var(--font-heading); color: #7b3f00; }
.btn { background: #e8a33d; font: 600 1rem/1.2 "Work Sans", sans-serif; }
code { font-family: ui-monospace, Menlo, monospace; }
.icon { font-family: "Font Awesome 6 Free"; }`;

async function logoPng(): Promise<ArrayBuffer> {
  const canvas = createCanvas(240, 80);
  const g = canvas.getContext("2d");
  g.fillStyle = "#7b3f00";
  g.fillRect(0, 0, 240, 80);
  const bytes = await canvas.encode("png");
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

const network = setupServer(
  http.get(`${SITE}/`, () => HttpResponse.html(PAGE)),
  http.get(`${SITE}/css/site.css`, () => new HttpResponse(STYLESHEET, { headers: { "content-type": "text/css" } })),
  http.get(`${SITE}/img/northwind-logo.png`, async () => new HttpResponse(await logoPng(), { headers: { "content-type": "image/png" } })),
  http.get(`${SITE}/apple-touch-icon.png`, async () => new HttpResponse(await logoPng(), { headers: { "content-type": "image/png" } })),
);

let app: TestApp;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2", SIGNUP_CREDITS: "100" }, { resolver });
});
afterAll(async () => {
  await app?.close();
  network.close();
});

/** A signed-up account on a plan that offers the brand film (trial accounts cannot launch it). */
async function brandAccount(prefix: string): Promise<Account> {
  const account = await signUp(app, prefix);
  await app.services.prisma.user.update({ where: { id: account.id }, data: { currentPlanId: "subscription_pro" } });
  return account;
}

async function waitForJob(account: Account, jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await account.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function runBrandJob(account: Account, body: Record<string, unknown>) {
  const launched = await account.client.post("/workflow", { type: "brand", concept: "Our story, told in fifteen seconds", ...body });
  expect(launched.status, JSON.stringify(launched.body)).toBe(200);
  const job = await waitForJob(account, launched.body.data.jobId);
  expect(job.status, job.error).toBe("completed");
  return job;
}

const EXPECTED_CLAIMS = [
  "Our farmers are paid 40% above fair-trade prices.",
  "Free shipping on orders over $30.",
  "Rated 4.9 out of 5 by 12,000 customers.",
  "Love it or your money back, guaranteed.",
];

describe("a brand job", () => {
  it("writes the site's kit to the brand profile, and the result carries it", { timeout: 120_000 }, async () => {
    const user = await brandAccount("kit");
    const job = await runBrandJob(user, { url: `${SITE}/` });

    const profile = (await user.client.get("/user/brand")).body.data;
    const kit = profile.brandKit;
    expect(kit).toMatchObject({ sourceUrl: `${SITE}/`, logoUrl: `${SITE}/img/northwind-logo.png` });
    // Theme colour first, then the CSS's (inline and linked), greys left out.
    expect(kit.colors).toEqual(["#7b3f00", "#e8a33d"]);
    // Most used first: Work Sans (Google Fonts, body, .cta, .btn) over Playfair Display (Google Fonts,
    // --font-heading and its use); no fallbacks, system stacks or icon fonts.
    expect(kit.fonts).toEqual(["Work Sans", "Playfair Display"]);
    // Claims word for word, in reading order; questions, menus and the footer's fine print are not claims.
    expect(kit.claims).toEqual(EXPECTED_CLAIMS);
    // Copy that speaks to "you" as "we" reads warm and direct.
    expect(kit.tone).toMatch(/\bwarm\b/);
    expect(kit.tone).toMatch(/\bdirect\b/);
    expect(Date.parse(kit.extractedAt)).toBeGreaterThan(Date.now() - 5 * 60_000);

    // The profile had no colours or logo of its own: they now come from the kit, in both field sets.
    expect(profile.colors).toEqual({ primary: "#7b3f00", secondary: "#e8a33d" });
    expect(profile.brandColors).toBe("#7b3f00, #e8a33d");
    expect(profile.logoUrl).toBe(`${SITE}/img/northwind-logo.png`);

    expect(job.result.brandKit).toEqual(kit);
    // The film was made in the kit's colours.
    expect(job.result.storyboard.brand.primary).toBe("#7b3f00");
    expect(job.result.finalVideo).toMatch(/\.mp4$/);
  });

  it("keeps the colours and logo the user set, reads the profile's websiteUrl when the launch names no url", {
    timeout: 120_000,
  }, async () => {
    const user = await brandAccount("own-colours");
    const saved = await user.client.post("/user/brand", {
      name: "Northwind",
      colors: { primary: "#112233", accent: "#ffcc00" },
      logoUrl: "https://cdn.example/our-logo.png",
      websiteUrl: `${SITE}/`,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const job = await runBrandJob(user, {});
    const profile = (await user.client.get("/user/brand")).body.data;
    expect(profile.colors).toEqual({ primary: "#112233", accent: "#ffcc00" });
    expect(profile.brandColors).toBe("#112233, #ffcc00");
    expect(profile.logoUrl).toBe("https://cdn.example/our-logo.png");
    expect(profile.name).toBe("Northwind");
    expect(profile.brandKit.colors).toEqual(["#7b3f00", "#e8a33d"]);
    expect(profile.brandKit.claims).toEqual(EXPECTED_CLAIMS);
    expect(job.result.brandKit.sourceUrl).toBe(`${SITE}/`);
    expect(job.result.storyboard.brand.primary).toBe("#112233");
  });

  it("without a url or a websiteUrl is a 400 naming url, and charges nothing", async () => {
    const user = await brandAccount("no-site");
    const before = (await user.client.get("/user/credits")).body.data.balance;
    const res = await user.client.post("/workflow", { type: "brand", concept: "Our story" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      /^The Brand Clone workflow needs a web page to work from: give the address of the brand's site, or save the website in your brand profile/,
    );
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(before);
    expect((await user.client.get("/user/projects")).body.data).toEqual([]);
  });
});

describe("editing the kit", () => {
  const kit = {
    sourceUrl: `${SITE}/`,
    colors: ["#7b3f00", "#e8a33d"],
    logoUrl: `${SITE}/img/northwind-logo.png`,
    fonts: ["Work Sans"],
    tone: "warm, direct",
    claims: ["Free shipping on orders over $30."],
    extractedAt: "2026-11-20T10:00:00.000Z",
  };

  it("round-trips through GET/POST /api/user/brand; the kit's colours carry into the profile's where they came from the kit", async () => {
    const user = await signUp(app, "edit-kit");
    const first = await user.client.post("/user/brand", { brandName: "Northwind", brandKit: kit });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.brandKit).toEqual(kit);
    expect(first.body.data.colors).toEqual({ primary: "#7b3f00", secondary: "#e8a33d" });

    // The user edits tone, claims and colours: the profile follows the kit it took its colours from.
    const edited = {
      ...kit,
      tone: "calm, expert",
      claims: ["Roasted to order.", "Free shipping on orders over $30."],
      colors: ["#0b6e4f"],
    };
    const second = await user.client.post("/user/brand", { brandKit: edited });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    const profile = (await user.client.get("/user/brand")).body.data;
    expect(profile.brandKit).toEqual(edited);
    expect(profile.colors).toEqual({ primary: "#0b6e4f" });
    expect(profile.brandName).toBe("Northwind");

    // Colours sent with the kit are the user's: the kit does not replace them.
    await user.client.post("/user/brand", { brandColors: "#222222, #333333", brandKit: { ...edited, colors: ["#abcdef"] } });
    expect((await user.client.get("/user/brand")).body.data.colors).toEqual({ primary: "#222222", secondary: "#333333" });
  });

  it("refuses a malformed kit with a 400 that names the field", async () => {
    const user = await signUp(app, "bad-kit");
    const badColour = await user.client.post("/user/brand", { brandKit: { ...kit, colors: ["orange"] } });
    expect(badColour.status).toBe(400);
    expect(badColour.body.error).toMatch(/^brandKit\.colors\.0: a colour must be a hex colour like #0a84ff/);

    const longClaim = await user.client.post("/user/brand", { brandKit: { ...kit, claims: ["x".repeat(201)] } });
    expect(longClaim.status).toBe(400);
    expect(longClaim.body.error).toMatch(/^brandKit\.claims\.0/);

    const notAKit = await user.client.post("/user/brand", { brandKit: "bold" });
    expect(notAKit.status).toBe(400);
    expect(notAKit.body.error).toMatch(/^brandKit/);
    expect((await user.client.get("/user/brand")).body.data).toBeNull();
  });
});
