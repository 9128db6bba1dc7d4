// POST /api/notifications/send: a message to yourself (to try a browser), or, for an admin, to any account.
import { PushSendInput } from "@adgen/schema";
import type { z } from "zod";
import type { Role } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { type ActingAccount, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { pushToUser } from "./deliver-push.ts";

export async function sendNotification(services: Services, user: ActingAccount & { role: Role }, input: z.input<typeof PushSendInput>) {
  const { userId, title, body, url } = parseInput(PushSendInput, input);
  const target = userId ?? user.id;
  if (target !== user.id) {
    if (user.role !== "admin") throw new AppError("FORBIDDEN", "admin access required to notify another account");
    const exists = await services.prisma.user.findUnique({ where: { id: target }, select: { id: true } });
    if (!exists) throw Errors.notFound("User");
  }
  const result = await pushToUser(services, target, { title, body, ...(url ? { url } : {}), tag: "manual" });
  if (target !== user.id) {
    await recordAudit(services.prisma, auditSourceFor(user), {
      action: "admin.notification_sent",
      targetType: "user",
      targetId: target,
      metadata: { title, ...result },
    });
  }
  return result;
}
