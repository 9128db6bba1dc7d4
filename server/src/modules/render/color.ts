// Colour arithmetic for contrast-aware text: WCAG relative luminance and contrast ratio.

export type Rgb = readonly [number, number, number];

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

export function parseHex(hex: string): Rgb {
  if (!HEX_COLOR.test(hex)) throw new Error(`Not a #rrggbb colour: ${JSON.stringify(hex)}`);
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function toHex(rgb: Rgb): string {
  return `#${rgb
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** ffmpeg colour syntax (`0xRRGGBB` or `0xRRGGBB@alpha`), which needs no escaping in a filtergraph. */
export function ffColor(rgb: Rgb, alpha = 1): string {
  const hex = toHex(rgb).slice(1).toUpperCase();
  return alpha >= 1 ? `0x${hex}` : `0x${hex}@${alpha.toFixed(2)}`;
}

/** `a` blended toward `b` by `t` (0 → a, 1 → b). */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export const WHITE: Rgb = [255, 255, 255];
export const INK: Rgb = [17, 17, 17];
export const BLACK: Rgb = [0, 0, 0];

/** The preferred colour if it reaches `min` contrast against `background`, else white or near-black, whichever is stronger. */
export function readableOn(background: Rgb, preferred: Rgb, min = 4.5): Rgb {
  if (contrast(preferred, background) >= min) return preferred;
  return contrast(WHITE, background) >= contrast(INK, background) ? WHITE : INK;
}

/**
 * The colour that reads on every one of `backgrounds`: `preferred` when it reaches `min` against all of them,
 * else white or near-black, whichever is stronger against the worst of them.
 */
export function readableOnAll(backgrounds: Rgb[], preferred: Rgb, min = 4.5): Rgb {
  const worst = (c: Rgb) => Math.min(...backgrounds.map((b) => contrast(c, b)));
  if (worst(preferred) >= min) return preferred;
  return worst(WHITE) >= worst(INK) ? WHITE : INK;
}

/** Euclidean distance in RGB, 0–441. */
export function distance(a: Rgb, b: Rgb): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
