// Reads the horizontal metrics of a TrueType/OpenType font (cmap + hmtx) so text can be wrapped to the real
// advance widths drawtext will use, instead of a guess. Kerning is ignored: it only ever makes lines narrower.
import { readFileSync } from "node:fs";

export interface FontMetrics {
  /** Advance width of `text` at `fontSize` pixels. */
  measure(text: string, fontSize: number): number;
  /** Ascender and descender (positive) as fractions of the font size. */
  ascent: number;
  descent: number;
}

/** Average advance of DejaVu Sans Bold is ~0.6 em; used when a font file cannot be parsed. */
const FALLBACK_EM = 0.62;

const cache = new Map<string, FontMetrics>();

export function fontMetrics(fontPath: string): FontMetrics {
  let metrics = cache.get(fontPath);
  if (!metrics) {
    try {
      metrics = parseFont(readFileSync(fontPath));
    } catch {
      metrics = {
        measure: (text, size) => [...text].length * size * FALLBACK_EM,
        ascent: 0.93,
        descent: 0.24,
      };
    }
    cache.set(fontPath, metrics);
  }
  return metrics;
}

function parseFont(buf: Buffer): FontMetrics {
  const tag = buf.readUInt32BE(0);
  // 0x00010000 TrueType, 'OTTO' CFF, 'true' old Apple TrueType.
  if (tag !== 0x00010000 && tag !== 0x4f54544f && tag !== 0x74727565) throw new Error("not a single TrueType/OpenType font");
  const numTables = buf.readUInt16BE(4);
  const tables = new Map<string, number>();
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + i * 16;
    tables.set(buf.toString("latin1", rec, rec + 4), buf.readUInt32BE(rec + 8));
  }
  const need = (name: string) => {
    const offset = tables.get(name);
    if (offset === undefined) throw new Error(`font has no ${name} table`);
    return offset;
  };
  const head = need("head");
  const hhea = need("hhea");
  const hmtx = need("hmtx");
  const cmap = need("cmap");
  const unitsPerEm = buf.readUInt16BE(head + 18);
  const ascender = buf.readInt16BE(hhea + 4);
  const descender = buf.readInt16BE(hhea + 6);
  const numberOfHMetrics = buf.readUInt16BE(hhea + 34);
  const advance = (glyph: number) => buf.readUInt16BE(hmtx + 4 * Math.min(glyph, numberOfHMetrics - 1));
  const lookup = cmapLookup(buf, cmap);
  const widths = new Map<number, number>();
  const em = (codePoint: number) => {
    let w = widths.get(codePoint);
    if (w === undefined) {
      w = advance(lookup(codePoint)) / unitsPerEm;
      widths.set(codePoint, w);
    }
    return w;
  };
  return {
    measure(text, size) {
      let total = 0;
      for (const ch of text) total += em(ch.codePointAt(0)!);
      return total * size;
    },
    ascent: ascender / unitsPerEm,
    descent: Math.abs(descender) / unitsPerEm,
  };
}

/** Picks a Unicode subtable (format 12 preferred, else format 4) and returns codePoint → glyph id. */
function cmapLookup(buf: Buffer, cmap: number): (codePoint: number) => number {
  const count = buf.readUInt16BE(cmap + 2);
  let format4: number | undefined;
  let format12: number | undefined;
  for (let i = 0; i < count; i++) {
    const rec = cmap + 4 + i * 8;
    const platform = buf.readUInt16BE(rec);
    const encoding = buf.readUInt16BE(rec + 2);
    const sub = cmap + buf.readUInt32BE(rec + 4);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = buf.readUInt16BE(sub);
    if (format === 12) format12 ??= sub;
    else if (format === 4) format4 ??= sub;
  }
  if (format12 !== undefined) {
    const sub = format12;
    const groups = buf.readUInt32BE(sub + 12);
    return (cp) => {
      let lo = 0;
      let hi = groups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const g = sub + 16 + mid * 12;
        const start = buf.readUInt32BE(g);
        const end = buf.readUInt32BE(g + 4);
        if (cp < start) hi = mid - 1;
        else if (cp > end) lo = mid + 1;
        else return buf.readUInt32BE(g + 8) + (cp - start);
      }
      return 0;
    };
  }
  if (format4 !== undefined) {
    const sub = format4;
    const segCount = buf.readUInt16BE(sub + 6) / 2;
    const endCodes = sub + 14;
    const startCodes = endCodes + segCount * 2 + 2;
    const idDeltas = startCodes + segCount * 2;
    const idRangeOffsets = idDeltas + segCount * 2;
    return (cp) => {
      if (cp > 0xffff) return 0;
      for (let i = 0; i < segCount; i++) {
        if (cp > buf.readUInt16BE(endCodes + i * 2)) continue;
        const start = buf.readUInt16BE(startCodes + i * 2);
        if (cp < start) return 0;
        const delta = buf.readInt16BE(idDeltas + i * 2);
        const rangeOffsetPos = idRangeOffsets + i * 2;
        const rangeOffset = buf.readUInt16BE(rangeOffsetPos);
        if (rangeOffset === 0) return (cp + delta) & 0xffff;
        const glyph = buf.readUInt16BE(rangeOffsetPos + rangeOffset + (cp - start) * 2);
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
      }
      return 0;
    };
  }
  throw new Error("font has no Unicode cmap");
}
