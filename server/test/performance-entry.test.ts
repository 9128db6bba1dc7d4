// Figures entered for one's own projects from a brand's page (which sends that brand's id with each row),
// impossible figures refused in words on every transport, and a day entered by mistake removed again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, signUp } from "./support/accounts.ts";
import { graphql, trpcClient } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "perf-entry");
});
afterAll(() => app.close());

const figures = { impressions: 1000, clicks: 50, conversions: 5, spend: 20, revenue: 60 };

async function brand(name: string): Promise<string> {
  const res = await owner.client.post("/user/brands", { name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id as string;
}

async function launchFor(brandId: string | undefined): Promise<string> {
  const res = await owner.client.post("/workflow", {
    type: "staticad",
    concept: "Cold brew for night shifts",
    ...(brandId ? { brand: brandId } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.jobId as string;
}

describe("a project's figures from its brand's page", () => {
  it("are accepted with the project's own brand id, and refused in words with another brand's", async () => {
    const brewly = await brand("Brewly");
    const other = await brand("Northwind");
    const jobId = await launchFor(brewly);
    const first = await owner.client.post("/workflow/performance", { creativeId: jobId, date: "2026-02-01", brandId: brewly, ...figures });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ projectId: jobId, brandId: brewly });
    // The creative exists now; a second day from the same page is accepted too.
    const second = await owner.client.post("/workflow/performance", { creativeId: jobId, date: "2026-02-02", brandId: brewly, ...figures });
    expect(second.status, JSON.stringify(second.body)).toBe(200);

    const wrong = await owner.client.post("/workflow/performance", { creativeId: jobId, date: "2026-02-03", brandId: other, ...figures });
    expect(wrong.status, JSON.stringify(wrong.body)).toBe(400);
    expect(wrong.body.error).toBe(
      `Project ${jobId} was made for the brand “Brewly”, not the brand “Northwind”: enter its figures under its own brand, or leave brandId out`,
    );
    const report = await owner.client.get(`/workflow/performance?creativeId=${jobId}`);
    expect(report.body.data.creatives[0].totals.impressions).toBe(2000);
  });

  it("a project launched without a brand belongs to the default brand, whose page may enter its figures", async () => {
    const list = await owner.client.get("/user/brands");
    const defaultBrand = (list.body.data as { id: string; isDefault: boolean }[]).find((b) => b.isDefault)!;
    const jobId = await launchFor(undefined);
    const res = await owner.client.post("/workflow/performance", {
      creativeId: jobId,
      date: "2026-02-01",
      brandId: defaultBrand.id,
      ...figures,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ projectId: jobId, brandId: defaultBrand.id });
  });
});

describe("impossible figures", () => {
  it("more clicks than impressions, or conversions than clicks, are refused on REST, tRPC and GraphQL", async () => {
    const bad = { creativeId: "typo-ad", date: "2026-02-01", impressions: 1000, clicks: 5000, conversions: 0, spend: 0, revenue: 0 };
    const rest = await owner.client.post("/workflow/performance", bad);
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatch(/clicks \(5000\) cannot be more than impressions \(1000\)/);
    const conversions = await owner.client.post("/workflow/performance", { ...bad, clicks: 10, conversions: 11 });
    expect(conversions.status).toBe(400);
    expect(conversions.body.error).toMatch(/conversions \(11\) cannot be more than clicks \(10\)/);

    const trpcError = await trpcClient(app.url, owner.jwt)
      .performance.ingest.mutate(bad)
      .then(
        () => null,
        (e: any) => e,
      );
    expect(trpcError?.data?.httpStatus).toBe(400);
    expect(trpcError?.message).toMatch(/cannot be more than impressions/);

    const mutation = `mutation { performanceIngest(creativeId: "typo-ad", date: "2026-02-01", impressions: 1000, clicks: 5000,
      conversions: 0, spend: 0, revenue: 0) { creativeId } }`;
    const gql = await graphql(app.url, mutation, {}, owner.jwt);
    expect(gql.body.errors?.[0]?.message ?? JSON.stringify(gql.body)).toMatch(/cannot be more than impressions/);

    // Nothing was stored by any of them: the creative does not even exist.
    const report = await owner.client.get("/workflow/performance?creativeId=typo-ad");
    expect(report.status).toBe(404);
  });

  it("a correction is judged on the figures it leaves", async () => {
    const ok = await owner.client.post("/workflow/performance", { creativeId: "fix-ad", date: "2026-02-01", ...figures });
    expect(ok.status).toBe(200);
    const res = await owner.client.patch("/workflow/performance", { creativeId: "fix-ad", date: "2026-02-01", clicks: 5000 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/clicks \(5000\) cannot be more than impressions \(1000\)/);
    const report = await owner.client.get("/workflow/performance?creativeId=fix-ad");
    expect(report.body.data.creatives[0].totals.clicks).toBe(50);
  });
});

describe("removing a day entered by mistake", () => {
  it("removes that day's figures, and says so when there is nothing to remove", async () => {
    for (const date of ["2026-02-01", "2026-02-02"])
      expect((await owner.client.post("/workflow/performance", { creativeId: "oops-ad", date, ...figures })).status).toBe(200);
    const removed = await owner.client.delete("/workflow/performance?creativeId=oops-ad&date=2026-02-02");
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data).toEqual({ creativeId: "oops-ad", date: "2026-02-02", removed: true });
    const report = await owner.client.get("/workflow/performance?creativeId=oops-ad");
    expect(report.body.data.creatives[0].series.map((d: { date: string }) => d.date)).toEqual(["2026-02-01"]);
    expect(report.body.data.creatives[0].totals.impressions).toBe(1000);

    const again = await owner.client.delete("/workflow/performance?creativeId=oops-ad&date=2026-02-02");
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("No figures were entered for oops-ad on 2026-02-02, so there is nothing to remove");
    const trpcRemoved = await trpcClient(app.url, owner.jwt).performance.remove.mutate({ creativeId: "oops-ad", date: "2026-02-01" });
    expect(trpcRemoved.removed).toBe(true);
  });
});
