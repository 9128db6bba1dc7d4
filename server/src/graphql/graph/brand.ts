// A brand of the account, the projects made for it, and the loop's next move for it.
import type { Job } from "@adgen/prisma";
import { type BrandKey, type BrandPage, brandProjectPages } from "../../modules/analytics/brand-projects.ts";
import { brandRecommendation } from "../../modules/loop/loop.ts";
import type { Builder, GraphQLContext } from "../builder.ts";
import type { ListArguments, Order } from "./filters.ts";
import { direction, within } from "./filters.ts";
import type { addProject } from "./project.ts";

type Project = ReturnType<typeof addProject>;

type PageQuery = { take?: number; skip?: number; cursor?: { id?: string }; [key: string]: unknown };
type BrandArgs = { createdWithin?: unknown; order?: unknown };

/**
 * One request's batches of brands' pages: every brand of a page of brands asking for the same page of
 * projects (the same arguments and selection, as aliases may differ) is answered by one statement for the
 * pages and their totals and one for the projects' rows, whatever the number of brands.
 */
class BrandProjectBatches {
  private readonly pending = new Map<string, { brands: BrandKey[]; done: Promise<BrandPageRows[]> }>();
  private readonly totals = new Map<string, Promise<number>>();

  constructor(private readonly ctx: GraphQLContext) {}

  /** The brand's page of projects (as the Prisma plugin asks for it: its selection, its cursor paging). */
  async projects(brand: BrandKey, query: PageQuery, args: BrandArgs): Promise<Job[]> {
    const { take, skip, cursor, ...selection } = query;
    const result = this.pageOf(brand, { take: take ?? 0, skip: skip ?? 0, cursor: cursor?.id ?? null }, args, selection);
    // The page's statement counted the brand's whole list too: its `totalCount` asks no more.
    const totalKey = JSON.stringify([brand.id, args.createdWithin ?? null]);
    if (!this.totals.has(totalKey))
      this.totals.set(
        totalKey,
        result.then((p) => p.total),
      );
    return (await result).rows;
  }

  /** How many projects the brand's whole list holds: known from its page when that was read, else counted for the batch. */
  async total(brand: BrandKey, args: BrandArgs): Promise<number> {
    const known = this.totals.get(JSON.stringify([brand.id, args.createdWithin ?? null]));
    return known ?? (await this.pageOf(brand, { take: 0, skip: 0, cursor: null }, args, {})).total;
  }

  private pageOf(
    brand: BrandKey,
    paging: Pick<BrandPage, "take" | "skip" | "cursor">,
    args: BrandArgs,
    selection: Record<string, unknown>,
  ): Promise<BrandPageRows> {
    const range = within(args.createdWithin);
    const page: BrandPage = {
      ...paging,
      from: range?.gte ?? null,
      to: range?.lt ?? null,
      newestFirst: direction(args.order as Order) === "desc",
    };
    const key = JSON.stringify([page, selection]);
    let batch = this.pending.get(key);
    if (!batch) {
      const brands: BrandKey[] = [];
      // Once every brand of this tick has asked (graphql-js resolves a list's items in one go).
      const done = new Promise<void>((resolve) => process.nextTick(resolve)).then(async () => {
        this.pending.delete(key);
        const pages = await brandProjectPages(this.ctx.services.db.sql, brands, page);
        const ids = pages.flatMap((p) => p.ids);
        const rows: Job[] = ids.length ? await this.ctx.services.prisma.job.findMany({ ...selection, where: { id: { in: ids } } }) : [];
        const byId = new Map(rows.map((row) => [row.id, row]));
        return pages.map((p) => ({ total: p.total, rows: p.ids.flatMap((id) => byId.get(id) ?? []) }));
      });
      batch = { brands, done };
      this.pending.set(key, batch);
    }
    const index = batch.brands.push({ id: brand.id, userId: brand.userId, isDefault: brand.isDefault }) - 1;
    return batch.done.then((pages) => pages[index]!);
  }
}

type BrandPageRows = { total: number; rows: Job[] };

const batchesOf = new WeakMap<GraphQLContext, BrandProjectBatches>();
function brandBatches(ctx: GraphQLContext): BrandProjectBatches {
  const known = batchesOf.get(ctx);
  if (known) return known;
  const batches = new BrandProjectBatches(ctx);
  batchesOf.set(ctx, batches);
  return batches;
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
          // Read for every brand of the page at once (not one query per brand): one statement cuts each brand's
          // page and counts its list, one reads the pages' projects.
          totalCount: (row, args, ctx) => brandBatches(ctx).total(row, args),
          resolve: (query, row, args, ctx) => brandBatches(ctx).projects(row, query as PageQuery, args),
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
