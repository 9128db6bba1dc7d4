// The account (`viewer`, or any account for an admin) and its lists, each a Relay connection whose
// rows load through the Prisma plugin: one query per list, however many parents ask.
import { type PerformanceGrouping, weeklyCredits, weeklyPerformance } from "../../modules/analytics/weekly.ts";
import type { Builder } from "../builder.ts";
import { addAggregateTypes } from "./aggregates.ts";
import { ownerScope } from "./access.ts";
import { addBilling } from "./billing.ts";
import { addCreative } from "./creative.ts";
import { addKnowledgeItem } from "./knowledge-item.ts";
import { addProject } from "./project.ts";
import { direction, type ListArguments, type Order, within } from "./filters.ts";

const page = (name: string) => ({ description: `A page of ${name}.` });
const edge = (name: string) => ({ description: `One of ${name}, with its cursor.` });

export function addAccount(builder: Builder, lists: ListArguments) {
  const project = addProject(builder);
  const aggregates = addAggregateTypes(builder);
  const { creative } = addCreative(builder, aggregates);
  const { invoice, ledgerEntry } = addBilling(builder);
  const knowledgeItem = addKnowledgeItem(builder);
  const common = (t: any) => ({
    createdWithin: t.arg({ type: lists.dateRange, required: false, description: "Only rows made within this range." }),
    order: t.arg({ type: lists.order, required: false, description: "Newest first unless asked." }),
  });
  return builder.prismaNode("User", {
    variant: "Account",
    description: "An account: its projects, creatives, invoices, credits and knowledge. Partners read their own; admins any.",
    id: { field: "id", description: "The account's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => ({ id, ...(ownerScope(ctx).userId ? { id: ownerScope(ctx).userId } : {}) }),
    fields: (t) => ({
      accountId: t.exposeString("id", { description: "The account's id, as REST and tRPC name it." }),
      email: t.exposeString("email", { description: "The account's e-mail address." }),
      creditsBalance: t.exposeInt("creditsBalance", { description: "Credits left." }),
      performanceByWeek: t.field({
        type: [aggregates.weeklyPerformance],
        description: "Spend, revenue, CTR, ROAS and conversions per week and group, summed in the database.",
        args: {
          groupBy: t.arg({ type: aggregates.grouping, required: true, description: "Sum by workflow type, brand or creative." }),
          brandId: t.arg.string({ required: false, description: "Only this brand's creatives." }),
          days: t.arg({ type: lists.dateRange, required: false, description: "Only these days (YYYY-MM-DD; `to` excluded)." }),
        },
        resolve: (account, args, ctx) =>
          weeklyPerformance(ctx.services.db.sql, account.id, args.groupBy as PerformanceGrouping, {
            range: args.days,
            brandId: args.brandId,
          }),
      }),
      creditsByWeek: t.field({
        type: [aggregates.weeklyCredits],
        description: "Credits used per week and workflow type, summed in the database.",
        args: {
          createdWithin: t.arg({ type: lists.dateRange, required: false, description: "Only projects launched within this range." }),
        },
        resolve: (account, args, ctx) => weeklyCredits(ctx.services.db.sql, account.id, args.createdWithin),
      }),
      projects: t.relatedConnection(
        "jobs",
        {
          type: project,
          cursor: "id",
          totalCount: true,
          description: "The account's projects.",
          args: {
            ...common(t),
            type: t.arg.string({ required: false, description: "Only projects of this workflow type." }),
            status: t.arg.string({ required: false, description: "Only projects in this status." }),
            brandId: t.arg.string({ required: false, description: "Only projects made for this brand." }),
          },
          query: (args) => ({
            where: {
              ...(args.type ? { type: args.type } : {}),
              ...(args.status ? { status: args.status as never } : {}),
              ...(args.brandId ? { input: { path: ["brand_id"], equals: args.brandId } } : {}),
              createdAt: within(args.createdWithin),
            },
            orderBy: [{ createdAt: direction(args.order as Order) }, { id: direction(args.order as Order) }],
          }),
        },
        page("projects"),
        edge("the projects"),
      ),
      creatives: t.relatedConnection(
        "performanceCreatives",
        {
          type: creative,
          cursor: "id",
          totalCount: true,
          description: "The account's creatives whose performance is tracked.",
          args: { ...common(t), brandId: t.arg.string({ required: false, description: "Only creatives of this brand." }) },
          query: (args) => ({
            where: { ...(args.brandId ? { brandId: args.brandId } : {}), createdAt: within(args.createdWithin) },
            orderBy: [{ createdAt: direction(args.order as Order) }, { id: direction(args.order as Order) }],
          }),
        },
        page("creatives"),
        edge("the creatives"),
      ),
      invoices: t.relatedConnection(
        "invoices",
        {
          type: invoice,
          cursor: "id",
          totalCount: true,
          description: "The account's invoices.",
          args: common(t),
          query: (args) => ({
            where: { issuedAt: within(args.createdWithin) },
            orderBy: [{ issuedAt: direction(args.order as Order) }, { id: direction(args.order as Order) }],
          }),
        },
        page("invoices"),
        edge("the invoices"),
      ),
      ledgerEntries: t.relatedConnection(
        "ledger",
        {
          type: ledgerEntry,
          cursor: "id",
          totalCount: true,
          description: "How the account's credits moved.",
          args: common(t),
          query: (args) => ({
            where: { createdAt: within(args.createdWithin) },
            orderBy: [{ createdAt: direction(args.order as Order) }, { id: direction(args.order as Order) }],
          }),
        },
        page("ledger entries"),
        edge("the ledger entries"),
      ),
      knowledgeItems: t.relatedConnection(
        "knowledgeItems",
        {
          type: knowledgeItem,
          cursor: "id",
          totalCount: true,
          description: "The knowledge the account gave for its ads.",
          args: { ...common(t), type: t.arg.string({ required: false, description: "Only items of this type (file, url, text)." }) },
          query: (args) => ({
            where: { ...(args.type ? { type: args.type } : {}), createdAt: within(args.createdWithin) },
            orderBy: [{ createdAt: direction(args.order as Order) }, { id: direction(args.order as Order) }],
          }),
        },
        page("knowledge items"),
        edge("the knowledge items"),
      ),
    }),
  });
}
