// The five partner queries of docs/graphql-partners.md, run as written with a read-only
// (analytics) key against data this test makes, and their answers checked. The page must show each
// query word for word, and GraphiQL opens with one tab each.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type GraphQLNamedType, getNamedType, isListType, isNonNullType, isObjectType } from "graphql";
import { MAX_PAGE } from "../src/graphql/builder.ts";
import { PARTNER_QUERIES } from "../src/graphql/partner-queries.ts";
import { buildSchema } from "../src/graphql/schema.ts";
import { mediaUrl } from "../src/modules/workflows/pipeline/step-types.ts";
import { type Account, ADMIN_ENV, adminClient, signUp } from "./support/accounts.ts";
import { graphql } from "./support/clients.ts";
import { startTestApp, type TestApp } from "./support/harness.ts";

let app: TestApp;
let owner: Account;
let key: string;
const jobs = { fading: randomUUID(), steady: randomUUID(), third: randomUUID() };
const DOC = readFileSync(new URL("../../docs/graphql-partners.md", import.meta.url), "utf8");
const byTitle = (start: string) => PARTNER_QUERIES.find((q) => q.title.startsWith(start))!;

beforeAll(async () => {
  app = await startTestApp({ ...ADMIN_ENV });
  owner = await signUp(app, "partner-docs");
  const admin = await adminClient(app);
  expect((await admin.patch(`/admin/users/${owner.id}`, { current_plan_id: "subscription_agency" })).status).toBe(200);
  key = (await owner.client.post("/user/api-key", { scope: "analytics" })).body.data.apiKey;
  const prisma = app.services.prisma;
  // Stored as the pipeline stores a result's files (build-result.ts): absolute URLs on this service.
  const video = { url: mediaUrl(app.services, `jobs/${jobs.fading}/ad-9x16.mp4`), type: "video", format: "9:16", duration: 15 };
  await prisma.job.createMany({
    data: [
      { id: jobs.fading, type: "cinematic", result: { assets: [video] } },
      { id: jobs.steady, type: "ugc", result: { assets: [] } },
      { id: jobs.third, type: "cinematic", result: { assets: [] } },
    ].map((job, i) => ({
      ...job,
      userId: owner.id,
      quality: "standard",
      status: "completed" as const,
      creditsUsed: 10,
      input: {},
      createdAt: new Date(Date.parse("2026-01-05T10:00:00Z") + i * 60_000),
      finishedAt: new Date("2026-01-05T11:00:00Z"),
    })),
  });
  // What the ledger charged for them (credits used are read from it).
  await prisma.creditLedgerEntry.createMany({
    data: Object.values(jobs).map((reference, i) => ({
      userId: owner.id,
      delta: -10,
      balanceAfter: 100,
      reason: "workflow_charge",
      reference,
      createdAt: new Date(Date.parse("2026-01-05T10:00:00Z") + i * 60_000),
    })),
  });
  const fading = randomUUID();
  const steady = randomUUID();
  await prisma.performanceCreative.createMany({
    data: [
      { id: fading, key: "fading", jobId: jobs.fading },
      { id: steady, key: "steady", jobId: jobs.steady },
    ].map((c) => ({ ...c, userId: owner.id, brandId: "brand-a" })),
  });
  // Six days: the fading creative's CTR falls from 5 % to 2 % in the last three.
  const days = Array.from({ length: 6 }, (_, d) => new Date(Date.parse("2026-01-05T00:00:00Z") + d * 86_400_000));
  await prisma.performanceMetric.createMany({
    data: days.flatMap((day, d) => [
      { creativeId: fading, day, impressions: 5000, clicks: d < 3 ? 250 : 100, conversions: 10, spendCents: 1000n, revenueCents: 3000n },
      { creativeId: steady, day, impressions: 5000, clicks: 250, conversions: 10, spendCents: 1000n, revenueCents: 3000n },
    ]),
  });
});
afterAll(async () => {
  await app?.close();
});

async function run(start: string, variables?: Record<string, unknown>) {
  const { query, variables: documented } = byTitle(start);
  const res = await graphql(app.url, query, variables ?? documented ?? {}, key);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data;
}

describe("the claims of docs/graphql-partners.md", () => {
  it("its table names every list of the partner graph, each a connection or a bounded list with the bound the schema states", () => {
    const rows = [...DOC.matchAll(/^\| `(\w+)\.(\w+)` *\| (connection|bounded list) *\| (\d+)[^|]*\|$/gm)].map(
      ([, type, field, kind, bound]) => ({
        at: `${type}.${field}`,
        kind,
        bound: Number(bound),
      }),
    );
    const schema = buildSchema();
    const lists = new Map<string, { kind: string; description: string }>();
    const seen = new Set<string>();
    const visit = (type: GraphQLNamedType) => {
      if (seen.has(type.name) || !isObjectType(type)) return;
      seen.add(type.name);
      for (const field of Object.values(type.getFields())) {
        const outer = isNonNullType(field.type) ? field.type.ofType : field.type;
        const named = getNamedType(field.type);
        if (named.name.endsWith("Connection"))
          lists.set(`${type.name}.${field.name}`, { kind: "connection", description: field.description ?? "" });
        else if (isListType(outer) && !(type.name.endsWith("Connection") && field.name === "edges"))
          lists.set(`${type.name}.${field.name}`, { kind: "bounded list", description: field.description ?? "" });
        visit(named);
      }
    };
    visit(getNamedType(schema.getQueryType()!.getFields().viewer!.type));
    expect(rows.map((r) => r.at).sort()).toEqual([...lists.keys()].sort());
    for (const row of rows) {
      const listed = lists.get(row.at)!;
      expect(listed.kind, row.at).toBe(row.kind);
      if (row.kind === "connection") expect(row.bound, row.at).toBe(MAX_PAGE);
      else expect(listed.description, row.at).toContain(`at most ${row.bound}`);
    }
    expect(DOC).toMatch(/a page\s+holds at most 100 rows, 20 when `first` and `last` are left out/);
  });
});

describe("the partner queries of docs/graphql-partners.md", () => {
  it("are on the page word for word, and in GraphiQL's tabs", async () => {
    for (const { query } of PARTNER_QUERIES) expect(DOC).toContain(query);
    const page = await (await fetch(`${app.url}/graphql`, { headers: { accept: "text/html" } })).text();
    expect(page).toContain("WeeklyRoasByType");
  });

  it("weekly ROAS by type", async () => {
    const data = await run("Weekly ROAS");
    expect(data.viewer.performanceByWeek).toEqual([
      { week: "2026-01-05", group: "cinematic", spendCents: 6000, revenueCents: 18_000, roas: 3, ctr: 0.035, conversions: 60 },
      { week: "2026-01-05", group: "ugc", spendCents: 6000, revenueCents: 18_000, roas: 3, ctr: 0.05, conversions: 60 },
    ]);
  });

  it("decaying creatives of a brand", async () => {
    const data = await run("Decaying");
    const decay = Object.fromEntries(data.viewer.creatives.edges.map((e: any) => [e.node.key, e.node.decay]));
    expect(data.viewer.creatives.totalCount).toBe(2);
    expect(decay.fading).toMatchObject({ decaying: true, enoughVolume: true, ctrChange: -0.6 });
    expect(decay.steady).toMatchObject({ decaying: false, enoughVolume: true });
  });

  it("credits by type", async () => {
    const data = await run("Credits");
    expect(data.viewer.creditsByWeek).toEqual([
      { week: "2026-01-05", workflowType: "cinematic", credits: 20, projects: 2 },
      { week: "2026-01-05", workflowType: "ugc", credits: 10, projects: 1 },
    ]);
  });

  it("the last 50 projects with assets", async () => {
    const data = await run("The last 50");
    const projects = data.viewer.projects;
    expect(projects.totalCount).toBe(3);
    expect(projects.pageInfo.hasNextPage).toBe(false);
    expect(projects.edges.map((e: any) => e.node.projectId)).toEqual([jobs.third, jobs.steady, jobs.fading]);
    const [asset] = projects.edges[2].node.assets;
    expect(asset).toEqual({ type: "video", format: "9:16", url: expect.any(String), duration: 15 });
    // The page's claim about asset URLs holds: absolute, on this service, and served to the same key.
    const claim = /Asset URLs are (absolute|relative)/.exec(DOC)?.[1];
    expect(claim).toBe("absolute");
    expect(asset.url).toBe(`${app.services.config.publicUrl}/api/media/${jobs.fading}/ad-9x16.mp4`);
    expect(new URL(asset.url).pathname).toBe(`/api/media/${jobs.fading}/ad-9x16.mp4`);
  });

  it("a job's events through a subscription", async () => {
    const client = createClient({
      url: `${app.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
    });
    // A running project of the account; the worker's progress reports reach the partner as they happen.
    const launched = await owner.client.post("/workflow", { type: "cinematic", concept: "a kettle that sings in tune" });
    expect(launched.status, JSON.stringify(launched.body)).toBe(200);
    const jobId = launched.body.data.jobId as string;
    const events: any[] = [];
    let completed = false;
    const failures: unknown[] = [];
    client.subscribe<any>(
      { query: byTitle("A job's events").query, variables: { jobId } },
      {
        next: (value) => (value.errors ? failures.push(value.errors) : events.push(value.data.workflowStream)),
        error: (error) => failures.push(error),
        complete: () => {
          completed = true;
        },
      },
    );
    try {
      await expect.poll(() => events.length, { timeout: 10_000 }).toBeGreaterThan(0);
      for (const body of [{ progress: 50 }, { status: "failed", result: { error: "stand-in failure" } }]) {
        const res = await owner.client.post("/workflow/stream", { jobId, ...body });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
      await expect.poll(() => completed, { timeout: 10_000 }).toBe(true);
    } finally {
      await client.dispose();
    }
    expect(failures).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(["workflow.state", "workflow.started", "workflow.step", "workflow.failed"]);
    expect(events.at(-1)).toMatchObject({ status: "failed", error: "stand-in failure" });
    // The failed job's refund, typed: the other kinds' fields are null.
    const job = await app.services.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    expect(events.at(-1).result).toEqual({ completedStep: null, refunded: job.creditsUsed, workflow: null });
    expect(events[0].result).toBeNull();
  });
});
