// The significance tests behind decay detection (normal approximations; valid at the volumes decay
// detection requires before it tests at all).

/** The standard normal CDF (Abramowitz & Stegun 7.1.26 erf, |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Two-proportion z-test, one-sided: is the recent rate (k2 of n2) lower than the baseline's (k1 of n1)?
 * Answers the p-value; null when either sample is empty or the pooled rate is 0 or 1.
 */
export function proportionFallPValue(k1: number, n1: number, k2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null;
  const pooled = (k1 + k2) / (n1 + n2);
  if (pooled === 0 || pooled === 1) return null;
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  const z = (k1 / n1 - k2 / n2) / se;
  return 1 - normalCdf(z);
}

/**
 * Conditional test of two Poisson rates, one-sided: are the recent events (k2 over exposure e2) rarer than
 * the baseline's (k1 over e1)? Given k1 + k2 events, k2 is binomial with p = e2 / (e1 + e2) when the
 * rates are equal; the normal approximation of that binomial gives the p-value.
 */
export function rateFallPValue(k1: number, e1: number, k2: number, e2: number): number | null {
  const total = k1 + k2;
  if (e1 <= 0 || e2 <= 0 || total === 0) return null;
  const p = e2 / (e1 + e2);
  const expected = total * p;
  const sd = Math.sqrt(total * p * (1 - p));
  if (sd === 0) return null;
  return normalCdf((k2 + 0.5 - expected) / sd);
}

/** A p-value in words for people: "p = 0.0123", or "p < 0.0001" when it rounds to nothing. */
export function pValueText(p: number): string {
  return p < 0.0001 ? "p < 0.0001" : `p = ${p.toFixed(4)}`;
}
