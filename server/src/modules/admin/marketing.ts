// POST/GET /admin/marketing/generate: the service markets itself with its own parts.
//   blog  — a blog post draft about the product, written from the live catalogue and usage figures;
//   ad    — a self-marketing ad launched through the real workflow on the house account (its job's
//           status and files show in the run's status);
//   leads — a lead list built from recent signups, contact messages and newsletter subscribers, added
//           to the leads (one per e-mail).
import type { MarketingRun as MarketingRunRow, Prisma } from "@adgen/prisma";
import { CREDIT_PACKS, MarketingRequest, type MarketingRun, WORKFLOWS, WorkflowRequest } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { type ActingAccount, type AuditSource, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { changeCredits, LedgerReason } from "../credits/ledger.ts";
import { launchWorkflow } from "../workflows/launch/launch-workflow.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { saveLead, toLead } from "./leads.ts";
import { readSettings } from "../settings/settings.ts";
import { hashPassword } from "../auth/password.ts";
import { randomBytes } from "node:crypto";

/** The account the service's own ads are made on (never signed in to: its password is random and unknown). */
export const HOUSE_EMAIL = "house-account@adgen.internal";
const HOUSE_TOP_UP = 20;

const toRun = (row: MarketingRunRow): MarketingRun => ({
  id: row.id,
  kind: row.kind as MarketingRun["kind"],
  status: row.status as MarketingRun["status"],
  output: (row.output as Record<string, unknown> | null) ?? null,
  error: row.error,
  jobId: row.jobId,
  createdAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

async function blogDraft(services: Services): Promise<Record<string, unknown>> {
  const { prisma } = services;
  const [completed, accounts] = await Promise.all([prisma.job.count({ where: { status: "completed" } }), prisma.user.count()]);
  const cheapest = WORKFLOWS.reduce((a, b) => (b.standard < a.standard ? b : a));
  const title = "Video ads in every social format, made from one concept";
  const body = [
    `# ${title}`,
    "",
    "Writing one ad is work; cutting it for every feed, story and reel is more work. AdGen takes a concept, a product page",
    "or your brand profile and makes the ad in each format you need, with the copy, pictures, motion and music chosen for it.",
    "",
    "## What it makes",
    "",
    ...WORKFLOWS.map((w) => `- **${w.name}** (${w.standard} credit${w.standard === 1 ? "" : "s"}): ${w.description}`),
    "",
    "## How it works",
    "",
    "Every ad gets a creative score before it renders: hook in the first two seconds, reading time per scene, a clear call to",
    "action, the brand present, and text inside each platform's safe zone. You can stop for a review, edit or reorder the",
    "scenes, and render only what you kept. If a job fails, its credits come back automatically.",
    "",
    "## Try it",
    "",
    `New accounts start with free credits, enough for a first ${cheapest.name} ad. Credit packs start at ${CREDIT_PACKS[0]?.credits ?? 10} credits.`,
    completed > 0
      ? `So far ${completed} ad${completed === 1 ? " has" : "s have"} been made here for ${accounts} account${accounts === 1 ? "" : "s"}.`
      : "",
  ]
    .filter((line, i, all) => !(line === "" && all[i - 1] === ""))
    .join("\n")
    .trim();
  return { title, markdown: body, words: body.split(/\s+/).filter(Boolean).length };
}

async function houseAccount(services: Services) {
  const { prisma } = services;
  const existing = await prisma.user.findUnique({ where: { email: HOUSE_EMAIL } });
  if (existing) return existing;
  return prisma.user
    .create({
      data: {
        email: HOUSE_EMAIL,
        passwordHash: await hashPassword(randomBytes(32).toString("base64url")),
        currentPlanId: "subscription_enterprise",
      },
    })
    .catch(async () => prisma.user.findUniqueOrThrow({ where: { email: HOUSE_EMAIL } }));
}

/** Launches a Static Ad about the service on the house account, topping its credits up through the ledger. */
async function launchHouseAd(services: Services, adminId: string): Promise<{ jobId: string; output: Record<string, unknown> }> {
  let house = await houseAccount(services);
  if (house.creditsBalance < HOUSE_TOP_UP) {
    await services.prisma.$transaction((tx) =>
      changeCredits(tx, {
        userId: house.id,
        delta: HOUSE_TOP_UP - house.creditsBalance,
        reason: LedgerReason.adminAdjustment,
        actorId: adminId,
        note: "house account top-up for a self-marketing ad",
      }),
    );
    house = await services.prisma.user.findUniqueOrThrow({ where: { id: house.id } });
  }
  const concept = [
    "AdGen makes video ads in every social format from one concept.",
    'Tagline: "One concept. Every format."',
    'CTA: "Make your first ad free"',
    "Creative score before rendering, review before paying, credits back if a job fails.",
  ].join(" ");
  const request = parseInput(WorkflowRequest, { type: "staticad", concept, formats: ["1:1"], async: true });
  const launched = await launchWorkflow(services, house, request);
  return { jobId: launched.data.jobId, output: { houseAccount: HOUSE_EMAIL, type: "staticad", jobStatus: launched.data.status } };
}

/** Recent signups, contact messages and newsletter subscribers become leads (one per e-mail). */
async function buildLeadList(services: Services): Promise<Record<string, unknown>> {
  const { prisma } = services;
  const since = new Date(Date.now() - 30 * 86_400_000);
  const [signups, contacts, subscribers] = await Promise.all([
    prisma.user.findMany({
      where: { createdAt: { gte: since }, role: "user", email: { not: HOUSE_EMAIL }, NOT: { email: { endsWith: ".invalid" } } },
      select: { email: true, currentPlanId: true },
      take: 500,
    }),
    prisma.contactMessage.findMany({ where: { createdAt: { gte: since } }, select: { email: true, name: true }, take: 500 }),
    prisma.newsletterSubscription.findMany({ where: { createdAt: { gte: since } }, select: { email: true }, take: 500 }),
  ]);
  const candidates = [
    ...signups.map((u) => ({ email: u.email, source: "signup" as const, note: `signed up; plan ${u.currentPlanId}` })),
    ...contacts.map((c) => ({
      email: c.email.toLowerCase(),
      source: "contact" as const,
      name: c.name ?? undefined,
      note: "sent a contact message",
    })),
    ...subscribers.map((s) => ({ email: s.email.toLowerCase(), source: "newsletter" as const, note: "subscribed to the newsletter" })),
  ];
  let added = 0;
  const seen = new Set<string>();
  const listed = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.email)) continue;
    seen.add(candidate.email);
    const saved = await saveLead(prisma, candidate, null);
    if (saved.created) added += 1;
    listed.push(toLead(saved.lead));
  }
  return {
    candidates: seen.size,
    added,
    alreadyKnown: seen.size - added,
    bySource: { signup: signups.length, contact: contacts.length, newsletter: subscribers.length },
    leads: listed.slice(0, 50),
  };
}

export async function generateMarketing(services: Services, admin: ActingAccount, input: z.input<typeof MarketingRequest>) {
  const { kinds } = parseInput(MarketingRequest, input);
  if (!(await readSettings(services)).featureFlags.marketing) {
    throw new AppError("FORBIDDEN", "The marketing workflows are turned off in settings (feature flag `marketing`)");
  }
  const runs: MarketingRun[] = [];
  for (const kind of [...new Set(kinds)]) {
    const row = await services.prisma.marketingRun.create({ data: { kind, requestedById: admin.id } });
    let update: Prisma.MarketingRunUpdateInput;
    try {
      if (kind === "ad") {
        const { jobId, output } = await launchHouseAd(services, admin.id);
        update = { jobId, output: output as Prisma.InputJsonValue };
      } else {
        const output = kind === "blog" ? await blogDraft(services) : await buildLeadList(services);
        update = { status: "completed", output: output as Prisma.InputJsonValue, finishedAt: new Date() };
      }
    } catch (error) {
      update = { status: "failed", error: (error as Error).message.slice(0, 500), finishedAt: new Date() };
    }
    runs.push(toRun(await services.prisma.marketingRun.update({ where: { id: row.id }, data: update })));
  }
  await recordAudit(services.prisma, auditSourceFor(admin), {
    action: "admin.marketing_generated",
    targetType: "marketing",
    metadata: { runs: runs.map((run) => ({ id: run.id, kind: run.kind, status: run.status })) },
  });
  return { runs };
}

/** An ad run follows its job: completed with the job's files, or failed with its error. */
async function settleAdRun(services: Services, row: MarketingRunRow): Promise<MarketingRunRow> {
  if (row.kind !== "ad" || row.status !== "running" || !row.jobId) return row;
  const job = await services.prisma.job.findUnique({ where: { id: row.jobId } });
  const output = { ...(row.output as object), jobStatus: job?.status ?? "missing", progress: job?.progress ?? 0 };
  if (job?.status === "completed") {
    const result = job.result as { assets?: unknown[]; finalVideo?: unknown } | null;
    return services.prisma.marketingRun.update({
      where: { id: row.id },
      data: {
        status: "completed",
        finishedAt: job.finishedAt ?? new Date(),
        output: { ...output, assets: (result?.assets ?? []) as Prisma.InputJsonValue },
      },
    });
  }
  if (!job || job.status === "failed") {
    return services.prisma.marketingRun.update({
      where: { id: row.id },
      data: { status: "failed", finishedAt: new Date(), error: job?.error ?? "the ad's job no longer exists", output },
    });
  }
  return { ...row, output };
}

export async function marketingStatus(services: Services, source: AuditSource) {
  const rows = await services.prisma.marketingRun.findMany({ orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: 20 });
  const runs = [];
  for (const row of rows) runs.push(toRun(await settleAdRun(services, row)));
  await auditAdminRead(services, source, "admin.marketing_viewed");
  return { runs };
}
