// A document, page or note the account gave as knowledge for its ads.
import type { Builder } from "../builder.ts";
import { ownerScope } from "./access.ts";

export function addKnowledgeItem(builder: Builder) {
  return builder.prismaNode("KnowledgeItem", {
    variant: "AccountKnowledgeItem",
    description: "A document, page or note given as knowledge for the account's ads.",
    id: { field: "id", description: "The item's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => ({ id, ...ownerScope(ctx) }),
    // Another account's id reads as no such node (null), as a missing one does.
    nullable: true,
    fields: (t) => ({
      type: t.exposeString("type", { description: "file, url or text." }),
      name: t.exposeString("name", { description: "Its name." }),
      status: t.exposeString("status", { description: "extracting, ready or failed." }),
      size: t.exposeInt("size", { description: "Its size in bytes." }),
      createdAt: t.string({ description: "When it was added (ISO 8601).", resolve: (k) => k.createdAt.toISOString() }),
    }),
  });
}
