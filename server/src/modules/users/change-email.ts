// Changing the account's sign-in e-mail address. The current password is asked for, so a session left
// open on a shared computer cannot move the account to another address.
import { ChangeEmailInput } from "@adgen/schema";
import type { z } from "zod";
import type { User } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { AppError, isUniqueViolation, parseInput } from "../../errors.ts";
import { type ActingAccount, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { verifyPassword } from "../auth/password.ts";

export async function changeEmail(
  services: Services,
  user: User & ActingAccount,
  input: z.input<typeof ChangeEmailInput>,
): Promise<{ email: string }> {
  const parsed = parseInput(ChangeEmailInput, input);
  const email = parsed.email.toLowerCase();
  const { prisma } = services;
  if (!(await verifyPassword(user.passwordHash, parsed.password))) {
    await recordAudit(prisma, auditSourceFor(user), { action: "user.email_change_failed", targetType: "user", targetId: user.id });
    throw new AppError("BAD_REQUEST", "The password is not correct. Enter the password you sign in with.");
  }
  if (email === user.email) throw new AppError("BAD_REQUEST", `${email} is already your e-mail address.`);
  try {
    await prisma.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { email } });
      // Both addresses stay in the audit trail: they are what traces an account takeover.
      await recordAudit(tx, auditSourceFor(user), {
        action: "user.email_changed",
        targetType: "user",
        targetId: user.id,
        metadata: { from: user.email, to: email },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("CONFLICT", "Another account already uses that e-mail address. Choose a different one.");
    throw error;
  }
  return { email };
}
