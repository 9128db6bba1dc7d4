// The analytics graph's entry points: `viewer` (the caller's account) and, for admins, `accounts`, each
// opened through the invocation path (graph/access.ts).
import type { Builder } from "../builder.ts";
import { enterGraph } from "./access.ts";
import { addAccount } from "./account.ts";
import { addListArguments } from "./filters.ts";

/** The graph's root fields, beside the catalogue's (`node` and `nodes` are the Relay plugin's). */
export const ANALYTICS_ROOT_FIELDS = ["viewer", "accounts", "node", "nodes"] as const;

export function addAnalyticsGraph(builder: Builder): void {
  const lists = addListArguments(builder);
  const account = addAccount(builder, lists);
  builder.queryField("viewer", (t) =>
    t.prismaField({
      type: account,
      nullable: true,
      description: "The signed-in account (or the API key's): the root of the analytics graph.",
      resolve: async (query, _root, _args, ctx) => {
        const id = await enterGraph(ctx, "viewer");
        return ctx.services.prisma.user.findUnique({ ...query, where: { id } });
      },
    }),
  );
  builder.queryField("accounts", (t) =>
    t.prismaConnection(
      {
        type: account,
        cursor: "id",
        nullable: true,
        // Answered without the rows when only the count is asked: gated the same way.
        totalCount: async (_root, _args, ctx) => {
          await enterGraph(ctx, "accounts");
          return ctx.services.prisma.user.count();
        },
        description: "Every account, newest first (admins only): the same graph as `viewer`, across accounts.",
        resolve: async (query, _root, _args, ctx) => {
          await enterGraph(ctx, "accounts");
          return ctx.services.prisma.user.findMany({ ...query, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
        },
      },
      { description: "A page of accounts." },
      { description: "One of the accounts, with its cursor." },
    ),
  );
}
