import { auditSourceOf } from "../../request-context.ts";
import type { RequestContext } from "../../request-context.ts";
import { Errors } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";

/** Revokes the session behind this request at once: its JWT stops authenticating immediately. */
export async function logout(ctx: RequestContext): Promise<{ loggedOut: true }> {
  if (!ctx.auth) throw Errors.unauthenticated();
  if (ctx.auth.session) await ctx.services.sessions.invalidate(ctx.auth.user.id, ctx.auth.session.id);
  await recordAudit(ctx.services.prisma, auditSourceOf(ctx), {
    action: "auth.logout",
    targetType: "user",
    targetId: ctx.auth.user.id,
    metadata: { method: ctx.auth.method },
  });
  return { loggedOut: true };
}
