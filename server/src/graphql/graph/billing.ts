// What an account was billed and how its credits moved.
import type { Builder } from "../builder.ts";
import { ownerScope } from "./access.ts";

export function addBilling(builder: Builder) {
  const invoice = builder.prismaNode("Invoice", {
    variant: "AccountInvoice",
    description: "An invoice issued to the account for a purchase.",
    id: { field: "id", description: "The invoice's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => ({ id, ...ownerScope(ctx) }),
    // Another account's id reads as no such node (null), as a missing one does.
    nullable: true,
    fields: (t) => ({
      number: t.exposeInt("number", { description: "The invoice number." }),
      currency: t.exposeString("currency", { description: "ISO 4217 currency code." }),
      subtotalCents: t.float({ description: "Subtotal, in cents.", resolve: (i) => Number(i.subtotalCents) }),
      taxCents: t.float({ description: "Tax, in cents.", resolve: (i) => Number(i.taxCents) }),
      totalCents: t.float({ description: "Total, in cents.", resolve: (i) => Number(i.totalCents) }),
      issuedAt: t.string({ description: "When it was issued (ISO 8601).", resolve: (i) => i.issuedAt.toISOString() }),
    }),
  });
  const ledgerEntry = builder.prismaNode("CreditLedgerEntry", {
    variant: "AccountLedgerEntry",
    description: "One movement of the account's credits (a charge, refund, purchase or grant).",
    id: { field: "id", description: "The entry's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => ({ id, ...ownerScope(ctx) }),
    // Another account's id reads as no such node (null), as a missing one does.
    nullable: true,
    fields: (t) => ({
      delta: t.exposeInt("delta", { description: "Credits added (positive) or spent (negative)." }),
      balanceAfter: t.exposeInt("balanceAfter", { description: "The balance after it." }),
      reason: t.exposeString("reason", { description: "Why the credits moved." }),
      reference: t.exposeString("reference", { nullable: true, description: "What it refers to (a project's id for a charge)." }),
      createdAt: t.string({ description: "When it happened (ISO 8601).", resolve: (e) => e.createdAt.toISOString() }),
    }),
  });
  return { invoice, ledgerEntry };
}
