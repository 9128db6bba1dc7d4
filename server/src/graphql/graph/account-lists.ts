// An account's lists, each a Relay connection with `totalCount`, a date range, an order and its own
// filters. Relations load through the Prisma plugin: one query per list, however many parents ask.
import { brandRecommendation } from "../../modules/loop/loop.ts";
import type { Builder } from "../builder.ts";
import { addBilling } from "./billing.ts";
import { addBrand } from "./brand.ts";
import { addCreative } from "./creative.ts";
import type { AggregateTypes } from "./aggregates.ts";
import { direction, type ListArguments, type Order, within } from "./filters.ts";
import { addKnowledgeItem } from "./knowledge-item.ts";
import { addProject } from "./project.ts";
import { LIST_BOUNDS } from "./list-bounds.ts";

/** The row types an account's lists hold. */
export function addAccountRows(builder: Builder, lists: ListArguments, aggregates: AggregateTypes) {
  const { invoice, ledgerEntry } = addBilling(builder);
  const project = addProject(builder, ledgerEntry);
  const { creative } = addCreative(builder, aggregates);
  const { brand, loopAction } = addBrand(builder, project, lists);
  return { project, creative, invoice, ledgerEntry, knowledgeItem: addKnowledgeItem(builder), brand, loopAction };
}

type Rows = ReturnType<typeof addAccountRows>;

const pageOf = (name: string) => [{ description: `A page of ${name}.` }, { description: `One of ${name}, with its cursor.` }] as const;

/** Rows newest first (or oldest, when asked), by a date column then the id, within the date range. */
const ordered = (column: string, args: { order?: unknown; createdWithin?: unknown }) => ({
  where: { [column]: within(args.createdWithin) },
  orderBy: [{ [column]: direction(args.order as Order) }, { id: direction(args.order as Order) }],
});

export function accountLists(t: any, rows: Rows, lists: ListArguments) {
  const common = {
    createdWithin: t.arg({ type: lists.dateRange, required: false, description: "Only rows made within this range." }),
    order: t.arg({ type: lists.order, required: false, description: "Newest first unless asked." }),
  };
  const related = (relation: string, type: unknown, description: string, name: string, options: Record<string, unknown>) =>
    t.relatedConnection(relation, { type, cursor: "id", totalCount: true, description, ...options }, ...pageOf(name));
  return {
    projects: related("jobs", rows.project, "The account's projects.", "projects", {
      args: {
        ...common,
        type: t.arg.string({ required: false, description: "Only projects of this workflow type." }),
        status: t.arg.string({ required: false, description: "Only projects in this status." }),
        brandId: t.arg.string({ required: false, description: "Only projects whose launch named this brand." }),
      },
      query: (args: any) => {
        const base = ordered("createdAt", args);
        const where = {
          ...base.where,
          ...(args.type ? { type: args.type } : {}),
          ...(args.status ? { status: args.status } : {}),
          ...(args.brandId ? { input: { path: ["brand"], equals: args.brandId } } : {}),
        };
        return { ...base, where };
      },
    }),
    creatives: related("performanceCreatives", rows.creative, "The account's creatives whose performance is tracked.", "creatives", {
      args: { ...common, brandId: t.arg.string({ required: false, description: "Only creatives of this brand." }) },
      query: (args: any) => {
        const base = ordered("createdAt", args);
        return { ...base, where: { ...base.where, ...(args.brandId ? { brandId: args.brandId } : {}) } };
      },
    }),
    invoices: related("invoices", rows.invoice, "The account's invoices.", "invoices", {
      args: common,
      query: (args: any) => ordered("issuedAt", args),
    }),
    ledgerEntries: related("ledger", rows.ledgerEntry, "How the account's credits moved.", "ledger entries", {
      args: common,
      query: (args: any) => ordered("createdAt", args),
    }),
    knowledgeItems: related("knowledgeItems", rows.knowledgeItem, "The knowledge the account gave for its ads.", "knowledge items", {
      args: { ...common, type: t.arg.string({ required: false, description: "Only items of this type (file, url, text)." }) },
      query: (args: any) => {
        const base = ordered("createdAt", args);
        return { ...base, where: { ...base.where, ...(args.type ? { type: args.type } : {}) } };
      },
    }),
    ...brandLists(t, rows, common),
  };
}

/** The account's brands (not a Prisma relation of the account: read by owner) and the loop's move for each. */
function brandLists(t: any, rows: Rows, common: Record<string, unknown>) {
  return {
    brands: t.prismaConnection(
      {
        type: rows.brand,
        cursor: "id",
        description: "The account's brands, each leading to the projects made for it.",
        args: common,
        totalCount: (account: { id: string }, args: any, ctx: any) =>
          ctx.services.prisma.brandProfile.count({ where: { userId: account.id, ...ordered("createdAt", args).where } }),
        resolve: (query: object, account: { id: string }, args: any, ctx: any) => {
          const { where, orderBy } = ordered("createdAt", args);
          return ctx.services.prisma.brandProfile.findMany({ ...query, where: { userId: account.id, ...where }, orderBy });
        },
      },
      ...pageOf("brands"),
    ),
    loopActions: t.field({
      type: [rows.loopAction],
      description: `The loop's next move for each of the account's brands, the default brand first: a bounded list, one per brand (an account keeps at most ${LIST_BOUNDS.loopActions}).`,
      resolve: async (account: { id: string }, _args: unknown, ctx: any) => {
        const brands = await ctx.services.prisma.brandProfile.findMany({
          where: { userId: account.id },
          orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }],
          select: { id: true },
          take: LIST_BOUNDS.loopActions,
        });
        return Promise.all(brands.map((brand: { id: string }) => brandRecommendation(ctx.services.prisma, account.id, brand.id)));
      },
    }),
  };
}
