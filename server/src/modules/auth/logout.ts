import type { Services } from "../../request-context.ts";
import { type ActingAccount, auditSourceFor, recordAudit } from "../audit/record-audit.ts";

/**
 * Revokes the session the account signed in with (`sessionId`; null for an API key, which stays) at once:
 * its JWT stops authenticating immediately.
 */
export async function logout(
  services: Services,
  account: ActingAccount,
  method: "session" | "api_key",
  sessionId: string | null,
): Promise<{ loggedOut: true }> {
  if (sessionId) await services.sessions.invalidate(account.id, sessionId);
  await recordAudit(services.prisma, auditSourceFor(account), {
    action: "auth.logout",
    targetType: "user",
    targetId: account.id,
    metadata: { method },
  });
  return { loggedOut: true };
}
