// What the laid-out storyboard shows that its copy alone does not: the score reads the renderer's own layout
// (layoutScene, per scene and format) the way a marketer reads a frame. Copy that does not all reach the
// screen, text on text (or on the logo), text over the product, text that does not stand out from what is
// behind it. Each finding is written in words the user sees: "Text covers the product in scene 2 (9:16)".
import { closeSync, openSync, readSync } from "node:fs";
import type { AspectRatio } from "@adgen/schema";
import { FORMATS } from "@adgen/schema";
import { BLACK, contrast, mix, type Rgb } from "../../render/color.ts";
import type { FontFamily } from "../../render/font-family.ts";
import { type ImageSize, imageSizeFromBytes } from "../../render/image-size.ts";
import { type BoxItem, layoutScene, type Rect, type SceneLayout, type TextItem } from "../../render/layout.ts";
import { CENTRE_BOX } from "../../render/subject-box.ts";
import type { BrandStyle, Scene, Storyboard } from "../../render/types.ts";

/** One scene as the renderer lays it out in one format. */
export interface LaidOutScene {
  scene: Scene;
  index: number;
  format: AspectRatio;
  layout: SceneLayout;
}

/** WCAG AA for text. */
export const MIN_CONTRAST = 4.5;
/** An unknown picture is judged as both a light and a dark one under whatever the layout puts over it. */
const LIGHT_PICTURE: Rgb = [200, 200, 200];
const DARK_PICTURE: Rgb = [40, 40, 40];
/**
 * Text over the product is judged on the product's core: its box less this share of its size on each side
 * (the box has a margin, and a panel's padding may graze its edge). Text may cover a sliver of the core.
 */
const PRODUCT_EDGE = 0.1;
const PRODUCT_TOLERANCE = 0.04;
/** Two rects overlap when they share more than this share of the smaller one (a line's descender over the next line's accents is fine). */
const OVERLAP_TOLERANCE = 0.05;
/** An outline this thick (per pixel of type size) carries the letters on any picture. */
const OUTLINE_PX_PER_EM = 0.04;
/** A logo whose file cannot be read is laid out as a typical wordmark. */
const ASSUMED_LOGO: ImageSize = { width: 400, height: 160 };

/** The scene shows a picture or the product's clip under its type (media keys are resolved to files before rendering). */
export const hasPicture = (scene: Scene) => !!(scene.imagePath || scene.imageKey || scene.videoPath || scene.videoKey);

const logoSizes = new Map<string, ImageSize>();

/** The logo's pixel size from its file's header (read once per file), else a typical wordmark's. */
function logoSizeOf(brand: BrandStyle): ImageSize | null {
  if (!brand.logoPath) return brand.logoKey ? ASSUMED_LOGO : null;
  let size = logoSizes.get(brand.logoPath);
  if (!size) {
    size = ASSUMED_LOGO;
    try {
      const fd = openSync(brand.logoPath, "r");
      try {
        const buffer = new Uint8Array(65536);
        size = imageSizeFromBytes(buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0))) ?? ASSUMED_LOGO;
      } finally {
        closeSync(fd);
      }
    } catch {
      // A stale path: the renderer will not find it either; the typical size stands in.
    }
    logoSizes.set(brand.logoPath, size);
  }
  return size;
}

/**
 * A still picture whose product box is not known yet gets the centre as its box, as the score assumes: the
 * renderer finds the real box in the file and lays the type out round it, so the score lays it out round the
 * guess (a clip is not searched, and is laid out as it is).
 */
function withAssumedProduct(scene: Scene): Scene {
  if (scene.subject || !(scene.imagePath || scene.imageKey) || scene.videoPath || scene.videoKey) return scene;
  const { x, y, w, h } = CENTRE_BOX;
  return { ...scene, subject: { x, y, w, h } };
}

/** Every scene in every format, laid out exactly as the renderer lays it out (studio-renderer.ts's sceneLayout). */
export function layOut(storyboard: Storyboard, formats: readonly AspectRatio[], fonts: FontFamily): LaidOutScene[] {
  const logo = logoSizeOf(storyboard.brand);
  const count = storyboard.scenes.length;
  const laid: LaidOutScene[] = [];
  for (const format of formats) {
    const size = FORMATS.find((f) => f.ratio === format);
    if (!size) continue;
    storyboard.scenes.forEach((given, index) => {
      const isLast = index === count - 1;
      const scene = withAssumedProduct(given);
      // Scored as shown without captions: a narrated ad shows less copy, never more.
      const layout = layoutScene({
        scene,
        brand: storyboard.brand,
        format,
        width: size.width,
        height: size.height,
        metrics: fonts.metrics("sans"),
        fonts,
        hasImage: hasPicture(scene),
        ...(storyboard.style ? { style: storyboard.style } : {}),
        isLast: isLast && count > 1,
        position: { index, count },
        ...(logo && isLast ? { logo } : {}),
      });
      laid.push({ scene, index, format, layout });
    });
  }
  return laid;
}

const area = (r: Rect) => Math.max(0, r.w) * Math.max(0, r.h);
function intersection(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
const contains = (outer: Rect, inner: Rect, slack = 1) =>
  inner.x >= outer.x - slack &&
  inner.y >= outer.y - slack &&
  inner.x + inner.w <= outer.x + outer.w + slack &&
  inner.y + inner.h <= outer.y + outer.h + slack;
const holds = (r: Rect, x: number, y: number) => x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
const overlaps = (a: Rect, b: Rect) => intersection(a, b) > OVERLAP_TOLERANCE * Math.min(area(a), area(b));

/** The rect a line of text occupies: its measured advance, from the font's ascent above the baseline to its descent below. */
export function textRect(t: TextItem, fonts: FontFamily): Rect {
  const metrics = fonts.metrics(t.face ?? "sans");
  return {
    x: t.centerX - t.width / 2,
    y: t.baseline - metrics.ascent * t.size,
    w: t.width,
    h: (metrics.ascent + metrics.descent) * t.size,
  };
}
/** Points inside a line's lowercase letters: its middle and near both ends. */
function textPoints(t: TextItem): [number, number][] {
  const y = t.baseline - 0.36 * t.size;
  return [-0.45, 0, 0.45].map((k) => [t.centerX + k * t.width, y]);
}

/** The boxes a line of text sits on (panels, buttons, tags): those holding its middle. */
function textBoxes(layout: SceneLayout) {
  return layout.boxes.filter((box) => layout.texts.some((t) => holds(box, t.centerX, t.baseline - 0.36 * t.size)));
}

/** The picture is under point (x, y): drawn over the whole frame, or over the part of it the layout gives it. */
function pictureBehind(layout: SceneLayout, scene: Scene, x: number, y: number): boolean {
  return hasPicture(scene) && (!layout.picture || holds(layout.picture.rect, x, y));
}

/**
 * The colours behind point (x, y): the scene's gradient, or an unknown picture as both a light and a dark one
 * under its tint, then every box the layout draws over it there (scrims, panels, buttons), in drawing order.
 */
function behind(item: LaidOutScene, x: number, y: number): Rgb[] {
  const { layout, scene } = item;
  const over = (samples: Rgb[], boxes: readonly BoxItem[]) =>
    boxes.reduce((acc, box) => (holds(box, x, y) ? acc.map((c) => mix(c, box.color, box.alpha)) : acc), samples);
  // Under the picture: the page and what is drawn on it (a card's border and shadow).
  let samples = over([layout.gradient.from, layout.gradient.to], (layout as SceneLayout & { backdrop?: BoxItem[] }).backdrop ?? []);
  if (pictureBehind(layout, scene, x, y)) {
    const tint = layout.imageTint;
    samples = [LIGHT_PICTURE, DARK_PICTURE].map((c) => (tint ? mix(c, tint.color, tint.alpha) : c));
  }
  return over(samples, layout.boxes);
}

/**
 * The product's box in frame pixels: as the layout reports it, else the scene's subject (or the centre) through
 * a cover-fit to the whole frame (scaled to cover, centred crop).
 */
export function productInFrame(item: LaidOutScene): Rect {
  const { layout, scene } = item;
  const { width: W, height: H } = layout;
  // The layout crops the picture round the product and says where it landed: that is where it is.
  if (layout.subject) return layout.subject;
  const subject = scene.subject ?? CENTRE_BOX;
  const picture = scene.imageSize && scene.imageSize.width > 0 && scene.imageSize.height > 0 ? scene.imageSize : { width: W, height: H };
  const scale = Math.max(W / picture.width, H / picture.height);
  const shownW = picture.width * scale;
  const shownH = picture.height * scale;
  const x0 = Math.max(0, subject.x * shownW - (shownW - W) / 2);
  const y0 = Math.max(0, subject.y * shownH - (shownH - H) / 2);
  const x1 = Math.min(W, (subject.x + subject.w) * shownW - (shownW - W) / 2);
  const y1 = Math.min(H, (subject.y + subject.h) * shownH - (shownH - H) / 2);
  return { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) };
}

/** A finding on one scene in one format: grouped over formats into one sentence. */
interface Finding {
  index: number;
  format: AspectRatio;
  what: string;
  /** Said after the place; the first format's wording is kept. */
  detail?: string;
}

const strip = (s: string) => s.toLowerCase().replace(/[\s\-\u2010-\u2015]/g, "");
const ellipses = (s: string) => (s.match(/…|\.\.\./g) ?? []).length;

/** Copy that does not all reach the screen: lines dropped to fit, a line shown in part, an ellipsis the copy does not have. */
function truncation(item: LaidOutScene): Finding[] {
  const { scene, layout, index, format } = item;
  const found: Finding[] = [];
  const screen = layout.texts.map((t) => t.text).join(" ");
  const copy = { headline: scene.headline, body: scene.body, "call to action": scene.cta };
  // A style may leave a whole line out by design (a sparse look): only a line shown in part reads as cut.
  const shown = strip(screen);
  const cut = Object.entries(copy).filter(([, text]) => {
    const whole = strip(text ?? "");
    return !!whole && !shown.includes(whole) && shown.includes(whole.slice(0, Math.ceil(whole.length / 2)));
  });
  if (layout.truncated || cut.length) {
    const which = cut.map(([field]) => field);
    found.push({ index, format, what: `Copy is cut off${which.length ? ` (the ${which.join(" and the ")})` : ""}` });
  }
  if (ellipses(screen) > ellipses(Object.values(copy).join(" ")))
    found.push({ index, format, what: "A line is cut short with an ellipsis" });
  return found;
}

/** Text on text, panels over each other, and the logo on text. */
function overlap(item: LaidOutScene, fonts: FontFamily): Finding[] {
  const { layout, index, format } = item;
  const rects = layout.texts.map((t) => textRect(t, fonts));
  const boxes = textBoxes(layout);
  const clash =
    rects.some((a, i) => rects.some((b, j) => j > i && overlaps(a, b))) ||
    boxes.some((a, i) => boxes.some((b, j) => j > i && !contains(a, b) && !contains(b, a) && overlaps(a, b)));
  const found: Finding[] = clash ? [{ index, format, what: "Text overlaps other text" }] : [];
  if (layout.logo) {
    const plate = layout.logo.plate;
    if (rects.some((r) => overlaps(plate, r)) || boxes.some((b) => !contains(b, plate) && overlaps(plate, b))) {
      found.push({ index, format, what: "The logo overlaps the text" });
    }
  }
  return found;
}

/** Any line or text panel over the product by more than a sliver. */
function textOverProduct(item: LaidOutScene, fonts: FontFamily): Finding[] {
  if (!hasPicture(item.scene)) return [];
  const product = productInFrame(item);
  const core = {
    x: product.x + PRODUCT_EDGE * product.w,
    y: product.y + PRODUCT_EDGE * product.h,
    w: (1 - 2 * PRODUCT_EDGE) * product.w,
    h: (1 - 2 * PRODUCT_EDGE) * product.h,
  };
  if (area(core) <= 0) return [];
  const covers = [...item.layout.texts.map((t) => textRect(t, fonts)), ...textBoxes(item.layout)].some(
    (r) => intersection(r, core) > PRODUCT_TOLERANCE * area(core),
  );
  return covers ? [{ index: item.index, format: item.format, what: "Text covers the product" }] : [];
}

/** Each line against what is behind it, at its middle and both ends, for a light and a dark picture alike. */
function lowContrast(item: LaidOutScene): Finding[] {
  let worst: { text: string; ratio: number } | null = null;
  for (const t of item.layout.texts) {
    // A solid outline round the letters is what they are read against, whatever is behind it.
    const outlined = (t.outline ?? 0) >= OUTLINE_PX_PER_EM * t.size;
    for (const [x, y] of textPoints(t)) {
      const ratio = Math.min(...(outlined ? [BLACK] : behind(item, x, y)).map((c) => contrast(t.color, c)));
      if (ratio < MIN_CONTRAST && (!worst || ratio < worst.ratio)) worst = { text: t.text, ratio };
    }
  }
  if (!worst) return [];
  return [
    {
      index: item.index,
      format: item.format,
      what: "Text is hard to read",
      detail: `"${worst.text}" stands out from what is behind it at only ${(Math.floor(worst.ratio * 10) / 10).toFixed(1)}:1 (${MIN_CONTRAST}:1 is needed)`,
    },
  ];
}

/** Every defect the laid-out storyboard shows, one sentence per defect and scene, its formats in brackets. */
export function layoutDefects(laid: readonly LaidOutScene[], fonts: FontFamily): string[] {
  const findings = laid.flatMap((item) => [
    ...truncation(item),
    ...overlap(item, fonts),
    ...textOverProduct(item, fonts),
    ...lowContrast(item),
  ]);
  const grouped = new Map<string, { first: Finding; formats: AspectRatio[] }>();
  for (const f of findings) {
    const key = `${f.what}|${f.index}`;
    const group = grouped.get(key);
    if (group) {
      if (!group.formats.includes(f.format)) group.formats.push(f.format);
    } else grouped.set(key, { first: f, formats: [f.format] });
  }
  return [...grouped.values()].map(
    ({ first, formats }) => `${first.what} in scene ${first.index + 1} (${formats.join(", ")})${first.detail ? `: ${first.detail}` : ""}`,
  );
}
