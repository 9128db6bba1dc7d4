// A period's figures (POST/PATCH /workflow/performance with from and to instead of date): the totals are
// stored exactly, spread evenly over the period's days (the remainders on the last days), so the daily
// series, date filters and decay read them like single days; overlaps with other figures are a 409
// naming the day; bad periods are a 400 in words, on REST and GraphQL alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let other: Account;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "period");
  other = await signUp(app, "period-other");
});
afterAll(() => app.close());

const figures = { impressions: 10_004, clicks: 103, conversions: 9, spend: 100.05, revenue: 250.03 };

async function seriesOf(account: Account, creativeId: string, query = "") {
  const read = await account.client.get(`/workflow/performance?creativeId=${creativeId}${query}`);
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return read.body.data.creatives[0];
}

describe("ingesting a period", () => {
  it("stores the totals exactly, one even share per day with the remainders on the last days", async () => {
    const res = await owner.client.post("/workflow/performance", {
      creativeId: "week-ad",
      from: "2026-04-01",
      to: "2026-04-07",
      ...figures,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      creativeId: "week-ad",
      date: "2026-04-01/2026-04-07",
      from: "2026-04-01",
      to: "2026-04-07",
      days: 7,
      figures: { ...figures, ctr: 0.010296, roas: 2.49905 },
    });
    const creative = await seriesOf(owner, "week-ad");
    expect(creative.totals).toMatchObject(figures);
    expect(creative.series.map((d: any) => d.date)).toEqual([1, 2, 3, 4, 5, 6, 7].map((d) => `2026-04-0${d}`));
    // 10,004 = 7 × 1,429 + 1; 103 = 7 × 14 + 5; 9 = 7 × 1 + 2; 10,005 cents = 7 × 1,429 + 2; 25,003 = 7 × 3,571 + 6.
    expect(creative.series.map((d: any) => d.impressions)).toEqual([1429, 1429, 1429, 1429, 1429, 1429, 1430]);
    expect(creative.series.map((d: any) => d.clicks)).toEqual([14, 14, 15, 15, 15, 15, 15]);
    expect(creative.series.map((d: any) => d.conversions)).toEqual([1, 1, 1, 1, 1, 2, 2]);
    expect(creative.series.map((d: any) => d.spend)).toEqual([14.29, 14.29, 14.29, 14.29, 14.29, 14.3, 14.3]);
    expect(creative.series.map((d: any) => d.revenue)).toEqual([35.71, 35.72, 35.72, 35.72, 35.72, 35.72, 35.72]);
    // A date filter reads the period's days like any others.
    const part = await seriesOf(owner, "week-ad", "&from=2026-04-06&to=2026-04-07");
    expect(part.totals).toMatchObject({ impressions: 2_859, clicks: 30 });
  });

  it("takes the same period again as a harmless repeat, and refuses other figures over an ingested day naming it", async () => {
    const body = { creativeId: "repeat-ad", from: "2026-04-10", to: "2026-04-12", ...figures };
    expect((await owner.client.post("/workflow/performance", body)).status).toBe(200);
    const again = await owner.client.post("/workflow/performance", body);
    expect(again.status).toBe(200);
    expect(again.body.data.figures).toMatchObject(figures);
    expect((await seriesOf(owner, "repeat-ad")).totals).toMatchObject(figures);

    const overlapping = await owner.client.post("/workflow/performance", { ...body, from: "2026-04-12", to: "2026-04-14" });
    expect(overlapping.status).toBe(409);
    expect(overlapping.body.error).toMatch(/repeat-ad on 2026-04-12 were already ingested with other figures/);
    expect(overlapping.body.error).toMatch(/PATCH/);
    const oneDay = await owner.client.post("/workflow/performance", { ...figures, creativeId: "repeat-ad", date: "2026-04-11" });
    expect(oneDay.status).toBe(409);
    expect(oneDay.body.error).toMatch(/on 2026-04-11/);
    // Nothing of the refused ingests was stored.
    const creative = await seriesOf(owner, "repeat-ad");
    expect(creative.series.map((d: any) => d.date)).toEqual(["2026-04-10", "2026-04-11", "2026-04-12"]);
    expect(creative.totals).toMatchObject(figures);
  });

  it("a period next to single days makes one series, and decay is judged on it", async () => {
    // A fading ad: a steady week sent as one period, then three weak days sent as another.
    const base = { creativeId: "fading-period", conversions: 0, spend: 0, revenue: 0 };
    const week = await owner.client.post("/workflow/performance", {
      ...base,
      from: "2026-05-01",
      to: "2026-05-07",
      impressions: 35_000,
      clicks: 700,
    });
    expect(week.status).toBe(200);
    const weak = await owner.client.post("/workflow/performance", {
      ...base,
      from: "2026-05-08",
      to: "2026-05-10",
      impressions: 15_000,
      clicks: 150,
    });
    expect(weak.status).toBe(200);
    const fading = await seriesOf(owner, "fading-period");
    expect(fading.series).toHaveLength(10);
    expect(fading.decay).toMatchObject({ decaying: true, recentDays: ["2026-05-08", "2026-05-09", "2026-05-10"] });
    expect(fading.decay.ctr).toMatchObject({ baseline: 0.02, recent: 0.01, falling: true });

    // A steady ad: the same rate in a period and in single days is not called decay.
    const steady = { creativeId: "steady-period", conversions: 0, spend: 0, revenue: 0 };
    expect(
      (
        await owner.client.post("/workflow/performance", {
          ...steady,
          from: "2026-05-01",
          to: "2026-05-07",
          impressions: 35_000,
          clicks: 700,
        })
      ).status,
    ).toBe(200);
    for (const date of ["2026-05-08", "2026-05-09", "2026-05-10"]) {
      expect((await owner.client.post("/workflow/performance", { ...steady, date, impressions: 5_000, clicks: 100 })).status).toBe(200);
    }
    const kept = await seriesOf(owner, "steady-period");
    expect(kept.totals).toMatchObject({ impressions: 50_000, clicks: 1_000 });
    expect(kept.decay).toMatchObject({ decaying: false, enoughVolume: true });
  });

  it("refuses a bad period with a 400 in words, on REST and GraphQL, and stores nothing", async () => {
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const base = { creativeId: "bad-period", ...figures };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [
        { from: "2026-04-05", to: "2026-04-01" },
        "to",
        /The period ends before it starts: to \(2026-04-01\) must be on or after from \(2026-04-05\)/,
      ],
      [
        { date: "2026-04-01", from: "2026-04-01", to: "2026-04-02" },
        "date",
        /either date \(one day\) or from and to \(a period\), not both/,
      ],
      [{ from: "2026-04-01" }, "to", /A period needs both from and to/],
      [{ to: "2026-04-01" }, "from", /A period needs both from and to/],
      [{ from: "2026-01-01", to: "2026-04-30" }, "to", /at most 92 days; 2026-01-01 to 2026-04-30 is 120\. Send it in parts/],
      [{ from: "2026-04-01", to: future }, "to", /is in the future/],
      [{ date: future }, "date", /is in the future/],
      [{ from: "2026-02-30", to: "2026-03-02" }, "from", /That date does not exist/],
    ];
    for (const [change, field, message] of cases) {
      const res = await owner.client.post("/workflow/performance", { ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.error).toMatch(message);
      expect(res.fields?.map((f) => f.field)).toContain(field);
    }
    expect((await owner.client.get("/workflow/performance?creativeId=bad-period")).status).toBe(404);
    // 92 days is allowed.
    const longest = await owner.client.post("/workflow/performance", { ...base, from: "2026-01-01", to: "2026-04-02" });
    expect(longest.status, JSON.stringify(longest.body)).toBe(200);
    expect(longest.body.data.days).toBe(92);

    const mutation = `mutation($from: String, $to: String) {
      performanceIngest(creativeId: "gql-period", from: $from, to: $to, impressions: 70, clicks: 7, conversions: 0, spend: 7, revenue: 0) {
        date days figures { impressions clicks }
      }
    }`;
    const bad = await graphql(app.url, mutation, { from: "2026-04-09", to: "2026-04-02" }, owner.jwt);
    expect(bad.body.errors?.[0]?.message).toMatch(/The period ends before it starts/);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
    const good = await graphql(app.url, mutation, { from: "2026-04-01", to: "2026-04-07" }, owner.jwt);
    expect(good.body.errors).toBeUndefined();
    expect((good.body.data as any).performanceIngest).toEqual({
      date: "2026-04-01/2026-04-07",
      days: 7,
      figures: { impressions: 70, clicks: 7 },
    });
  });
});

describe("correcting a period (PATCH)", () => {
  it("re-spreads the corrected totals and keeps the figures not given", async () => {
    const body = { creativeId: "fix-period", from: "2026-06-01", to: "2026-06-04", ...figures };
    expect((await owner.client.post("/workflow/performance", body)).status).toBe(200);
    const before = await seriesOf(owner, "fix-period");
    const fixed = await owner.client.patch("/workflow/performance", {
      creativeId: "fix-period",
      from: "2026-06-01",
      to: "2026-06-04",
      clicks: 42,
      spend: 80,
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data).toMatchObject({ date: "2026-06-01/2026-06-04", days: 4, figures: { ...figures, clicks: 42, spend: 80 } });
    const after = await seriesOf(owner, "fix-period");
    expect(after.series.map((d: any) => d.clicks)).toEqual([10, 10, 11, 11]);
    expect(after.series.map((d: any) => d.spend)).toEqual([20, 20, 20, 20]);
    expect(after.series.map((d: any) => d.impressions)).toEqual(before.series.map((d: any) => d.impressions));
    expect(after.totals).toMatchObject({ ...figures, clicks: 42, spend: 80 });
  });

  it("answers 404 for a period with a day never ingested, or another account's creative", async () => {
    expect(
      (await owner.client.post("/workflow/performance", { creativeId: "gap-period", from: "2026-06-10", to: "2026-06-11", ...figures }))
        .status,
    ).toBe(200);
    const gap = await owner.client.patch("/workflow/performance", {
      creativeId: "gap-period",
      from: "2026-06-10",
      to: "2026-06-12",
      clicks: 1,
    });
    expect(gap.status).toBe(404);
    expect(gap.body.error).toMatch(/No figures for gap-period on 2026-06-12 to correct/);
    const foreign = await other.client.patch("/workflow/performance", {
      creativeId: "gap-period",
      from: "2026-06-10",
      to: "2026-06-11",
      clicks: 1,
    });
    expect(foreign.status).toBe(404);
    const reversed = await owner.client.patch("/workflow/performance", {
      creativeId: "gap-period",
      from: "2026-06-11",
      to: "2026-06-10",
      clicks: 1,
    });
    expect(reversed.status).toBe(400);
    expect((await seriesOf(owner, "gap-period")).totals).toMatchObject(figures);
  });
});
