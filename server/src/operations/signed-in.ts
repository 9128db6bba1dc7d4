// The signed-in account of a `user` operation, for handlers to pass to the domain: invokeOperation's
// authorize has already required it (401, a suspended account 403), so domain functions take the account
// (its id and role) rather than the request, and background work can call them too.
import type { Role } from "@adgen/prisma";
import type { RequestContext } from "../request-context.ts";
import { Errors } from "../errors.ts";

export function signedIn(ctx: RequestContext) {
  if (!ctx.auth) throw Errors.unauthenticated();
  return ctx.auth.user;
}

/** The signed-in account and, for the audit log, the address its request came from. */
export const actingAccount = (ctx: RequestContext) => ({ ...signedIn(ctx), ip: ctx.ip });

/** Only the caller's id and role, for domain functions that decide by them (an owner, or an admin). */
export function actorOf(ctx: RequestContext): { id: string; role: Role } {
  const user = signedIn(ctx);
  return { id: user.id, role: user.role };
}
