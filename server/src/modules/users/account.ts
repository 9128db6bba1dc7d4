// The signed-in user's own account: profile, balance, password, provider preference.
import { ChangePasswordInput, type PasswordChanged, ProviderPreferenceInput, type UserProfile } from "@adgen/schema";
import type { z } from "zod";
import type { User } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { hasApiKey } from "../api-keys/api-keys.ts";
import { type ActingAccount, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { Revoke } from "../auth/credential-revocation.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import { toUserProfile } from "../auth/to-profile.ts";

// The account row (for a request, the one read when it was authenticated: one read per request) is used as is.
export async function getProfile(services: Services, user: User): Promise<UserProfile> {
  return toUserProfile(user, await hasApiKey(services.db.sql, user.id));
}

export function getCreditBalance(user: User): { balance: number } {
  return { balance: user.creditsBalance };
}

/**
 * Changes the password and ends every other credential of the account: every other session and the API key
 * (a password is changed after a leak). The session that made the change stays signed in; the answer says
 * what ended, so the user knows to make a new key. `keep` is that session (null: none is kept).
 */
export async function changePassword(
  services: Services,
  user: User & ActingAccount,
  keep: string | null,
  input: z.input<typeof ChangePasswordInput>,
): Promise<PasswordChanged> {
  const { currentPassword, newPassword } = parseInput(ChangePasswordInput, input);
  const { prisma } = services;
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    await recordAudit(prisma, auditSourceFor(user), { action: "user.password_change_failed", targetType: "user", targetId: user.id });
    const message = "Your current password is not correct";
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: "currentPassword", message }] });
  }
  // Checked after the current password, so the answer never tells a stranger anything about it.
  if (newPassword === currentPassword) {
    const message = "Your new password is the same as your current one: choose a different password";
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: "newPassword", message }] });
  }
  const passwordHash = await hashPassword(newPassword);
  const ended = await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const sessions = await tx.session.deleteMany({ where: { userId: user.id, ...(keep ? { id: { not: keep } } : {}) } });
    const keys = await tx.apiKey.deleteMany({ where: { userId: user.id } });
    await recordAudit(tx, auditSourceFor(user), {
      action: "user.password_changed",
      targetType: "user",
      targetId: user.id,
      metadata: { otherSessionsEnded: sessions.count, apiKeyRevoked: keys.count > 0 },
    });
    return { otherSessionsEnded: sessions.count, apiKeyRevoked: keys.count > 0 };
  });
  services.sessions.revoke(Revoke.everything(user.id, "password_changed", keep));
  return { changed: true, ...ended };
}

export function getProviderPreference(user: User) {
  return { preference: user.providerPreference };
}

export async function setProviderPreference(
  services: Services,
  user: User & ActingAccount,
  input: z.input<typeof ProviderPreferenceInput>,
) {
  const { preference } = parseInput(ProviderPreferenceInput, input);
  await services.prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { providerPreference: preference } });
    await recordAudit(tx, auditSourceFor(user), {
      action: "user.provider_preference_set",
      targetType: "user",
      targetId: user.id,
      metadata: { preference },
    });
  });
  return { preference };
}
