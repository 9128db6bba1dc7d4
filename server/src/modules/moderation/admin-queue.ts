// GET /api/admin/moderation: notices and appeals in one queue, pending first (oldest first among them, so
// nothing waits forever), then resolved ones, newest first. Filters: status, kind, category, project.
import type { ModerationDecision, ModerationReport, Prisma } from "@adgen/prisma";
import {
  type ModerationAction,
  type ModerationCategory,
  type ModerationQueue,
  type ModerationQueueItem,
  ModerationQueueQuery,
} from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { parseInput } from "../../errors.ts";

type Owner = { name: string; ownerEmail: string };

function decisionSummary(d: ModerationDecision | null | undefined) {
  return d ? { id: d.id, action: d.action as ModerationAction, statement: d.statement, decidedAt: d.createdAt.toISOString() } : null;
}

function noticeItem(r: ModerationReport, decision: ModerationDecision | undefined, owner: Owner | undefined): ModerationQueueItem {
  return {
    id: r.id,
    kind: "notice",
    reference: r.reference,
    status: r.status === "pending" ? "pending" : "resolved",
    projectId: r.jobId,
    projectName: owner?.name ?? "(deleted project)",
    ownerEmail: owner?.ownerEmail ?? "",
    category: r.category as ModerationCategory,
    explanation: r.explanation,
    reporterName: r.reporterName,
    reporterEmail: r.reporterEmail,
    target: r.target,
    submittedAt: r.createdAt.toISOString(),
    decision: decisionSummary(decision),
  };
}

function appealItem(d: ModerationDecision, owner: Owner | undefined): ModerationQueueItem {
  return {
    id: d.id,
    kind: "appeal",
    reference: null,
    status: d.appealStatus === "pending" ? "pending" : "resolved",
    projectId: d.jobId,
    projectName: owner?.name ?? "(deleted project)",
    ownerEmail: owner?.ownerEmail ?? "",
    category: d.category as ModerationCategory,
    explanation: d.appealText ?? "",
    reporterName: null,
    reporterEmail: null,
    target: null,
    submittedAt: (d.appealedAt ?? d.createdAt).toISOString(),
    decision: decisionSummary(d),
  };
}

export async function listModerationQueue(services: Services, input: z.input<typeof ModerationQueueQuery>): Promise<ModerationQueue> {
  const q = parseInput(ModerationQueueQuery, input);
  const { prisma } = services;
  const common = { ...(q.category ? { category: q.category } : {}), ...(q.projectId ? { jobId: q.projectId } : {}) };
  const noticeWhere: Prisma.ModerationReportWhereInput = { ...common, ...(q.status === "all" ? {} : { status: q.status }) };
  const appealWhere: Prisma.ModerationDecisionWhereInput = {
    ...common,
    appealStatus: q.status === "pending" ? "pending" : q.status === "resolved" ? { in: ["upheld", "reversed"] } : { not: null },
  };
  // The queue of one service stays small enough to merge in memory (at most a few thousand open items).
  const [notices, appeals, pendingNotices, pendingAppeals] = await Promise.all([
    q.kind === "appeal" ? [] : prisma.moderationReport.findMany({ where: noticeWhere, take: 5000 }),
    q.kind === "notice" ? [] : prisma.moderationDecision.findMany({ where: appealWhere, take: 5000 }),
    prisma.moderationReport.count({ where: { status: "pending" } }),
    prisma.moderationDecision.count({ where: { appealStatus: "pending" } }),
  ]);
  const decisionIds = notices.map((n) => n.decisionId).filter((id): id is string => Boolean(id));
  const jobIds = [...new Set([...notices.map((n) => n.jobId), ...appeals.map((a) => a.jobId)])];
  const [decisions, jobs] = await Promise.all([
    decisionIds.length ? prisma.moderationDecision.findMany({ where: { id: { in: decisionIds } } }) : [],
    jobIds.length
      ? prisma.job.findMany({ where: { id: { in: jobIds } }, select: { id: true, name: true, user: { select: { email: true } } } })
      : [],
  ]);
  const decisionById = new Map(decisions.map((d) => [d.id, d]));
  const ownerByJob = new Map(jobs.map((j) => [j.id, { name: j.name || "Untitled project", ownerEmail: j.user.email }]));
  const items = [
    ...notices.map((n) => noticeItem(n, n.decisionId ? decisionById.get(n.decisionId) : undefined, ownerByJob.get(n.jobId))),
    ...appeals.map((a) => appealItem(a, ownerByJob.get(a.jobId))),
  ].sort((a, b) => {
    if (a.status !== b.status) return a.status === "pending" ? -1 : 1;
    const order = a.submittedAt.localeCompare(b.submittedAt);
    return a.status === "pending" ? order : -order;
  });
  const start = (q.page - 1) * q.pageSize;
  return {
    items: items.slice(start, start + q.pageSize),
    page: q.page,
    pageSize: q.pageSize,
    total: items.length,
    pending: pendingNotices + pendingAppeals,
  };
}
