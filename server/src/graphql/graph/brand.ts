// A brand of the account, the projects made for it, and the loop's next move for it.
import { Prisma } from "@adgen/prisma";
import { brandRecommendation } from "../../modules/loop/loop.ts";
import type { Builder } from "../builder.ts";
import type { ListArguments, Order } from "./filters.ts";
import { direction, within } from "./filters.ts";
import type { addProject } from "./project.ts";

type Project = ReturnType<typeof addProject>;

/** The `where` of the projects made for a brand: named at launch, or (the default brand) naming none. */
export function brandProjects(brand: { id: string; isDefault: boolean }): Prisma.JobWhereInput {
  const named: Prisma.JobWhereInput = { input: { path: ["brand"], equals: brand.id } };
  return brand.isDefault ? { OR: [named, { input: { path: ["brand"], equals: Prisma.AnyNull } }] } : named;
}

export function addBrand(builder: Builder, project: Project, lists: ListArguments) {
  const loopAction = builder.objectRef<Awaited<ReturnType<typeof brandRecommendation>>>("BrandLoopAction").implement({
    description: "The loop's next move for a brand, judged from its creatives' performance (what GET /api/loop answers).",
    fields: (t) => ({
      brandId: t.exposeString("brandId", { description: "The brand it is for." }),
      action: t.exposeString("action", { description: "SEED, DOUBLE_DOWN, ITERATE, KILL or CHALLENGER." }),
      target: t.exposeString("target", { nullable: true, description: "The creative it is about (null for SEED)." }),
      targetName: t.exposeString("targetName", { nullable: true, description: "The target's name (its project's, else its key)." }),
      reasoning: t.exposeString("reasoning", { description: "Why, in words." }),
      cost: t.exposeInt("cost", { description: "Credits executing it would charge now (0 for KILL)." }),
      effect: t.exposeString("effect", { description: "What executing it does, in words." }),
      confidence: t.exposeFloat("confidence", { description: "0–1: how sure the recommendation is." }),
    }),
  });
  const brand = builder.prismaObject("BrandProfile", {
    variant: "AccountBrand",
    description: "A brand of the account: the profile its ads are made for.",
    fields: (t) => ({
      brandId: t.exposeString("id", { description: "The brand's id, as REST and tRPC name it (`/api/brands/{id}`)." }),
      name: t.string({
        nullable: true,
        description: "The brand's name.",
        resolve: (row) => {
          const profile = (row.profile ?? {}) as { name?: unknown; brandName?: unknown };
          const name = profile.name ?? profile.brandName;
          return typeof name === "string" ? name : null;
        },
      }),
      isDefault: t.exposeBoolean("isDefault", { description: "Whether it is the brand launches use when they name none." }),
      createdAt: t.string({ description: "When it was made (ISO 8601).", resolve: (row) => row.createdAt.toISOString() }),
      projects: t.prismaConnection(
        {
          type: project,
          cursor: "id",
          description: "The projects made for this brand (for the default brand, also those that named none).",
          args: {
            createdWithin: t.arg({ type: lists.dateRange, required: false, description: "Only projects launched within this range." }),
            order: t.arg({ type: lists.order, required: false, description: "Newest first unless asked." }),
          },
          totalCount: (row, args, ctx) =>
            ctx.services.prisma.job.count({ where: { userId: row.userId, ...brandProjects(row), createdAt: within(args.createdWithin) } }),
          resolve: (query, row, args, ctx) =>
            ctx.services.prisma.job.findMany({
              ...query,
              where: { userId: row.userId, ...brandProjects(row), createdAt: within(args.createdWithin) },
              orderBy: [{ createdAt: direction(args.order as Order) }, { id: direction(args.order as Order) }],
            }),
        },
        { description: "A page of the brand's projects." },
        { description: "One of the brand's projects, with its cursor." },
      ),
      loopAction: t.field({
        type: loopAction,
        description: "The loop's next move for this brand.",
        resolve: (row, _args, ctx) => brandRecommendation(ctx.services.prisma, row.userId, row.id),
      }),
    }),
  });
  return { brand, loopAction };
}
