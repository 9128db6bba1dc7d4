// Who may read which rows of the analytics graph: an account its own, an admin every account's. Every
// resolver that reads rows scopes them with `ownerScope`, so no path (a connection, `node(id:)`) reaches
// another account's rows.
import { Errors } from "../../errors.ts";
import { requireUser } from "../../modules/auth/authenticate.ts";
import { enforceRateLimit } from "../../rate-limit/enforce.ts";
import type { GraphQLContext } from "../builder.ts";

export const isAdmin = (ctx: GraphQLContext) => ctx.auth?.user.role === "admin";

/** The `where` that limits a model with a `userId` to the rows the caller may read. */
export function ownerScope(ctx: GraphQLContext): { userId?: string } {
  if (!ctx.auth) throw Errors.unauthenticated();
  return isAdmin(ctx) ? {} : { userId: ctx.auth.user.id };
}

/** Opens the graph for one request's root field: signed in, active, and counted like any operation. */
export async function enterGraph(ctx: GraphQLContext, field: string): Promise<string> {
  requireUser(ctx);
  await enforceRateLimit(ctx, "api", `graph.${field}`);
  return ctx.auth!.user.id;
}
