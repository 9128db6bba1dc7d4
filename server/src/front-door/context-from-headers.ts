// Builds the RequestContext shared by REST, tRPC and GraphQL from a Fetch Request. In front-door/, beside
// the transports rather than in http/, because GraphQL (mounted by http/app.ts) needs it too.
import type { RequestContext, Services } from "../request-context.ts";
import type { RequestTrace } from "../logging/request-trace.ts";
import { authenticate, readBearer, readCookie, SESSION_COOKIE } from "../modules/auth/authenticate.ts";

export async function buildRequestContext(
  services: Services,
  headers: Headers,
  ip: string | null,
  trace?: RequestTrace,
): Promise<RequestContext> {
  const auth = await authenticate(services, { cookie: headers.get("cookie"), authorization: headers.get("authorization") });
  if (trace && auth) trace.userId = auth.user.id;
  return { services, auth, ip, userAgent: headers.get("user-agent"), ...(trace ? { trace } : {}) };
}

/** True when the credential came from the session cookie (so a renewed session goes back as a cookie). */
export function usedSessionCookie(headers: Headers): boolean {
  return !readBearer(headers.get("authorization")) && readCookie(headers.get("cookie"), SESSION_COOKIE) !== null;
}
