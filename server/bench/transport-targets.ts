// What `pnpm bench transports` (and bench/profile-transports.ts) load: one signed-in account's profile read
// through REST, tRPC and GraphQL (the same document each time, and a fresh document each time), a partner's
// bulk read (viewer → brands → projects with their daily performance, 50 projects), and the floors beside
// them: a bare Hono route running the statements each read needs, with no authentication, rate limit,
// validation or framework.
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { hasApiKey } from "../src/modules/api-keys/api-keys.ts";
import { brandProjectPages } from "../src/modules/analytics/brand-projects.ts";
import { projectDays } from "../src/modules/analytics/project-days.ts";
import { readUser } from "../src/modules/auth/read-account.ts";
import type { ServiceHandle } from "../src/services.ts";
import type { LoadTarget } from "./autocannon.ts";

const PROFILE = "userProfile { id email role creditsBalance currentPlanId status }";

/** The partner's read: every brand's newest 50 projects, each with its days of figures. */
export const PARTNER_QUERY = `query PartnerProjects { viewer { brands(first: 5) { edges { node { brandId name
  projects(first: 50) { totalCount edges { node { projectId type status createdAt
    performance { day impressions clicks conversions spendCents revenueCents } } } } } } } } }`;

export const PARTNER_PROJECTS = 50;

async function signUp(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "password123" }),
  });
  if (res.status !== 200) throw new Error(`signup answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("session="))!
    .split(";")[0]!;
}

/** One brand with 50 completed projects, each with a creative and 7 days of figures. */
async function seedPartner(services: ServiceHandle, userId: string): Promise<void> {
  const { prisma } = services;
  const brand = await prisma.brandProfile.create({ data: { userId, isDefault: true, profile: { name: "House" } } });
  const ids = Array.from({ length: PARTNER_PROJECTS }, (_, i) => `bench-project-${userId.slice(0, 8)}-${i}`);
  await prisma.job.createMany({
    data: ids.map((id, i) => ({
      id,
      userId,
      type: "ugc",
      quality: "standard",
      status: "completed" as const,
      creditsUsed: 10,
      input: { type: "ugc", brand: brand.id },
      createdAt: new Date(Date.parse("2026-02-01T09:00:00Z") + i * 3_600_000),
    })),
  });
  for (const id of ids) {
    const creative = await prisma.performanceCreative.create({ data: { userId, key: id, jobId: id, brandId: brand.id } });
    await prisma.performanceMetric.createMany({
      data: Array.from({ length: 7 }, (_, d) => ({
        creativeId: creative.id,
        day: new Date(Date.parse("2026-02-05T00:00:00Z") + d * 86_400_000),
        impressions: 1000,
        clicks: 20 + d,
        conversions: 2,
        spendCents: 700n,
        revenueCents: 2100n,
      })),
    });
  }
}

export async function profileTargets(services: ServiceHandle, url: string) {
  const cookie = await signUp(url, `transports-${Date.now()}@example.com`);
  const me = (await (await fetch(`${url}/api/user/profile`, { headers: { cookie } })).json()) as { data: { id: string } };
  const id = me.data.id;
  await seedPartner(services, id);
  const { prisma } = services;
  const sql = services.db.sql;
  const bare = new Hono();
  // The floor the issue first set: the same account read through Prisma.
  bare.get("/profile", async (c) => c.json(await prisma.user.findUnique({ where: { id } })));
  // The profile handler's own two prepared statements (the account, as authentication reads it, and whether
  // it has an API key): against this floor a ratio is what the transport and the invocation path cost.
  bare.get("/profile-sql", async (c) => c.json({ user: await readUser(sql, id), hasApiKey: await hasApiKey(sql, id) }));
  // The statements the partner query needs, in the order the graph runs them: the account, its brands, each
  // brand's page of project ids and its total (one statement), those projects' rows, their days (one statement).
  bare.get("/partner-sql", async (c) => {
    const viewer = await prisma.user.findUnique({ where: { id } });
    const brands = await prisma.brandProfile.findMany({ where: { userId: id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 6 });
    const pages = await brandProjectPages(sql, brands, { take: 51, skip: 0, cursor: null, from: null, to: null, newestFirst: true });
    const jobIds = pages.flatMap((p) => p.ids);
    const jobs = await prisma.job.findMany({ where: { id: { in: jobIds } } });
    const days = await projectDays(sql, jobIds);
    return c.json({ viewer: viewer?.id, brands, pages, jobs: jobs.length, days });
  });
  const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => bareServer.once("listening", resolve));
  const barePort = (bareServer.address() as { port: number }).port;
  const graphql = (body: string, fresh = false): LoadTarget => ({
    url: `${url}/graphql`,
    method: "POST",
    headers: { cookie, "content-type": "application/json" },
    body,
    fresh,
  });
  const targets: Record<string, LoadTarget> = {
    bare: { url: `http://127.0.0.1:${barePort}/profile` },
    bareSql: { url: `http://127.0.0.1:${barePort}/profile-sql` },
    rest: { url: `${url}/api/user/profile`, headers: { cookie } },
    trpc: { url: `${url}/trpc/user.profile`, headers: { cookie } },
    graphql: graphql(JSON.stringify({ query: `{ ${PROFILE} }` })),
    // A new operation name on every request: the document text is never the same twice.
    graphqlFresh: graphql(JSON.stringify({ query: `query Profile_[<id>] { ${PROFILE} }` }), true),
    partnerSql: { url: `http://127.0.0.1:${barePort}/partner-sql` },
    partner: graphql(JSON.stringify({ query: PARTNER_QUERY })),
  };
  return Object.assign(targets, {
    close: () => new Promise<void>((resolve) => bareServer.close(() => resolve())),
  }) as Record<string, LoadTarget> & { close(): Promise<void> };
}
