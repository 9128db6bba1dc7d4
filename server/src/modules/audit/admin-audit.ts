// Every admin operation leaves an audit row, reads included: who looked at what, and when. A refused
// admin call (a signed-in non-admin) is audited too, as `admin.denied`.
import type { RequestContext, Services } from "../../request-context.ts";
import { type AuditSource, recordAudit } from "./record-audit.ts";

export async function auditAdminRead(
  services: Services,
  source: AuditSource,
  action: string,
  metadata: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(services.prisma, source, { action, targetType: "system", metadata });
}

/** One `admin.denied` row per account and operation per window; refusals inside it are only counted. */
export const DENIED_WINDOW_MS = 60_000;
/** Past this many open windows in a process, closed ones are dropped (memory stays bounded). */
const MAX_WINDOWS = 10_000;

interface DeniedWindow {
  openedAt: number;
  /** Refusals inside the window that wrote no row; the next row reports them. */
  coalesced: number;
}

const windowsByService = new WeakMap<Services, Map<string, DeniedWindow>>();

function windowsOf(services: Services): Map<string, DeniedWindow> {
  let windows = windowsByService.get(services);
  if (!windows) {
    windows = new Map();
    windowsByService.set(services, windows);
  }
  return windows;
}

function prune(windows: Map<string, DeniedWindow>, now: number): void {
  if (windows.size < MAX_WINDOWS) return;
  for (const [key, window] of windows) if (now - window.openedAt >= DENIED_WINDOW_MS) windows.delete(key);
  if (windows.size >= MAX_WINDOWS) windows.clear();
}

/**
 * Records a refused admin call (actor = the caller; the operation, from the request's trace, and the IP).
 * The gate is synchronous, so the row is written in the background and a failure only logs: the caller's
 * answer stays the 403. Refusals are not rate limited before the gate, so they are coalesced: at most one
 * row per account and operation per minute in each process, the next one counting those in between.
 */
export function auditDeniedAdminCall(ctx: RequestContext, userId: string, now = Date.now()): void {
  const operation = ctx.trace?.operations.at(-1) ?? null;
  const windows = windowsOf(ctx.services);
  const key = `${userId}\u0000${operation ?? ""}`;
  const open = windows.get(key);
  if (open && now - open.openedAt < DENIED_WINDOW_MS) {
    open.coalesced += 1;
    return;
  }
  prune(windows, now);
  windows.set(key, { openedAt: now, coalesced: 0 });
  const metadata: Record<string, unknown> = { operation, ip: ctx.ip, requestId: ctx.trace?.requestId ?? null };
  if (open?.coalesced) metadata.coalescedBefore = open.coalesced;
  const source = { actorId: userId, ip: ctx.ip };
  recordAudit(ctx.services.prisma, source, {
    action: "admin.denied",
    actorId: userId,
    targetType: "operation",
    targetId: operation,
    metadata,
  }).catch((error: Error) =>
    ctx.services.logger.warn({ error: error.message, userId, operation }, "audit: refused admin call not recorded"),
  );
}
