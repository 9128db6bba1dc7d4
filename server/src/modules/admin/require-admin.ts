import type { RequestContext } from "../../context.ts";
import { Errors } from "../../errors.ts";
import { requireUser } from "../auth/authenticate.ts";

/** The one gate of every admin operation. */
export function requireAdmin(ctx: RequestContext) {
  const user = requireUser(ctx);
  if (user.role !== "admin") throw Errors.adminRequired();
  return user;
}
