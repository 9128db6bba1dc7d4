import type { User } from "@adgen/prisma";
import type { AuthResponse, UserProfile } from "@adgen/schema";
import type { Tx } from "../../request-context.ts";

export function toAuthResponse(user: User): AuthResponse {
  return { id: user.id, email: user.email, role: user.role };
}

export function toUserProfile(user: User, hasApiKey: boolean): UserProfile {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    credits_balance: user.creditsBalance,
    current_plan_id: user.currentPlanId,
    provider_preference: user.providerPreference,
    created_at: user.createdAt.toISOString(),
    last_login: user.lastLogin?.toISOString() ?? null,
    status: user.status,
    trial_ends_at: user.trialEndsAt?.toISOString() ?? null,
    has_api_key: hasApiKey,
  };
}

export async function loadProfile(db: Tx, userId: string): Promise<UserProfile | null> {
  const user = await db.user.findUnique({ where: { id: userId }, include: { _count: { select: { apiKeys: true } } } });
  return user ? toUserProfile(user, user._count.apiKeys > 0) : null;
}
