// The audit log: who did what to what, from where, and when. Rows are only ever added.
import type { Prisma } from "@adgen/prisma";
import type { RequestContext, Tx } from "../../request-context.ts";

export interface AuditRecord {
  action: string;
  actorId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  metadata?: Record<string, unknown>;
}

export async function recordAudit(db: Tx, ctx: Pick<RequestContext, "ip" | "auth">, record: AuditRecord): Promise<void> {
  await db.auditLog.create({
    data: {
      action: record.action,
      actorId: record.actorId !== undefined ? record.actorId : (ctx.auth?.user.id ?? null),
      targetType: record.targetType ?? null,
      targetId: record.targetId ?? null,
      ip: ctx.ip,
      metadata: (record.metadata ?? {}) as Prisma.InputJsonValue,
    },
  });
}
