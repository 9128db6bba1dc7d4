import { AuthCredentials } from "@adgen/schema";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import { Errors, parseInput } from "../../errors.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { toAuthResponse } from "./to-profile.ts";
import { burnPasswordCheck, verifyPassword } from "./password.ts";
import type { SessionClient, SignedIn } from "./signup.ts";

/** Same 401 message whether the e-mail exists or not; a suspended account gets 403 only with the right password. */
export async function login(services: Services, client: SessionClient, input: z.input<typeof AuthCredentials>): Promise<SignedIn> {
  const { email, password } = parseInput(AuthCredentials, input);
  const { prisma, sessions } = services;
  // Every row names its actor (null until the password is right): the source is only where the request came from.
  const source = { actorId: null, ip: client.ip };
  const user = await prisma.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!user) {
    await burnPasswordCheck(password);
    await recordAudit(prisma, source, {
      action: "auth.login_failed",
      actorId: null,
      metadata: { email: email.toLowerCase(), reason: "unknown_email" },
    });
    throw Errors.invalidCredentials();
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordAudit(prisma, source, {
      action: "auth.login_failed",
      actorId: null,
      targetType: "user",
      targetId: user.id,
      metadata: { reason: "wrong_password" },
    });
    throw Errors.invalidCredentials();
  }
  if (user.status === "suspended") {
    await recordAudit(prisma, source, {
      action: "auth.login_failed",
      actorId: null,
      targetType: "user",
      targetId: user.id,
      metadata: { reason: "suspended" },
    });
    throw Errors.suspended();
  }
  const session = await sessions.create(user.id, client);
  const updated = await prisma.user.update({ where: { id: user.id }, data: { lastLogin: new Date() } });
  await recordAudit(prisma, source, { action: "auth.login", actorId: user.id, targetType: "user", targetId: user.id });
  return { user: toAuthResponse(updated), session };
}
