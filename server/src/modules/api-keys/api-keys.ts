// Self-service API keys (SPEC 4.5, 5.3): Agency and Enterprise plans only; the key is shown once and
// stored as its SHA-256; one key per account and scope (`full`, or `analytics`: read-only, for partners);
// generating again replaces the key of that scope, from a signed-in session only.
// A key that is revoked or replaced ends the streams open with it, on every instance.
import { randomBytes } from "node:crypto";
import { API_KEY_PLANS, type ApiKeyScope, type PlanId } from "@adgen/schema";
import type { User } from "@adgen/prisma";
import type { Services } from "../../request-context.ts";
import type { Sql } from "../../db/database.ts";
import { AppError } from "../../errors.ts";
import { type ActingAccount, auditSourceFor, recordAudit } from "../audit/record-audit.ts";
import { API_KEY_PREFIX } from "../auth/authenticate.ts";
import { Revoke } from "../auth/credential-revocation.ts";
import { sha256Hex } from "../auth/tokens.ts";

const eligiblePlans: readonly PlanId[] = API_KEY_PLANS;

// A prepared statement: the profile asks it on every read, and through Prisma this one-row lookup cost a
// fifth of a profile read's CPU (the query compiler).
const HAS_API_KEY = "SELECT EXISTS (SELECT 1 FROM api_keys WHERE user_id = $1) AS has_key";

/** Whether the account has an API key (the profile and the key's status both say so). */
export async function hasApiKey(sql: Sql, userId: string): Promise<boolean> {
  const [row] = await sql.prepared<{ has_key: boolean }>("account_has_api_key", HAS_API_KEY, [userId]);
  return row?.has_key === true;
}

export async function getApiKeyStatus(services: Services, user: User) {
  const keys = await services.prisma.apiKey.findMany({ where: { userId: user.id }, select: { scope: true } });
  return {
    hasApiKey: keys.length > 0,
    hasFullKey: keys.some((key) => key.scope === "full"),
    hasAnalyticsKey: keys.some((key) => key.scope === "analytics"),
    eligible: eligiblePlans.includes(user.currentPlanId),
    currentPlan: user.currentPlanId,
    eligiblePlans: [...eligiblePlans],
  };
}

/**
 * A new key replaces the account's key. Only a signed-in session may make one: a key that could mint its
 * successor would let whoever leaked it keep the account's access and lock the owner's key out.
 * `credential` is what the caller signed in with.
 */
export async function generateApiKey(
  services: Services,
  user: User & ActingAccount,
  credential: "session" | "api_key",
  scope: ApiKeyScope = "full",
) {
  if (credential === "api_key") {
    throw new AppError(
      "FORBIDDEN",
      "An API key cannot create API keys. Sign in to your account and create the new key on the Billing page.",
    );
  }
  if (!eligiblePlans.includes(user.currentPlanId)) {
    throw new AppError("FORBIDDEN", "Your plan does not support API keys. Upgrade to Agency or Enterprise.");
  }
  const apiKey = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const replaced = await services.prisma.$transaction(async (tx) => {
    // One key per scope: a new full key replaces the full key, and leaves a partner's analytics key alone.
    const old = await tx.apiKey.findMany({ where: { userId: user.id, scope }, select: { id: true } });
    await tx.apiKey.deleteMany({ where: { id: { in: old.map((key) => key.id) } } });
    await tx.apiKey.create({ data: { userId: user.id, keyHash: sha256Hex(apiKey), prefix: apiKey.slice(0, 8), scope } });
    await recordAudit(tx, auditSourceFor(user), {
      action: "user.api_key_generated",
      targetType: "user",
      targetId: user.id,
      metadata: { scope },
    });
    return old;
  });
  for (const { id } of replaced) services.sessions.revoke(Revoke.apiKey(user.id, id, "api_key_replaced"));
  return { apiKey, scope };
}

export async function revokeApiKey(services: Services, user: User & ActingAccount) {
  const revoked = await services.prisma.$transaction(async (tx) => {
    const keys = await tx.apiKey.findMany({ where: { userId: user.id }, select: { id: true } });
    await tx.apiKey.deleteMany({ where: { id: { in: keys.map((key) => key.id) } } });
    if (keys.length) await recordAudit(tx, auditSourceFor(user), { action: "user.api_key_revoked", targetType: "user", targetId: user.id });
    return keys;
  });
  for (const { id } of revoked) services.sessions.revoke(Revoke.apiKey(user.id, id, "api_key_revoked"));
  return { revoked: revoked.length > 0 };
}
