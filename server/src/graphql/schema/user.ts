import type { UserProfile } from "@adgen/schema";
import { generateApiKey, getApiKeyStatus, revokeApiKey } from "../../modules/api-keys/api-keys.ts";
import { changePassword, getCreditBalance, getProfile, getProviderPreference, setProviderPreference } from "../../modules/users/account.ts";
import { type BalanceChanged, watchBalance } from "../../modules/events/account-events.ts";
import { enforceRateLimit } from "../../rate-limit/enforce.ts";
import { AccountStatusEnum, builder, PlanIdEnum, ProviderPreferenceEnum, RoleEnum } from "../builder.ts";

export const UserRef = builder.objectRef<UserProfile>("User").implement({
  description: "An account (SPEC 2.1 UserProfile).",
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.exposeString("email"),
    role: t.field({ type: RoleEnum, resolve: (u) => u.role }),
    status: t.field({ type: AccountStatusEnum, resolve: (u) => u.status }),
    creditsBalance: t.exposeInt("credits_balance"),
    currentPlanId: t.field({ type: PlanIdEnum, resolve: (u) => u.current_plan_id }),
    providerPreference: t.field({ type: ProviderPreferenceEnum, resolve: (u) => u.provider_preference }),
    createdAt: t.field({ type: "DateTime", resolve: (u) => u.created_at }),
    lastLogin: t.field({ type: "DateTime", nullable: true, resolve: (u) => u.last_login }),
    trialEndsAt: t.field({ type: "DateTime", nullable: true, resolve: (u) => u.trial_ends_at }),
    hasApiKey: t.exposeBoolean("has_api_key"),
  }),
});

const BalanceChangeRef = builder.objectRef<BalanceChanged>("BalanceChange").implement({
  fields: (t) => ({
    balance: t.exposeInt("balance"),
    delta: t.exposeInt("delta"),
    reason: t.exposeString("reason"),
  }),
});

const ApiKeyStatusRef = builder.objectRef<Awaited<ReturnType<typeof getApiKeyStatus>>>("ApiKeyStatus").implement({
  fields: (t) => ({
    hasApiKey: t.exposeBoolean("hasApiKey"),
    eligible: t.exposeBoolean("eligible"),
    currentPlan: t.field({ type: PlanIdEnum, resolve: (s) => s.currentPlan }),
    eligiblePlans: t.exposeStringList("eligiblePlans"),
  }),
});

builder.queryFields((t) => ({
  apiKey: t.field({ type: ApiKeyStatusRef, resolve: (_, __, ctx) => getApiKeyStatus(ctx) }),
  me: t.field({ type: UserRef, description: "The signed-in account.", resolve: (_, __, ctx) => getProfile(ctx) }),
  credits: t.int({
    description: "The signed-in account's credit balance.",
    resolve: async (_, __, ctx) => (await getCreditBalance(ctx)).balance,
  }),
  providerPreference: t.field({ type: ProviderPreferenceEnum, resolve: (_, __, ctx) => getProviderPreference(ctx).preference }),
}));

builder.mutationFields((t) => ({
  changePassword: t.boolean({
    args: { currentPassword: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await enforceRateLimit(ctx, "auth", "user.changePassword");
      return (await changePassword(ctx, args)).changed;
    },
  }),
  generateApiKey: t.string({
    description: "A new `ca_` API key, shown only this once (Agency and Enterprise plans).",
    resolve: async (_, __, ctx) => (await generateApiKey(ctx)).apiKey,
  }),
  revokeApiKey: t.boolean({ resolve: async (_, __, ctx) => (await revokeApiKey(ctx)).revoked }),
  setProviderPreference: t.field({
    type: ProviderPreferenceEnum,
    args: { preference: t.arg({ type: ProviderPreferenceEnum, required: true }) },
    resolve: async (_, args, ctx) => (await setProviderPreference(ctx, args)).preference,
  }),
}));

builder.subscriptionFields((t) => ({
  balanceChanged: t.field({
    type: BalanceChangeRef,
    description: "The signed-in account's balance, each time it changes.",
    subscribe: (_, __, ctx) => watchBalance(ctx),
    resolve: (event) => event as BalanceChanged,
  }),
}));
