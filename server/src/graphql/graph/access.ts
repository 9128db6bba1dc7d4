// Who may read which rows of the analytics graph: an account its own, an admin every account's. The
// graph's root fields (`viewer`, `accounts`) open it through the one invocation path, as operations of
// their own (authenticate → authorize → rate limit → validate → domain); every resolver that reads rows
// below them scopes them with `ownerScope`, so no path (a connection, `node(id:)`) reaches another
// account's rows.
import { z } from "zod";
import { Errors } from "../../errors.ts";
import { invokeOperation } from "../../operations/invoke.ts";
import type { Access, AnyOperation } from "../../operations/operation.ts";
import type { GraphQLContext } from "../builder.ts";
import { callFor } from "../catalogue/fields.ts";

export const isAdmin = (ctx: GraphQLContext) => ctx.auth?.user.role === "admin";

/** The `where` that limits a model with a `userId` to the rows the caller may read. */
export function ownerScope(ctx: GraphQLContext): { userId?: string } {
  if (!ctx.auth) throw Errors.unauthenticated();
  return isAdmin(ctx) ? {} : { userId: ctx.auth.user.id };
}

const NOT_ELSEWHERE = { none: "The analytics graph is GraphQL's own: REST and tRPC have the catalogue's reads of the same data." };

/** A root field of the graph as an operation: outside the catalogue (no REST or tRPC twin), same path. */
function graphOperation(field: string, access: Access, summary: string): AnyOperation {
  return {
    name: `graph.${field}`,
    summary,
    access,
    kind: "query",
    rateLimit: "api",
    input: z.object({}),
    output: null,
    rest: NOT_ELSEWHERE,
    trpc: NOT_ELSEWHERE,
    handler: (ctx) => ctx.auth!.user.id,
  };
}

export const GRAPH_OPERATIONS = {
  viewer: graphOperation("viewer", "user", "The signed-in account, the root of the analytics graph."),
  accounts: graphOperation("accounts", "admin", "Every account (admins only)."),
};

/** Each request's opened root fields: `accounts`' rows and its `totalCount` are one invocation, counted once. */
const opened = new WeakMap<GraphQLContext, Map<string, Promise<unknown>>>();

/** Opens the graph for one request's root field through the invocation path; answers the caller's id. */
export async function enterGraph(ctx: GraphQLContext, field: keyof typeof GRAPH_OPERATIONS): Promise<string> {
  const fields = opened.get(ctx) ?? new Map<string, Promise<unknown>>();
  opened.set(ctx, fields);
  if (!fields.has(field)) {
    const call = callFor(ctx, new AbortController().signal);
    fields.set(field, invokeOperation({ operation: GRAPH_OPERATIONS[field], ctx, readInput: () => ({}), call }));
  }
  return (await fields.get(field)) as string;
}
