// Still ads: one PNG per variant at a format's pixel size, drawn with Skia (@napi-rs/canvas). Each
// variant pairs a different headline from the storyboard's copy with a different layout and colour
// treatment, so a static-ad run gives several creatives per format to test against each other:
//   A "spotlight": brand gradient, centred headline, supporting line, CTA pill;
//   B "split":     a solid accent block holding the headline beside (or above) a light panel with copy and CTA;
//   C "poster":    dark ground, accent frame, large left-aligned upper-case headline, underlined CTA.
// Text stays inside the format's platform-safe area and shrinks until it fits.
import { writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type AspectRatio, FORMATS } from "@adgen/schema";
import type { Image, SKRSContext2D } from "@napi-rs/canvas";
import { existsSync } from "node:fs";
import { contrast, INK, mix, parseHex, type Rgb, readableOn, toHex, WHITE } from "./color.ts";
import { locateFont } from "./ffmpeg.ts";
import { SAFE_MARGINS } from "./layout.ts";
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

/** Draws `image` to cover the rectangle (cropped to its proportions, centred). */
function drawCover(ctx: SKRSContext2D, image: Image, x: number, y: number, w: number, h: number) {
  const scale = Math.max(w / image.width, h / image.height);
  const sw = w / scale;
  const sh = h / scale;
  ctx.drawImage(image, (image.width - sw) / 2, (image.height - sh) / 2, sw, sh, x, y, w, h);
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

function drawLines(
  ctx: SKRSContext2D,
  lines: string[],
  size: number,
  x: number,
  y: number,
  align: "left" | "center",
  lineHeight = 1.15,
): number {
  ctx.textAlign = align;
  ctx.textBaseline = "top";
  for (const [i, line] of lines.entries()) ctx.fillText(line, x, y + i * size * lineHeight);
  return y + lines.length * size * lineHeight;
}

function pill(ctx: SKRSContext2D, text: string, cx: number, y: number, size: number, fill: Rgb, align: "left" | "center" = "center") {
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
  ctx.fillText(text, x + w / 2, y + h / 2);
  return y + h;
}

/** Draws one variant at `format`'s size and writes it as PNG to `outPath`. */
export async function renderStaticAd(storyboard: Storyboard, variant: StaticVariant, format: AspectRatio, outPath: string) {
  const { createCanvas, loadImage } = await canvasLibrary();
  const spec = FORMATS.find((f) => f.ratio === format);
  if (!spec) throw new Error(`unknown format ${format}`);
  const { width, height } = spec;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext("2d");
  const m = SAFE_MARGINS[format];
  const safe = { x: width * m.left, y: height * m.top, w: width * (1 - m.left - m.right), h: height * (1 - m.top - m.bottom) };
  const unit = Math.min(width, height);
  const primary = parseHex(storyboard.brand.primary);
  const secondary = parseHex(storyboard.brand.secondary);
  let accent = parseHex(storyboard.brand.accent);
  if (contrast(accent, primary) < 1.5) accent = mix(accent, contrast(WHITE, primary) > contrast(INK, primary) ? WHITE : INK, 0.5);
  const landscape = width > height;
  const picture = variant.picturePath ? await loadImage(variant.picturePath) : null;
  const logo = storyboard.brand.logoPath ? await loadImage(storyboard.brand.logoPath) : null;
  const rgba = (rgb: Rgb, alpha: number) => `rgba(${rgb.map(Math.round).join(",")},${alpha})`;

  if (variant.layout === "spotlight") {
    const g = ctx.createLinearGradient(0, 0, width, height);
    g.addColorStop(0, css(primary));
    g.addColorStop(1, css(secondary));
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, width, height);
    if (picture) {
      // The product full-bleed, under the brand colours fading in toward the text.
      drawCover(ctx, picture, 0, 0, width, height);
      const veil = ctx.createLinearGradient(0, 0, 0, height);
      veil.addColorStop(0, rgba(primary, 0.35));
      veil.addColorStop(0.45, rgba(primary, 0.6));
      veil.addColorStop(1, rgba(primary, 0.88));
      ctx.fillStyle = veil;
      ctx.fillRect(0, 0, width, height);
    }
    // A soft light behind the headline.
    const glow = ctx.createRadialGradient(width / 2, height * 0.42, 0, width / 2, height * 0.42, unit * 0.6);
    glow.addColorStop(0, "rgba(255,255,255,0.18)");
    glow.addColorStop(1, "rgba(255,255,255,0)");
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, width, height);
    const ink = readableOn(mix(primary, secondary, 0.5), WHITE);
    ctx.fillStyle = css(ink);
    ctx.font = `${Math.round(unit * 0.035)}px ${FAMILY_BOLD}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    if (logo) drawLogo(ctx, logo, width / 2, safe.y, safe.w * 0.4, unit * 0.08, "center");
    else ctx.fillText(variant.brandName.toUpperCase(), width / 2, safe.y);
    ctx.fillStyle = css(ink);
    const head = fit(ctx, variant.headline, FAMILY_BOLD, Math.round(unit * 0.1), safe.w, 4);
    const body = variant.body ? fit(ctx, variant.body, FAMILY, Math.round(unit * 0.045), safe.w * 0.9, 3) : null;
    const blockHeight = head.lines.length * head.size * 1.15 + (body ? unit * 0.04 + body.lines.length * body.size * 1.3 : 0);
    let y = safe.y + (safe.h - blockHeight) / 2 - unit * 0.04;
    ctx.font = `${head.size}px ${FAMILY_BOLD}`;
    ctx.fillStyle = css(ink);
    y = drawLines(ctx, head.lines, head.size, width / 2, y, "center");
    if (body) {
      ctx.font = `${body.size}px ${FAMILY}`;
      y = drawLines(ctx, body.lines, body.size, width / 2, y + unit * 0.04, "center", 1.3);
    }
    pill(ctx, variant.cta, width / 2, safe.y + safe.h - unit * 0.09, Math.round(unit * 0.042), accent);
  } else if (variant.layout === "split") {
    const light = mix(secondary, WHITE, 0.88);
    ctx.fillStyle = css(light);
    ctx.fillRect(0, 0, width, height);
    // The accent block: the left half of a landscape frame, else the upper part.
    const block = landscape ? { x: 0, y: 0, w: width * 0.52, h: height } : { x: 0, y: 0, w: width, h: height * 0.56 };
    ctx.fillStyle = css(accent);
    ctx.fillRect(block.x, block.y, block.w, block.h);
    if (picture) {
      // The product fills the block, darkened toward the headline so it reads.
      drawCover(ctx, picture, block.x, block.y, block.w, block.h);
      const shade = landscape ? ctx.createLinearGradient(0, 0, 0, block.h) : ctx.createLinearGradient(0, 0, 0, block.h);
      shade.addColorStop(0, "rgba(0,0,0,0.05)");
      shade.addColorStop(1, "rgba(0,0,0,0.7)");
      ctx.fillStyle = shade;
      ctx.fillRect(block.x, block.y, block.w, block.h);
    }
    // A stripe in the brand colour along the block's edge.
    ctx.fillStyle = css(primary);
    if (landscape) ctx.fillRect(block.w - unit * 0.02, 0, unit * 0.02, height);
    else ctx.fillRect(0, block.h - unit * 0.02, width, unit * 0.02);
    const headArea = landscape
      ? { x: safe.x, y: safe.y, w: block.w - safe.x - unit * 0.06, h: safe.h }
      : { x: safe.x, y: safe.y, w: safe.w, h: block.h - safe.y - unit * 0.06 };
    const head = fit(ctx, variant.headline, FAMILY_BOLD, Math.round(unit * 0.095), headArea.w, 4);
    ctx.font = `${head.size}px ${FAMILY_BOLD}`;
    ctx.fillStyle = css(picture ? WHITE : readableOn(accent, WHITE));
    const headHeight = head.lines.length * head.size * 1.15;
    drawLines(ctx, head.lines, head.size, headArea.x, headArea.y + Math.max(0, headArea.h - headHeight), "left");
    const copyArea = landscape
      ? { x: block.w + unit * 0.06, y: safe.y + safe.h * 0.22, w: width - block.w - unit * 0.06 - width * m.right, h: safe.h * 0.78 }
      : { x: safe.x, y: block.h + unit * 0.06, w: safe.w, h: safe.y + safe.h - block.h - unit * 0.06 };
    const ink = readableOn(light, INK);
    ctx.fillStyle = css(ink);
    ctx.font = `${Math.round(unit * 0.032)}px ${FAMILY_BOLD}`;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    let y = copyArea.y + unit * 0.07;
    if (logo)
      y = Math.max(y, drawLogo(ctx, logo, copyArea.x, copyArea.y - unit * 0.02, copyArea.w * 0.5, unit * 0.06, "left") + unit * 0.02);
    else ctx.fillText(variant.brandName, copyArea.x, copyArea.y);
    if (variant.body) {
      const body = fit(ctx, variant.body, FAMILY, Math.round(unit * 0.042), copyArea.w, 4);
      ctx.font = `${body.size}px ${FAMILY}`;
      ctx.fillStyle = css(ink);
      y = drawLines(ctx, body.lines, body.size, copyArea.x, y, "left", 1.3);
    }
    pill(
      ctx,
      variant.cta,
      copyArea.x,
      Math.min(y + unit * 0.05, copyArea.y + copyArea.h - unit * 0.09),
      Math.round(unit * 0.04),
      primary,
      "left",
    );
  } else {
    const ground = mix(primary, [10, 12, 18], 0.82);
    ctx.fillStyle = css(ground);
    ctx.fillRect(0, 0, width, height);
    if (picture) {
      // The product as a dim backdrop: the poster's type stays the hero.
      ctx.globalAlpha = 0.32;
      drawCover(ctx, picture, 0, 0, width, height);
      ctx.globalAlpha = 1;
    }
    const border = unit * 0.025;
    ctx.strokeStyle = css(accent);
    ctx.lineWidth = border;
    ctx.strokeRect(border * 1.5, border * 1.5, width - border * 3, height - border * 3);
    const ink = readableOn(ground, WHITE);
    ctx.fillStyle = css(accent);
    ctx.fillRect(safe.x, safe.y, unit * 0.12, unit * 0.012);
    ctx.fillStyle = css(ink);
    ctx.font = `${Math.round(unit * 0.03)}px ${FAMILY_BOLD}`;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    if (logo) drawLogo(ctx, logo, safe.x, safe.y + unit * 0.03, safe.w * 0.35, unit * 0.06, "left");
    else ctx.fillText(variant.brandName.toUpperCase(), safe.x, safe.y + unit * 0.03);
    const head = fit(ctx, variant.headline.toUpperCase(), FAMILY_BOLD, Math.round(unit * 0.11), safe.w, 5);
    ctx.font = `${head.size}px ${FAMILY_BOLD}`;
    ctx.fillStyle = css(ink);
    let y = drawLines(ctx, head.lines, head.size, safe.x, safe.y + safe.h * 0.28, "left", 1.05);
    if (variant.body) {
      const body = fit(ctx, variant.body, FAMILY, Math.round(unit * 0.04), safe.w * 0.85, 3);
      ctx.font = `${body.size}px ${FAMILY}`;
      ctx.fillStyle = css(mix(ink, ground, 0.25));
      y = drawLines(ctx, body.lines, body.size, safe.x, y + unit * 0.035, "left", 1.3);
    }
    const ctaSize = Math.round(unit * 0.045);
    ctx.font = `${ctaSize}px ${FAMILY_BOLD}`;
    ctx.fillStyle = css(accent);
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    const ctaText = `${variant.cta} →`;
    const ctaY = Math.max(y + unit * 0.05, safe.y + safe.h - ctaSize * 1.6);
    ctx.fillText(ctaText, safe.x, ctaY);
    ctx.fillRect(safe.x, ctaY + ctaSize * 1.25, ctx.measureText(ctaText).width, Math.max(3, ctaSize * 0.08));
  }

  const png = await canvas.encode("png");
  await writeFile(outPath, png);
  return { path: outPath, width, height, bytes: png.length };
}
