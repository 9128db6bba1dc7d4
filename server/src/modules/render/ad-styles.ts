// The layout systems of the ad styles other than the classic panel (layout.ts). Each has its own faces,
// type scale, placement and end card, so two workflow types never look alike:
// - cinematic: full-bleed pictures under letterbox bars, sparse serif type low on a soft scrim;
// - ugc: a creator's post: big sentence-case stickers (black on white) in the upper middle, no chrome;
// - presenter: a title bar at the top, the lower half left to the presenter and the captions;
// - problem-solution: the problem in muted grey over a desaturated picture, the solution in brand colour;
// - split: the picture in one part of the frame, a solid brand block holding the copy in the other;
// - editorial: a light page, the picture as an inset card, serif copy centred under it;
// - bold: condensed type on accent-coloured markers, large, over the picture.
// Type never covers the product: a block that would is moved to another place in the frame, and when no
// place is free the picture gives up part of the frame to a solid band that holds the copy.
import type { AspectRatio } from "@adgen/schema";
import { BLACK, contrast, INK, luminance, mix, parseHex, type Rgb, readableOnAll, WHITE } from "./color.ts";
import { type CopyColours, type CopyText, type CopyType, type FittedCopy, fitCopy, placeCopy } from "./copy-block.ts";
import type { FontFamily } from "./font-family.ts";
import {
  type BoxItem,
  captionZone,
  type LayoutInput,
  normalizeText,
  type Rect,
  SAFE_MARGINS,
  type SceneLayout,
  type TextItem,
} from "./layout-base.ts";
import { coversSubject, fitPicture } from "./picture-fit.ts";
import type { AdStyle } from "./types.ts";

const even = (n: number) => 2 * Math.round(n / 2);

const readable = readableOnAll;

/** What an unknown photograph may be behind type: anything from a light to a dark grey. */
const PHOTO: Rgb[] = [
  [200, 200, 200],
  [40, 40, 40],
];
const behind = (samples: Rgb[], scrim: Rgb, alpha: number) => samples.map((c) => mix(c, scrim, alpha));

interface Frame {
  W: number;
  H: number;
  u: number;
  safe: Rect;
  format: AspectRatio;
  tall: boolean;
  wide: boolean;
  fonts: FontFamily;
  primary: Rgb;
  secondary: Rgb;
  accent: Rgb;
  brandText: Rgb;
}

function frameOf(input: LayoutInput): Frame {
  const { width: W, height: H, format, brand } = input;
  const m = SAFE_MARGINS[format];
  const safe: Rect = {
    x: even(W * m.left),
    y: even(H * m.top),
    w: even(W * (1 - m.left - m.right)),
    h: even(H * (1 - m.top - m.bottom)),
  };
  const fonts = input.fonts ?? { path: () => "", metrics: () => input.metrics };
  return {
    W,
    H,
    u: Math.min(W, H),
    safe,
    format,
    tall: H > W * 1.2,
    wide: W > H * 1.2,
    fonts,
    primary: parseHex(brand.primary),
    secondary: parseHex(brand.secondary),
    accent: parseHex(brand.accent),
    brandText: parseHex(brand.text),
  };
}

function copyOf(input: LayoutInput): CopyText {
  return {
    headline: normalizeText(input.scene.headline),
    body: normalizeText(input.scene.body),
    cta: normalizeText(input.scene.cta).replace(/\n/g, " "),
  };
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

interface Built {
  gradient: { from: Rgb; to: Rgb };
  boxes: BoxItem[];
  texts: TextItem[];
  truncated: boolean;
  lineCounts: { headline: number; body: number };
  picture?: SceneLayout["picture"];
  subject?: Rect;
  imageTint?: SceneLayout["imageTint"];
  logo?: SceneLayout["logo"];
  backdrop?: BoxItem[];
}

/** A band of the frame that holds copy where the picture gives way, and the rest of the frame for the picture. */
function splitFrame(f: Frame, side: "top" | "bottom" | "left" | "right", band: number): { band: Rect; picture: Rect } {
  const { W, H } = f;
  if (side === "left" || side === "right") {
    const bw = even(band);
    return side === "left"
      ? { band: { x: 0, y: 0, w: bw, h: H }, picture: { x: bw, y: 0, w: W - bw, h: H } }
      : { band: { x: W - bw, y: 0, w: bw, h: H }, picture: { x: 0, y: 0, w: W - bw, h: H } };
  }
  const bh = even(band);
  return side === "top"
    ? { band: { x: 0, y: 0, w: W, h: bh }, picture: { x: 0, y: bh, w: W, h: H - bh } }
    : { band: { x: 0, y: H - bh, w: W, h: bh }, picture: { x: 0, y: 0, w: W, h: H - bh } };
}

interface FullBleedSpec {
  type: CopyType;
  /** The block's width at most, and its height at most, as fractions of the safe area. */
  maxWidth: number;
  maxHeight: number;
  align: "left" | "center";
  /** Where the block's top may go, best first, as fractions of the safe area's height (1 = its bottom edge). */
  tops: number[];
  colours: (scrim: { color: Rgb; alpha: number } | null) => CopyColours;
  /** A scrim behind the block (a translucent box a little larger than it), or none. */
  scrim: { color: Rgb; alpha: number } | null;
  /** When no place is free of the product: which side of the frame becomes a solid band for the copy. */
  bandSide: "top" | "bottom";
  bandFill: Rgb;
}

/**
 * Copy over a full-frame picture, kept off the product: the first free place of `spec.tops`, else a solid band
 * that takes part of the frame from the picture.
 */
function overPicture(f: Frame, input: LayoutInput, copy: CopyText, spec: FullBleedSpec, gradient: Built["gradient"]): Built {
  const { safe } = f;
  const maxW = safe.w * spec.maxWidth;
  const fitted = fitCopy(copy, spec.type, f.fonts, maxW, safe.h * spec.maxHeight);
  const x = spec.align === "center" ? safe.x + safe.w / 2 : safe.x;
  const hasPicture = !!(input.scene.imagePath || input.scene.videoPath) || input.hasImage;
  const full = fitPicture({ x: 0, y: 0, w: f.W, h: f.H }, input.scene.imageSize, input.scene.subject);
  const pad = Math.round(0.03 * f.u);
  const blockRect = (top: number): Rect => {
    const left = spec.align === "center" ? x - fitted.width / 2 : x;
    return { x: left - pad, y: top - pad, w: fitted.width + 2 * pad, h: fitted.height + 2 * pad };
  };
  const topAt = (t: number) =>
    Math.round(Math.min(safe.y + safe.h - fitted.height, Math.max(safe.y, safe.y + t * safe.h - (t >= 1 ? fitted.height : 0))));
  if (!hasPicture || !fitted.hLines.length) {
    const top = topAt(spec.tops[0] ?? 0.5);
    return finish(f, fitted, { x, top, align: spec.align }, spec.colours(null), spec.scrim, gradient, null);
  }
  for (const t of spec.tops) {
    const top = topAt(t);
    if (!coversSubject(blockRect(top), full.subject)) {
      return finish(f, fitted, { x, top, align: spec.align }, spec.colours(spec.scrim), spec.scrim, gradient, full);
    }
  }
  // No free place: the picture is set smaller, its product in the part of the frame the copy leaves free.
  const top = topAt(spec.tops[0] ?? 0);
  const block = blockRect(top);
  const above: Rect = { x: 0, y: safe.y, w: f.W, h: Math.max(0, block.y - safe.y) };
  const below: Rect = { x: 0, y: block.y + block.h, w: f.W, h: Math.max(0, safe.y + safe.h - block.y - block.h) };
  const room = above.h >= below.h ? above : below;
  const inset = fitPicture({ x: 0, y: 0, w: f.W, h: f.H }, input.scene.imageSize, input.scene.subject, room);
  return finish(f, fitted, { x, top, align: spec.align }, spec.colours(spec.scrim), spec.scrim, gradient, inset);
}

/** Colours re-read for copy set on a solid band. */
function bandColours(type: CopyType, colours: CopyColours, fill: Rgb, accent: Rgb): CopyColours {
  const text = readable([fill], colours.headline);
  const ctaFill = contrast(accent, fill) >= 1.6 ? accent : mix(fill, luminance(fill) > 0.4 ? BLACK : WHITE, 0.8);
  return {
    ...colours,
    headline: type.lineBox ? colours.headline : text,
    body: type.lineBox ? colours.body : readable([fill], colours.body),
    ctaFill,
    // An underlined call to action is set on the page, a button's on its fill.
    cta: type.cta === "underline" ? text : readable([ctaFill], colours.cta),
    outline: undefined,
    shadow: false,
  };
}

function finish(
  f: Frame,
  fitted: FittedCopy,
  at: { x: number; top: number; align: "left" | "center" },
  colours: CopyColours,
  scrim: { color: Rgb; alpha: number } | null,
  gradient: Built["gradient"],
  picture: ReturnType<typeof fitPicture> | null,
): Built {
  const placed = placeCopy(fitted, f.fonts, at, colours);
  const boxes: BoxItem[] = [];
  if (scrim && placed.texts.length) {
    const pad = Math.round(0.035 * f.u);
    const r = placed.rect;
    boxes.push({ x: even(r.x - pad), y: even(r.y - pad), w: even(r.w + 2 * pad), h: even(r.h + 2 * pad), ...scrim });
  }
  boxes.push(...placed.boxes);
  return {
    gradient,
    boxes,
    texts: placed.texts,
    truncated: fitted.truncated,
    lineCounts: { headline: fitted.hLines.length, body: fitted.bLines.length },
    ...(picture ? { picture: picture.placement, subject: picture.subject } : {}),
  };
}

/** The closing scene: the logo (or the brand's name as a wordmark), a short line and the call to action, centred. */
function endCard(
  f: Frame,
  input: LayoutInput,
  copy: CopyText,
  type: CopyType,
  page: Rgb,
  colours: CopyColours,
  align: "left" | "center",
): Built {
  const { safe, u } = f;
  const gradient = { from: page, to: mix(page, luminance(page) > 0.5 ? BLACK : WHITE, 0.1) };
  const boxes: BoxItem[] = [];
  const texts: TextItem[] = [];
  let top = safe.y + safe.h * 0.22;
  // A closing scene with a picture shows the product above the sign-off (beside it in a wide frame).
  let pictured: ReturnType<typeof fitPicture> | null = null;
  if (input.hasImage) {
    const zone: Rect = f.wide ? { x: 0, y: 0, w: even(f.W * 0.45), h: f.H } : { x: 0, y: 0, w: f.W, h: even(safe.y + safe.h * 0.42) };
    pictured = fitPicture(zone, input.scene.imageSize, input.scene.subject);
    if (!f.wide) top = zone.h + Math.round(0.05 * u);
  }
  const area =
    f.wide && pictured
      ? { x: even(f.W * 0.45) + Math.round(0.05 * u), w: safe.x + safe.w - even(f.W * 0.45) - Math.round(0.05 * u) }
      : { x: safe.x, w: safe.w };
  const centre = area.x + area.w / 2;
  let logo: SceneLayout["logo"];
  const { logo: logoSize } = input;
  if (logoSize && logoSize.width > 0 && logoSize.height > 0) {
    const fit = Math.min((area.w * 0.45) / logoSize.width, (f.H * (f.wide ? 0.18 : 0.11)) / logoSize.height);
    const w = even(logoSize.width * fit);
    const h = even(logoSize.height * fit);
    const pad = even(Math.max(8, 0.02 * u));
    const x = even(align === "center" ? centre - w / 2 : area.x + pad);
    const y = even(top);
    logo = { x, y: y + pad, w, h, plate: { x: x - pad, y, w: w + 2 * pad, h: h + 2 * pad, color: WHITE, alpha: 0.92 } };
    top = y + h + 2 * pad + Math.round(0.05 * u);
  } else {
    const name = normalizeText(input.brand.name).replace(/\n/g, " ");
    if (name) {
      const face = type.headlineFace;
      const m = f.fonts.metrics(face);
      let size = Math.round(0.075 * u);
      while (size > 16 && m.measure(name, size) > area.w * 0.9) size -= 2;
      const width = m.measure(name, size);
      texts.push({
        text: name,
        centerX: align === "center" ? centre : area.x + width / 2,
        baseline: Math.round(top + m.ascent * size),
        size,
        color: readable([gradient.from, gradient.to], colours.headline),
        width,
        shadow: false,
        ...(face !== "sans" ? { face } : {}),
      });
      const ruleW = even(Math.min(width, 0.2 * u));
      const ruleX = align === "center" ? centre - ruleW / 2 : area.x;
      boxes.push({ x: even(ruleX), y: even(top + size * 1.25), w: ruleW, h: even(Math.max(4, 0.008 * u)), color: f.accent, alpha: 1 });
      top += size * 1.25 + Math.round(0.06 * u);
    }
  }
  // A closing line that only repeats the brand's name (already the wordmark or logo) is not said twice.
  const key = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  const repeatsName = key(copy.headline) === key(input.brand.name);
  // A closing line under a headline that only names the brand (a quoted tagline, a sign-off) is the line shown.
  const headline =
    (words(copy.headline) <= 10 && !repeatsName ? copy.headline : "") || (copy.body && words(copy.body) <= 10 ? copy.body : "");
  // The style's own type: stickers and markers stay (on the page's colours), serif stays serif.
  const endType = { ...type, sizes: { ...type.sizes, headline: type.sizes.headline * 0.8 } };
  const fitted = fitCopy({ ...copy, headline, body: "" }, endType, f.fonts, area.w * 0.9, safe.y + safe.h - top);
  const x = align === "center" ? centre : area.x;
  const placed = placeCopy(
    fitted,
    f.fonts,
    { x, top, align },
    type.lineBox ? colours : bandColours(type, colours, gradient.from, f.accent),
  );
  // The sign-off sits in the middle of the room it has (below the picture, or the safe area).
  const roomTop = pictured && !f.wide ? pictured.placement.rect.y + pictured.placement.rect.h : safe.y;
  const roomBottom = safe.y + safe.h;
  const allTexts = [...texts, ...placed.texts];
  const allBoxes = [...boxes, ...placed.boxes];
  const blockTop = Math.min(
    ...allTexts.map((t) => t.baseline - t.size),
    ...allBoxes.map((b) => b.y),
    logo ? logo.plate.y : Number.POSITIVE_INFINITY,
  );
  const blockBottom = Math.max(
    ...allTexts.map((t) => t.baseline + t.size * 0.3),
    ...allBoxes.map((b) => b.y + b.h),
    logo ? logo.plate.y + logo.plate.h : 0,
  );
  const shift = Number.isFinite(blockTop)
    ? even(Math.max(roomTop - blockTop, (roomTop + roomBottom) / 2 - (blockTop + blockBottom) / 2))
    : 0;
  for (const t of allTexts) t.baseline += shift;
  for (const b of allBoxes) b.y += shift;
  if (logo) {
    logo.y += shift;
    logo.plate.y += shift;
  }
  return {
    gradient,
    boxes: allBoxes,
    texts: allTexts,
    truncated: fitted.truncated,
    lineCounts: { headline: fitted.hLines.length, body: 0 },
    ...(logo ? { logo } : {}),
    ...(pictured ? { picture: pictured.placement, subject: pictured.subject } : {}),
  };
}

const TYPES: Record<Exclude<AdStyle, "panel">, (u: number) => CopyType> = {
  cinematic: (u) => ({
    headlineFace: "serif",
    bodyFace: "serif",
    sizes: { headline: 0.074 * u, body: 0.04 * u, cta: 0.044 * u },
    maxHeadlineLines: 3,
    cta: "underline",
  }),
  ugc: (u) => ({
    headlineFace: "sans",
    bodyFace: "sans",
    sizes: { headline: 0.078 * u, body: 0.05 * u, cta: 0.056 * u },
    maxHeadlineLines: 4,
    cta: "sticker",
    lineBox: 0.22,
  }),
  presenter: (u) => ({
    headlineFace: "sans",
    bodyFace: "sans",
    sizes: { headline: 0.064 * u, body: 0.042 * u, cta: 0.05 * u },
    maxHeadlineLines: 3,
    cta: "button",
  }),
  "problem-solution": (u) => ({
    headlineFace: "condensed",
    bodyFace: "sans",
    sizes: { headline: 0.088 * u, body: 0.044 * u, cta: 0.052 * u },
    maxHeadlineLines: 4,
    cta: "button",
  }),
  split: (u) => ({
    headlineFace: "sans",
    bodyFace: "sans",
    sizes: { headline: 0.082 * u, body: 0.044 * u, cta: 0.05 * u },
    maxHeadlineLines: 4,
    cta: "button",
  }),
  editorial: (u) => ({
    headlineFace: "serif",
    bodyFace: "serif",
    sizes: { headline: 0.072 * u, body: 0.04 * u, cta: 0.044 * u },
    maxHeadlineLines: 4,
    cta: "underline",
  }),
  bold: (u) => ({
    headlineFace: "condensed",
    bodyFace: "sans",
    sizes: { headline: 0.11 * u, body: 0.046 * u, cta: 0.054 * u },
    maxHeadlineLines: 4,
    cta: "button",
    lineBox: 0.14,
  }),
};

/**
 * The headline big enough to read on a phone with the sound off: the hook (the first scene) at least 6.4 % of the
 * frame's height, the others at least 4.8 % (fitCopy still shrinks a line that cannot fit its room).
 */
function readableOnAPhone(type: CopyType, input: LayoutInput, f: Frame): CopyType {
  if (input.captioned && !input.isLast) return type;
  const floor = f.H * ((input.position?.index ?? 1) === 0 ? 0.064 : 0.048);
  const headline = Math.max(type.sizes.headline, floor);
  const k = headline / type.sizes.headline;
  return { ...type, sizes: { headline, body: type.sizes.body * Math.min(1.25, k), cta: type.sizes.cta * Math.min(1.25, k) } };
}

/** Lays out one scene in `style` (anything but "panel"). */
export function layoutStyled(
  input: LayoutInput,
  style: Exclude<AdStyle, "panel">,
): Omit<SceneLayout, "width" | "height" | "safe" | "scale"> {
  const f = frameOf(input);
  const copy = copyOf(input);
  const type = readableOnAPhone(TYPES[style](f.u), input, f);
  const built = input.isLast
    ? closing(f, input, copy, type, style)
    : input.captioned
      ? captionedScene(f, input, style)
      : scene(f, input, copy, type, style);
  // Letterbox bars only where the frame is wide enough to read as cinema: in 9:16 and 4:5 they only waste the
  // small screen (issue 44).
  if (style === "cinematic" && (f.format === "16:9" || f.format === "1:1")) built.boxes.unshift(...letterbox(f));
  return { ...built, style };
}

/** The black bars of a wide-screen picture inside the frame (outside the safe area). */
function letterbox(f: Frame): BoxItem[] {
  const bar = even(f.H * (f.tall ? 0.09 : 0.06));
  return [
    { x: 0, y: 0, w: f.W, h: bar, color: BLACK, alpha: 1 },
    { x: 0, y: f.H - bar, w: f.W, h: bar, color: BLACK, alpha: 1 },
  ];
}

/** A scene of a narrated ad: the picture alone (the captions carry the words). */
function captionedScene(f: Frame, input: LayoutInput, style: AdStyle): Built {
  const gradient = pageOf(f, style);
  const { zone, free } = captionZone(f.safe);
  const full = fitPicture({ x: 0, y: 0, w: f.W, h: f.H }, input.scene.imageSize, input.scene.subject, free, [zone]);
  return {
    gradient,
    boxes: [],
    texts: [],
    truncated: false,
    lineCounts: { headline: 0, body: 0 },
    picture: full.placement,
    subject: full.subject,
  };
}

function pageOf(f: Frame, style: AdStyle): Built["gradient"] {
  switch (style) {
    case "cinematic":
      return { from: mix(f.primary, BLACK, 0.78), to: mix(f.secondary, BLACK, 0.88) };
    case "editorial":
      return { from: mix(WHITE, f.primary, 0.06), to: mix(WHITE, f.secondary, 0.14) };
    case "problem-solution":
      return { from: [44, 47, 54], to: [26, 28, 33] };
    default:
      return { from: f.primary, to: mix(f.primary, f.secondary, 0.45) };
  }
}

function closing(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, style: AdStyle): Built {
  const page = style === "cinematic" ? mix(f.primary, BLACK, 0.82) : style === "editorial" ? mix(WHITE, f.primary, 0.06) : f.primary;
  const text = readable([page], style === "editorial" ? mix(f.primary, BLACK, 0.6) : f.brandText);
  const ctaFill = contrast(f.accent, page) >= 1.6 ? f.accent : mix(page, luminance(page) > 0.4 ? BLACK : WHITE, 0.85);
  const align = style === "split" || style === "bold" || style === "problem-solution" ? "left" : "center";
  const colours: CopyColours =
    style === "ugc"
      ? { headline: INK, body: INK, cta: readable([ctaFill], f.brandText), ctaFill, lineFill: { color: WHITE, alpha: 1 }, shadow: false }
      : style === "bold"
        ? {
            headline: readable([f.accent], f.brandText),
            body: text,
            cta: readable([ctaFill], f.brandText),
            ctaFill,
            lineFill: { color: f.accent, alpha: 1 },
            shadow: false,
          }
        : { headline: text, body: text, cta: readable([ctaFill], f.brandText), ctaFill, shadow: false };
  return endCard(f, input, copy, type, page, colours, align);
}

/** A film still: the picture full-bleed under a dark scrim, sparse type low and left (a title card without a picture). */
function cinematicScene(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, gradient: Built["gradient"]): Built {
  // Sparse: the supporting line only when it is short.
  const sparse = { ...copy, body: words(copy.body) <= 12 ? copy.body : "" };
  const scrim = { color: BLACK, alpha: 0.62 };
  // Without a picture the scene is a title card: the line centred on black.
  const titleCard = !input.hasImage;
  return overPicture(
    f,
    input,
    sparse,
    {
      type,
      maxWidth: f.wide ? 0.62 : 0.92,
      maxHeight: 0.34,
      align: titleCard ? "center" : "left",
      tops: titleCard ? [0.36] : [1, 0.62, 0],
      scrim,
      colours: (s) => {
        const under = s ? behind(PHOTO, s.color, s.alpha) : [gradient.from, gradient.to];
        return {
          headline: readable(under, WHITE),
          body: readable(under, [226, 226, 226]),
          cta: readable(under, WHITE),
          ctaFill: f.accent,
          shadow: true,
        };
      },
      bandSide: "bottom",
      bandFill: mix(f.primary, BLACK, 0.8),
    },
    gradient,
  );
}

/** A creator's post: white sticker lines over the picture, one thing at a time. */
function ugcScene(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, gradient: Built["gradient"]): Built {
  // A creator's post says one thing at a time: the line and, at most, the ask.
  const sticker = { color: WHITE, alpha: 1 };
  return overPicture(
    f,
    input,
    { ...copy, body: copy.headline ? "" : copy.body },
    {
      type,
      maxWidth: 0.94,
      maxHeight: 0.34,
      align: "center",
      tops: [0.12, 0, 0.55, 1],
      scrim: null,
      colours: () => ({
        headline: INK,
        body: INK,
        cta: readable([f.accent], f.brandText),
        ctaFill: f.accent,
        lineFill: sticker,
        shadow: false,
      }),
      bandSide: "top",
      bandFill: f.primary,
    },
    gradient,
  );
}

/** A presenter's scene: the copy on a brand-coloured panel over the picture. */
function presenterScene(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, gradient: Built["gradient"]): Built {
  const fill = { color: f.primary, alpha: 0.94 };
  return overPicture(
    f,
    input,
    copy,
    {
      type,
      maxWidth: 1,
      maxHeight: 0.4,
      align: "left",
      tops: [0, 1],
      scrim: fill,
      colours: () => {
        const t = readable([f.primary], f.brandText);
        return { headline: t, body: t, cta: readable([f.accent], f.brandText), ctaFill: f.accent, shadow: false };
      },
      bandSide: "top",
      bandFill: f.primary,
    },
    gradient,
  );
}

/** Bold: big type on accent markers over the picture. */
function boldScene(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, gradient: Built["gradient"]): Built {
  const marker = { color: f.accent, alpha: 1 };
  const onMarker = readable([f.accent], f.brandText);
  return overPicture(
    f,
    input,
    copy,
    {
      type,
      maxWidth: 0.96,
      maxHeight: 0.4,
      align: "left",
      tops: [0.08, 0.5, 1],
      scrim: null,
      colours: () => ({
        headline: onMarker,
        body: onMarker,
        cta: readable([f.primary], f.brandText),
        ctaFill: f.primary,
        lineFill: marker,
        shadow: false,
      }),
      bandSide: "top",
      bandFill: f.primary,
    },
    gradient,
  );
}

/** Each style's scene (the panel style has its own layout, layout.ts). */
const SCENES: Record<
  Exclude<AdStyle, "panel">,
  (f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, gradient: Built["gradient"]) => Built
> = {
  cinematic: cinematicScene,
  ugc: ugcScene,
  presenter: presenterScene,
  bold: boldScene,
  "problem-solution": problemOrSolution,
  split: splitScene,
  editorial: editorialScene,
};

function scene(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, style: Exclude<AdStyle, "panel">): Built {
  return SCENES[style](f, input, copy, type, pageOf(f, style));
}

/** Is this scene the problem (before the turn) or the solution? */
function isProblem(input: LayoutInput): boolean {
  if (input.scene.tone) return input.scene.tone === "problem";
  const p = input.position;
  return !!p && p.index < Math.max(1, Math.floor(p.count / 2));
}

function problemOrSolution(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, gradient: Built["gradient"]): Built {
  // The solution: the brand's colour over the picture (the copy above, where the problem's sat).
  if (!isProblem(input)) return splitScene(f, input, copy, type, { from: f.primary, to: mix(f.primary, f.secondary, 0.35) }, "top");
  const scrim = { color: [22, 24, 30] as Rgb, alpha: 0.66 };
  const built = overPicture(
    f,
    input,
    copy,
    {
      type,
      maxWidth: 0.94,
      maxHeight: 0.36,
      align: "left",
      tops: [0.1, 1],
      scrim,
      colours: (s) => {
        const under = s ? behind(behind(PHOTO, [30, 32, 38], 0.4), s.color, s.alpha) : [gradient.from, gradient.to];
        return {
          headline: readable(under, [236, 236, 236]),
          body: readable(under, [200, 204, 212]),
          cta: WHITE,
          ctaFill: [90, 96, 110],
          shadow: false,
        };
      },
      bandSide: "bottom",
      bandFill: [34, 37, 44],
    },
    gradient,
  );
  // The problem in grey: the picture without its colour, dimmed.
  if (built.picture) built.picture = { ...built.picture, mono: true };
  else if (input.hasImage)
    built.picture = { ...fitPicture({ x: 0, y: 0, w: f.W, h: f.H }, input.scene.imageSize, input.scene.subject).placement, mono: true };
  built.imageTint = { color: [30, 32, 38], alpha: 0.4 };
  return built;
}

/** The picture in one part of the frame, the copy on a solid brand block in the other. */
function splitScene(
  f: Frame,
  input: LayoutInput,
  copy: CopyText,
  type: CopyType,
  gradient: Built["gradient"],
  copySide: "top" | "bottom" = "bottom",
): Built {
  const { safe, u } = f;
  const hasPicture = input.hasImage;
  const fill = f.primary;
  const text = readable([fill], f.brandText);
  const ctaFill = contrast(f.accent, fill) >= 1.6 ? f.accent : mix(fill, luminance(fill) > 0.4 ? BLACK : WHITE, 0.85);
  const colours: CopyColours = { headline: text, body: text, cta: readable([ctaFill], f.brandText), ctaFill, shadow: false };
  if (!hasPicture) {
    const fitted = fitCopy(copy, type, f.fonts, safe.w * 0.92, safe.h * 0.8);
    const top = Math.round(safe.y + (safe.h - fitted.height) / 2);
    const built = finish(
      f,
      fitted,
      { x: safe.x, top, align: "left" },
      colours,
      null,
      { from: fill, to: mix(fill, f.secondary, 0.3) },
      null,
    );
    built.boxes.unshift(accentBar(f, safe.x, top - Math.round(0.05 * u)));
    return built;
  }
  const side = f.wide ? (copySide === "top" ? "left" : "right") : copySide;
  const bandSize = f.wide ? f.W * 0.46 : f.H * (f.tall ? 0.6 : 0.48);
  const parts = splitFrame(f, side, bandSize);
  const pad = Math.round(0.05 * u);
  const area: Rect = f.wide
    ? {
        x: Math.max(safe.x, parts.band.x + pad),
        y: safe.y,
        w: parts.band.w - pad - (side === "right" ? f.W - safe.x - safe.w : safe.x),
        h: safe.h,
      }
    : side === "bottom"
      ? { x: safe.x, y: parts.band.y + pad, w: safe.w, h: safe.y + safe.h - parts.band.y - pad }
      : { x: safe.x, y: safe.y, w: safe.w, h: parts.band.h - safe.y - pad };
  const fitted = fitCopy(copy, type, f.fonts, area.w, area.h - Math.round(0.04 * u));
  const top = Math.round(area.y + Math.round(0.04 * u) + (f.wide ? (area.h - fitted.height) / 2 : 0));
  // The product stays inside the safe area (clear of the platform's bars), set smaller when it must be.
  const pictured = fitPicture(parts.picture, input.scene.imageSize, input.scene.subject, within(parts.picture, safe));
  const built = finish(f, fitted, { x: area.x, top, align: "left" }, colours, null, gradient, pictured);
  built.boxes.unshift({ ...parts.band, color: fill, alpha: 1 }, accentBar(f, area.x, top - Math.round(0.035 * u)));
  return built;
}

/** The part of `zone` inside `safe` (vertically; a zone spans the frame's width). */
function within(zone: Rect, safe: Rect): Rect {
  const top = Math.max(zone.y, safe.y);
  const bottom = Math.min(zone.y + zone.h, safe.y + safe.h);
  return { x: zone.x, y: top, w: zone.w, h: Math.max(0, bottom - top) };
}

const accentBar = (f: Frame, x: number, y: number): BoxItem => ({
  x: even(x),
  y: even(y),
  w: even(0.14 * f.u),
  h: even(Math.max(6, 0.012 * f.u)),
  color: f.accent,
  alpha: 1,
});

/** A light page: the picture as an inset card, serif copy centred under it. */
function editorialScene(f: Frame, input: LayoutInput, copy: CopyText, type: CopyType, gradient: Built["gradient"]): Built {
  const { safe, u } = f;
  const ink = readable([gradient.from, gradient.to], mix(f.primary, BLACK, 0.55));
  const ctaFill = f.accent;
  const colours: CopyColours = {
    headline: ink,
    body: readable([gradient.from, gradient.to], mix(ink, WHITE, 0.25)),
    cta: ink,
    ctaFill,
    shadow: false,
  };
  const backdrop: BoxItem[] = [];
  let top = safe.y;
  let picture: ReturnType<typeof fitPicture> | null = null;
  if (input.hasImage) {
    const card: Rect = f.wide
      ? { x: safe.x, y: safe.y, w: even(safe.w * 0.46), h: safe.h }
      : { x: safe.x + even(safe.w * 0.04), y: safe.y, w: even(safe.w * 0.92), h: even(safe.h * (f.tall ? 0.5 : 0.46)) };
    const border = even(Math.max(6, 0.012 * u));
    backdrop.push({
      x: card.x - border + even(0.012 * u),
      y: card.y - border + even(0.012 * u),
      w: card.w + 2 * border,
      h: card.h + 2 * border,
      color: BLACK,
      alpha: 0.12,
    });
    backdrop.push({ x: card.x - border, y: card.y - border, w: card.w + 2 * border, h: card.h + 2 * border, color: WHITE, alpha: 1 });
    picture = fitPicture(card, input.scene.imageSize, input.scene.subject);
    top = f.wide ? safe.y : card.y + card.h + Math.round(0.06 * u);
  }
  const area: Rect =
    f.wide && input.hasImage
      ? { x: safe.x + safe.w * 0.52, y: safe.y, w: safe.w * 0.48, h: safe.h }
      : { x: safe.x, y: top, w: safe.w, h: safe.y + safe.h - top };
  const fitted = fitCopy(copy, type, f.fonts, area.w * 0.94, area.h - Math.round(0.05 * u));
  const blockTop = Math.round(area.y + Math.round(0.05 * u) + (input.hasImage && !f.wide ? 0 : (area.h - fitted.height) / 2));
  const built = finish(f, fitted, { x: area.x + area.w / 2, top: blockTop, align: "center" }, colours, null, gradient, null);
  const ruleW = even(0.1 * u);
  built.backdrop = backdrop;
  built.boxes.unshift({
    x: even(area.x + area.w / 2 - ruleW / 2),
    y: even(blockTop - Math.round(0.035 * u)),
    w: ruleW,
    h: even(Math.max(4, 0.006 * u)),
    color: f.accent,
    alpha: 1,
  });
  if (picture) {
    built.picture = picture.placement;
    built.subject = picture.subject;
  }
  return built;
}
