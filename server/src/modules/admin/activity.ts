// GET /admin/activity: the audit trail, newest first, paginated, filtered by account (actor or target),
// action (exact, or a prefix ending in ".") and date.
import type { Prisma } from "@adgen/prisma";
import { ActivityQuery, type ActivityPage } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AuditSource } from "../audit/record-audit.ts";
import { parseInput } from "../../errors.ts";
import { auditAdminRead } from "../audit/admin-audit.ts";
import { resolvePeriod } from "./period.ts";

export async function adminActivity(services: Services, source: AuditSource, input: z.input<typeof ActivityQuery>): Promise<ActivityPage> {
  const query = parseInput(ActivityQuery, input);
  const where: Prisma.AuditLogWhereInput = {};
  if (query.userId) where.OR = [{ actorId: query.userId }, { targetId: query.userId }];
  if (query.action) where.action = query.action.endsWith(".") ? { startsWith: query.action } : query.action;
  if (query.from || query.to) {
    // Only the bounds given: no 30-day default and no length limit for a search.
    const period = resolvePeriod({ from: query.from ?? "1970-01-01", to: query.to ?? "2999-12-31" }, new Date(), Infinity);
    where.createdAt = { ...(query.from ? { gte: period.from } : {}), ...(query.to ? { lt: period.to } : {}) };
  }
  const { prisma } = services;
  const [total, rows] = await Promise.all([
    prisma.auditLog.count({ where }),
    prisma.auditLog.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
  ]);
  const actorIds = [...new Set(rows.map((row) => row.actorId).filter((id): id is string => id !== null))];
  const actors = new Map(
    (await prisma.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]),
  );
  // Recorded after the page is read, so the page shows the trail as it was asked for.
  await auditAdminRead(services, source, "admin.activity_viewed", {
    page: query.page,
    ...(query.userId ? { userId: query.userId } : {}),
    ...(query.action ? { action: query.action } : {}),
  });
  return {
    entries: rows.map((row) => ({
      id: row.id,
      actorId: row.actorId,
      actorEmail: row.actorId ? (actors.get(row.actorId) ?? null) : null,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      ip: row.ip,
      metadata: (row.metadata ?? {}) as Record<string, unknown>,
      createdAt: row.createdAt.toISOString(),
    })),
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
  };
}
