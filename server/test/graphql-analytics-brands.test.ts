// The analytics graph's brand level (issue 32): viewer → brands → projects (for the default brand also the
// projects that named none), a project's review, daily performance and ledger entries, and the loop's next
// move for each brand. Another account's brands and projects are reachable through none of it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, type Account } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let other: Account;
const brands = { main: "", second: "" };
const jobs = { reviewed: randomUUID(), plain: randomUUID(), second: randomUUID() };

beforeAll(async () => {
  app = await startTestApp();
  owner = await signUp(app, "graph-brands");
  other = await signUp(app, "graph-brands-other");
  for (const [key, name] of [
    ["main", "Main Roast"],
    ["second", "Second Bean"],
  ] as const) {
    const made = await owner.client.post("/user/brands", { name });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    brands[key] = made.body.data.id;
  }
  const theirs = await other.client.post("/user/brands", { name: "Not yours" });
  expect(theirs.status).toBe(200);
  const prisma = app.services.prisma;
  const base = { userId: owner.id, quality: "standard", status: "completed" as const, creditsUsed: 10 };
  await prisma.job.createMany({
    data: [
      {
        ...base,
        id: jobs.reviewed,
        type: "cinematic",
        input: { type: "cinematic" },
        hitl: true,
        reviewRequestedAt: new Date("2026-02-02T10:00:00Z"),
        reviewDecision: "approved",
        reviewFeedback: "Ship it",
        reviewedAt: new Date("2026-02-02T11:00:00Z"),
        rating: "up",
        createdAt: new Date("2026-02-02T09:00:00Z"),
      },
      { ...base, id: jobs.plain, type: "ugc", input: { type: "ugc", brand: brands.main }, createdAt: new Date("2026-02-03T09:00:00Z") },
      { ...base, id: jobs.second, type: "ugc", input: { type: "ugc", brand: brands.second }, createdAt: new Date("2026-02-04T09:00:00Z") },
      { ...base, userId: other.id, type: "ugc", input: { type: "ugc", brand: brands.second } },
    ],
  });
  const creative = await prisma.performanceCreative.create({
    data: { userId: owner.id, key: jobs.reviewed, jobId: jobs.reviewed, brandId: brands.main },
  });
  await prisma.performanceMetric.createMany({
    data: [0, 1].map((d) => ({
      creativeId: creative.id,
      day: new Date(Date.parse("2026-02-05T00:00:00Z") + d * 86_400_000),
      impressions: 1000,
      clicks: 20 + d,
      conversions: 2,
      spendCents: 700n,
      revenueCents: 2100n,
    })),
  });
  await prisma.creditLedgerEntry.createMany({
    data: [
      {
        userId: owner.id,
        delta: -10,
        balanceAfter: 90,
        reason: "workflow_charge",
        reference: jobs.reviewed,
        createdAt: new Date("2026-02-02T09:00:00Z"),
      },
      {
        userId: owner.id,
        delta: 10,
        balanceAfter: 100,
        reason: "workflow_refund",
        reference: jobs.reviewed,
        createdAt: new Date("2026-02-03T09:00:00Z"),
      },
    ],
  });
});
afterAll(async () => {
  await app?.close();
});

const BRANDS = `{ viewer {
  brands(first: 10, order: OLDEST_FIRST) { totalCount edges { node {
    brandId name isDefault
    projects(first: 10, order: OLDEST_FIRST) { totalCount edges { node {
      projectId brandId
      review { hitl decision feedback rating decidedAt }
      performance { day clicks spendCents revenueCents }
      ledgerEntries { delta reason }
    } } }
    loopAction { brandId action }
  } } }
  loopActions { brandId action reasoning cost }
} }`;

describe("the graph's brands", () => {
  it("leads from the viewer to each brand's projects, with their review, daily performance and ledger entries", async () => {
    const res = await graphql(app.url, BRANDS, {}, owner.jwt);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    const { brands: page, loopActions } = res.body.data.viewer;
    expect(page.totalCount).toBe(2);
    const [main, second] = page.edges.map((e: any) => e.node);
    expect(main).toMatchObject({ brandId: brands.main, name: "Main Roast", isDefault: true });
    expect(second).toMatchObject({ brandId: brands.second, name: "Second Bean", isDefault: false });
    // The default brand has the project that named it and the one that named none.
    expect(main.projects.totalCount).toBe(2);
    expect(main.projects.edges.map((e: any) => e.node.projectId)).toEqual([jobs.reviewed, jobs.plain]);
    // A project's parts, read through its brand (a connection's edges and nodes are no levels of the depth limit).
    const [reviewed, plain] = main.projects.edges.map((e: any) => e.node);
    expect(reviewed).toEqual({
      projectId: jobs.reviewed,
      brandId: null,
      review: { hitl: true, decision: "approved", feedback: "Ship it", rating: "up", decidedAt: "2026-02-02T11:00:00.000Z" },
      performance: [
        { day: "2026-02-05", clicks: 20, spendCents: 700, revenueCents: 2100 },
        { day: "2026-02-06", clicks: 21, spendCents: 700, revenueCents: 2100 },
      ],
      ledgerEntries: [
        { delta: -10, reason: "workflow_charge" },
        { delta: 10, reason: "workflow_refund" },
      ],
    });
    expect(plain).toEqual({ projectId: jobs.plain, brandId: brands.main, review: null, performance: [], ledgerEntries: [] });
    // The other account's project for the same brand id is not this brand's.
    expect(second.projects.edges.map((e: any) => e.node.projectId)).toEqual([jobs.second]);
    expect(second.projects.totalCount).toBe(1);
    // The loop's move for each brand, the default brand first (too little data: seed a first creative).
    expect(main.loopAction.brandId).toBe(brands.main);
    expect(loopActions.map((a: any) => a.brandId)).toEqual([brands.main, brands.second]);
    for (const action of loopActions) expect(["SEED", "DOUBLE_DOWN", "ITERATE", "KILL", "CHALLENGER"]).toContain(action.action);
  });

  it("pages each brand's projects with cursors both ways, and counts them when only the count is asked", async () => {
    const page = async (args: string) => {
      const res = await graphql(
        app.url,
        `{ viewer { brands(first: 10, order: OLDEST_FIRST) { edges { node { brandId projects(${args}, order: OLDEST_FIRST) {
          totalCount edges { cursor node { projectId } } pageInfo { hasNextPage hasPreviousPage } } } } } } }`,
        {},
        owner.jwt,
      );
      expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
      return res.body.data.viewer.brands.edges.map((e: any) => ({
        ids: e.node.projects.edges.map((edge: any) => edge.node.projectId),
        cursors: e.node.projects.edges.map((edge: any) => edge.cursor),
        total: e.node.projects.totalCount,
        ...e.node.projects.pageInfo,
      }));
    };
    const [main, second] = await page("first: 1");
    expect(main).toMatchObject({ ids: [jobs.reviewed], total: 2, hasNextPage: true, hasPreviousPage: false });
    expect(second).toMatchObject({ ids: [jobs.second], total: 1, hasNextPage: false });
    // A cursor of the main brand's list: its next row there; in another brand's list it stands nowhere.
    const [mainNext, secondNext] = await page(`first: 1, after: "${main.cursors[0]}"`);
    expect(mainNext).toMatchObject({ ids: [jobs.plain], total: 2, hasNextPage: false, hasPreviousPage: true });
    expect(secondNext).toMatchObject({ ids: [], total: 1 });
    const [mainLast] = await page("last: 1");
    expect(mainLast).toMatchObject({ ids: [jobs.plain], hasPreviousPage: true, hasNextPage: false });
    const [mainBefore] = await page(`last: 5, before: "${mainLast.cursors[0]}"`);
    expect(mainBefore).toMatchObject({ ids: [jobs.reviewed], hasPreviousPage: false, hasNextPage: true });
    const counted = await graphql(
      app.url,
      `{ viewer { brands(first: 10, order: OLDEST_FIRST) { edges { node { projects { totalCount } } } } } }`,
      {},
      owner.jwt,
    );
    expect(counted.body.data.viewer.brands.edges.map((e: any) => e.node.projects.totalCount)).toEqual([2, 1]);
  });

  it("shows another account only its own brands", async () => {
    const res = await graphql(app.url, `{ viewer { brands(first: 10) { totalCount edges { node { name } } } } }`, {}, other.jwt);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.brands.edges.map((e: any) => e.node.name)).toEqual(["Not yours"]);
  });
});
