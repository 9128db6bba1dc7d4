// Still ads: one PNG per variant at a format's pixel size, drawn with Skia (@napi-rs/canvas). Each
// variant pairs a different headline from the storyboard's copy with a different layout and colour
// treatment, so a static-ad run gives several creatives per format to test against each other:
//   A "spotlight": brand gradient, centred headline above the product's card, supporting line and CTA pill below
//                  (copy left of the product when wide);
//   B "split":     the product filling an accent block beside (or above) a light panel with headline, copy and CTA;
//   C "poster":    dark ground, accent frame, large left-aligned upper-case headline, the product in a window
//                  below it (right of it when wide), underlined CTA.
// The product's subject box (subject-box.ts) is placed inside a zone of its own, so no copy covers the
// product; copy stays inside the format's platform-safe area, shrinks until it fits, and takes its colour
// from the pixels actually behind it (4.5:1, with a scrim where nothing else reads).
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type AspectRatio, FORMATS } from "@adgen/schema";
import type { Image, SKRSContext2D } from "@napi-rs/canvas";
import { existsSync } from "node:fs";
import { contrast, INK, mix, parseHex, type Rgb, readableOn, toHex, WHITE } from "./color.ts";
import { locateFont } from "./ffmpeg.ts";
import { SAFE_MARGINS } from "./layout.ts";
import { findSubjectBox, type SubjectBox } from "./subject-box.ts";
import { loadWorkingPicture } from "./working-picture.ts";
import type { Storyboard } from "./types.ts";

export const STATIC_LAYOUTS = ["spotlight", "split", "poster"] as const;
export type StaticLayout = (typeof STATIC_LAYOUTS)[number];

export interface StaticAdCopy {
  headline: string;
  body?: string;
  cta: string;
  brandName: string;
}

export interface StaticVariant extends StaticAdCopy {
  /** "A", "B", "C", … */
  id: string;
  layout: StaticLayout;
  /** The product picture this variant shows (a local file), if the ad has pictures: each variant its own in turn. */
  picturePath?: string;
}

const FAMILY = "AdGenStatic";
const FAMILY_BOLD = "AdGenStaticBold";
let fontsReady = false;

/** The canvas library, loaded by the first still rather than at start-up (an idle service holds none of it). */
async function canvasLibrary() {
  const canvas = await import("@napi-rs/canvas");
  registerFonts(canvas.GlobalFonts);
  return canvas;
}

function registerFonts(GlobalFonts: typeof import("@napi-rs/canvas").GlobalFonts): void {
  if (fontsReady) return;
  const bold = locateFont();
  GlobalFonts.registerFromPath(bold, FAMILY_BOLD);
  const regular = join(dirname(bold), "DejaVuSans.ttf");
  GlobalFonts.registerFromPath(existsSync(regular) ? regular : bold, FAMILY);
  fontsReady = true;
}

/**
 * The variants of a storyboard: `count` different headlines (the scenes' headlines, deduplicated, in
 * order; repeated when there are fewer), each with the next layout.
 */
export function staticVariants(storyboard: Storyboard, count = STATIC_LAYOUTS.length): StaticVariant[] {
  const scenes = storyboard.scenes;
  // Headline lines: the scenes' headlines, then their supporting lines and the title, without repeats
  // (a line cut short with "…" repeats the longer line it starts).
  const headlines: string[] = [];
  const stem = (line: string) => line.replace(/…$/, "").trim().toLowerCase();
  const cta = [...scenes].reverse().find((s) => s.cta)?.cta ?? "Learn more";
  // Thin copy (one idea throughout) still gives distinct lines: the brand's name, then a call-to-action-led line.
  const ctaLine = `${cta.replace(/[.!]+$/, "")} today`;
  const lines = [...scenes.map((s) => s.headline), ...scenes.map((s) => s.body ?? ""), storyboard.title, storyboard.brand.name, ctaLine];
  for (const line of lines) {
    const text = line.trim();
    if (!text) continue;
    if (headlines.some((h) => stem(h).startsWith(stem(text)) || stem(text).startsWith(stem(h)))) continue;
    headlines.push(text);
  }
  if (!headlines.length) headlines.push(storyboard.brand.name);
  const bodies = scenes.map((s) => s.body).filter((b): b is string => !!b);
  const pictures = [...new Set(scenes.map((s) => s.imagePath).filter((p): p is string => !!p))];
  return Array.from({ length: count }, (_, i) => {
    const headline = headlines[i % headlines.length]!;
    // A supporting line that does not repeat the headline, a different one per variant where the copy has several.
    const candidates = bodies.filter((b) => b !== headline);
    const body = candidates.length ? candidates[i % candidates.length] : undefined;
    return {
      id: String.fromCharCode(65 + i),
      layout: STATIC_LAYOUTS[i % STATIC_LAYOUTS.length]!,
      headline,
      ...(body ? { body } : {}),
      cta,
      brandName: storyboard.brand.name,
      ...(pictures.length ? { picturePath: pictures[i % pictures.length] } : {}),
    };
  });
}

/** Draws the logo fitted into a box (aspect kept) on a white plate, aligned left or centred; returns the box's bottom. */
function drawLogo(ctx: SKRSContext2D, logo: Image, x: number, y: number, maxW: number, maxH: number, align: "left" | "center") {
  const scale = Math.min(maxW / logo.width, maxH / logo.height);
  const w = logo.width * scale;
  const h = logo.height * scale;
  const pad = Math.max(6, maxH * 0.18);
  const left = align === "center" ? x - w / 2 : x;
  ctx.fillStyle = "rgba(255,255,255,0.92)";
  ctx.beginPath();
  ctx.roundRect(left - pad, y, w + 2 * pad, h + 2 * pad, pad);
  ctx.fill();
  ctx.drawImage(logo, left, y + pad, w, h);
  return y + h + 2 * pad;
}

const css = (rgb: Rgb) => toHex(rgb);

/** Lines of `text` wrapped to `maxWidth` at the current font. */
function wrap(ctx: SKRSContext2D, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > maxWidth) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The largest size (≤ `size`) at which `text` fits `maxLines` lines of `maxWidth`; its lines. */
function fit(ctx: SKRSContext2D, text: string, family: string, size: number, maxWidth: number, maxLines: number, min = 18) {
  let s = size;
  for (;;) {
    ctx.font = `${s}px ${family}`;
    const lines = wrap(ctx, text, maxWidth);
    const widest = Math.max(...lines.map((l) => ctx.measureText(l).width));
    if ((lines.length <= maxLines && widest <= maxWidth) || s <= min) return { size: s, lines: lines.slice(0, Math.max(maxLines, 1)) };
    s = Math.max(min, Math.floor(s * 0.9));
  }
}

function pill(
  ctx: SKRSContext2D,
  text: string,
  cx: number,
  y: number,
  size: number,
  fill: Rgb,
  align: "left" | "center" = "center",
  hideText = false,
) {
  ctx.font = `${size}px ${FAMILY_BOLD}`;
  const w = ctx.measureText(text).width + size * 1.6;
  const h = size * 2;
  const x = align === "center" ? cx - w / 2 : cx;
  ctx.fillStyle = css(fill);
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, h / 2);
  ctx.fill();
  ctx.fillStyle = css(readableOn(fill, WHITE));
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  if (!hideText) ctx.fillText(text, x + w / 2, y + h / 2);
  return y + h;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The picture's backdrop colour: the mean of its border, to extend it where the photo does not reach. */
async function edgeColour(picture: Image): Promise<Rgb> {
  const { createCanvas } = await import("@napi-rs/canvas");
  const g = createCanvas(8, 8).getContext("2d");
  g.drawImage(picture, 0, 0, 8, 8);
  const d = g.getImageData(0, 0, 8, 8).data;
  const sum = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < 64; i++) {
    const x = i % 8;
    const y = Math.floor(i / 8);
    if (x > 0 && x < 7 && y > 0 && y < 7) continue;
    for (let c = 0; c < 3; c++) sum[c]! += d[i * 4 + c]!;
    n++;
  }
  return sum.map((v) => v / n) as unknown as Rgb;
}

/**
 * Draws `picture` clipped to `zone` so that its subject box lies wholly inside the zone (centred, the
 * photo covering as much of the zone as it can, its backdrop colour filling the rest); returns the
 * subject's box in frame coordinates.
 */
function placePicture(ctx: SKRSContext2D, picture: Image, subject: SubjectBox, zone: Box, fill: Rgb, radius = 0, bleed: Box = zone): Box {
  const iw = picture.width;
  const ih = picture.height;
  const cover = Math.max(bleed.w / iw, bleed.h / ih);
  const scale = Math.min(zone.w / (subject.w * iw), zone.h / (subject.h * ih), cover * 1.6);
  const w = iw * scale;
  const h = ih * scale;
  const axis = (start: number, size: number, outer: number, outerSize: number, image: number, s0: number, s1: number) => {
    let at = start + size / 2 - ((s0 + s1) / 2) * image;
    // A busy photo (the subject a guess) covers the zone; a packshot's backdrop is extended, a cut-out floats.
    if (subject.source === "centre" && image >= outerSize) at = Math.min(outer, Math.max(outer + outerSize - image, at));
    // The subject stays inside the zone whatever the cover wants.
    at = Math.max(at, start - s0 * image);
    return Math.min(at, start + size - s1 * image);
  };
  const x = axis(zone.x, zone.w, bleed.x, bleed.w, w, subject.x, subject.x + subject.w);
  const y = axis(zone.y, zone.h, bleed.y, bleed.h, h, subject.y, subject.y + subject.h);
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(bleed.x, bleed.y, bleed.w, bleed.h, radius);
  ctx.clip();
  if (subject.source !== "alpha") {
    ctx.fillStyle = css(fill);
    ctx.fillRect(bleed.x, bleed.y, bleed.w, bleed.h);
  }
  // Where the photo stops short of the zone, its edge rows and columns stretched on (a graded studio
  // backdrop continues without a seam).
  const right = bleed.x + bleed.w;
  const bottom = bleed.y + bleed.h;
  const extend = subject.source !== "alpha";
  if (extend && x > bleed.x) ctx.drawImage(picture, 0, 0, 1, ih, bleed.x, y, x - bleed.x + 1, h);
  if (extend && x + w < right) ctx.drawImage(picture, iw - 1, 0, 1, ih, x + w - 1, y, right - x - w + 1, h);
  if (extend && y > bleed.y) ctx.drawImage(picture, 0, 0, iw, 1, x, bleed.y, w, y - bleed.y + 1);
  if (extend && y + h < bottom) ctx.drawImage(picture, 0, ih - 1, iw, 1, x, y + h - 1, w, bottom - y - h + 1);
  // …and its corner pixels into the corners.
  for (const [sx, dx, dw] of [
    [0, bleed.x, x - bleed.x + 1],
    [iw - 1, x + w - 1, right - x - w + 1],
  ] as const)
    for (const [sy, dy, dh] of [
      [0, bleed.y, y - bleed.y + 1],
      [ih - 1, y + h - 1, bottom - y - h + 1],
    ] as const)
      if (extend && dw > 1 && dh > 1) ctx.drawImage(picture, sx, sy, 1, 1, dx, dy, dw, dh);
  ctx.drawImage(picture, x, y, w, h);
  ctx.restore();
  return { x: x + subject.x * w, y: y + subject.y * h, w: subject.w * w, h: subject.h * h };
}

/** One piece of copy in a text group. */
interface TextBlock {
  text: string;
  kind: "brand" | "headline" | "body" | "cta";
  size: number;
  maxLines: number;
}

/** Stacked copy in a rectangle: aligned left or centred, anchored to its top, middle or bottom. */
interface TextGroup {
  rect: Box;
  align: "left" | "center";
  anchor: "top" | "middle" | "bottom";
  blocks: TextBlock[];
}

const FAMILIES: Record<TextBlock["kind"], string> = { brand: FAMILY_BOLD, headline: FAMILY_BOLD, body: FAMILY, cta: FAMILY_BOLD };
const LINE_HEIGHT: Record<TextBlock["kind"], number> = { brand: 1.2, headline: 1.1, body: 1.3, cta: 2 };

/** The colours of (a sample of) the pixels under `box` as drawn so far. */
function pixelsUnder(ctx: SKRSContext2D, box: Box): Rgb[] {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const w = Math.max(1, Math.min(ctx.canvas.width - x, Math.ceil(box.w)));
  const h = Math.max(1, Math.min(ctx.canvas.height - y, Math.ceil(box.h)));
  const d = ctx.getImageData(x, y, w, h).data;
  const step = Math.max(1, Math.floor((w * h) / 4000));
  const out: Rgb[] = [];
  for (let i = 0; i < w * h; i += step) out.push([d[i * 4]!, d[i * 4 + 1]!, d[i * 4 + 2]!]);
  return out;
}

/** The weakest contrast of `ink` over `pixels` (its 3rd percentile: a stray pixel does not decide). */
function worstContrast(ink: Rgb, pixels: Rgb[]): number {
  const c = pixels.map((p) => contrast(ink, p)).sort((a, b) => a - b);
  return c[Math.floor(c.length * 0.03)] ?? 21;
}

/**
 * The text colour for copy over `box`: `preferred` if it reads at 4.5:1 over every part of what is
 * behind it, else white or ink; if neither does (a busy backdrop), a scrim is laid first.
 */
function inkFor(ctx: SKRSContext2D, box: Box, preferred: Rgb): Rgb {
  const pixels = pixelsUnder(ctx, box);
  for (const ink of [preferred, WHITE, INK]) if (worstContrast(ink, pixels) >= 4.5) return ink;
  const ink = worstContrast(WHITE, pixels) >= worstContrast(INK, pixels) ? WHITE : INK;
  const veil: Rgb = ink === WHITE ? [0, 0, 0] : [255, 255, 255];
  let alpha = 0.3;
  while (
    alpha < 0.95 &&
    worstContrast(
      ink,
      pixels.map((p) => mix(p, veil, alpha)),
    ) < 4.5
  )
    alpha += 0.05;
  const pad = Math.min(box.h, box.w) * 0.12;
  ctx.fillStyle = `rgba(${veil.join(",")},${alpha.toFixed(2)})`;
  ctx.beginPath();
  ctx.roundRect(box.x - pad, box.y - pad, box.w + 2 * pad, box.h + 2 * pad, pad);
  ctx.fill();
  return ink;
}

interface Treatment {
  ink: Rgb;
  ctaFill: Rgb;
  ctaStyle: "pill" | "underline";
  upper: boolean;
}

/** Sets each group's copy, shrinking the whole group until it fits its rectangle. */
/** A group's copy at the largest scale (≤ 1) at which it fits its rectangle: its blocks' sizes and lines, and its height. */
function layGroup(ctx: SKRSContext2D, group: TextGroup, look: Treatment, unit: number) {
  const blocks = group.blocks.filter((b) => b.text.trim());
  let factor = 1;
  for (;;) {
    const laid = blocks.map((block) => {
      const text = look.upper && block.kind === "headline" ? block.text.toUpperCase() : block.text;
      const width = block.kind === "cta" ? group.rect.w * 0.7 : group.rect.w;
      const f = fit(ctx, text, FAMILIES[block.kind], Math.round(block.size * factor), width, block.maxLines, 12);
      return { block, size: f.size, lines: f.lines, height: f.lines.length * f.size * LINE_HEIGHT[block.kind] };
    });
    const gap = unit * 0.03 * factor;
    const total = laid.reduce((sum, l) => sum + l.height, 0) + gap * Math.max(0, laid.length - 1);
    if (total <= group.rect.h || factor < 0.35) return { laid, gap, total };
    factor *= 0.9;
  }
}

/** Sets each group's copy, shrunk until it fits its rectangle. */
function drawGroups(ctx: SKRSContext2D, groups: TextGroup[], look: Treatment, unit: number, hideText: boolean) {
  for (const group of groups) {
    const { laid, gap, total } = layGroup(ctx, group, look, unit);
    let y =
      group.anchor === "top"
        ? group.rect.y
        : group.anchor === "bottom"
          ? group.rect.y + group.rect.h - total
          : group.rect.y + (group.rect.h - total) / 2;
    const x = group.align === "center" ? group.rect.x + group.rect.w / 2 : group.rect.x;
    for (const { block, size, lines, height } of laid) {
      ctx.font = `${size}px ${FAMILIES[block.kind]}`;
      if (block.kind === "cta") {
        const text = look.ctaStyle === "underline" ? `${block.text} →` : block.text;
        if (look.ctaStyle === "pill") pill(ctx, text, x, y, size, look.ctaFill, group.align, hideText);
        else {
          const w = ctx.measureText(text).width;
          const left = group.align === "center" ? x - w / 2 : x;
          ctx.fillStyle = css(inkFor(ctx, { x: left, y, w, h: size * 1.2 }, look.ctaFill));
          if (!hideText) ctx.fillText(text, x, y);
          ctx.fillRect(left, y + size * 1.25, w, Math.max(3, size * 0.08));
        }
      } else {
        const widths = lines.map((l) => ctx.measureText(l).width);
        const w = Math.max(...widths);
        const left = group.align === "center" ? x - w / 2 : x;
        ctx.fillStyle = css(inkFor(ctx, { x: left, y, w, h: height }, look.ink));
        ctx.textAlign = group.align;
        ctx.textBaseline = "top";
        if (!hideText) for (const [i, line] of lines.entries()) ctx.fillText(line, x, y + i * size * LINE_HEIGHT[block.kind]);
      }
      y += height + gap;
    }
  }
}

/** Options of a render. */
export interface StaticAdOptions {
  /** Lay the ad out exactly as with its copy but leave the letters out (to see where copy lands). */
  hideText?: boolean;
}

/** One static ad as it is drawn: the canvas, its safe area and colours, the pictures, and the copy to set. */
interface StaticScene {
  ctx: SKRSContext2D;
  variant: StaticVariant;
  width: number;
  height: number;
  safe: Box;
  unit: number;
  gap: number;
  primary: Rgb;
  secondary: Rgb;
  accent: Rgb;
  landscape: boolean;
  picture: Image | null;
  subject: SubjectBox | null;
  backdrop: Rgb | null;
  logo: Image | null;
  /** The brand line (unless the logo stands for it), the headline at `size` and the supporting line. */
  copy: (size: number, lines: number, upper?: boolean) => TextBlock[];
  cta: TextBlock;
  /** The logo on its plate at the top of `rect`; the rest of the rectangle. */
  withLogo: (rect: Box, align: "left" | "center") => Box;
}

/** A layout's drawing: the copy's groups, the type's treatment, and where the product went. */
interface StaticLayoutDrawn {
  groups: TextGroup[];
  look: Treatment;
  product: Box | null;
}

/** Brand gradient; the product on a card of its own backdrop; centred copy above and below (beside it when wide). */
function spotlight(sc: StaticScene): StaticLayoutDrawn {
  const { ctx, width, height, unit, safe, gap, primary, secondary, accent, picture, subject, backdrop, logo, copy, cta, withLogo } = sc;
  const g = ctx.createLinearGradient(0, 0, width, height);
  g.addColorStop(0, css(primary));
  g.addColorStop(1, css(secondary));
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, width, height);
  const glow = ctx.createRadialGradient(width / 2, height * 0.42, 0, width / 2, height * 0.42, unit * 0.6);
  glow.addColorStop(0, "rgba(255,255,255,0.18)");
  glow.addColorStop(1, "rgba(255,255,255,0)");
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, width, height);
  const look: Treatment = { ink: readableOn(mix(primary, secondary, 0.5), WHITE), ctaFill: accent, ctaStyle: "pill", upper: false };
  if (sc.landscape) {
    const zone = { x: width * 0.5, y: safe.y, w: safe.x + safe.w - width * 0.5, h: safe.h };
    const text = withLogo({ x: safe.x, y: safe.y, w: width * 0.5 - safe.x - gap, h: safe.h }, "center");
    const groups: TextGroup[] = [{ rect: text, align: "center", anchor: "middle", blocks: [...copy(0.1, 3), cta] }];
    const product = picture && subject && backdrop ? placePicture(ctx, picture, subject, zone, backdrop, unit * 0.03) : null;
    return { groups, look, product };
  }
  if (!(picture && subject && backdrop)) {
    return {
      groups: [{ rect: withLogo(safe, "center"), align: "center", anchor: "middle", blocks: [...copy(0.1, 4), cta] }],
      look,
      product: null,
    };
  }
  // Brand line and headline above the product, the supporting line and button below: each measured
  // first, so the product takes all the height the copy leaves.
  const blocks = copy(0.085, 3);
  const headline = blocks.find((b) => b.kind === "headline")!;
  const body = blocks.find((b) => b.kind === "body");
  const brand: TextBlock[] = logo ? [] : [{ text: sc.variant.brandName, kind: "brand", size: unit * 0.032, maxLines: 1 }];
  const topGroup: TextGroup = {
    rect: withLogo({ x: safe.x, y: safe.y, w: safe.w, h: safe.h * 0.32 }, "center"),
    align: "center",
    anchor: "top",
    blocks: [...brand, headline],
  };
  const bottomRect = { x: safe.x, y: safe.y + safe.h * 0.72, w: safe.w, h: safe.h * 0.28 };
  const bottomGroup: TextGroup = { rect: bottomRect, align: "center", anchor: "bottom", blocks: [...(body ? [body] : []), cta] };
  const topEnd = topGroup.rect.y + layGroup(ctx, topGroup, look, unit).total;
  const bottomStart = bottomRect.y + bottomRect.h - layGroup(ctx, bottomGroup, look, unit).total;
  const zone = { x: safe.x, y: topEnd + gap, w: safe.w, h: bottomStart - topEnd - 2 * gap };
  return { groups: [topGroup, bottomGroup], look, product: placePicture(ctx, picture, subject, zone, backdrop, unit * 0.03) };
}

/** The product fills an accent block (left when wide, top otherwise); the copy is set on the light panel. */
function split(sc: StaticScene): StaticLayoutDrawn {
  const { ctx, width, height, unit, safe, gap, primary, secondary, accent, landscape, picture, subject, backdrop, copy, cta, withLogo } =
    sc;
  const light = mix(secondary, WHITE, 0.88);
  ctx.fillStyle = css(light);
  ctx.fillRect(0, 0, width, height);
  const block = landscape ? { x: 0, y: 0, w: width * 0.5, h: height } : { x: 0, y: 0, w: width, h: height * (picture ? 0.5 : 0.45) };
  ctx.fillStyle = css(accent);
  ctx.fillRect(block.x, block.y, block.w, block.h);
  // Inside the block's safe part: where its photo keeps its subject, or the type-only headline goes.
  const blockSafe = landscape
    ? { x: safe.x, y: safe.y, w: block.w - safe.x - gap, h: safe.h }
    : { x: safe.x, y: safe.y, w: safe.w, h: block.h - safe.y - gap };
  // The photo fills the whole block; its subject stays inside the block's safe part.
  const product = picture && subject && backdrop ? placePicture(ctx, picture, subject, blockSafe, backdrop, 0, block) : null;
  ctx.fillStyle = css(primary);
  if (landscape) ctx.fillRect(block.w - unit * 0.02, 0, unit * 0.02, height);
  else ctx.fillRect(0, block.h - unit * 0.02, width, unit * 0.02);
  // The button in the brand colour, or the accent where the brand colour is as pale as the panel.
  const button = contrast(primary, light) >= 1.5 ? primary : accent;
  const look: Treatment = { ink: readableOn(light, INK), ctaFill: button, ctaStyle: "pill", upper: false };
  const panel = landscape
    ? { x: block.w + gap * 1.5, y: safe.y, w: safe.x + safe.w - block.w - gap * 1.5, h: safe.h }
    : { x: safe.x, y: block.h + gap, w: safe.w, h: safe.y + safe.h - block.h - gap };
  if (picture)
    return {
      groups: [{ rect: withLogo(panel, "left"), align: "left", anchor: "middle", blocks: [...copy(0.075, 3), cta] }],
      look,
      product,
    };
  // No picture: the headline fills the accent block, as a type-only split.
  const blocks = copy(0.095, 4);
  const groups: TextGroup[] = [
    { rect: blockSafe, align: "left", anchor: "bottom", blocks: blocks.filter((b) => b.kind === "headline") },
    { rect: withLogo(panel, "left"), align: "left", anchor: "top", blocks: [...blocks.filter((b) => b.kind !== "headline"), cta] },
  ];
  return { groups, look, product };
}

/**
 * Poster: dark ground and an accent frame, big upper-case type; the product in a window of its own (right when
 * wide, below the headline otherwise) with the call to action under it.
 */
function poster(sc: StaticScene): StaticLayoutDrawn {
  const { ctx, width, height, unit, safe, gap, primary, accent, landscape, picture, subject, backdrop, copy, cta, withLogo } = sc;
  const ground = mix(primary, [10, 12, 18], 0.82);
  ctx.fillStyle = css(ground);
  ctx.fillRect(0, 0, width, height);
  const border = unit * 0.025;
  ctx.strokeStyle = css(accent);
  ctx.lineWidth = border;
  ctx.strokeRect(border * 1.5, border * 1.5, width - border * 3, height - border * 3);
  ctx.fillStyle = css(accent);
  ctx.fillRect(safe.x, safe.y, unit * 0.12, unit * 0.012);
  const look: Treatment = { ink: readableOn(ground, WHITE), ctaFill: accent, ctaStyle: "underline", upper: true };
  const top = { x: safe.x, y: safe.y + unit * 0.04, w: safe.w, h: safe.h - unit * 0.04 };
  if (!picture || !subject || !backdrop) {
    return {
      groups: [{ rect: withLogo(top, "left"), align: "left", anchor: "middle", blocks: [...copy(0.11, 5, true), cta] }],
      look,
      product: null,
    };
  }
  if (landscape) {
    const zone = { x: width * 0.56, y: safe.y, w: safe.x + safe.w - width * 0.56, h: safe.h };
    const product = placePicture(ctx, picture, subject, zone, backdrop);
    const rect = withLogo({ ...top, w: width * 0.56 - safe.x - gap }, "left");
    return { groups: [{ rect, align: "left", anchor: "middle", blocks: [...copy(0.1, 4, true), cta] }], look, product };
  }
  // The headline block measured first; the product takes the height between it and the button.
  const ctaH = unit * 0.1;
  const textGroup: TextGroup = {
    rect: withLogo({ ...top, h: safe.h * 0.45 }, "left"),
    align: "left",
    anchor: "top",
    blocks: copy(0.09, 4, true),
  };
  const textEnd = textGroup.rect.y + layGroup(ctx, textGroup, look, unit).total;
  const zone = { x: safe.x, y: textEnd + gap * 1.5, w: safe.w, h: safe.y + safe.h - ctaH - textEnd - gap * 3 };
  const product = placePicture(ctx, picture, subject, zone, backdrop);
  const ctaGroup: TextGroup = {
    rect: { x: safe.x, y: safe.y + safe.h - ctaH, w: safe.w, h: ctaH },
    align: "left",
    anchor: "bottom",
    blocks: [cta],
  };
  return { groups: [textGroup, ctaGroup], look, product };
}

/**
 * Draws one variant at `format`'s size and writes it as PNG to `outPath`. The product's subject box is
 * found in its picture and every layout keeps its copy off it: the picture goes into a zone of its
 * own and the copy into the rest.
 */
export async function renderStaticAd(
  storyboard: Storyboard,
  variant: StaticVariant,
  format: AspectRatio,
  outPath: string,
  options: StaticAdOptions = {},
) {
  const { createCanvas } = await canvasLibrary();
  const spec = FORMATS.find((f) => f.ratio === format);
  if (!spec) throw new Error(`unknown format ${format}`);
  const { width, height } = spec;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  const m = SAFE_MARGINS[format];
  const safe = { x: width * m.left, y: height * m.top, w: width * (1 - m.left - m.right), h: height * (1 - m.top - m.bottom) };
  const unit = Math.min(width, height);
  const primary = parseHex(storyboard.brand.primary);
  let accent = parseHex(storyboard.brand.accent);
  if (contrast(accent, primary) < 1.5) accent = mix(accent, contrast(WHITE, primary) > contrast(INK, primary) ? WHITE : INK, 0.5);
  // Decoded at most 2048 px on a side: a huge picture is scaled in a child first (working-picture.ts).
  const picture = variant.picturePath ? await loadWorkingPicture(variant.picturePath) : null;
  const subject = picture ? await findSubjectBox(picture) : null;
  const backdrop = picture ? await edgeColour(picture) : null;
  const logo = storyboard.brand.logoPath ? await loadWorkingPicture(storyboard.brand.logoPath) : null;
  const gap = unit * 0.04;
  const sc: StaticScene = {
    ctx,
    variant,
    width,
    height,
    safe,
    unit,
    gap,
    primary,
    secondary: parseHex(storyboard.brand.secondary),
    accent,
    landscape: width > height,
    picture,
    subject,
    backdrop,
    logo,
    copy: (size, lines, upper = false) => [
      ...(logo
        ? []
        : [{ text: upper ? variant.brandName.toUpperCase() : variant.brandName, kind: "brand" as const, size: unit * 0.032, maxLines: 1 }]),
      { text: variant.headline, kind: "headline", size: unit * size, maxLines: lines },
      ...(variant.body ? [{ text: variant.body, kind: "body" as const, size: unit * 0.042, maxLines: 3 }] : []),
    ],
    cta: { text: variant.cta, kind: "cta", size: unit * 0.04, maxLines: 1 },
    withLogo: (rect, align) => {
      if (!logo) return rect;
      const bottom = drawLogo(ctx, logo, align === "center" ? rect.x + rect.w / 2 : rect.x, rect.y, rect.w * 0.4, unit * 0.07, align);
      return { ...rect, y: bottom + gap / 2, h: rect.h - (bottom + gap / 2 - rect.y) };
    },
  };
  const drawn = variant.layout === "spotlight" ? spotlight(sc) : variant.layout === "split" ? split(sc) : poster(sc);
  drawGroups(ctx, drawn.groups, drawn.look, unit, options.hideText === true);
  const png = await canvas.encode("png");
  await writeFile(outPath, png);
  return { path: outPath, width, height, bytes: png.length, product: drawn.product };
}
