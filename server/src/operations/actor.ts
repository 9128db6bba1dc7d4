// Who is calling, as domain functions take it: the account's id and role, read once the invocation has
// let the call through (invoke.ts's `authorize`), so a domain function need not enter the gate again.
import type { Role } from "@adgen/prisma";
import { Errors } from "../errors.ts";
import type { RequestContext } from "../request-context.ts";

export interface Actor {
  id: string;
  role: Role;
}

/** The signed-in caller of a `user` or `admin` operation (401 if there is none: a call without access). */
export function actorOf(ctx: RequestContext): Actor {
  if (!ctx.auth) throw Errors.unauthenticated();
  return { id: ctx.auth.user.id, role: ctx.auth.user.role };
}
