// Which credentials a revocation ends, and what a stream opened with one of them says as it ends. A
// revocation (logout, password change, key revoked or replaced, suspension, loss of access) is broadcast
// to every instance: each forgets its cached sessions and ends its open streams by this one rule.
import { AppError } from "../../errors.ts";

export type RevocationReason =
  | "signed_out"
  | "password_changed"
  | "password_reset"
  | "api_key_revoked"
  | "api_key_replaced"
  | "suspended"
  | "admin_role_removed"
  | "plan_without_api_keys"
  /** Found gone when an instance checked again (it may have missed the message that said why). */
  | "credential_gone";

export interface CredentialRevocation {
  userId: string;
  /** Sessions that end: one, every one of the account's but one (`allBut: null`: all), or none. */
  sessions: { only: string } | { allBut: string | null } | "none";
  /** API keys that end: one, every one of the account's, or none. */
  apiKeys: { only: string } | "all" | "none";
  reason: RevocationReason;
}

/** The credential a request (and the stream it opened) was authenticated with. */
export interface HeldCredential {
  userId: string;
  sessionId: string | null;
  apiKeyId: string | null;
}

export const Revoke = {
  session: (userId: string, sessionId: string, reason: RevocationReason): CredentialRevocation => ({
    userId,
    sessions: { only: sessionId },
    apiKeys: "none",
    reason,
  }),
  apiKey: (userId: string, apiKeyId: string, reason: RevocationReason): CredentialRevocation => ({
    userId,
    sessions: "none",
    apiKeys: { only: apiKeyId },
    reason,
  }),
  allApiKeys: (userId: string, reason: RevocationReason): CredentialRevocation => ({ userId, sessions: "none", apiKeys: "all", reason }),
  /** Every session but `keep` (null: every one) and every API key. */
  everything: (userId: string, reason: RevocationReason, keep: string | null = null): CredentialRevocation => ({
    userId,
    sessions: { allBut: keep },
    apiKeys: "all",
    reason,
  }),
};

export function isCredentialRevocation(value: unknown): value is CredentialRevocation {
  const candidate = value as Partial<CredentialRevocation> | null;
  return typeof candidate?.userId === "string" && candidate.sessions !== undefined && candidate.apiKeys !== undefined;
}

/** Whether `revocation` ends `held`. */
export function ends(revocation: CredentialRevocation, held: HeldCredential): boolean {
  if (revocation.userId !== held.userId) return false;
  if (held.sessionId !== null) {
    const { sessions } = revocation;
    if (sessions === "none") return false;
    return "only" in sessions ? sessions.only === held.sessionId : sessions.allBut !== held.sessionId;
  }
  if (held.apiKeyId !== null) {
    const { apiKeys } = revocation;
    if (apiKeys === "none") return false;
    return apiKeys === "all" || apiKeys.only === held.apiKeyId;
  }
  return false;
}

const ended = (held: HeldCredential) => (held.apiKeyId ? "This API key was revoked" : "Your session ended");
const again = (held: HeldCredential) => (held.apiKeyId ? "Create a new key from a signed-in session and use it." : "Sign in again.");

/** A stream's last error once its credential ended (a WebSocket closes on it: 4401 or 4403 by its code). */
export class CredentialEndedError extends AppError {
  constructor(code: "UNAUTHORIZED" | "FORBIDDEN", message: string) {
    super(code, message);
  }
}

/**
 * A stream's last error once its credential ended: UNAUTHORIZED when the credential is gone (sign in
 * again, or use a new key), FORBIDDEN when the account itself may no longer do this.
 */
export function streamEndedError(revocation: CredentialRevocation, held: HeldCredential): CredentialEndedError {
  switch (revocation.reason) {
    case "signed_out":
      return new CredentialEndedError("UNAUTHORIZED", "Your session ended (signed out). Sign in again.");
    case "password_changed":
      return new CredentialEndedError("UNAUTHORIZED", `${ended(held)} (the account's password was changed). ${again(held)}`);
    case "password_reset":
      return new CredentialEndedError("UNAUTHORIZED", `${ended(held)} (an administrator reset the account's password). ${again(held)}`);
    case "api_key_revoked":
      return new CredentialEndedError("UNAUTHORIZED", "This API key was revoked. Create a new key from a signed-in session and use it.");
    case "api_key_replaced":
      return new CredentialEndedError("UNAUTHORIZED", "This API key was replaced by a new one. Use the new key.");
    case "suspended":
      return new CredentialEndedError("FORBIDDEN", "Account suspended: this stream has ended.");
    case "admin_role_removed":
      return new CredentialEndedError(
        "FORBIDDEN",
        "Your account is no longer an admin: this stream has ended. Open it again to see your own events.",
      );
    case "plan_without_api_keys":
      return new CredentialEndedError(
        "FORBIDDEN",
        "Your plan no longer includes API keys: this stream has ended. Upgrade to Agency or Enterprise.",
      );
    case "credential_gone":
      return new CredentialEndedError(
        "UNAUTHORIZED",
        `${held.apiKeyId ? "This API key no longer works" : "Your session ended"}. ${again(held)}`,
      );
  }
}
