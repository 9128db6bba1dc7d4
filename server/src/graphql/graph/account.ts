// The account (`viewer`, or any account for an admin): its figures, summed in SQL (account-sums.ts), and
// its lists, each a Relay connection (account-lists.ts).
import type { Builder } from "../builder.ts";
import { ownerScope } from "./access.ts";
import { accountLists, addAccountRows } from "./account-lists.ts";
import { accountSums } from "./account-sums.ts";
import { addAggregateTypes } from "./aggregates.ts";
import type { ListArguments } from "./filters.ts";

export function addAccount(builder: Builder, lists: ListArguments) {
  const aggregates = addAggregateTypes(builder);
  const rows = addAccountRows(builder, lists, aggregates);
  return builder.prismaNode("User", {
    variant: "Account",
    description: "An account: its brands, projects, creatives, invoices, credits and knowledge. Partners read their own; admins any.",
    id: { field: "id", description: "The account's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => {
      // An account reads only itself (an admin every account); another's id reads as no such node (null).
      const own = ownerScope(ctx).userId;
      return own && own !== id ? { id, AND: [{ id: own }] } : { id };
    },
    nullable: true,
    fields: (t) => ({
      accountId: t.exposeString("id", { description: "The account's id, as REST and tRPC name it." }),
      email: t.exposeString("email", { description: "The account's e-mail address." }),
      creditsBalance: t.exposeInt("creditsBalance", { description: "Credits left." }),
      ...accountSums(t, aggregates, lists),
      ...accountLists(t, rows, lists),
    }),
  });
}
