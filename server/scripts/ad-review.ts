// `pnpm ad-review`: renders the brief set (server/ad-review/briefs.ts) through the whole service, as a
// customer would — brand profile, product photos, knowledge, launch over REST, workers rendering — then
// reads every ad's frames back with OCR, checks them (ad-review/checks.ts) and writes contact sheets:
// server/ad-review/out/index.html, a section per brief with its frames, the text read off each, the
// result's reading of the brief and every defect found. Exits 1 when a check finds a defect.
//   pnpm ad-review [brief-id …] [--stills]   (default: every brief; --stills also writes docs/stills/<id>.jpg)
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { BRIEFS, type ReviewBrief } from "../ad-review/briefs.ts";
import { adFindings, type FrameReading, type Finding, frameFindings } from "../ad-review/checks.ts";
import { contactSheet, type ReviewedAd } from "../ad-review/contact-sheet.ts";
import { productPhoto, sitePage } from "../ad-review/products.ts";
import { loadConfig } from "../src/config/env.ts";
import { listen } from "../src/http/app.ts";
import { locateFfmpeg } from "../src/modules/render/index.ts";
import { createServices } from "../src/services.ts";
import { RestClient } from "../test/support/clients.ts";
import { readText, stopOcr } from "../test/support/ocr.ts";

const out = join(import.meta.dirname, "..", "ad-review", "out");
const options = process.argv.slice(2);
/** `--stills`: also writes one frame of each ad to docs/stills/<brief-id>.jpg, the pictures of docs/domains/studio.md. */
const writeStills = options.includes("--stills");
const wanted = new Set(options.filter((o) => !o.startsWith("--")));
const briefs = BRIEFS.filter((b) => wanted.size === 0 || wanted.has(b.id) || BRIEFS.some((o) => wanted.has(o.id) && o.improves === b.id));
const ffmpeg = locateFfmpeg();
const ADMIN = { email: "review-admin@example.com", password: "review-admin-password" };

// The pages briefs read live at .example addresses: answered here, at the network edge.
const pages = new Map(briefs.filter((b) => b.site).map((b) => [new URL(b.site!.url).host, b]));
const edge = setupServer(
  http.get(/^https:\/\/[^/]+\.example\/.*/, ({ request }) => {
    const brief = pages.get(new URL(request.url).host);
    if (!brief?.site) return new HttpResponse("not found", { status: 404 });
    const color = brief.brand.brandColors.split(",")[0]?.trim() ?? "#333333";
    return new HttpResponse(sitePage(brief.site, color), { headers: { "content-type": "text/html; charset=utf-8" } });
  }),
);
edge.listen({ onUnhandledRequest: "bypass" });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), "adgen-review-"));
const config = loadConfig({
  DATA_DIR: dataDir,
  DATABASE_URL: "memory://",
  SESSION_SECRET: randomBytes(32).toString("hex"),
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  RATE_LIMIT_AUTH_PER_HOUR: "1000",
  RATE_LIMIT_API_PER_MINUTE: "1000",
  LOG_LEVEL: "warn",
  WORKERS: "2",
});
// Every .example host resolves to a public address, so the studio's SSRF checks let the fetch through to msw.
const services = await createServices(config, { resolver: async (host) => (host.endsWith(".example") ? ["93.184.216.34"] : []) });
await services.startWorkers(config.workers);
const server = await listen(services, 0, "127.0.0.1");
const admin = new RestClient(server.url);
await admin.post("/auth/login", ADMIN);

const accounts = new Map<string, RestClient>();
const jobs = new Map<string, string>();
const reviewed: ReviewedAd[] = [];
try {
  for (const brief of briefs) {
    const started = Date.now();
    process.stdout.write(`${brief.id}: `);
    const ad = await review(brief);
    reviewed.push(ad);
    console.log(`${ad.status} in ${((Date.now() - started) / 1000).toFixed(1)} s, ${ad.findings.length} defect(s)`);
    for (const finding of ad.findings) console.log(`  - ${finding.defect}`);
  }
  if (writeStills) readmeStills(reviewed);
} finally {
  writeFileSync(join(out, "index.html"), contactSheet(reviewed));
  await stopOcr();
  await server.close();
  await services.close();
  edge.close();
  rmSync(dataDir, { recursive: true, force: true });
}
const defects = reviewed.reduce((sum, ad) => sum + ad.findings.length, 0);
console.log(`\n${reviewed.length} ads reviewed, ${defects} defect(s). Contact sheets: ${join(out, "index.html")}`);
process.exitCode = defects > 0 ? 1 : 0;

async function review(brief: ReviewBrief): Promise<ReviewedAd> {
  const user = await accountFor(brief);
  const launch = { ...brief.launch, ...(brief.site ? { url: brief.site.url } : {}) };
  if (brief.improves) Object.assign(launch, { project: jobs.get(brief.improves) });
  const launched = await user.post("/workflow", launch);
  if (launched.status !== 200) return failed(brief, `launch answered ${launched.status}: ${launched.body.error}`);
  const jobId = launched.body.data.jobId as string;
  jobs.set(brief.id, jobId);
  const job = await settle(user, jobId);
  if (job.status !== "completed") return failed(brief, `the job ${job.status}: ${job.error ?? job.step}`);
  const dir = join(out, brief.id);
  mkdirSync(dir, { recursive: true });
  const frames: FrameReading[] = [];
  for (const [index, asset] of (job.result.assets as any[]).entries()) {
    if (asset.type !== "video" && asset.type !== "image") continue;
    const file = join(dir, `${index}-${asset.format.replace(":", "x")}${asset.variant ?? ""}.${asset.type === "video" ? "mp4" : "png"}`);
    const bytes = await fetch(asset.url.replace(/^https?:\/\/[^/]+/, server.url), { headers: { cookie: `session=${user.cookie}` } });
    writeFileSync(file, Buffer.from(await bytes.arrayBuffer()));
    const stills = asset.type === "video" ? grabFrames(file, asset.duration) : [{ file, atSec: 0 }];
    for (const still of stills) frames.push({ ...still, lines: await readBoth(still.file) });
  }
  const findings: Finding[] = [...frames.flatMap(frameFindings), ...adFindings(brief, frames)];
  return { brief, status: "completed", jobId, result: job.result, frames, findings, outDir: out };
}

/** One frame of each finished ad (its first video's second sample, a static ad's first still) for docs/domains/studio.md. */
function readmeStills(ads: ReviewedAd[]) {
  const dir = join(import.meta.dirname, "..", "..", "docs", "stills");
  mkdirSync(dir, { recursive: true });
  for (const ad of ads) {
    const first = ad.frames.filter((f) => f.file.startsWith(join(out, ad.brief.id, "0-")));
    const frame = first[1] ?? first[0];
    if (!frame) continue;
    execFileSync(ffmpeg, ["-v", "error", "-i", frame.file, "-vf", "scale=-2:480", "-q:v", "4", "-y", join(dir, `${ad.brief.id}.jpg`)]);
  }
}

function failed(brief: ReviewBrief, why: string): ReviewedAd {
  return { brief, status: "failed", why, frames: [], findings: [{ defect: why }], outDir: out };
}

/** The first frame (the hook, as a muted scroller sees it), then one every second, as PNGs beside the video. */
function grabFrames(video: string, durationSec: number): { file: string; atSec: number }[] {
  const times: number[] = [];
  for (let at = 0; at < durationSec - 0.1; at += 1) times.push(at);
  return times.map((atSec) => {
    const file = video.replace(/\.mp4$/, `-${atSec.toFixed(2)}s.png`);
    execFileSync(ffmpeg, ["-v", "error", "-ss", atSec.toFixed(2), "-i", video, "-frames:v", "1", "-y", file]);
    return { file, atSec };
  });
}

/**
 * A grey copy of a frame for OCR, or its negative: tesseract's own conversion reads no text at all in some
 * colourful frames (dark type on a pale box over sky blue) that it reads whole in grey, and it misses light
 * type on a dark button ("Start free") that it reads in the negative.
 */
function grey(picture: string, negative: boolean): string {
  const file = picture.replace(/\.png$/, negative ? ".negative.png" : ".grey.png");
  execFileSync(ffmpeg, ["-v", "error", "-i", picture, ...(negative ? ["-vf", "negate"] : []), "-pix_fmt", "gray", "-y", file]);
  return file;
}

/** The lines read in the grey copy, then those only the negative shows. */
async function readBoth(picture: string): Promise<string[]> {
  const lines = await readText(grey(picture, false));
  const more = (await readText(grey(picture, true))).filter((line) => !lines.includes(line));
  return [...lines, ...more];
}

/** An account for the brief, with its brand profile, photos and knowledge, a plan that allows every type, and credits. */
async function accountFor(brief: ReviewBrief): Promise<RestClient> {
  const existing = brief.improves ? accounts.get(brief.improves) : undefined;
  if (existing) return existing;
  const user = new RestClient(server.url);
  const signup = await user.post("/auth/signup", { email: `${brief.id}@review.example`, password: "review-password-1" });
  const id = signup.body.data.id as string;
  await admin.patch(`/admin/users/${id}`, { current_plan_id: "subscription_agency" });
  await admin.post(`/admin/users/${id}/credits`, { amount: 200, reason: "ad review" });
  await user.post("/user/brand", brief.brand);
  for (const [i, photo] of (brief.photos ?? []).entries()) {
    await upload(user, "/user/brand/media", productPhoto(photo.shape, photo.label, photo.color), `product-${i}.png`, "image/png");
  }
  if (brief.knowledge) {
    const item = await upload(user, "/user/brand/knowledge/files", Buffer.from(brief.knowledge), "facts.txt", "text/plain");
    await until(async () => (await user.get(`/user/brand/knowledge/${item.id}`)).body.data.status !== "extracting", 60_000);
  }
  accounts.set(brief.id, user);
  return user;
}

async function upload(user: RestClient, path: string, bytes: Buffer, filename: string, type: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${server.url}/api${path}`, { method: "POST", headers: { cookie: `session=${user.cookie}` }, body: form });
  const body = (await res.json()) as { data?: any; error?: string };
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${body.error}`);
  return body.data;
}

async function settle(user: RestClient, jobId: string) {
  let job: any;
  await until(async () => {
    job = (await user.get(`/workflow/job?jobId=${jobId}`)).body.data;
    return job.status === "completed" || job.status === "failed";
  }, 600_000);
  return job;
}

async function until(done: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
