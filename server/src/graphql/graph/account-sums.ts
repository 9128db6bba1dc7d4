// An account's figures summed in SQL: weekly performance and weekly credits. Each loads through a
// dataloader keyed by the field's place in the query, so a page of accounts (an admin's `accounts`) is
// summed in one statement, not one per account.
import { type PerformanceGrouping, weeklyCredits, weeklyPerformance } from "../../modules/analytics/weekly.ts";
import type { AggregateTypes } from "./aggregates.ts";
import type { ListArguments } from "./filters.ts";
import { bounded, LIST_BOUNDS } from "./list-bounds.ts";

export function accountSums(t: any, aggregates: AggregateTypes, lists: ListArguments) {
  return {
    performanceByWeek: t.loadableList({
      type: aggregates.weeklyPerformance,
      description: `Spend, revenue, CTR, ROAS and conversions per week and group, summed in the database, oldest week first: a bounded list of at most ${LIST_BOUNDS.performanceByWeek} rows (one per week and group; narrow \`days\` for more).`,
      args: {
        groupBy: t.arg({ type: aggregates.grouping, required: true, description: "Sum by workflow type, brand or creative." }),
        brandId: t.arg.string({ required: false, description: "Only this brand's creatives." }),
        days: t.arg({ type: lists.dateRange, required: false, description: "Only these days (YYYY-MM-DD; `to` excluded)." }),
      },
      // The same field at the same place (aliases apart) has the same arguments for every account.
      byPath: true,
      load: (ids: string[], ctx: any, args: any) =>
        weeklyPerformance(ctx.services.db.sql, ids, args.groupBy as PerformanceGrouping, { range: args.days, brandId: args.brandId }).then(
          bounded(LIST_BOUNDS.performanceByWeek),
        ),
      resolve: (account: { id: string }) => account.id,
    }),
    creditsByWeek: t.loadableList({
      type: aggregates.weeklyCredits,
      description: `Credits used per week and workflow type, summed from the ledger in the database, oldest week first: a bounded list of at most ${LIST_BOUNDS.creditsByWeek} rows (one per week and type; narrow \`createdWithin\` for more).`,
      args: {
        createdWithin: t.arg({ type: lists.dateRange, required: false, description: "Only ledger entries made within this range." }),
      },
      byPath: true,
      load: (ids: string[], ctx: any, args: any) =>
        weeklyCredits(ctx.services.db.sql, ids, args.createdWithin).then(bounded(LIST_BOUNDS.creditsByWeek)),
      resolve: (account: { id: string }) => account.id,
    }),
  };
}
