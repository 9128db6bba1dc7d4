// The loop over a real service: GET /loop recommends from the brand's own figures (SEED with none,
// DOUBLE_DOWN on a significant winner, KILL a money-loser, ITERATE on a fading creative), and POST /loop
// does it for real: launches through the normal launch path (charged, 402 when short), KILL stops the
// creative (shown stopped, left out afterwards). Another account's brand is 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { graphql, type RestClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let other: Account;
let admin: RestClient;
let brandId: string;
let seededJob: string;

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV, WORKERS: "1", STUDIO_MAX_AD_SECONDS: "2" });
  owner = await signUp(app, "loop");
  other = await signUp(app, "loop-other");
  admin = await adminClient(app);
  const brand = await owner.client.post("/user/brands", { name: "Brewly", colors: { primary: "#224466" } });
  expect(brand.status, JSON.stringify(brand.body)).toBe(200);
  brandId = brand.body.data.id;
});
afterAll(() => app.close());

const day = (n: number) => `2026-04-${String(n + 1).padStart(2, "0")}`;
const balance = async (account: Account) => (await account.client.get("/user/credits")).body.data.balance as number;

/** Ten days of figures: `clicks(i)` of 5,000 impressions, `conversions(i)`, spend 100 a day, revenue `revenue(i)`. */
async function ingest(
  creativeId: string,
  f: { clicks: (i: number) => number; conversions?: (i: number) => number; revenue?: (i: number) => number },
  extra = {},
) {
  for (let i = 0; i < 10; i++) {
    const res = await owner.client.post("/workflow/performance", {
      creativeId,
      date: day(i),
      impressions: 5_000,
      clicks: f.clicks(i),
      conversions: f.conversions?.(i) ?? 10,
      spend: 100,
      revenue: f.revenue?.(i) ?? 300,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

async function waitForJob(jobId: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await owner.client.get(`/workflow/job?jobId=${jobId}`)).body.data;
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the loop", () => {
  it("recommends SEED for a brand with no data, and refuses a missing or foreign brand", async () => {
    const res = await owner.client.get(`/loop?brandId=${brandId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ brandId, action: "SEED", target: null, creatives: [] });
    expect(res.body.data.confidence).toBeGreaterThanOrEqual(0.9);
    expect(res.body.data.reasoning).toMatch(/no creative with results yet/);
    // What Execute would spend is known before anyone clicks it.
    expect(res.body.data).toMatchObject({
      cost: 1,
      targetName: null,
      effect: expect.stringMatching(/Launches Static Ad .* for 1 credit\./),
    });
    expect((await owner.client.get("/loop")).status).toBe(400);
    const foreign = await other.client.get(`/loop?brandId=${brandId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("Brand not found");
    expect((await other.client.post("/loop", { brandId, action: "SEED" })).status).toBe(404);
    expect((await owner.client.post("/loop", { brandId, action: "PAUSE" })).body.error).toMatch(
      /SEED, DOUBLE_DOWN, ITERATE, KILL, CHALLENGER/,
    );
    expect(await balance(other)).toBe(10);
  });

  it("SEED launches a first creative for the brand through the normal launch path, charged", async () => {
    const before = await balance(owner);
    const res = await owner.client.post("/loop", { brandId, action: "SEED" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      action: "SEED",
      creditsCharged: 1,
      stopped: [],
      launched: [{ type: "staticad", creditsUsed: 1 }],
    });
    seededJob = res.body.data.launched[0].jobId;
    // The new project is named as the projects page names it, not by its id.
    const seeded = await app.services.prisma.job.findUniqueOrThrow({ where: { id: seededJob } });
    expect(res.body.data.launched[0].name).toBe(seeded.name);
    expect(res.body.data.message).toContain(`“${seeded.name}”`);
    expect(res.body.data.message).not.toContain(seededJob);
    expect(await balance(owner)).toBe(before - 1);
    const project = (await owner.client.get(`/workflow/job?jobId=${seededJob}`)).body.data;
    expect(project).toBeTruthy();
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: seededJob } });
    expect(job).toMatchObject({ userId: owner.id, type: "staticad", creditsUsed: 1 });
    expect((job.input as { brand?: string }).brand).toBe(brandId);
    expect((await waitForJob(seededJob)).status).toBe("completed");
  });

  it("DOUBLE_DOWN on a significant winner launches the ad optimizer on the winning project", async () => {
    // The seeded project wins: 3 % CTR and ROAS 5 against an external ad's 2 % and ROAS 3.
    await ingest(seededJob, { clicks: () => 150, conversions: () => 25, revenue: () => 500 });
    await ingest("meta-b", { clicks: () => 100 }, { brandId });
    const rec = await owner.client.get(`/loop?brandId=${brandId}`);
    expect(rec.body.data).toMatchObject({ action: "DOUBLE_DOWN", target: seededJob });
    expect(rec.body.data.reasoning).toMatch(/is the winner/);
    // The winner is the seeded project: named by its project name with its first frame, never by its UUID.
    const winner = await app.services.prisma.job.findUniqueOrThrow({ where: { id: seededJob } });
    const thumbnail = (winner.result as { thumbnail: string }).thumbnail;
    expect(rec.body.data).toMatchObject({ targetName: winner.name, targetThumbnail: thumbnail, cost: 1 });
    expect(rec.body.data.reasoning).toContain(`“${winner.name}” is the winner`);
    expect(rec.body.data.reasoning).not.toContain(seededJob);
    expect(rec.body.data.effect).toBe(`Launches Ad Optimizer to make a variation of “${winner.name}”, for 1 credit.`);
    expect(rec.body.data.confidence).toBeGreaterThan(0.9);
    expect(rec.body.data.creatives).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          creativeId: seededJob,
          projectId: seededJob,
          name: winner.name,
          thumbnail,
          role: "winner",
          totals: expect.objectContaining({ ctr: 0.03, roas: 5 }),
        }),
        expect.objectContaining({ creativeId: "meta-b", name: "meta-b", thumbnail: null, role: "middling" }),
      ]),
    );
    const before = await balance(owner);
    // A price agreed other than the action's is refused before anything is charged: lower…
    const underpriced = await owner.client.post("/loop", { brandId, action: "DOUBLE_DOWN", confirmedCost: 0 });
    expect(underpriced.status).toBe(409);
    expect(underpriced.body.error).toMatch(/now costs 1 credits, not the 0 you confirmed; nothing was charged/);
    expect(await balance(owner)).toBe(before);
    // So is a price agreed higher: the consent is to this price, not to "up to" it.
    const overpriced = await owner.client.post("/loop", { brandId, action: "DOUBLE_DOWN", confirmedCost: 3 });
    expect(overpriced.status).toBe(409);
    expect(overpriced.body.error).toMatch(/now costs 1 credits, not the 3 you confirmed; nothing was charged/);
    expect(await balance(owner)).toBe(before);
    const res = await owner.client.post("/loop", { brandId, action: "DOUBLE_DOWN", confirmedCost: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ target: seededJob, creditsCharged: 1, launched: [{ type: "ad-optimizer" }] });
    const optimizer = await app.services.prisma.job.findUniqueOrThrow({ where: { id: res.body.data.launched[0].jobId } });
    expect(optimizer.type).toBe("ad-optimizer");
    expect((optimizer.input as { project?: string }).project).toBe(seededJob);
    expect(await balance(owner)).toBe(before - 1);
  });

  it("KILL stops the money-losing creative; it is shown stopped and left out of later recommendations", async () => {
    await ingest("meta-loser", { clicks: () => 100, revenue: () => 60 }, { brandId });
    const rec = await owner.client.get(`/loop?brandId=${brandId}`);
    expect(rec.body.data).toMatchObject({ action: "KILL", target: "meta-loser" });
    expect(rec.body.data.reasoning).toMatch(/“meta-loser” loses money/);
    expect(rec.body.data).toMatchObject({ cost: 0, targetName: "meta-loser", effect: expect.stringMatching(/Nothing is charged/) });
    const before = await balance(owner);
    const res = await owner.client.post("/loop", { brandId, action: "KILL" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ action: "KILL", target: "meta-loser", stopped: ["meta-loser"], launched: [], creditsCharged: 0 });
    expect(await balance(owner)).toBe(before);
    const perf = await owner.client.get("/workflow/performance?creativeId=meta-loser");
    expect(perf.body.data.creatives[0]).toMatchObject({ stopped: true, stoppedAt: expect.any(String) });
    const after = await owner.client.get(`/loop?brandId=${brandId}`);
    expect(after.body.data.action).not.toBe("KILL");
    expect(after.body.data.creatives.map((c: { creativeId: string }) => c.creativeId)).not.toContain("meta-loser");
    // A stopped creative is no longer one the loop acts on, and an unknown one is not found.
    expect((await owner.client.post("/loop", { brandId, action: "KILL", creativeId: "meta-loser" })).status).toBe(404);
    expect((await owner.client.post("/loop", { brandId, action: "KILL", creativeId: "nope" })).status).toBe(404);
  });

  it("ITERATE refreshes the fading creative (an external one gets a new static ad in its angle), charged", async () => {
    await ingest("meta-fading", { clicks: (i) => (i < 7 ? 120 : 70) }, { brandId });
    const rec = await owner.client.get(`/loop?brandId=${brandId}`);
    expect(rec.body.data).toMatchObject({ action: "ITERATE", target: "meta-fading" });
    expect(rec.body.data.reasoning).toMatch(/wearing out/);
    const before = await balance(owner);
    const res = await owner.client.post("/loop", { brandId, action: "ITERATE" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ target: "meta-fading", creditsCharged: 1, launched: [{ type: "staticad" }] });
    expect(await balance(owner)).toBe(before - 1);
  });

  it("CHALLENGER launches a new angle (another framework) against the winner", async () => {
    const res = await owner.client.post("/loop", { brandId, action: "CHALLENGER", creativeId: seededJob });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [launch] = res.body.data.launched;
    expect(res.body.data).toMatchObject({ target: seededJob, creditsCharged: 1 });
    const seeded = await app.services.prisma.job.findUniqueOrThrow({ where: { id: seededJob } });
    expect(launch.framework).not.toBe((seeded.input as { framework?: string }).framework);
    const challenger = await app.services.prisma.job.findUniqueOrThrow({ where: { id: launch.jobId } });
    expect((challenger.input as { framework?: string; brand?: string }).framework).toBe(launch.framework);
    expect((challenger.input as { brand?: string }).brand).toBe(brandId);
  });

  it("answers 402 when the credits are short, and launches nothing", async () => {
    const left = await balance(owner);
    expect((await admin.post(`/admin/users/${owner.id}/credits`, { amount: -left })).status).toBe(200);
    const jobs = await app.services.prisma.job.count({ where: { userId: owner.id } });
    const res = await owner.client.post("/loop", { brandId, action: "SEED" });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatch(/credit/i);
    expect(await app.services.prisma.job.count({ where: { userId: owner.id } })).toBe(jobs);
    expect(await balance(owner)).toBe(0);
  });

  it("GraphQL: the recommendation takes brandId and a date range", async () => {
    const query = `query($brandId: String!, $from: String, $to: String) {
      loopRecommend(brandId: $brandId, from: $from, to: $to) { action target confidence reasoning creatives { creativeId role } }
    }`;
    // Before April there are no figures: SEED.
    const early = await graphql(app.url, query, { brandId, from: "2026-03-01", to: "2026-03-31" }, owner.jwt);
    expect(early.body.errors).toBeUndefined();
    expect((early.body.data as any).loopRecommend).toMatchObject({ action: "SEED", creatives: [] });
    const foreign = await graphql(app.url, query, { brandId }, other.jwt);
    expect(foreign.body.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
