// Where a scene's picture lands in a rectangle of the frame, and where its product then is: the picture
// is cover-fitted into the rectangle and cropped round the product (not round the picture's centre), so a
// product off-centre in a wide photo stays in a tall frame. The ad styles use the product's frame box to
// keep type off it.
import type { PicturePlacement, Rect } from "./layout-base.ts";

/** A rectangle as fractions of the picture (subject-box.ts). */
export interface FractionBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The guess when nothing better is known: the middle half of the width and 60 % of the height. */
export const CENTRE_SUBJECT: FractionBox = { x: 0.25, y: 0.2, w: 0.5, h: 0.6 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The picture in `rect`, and the product's box in the frame. Cover-fitted and cropped round the product when
 * that keeps the product whole inside `free` (default: the rectangle); otherwise set smaller, its product
 * centred in `free`, over a blurred copy of itself that fills the rectangle.
 */
export function fitPicture(
  rect: Rect,
  image: { width: number; height: number } | undefined,
  subject: FractionBox | undefined,
  free: Rect = rect,
  /** The boxes of type over the picture: when none covers the product at cover size, the picture covers. */
  blocked?: Rect[],
): { placement: PicturePlacement; subject: Rect } {
  const box = subject ?? CENTRE_SUBJECT;
  const focus = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
  // Without its size the picture is taken to have the rectangle's shape (no crop).
  const iw = image?.width || rect.w;
  const ih = image?.height || rect.h;
  const cover = Math.max(rect.w / iw, rect.h / ih);
  const sw = iw * cover;
  const sh = ih * cover;
  const cropX = clamp(focus.x * sw - rect.w / 2, 0, sw - rect.w);
  const cropY = clamp(focus.y * sh - rect.h / 2, 0, sh - rect.h);
  const raw = { x: rect.x + box.x * sw - cropX, y: rect.y + box.y * sh - cropY, w: box.w * sw, h: box.h * sh };
  const clipped = intersect(raw, rect);
  const inside = overlapArea(clipped, free);
  const clear = blocked ? !blocked.some((b) => coversSubject(b, clipped)) : inside >= 0.96 * raw.w * raw.h;
  if (clear || !subject) return { placement: { rect, focus }, subject: clipped };
  // Set smaller: the product fits the free area with a margin, never enlarged past the cover size.
  const scale = Math.min(cover, 0.92 * Math.min(free.w / (box.w * iw), free.h / (box.h * ih)));
  const w = iw * scale;
  const h = ih * scale;
  const x = free.x + free.w / 2 - focus.x * w - rect.x;
  const y = free.y + free.h / 2 - focus.y * h - rect.y;
  const inset = { x: Math.round(x), y: Math.round(y), w: 2 * Math.round(w / 2), h: 2 * Math.round(h / 2) };
  const placed = { x: rect.x + inset.x + box.x * inset.w, y: rect.y + inset.y + box.y * inset.h, w: box.w * inset.w, h: box.h * inset.h };
  return { placement: { rect, focus, inset, fill: backdropOf(box) }, subject: intersect(placed, rect) };
}

/** The widest band of the picture beside its product (its backdrop), or the whole picture when there is none. */
function backdropOf(box: FractionBox): FractionBox {
  const bands: FractionBox[] = [
    { x: 0, y: 0, w: box.x, h: 1 },
    { x: box.x + box.w, y: 0, w: 1 - box.x - box.w, h: 1 },
    { x: 0, y: 0, w: 1, h: box.y },
    { x: 0, y: box.y + box.h, w: 1, h: 1 - box.y - box.h },
  ].filter((b) => b.w >= 0.06 && b.h >= 0.06);
  const widest = bands.sort((a, b) => b.w * b.h - a.w * a.h)[0];
  return widest ?? { x: 0, y: 0, w: 1, h: 1 };
}

function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.w, b.x + b.w) - x;
  const h = Math.min(a.y + a.h, b.y + b.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : { x, y, w: 0, h: 0 };
}

/** The area two rectangles share. */
export function overlapArea(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** True when `text` covers more than a sliver (4 %) of the product's box. */
export function coversSubject(text: Rect, subject: Rect | undefined): boolean {
  if (!subject || subject.w <= 0 || subject.h <= 0) return false;
  return overlapArea(text, subject) > 0.04 * subject.w * subject.h;
}
