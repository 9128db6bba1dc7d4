import { z } from "zod";
import { Email, EmailAddress, IsoDateTime } from "./common.ts";
import { ProviderPreference, PlanId, Role, AccountStatus } from "./enums.ts";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** A password rule in words for people; `whose` says which password ("Your password", "Your new password"). */
const passwordField = (whose: string) =>
  z
    .string({ error: `${whose} is required` })
    .min(PASSWORD_MIN, { error: `${whose} must be at least ${PASSWORD_MIN} characters` })
    .max(PASSWORD_MAX, { error: `${whose} must be at most ${PASSWORD_MAX} characters` });

export const Password = passwordField("Your password");

/** SPEC 2.1 AuthCredentials: request of signup and login. */
export const AuthCredentials = z.object({ email: Email, password: Password }).meta({ title: "AuthCredentials" });
export type AuthCredentials = z.infer<typeof AuthCredentials>;

/** SPEC 2.1 AuthResponse. */
export const AuthResponse = z.object({ id: z.string(), email: EmailAddress, role: Role });
export type AuthResponse = z.infer<typeof AuthResponse>;

/** SPEC 2.1 UserSession. */
export const UserSession = z
  .object({
    userId: z.string(),
    email: EmailAddress,
    role: Role,
    expiresAt: z.number().int().describe("Unix timestamp (seconds)"),
    trialEndsAt: IsoDateTime.nullable(),
  })
  .meta({ title: "Session" });
export type UserSession = z.infer<typeof UserSession>;

/** SPEC 2.1 UserProfile. */
export const UserProfile = z
  .object({
    id: z.string(),
    email: EmailAddress,
    role: Role,
    credits_balance: z.number().int(),
    current_plan_id: PlanId,
    provider_preference: ProviderPreference,
    created_at: IsoDateTime,
    last_login: IsoDateTime.nullable(),
    status: AccountStatus,
    trial_ends_at: IsoDateTime.nullable(),
    has_api_key: z.boolean(),
  })
  .meta({ title: "User" });
export type UserProfile = z.infer<typeof UserProfile>;

export const CreditBalance = z.object({ balance: z.number().int() });
export type CreditBalance = z.infer<typeof CreditBalance>;

export const ChangePasswordInput = z.object({
  currentPassword: z.string({ error: "Enter your current password" }).min(1, { error: "Enter your current password" }),
  newPassword: passwordField("Your new password"),
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const ProviderPreferenceInput = z.object({
  preference: ProviderPreference.describe("auto, fal or replicate"),
});
export type ProviderPreferenceInput = z.infer<typeof ProviderPreferenceInput>;
export const ProviderPreferenceResult = z.object({ preference: ProviderPreference });

/** SPEC 2.7: `data` of GET /user/api-key. */
export const ApiKeyStatus = z.object({
  hasApiKey: z.boolean().describe("Whether the account has a key of either scope"),
  hasFullKey: z.boolean().describe("Whether the account has a full key"),
  hasAnalyticsKey: z.boolean().describe("Whether the account has an analytics (read-only) key, for a partner"),
  eligible: z.boolean(),
  currentPlan: PlanId,
  eligiblePlans: z.array(z.string()),
});
/**
 * What an API key may do: `full`, everything its account may; `analytics`, read only (queries and streams;
 * every mutation answers 403 FORBIDDEN, on every transport). Partners get analytics keys.
 */
export const ApiKeyScope = z
  .enum(["full", "analytics"])
  .meta({ title: "ApiKeyScope" })
  .describe("What the key may do: full, or analytics (read-only)");
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;
/** The body of POST /user/api-key (optional): which kind of key to make. */
export const ApiKeyRequest = z.object({
  scope: ApiKeyScope.default("full").describe(
    "full (the default) or analytics: a read-only key for a partner; a new key replaces the earlier key of its scope",
  ),
});
/** SPEC 2.7: `data` of POST /user/api-key; the key is shown only this once. */
export const ApiKeyCreated = z.object({
  apiKey: z.string().startsWith("ca_").describe("The key, shown only this once"),
  scope: ApiKeyScope,
});
export const ApiKeyRevoked = z.object({ revoked: z.boolean() });

/**
 * Signup and login answer the account; a client without cookies (GraphQL) also gets the session token
 * to send as `Authorization: Bearer <token>`, and when it ends. Browsers get the cookie instead.
 */
export const SignedInAnswer = AuthResponse.extend({
  token: z.string().optional().describe("Session token for Authorization: Bearer (GraphQL only; browsers get the cookie)"),
  expiresAt: IsoDateTime.optional(),
}).meta({ title: "SignedIn" });
export const LoggedOut = z.object({ loggedOut: z.literal(true) });
/** A password change ends every other credential of the account: the answer says what ended. */
export const PasswordChanged = z.object({
  changed: z.literal(true),
  otherSessionsEnded: z.number().int().describe("Other sessions of the account that were signed out"),
  apiKeyRevoked: z.boolean().describe("The account's API key was revoked: make a new one from a signed-in session"),
});
export type PasswordChanged = z.infer<typeof PasswordChanged>;

/** A change of the signed-in account's balance, pushed as it happens. */
export const BalanceChange = z
  .object({ balance: z.number().int(), delta: z.number().int(), reason: z.string() })
  .meta({ title: "BalanceChange" });
