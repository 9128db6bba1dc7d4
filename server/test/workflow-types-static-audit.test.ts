// Two workflow types make what they promise. staticad: PNG stills in every requested format at the
// format's pixel size, several headline/layout variants each, and no video at all. local-audit: the
// business page (served by msw behind a fake resolver; the network is closed) scored on five criteria
// consistent with what the page has and lacks, the report as JSON in the result and as a PDF whose text
// holds the scores, and a short ad video.
import { existsSync, readdirSync } from "node:fs";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AUDIT_CRITERIA } from "@adgen/schema";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, signUp } from "./support/accounts.ts";
import { probe } from "./support/ffprobe.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const DNS: Record<string, string[]> = { "joes-plumbing.example": ["93.184.216.40"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

// A local business page with some signals and not others: a clear headline with an offer, a mobile
// viewport, a booking button in the hero, an address, an e-mail, reviews and a licence, over HTTPS, but
// no phone number at all (no tel: link, none written) and no opening hours.
const PAGE = `<!doctype html><html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Joe's Plumbing — Springfield plumbers</title>
<meta name="description" content="Fast, friendly plumbing repairs in Springfield. Free estimate on every job.">
<meta name="theme-color" content="#0b6e4f">
</head><body>
<header class="hero">
  <h1>Emergency plumbing in Springfield</h1>
  <p>Free estimate, same-day service.</p>
  <a class="btn" href="/book">Book a visit</a>
</header>
<main>
  <h2>Leaks, drains and boilers</h2>
  <p>Licensed and insured plumbers serving Springfield.</p>
  <h2>What our customers say</h2>
  <blockquote>“Fixed our boiler in an hour.” — Marge</blockquote>
  <p>Read our reviews.</p>
</main>
<footer>
  <address>742 Evergreen Terrace, Springfield</address>
  <a href="mailto:joe@joes-plumbing.example">joe@joes-plumbing.example</a>
</footer>
</body></html>`;

const network = setupServer(http.get("https://joes-plumbing.example/", () => HttpResponse.html(PAGE)));

let app: TestApp;
let user: Account;
let dir: string;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  app = await startTestApp({ WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2" }, { resolver });
  user = await signUp(app, "types");
  dir = mkdtempSync(join(tmpdir(), "adgen-types-"));
});
afterAll(async () => {
  await app?.close();
  network.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function waitForJob(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Downloads a job's media file (GET /api/media/...) as the owner. */
async function download(url: string) {
  const res = await fetch(`${app.url}${new URL(url).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
  return { status: res.status, type: res.headers.get("content-type"), body: Buffer.from(await res.arrayBuffer()) };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("staticad", () => {
  it("answers PNG stills at each format's size, several variants per format, and no video", { timeout: 120_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "staticad",
      concept: "Fresh sourdough baked every morning in Springfield",
      formats: ["1:1", "9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.data.creditsUsed).toBe(1);
    const jobId = launched.body.data.jobId as string;
    const job = await waitForJob(jobId);
    expect(job.status, job.error).toBe("completed");
    expect(job.result.finalVideo).toBeNull();

    const assets = job.result.assets as any[];
    expect(assets.filter((a) => a.type === "video")).toEqual([]);
    expect(assets.every((a) => a.type === "image")).toBe(true);
    // assets[i] is format i's first variant; the further variants follow.
    expect(assets.slice(0, 2).map((a) => a.format)).toEqual(["1:1", "9:16"]);

    const sizes: Record<string, [number, number]> = { "1:1": [1080, 1080], "9:16": [1080, 1920] };
    for (const format of ["1:1", "9:16"]) {
      const variants = assets.filter((a) => a.format === format);
      expect(variants.length, format).toBeGreaterThanOrEqual(2);
      // Different variants: their own files, layouts, and more than one headline.
      expect(new Set(variants.map((v) => v.url)).size).toBe(variants.length);
      expect(new Set(variants.map((v) => v.layout)).size).toBe(variants.length);
      expect(new Set(variants.map((v) => v.headline)).size).toBeGreaterThanOrEqual(2);
      const hashes = new Set<string>();
      for (const asset of variants) {
        expect([asset.width, asset.height]).toEqual(sizes[format]);
        expect(asset.url).toMatch(/\.png$/);
        const file = await download(asset.url);
        expect(file.status).toBe(200);
        expect(file.type).toBe("image/png");
        expect(file.body.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
        // IHDR: the first chunk, width and height big-endian at bytes 16 and 20.
        expect(file.body.subarray(12, 16).toString("latin1")).toBe("IHDR");
        expect([file.body.readUInt32BE(16), file.body.readUInt32BE(20)]).toEqual(sizes[format]);
        hashes.add(file.body.toString("base64"));
      }
      expect(hashes.size, "every variant is a different picture").toBe(variants.length);
    }

    // Nothing but stills under the job's media.
    const files = readdirSync(join(app.config.dataDir, "media", "jobs", jobId));
    expect(files.filter((f) => f.endsWith(".mp4"))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".png")).length).toBe(assets.length);
  });
});

describe("local-audit", () => {
  let job: any;
  beforeAll(async () => {
    const launched = await user.client.post("/workflow", { type: "local-audit", url: "https://joes-plumbing.example/" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    expect(launched.body.data.creditsUsed).toBe(2);
    job = await waitForJob(launched.body.data.jobId);
  }, 120_000);

  it("completes with a scored report of the five criteria in the result", () => {
    expect(job.status, job.error).toBe("completed");
    const audit = job.result.audit;
    expect(audit).toMatchObject({ url: "https://joes-plumbing.example/", pageLoaded: true });
    expect(audit.criteria.map((c: any) => c.id)).toEqual([...AUDIT_CRITERIA]);
    for (const c of audit.criteria) {
      expect(c.score).toBeGreaterThanOrEqual(0);
      expect(c.score).toBeLessThanOrEqual(100);
      expect(c.findings.length).toBeGreaterThan(0);
      expect(c.recommendation).toEqual(expect.any(String));
    }
    const total = audit.criteria.reduce((sum: number, c: any) => sum + c.weight, 0);
    expect(total).toBe(100);
    expect(audit.overallScore).toBe(Math.round(audit.criteria.reduce((sum: number, c: any) => sum + c.score * c.weight, 0) / 100));
    expect(audit.grade).toMatch(/^[A-F]$/);
  });

  it("scores what the page has and lacks", () => {
    const by = Object.fromEntries(job.result.audit.criteria.map((c: any) => [c.id, c]));
    // No phone number anywhere: contact details score low, and the advice is to add one.
    expect(by.contact_details.score).toBeLessThanOrEqual(50);
    expect(by.contact_details.recommendation).toMatch(/phone number/i);
    expect(by.contact_details.recommendation).toMatch(/tel:/);
    expect(by.contact_details.findings.join("\n")).toMatch(/no phone number/i);
    expect(by.contact_details.findings.join("\n")).toMatch(/742 Evergreen Terrace/);
    // Clear headline with a concrete offer.
    expect(by.offer_clarity.score).toBeGreaterThanOrEqual(80);
    expect(by.offer_clarity.findings.join("\n")).toMatch(/Emergency plumbing in Springfield/);
    // Viewport and a booking button in the hero: ready on mobile.
    expect(by.mobile_cta.score).toBeGreaterThanOrEqual(80);
    expect(by.mobile_cta.findings.join("\n")).toMatch(/Book a visit/);
    // Reviews, licence and HTTPS, but no rating, guarantee or years in business.
    expect(by.trust_signals.score).toBeGreaterThanOrEqual(50);
    expect(by.trust_signals.score).toBeLessThan(100);
    // A small page answered at once.
    expect(by.landing_speed.score).toBeGreaterThanOrEqual(80);
    expect(by.contact_details.score).toBeLessThan(by.offer_clarity.score);
  });

  it("stores the report as a PDF whose text holds the overall score and each criterion's score", async () => {
    const audit = job.result.audit;
    const documents = job.result.assets.filter((a: any) => a.type === "document");
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({ format: "pdf", url: audit.reportUrl });
    const file = await download(audit.reportUrl);
    expect(file.status).toBe(200);
    expect(file.type).toBe("application/pdf");
    expect(file.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdf = await getDocumentProxy(new Uint8Array(file.body));
    const { text } = await extractText(pdf, { mergePages: true });
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain(`Overall score: ${audit.overallScore}/100`);
    for (const c of audit.criteria) expect(flat).toContain(`${c.name}: ${c.score}/100`);
    expect(flat).toMatch(/phone number/i);
  });

  it("renders a short ad video too", async () => {
    expect(job.result.finalVideo).toMatch(/\.mp4$/);
    const videos = job.result.assets.filter((a: any) => a.type === "video");
    expect(videos.map((v: any) => v.format)).toEqual(["9:16"]);
    const file = await download(job.result.finalVideo);
    expect(file.status).toBe(200);
    expect(file.type).toBe("video/mp4");
    const path = join(dir, "audit-ad.mp4");
    writeFileSync(path, file.body);
    const info = await probe(path);
    expect(info.videoCodec).toBe("h264");
    // A standard video is 720p.
    expect([info.width, info.height]).toEqual([720, 1280]);
    expect(info.durationSec).toBeGreaterThan(1);
    expect(existsSync(path)).toBe(true);
  });
});
