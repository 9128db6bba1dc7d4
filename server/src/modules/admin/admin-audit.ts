// Every admin operation leaves an audit row, reads included: who looked at what, and when.
import type { RequestContext } from "../../context.ts";
import { recordAudit } from "../audit/record-audit.ts";

export async function auditAdminRead(ctx: RequestContext, action: string, metadata: Record<string, unknown> = {}): Promise<void> {
  await recordAudit(ctx.services.prisma, ctx, { action, targetType: "system", metadata });
}
