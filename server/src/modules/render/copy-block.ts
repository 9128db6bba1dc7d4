// A block of copy (headline, supporting line, call to action) fitted into a width and height with the
// renderer's own font metrics, then placed: left-aligned or centred, with the call to action as a button,
// an underlined line or a sticker, and optional boxes behind each line (stickers, markers). The ad styles
// (ad-styles.ts) are built from it. Never an ellipsis: a block that cannot fit drops its supporting line,
// then trailing headline lines at a clause boundary.
import type { Rgb } from "./color.ts";
import type { FontFace, FontFamily } from "./font-family.ts";
import { type BoxItem, type Rect, type TextItem, wrapText } from "./layout-base.ts";

const MIN_FONT_PX = 14;
const MIN_SCALE = 0.3;

export interface CopyText {
  headline: string;
  body: string;
  cta: string;
}

export interface CopyType {
  /** Faces of the headline and of the supporting line and call to action. */
  headlineFace: FontFace;
  bodyFace: FontFace;
  /** Font sizes in pixels at scale 1. */
  sizes: { headline: number; body: number; cta: number };
  /** A headline of more lines than this is set smaller while a smaller size can hold it. */
  maxHeadlineLines: number;
  /** How the call to action is drawn: a filled button, a line with a rule under it, or a sticker like the headline's. */
  cta: "button" | "underline" | "sticker";
  /** Padding around each line's own box (stickers and markers), as a fraction of its size; none when absent. */
  lineBox?: number;
}

export interface FittedCopy {
  type: CopyType;
  hs: number;
  bs: number;
  cs: number;
  hLines: string[];
  bLines: string[];
  cLines: string[];
  width: number;
  height: number;
  truncated: boolean;
}

const lineHeights = (f: Pick<FittedCopy, "hs" | "bs" | "cs">) => ({ h: f.hs * 1.14, b: f.bs * 1.3, c: f.cs * 1.25 });

/** Vertical space of the parts, top to bottom, and the whole height. */
function stack(f: Omit<FittedCopy, "height" | "width" | "truncated">) {
  const lh = lineHeights(f);
  const gap = Math.round(f.hs * 0.32);
  const boxPad = f.type.lineBox ? 2 * f.type.lineBox : 0;
  const parts: { kind: "headline" | "body" | "cta"; top: number; height: number }[] = [];
  let h = 0;
  const add = (kind: (typeof parts)[number]["kind"], height: number) => {
    if (parts.length) h += gap;
    parts.push({ kind, top: h, height });
    h += height;
  };
  if (f.hLines.length) add("headline", f.hLines.length * (lh.h + boxPad * f.hs));
  if (f.bLines.length) add("body", f.bLines.length * (lh.b + boxPad * f.bs));
  if (f.cLines.length) add("cta", f.cLines.length * lh.c + f.cs * (f.type.cta === "underline" ? 0.5 : 0.9));
  return { parts, height: h, lh };
}

/** The copy at the largest scale (≤ 1) that fits `maxWidth` × `maxHeight`. */
export function fitCopy(copy: CopyText, type: CopyType, fonts: FontFamily, maxWidth: number, maxHeight: number): FittedCopy {
  const hm = fonts.metrics(type.headlineFace);
  const bm = fonts.metrics(type.bodyFace);
  const pad = type.lineBox ?? 0;
  const make = (scale: number) => {
    const hs = Math.max(MIN_FONT_PX, Math.round(type.sizes.headline * scale));
    const support = Math.min(1, 0.4 + 0.6 * scale);
    const bs = Math.max(MIN_FONT_PX, Math.round(type.sizes.body * support));
    const cs = Math.max(MIN_FONT_PX, Math.round(type.sizes.cta * support));
    const ctaInset = type.cta === "underline" ? 0 : 2 * cs;
    return {
      type,
      hs,
      bs,
      cs,
      hLines: copy.headline ? wrapText(copy.headline, maxWidth - 2 * pad * hs, (s) => hm.measure(s, hs)) : [],
      bLines: copy.body ? wrapText(copy.body, maxWidth - 2 * pad * bs, (s) => bm.measure(s, bs)) : [],
      cLines: copy.cta ? wrapText(copy.cta, maxWidth - ctaInset, (s) => bm.measure(s, cs)) : [],
    };
  };
  let scale = 1;
  let f = make(scale);
  // A call to action reads as one line: a button of three lines ("Visit / pawpal-food. / example") is set smaller.
  const ctaWraps = (c: typeof f) => c.cLines.length > 1 && scale > 0.6;
  while ((stack(f).height > maxHeight || f.hLines.length > type.maxHeadlineLines || ctaWraps(f)) && scale > MIN_SCALE) {
    scale = Math.max(MIN_SCALE, scale - 0.05);
    f = make(scale);
  }
  let truncated = false;
  if (stack(f).height > maxHeight && f.bLines.length) {
    truncated = true;
    f.bLines = [];
  }
  while (stack(f).height > maxHeight && f.hLines.length > 1) {
    truncated = true;
    f.hLines.pop();
  }
  const widths = [
    ...f.hLines.map((l) => hm.measure(l, f.hs) + 2 * pad * f.hs),
    ...f.bLines.map((l) => bm.measure(l, f.bs) + 2 * pad * f.bs),
    ...f.cLines.map((l) => bm.measure(l, f.cs) + (type.cta === "underline" ? 0 : 2 * f.cs)),
  ];
  return { ...f, width: Math.max(0, ...widths), height: stack(f).height, truncated };
}

export interface CopyColours {
  headline: Rgb;
  body: Rgb;
  /** The call to action's text, and its button or rule. */
  cta: Rgb;
  ctaFill: Rgb;
  /** Each line's own box (stickers, markers), when the type has them. */
  lineFill?: { color: Rgb; alpha: number };
  /** A black outline round the letters (type straight on a picture), in pixels per 100 px of size. */
  outline?: number;
  shadow: boolean;
}

/**
 * Places a fitted block with its top at `top`: left-aligned from `x`, or centred on `x`. Returns the lines
 * and the boxes drawn under them (buttons, rules, stickers).
 */
export function placeCopy(
  fitted: FittedCopy,
  fonts: FontFamily,
  at: { x: number; top: number; align: "left" | "center" },
  colours: CopyColours,
): { texts: TextItem[]; boxes: BoxItem[]; rect: Rect } {
  const { type } = fitted;
  const hm = fonts.metrics(type.headlineFace);
  const bm = fonts.metrics(type.bodyFace);
  const { parts, lh } = stack(fitted);
  const texts: TextItem[] = [];
  const boxes: BoxItem[] = [];
  const even = (n: number) => 2 * Math.round(n / 2);
  const centreOf = (w: number) => (at.align === "center" ? at.x : at.x + w / 2);
  const baselineIn = (lineH: number, size: number, m: typeof hm) => (lineH - (m.ascent + m.descent) * size) / 2 + m.ascent * size;
  const setLines = (lines: string[], size: number, lineH: number, top: number, face: FontFace, color: Rgb, m: typeof hm) => {
    const pad = type.lineBox ? type.lineBox * size : 0;
    lines.forEach((text, i) => {
      const width = m.measure(text, size);
      const rowTop = top + i * (lineH + 2 * pad);
      if (type.lineBox && colours.lineFill) {
        const w = width + 2 * pad;
        boxes.push({
          x: even(centreOf(w) - w / 2),
          y: even(rowTop),
          w: even(w),
          h: even(lineH + 2 * pad),
          color: colours.lineFill.color,
          alpha: colours.lineFill.alpha,
        });
      }
      texts.push({
        text,
        centerX: centreOf(width + 2 * pad),
        baseline: Math.round(rowTop + pad + baselineIn(lineH, size, m)),
        size,
        color,
        width,
        shadow: colours.shadow,
        ...(face !== "sans" ? { face } : {}),
        ...(colours.outline ? { outline: Math.max(2, Math.round((colours.outline * size) / 100)) } : {}),
      });
    });
  };
  for (const part of parts) {
    const top = at.top + part.top;
    if (part.kind === "headline") setLines(fitted.hLines, fitted.hs, lh.h, top, type.headlineFace, colours.headline, hm);
    else if (part.kind === "body") setLines(fitted.bLines, fitted.bs, lh.b, top, type.bodyFace, colours.body, bm);
    else {
      const textW = Math.max(...fitted.cLines.map((l) => bm.measure(l, fitted.cs)));
      const cs = fitted.cs;
      if (type.cta === "underline") {
        fitted.cLines.forEach((l, i) => {
          texts.push({
            text: l,
            centerX: centreOf(textW),
            baseline: Math.round(top + i * lh.c + baselineIn(lh.c, cs, bm)),
            size: cs,
            color: colours.cta,
            width: bm.measure(l, cs),
            shadow: colours.shadow,
            ...(type.bodyFace !== "sans" ? { face: type.bodyFace } : {}),
          });
        });
        const ruleY = top + fitted.cLines.length * lh.c + cs * 0.15;
        boxes.push({
          x: even(centreOf(textW) - textW / 2),
          y: even(ruleY),
          w: even(textW),
          h: even(Math.max(4, cs * 0.1)),
          color: colours.ctaFill,
          alpha: 1,
        });
      } else {
        const w = textW + 2 * cs;
        const h = fitted.cLines.length * lh.c + cs * 0.9;
        boxes.push({ x: even(centreOf(w) - w / 2), y: even(top), w: even(w), h: even(h), color: colours.ctaFill, alpha: 1 });
        fitted.cLines.forEach((l, i) => {
          texts.push({
            text: l,
            centerX: centreOf(w),
            baseline: Math.round(top + cs * 0.45 + i * lh.c + baselineIn(lh.c, cs, bm)),
            size: cs,
            color: colours.cta,
            width: bm.measure(l, cs),
            shadow: false,
            ...(type.bodyFace !== "sans" ? { face: type.bodyFace } : {}),
          });
        });
      }
    }
  }
  const left = at.align === "center" ? at.x - fitted.width / 2 : at.x;
  return { texts, boxes, rect: { x: left, y: at.top, w: fitted.width, h: fitted.height } };
}
