// The audit log: who did what to what, from where, and when. Rows are only ever added.
import type { Prisma } from "@adgen/prisma";
import type { Tx } from "../../request-context.ts";

/** Who acted and from where: the acting account (null when there is none, as in a failed login) and its IP. */
export interface AuditSource {
  actorId: string | null;
  ip: string | null;
}

/** An account acting through a request (or for background work, with no address): its id and the request's IP. */
export interface ActingAccount {
  id: string;
  ip?: string | null;
}

/** The audit source of an account acting on its own behalf. */
export function auditSourceFor(account: ActingAccount): AuditSource {
  return { actorId: account.id, ip: account.ip ?? null };
}

export interface AuditRecord {
  action: string;
  /** Overrides the source's actor (a signup's new account, or null for a failed login). */
  actorId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  metadata?: Record<string, unknown>;
}

export async function recordAudit(db: Tx, source: AuditSource, record: AuditRecord): Promise<void> {
  await db.auditLog.create({
    data: {
      action: record.action,
      actorId: record.actorId !== undefined ? record.actorId : source.actorId,
      targetType: record.targetType ?? null,
      targetId: record.targetId ?? null,
      ip: source.ip,
      metadata: (record.metadata ?? {}) as Prisma.InputJsonValue,
    },
  });
}
