// The analytics graph over GraphQL (issue 32): `viewer` → projects, creatives (with their daily
// performance), invoices, ledger entries and knowledge items, each a Relay connection with totalCount,
// filters and ordering; relations load through the Prisma plugin without N+1 queries; rows of another
// account are reachable through no path, `node(id:)` included; admins read every account.
import { randomUUID } from "node:crypto";
import { isInputObjectType, isInterfaceType, isObjectType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphQLSchema } from "../src/graphql/schema.ts";
import { ADMIN_EMAIL, ADMIN_ENV, signUp, type Account } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let other: Account;
let adminToken: string;

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  owner = await signUp(app, "graph-owner");
  other = await signUp(app, "graph-other");
  const login = await graphql(app.url, `mutation($e: String!, $p: String!) { authLogin(email: $e, password: $p) { token } }`, {
    e: ADMIN_EMAIL,
    p: ADMIN_ENV.ADMIN_PASSWORD,
  });
  adminToken = login.body.data.authLogin.token;
  const prisma = app.services.prisma;
  // 50 projects, a creative each with three days of performance, made a minute apart (oldest first).
  const start = Date.parse("2026-03-02T00:00:00Z");
  // In three statements: a slow seed lets the server close the kept-alive socket the next fetch reuses.
  const ids = Array.from({ length: 50 }, (_, i) => ({ job: randomUUID(), creative: randomUUID(), i }));
  await prisma.job.createMany({
    data: ids.map(({ job, i }) => ({
      id: job,
      userId: owner.id,
      type: i % 2 === 0 ? "cinematic" : "ugc",
      quality: "standard",
      status: i % 5 === 0 ? ("failed" as const) : ("completed" as const),
      creditsUsed: 10,
      input: { type: "cinematic", concept: `Project ${i}` },
      createdAt: new Date(start + i * 60_000),
    })),
  });
  await prisma.performanceCreative.createMany({
    data: ids.map(({ job, creative, i }) => ({
      id: creative,
      userId: owner.id,
      key: `creative-${i}`,
      jobId: job,
      brandId: i < 10 ? "brand-a" : "brand-b",
      createdAt: new Date(start + i * 60_000),
    })),
  });
  await prisma.performanceMetric.createMany({
    data: ids.flatMap(({ creative }) =>
      [0, 1, 2].map((d) => ({
        creativeId: creative,
        day: new Date(start + d * 86_400_000),
        impressions: 1000,
        clicks: 10 + d,
        conversions: 1,
        spendCents: 500n,
        revenueCents: 1500n,
      })),
    ),
  });
  // The account's default brand: its projects are those whose launch named no brand (all 50).
  await prisma.brandProfile.create({ data: { userId: owner.id, isDefault: true, profile: { name: "House" } } });
  // Three more brands (newer), whose lists are empty: a page of brands reads its projects at once, not per brand.
  for (const [i, name] of ["Second", "Third", "Fourth"].entries()) {
    await prisma.brandProfile.create({ data: { userId: owner.id, profile: { name }, createdAt: new Date(Date.now() + (i + 1) * 1000) } });
  }
  const theirs = await prisma.job.create({
    data: { userId: other.id, type: "cinematic", quality: "standard", status: "completed", creditsUsed: 10, input: {} },
  });
  // Credits used are read from the ledger: a charge per project, and one refund (job 0, a cinematic one)
  // that jobs.credits_used does not show.
  await prisma.creditLedgerEntry.createMany({
    data: [
      ...ids.map(({ job, i }) => ({
        userId: owner.id,
        delta: -10,
        balanceAfter: 1000,
        reason: "workflow_charge",
        reference: job,
        createdAt: new Date(start + i * 60_000),
      })),
      {
        userId: owner.id,
        delta: 10,
        balanceAfter: 1000,
        reason: "workflow_refund",
        reference: ids[0]!.job,
        createdAt: new Date(start + 86_400_000),
      },
      { userId: other.id, delta: -10, balanceAfter: 0, reason: "workflow_charge", reference: theirs.id },
    ],
  });
});
afterAll(async () => {
  await app?.close();
});

async function gql(query: string, variables: Record<string, unknown> = {}, token = owner.jwt) {
  const res = await graphql(app.url, query, variables, token);
  return res.body as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

/**
 * Counts the SQL statements the database runs while `run` does: at PGlite's door, or on PostgreSQL at every
 * client's `query` (the pool's included). The queue's own upkeep (pg-boss maintenance on its timer) and the
 * shared rate-limit counters' batched flush (PostgreSQL) are not the query's.
 */
async function countStatements(run: () => Promise<unknown>): Promise<number> {
  const pglite = app.services.db.pglite as any;
  const target = pglite ?? (await import("pg")).default.Client.prototype;
  let count = 0;
  const wrapped: Record<string, (...args: any[]) => unknown> = {};
  for (const name of pglite ? ["query", "exec"] : ["query"]) {
    const original = target[name];
    wrapped[name] = original;
    target[name] = function (this: unknown, ...args: any[]) {
      const text = typeof args[0] === "string" ? args[0] : String(args[0]?.text ?? "");
      if (!/pgboss\.|pg_advisory_xact_lock|pg_notify|^\s*LISTEN|rate_limit_counters/i.test(text)) count++;
      return original.apply(this, args);
    };
  }
  try {
    await run();
  } finally {
    for (const [name, original] of Object.entries(wrapped)) target[name] = original;
  }
  return count;
}

describe("the analytics graph", () => {
  it("pages the viewer's projects with cursors both ways, counts them, filters and orders them", async () => {
    const first = await gql(
      `{ viewer { projects(first: 3) { totalCount pageInfo { hasNextPage endCursor } edges { node { name type status } } } } }`,
    );
    expect(first.errors).toBeUndefined();
    const projects = first.data.viewer.projects;
    expect(projects.totalCount).toBe(50);
    expect(projects.pageInfo.hasNextPage).toBe(true);
    expect(projects.edges.map((e: any) => e.node.name)).toEqual(["", "", ""]);
    const next = await gql(
      `query($after: String) { viewer { projects(first: 2, after: $after, order: OLDEST_FIRST) { edges { cursor node { type } } } } }`,
      {
        after: null,
      },
    );
    expect(next.data.viewer.projects.edges.map((e: any) => e.node.type)).toEqual(["cinematic", "ugc"]);
    const failed = await gql(
      `{ viewer { projects(first: 100, status: "failed", type: "cinematic") { totalCount edges { node { status type } } } } }`,
    );
    expect(failed.data.viewer.projects.totalCount).toBe(5);
    const window = await gql(
      `{ viewer { projects(first: 100, createdWithin: { from: "2026-03-02T00:10:00Z", to: "2026-03-02T00:20:00Z" }) { totalCount } } }`,
    );
    expect(window.data.viewer.projects.totalCount).toBe(10);
    const last = await gql(`{ viewer { projects(last: 1) { edges { node { createdAt } } pageInfo { hasPreviousPage } } } }`);
    expect(last.data.viewer.projects.edges[0].node.createdAt).toBe("2026-03-02T00:00:00.000Z");
  });

  it("refuses a page of more than 100 rows, and a query whose pages multiply past the cost limit", async () => {
    const res = await gql(`{ viewer { projects(first: 101) { totalCount } } }`);
    expect(res.errors?.[0]?.message).toBe("`first` may ask for at most 100 rows a page, not 101.");
    const nested = await gql(
      `{ accounts(first: 100) { edges { node { creatives(first: 100) { edges { node { key performance { day } } } } } } } }`,
      {},
      adminToken,
    );
    expect(nested.errors?.[0]?.message).toMatch(/^Query Cost limit of 5000 exceeded, found \d+\.$/);
    const small = await gql(
      `{ accounts(first: 2) { edges { node { creatives(first: 10) { edges { node { key } } } } } } }`,
      {},
      adminToken,
    );
    expect(small.errors).toBeUndefined();
    // `first` from a variable costs what the variable asks: two rows are cheap, a hundred are not.
    const byVariable = `query($n: Int) { accounts(first: $n) { edges { node { creatives(first: $n) { edges { node { key performance { day } } } } } } } }`;
    expect((await gql(byVariable, { n: 2 }, adminToken)).errors).toBeUndefined();
    const many = await gql(byVariable, { n: 100 }, adminToken);
    expect(many.errors?.[0]?.message).toMatch(/^Query Cost limit of 5000 exceeded, found \d+\.$/);
    const tooMany = await gql(byVariable, { n: 101 }, adminToken);
    expect(tooMany.errors?.[0]?.message).toBe("`first` may ask for at most 100 rows a page, not 101.");
    // Not given: the variable's default, else a page of 20.
    const defaulted = `query($n: Int = 3) { viewer { projects(first: $n) { edges { node { projectId } } } } }`;
    expect((await gql(defaulted)).data.viewer.projects.edges).toHaveLength(3);
  });

  it("reads 50 projects and 50 creatives with their daily performance in at most 5 SQL statements", async () => {
    let body: any;
    // The session is read once and then cached, as for any client that asks more than once.
    expect((await gql("{ viewer { projects(first: 1) { totalCount } } }")).errors).toBeUndefined();
    const statements = await countStatements(async () => {
      body = await gql(`{ viewer {
        projects(first: 50) { totalCount edges { node { id type status creditsUsed } } }
        creatives(first: 50) { edges { node { key projectId performance { day clicks spendCents revenueCents } decay { decaying enoughVolume } } } }
      } }`);
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.viewer.projects.edges).toHaveLength(50);
    expect(body.data.viewer.creatives.edges).toHaveLength(50);
    for (const edge of body.data.viewer.creatives.edges) {
      expect(edge.node.performance).toHaveLength(3);
      expect(edge.node.decay).toEqual({ decaying: false, enoughVolume: false });
    }
    expect(statements).toBeLessThanOrEqual(5);
  });

  it("reads 50 projects with their assets, review, daily performance and ledger entries in at most 5 SQL statements", async () => {
    expect((await gql("{ viewer { projects(first: 1) { totalCount } } }")).errors).toBeUndefined();
    let body: any;
    const statements = await countStatements(async () => {
      body = await gql(`{ viewer { projects(first: 50) { totalCount edges { node {
        projectId assets { url } review { hitl } performance { day clicks } ledgerEntries { delta reason }
      } } } } }`);
    });
    expect(body.errors).toBeUndefined();
    expect(body.data.viewer.projects.edges).toHaveLength(50);
    for (const edge of body.data.viewer.projects.edges) {
      // Each project made one creative with three days; the ledger charged each (job 0 was refunded too).
      expect(edge.node.performance.map((d: any) => d.clicks)).toEqual([10, 11, 12]);
      expect(edge.node.ledgerEntries[0]).toEqual({ delta: -10, reason: "workflow_charge" });
    }
    // The account, the page, its count, then one statement for every project's days and one for their entries.
    expect(statements).toBeLessThanOrEqual(5);
  });

  it("reads four brands' projects (one brand's 50) with their parts in as many SQL statements as one brand's", async () => {
    expect((await gql("{ viewer { projects(first: 1) { totalCount } } }")).errors).toBeUndefined();
    let body: any;
    const statements = await countStatements(async () => {
      body =
        await gql(`{ viewer { brands(first: 4, order: OLDEST_FIRST) { totalCount edges { node { name projects(first: 50) { totalCount edges { node {
        projectId assets { url } review { hitl } performance { day clicks } ledgerEntries { delta reason }
      } } pageInfo { hasNextPage } } } } } } }`);
    });
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const brands = body.data.viewer.brands.edges.map((e: any) => e.node);
    expect(brands.map((b: any) => [b.name, b.projects.totalCount, b.projects.edges.length])).toEqual([
      ["House", 50, 50],
      ["Second", 0, 0],
      ["Third", 0, 0],
      ["Fourth", 0, 0],
    ]);
    for (const edge of brands[0].projects.edges) {
      expect(edge.node.performance.map((d: any) => d.clicks)).toEqual([10, 11, 12]);
      expect(edge.node.ledgerEntries[0]).toEqual({ delta: -10, reason: "workflow_charge" });
    }
    // The caller's account, the viewer, the brands and their count; then, for every brand of the page at once,
    // one statement for their pages and totals and one for the pages' projects; then one statement for every
    // project's days and one for their entries.
    expect(statements).toBeLessThanOrEqual(8);
  });

  it("never reaches another account's rows, through node(id:) either; an admin reads every account", async () => {
    const mine = await gql(`{ viewer { projects(first: 1) { edges { node { id } } } } }`);
    const id = mine.data.viewer.projects.edges[0].node.id;
    const asOwner = await gql(`query($id: ID!) { node(id: $id) { id ... on AccountProject { type } } }`, { id });
    expect(asOwner.data.node.id).toBe(id);
    const asOther = await gql(`query($id: ID!) { node(id: $id) { id } }`, { id }, other.jwt);
    expect(asOther.errors).toBeUndefined();
    expect(asOther.data.node).toBeNull();
    // Nor another account itself: its id reads as no such node, not as the caller's own account.
    const ownerAccount = (await gql(`{ viewer { id } }`)).data.viewer.id;
    const otherReadsOwner = await gql(`query($id: ID!) { node(id: $id) { id } }`, { id: ownerAccount }, other.jwt);
    expect(otherReadsOwner.errors).toBeUndefined();
    expect(otherReadsOwner.data.node).toBeNull();
    const theirs = await gql(`{ viewer { projects(first: 100) { totalCount } } }`, {}, other.jwt);
    expect(theirs.data.viewer.projects.totalCount).toBe(1);
    const asAdmin = await gql(`query($id: ID!) { node(id: $id) { id } }`, { id }, adminToken);
    expect(asAdmin.data.node.id).toBe(id);
    const accounts = await gql(
      `{ accounts(first: 100) { totalCount edges { node { email projects(first: 1) { totalCount } } } } }`,
      {},
      adminToken,
    );
    expect(accounts.errors).toBeUndefined();
    const ownerRow = accounts.data.accounts.edges.find((e: any) => e.node.email === owner.email);
    expect(ownerRow.node.projects.totalCount).toBe(50);
    const refused = await gql(`{ accounts(first: 1) { totalCount } }`);
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const anonymous = await graphql(app.url, `{ viewer { email } }`);
    expect(anonymous.body.errors?.[0]?.extensions?.code).toBe("UNAUTHORIZED");
  });

  it("sums performance by week and workflow type, brand or creative, and credits by week and type, in SQL", async () => {
    const byType = await gql(
      `{ viewer { performanceByWeek(groupBy: WORKFLOW_TYPE) { week group impressions clicks conversions spendCents revenueCents ctr roas } } }`,
    );
    expect(byType.errors).toBeUndefined();
    expect(byType.data.viewer.performanceByWeek).toEqual(
      ["cinematic", "ugc"].map((group) => ({
        week: "2026-03-02",
        group,
        impressions: 75_000,
        clicks: 825,
        conversions: 75,
        spendCents: 37_500,
        revenueCents: 112_500,
        ctr: 0.011,
        roas: 3,
      })),
    );
    const brandA = await gql(`{ viewer { performanceByWeek(groupBy: BRAND, brandId: "brand-a") { group spendCents } } }`);
    expect(brandA.data.viewer.performanceByWeek).toEqual([{ group: "brand-a", spendCents: 15_000 }]);
    const byCreative = await gql(`{ viewer { performanceByWeek(groupBy: CREATIVE, days: { from: "2026-03-03" }) { group clicks } } }`);
    expect(byCreative.data.viewer.performanceByWeek).toHaveLength(50);
    expect(byCreative.data.viewer.performanceByWeek[0].clicks).toBe(23);
    const credits = await gql(`{ viewer { creditsByWeek { week workflowType credits projects } } }`);
    expect(credits.data.viewer.creditsByWeek).toEqual([
      { week: "2026-03-02", workflowType: "cinematic", credits: 240, projects: 25 },
      { week: "2026-03-02", workflowType: "ugc", credits: 250, projects: 25 },
    ]);
    const theirs = await gql(`{ viewer { performanceByWeek(groupBy: BRAND) { group } creditsByWeek { credits } } }`, {}, other.jwt);
    expect(theirs.data.viewer.performanceByWeek).toEqual([]);
    expect(theirs.data.viewer.creditsByWeek).toHaveLength(1);
  });

  it("sums a page of accounts' weeks in one statement each, whatever the number of accounts", async () => {
    const query = `{ accounts(first: 50) { edges { node { email performanceByWeek(groupBy: WORKFLOW_TYPE) { group spendCents } creditsByWeek { credits } } } } }`;
    expect((await gql(query, {}, adminToken)).errors).toBeUndefined();
    let body: any;
    const statements = await countStatements(async () => {
      body = await gql(query, {}, adminToken);
    });
    expect(body.errors).toBeUndefined();
    const rows = body.data.accounts.edges.map((e: any) => e.node);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const ownerRow = rows.find((row: any) => row.email === owner.email);
    expect(ownerRow.performanceByWeek).toEqual([
      { group: "cinematic", spendCents: 37_500 },
      { group: "ugc", spendCents: 37_500 },
    ]);
    expect(ownerRow.creditsByWeek.map((w: any) => w.credits)).toEqual([240, 250]);
    expect(rows.find((row: any) => row.email === other.email).creditsByWeek).toHaveLength(1);
    // The accounts, then one statement per sum (not one per account).
    expect(statements).toBeLessThanOrEqual(4);
  });

  it("describes every type and field of the schema", () => {
    const undescribed: string[] = [];
    for (const type of Object.values(graphQLSchema().getTypeMap())) {
      if (type.name.startsWith("__") || ["String", "Int", "Float", "Boolean", "ID"].includes(type.name)) continue;
      if (!type.description) undescribed.push(type.name);
      if (isObjectType(type) || isInputObjectType(type) || isInterfaceType(type)) {
        for (const [name, field] of Object.entries(type.getFields())) if (!field.description) undescribed.push(`${type.name}.${name}`);
      }
    }
    expect(undescribed).toEqual([]);
  });
});
