// Admin operations on accounts (SPEC 4.12, CONTRACT). Each is an `admin` operation (the invocation path checks
// the caller) and is audited with who did what to whom.
import type { Prisma } from "@adgen/prisma";
import {
  API_KEY_PLANS,
  AdminCreditGrant,
  AdminResetPassword,
  AdminStatusUpdate,
  AdminUserListQuery,
  AdminUserUpdate,
  type AdminUserList,
  type UserProfile,
} from "@adgen/schema";
import type { z } from "zod";
import type { Services, Tx } from "../../request-context.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { type ActingAccount, type AuditSource, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { type CredentialRevocation, Revoke } from "../auth/credential-revocation.ts";
import { hashPassword } from "../auth/password.ts";
import { changeCredits, InsufficientCreditsError, LedgerReason } from "../credits/ledger.ts";
import { balanceEventIn } from "../credits/balance-updates.ts";
import { loadProfile, toUserProfile } from "../auth/to-profile.ts";

export async function listUsers(services: Services, input: z.input<typeof AdminUserListQuery>): Promise<AdminUserList> {
  const { page, pageSize, search } = parseInput(AdminUserListQuery, input);
  // `contains` is a LIKE pattern: escape its wildcards so `%` or `_` match only themselves.
  const where: Prisma.UserWhereInput = search ? { email: { contains: search.toLowerCase().replace(/[\\%_]/g, "\\$&") } } : {};
  const [total, users] = await Promise.all([
    services.prisma.user.count({ where }),
    services.prisma.user.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      include: { _count: { select: { apiKeys: true } } },
    }),
  ]);
  return {
    users: users.map((u) => toUserProfile(u, u._count.apiKeys > 0)),
    page,
    pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / pageSize)),
  };
}

async function profileOr404(db: Tx, id: string): Promise<UserProfile> {
  const profile = await loadProfile(db, id);
  if (!profile) throw Errors.notFound("User");
  return profile;
}

export async function getUser(services: Services, id: string): Promise<UserProfile> {
  return profileOr404(services.prisma, id);
}

export async function updateUser(
  services: Services,
  admin: ActingAccount,
  id: string,
  input: z.input<typeof AdminUserUpdate>,
): Promise<UserProfile> {
  const patch = parseInput(AdminUserUpdate, input);
  if (id === admin.id && patch.role === "user") throw new AppError("BAD_REQUEST", "You cannot remove your own admin role");
  if (id === admin.id && patch.status === "suspended") throw new AppError("BAD_REQUEST", "You cannot suspend your own account");
  const { prisma } = services;
  const before = await profileOr404(prisma, id);
  const data: Prisma.UserUpdateInput = {};
  if (patch.role !== undefined) data.role = patch.role;
  if (patch.status !== undefined) data.status = patch.status;
  if (patch.current_plan_id !== undefined) data.currentPlanId = patch.current_plan_id;
  // A trial belongs to the trial plan: moving an account to another plan ends it, as a purchase does.
  if (patch.current_plan_id !== undefined && patch.current_plan_id !== "trial") data.trialEndsAt = null;
  if (patch.trial_ends_at !== undefined) data.trialEndsAt = patch.trial_ends_at === null ? null : new Date(patch.trial_ends_at);
  if (patch.provider_preference !== undefined) data.providerPreference = patch.provider_preference;
  const after = await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id }, data });
    // A suspension ends every credential: sessions and the API key (reactivation does not revive them).
    if (patch.status === "suspended") {
      await tx.session.deleteMany({ where: { userId: id } });
      await tx.apiKey.deleteMany({ where: { userId: id } });
    }
    await recordAudit(tx, auditSourceFor(admin), {
      action: "admin.user_updated",
      targetType: "user",
      targetId: id,
      metadata: { changes: patch, before: pick(before, Object.keys(patch)) },
    });
    return profileOr404(tx, id);
  });
  for (const revocation of revocationsFor(id, before, patch)) services.sessions.revoke(revocation);
  return after;
}

/** What an account change ends: its open streams (and, for a suspension, its deleted credentials). */
function revocationsFor(id: string, before: UserProfile, patch: z.output<typeof AdminUserUpdate>): CredentialRevocation[] {
  if (patch.status === "suspended") return [Revoke.everything(id, "suspended")];
  const revocations: CredentialRevocation[] = [];
  // An admin's streams carry every account's events: a demoted admin's end (they reopen as a user's).
  if (before.role === "admin" && patch.role === "user") revocations.push(Revoke.everything(id, "admin_role_removed"));
  const plans: readonly string[] = API_KEY_PLANS;
  if (patch.current_plan_id !== undefined && plans.includes(before.current_plan_id) && !plans.includes(patch.current_plan_id)) {
    revocations.push(Revoke.allApiKeys(id, "plan_without_api_keys"));
  }
  return revocations;
}

function pick(profile: UserProfile, keys: string[]) {
  return Object.fromEntries(keys.map((k) => [k, (profile as Record<string, unknown>)[k]]));
}

/** Suspending ends every live session of the account at once; its API key stops working too. */
export async function setUserStatus(
  services: Services,
  admin: ActingAccount,
  id: string,
  input: z.input<typeof AdminStatusUpdate>,
): Promise<UserProfile> {
  const { status } = parseInput(AdminStatusUpdate, input);
  return updateUser(services, admin, id, { status });
}

export async function grantCredits(services: Services, admin: ActingAccount, id: string, input: z.input<typeof AdminCreditGrant>) {
  const { amount, reason } = parseInput(AdminCreditGrant, input);
  const { prisma } = services;
  await profileOr404(prisma, id);
  const result = await prisma
    .$transaction(async (tx) => {
      const change = await changeCredits(tx, {
        userId: id,
        delta: amount,
        reason: LedgerReason.adminAdjustment,
        actorId: admin.id,
        note: reason ?? null,
      });
      await recordAudit(tx, auditSourceFor(admin), {
        action: "admin.credits_adjusted",
        targetType: "user",
        targetId: id,
        metadata: { amount, reason: reason ?? null, balance: change.balance, entryId: change.entryId },
      });
      const announce = await balanceEventIn(tx, services, id, {
        balance: change.balance,
        delta: amount,
        reason: LedgerReason.adminAdjustment,
      });
      return { ...change, announce };
    })
    .catch((error: unknown) => {
      if (error instanceof InsufficientCreditsError) {
        const { required, available } = error;
        throw new AppError(
          "BAD_REQUEST",
          `That would take the balance below zero: the account holds ${available} ${available === 1 ? "credit" : "credits"} and ${required} would be removed. Remove at most ${available}.`,
        );
      }
      throw error;
    });
  const { announce, ...change } = result;
  announce();
  return change;
}

/** Sets a new password for another account and ends every credential of it: sessions and API key. */
export async function resetPassword(services: Services, source: AuditSource, input: z.input<typeof AdminResetPassword>) {
  const { userId, newPassword } = parseInput(AdminResetPassword, input);
  const { prisma } = services;
  await profileOr404(prisma, userId);
  const passwordHash = await hashPassword(newPassword);
  await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
    await tx.session.deleteMany({ where: { userId } });
    await tx.apiKey.deleteMany({ where: { userId } });
    await recordAudit(tx, source, { action: "admin.password_reset", targetType: "user", targetId: userId });
  });
  services.sessions.revoke(Revoke.everything(userId, "password_reset"));
  return { userId, reset: true as const };
}
