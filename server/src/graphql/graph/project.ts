// A project (a job: one ad made by a workflow) as partners read it: its files, its review, its daily
// performance and its ledger entries. What is not a Prisma relation loads through a dataloader, once for
// every project of a page.
import { projectDays } from "../../modules/analytics/project-days.ts";
import { LedgerReason } from "../../modules/credits/ledger.ts";
import type { Builder } from "../builder.ts";
import { ownerScope } from "./access.ts";
import type { addBilling } from "./billing.ts";
import { addProjectParts } from "./project-parts.ts";
import { bounded, LIST_BOUNDS } from "./list-bounds.ts";

export function addProject(builder: Builder, ledgerEntry: ReturnType<typeof addBilling>["ledgerEntry"]) {
  const parts = addProjectParts(builder);
  return builder.prismaNode("Job", {
    variant: "AccountProject",
    description: "A project: one ad made by a workflow, with its status, cost in credits and timing.",
    id: { field: "id", description: "The project's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => ({ id, ...ownerScope(ctx) }),
    // Another account's id reads as no such node (null), as a missing one does.
    nullable: true,
    fields: (t) => ({
      projectId: t.exposeString("id", { description: "The project's id, as REST and tRPC name it (`/api/projects/{id}`)." }),
      type: t.exposeString("type", { description: "The workflow that made it (SPEC's workflow types)." }),
      name: t.exposeString("name", { description: "The name its owner gave it." }),
      quality: t.exposeString("quality", { description: "The quality tier it was made at." }),
      status: t.string({ description: "queued, processing, awaiting_review, completed or failed.", resolve: (job) => job.status }),
      brandId: t.string({
        nullable: true,
        description: "The brand it was made for, when its launch named one (else the account's default brand).",
        resolve: (job) => parts.brandOf(job.input),
      }),
      creditsUsed: t.exposeInt("creditsUsed", { description: "Credits it cost." }),
      progress: t.exposeInt("progress", { description: "Progress in percent." }),
      createdAt: t.string({ description: "When it was launched (ISO 8601).", resolve: (job) => job.createdAt.toISOString() }),
      finishedAt: t.string({
        nullable: true,
        description: "When it ended, if it has.",
        resolve: (job) => job.finishedAt?.toISOString() ?? null,
      }),
      assets: t.field({
        type: [parts.asset],
        description: `The files it made, once it has (empty before): a bounded list of at most ${LIST_BOUNDS.projectAssets}. Each \`url\` is absolute and needs the same credential.`,
        resolve: (job) => parts.assetsOf(job.result).slice(0, LIST_BOUNDS.projectAssets),
      }),
      review: t.field({
        type: parts.review,
        nullable: true,
        description: "Its review before rendering and its owner's rating; null when it had neither.",
        resolve: (job) => parts.reviewOf(job),
      }),
      performance: t.loadableList({
        type: parts.day,
        description: `Its daily performance, oldest day first: the figures of every creative made from it, summed per day; a bounded list of at most ${LIST_BOUNDS.dailySeries} days.`,
        load: (ids: string[], ctx) => projectDays(ctx.services.db.sql, ids).then(bounded(LIST_BOUNDS.dailySeries)),
        resolve: (job) => job.id,
      }),
      ledgerEntries: t.loadableList({
        type: ledgerEntry,
        description: `The ledger entries that charged it and, if it failed, refunded it, oldest first: a bounded list of at most ${LIST_BOUNDS.projectLedgerEntries}.`,
        load: async (ids: string[], ctx) => {
          const rows = await ctx.services.prisma.creditLedgerEntry.findMany({
            where: { reference: { in: ids }, reason: { in: [LedgerReason.workflowCharge, LedgerReason.workflowRefund] } },
            orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          });
          return bounded(LIST_BOUNDS.projectLedgerEntries)(ids.map((id) => rows.filter((row) => row.reference === id)));
        },
        // The parent project was already scoped to the caller; its own entries carry its owner.
        resolve: (job) => job.id,
      }),
    }),
  });
}
