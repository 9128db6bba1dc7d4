// What every layout shares: the safe areas of each format, the shapes a laid-out scene is made of, and how
// text is cleaned and wrapped with real glyph widths. Pure; no ffmpeg here.
import type { AspectRatio } from "@adgen/schema";
import type { Rgb } from "./color.ts";
import type { FontFace, FontFamily } from "./font-family.ts";
import type { FontMetrics } from "./font-metrics.ts";
import type { AdStyle, BrandStyle, Scene } from "./types.ts";

/**
 * Fractions of the frame kept free of text (platform UI: captions, buttons, progress bars), in every frame of
 * every type, captions and the presenter's name bar included. 9:16 is Meta's Reels safe zone (the top 14 %,
 * the bottom 35 % and 6 % at each side are covered by its interface), which also clears TikTok's (about 150 px
 * at the top, 440 px at the bottom and 150 px at the right of 1080×1920). Feed formats keep 5 %; 16:9 keeps the
 * title-safe 10 %. `/api/config/studio` states them; layout-checks.ts enforces them.
 */
export const SAFE_MARGINS: Record<AspectRatio, { top: number; bottom: number; left: number; right: number }> = {
  "9:16": { top: 0.14, bottom: 0.35, left: 0.06, right: 0.06 },
  "16:9": { top: 0.1, bottom: 0.1, left: 0.1, right: 0.1 },
  "1:1": { top: 0.05, bottom: 0.05, left: 0.05, right: 0.05 },
  "4:5": { top: 0.05, bottom: 0.05, left: 0.05, right: 0.05 },
};

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BoxItem extends Rect {
  color: Rgb;
  alpha: number;
}

export interface TextItem {
  text: string;
  /** Horizontal centre of the line. */
  centerX: number;
  baseline: number;
  size: number;
  color: Rgb;
  /** Measured advance width (drawtext's kerning can only make it narrower). */
  width: number;
  shadow: boolean;
  /** The face (default "sans", the renderer's main font). */
  face?: FontFace;
  /** A black outline round the letters, in pixels (type set straight on a picture). */
  outline?: number;
}

/**
 * Where and how the scene's picture is drawn: cover-fitted into `rect` (the whole frame when absent), cropped
 * round `focus` (the product's centre, as fractions of the picture), in colour or desaturated.
 */
export interface PicturePlacement {
  rect: Rect;
  focus: { x: number; y: number };
  mono?: boolean;
  /**
   * The picture set smaller than the rectangle (relative to it), over a blurred copy of itself that fills it:
   * how a product too large for the room the type leaves is kept whole and clear of the type.
   */
  inset?: Rect;
  /**
   * The part of the picture (fractions of it) blurred to fill round an inset: its backdrop beside the product,
   * so the product does not appear a second time, large and blurred, behind itself.
   */
  fill?: { x: number; y: number; w: number; h: number };
}

export interface SceneLayout {
  width: number;
  height: number;
  safe: Rect;
  /** Background gradient corners (top-left → bottom-right). */
  gradient: { from: Rgb; to: Rgb };
  /** Brand tint laid over a scene image. */
  imageTint?: { color: Rgb; alpha: number };
  boxes: BoxItem[];
  texts: TextItem[];
  /** Factor applied to the base font sizes to make the text fit (1 = not shrunk). */
  scale: number;
  /** True when even the smallest size did not fit and lines were dropped (only for extreme text lengths). */
  truncated: boolean;
  /** How many lines the headline and the supporting line wrapped to (what a copy fitter asks of a box). */
  lineCounts: { headline: number; body: number };
  /** Where the brand logo goes (fitted into this box, aspect kept), on a light plate so any logo reads. */
  logo?: Rect & { plate: BoxItem };
  /** Where the picture goes; absent: cover-fitted to the whole frame, centred. */
  picture?: PicturePlacement;
  /** The product's box in the frame, when the scene has a picture and the layout knows where it is. */
  subject?: Rect;
  /** The style the scene was laid out in. */
  style?: AdStyle;
  /** Boxes drawn on the background before the picture (a card's border and shadow). */
  backdrop?: BoxItem[];
}

export interface LayoutInput {
  scene: Scene;
  brand: BrandStyle;
  format: AspectRatio;
  width: number;
  height: number;
  metrics: FontMetrics;
  hasImage: boolean;
  /** The brand logo's pixel size, when this scene shows it (the call-to-action scene). */
  logo?: { width: number; height: number };
  /** The layout system (default: the scene's storyboard style, else "panel"). */
  style?: AdStyle;
  /** The faces the styles set type in (default: every face is the main font of `metrics`). */
  fonts?: FontFamily;
  /** Captions carry the words (a narrated ad): only the closing scene shows copy of its own. */
  captioned?: boolean;
  /** This is the ad's closing scene (its end card). */
  isLast?: boolean;
  /** Where the scene sits in the ad, and how many scenes it has (a problem-solution ad turns at the middle). */
  position?: { index: number; count: number };
}

/**
 * The part of the safe area a narrated ad keeps for its captions and its presenter (the lowest 30 %): a
 * scene's product is placed above it.
 */
export function captionZone(safe: Rect): { zone: Rect; free: Rect } {
  const h = Math.round(safe.h * 0.3);
  return {
    zone: { x: safe.x, y: safe.y + safe.h - h, w: safe.w, h },
    free: { x: safe.x, y: safe.y, w: safe.w, h: safe.h - h },
  };
}

export const CAP_HEIGHT = 0.73; // DejaVu Sans cap height / em
export const MIN_SCALE = 0.2;
export const MIN_FONT_PX = 14;
/** A headline wraps to at most this many lines while a smaller size can hold it: a stack of huge lines reads as a wall. */
export const HEADLINE_LINES = 4;

export function normalizeText(value: string | undefined): string {
  if (!value) return "";
  return value
    .normalize("NFC")
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/\t/g, " ")
    .replace(/(?!\n)[\p{Cc}\u200b\u200c\u200e\u200f\ufeff]/gu, "")
    .split("\n")
    .map((line) => line.replace(/ {2,}/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Greedy word wrap; explicit newlines are kept. A word wider than the line breaks after its own hyphens or
 * slashes if that is enough, else between graphemes with a hyphen added.
 */
export function wrapText(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    const place = (piece: string, joiner: string) => {
      const candidate = line ? `${line}${joiner}${piece}` : piece;
      if (measure(candidate) <= maxWidth) {
        line = candidate;
        return true;
      }
      return false;
    };
    for (const word of paragraph.split(" ").filter(Boolean)) {
      if (place(word, " ")) continue;
      if (line) lines.push(line);
      line = "";
      if (place(word, "")) continue;
      const parts = word.split(/(?<=[-/\u2013\u2014_.])(?=.)/u);
      parts.forEach((part, index) => {
        if (place(part, "")) return;
        if (line) lines.push(line);
        line = "";
        if (place(part, "")) return;
        const chars = [...graphemes.segment(part)].map((g) => g.segment);
        chars.forEach((ch, k) => {
          const more = k < chars.length - 1 || index < parts.length - 1;
          if (line && measure(`${line}${ch}${more ? "-" : ""}`) > maxWidth) {
            lines.push(`${line}-`);
            line = "";
          }
          line += ch;
        });
      });
    }
    if (line) lines.push(line);
  }
  return lines;
}
