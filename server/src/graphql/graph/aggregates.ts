// The account's aggregates (summed in SQL by modules/analytics) and a creative's decay status.
import type { PerformanceGrouping, WeeklyCredits, WeeklyPerformance } from "../../modules/analytics/weekly.ts";
import type { Builder } from "../builder.ts";

export function addAggregateTypes(builder: Builder) {
  const grouping = builder.enumType("PerformanceGrouping", {
    description: "What weekly performance is summed by.",
    values: {
      WORKFLOW_TYPE: {
        value: "workflow_type" as PerformanceGrouping,
        description: "The workflow type of the project that made the creative.",
      },
      BRAND: { value: "brand" as PerformanceGrouping, description: "The brand the creative was made for." },
      CREATIVE: { value: "creative" as PerformanceGrouping, description: "The creative itself (its key)." },
    },
  });
  const weeklyPerformance = builder.objectRef<WeeklyPerformance>("WeeklyPerformance").implement({
    description: "One week's performance of one group (workflow type, brand or creative), summed over its days.",
    fields: (t) => ({
      week: t.exposeString("week", { description: "The week's Monday (YYYY-MM-DD, UTC)." }),
      group: t.exposeString("group", { description: "The workflow type, brand id or creative key (empty when unknown)." }),
      impressions: t.exposeFloat("impressions", { description: "Times shown." }),
      clicks: t.exposeFloat("clicks", { description: "Clicks." }),
      conversions: t.exposeFloat("conversions", { description: "Conversions." }),
      spendCents: t.exposeFloat("spendCents", { description: "Spend, in cents." }),
      revenueCents: t.exposeFloat("revenueCents", { description: "Revenue, in cents." }),
      ctr: t.exposeFloat("ctr", { nullable: true, description: "Click-through rate: clicks / impressions (null without impressions)." }),
      roas: t.exposeFloat("roas", { nullable: true, description: "Return on ad spend: revenue / spend (null without spend)." }),
    }),
  });
  const weeklyCredits = builder.objectRef<WeeklyCredits>("WeeklyCredits").implement({
    description: "Credits used in one week by one workflow type, as the ledger charged and refunded them.",
    fields: (t) => ({
      week: t.exposeString("week", { description: "The week's Monday (YYYY-MM-DD, UTC)." }),
      workflowType: t.exposeString("workflowType", { description: "The workflow type." }),
      credits: t.exposeFloat("credits", { description: "Credits charged in the week, less those refunded in the week." }),
      projects: t.exposeFloat("projects", { description: "Projects charged in the week." }),
    }),
  });
  const decayStatus = builder
    .objectRef<{ decaying: boolean; enoughVolume: boolean; reason: string; ctrChange: number | null; roasChange: number | null }>(
      "DecayStatus",
    )
    .implement({
      description: "Whether a creative's results are wearing off: its recent days against its baseline, with significance tests.",
      fields: (t) => ({
        decaying: t.exposeBoolean("decaying", { description: "True when CTR or ROAS fell significantly (at least 15 %)." }),
        enoughVolume: t.exposeBoolean("enoughVolume", {
          description: "False when there is too little data to judge (then never decaying).",
        }),
        reason: t.exposeString("reason", { description: "Why it is, or is not, decaying, in words." }),
        ctrChange: t.exposeFloat("ctrChange", { nullable: true, description: "(recent − baseline) / baseline CTR; −0.2 is a 20 % fall." }),
        roasChange: t.exposeFloat("roasChange", { nullable: true, description: "(recent − baseline) / baseline ROAS." }),
      }),
    });
  return { grouping, weeklyPerformance, weeklyCredits, decayStatus };
}

export type AggregateTypes = ReturnType<typeof addAggregateTypes>;
