// The loop's recommendation for a brand, from its live (not stopped) creatives:
// 1. no live creative with figures → SEED (launch the first creatives);
// 2. too little volume to judge any of them (under 10,000 impressions each) → SEED, with low confidence;
// 3. a losing creative (ROAS under 1 on enough volume) → KILL it, the worst first;
// 4. a decaying creative (see decay.ts) → ITERATE on it;
// 5. one judged creative, healthy → CHALLENGER: test a new angle against it;
// 6. several: a winner significantly ahead of the runner-up (p < 0.05 on conversions per spend when both
//    convert enough, else on clicks per impression) → DOUBLE_DOWN on it; no clear winner → ITERATE on the
//    weakest (a middling creative).
import type { PrismaClient } from "@adgen/prisma";
import type { CreativePerformance, LoopAction, LoopRecommendation } from "@adgen/schema";
import { DECAY_RULES } from "../performance/decay.ts";
import { loadCreativePerformance } from "../performance/report.ts";
import { proportionFallPValue, pValueText, rateFallPValue } from "../performance/statistics.ts";

/** The recommendation as analysed; what executing it costs and does is worked out from it (plan.ts). */
export interface LoopAnalysis extends Omit<LoopRecommendation, "cost" | "effect" | "targetName" | "targetThumbnail"> {
  /** Live creatives with enough volume, best first (by ROAS when they have spend, else CTR). */
  ranked: CreativePerformance[];
  live: CreativePerformance[];
}

/** A creative as a person knows it: its project's name, else the id its figures were sent under. */
export const creativeName = (c: CreativePerformance) => c.name ?? c.creativeId;
const named = (c: CreativePerformance) => `“${creativeName(c)}”`;

/** The first frame of each creative that is a finished project of the account, by project id. */
export async function thumbnailsOf(prisma: PrismaClient, userId: string, projectIds: string[]): Promise<Map<string, string>> {
  if (projectIds.length === 0) return new Map();
  const jobs = await prisma.job.findMany({ where: { id: { in: projectIds }, userId }, select: { id: true, result: true } });
  return new Map(
    jobs.flatMap((j) => {
      const thumbnail = (j.result as { thumbnail?: unknown } | null)?.thumbnail;
      return typeof thumbnail === "string" && thumbnail ? [[j.id, thumbnail] as const] : [];
    }),
  );
}

const pct = (value: number | null) => (value === null ? "n/a" : `${(value * 100).toFixed(2)} %`);
const roasText = (value: number | null) => (value === null ? "n/a" : value.toFixed(2));
const clamp = (value: number) => Math.round(Math.min(0.99, Math.max(0.05, value)) * 100) / 100;
/** More impressions, more confidence: 0 at none, 1 from 50,000. */
const volumeWeight = (impressions: number) => Math.min(1, impressions / 50_000);

const losing = (c: CreativePerformance) => c.totals.spend > 0 && c.totals.roas !== null && c.totals.roas < 1;

function score(c: CreativePerformance): number {
  return c.totals.roas ?? c.totals.ctr ?? 0;
}

function role(c: CreativePerformance, winner: CreativePerformance | undefined): string {
  if (c.totals.impressions < DECAY_RULES.minImpressions) return "low_volume";
  if (losing(c)) return "losing";
  if (c.decay.decaying) return "decaying";
  return c === winner ? "winner" : "middling";
}

/** Is `winner` significantly ahead of `runnerUp`? The one-sided p-value. */
function leadPValue(winner: CreativePerformance, runnerUp: CreativePerformance): { p: number | null; metric: "ROAS" | "CTR" } {
  const w = winner.totals;
  const r = runnerUp.totals;
  if (w.spend > 0 && r.spend > 0 && w.conversions + r.conversions >= DECAY_RULES.minBaselineConversions) {
    return { p: rateFallPValue(w.conversions, w.spend, r.conversions, r.spend), metric: "ROAS" };
  }
  return { p: proportionFallPValue(w.clicks, w.impressions, r.clicks, r.impressions), metric: "CTR" };
}

export async function analyseBrand(
  prisma: PrismaClient,
  userId: string,
  brandId: string,
  range: { from?: string; to?: string } = {},
): Promise<LoopAnalysis> {
  const all = await loadCreativePerformance(prisma, userId, { brandId, ...range });
  const live = all.filter((c) => !c.stopped);
  const withData = live.filter((c) => c.totals.impressions > 0);
  const judged = withData.filter((c) => c.totals.impressions >= DECAY_RULES.minImpressions);
  const haveSpend = judged.length > 0 && judged.every((c) => c.totals.spend > 0);
  const ranked = [...judged].sort((a, b) => (haveSpend ? score(b) - score(a) : (b.totals.ctr ?? 0) - (a.totals.ctr ?? 0)));
  const healthy = ranked.filter((c) => !losing(c) && !c.decay.decaying);
  const winner = healthy[0];
  const thumbnails = await thumbnailsOf(
    prisma,
    userId,
    withData.flatMap((c) => (c.projectId ? [c.projectId] : [])),
  );
  const creatives = withData.map((c) => ({
    creativeId: c.creativeId,
    projectId: c.projectId,
    name: creativeName(c),
    thumbnail: c.projectId ? (thumbnails.get(c.projectId) ?? null) : null,
    role: role(c, winner),
    decaying: c.decay.decaying,
    totals: c.totals,
  }));
  const answer = (action: LoopAction, target: CreativePerformance | null, reasoning: string, confidence: number): LoopAnalysis => ({
    brandId,
    action,
    target: target?.creativeId ?? null,
    reasoning,
    confidence: clamp(confidence),
    creatives,
    ranked,
    live,
  });

  if (withData.length === 0) {
    const stopped = all.length - live.length;
    return answer(
      "SEED",
      null,
      stopped > 0
        ? `Every creative of this brand with figures has been stopped (${stopped}). Launch new creatives and send their results to learn what works.`
        : "This brand has no creative with results yet. Launch its first creatives, then send their impressions, clicks and sales to learn what works.",
      0.95,
    );
  }
  if (judged.length === 0) {
    const most = Math.max(...withData.map((c) => c.totals.impressions));
    return answer(
      "SEED",
      null,
      `No creative has enough volume to judge yet (the most has ${most} impressions; ${DECAY_RULES.minImpressions} are needed). Keep them running, and add creatives to learn faster.`,
      0.3 + 0.3 * volumeWeight(most),
    );
  }
  const losers = ranked.filter(losing).sort((a, b) => score(a) - score(b));
  if (losers.length > 0) {
    const worst = losers[0]!;
    return answer(
      "KILL",
      worst,
      `${named(worst)} loses money: it returned ${roasText(worst.totals.roas)} for each unit spent (ROAS under 1) over ${worst.totals.impressions} impressions. Stop it and move its budget to the better creatives.`,
      0.5 + 0.45 * volumeWeight(worst.totals.impressions),
    );
  }
  const decaying = ranked
    .filter((c) => c.decay.decaying)
    .sort(
      (a, b) =>
        (a.decay.ctr.relativeChange ?? 0) +
        (a.decay.roas.relativeChange ?? 0) -
        ((b.decay.ctr.relativeChange ?? 0) + (b.decay.roas.relativeChange ?? 0)),
    );
  if (decaying.length > 0) {
    const fading = decaying[0]!;
    const p = Math.min(fading.decay.ctr.pValue ?? 1, fading.decay.roas.pValue ?? 1);
    return answer(
      "ITERATE",
      fading,
      `${named(fading)} is wearing out. ${fading.decay.reason} CTR was ${pct(fading.decay.ctr.baseline)} at first and is ${pct(fading.decay.ctr.recent)} now. Refresh it with the ad optimizer before it fades further.`,
      1 - p,
    );
  }
  const top = ranked[0]!;
  if (ranked.length === 1) {
    return answer(
      "CHALLENGER",
      top,
      `${named(top)} is the only creative with enough volume (CTR ${pct(top.totals.ctr)}, ROAS ${roasText(top.totals.roas)}) and it is holding steady. Test a new angle against it to find out whether something beats it.`,
      0.45 + 0.3 * volumeWeight(top.totals.impressions),
    );
  }
  const runnerUp = ranked[1]!;
  const lead = leadPValue(top, runnerUp);
  if (lead.p !== null && lead.p < DECAY_RULES.alpha) {
    return answer(
      "DOUBLE_DOWN",
      top,
      `${named(top)} is the winner: ${lead.metric} ${lead.metric === "ROAS" ? roasText(top.totals.roas) : pct(top.totals.ctr)} against ${lead.metric === "ROAS" ? roasText(runnerUp.totals.roas) : pct(runnerUp.totals.ctr)} for ${named(runnerUp)}, a lead that is not chance (${pValueText(lead.p)}). Launch variations of it.`,
      1 - lead.p,
    );
  }
  const weakest = ranked[ranked.length - 1]!;
  return answer(
    "ITERATE",
    weakest,
    `No creative is clearly ahead (${named(top)} leads ${named(runnerUp)}, but the difference could be chance${lead.p === null ? "" : `, p = ${lead.p.toFixed(2)}`}). Improve the weakest, ${named(weakest)} (CTR ${pct(weakest.totals.ctr)}, ROAS ${roasText(weakest.totals.roas)}), with the ad optimizer.`,
    0.4 + 0.2 * volumeWeight(weakest.totals.impressions),
  );
}
