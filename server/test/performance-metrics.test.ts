// The arithmetic of performance: CTR, CPC, CPA and ROAS (null with a zero denominator), and decay
// detection against a creative's own baseline: a fading creative is flagged, a steady one, a noisy
// low-volume one and a short history are not.
import { describe, expect, it } from "vitest";
import { type DailyCounts, detectDecay } from "../src/modules/performance/decay.ts";
import { figuresOf, toCents } from "../src/modules/performance/figures.ts";
import { normalCdf, proportionFallPValue, pValueText } from "../src/modules/performance/statistics.ts";

const day = (n: number) => `2026-03-${String(n + 1).padStart(2, "0")}`;

/** `days` days of figures: impressions and clicks per day from the functions (spend 100, revenue 300). */
function history(days: number, impressions: (i: number) => number, clicks: (i: number) => number, extra: Partial<DailyCounts> = {}) {
  return Array.from({ length: days }, (_, i) => ({
    date: day(i),
    impressions: impressions(i),
    clicks: clicks(i),
    conversions: 0,
    spendCents: 10_000,
    revenueCents: 30_000,
    ...extra,
  }));
}

describe("computed figures", () => {
  it("CTR, CPC, CPA and ROAS from the counts and money", () => {
    expect(
      figuresOf({ impressions: 10_000, clicks: 250, conversions: 10, spendCents: toCents(125.5), revenueCents: toCents(502) }),
    ).toEqual({
      impressions: 10_000,
      clicks: 250,
      conversions: 10,
      spend: 125.5,
      revenue: 502,
      ctr: 0.025,
      cpc: 0.502,
      cpa: 12.55,
      roas: 4,
    });
  });

  it("a ratio with a zero denominator is null, never 0 or Infinity", () => {
    expect(figuresOf({ impressions: 0, clicks: 0, conversions: 0, spendCents: 0, revenueCents: 500 })).toMatchObject({
      ctr: null,
      cpc: null,
      cpa: null,
      roas: null,
      revenue: 5,
    });
    // Spend without clicks or conversions: still no CPC or CPA; revenue 0 on spend is a ROAS of 0.
    expect(figuresOf({ impressions: 100, clicks: 0, conversions: 0, spendCents: 1_000, revenueCents: 0 })).toMatchObject({
      ctr: 0,
      cpc: null,
      cpa: null,
      roas: 0,
    });
  });

  it("money is summed in cents, so 0.1 + 0.2 stays 0.3", () => {
    expect(toCents(0.1) + toCents(0.2)).toBe(toCents(0.3));
  });
});

describe("the significance tests", () => {
  it("the normal CDF and a two-proportion test", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.6449)).toBeCloseTo(0.95, 3);
    // 2 % of 10,000 against 1.5 % of 10,000 is a real fall; 2 % against 1.98 % is not.
    expect(proportionFallPValue(200, 10_000, 150, 10_000)!).toBeLessThan(0.01);
    expect(proportionFallPValue(200, 10_000, 198, 10_000)!).toBeGreaterThan(0.4);
    expect(proportionFallPValue(0, 0, 1, 10)).toBeNull();
    expect(pValueText(0.01234)).toBe("p = 0.0123");
    expect(pValueText(0.00000001)).toBe("p < 0.0001");
  });
});

describe("decay detection", () => {
  it("flags a creative whose CTR fades from its own baseline, and says by how much", () => {
    // 10 days of 5,000 impressions: 2 % CTR for a week, then 1.4 % for the last 3 days (a 30 % fall).
    const fading = history(
      10,
      () => 5_000,
      (i) => (i < 7 ? 100 : 70),
    );
    const verdict = detectDecay(fading);
    expect(verdict.decaying).toBe(true);
    expect(verdict.enoughVolume).toBe(true);
    expect(verdict.baselineDays).toEqual([day(0), day(1), day(2), day(3), day(4), day(5), day(6)]);
    expect(verdict.recentDays).toEqual([day(7), day(8), day(9)]);
    expect(verdict.ctr).toMatchObject({ baseline: 0.02, recent: 0.014, relativeChange: -0.3, falling: true });
    expect(verdict.ctr.pValue!).toBeLessThan(0.05);
    expect(verdict.reason).toMatch(/^Decaying: CTR fell 30 % from its baseline/);
  });

  it("does not flag a steady creative, whose days only wobble", () => {
    const steady = history(
      10,
      () => 5_000,
      (i) => [100, 97, 104, 99, 102, 98, 101, 103, 96, 100][i]!,
    );
    const verdict = detectDecay(steady);
    expect(verdict).toMatchObject({ decaying: false, enoughVolume: true });
    expect(verdict.ctr.falling).toBe(false);
    expect(verdict.reason).toMatch(/^Steady/);
  });

  it("does not call a fall on low volume decay", () => {
    // The same 30 % fall on 400 impressions a day is noise: not judged.
    const small = history(
      10,
      () => 400,
      (i) => (i < 7 ? 8 : 5),
    );
    expect(detectDecay(small)).toMatchObject({ decaying: false, enoughVolume: false });
    expect(detectDecay(small).reason).toMatch(/Not judged: 4000 impressions/);
  });

  it("does not flag a small fall even when it is significant (under 15 %)", () => {
    // 10 % down on 50,000 impressions a day: significant, but below the 15 % that makes decay.
    const slight = history(
      10,
      () => 50_000,
      (i) => (i < 7 ? 1_000 : 900),
    );
    const verdict = detectDecay(slight);
    expect(verdict.ctr.pValue!).toBeLessThan(0.05);
    expect(verdict.decaying).toBe(false);
  });

  it("needs six days of data (a baseline and a recent window that do not overlap)", () => {
    expect(
      detectDecay(
        history(
          5,
          () => 50_000,
          () => 1_000,
        ),
      ),
    ).toMatchObject({ decaying: false, enoughVolume: false });
  });

  it("flags a ROAS fall: conversions per spend down with CTR steady", () => {
    const roasFading = history(
      9,
      () => 5_000,
      () => 100,
    ).map((d, i) => ({
      ...d,
      conversions: i < 6 ? 20 : 10,
      revenueCents: i < 6 ? 40_000 : 20_000,
    }));
    const verdict = detectDecay(roasFading);
    expect(verdict.ctr.falling).toBe(false);
    expect(verdict.roas).toMatchObject({ baseline: 4, recent: 2, relativeChange: -0.5, falling: true });
    expect(verdict.decaying).toBe(true);
    expect(verdict.reason).toMatch(/ROAS fell 50 %/);
  });
});
