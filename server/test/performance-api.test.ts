// Creative performance over the API: ingest a day (POST /workflow/performance), correct it (PATCH),
// record single events idempotently (POST /performance), read totals, series and decay (GET), on REST,
// tRPC and GraphQL; bad input is a 400 saying what to fix, another account's things are 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let other: Account;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "perf");
  other = await signUp(app, "perf-other");
});
afterAll(() => app.close());

const day = (n: number) => `2026-03-${String(n + 1).padStart(2, "0")}`;

async function ingestDays(
  account: Account,
  creativeId: string,
  days: number,
  clicks: (i: number) => number,
  extra: Record<string, unknown> = {},
) {
  for (let i = 0; i < days; i++) {
    const res = await account.client.post("/workflow/performance", {
      creativeId,
      date: day(i),
      impressions: 5_000,
      clicks: clicks(i),
      conversions: 10,
      spend: 100,
      revenue: 300,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

describe("ingest and read", () => {
  it("ingests a day of an external creative and answers the computed figures", async () => {
    const res = await owner.client.post("/workflow/performance", {
      creativeId: "meta-ad-1",
      date: "2026-02-01",
      impressions: 8_000,
      clicks: 200,
      conversions: 8,
      spend: 50.25,
      revenue: 201,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      creativeId: "meta-ad-1",
      projectId: null,
      brandId: null,
      date: "2026-02-01",
      figures: {
        impressions: 8_000,
        clicks: 200,
        conversions: 8,
        spend: 50.25,
        revenue: 201,
        ctr: 0.025,
        cpc: 0.25125,
        cpa: 6.28125,
        roas: 4,
      },
    });
    const read = await owner.client.get("/workflow/performance?creativeId=meta-ad-1");
    expect(read.status).toBe(200);
    expect(read.body.data.creatives).toHaveLength(1);
    expect(read.body.data.creatives[0]).toMatchObject({
      creativeId: "meta-ad-1",
      stopped: false,
      totals: { impressions: 8_000, ctr: 0.025, roas: 4 },
      series: [{ date: "2026-02-01", clicks: 200, cpc: 0.25125 }],
      decay: { decaying: false, enoughVolume: false },
    });
  });

  it("answers null ratios for zero denominators and defaults the date to today (UTC)", async () => {
    const res = await owner.client.post("/workflow/performance", {
      creativeId: "fresh-ad",
      impressions: 0,
      clicks: 0,
      conversions: 0,
      spend: 0,
      revenue: 0,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.date).toBe(new Date().toISOString().slice(0, 10));
    expect(res.body.data.figures).toMatchObject({ ctr: null, cpc: null, cpa: null, roas: null });
  });

  it("refuses bad figures with a 400 that says what to fix, and stores nothing", async () => {
    const base = { creativeId: "bad-ad", date: "2026-02-02", impressions: 10, clicks: 1, conversions: 0, spend: 1, revenue: 0 };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ impressions: -1 }, /impressions must be a whole number of 0 or more/],
      [{ clicks: 2.5 }, /clicks must be a whole number of 0 or more/],
      [{ conversions: "3" }, /conversions must be a whole number of 0 or more/],
      [{ spend: -0.01 }, /spend must be an amount of 0 or more/],
      [{ revenue: 1.234 }, /revenue must have at most two decimals/],
      [{ date: "2026-02-30" }, /That date does not exist/],
      [{ date: "yesterday" }, /Give the date as YYYY-MM-DD/],
      [{ creativeId: "" }, /Name the creative/],
    ];
    for (const [change, message] of cases) {
      const res = await owner.client.post("/workflow/performance", { ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await owner.client.get("/workflow/performance?creativeId=bad-ad")).status).toBe(404);
    const badRange = await owner.client.get("/workflow/performance?from=2026-03-05&to=2026-03-01");
    expect(badRange.status).toBe(400);
    expect(badRange.body.error).toMatch(/from \(2026-03-05\) must be on or before to/);
  });

  it("refuses the same bad figures on tRPC", async () => {
    const api = trpcClient(app.url, owner.jwt);
    const error = await api.performance.ingest
      .mutate({ creativeId: "trpc-ad", impressions: -5, clicks: 0, conversions: 0, spend: 0, revenue: 0 })
      .then(
        () => null,
        (e: any) => e,
      );
    expect(error?.data?.httpStatus).toBe(400);
    expect(error?.message).toMatch(/impressions must be a whole number of 0 or more/);
    const ok = await api.performance.ingest.mutate({
      creativeId: "trpc-ad",
      date: "2026-02-03",
      impressions: 100,
      clicks: 5,
      conversions: 1,
      spend: 2,
      revenue: 4,
    });
    expect(ok.figures).toMatchObject({ ctr: 0.05, cpa: 2, roas: 2 });
  });

  it("a second ingest of the same day with other figures is a conflict; the same figures again are a repeat", async () => {
    const body = { creativeId: "twice-ad", date: "2026-02-04", impressions: 100, clicks: 5, conversions: 0, spend: 1, revenue: 0 };
    expect((await owner.client.post("/workflow/performance", body)).status).toBe(200);
    expect((await owner.client.post("/workflow/performance", body)).status).toBe(200);
    const changed = await owner.client.post("/workflow/performance", { ...body, clicks: 6 });
    expect(changed.status).toBe(409);
    expect(changed.body.error).toMatch(/correct them with PATCH/);
  });
});

describe("PATCH corrects an earlier ingest", () => {
  it("changes the named figures of that day and the computed ones follow", async () => {
    await owner.client.post("/workflow/performance", {
      creativeId: "fix-ad",
      date: "2026-02-05",
      impressions: 1_000,
      clicks: 10,
      conversions: 1,
      spend: 20,
      revenue: 10,
    });
    const fixed = await owner.client.patch("/workflow/performance", { creativeId: "fix-ad", date: "2026-02-05", clicks: 40, revenue: 80 });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data.figures).toMatchObject({ impressions: 1_000, clicks: 40, ctr: 0.04, cpc: 0.5, revenue: 80, roas: 4 });
    const read = await owner.client.get("/workflow/performance?creativeId=fix-ad");
    expect(read.body.data.creatives[0].totals).toMatchObject({ clicks: 40, revenue: 80 });
  });

  it("answers 404 for a day never ingested, for another account's creative, and 400 for nothing to change", async () => {
    expect((await owner.client.patch("/workflow/performance", { creativeId: "fix-ad", date: "2026-02-06", clicks: 1 })).status).toBe(404);
    const foreign = await other.client.patch("/workflow/performance", { creativeId: "fix-ad", date: "2026-02-05", clicks: 1 });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatch(/Creative fix-ad not found/);
    const nothing = await owner.client.patch("/workflow/performance", { creativeId: "fix-ad", date: "2026-02-05" });
    expect(nothing.status).toBe(400);
    expect((await owner.client.patch("/workflow/performance", { creativeId: "fix-ad", date: "2026-02-05", clicks: -1 })).status).toBe(400);
    // The owner's figures are unchanged by the refusals.
    expect((await owner.client.get("/workflow/performance?creativeId=fix-ad")).body.data.creatives[0].totals.clicks).toBe(40);
    expect((await other.client.get("/workflow/performance?creativeId=fix-ad")).status).toBe(404);
  });
});

describe("single events", () => {
  it("records impressions, clicks and conversions once per event id", async () => {
    const at = "2026-02-10T12:00:00Z";
    const events = [
      { eventId: "e1", type: "impression" },
      { eventId: "e2", type: "impression" },
      { eventId: "e3", type: "click" },
      { eventId: "e4", type: "conversion", value: 19.99 },
    ];
    for (const event of events) {
      const res = await owner.client.post("/performance", { ...event, creativeId: "pixel-ad", occurredAt: at });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({ eventId: event.eventId, creativeId: "pixel-ad", recorded: true });
    }
    // The integration retries: the same ids record nothing new.
    const again = await owner.client.post("/performance", { eventId: "e3", type: "click", creativeId: "pixel-ad", occurredAt: at });
    expect(again.body.data.recorded).toBe(false);
    const read = await owner.client.get("/workflow/performance?creativeId=pixel-ad");
    expect(read.body.data.creatives[0].series).toEqual([
      { date: "2026-02-10", impressions: 2, clicks: 1, conversions: 1, spend: 0, revenue: 19.99, ctr: 0.5, cpc: 0, cpa: 0, roas: null },
    ]);
    // Another account's event with the same id is its own.
    expect((await other.client.post("/performance", { eventId: "e3", type: "click", creativeId: "pixel-ad" })).body.data.recorded).toBe(
      true,
    );
  });

  it("refuses a value on a click, an unknown type and a missing event id", async () => {
    const click = await owner.client.post("/performance", { eventId: "v1", type: "click", value: 3, creativeId: "pixel-ad" });
    expect(click.status).toBe(400);
    expect(click.body.error).toMatch(/Only a conversion has a value/);
    expect((await owner.client.post("/performance", { eventId: "v2", type: "view", creativeId: "pixel-ad" })).body.error).toMatch(
      /impression, click or conversion/,
    );
    expect((await owner.client.post("/performance", { type: "click", creativeId: "pixel-ad" })).status).toBe(400);
  });
});

describe("decay through the API", () => {
  it("flags the fading creative and not the steady one", async () => {
    await ingestDays(owner, "fading-ad", 10, (i) => (i < 7 ? 100 : 65));
    await ingestDays(owner, "steady-ad", 10, (i) => [100, 98, 103, 99, 101, 97, 102, 100, 99, 101][i]!);
    const read = await owner.client.get("/workflow/performance?from=2026-03-01&to=2026-03-31");
    const byId = Object.fromEntries(read.body.data.creatives.map((c: any) => [c.creativeId, c]));
    // Every creative is listed; those with no figures in the range have empty series.
    expect(byId["meta-ad-1"].series).toEqual([]);
    expect(byId["fading-ad"].decay).toMatchObject({ decaying: true, ctr: { falling: true, relativeChange: -0.35 } });
    expect(byId["steady-ad"].decay).toMatchObject({ decaying: false, enoughVolume: true });
    expect(read.body.data.totals.impressions).toBe(100_000);
  });
});

describe("brands, projects and other accounts", () => {
  it("a project's figures belong to its launch brand; an external id takes brandId; another account's brand is 404", async () => {
    const brand = await owner.client.post("/user/brands", { name: "Brewly", colors: { primary: "#112233" } });
    expect(brand.status, JSON.stringify(brand.body)).toBe(200);
    const brandId = brand.body.data.id as string;
    const launch = await owner.client.post("/workflow", { type: "staticad", concept: "Brewly cold brew for night shifts", brand: brandId });
    expect(launch.status, JSON.stringify(launch.body)).toBe(200);
    const jobId = launch.body.data.jobId as string;
    const project = await owner.client.post("/workflow/performance", {
      creativeId: jobId,
      date: "2026-02-01",
      impressions: 10,
      clicks: 1,
      conversions: 0,
      spend: 0,
      revenue: 0,
    });
    expect(project.body.data).toMatchObject({ creativeId: jobId, projectId: jobId, brandId });
    const external = await owner.client.post("/performance", { eventId: "b1", type: "impression", creativeId: "tiktok-9", brandId });
    expect(external.status).toBe(200);
    const forBrand = await owner.client.get(`/workflow/performance?brandId=${brandId}`);
    expect(forBrand.body.data.creatives.map((c: any) => c.creativeId).sort()).toEqual([jobId, "tiktok-9"].sort());

    // The other account: the brand is not found, and the project id is only an external id of its own.
    expect((await other.client.get(`/workflow/performance?brandId=${brandId}`)).status).toBe(404);
    const foreignBrand = await other.client.post("/workflow/performance", {
      creativeId: "x",
      brandId,
      impressions: 1,
      clicks: 0,
      conversions: 0,
      spend: 0,
      revenue: 0,
    });
    expect(foreignBrand.status).toBe(404);
    expect(foreignBrand.body.error).toBe("Brand not found");
    const foreignJob = await other.client.post("/workflow/performance", {
      creativeId: jobId,
      date: "2026-02-01",
      impressions: 1,
      clicks: 0,
      conversions: 0,
      spend: 0,
      revenue: 0,
    });
    expect(foreignJob.body.data).toMatchObject({ projectId: null, brandId: null });
    expect((await owner.client.get(`/workflow/performance?creativeId=${jobId}`)).body.data.creatives[0].totals.impressions).toBe(10);
  });

  it("GraphQL: the performance query takes a date range and a brand", async () => {
    const query = `query($from: String, $to: String, $creativeId: String) {
      performanceReport(from: $from, to: $to, creativeId: $creativeId) {
        from to totals { impressions ctr }
        creatives { creativeId series { date ctr } decay { decaying reason } }
      }
    }`;
    const res = await graphql(app.url, query, { from: "2026-03-08", to: "2026-03-10", creativeId: "fading-ad" }, owner.jwt);
    expect(res.body.errors).toBeUndefined();
    const report = (res.body.data as any).performanceReport;
    expect(report).toMatchObject({ from: "2026-03-08", to: "2026-03-10", totals: { impressions: 15_000, ctr: 0.013 } });
    expect(report.creatives[0].series.map((d: any) => d.date)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    // Three days are too few to judge decay.
    expect(report.creatives[0].decay.decaying).toBe(false);
    const bad = await graphql(app.url, query, { from: "March" }, owner.jwt);
    expect(bad.body.errors?.[0]?.message).toMatch(/Give the date as YYYY-MM-DD/);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
  });

  it("requires a session", async () => {
    const res = await fetch(`${app.url}/api/workflow/performance`);
    expect(res.status).toBe(401);
  });
});
