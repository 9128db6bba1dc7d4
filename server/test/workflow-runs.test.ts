// Real runs with a product page: factory batches (all four formats as stills, one format as video with
// async:false), and clone jobs that read the page (title, description, theme colour) or record a
// warning when it cannot be read. The network is closed: a fake resolver names the hosts and msw
// answers at the network edge.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Resolver } from "../src/modules/net/safe-fetch.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

const DNS: Record<string, string[]> = { "shop.example": ["93.184.216.34"], "broken.example": ["93.184.216.35"] };
const resolver: Resolver = async (host) => {
  const answer = DNS[host];
  if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return answer;
};

const PAGE = `<!doctype html><html><head>
<title>Acme Rocket Skates</title>
<meta name="description" content="The fastest skates in the West. Free shipping.">
<meta name="theme-color" content="#ff6600">
<style>.buy { background: #222222; color: #ffffff }</style>
</head><body><h1>Rocket Skates</h1><a class="buy">Buy</a></body></html>`;

const outbound: string[] = [];
const network = setupServer(
  http.get("https://shop.example/skates", () => HttpResponse.html(PAGE)),
  http.get("https://broken.example/product", () => new HttpResponse("upstream exploded", { status: 500 })),
  http.get("https://shop.example/moved", () => new HttpResponse(null, { status: 302, headers: { location: "http://127.0.0.1:9/admin" } })),
);

let app: TestApp;
let user: Account;
let stranger: Account;
beforeAll(async () => {
  network.listen({
    onUnhandledRequest(request, print) {
      // The test's own calls to the service pass through; anything else is a test failure.
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  });
  network.events.on("request:start", ({ request }) => {
    if (new URL(request.url).hostname !== "127.0.0.1") outbound.push(`${request.method} ${request.url}`);
  });
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", JOB_RETRY_LIMIT: "1" }, { resolver });
  user = await signUp(app, "runs");
  stranger = await signUp(app, "runs-stranger");
  const grant = await (await adminClient(app)).post(`/admin/users/${user.id}/credits`, { amount: 90 });
  expect(grant.body.data.balance).toBe(100);
});
afterEach(() => {
  outbound.length = 0;
});
afterAll(async () => {
  await app?.close();
  network.close();
});

async function waitForJob(
  jobId: string,
  until: (job: any) => boolean = (j) => j.status === "completed" || j.status === "failed",
  timeoutMs = 60_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await user.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (until(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status} at ${job.step}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe("factory batches", () => {
  it("all four formats as stills: /batch/status counts the renders and ends with 4 of 4 completed", { timeout: 90_000 }, async () => {
    const launched = await user.client.post("/workflow", { type: "factory", url: "https://shop.example/skates", imagesOnly: true });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    expect(launched.body.data).toEqual({ jobId, status: "queued", creditsUsed: 3, batchId: jobId });
    const batchId = launched.body.data.batchId as string;

    const snapshots: any[] = [];
    for (;;) {
      const res = await user.client.get(`/batch/status?batchId=${batchId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const batch = res.body.data;
      snapshots.push(batch);
      expect(batch.total).toBe(4);
      expect(batch.completed + batch.failed + batch.pending + batch.active).toBe(4);
      if (batch.status !== "processing") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const final = snapshots.at(-1);
    expect(final).toMatchObject({ batchId, status: "completed", total: 4, completed: 4, failed: 0, pending: 0, active: 0 });
    expect(final.jobs).toEqual(
      ["9:16", "1:1", "16:9", "4:5"].map((format) => ({ id: `${jobId}:${format}`, jobId, format, status: "completed", progress: 100 })),
    );
    // Completed counts only go up.
    for (let i = 1; i < snapshots.length; i++) expect(snapshots[i].completed).toBeGreaterThanOrEqual(snapshots[i - 1].completed);

    const job = await waitForJob(jobId);
    expect(job.status).toBe("completed");
    expect(job.result.finalVideo).toBeNull();
    const sizes: Record<string, [number, number]> = {
      "9:16": [1080, 1920],
      "1:1": [1080, 1080],
      "16:9": [1920, 1080],
      "4:5": [1080, 1350],
    };
    // Two hook variants per format as one batch: assets[i] is format i's first variant, the others follow.
    expect(job.result.assets.slice(0, 4).map((a: any) => [a.format, a.type, a.width, a.height])).toEqual(
      ["9:16", "1:1", "16:9", "4:5"].map((f) => [f, "image", ...sizes[f]!]),
    );
    expect(job.result.assets).toHaveLength(8);
    // Each still is a PNG of its format's size.
    for (const asset of job.result.assets) {
      const res = await fetch(`${app.url}${new URL(asset.url).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const png = Buffer.from(await res.arrayBuffer());
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual(sizes[asset.format]);
    }
    // The page was read once, through the network edge.
    expect(outbound).toEqual(["GET https://shop.example/skates"]);

    // Another account: 404 for the batch.
    const foreign = await stranger.client.get(`/batch/status?batchId=${batchId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: "Batch not found" });
    expect((await user.client.get("/batch/status?batchId=nope")).status).toBe(404);
    expect((await user.client.get("/batch/status")).status).toBe(400);
  });

  it("async:false with one video format answers completed with the result; the batch counts 1 of 1", { timeout: 90_000 }, async () => {
    const res = await user.client.post("/workflow", {
      type: "factory",
      url: "https://shop.example/skates",
      formats: ["1:1"],
      async: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const jobId = res.body.data.jobId as string;
    expect(res.body).toMatchObject({ success: true, jobId, cost: 3, message: "Workflow factory completed." });
    expect(res.body.data).toMatchObject({ jobId, status: "completed", creditsUsed: 3, batchId: jobId });
    const result = res.body.data.result;
    expect(result.finalVideo).toMatch(new RegExp(`/api/media/${jobId}/ad-1x1-a\\.mp4$`));
    expect(result.thumbnail).toMatch(new RegExp(`/api/media/${jobId}/ad-1x1-a\\.jpg$`));
    // Variant A first; the batch's other hook variant follows.
    expect(result.assets.slice(0, 1)).toEqual([
      expect.objectContaining({
        url: result.finalVideo,
        type: "video",
        format: "1:1",
        platform: expect.any(String),
        // A standard video is 720p.
        width: 720,
        height: 720,
      }),
    ]);
    expect(result.assets[0].duration).toBeCloseTo(2, 1);
    const batch = (await user.client.get(`/batch/status?batchId=${jobId}`)).body.data;
    expect(batch).toMatchObject({ status: "completed", total: 1, completed: 1, failed: 0, pending: 0, active: 0 });
    const video = await fetch(`${app.url}${new URL(result.finalVideo).pathname}`, { headers: { cookie: `session=${user.client.cookie}` } });
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    const head = Buffer.from(await video.arrayBuffer())
      .subarray(4, 8)
      .toString("latin1");
    expect(head).toBe("ftyp");
  });
});

// A product page (cinematic); an inspiration (clone) page is analysed for its structure instead (see
// workflow-types-director-clone-optimizer-factory.test.ts).
describe("a workflow reads the page it is given", () => {
  it("the storyboard uses the page's title and theme colour", { timeout: 60_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      url: "https://shop.example/skates",
      imagesOnly: true,
      formats: ["9:16"],
    });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    const storyboard = job.result.storyboard;
    expect(storyboard.brand).toMatchObject({ name: "Acme Rocket Skates", primary: "#ff6600" });
    // The hook is the page's own promise, asked of the viewer, on the page's theme colour.
    expect(storyboard.scenes[0]).toMatchObject({ headline: "Want the fastest skates in the West?", background: "#ff6600" });
    expect(storyboard.scenes.at(-1).cta).toBe("Shop now");
    expect(job.result.warnings).toEqual([]);
    expect(outbound).toEqual(["GET https://shop.example/skates"]);
  });

  it("a page that answers 500 still completes, with a warning in result.warnings", { timeout: 60_000 }, async () => {
    const launched = await user.client.post("/workflow", {
      type: "cinematic",
      url: "https://broken.example/product",
      imagesOnly: true,
      concept: "Skates that fly",
    });
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    expect(job.result.warnings).toEqual(["could not fetch https://broken.example/product: HTTP 500"]);
    // Without the page, the ad is directed from the concept alone.
    expect(job.result.storyboard.scenes[0].headline).toMatch(/skates that fly/i);
    expect(job.refunded).toBe(false);
  });

  it("a host that does not resolve still completes, with a warning", { timeout: 60_000 }, async () => {
    const launched = await user.client.post("/workflow", { type: "cinematic", url: "https://nowhere.example/p", imagesOnly: true });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job.status, job.error).toBe("completed");
    expect(job.result.warnings).toEqual([
      expect.stringMatching(/^could not fetch https:\/\/nowhere\.example\/p: nowhere\.example could not be resolved/),
    ]);
    expect(outbound).toEqual([]);
    // The project shows the warning in its output.
    const project = (await user.client.get("/user/projects")).body.data.find((p: { id: string }) => p.id === launched.body.data.jobId);
    expect(JSON.parse(project.output_data).warnings).toEqual(job.result.warnings);
  });

  it("a page that redirects to a private address fails the job and refunds it once; nothing reaches 127.0.0.1:9", {
    timeout: 60_000,
  }, async () => {
    const before = (await user.client.get("/user/credits")).body.data.balance;
    // A type not made from its page: the launch does not read it, the worker does and is refused at the redirect.
    const launched = await user.client.post("/workflow", { type: "cinematic", url: "https://shop.example/moved", imagesOnly: true });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const job = await waitForJob(launched.body.data.jobId);
    expect(job).toMatchObject({ status: "failed", refunded: true });
    expect(job.error).toMatch(/private or local address/);
    expect(outbound.every((r) => r === "GET https://shop.example/moved")).toBe(true);
    expect((await user.client.get("/user/credits")).body.data.balance).toBe(before);
    const refunds = await app.services.prisma.creditLedgerEntry.findMany({
      where: { reference: launched.body.data.jobId, reason: "workflow_refund" },
    });
    expect(refunds.map((r) => r.delta)).toEqual([1]);
  });
});
