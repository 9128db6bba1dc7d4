// POST /api/notifications/send: a message to yourself (to try a browser), or, for an admin, to any account.
import { auditSourceOf } from "../../request-context.ts";
import { PushSendInput } from "@adgen/schema";
import type { z } from "zod";
import type { RequestContext } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";
import { pushToUser } from "./deliver-push.ts";

export async function sendNotification(ctx: RequestContext, input: z.input<typeof PushSendInput>) {
  const user = requireUser(ctx);
  const { userId, title, body, url } = parseInput(PushSendInput, input);
  const target = userId ?? user.id;
  if (target !== user.id) {
    if (user.role !== "admin") throw new AppError("FORBIDDEN", "admin access required to notify another account");
    const exists = await ctx.services.prisma.user.findUnique({ where: { id: target }, select: { id: true } });
    if (!exists) throw Errors.notFound("User");
  }
  const result = await pushToUser(ctx.services, target, { title, body, ...(url ? { url } : {}), tag: "manual" });
  if (target !== user.id) {
    await recordAudit(ctx.services.prisma, auditSourceOf(ctx), {
      action: "admin.notification_sent",
      targetType: "user",
      targetId: target,
      metadata: { title, ...result },
    });
  }
  return result;
}
