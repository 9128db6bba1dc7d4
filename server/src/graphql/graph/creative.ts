// A creative whose performance is tracked, and its daily series.
import { detectDecay } from "../../modules/performance/decay.ts";
import type { Builder } from "../builder.ts";
import type { AggregateTypes } from "./aggregates.ts";
import { ownerScope } from "./access.ts";
import { LIST_BOUNDS } from "./list-bounds.ts";

export function addCreative(builder: Builder, aggregates: AggregateTypes) {
  const day = builder.prismaObject("PerformanceMetric", {
    variant: "CreativeDay",
    description: "One day of a creative's performance, as the ad platform reported it.",
    fields: (t) => ({
      day: t.string({ description: "The day (YYYY-MM-DD, UTC).", resolve: (m) => m.day.toISOString().slice(0, 10) }),
      impressions: t.exposeInt("impressions", { description: "Times it was shown." }),
      clicks: t.exposeInt("clicks", { description: "Clicks on it." }),
      conversions: t.exposeInt("conversions", { description: "Conversions attributed to it." }),
      spendCents: t.float({ description: "Spend, in cents.", resolve: (m) => Number(m.spendCents) }),
      revenueCents: t.float({ description: "Revenue, in cents.", resolve: (m) => Number(m.revenueCents) }),
    }),
  });
  const creative = builder.prismaNode("PerformanceCreative", {
    variant: "AccountCreative",
    description: "A creative (an ad as published) whose performance is tracked.",
    id: { field: "id", description: "The creative's global id (for `node(id:)`)." },
    findUnique: (id, ctx) => ({ id, ...ownerScope(ctx) }),
    // Another account's id reads as no such node (null), as a missing one does.
    nullable: true,
    fields: (t) => ({
      key: t.exposeString("key", { description: "The creative's key, as reported with its metrics." }),
      projectId: t.exposeString("jobId", { nullable: true, description: "The project that made it, if known." }),
      brandId: t.exposeString("brandId", { nullable: true, description: "The brand it was made for, if known." }),
      stoppedAt: t.string({
        nullable: true,
        description: "When it was stopped, if it was.",
        resolve: (c) => c.stoppedAt?.toISOString() ?? null,
      }),
      performance: t.relation("metrics", {
        type: day,
        description: `Its daily series, oldest day first: a bounded list of at most ${LIST_BOUNDS.dailySeries} days.`,
        query: { orderBy: { day: "asc" }, take: LIST_BOUNDS.dailySeries },
      }),
      decay: t.field({
        type: aggregates.decayStatus,
        description: "Whether its results are wearing off (judged over its daily series).",
        // Loaded with the creative, through the same batched query as `performance`.
        select: { metrics: { orderBy: { day: "asc" }, take: 366 } },
        resolve: (c) => {
          const verdict = detectDecay(
            c.metrics.map((m) => ({
              date: m.day.toISOString().slice(0, 10),
              impressions: m.impressions,
              clicks: m.clicks,
              conversions: m.conversions,
              spendCents: Number(m.spendCents),
              revenueCents: Number(m.revenueCents),
            })),
          );
          return { ...verdict, ctrChange: verdict.ctr.relativeChange, roasChange: verdict.roas.relativeChange };
        },
      }),
    }),
  });
  return { creative, day };
}
