// user.*: the signed-in account's own profile, balance, password, provider preference and API key.
import {
  ApiKeyCreated,
  ApiKeyRequest,
  ApiKeyRevoked,
  ApiKeyStatus,
  BalanceChange,
  ChangeEmailInput,
  ChangePasswordInput,
  CreditBalance,
  EmailChanged,
  PasswordChanged,
  ProviderPreferenceInput,
  ProviderPreferenceResult,
  AnalyticsQuery,
  StatsQuery,
  UserAnalytics,
  UserProfile,
  UserStats,
} from "@adgen/schema";
import { generateApiKey, getApiKeyStatus, revokeApiKey } from "../modules/api-keys/api-keys.ts";
import { watchBalance } from "../modules/credits/balance-updates.ts";
import { userAnalytics, userStats } from "../modules/projects/insights.ts";
import { changeEmail } from "../modules/users/change-email.ts";
import { changePassword, getCreditBalance, getProfile, getProviderPreference, setProviderPreference } from "../modules/users/account.ts";
import { defineOperation, NoInput } from "./operation.ts";
import { actingAccount, actorOf, signedIn } from "./signed-in.ts";

const user = { access: "user" } as const;

export const userOperations = {
  profile: defineOperation({
    ...user,
    summary: "The signed-in account",
    kind: "query",
    input: NoInput,
    output: UserProfile,
    rest: { method: "GET", path: "/user/profile", tag: "User" },
    handler: (ctx) => getProfile(ctx.services, signedIn(ctx)),
  }),
  credits: defineOperation({
    ...user,
    summary: "Credit balance",
    kind: "query",
    input: NoInput,
    output: CreditBalance,
    rest: { method: "GET", path: "/user/credits", tag: "User" },
    handler: (ctx) => getCreditBalance(signedIn(ctx)),
  }),
  balanceChanges: defineOperation({
    ...user,
    summary: "The account's balance each time it changes (a stream)",
    kind: "subscription",
    input: NoInput,
    output: BalanceChange,
    rest: { method: "GET", path: "/user/credits/stream", tag: "User" },
    handler: async function* (ctx, _input, call) {
      for await (const change of watchBalance(ctx.services, actorOf(ctx).id, call.signal)) yield { event: "balance", data: change };
    },
  }),
  changePassword: defineOperation({
    ...user,
    summary: "Change the password; other sessions of the account end",
    kind: "mutation",
    rateLimit: "auth",
    input: ChangePasswordInput,
    output: PasswordChanged,
    rest: { method: "POST", path: "/user/change-password", tag: "User" },
    handler: (ctx, input) => changePassword(ctx.services, actingAccount(ctx), ctx.auth?.session?.id ?? null, input),
  }),
  changeEmail: defineOperation({
    ...user,
    summary: "Change the sign-in e-mail address, confirmed with the current password",
    kind: "mutation",
    rateLimit: "auth",
    input: ChangeEmailInput,
    output: EmailChanged,
    rest: { method: "POST", path: "/user/email", tag: "User", errors: { 409: "the address belongs to another account" } },
    handler: (ctx, input) => changeEmail(ctx.services, actingAccount(ctx), input),
  }),
  providerPreference: defineOperation({
    ...user,
    summary: "Preferred generation provider",
    kind: "query",
    input: NoInput,
    output: ProviderPreferenceResult,
    rest: { method: "GET", path: "/user/provider-preference", tag: "User" },
    handler: (ctx) => getProviderPreference(signedIn(ctx)),
  }),
  setProviderPreference: defineOperation({
    ...user,
    summary: "Set the preferred generation provider",
    kind: "mutation",
    input: ProviderPreferenceInput,
    output: ProviderPreferenceResult,
    rest: { method: "POST", path: "/user/provider-preference", tag: "User" },
    handler: (ctx, input) => setProviderPreference(ctx.services, actingAccount(ctx), input),
  }),
  apiKey: defineOperation({
    ...user,
    summary: "Whether the account has an API key and whether its plan allows one",
    kind: "query",
    input: NoInput,
    output: ApiKeyStatus,
    rest: { method: "GET", path: "/user/api-key", tag: "User" },
    handler: (ctx) => getApiKeyStatus(ctx.services, signedIn(ctx)),
  }),
  generateApiKey: defineOperation({
    ...user,
    summary:
      "Generate an API key (Agency and Enterprise plans), full or read-only (analytics); shown once, replaces the earlier key of its scope",
    kind: "mutation",
    input: ApiKeyRequest,
    output: ApiKeyCreated,
    rest: { method: "POST", path: "/user/api-key", tag: "User", errors: { 403: "Plan does not support API keys" } },
    handler: (ctx, input) => generateApiKey(ctx.services, actingAccount(ctx), ctx.auth?.method ?? "session", input.scope),
  }),
  revokeApiKey: defineOperation({
    ...user,
    summary: "Revoke the account's API key",
    kind: "mutation",
    input: NoInput,
    output: ApiKeyRevoked,
    rest: { method: "DELETE", path: "/user/api-key", tag: "User" },
    handler: (ctx) => revokeApiKey(ctx.services, actingAccount(ctx)),
  }),
  stats: defineOperation({
    ...user,
    summary: "Projects by type, credits used, success rate (optional startDate, endDate as YYYY-MM-DD)",
    kind: "query",
    input: StatsQuery,
    output: UserStats,
    rest: { method: "GET", path: "/user/stats", tag: "Projects" },
    handler: (ctx, input) => userStats(ctx.services, signedIn(ctx), input),
  }),
  analytics: defineOperation({
    ...user,
    summary: "Trends, usage by type, credit distribution and peak hours over 7d, 30d or 90d",
    kind: "query",
    input: AnalyticsQuery,
    output: UserAnalytics,
    rest: { method: "GET", path: "/user/analytics", tag: "Projects" },
    handler: (ctx, input) => userAnalytics(ctx.services, signedIn(ctx), input),
  }),
};
