// The signed-in user's own account: profile, balance, password, provider preference.
import { ChangePasswordInput, ProviderPreferenceInput, type UserProfile } from "@adgen/schema";
import type { z } from "zod";
import type { RequestContext } from "../../context.ts";
import { AppError, parseInput } from "../../errors.ts";
import { hasApiKey } from "../api-keys/api-keys.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { requireUser } from "../auth/authenticate.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import { toUserProfile } from "./to-profile.ts";

// The account row was read when this request was authenticated (one read per request): it is used as is.
export async function getProfile(ctx: RequestContext): Promise<UserProfile> {
  const user = requireUser(ctx);
  return toUserProfile(user, await hasApiKey(ctx.services.db.sql, user.id));
}

export function getCreditBalance(ctx: RequestContext): { balance: number } {
  return { balance: requireUser(ctx).creditsBalance };
}

/** Changes the password and ends every other session of the account (the current one stays signed in). */
export async function changePassword(ctx: RequestContext, input: z.input<typeof ChangePasswordInput>): Promise<{ changed: true }> {
  const user = requireUser(ctx);
  const { currentPassword, newPassword } = parseInput(ChangePasswordInput, input);
  const { prisma } = ctx.services;
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    await recordAudit(prisma, ctx, { action: "user.password_change_failed", targetType: "user", targetId: user.id });
    const message = "Your current password is not correct";
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: "currentPassword", message }] });
  }
  // Checked after the current password, so the answer never tells a stranger anything about it.
  if (newPassword === currentPassword) {
    const message = "Your new password is the same as your current one: choose a different password";
    throw new AppError("BAD_REQUEST", message, { fields: [{ field: "newPassword", message }] });
  }
  const passwordHash = await hashPassword(newPassword);
  const keep = ctx.auth?.session?.id;
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await tx.session.deleteMany({ where: { userId: user.id, ...(keep ? { id: { not: keep } } : {}) } });
    await recordAudit(tx, ctx, { action: "user.password_changed", targetType: "user", targetId: user.id });
  });
  ctx.services.sessions.revoke({ userId: user.id, except: keep ?? null });
  return { changed: true };
}

export function getProviderPreference(ctx: RequestContext) {
  return { preference: requireUser(ctx).providerPreference };
}

export async function setProviderPreference(ctx: RequestContext, input: z.input<typeof ProviderPreferenceInput>) {
  const user = requireUser(ctx);
  const { preference } = parseInput(ProviderPreferenceInput, input);
  await ctx.services.prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { providerPreference: preference } });
    await recordAudit(tx, ctx, { action: "user.provider_preference_set", targetType: "user", targetId: user.id, metadata: { preference } });
  });
  return { preference };
}
