import type { RequestContext } from "../../request-context.ts";
import { Errors } from "../../errors.ts";
import { requireUser } from "./authenticate.ts";
import { auditDeniedAdminCall } from "../audit/admin-audit.ts";

/** The one gate of every admin operation. A signed-in non-admin's refusal is audited (`admin.denied`). */
export function requireAdmin(ctx: RequestContext) {
  const user = requireUser(ctx);
  if (user.role !== "admin") {
    auditDeniedAdminCall(ctx, user.id);
    throw Errors.adminRequired();
  }
  return user;
}
