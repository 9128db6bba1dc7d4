// Where everything goes in one scene: safe area per format, font sizes scaled to the frame (shrunk until the
// text fits), word wrapping with real glyph widths, and contrast-aware colours. Pure; no ffmpeg here.
import { layoutStyled } from "./ad-styles.ts";
import { BLACK, distance, luminance, mix, parseHex, type Rgb, readableOnAll, WHITE } from "./color.ts";
import {
  type BoxItem,
  CAP_HEIGHT,
  captionZone,
  HEADLINE_LINES,
  MIN_FONT_PX,
  MIN_SCALE,
  type LayoutInput,
  normalizeText,
  type Rect,
  SAFE_MARGINS,
  type SceneLayout,
  type TextItem,
  wrapText,
} from "./layout-base.ts";
import { fitPicture } from "./picture-fit.ts";

export * from "./layout-base.ts";

const bestText = readableOnAll;

const even = (n: number) => 2 * Math.round(n / 2);

/** A line's end without a joint word or mark that promised more ("stainless steel with," → "stainless steel"). */
const withoutDanglingEnd = (text: string) =>
  text.replace(/(?:[\s,;:–—-]+(?:with|and|or|for|to|of|the|a|an|in|on|at|by|from|that|your|our)\b)*[\s,;:–—-]*$/i, "");

/** The panel's colours: a translucent panel behind all text, dark on dark backgrounds and on images, light on light ones. */
function panelColors(input: LayoutInput, gradient: { from: Rgb; to: Rgb }) {
  const { scene, brand, hasImage } = input;
  const accent = parseHex(scene.accent);
  const brandText = parseHex(brand.text);
  const bgSamples = hasImage ? [[40, 40, 40] as Rgb, [200, 200, 200] as Rgb] : [gradient.from, gradient.to];
  const darkPanel = hasImage || luminance(mix(gradient.from, gradient.to, 0.5)) < 0.35;
  const panelColor = darkPanel ? BLACK : WHITE;
  const panelAlpha = hasImage ? 0.6 : darkPanel ? 0.38 : 0.55;
  const behindText = bgSamples.map((c) => mix(c, panelColor, panelAlpha));
  const textColor = bestText(behindText, brandText);
  return { accent, panelColor, panelAlpha, textColor, shadow: luminance(textColor) > 0.5, ctaText: bestText([accent], brandText) };
}
type PanelColors = ReturnType<typeof panelColors>;

/** What a panel layout draws, as it is drawn. */
interface Drawing {
  boxes: BoxItem[];
  texts: TextItem[];
  line: (text: string, x: number, baseline: number, size: number, color: Rgb, withShadow?: boolean) => void;
}

/** The brand name as a small tag at the top of the safe area; returns where the region below it starts. */
function brandTag(input: LayoutInput, safe: Rect, colors: PanelColors, draw: Drawing): number {
  const { brand, metrics, width: W, height: H } = input;
  const u = Math.min(W, H);
  const centerX = safe.x + safe.w / 2;
  const brandName = normalizeText(brand.name).replace(/\n/g, " ");
  // The logo, when this scene shows it, stands for the brand: no name tag above it.
  if (!brandName || input.logo) return safe.y;
  let size = Math.round(0.034 * u);
  const maxW = safe.w - 2 * size;
  while (size > MIN_FONT_PX && metrics.measure(brandName, size) > maxW) size -= 1;
  const label = wrapText(brandName, maxW, (s) => metrics.measure(s, size))[0] ?? brandName;
  const w = even(Math.min(safe.w, metrics.measure(label, size) + 2 * size));
  const h = even(size * 1.9);
  draw.boxes.push({ x: even(centerX - w / 2), y: safe.y, w, h, color: colors.panelColor, alpha: colors.panelAlpha });
  draw.line(label, centerX, safe.y + h / 2 + (CAP_HEIGHT * size) / 2, size, colors.textColor);
  draw.boxes.push({
    x: even(centerX - w / 4),
    y: safe.y + h - even(Math.max(4, size * 0.12)),
    w: even(w / 2),
    h: even(Math.max(4, size * 0.12)),
    color: colors.accent,
    alpha: 1,
  });
  return safe.y + h + Math.round(0.03 * u);
}

/**
 * The logo centred under the brand tag, fitted into a box of at most 40% of the safe width and 12% of the
 * frame height, on a white plate (logos are drawn for light pages); returns it and where the region below starts.
 */
function logoPlacement(input: LayoutInput, safe: Rect, regionTop: number): { logoBox?: SceneLayout["logo"]; regionTop: number } {
  const { logo, format, width: W, height: H } = input;
  if (!(logo && logo.width > 0 && logo.height > 0)) return { regionTop };
  const u = Math.min(W, H);
  const centerX = safe.x + safe.w / 2;
  const maxW = safe.w * 0.4;
  const maxH = H * (format === "16:9" ? 0.16 : 0.1);
  const fit = Math.min(maxW / logo.width, maxH / logo.height);
  const w = even(logo.width * fit);
  const h = even(logo.height * fit);
  const pad = even(Math.max(8, 0.02 * u));
  const x = even(centerX - w / 2);
  const y = even(regionTop);
  const logoBox = { x, y: y + pad, w, h, plate: { x: x - pad, y, w: w + 2 * pad, h: h + 2 * pad, color: WHITE, alpha: 0.92 } };
  return { logoBox, regionTop: y + h + 2 * pad + Math.round(0.03 * u) };
}

/** The copy's sizes and lines at `scale` of the base sizes. */
function copyPlan(input: LayoutInput, maxTextW: number, scale: number) {
  const { scene, format, metrics, width: W, height: H } = input;
  const u = Math.min(W, H);
  const headline = normalizeText(scene.headline);
  const body = normalizeText(scene.body);
  const cta = normalizeText(scene.cta).replace(/\n/g, " ");
  const base = { headline: (format === "16:9" ? 0.1 : 0.092) * u, body: 0.048 * u, cta: 0.052 * u };
  const hs = Math.max(MIN_FONT_PX, Math.round(base.headline * scale));
  // Supporting text shrinks more slowly than the headline so it stays readable next to a long headline.
  const support = Math.min(1, 0.35 + 0.65 * scale);
  const bs = Math.max(MIN_FONT_PX, Math.round(base.body * support));
  const cs = Math.max(MIN_FONT_PX, Math.round(base.cta * support));
  const hLines = headline ? wrapText(headline, maxTextW, (s) => metrics.measure(s, hs)) : [];
  const bLines = body ? wrapText(body, maxTextW, (s) => metrics.measure(s, bs)) : [];
  const cLines = cta ? wrapText(cta, maxTextW - 2 * cs, (s) => metrics.measure(s, cs)) : [];
  return { hs, bs, cs, hLines, bLines, cLines };
}
type CopyPlan = ReturnType<typeof copyPlan>;

/** The panel's parts (headline, bar, body, call to action) stacked, and the panel's height with its padding. */
function stackCopy(p: CopyPlan, pad: number) {
  const hLh = p.hs * 1.16;
  const bLh = p.bs * 1.32;
  const cLh = p.cs * 1.25;
  const bar = even(Math.max(4, p.hs * 0.08));
  const gap = Math.round(p.hs * 0.3);
  let h = 0;
  const parts: { kind: "headline" | "bar" | "body" | "cta"; top: number; height: number }[] = [];
  const add = (kind: (typeof parts)[number]["kind"], height: number, gapBefore: number) => {
    if (parts.length) h += gapBefore;
    parts.push({ kind, top: h, height });
    h += height;
  };
  if (p.hLines.length) add("headline", p.hLines.length * hLh, 0);
  if (p.hLines.length && (p.bLines.length || p.cLines.length)) add("bar", bar, gap);
  if (p.bLines.length) add("body", p.bLines.length * bLh, gap);
  if (p.cLines.length) add("cta", p.cLines.length * cLh + p.cs * 0.8, Math.round(gap * 1.3));
  return { height: h + 2 * pad, parts, hLh, bLh, cLh };
}

/**
 * The copy shrunk until it fits `regionH`. Only for absurd lengths (the art director fits copy before this):
 * the supporting line goes whole, then trailing headline lines. Never an ellipsis, and a kept line does not
 * end on a dangling "with" or comma.
 */
function fitCopy(input: LayoutInput, maxTextW: number, pad: number, regionH: number) {
  let scale = 1;
  let chosen = copyPlan(input, maxTextW, scale);
  let sized = stackCopy(chosen, pad);
  while ((sized.height > regionH || chosen.hLines.length > HEADLINE_LINES) && scale > MIN_SCALE) {
    scale = Math.max(MIN_SCALE, scale - 0.06);
    chosen = copyPlan(input, maxTextW, scale);
    sized = stackCopy(chosen, pad);
  }
  let truncated = false;
  if (sized.height > regionH && chosen.bLines.length) {
    truncated = true;
    chosen.bLines = [];
    sized = stackCopy(chosen, pad);
  }
  while (sized.height > regionH && chosen.hLines.length > 1) {
    truncated = true;
    chosen.hLines.pop();
    const last = chosen.hLines.pop() ?? "";
    chosen.hLines.push(withoutDanglingEnd(last) || last);
    sized = stackCopy(chosen, pad);
  }
  return { scale, chosen, sized, truncated };
}

/** The panel's lines and boxes, part by part, from the panel's top. */
function drawCopy(
  input: LayoutInput,
  fitted: ReturnType<typeof fitCopy>,
  panel: { top: number; w: number; pad: number; centerX: number },
  colors: PanelColors,
  draw: Drawing,
) {
  const { metrics } = input;
  const { chosen, sized } = fitted;
  const { centerX, pad } = panel;
  const u = Math.min(input.width, input.height);
  const contentTop = panel.top + pad;
  // Baseline inside a line box: centre the font's ascent+descent in the line height.
  const baselineIn = (lineH: number, size: number) => (lineH - (metrics.ascent + metrics.descent) * size) / 2 + metrics.ascent * size;
  for (const part of sized.parts) {
    const top = contentTop + part.top;
    if (part.kind === "headline") {
      chosen.hLines.forEach((l, i) => {
        draw.line(l, centerX, Math.round(top + i * sized.hLh + baselineIn(sized.hLh, chosen.hs)), chosen.hs, colors.textColor);
      });
    } else if (part.kind === "bar") {
      const w = even(Math.min(panel.w * 0.3, 0.15 * u));
      draw.boxes.push({ x: even(centerX - w / 2), y: even(top), w, h: even(part.height), color: colors.accent, alpha: 1 });
    } else if (part.kind === "body") {
      chosen.bLines.forEach((l, i) => {
        draw.line(l, centerX, Math.round(top + i * sized.bLh + baselineIn(sized.bLh, chosen.bs)), chosen.bs, colors.textColor);
      });
    } else {
      const textW = Math.max(...chosen.cLines.map((l) => metrics.measure(l, chosen.cs)));
      const w = even(Math.min(panel.w - pad, textW + 2 * chosen.cs));
      draw.boxes.push({ x: even(centerX - w / 2), y: even(top), w, h: even(part.height), color: colors.accent, alpha: 1 });
      const inner = top + chosen.cs * 0.4;
      chosen.cLines.forEach((l, i) => {
        const mid = inner + i * sized.cLh + sized.cLh / 2;
        draw.line(l, centerX, Math.round(mid + (CAP_HEIGHT * chosen.cs) / 2), chosen.cs, colors.ctaText, luminance(colors.ctaText) > 0.5);
      });
    }
  }
}

/** The safe area of `format` in a W×H frame, on even pixels. */
function safeArea(input: LayoutInput): Rect {
  const { format, width: W, height: H } = input;
  const margins = SAFE_MARGINS[format];
  return {
    x: even(W * margins.left),
    y: even(H * margins.top),
    w: even(W * (1 - margins.left - margins.right)),
    h: even(H * (1 - margins.top - margins.bottom)),
  };
}

/** A narrated scene (not the end card): the captions carry the words, so it shows its picture and nothing else to read. */
function captionedLayout(input: LayoutInput, safe: Rect, gradient: SceneLayout["gradient"]): SceneLayout {
  const { scene, width: W, height: H, hasImage } = input;
  const { zone, free } = captionZone(safe);
  const full = hasImage ? fitPicture({ x: 0, y: 0, w: W, h: H }, scene.imageSize, scene.subject, free, [zone]) : undefined;
  return {
    width: W,
    height: H,
    safe,
    gradient,
    boxes: [],
    texts: [],
    scale: 1,
    truncated: false,
    lineCounts: { headline: 0, body: 0 },
    ...(full ? { subject: full.subject, picture: full.placement } : {}),
  };
}

export function layoutScene(input: LayoutInput): SceneLayout {
  const { scene, brand, format, width: W, height: H, metrics, hasImage } = input;
  const safe = safeArea(input);
  const style = input.style ?? "panel";
  if (style !== "panel") return { width: W, height: H, safe, scale: 1, ...layoutStyled(input, style) };
  const u = Math.min(W, H);
  const centerX = safe.x + safe.w / 2;
  // Background: the scene colour drifting toward the brand's secondary colour (or a shade) — subtle on purpose.
  const bg = parseHex(scene.background);
  const secondary = parseHex(brand.secondary);
  const to = distance(bg, secondary) > 48 ? mix(bg, secondary, 0.35) : mix(bg, luminance(bg) > 0.5 ? BLACK : WHITE, 0.12);
  const gradient = { from: bg, to };
  if (input.captioned && !input.isLast) return captionedLayout(input, safe, gradient);
  const colors = panelColors(input, gradient);
  const draw: Drawing = {
    boxes: [],
    texts: [],
    line: (text, x, baseline, size, color, withShadow = colors.shadow) =>
      draw.texts.push({ text, centerX: x, baseline, size, color, width: metrics.measure(text, size), shadow: withShadow }),
  };
  const { boxes } = draw;
  // Decorative accent stripe along the top edge (not text, so it may sit outside the safe area).
  boxes.push({ x: 0, y: 0, w: W, h: even(Math.max(6, H * 0.008)), color: colors.accent, alpha: 1 });
  const { logoBox, regionTop } = logoPlacement(input, safe, brandTag(input, safe, colors, draw));
  const regionBottom = safe.y + safe.h;
  const regionH = regionBottom - regionTop;
  const pad = Math.round(0.04 * u);
  const maxTextW = Math.min(safe.w - 2 * pad, format === "16:9" ? 0.68 * W : Number.POSITIVE_INFINITY);
  const fitted = fitCopy(input, maxTextW, pad, regionH);
  const { chosen, sized } = fitted;
  let subject: ReturnType<typeof fitPicture> | undefined;
  if (sized.parts.length) {
    const widths = [
      ...chosen.hLines.map((l) => metrics.measure(l, chosen.hs)),
      ...chosen.bLines.map((l) => metrics.measure(l, chosen.bs)),
      ...chosen.cLines.map((l) => metrics.measure(l, chosen.cs) + 2 * chosen.cs),
    ];
    const panelW = even(Math.min(safe.w, Math.max(...widths, safe.w * 0.4) + 2 * pad));
    const panelH = even(Math.min(regionH, sized.height));
    const panelY = even(hasImage ? regionBottom - panelH : regionTop + (regionH - panelH) / 2);
    if (hasImage) {
      // The panel goes where it leaves the product free: low, else high, else the picture moves up out of its way.
      // The room between the brand tag and the panel; the picture is set smaller when its product does not fit it.
      const room: Rect = { x: 0, y: regionTop, w: W, h: Math.max(0, panelY - regionTop) };
      const blocked = [...boxes.filter((b) => b.h < H * 0.5 && b.y > 0), { x: centerX - panelW / 2, y: panelY, w: panelW, h: panelH }];
      subject = fitPicture({ x: 0, y: 0, w: W, h: H }, scene.imageSize, scene.subject, room, blocked);
    }
    boxes.push({ x: even(centerX - panelW / 2), y: panelY, w: panelW, h: panelH, color: colors.panelColor, alpha: colors.panelAlpha });
    drawCopy(input, fitted, { top: panelY, w: panelW, pad, centerX }, colors, draw);
  }
  const layout: SceneLayout = {
    width: W,
    height: H,
    safe,
    gradient,
    boxes,
    texts: draw.texts,
    scale: fitted.scale,
    truncated: fitted.truncated,
    lineCounts: { headline: chosen.hLines.length, body: chosen.bLines.length },
    ...(logoBox ? { logo: logoBox } : {}),
    ...(subject ? { subject: subject.subject, picture: subject.placement } : {}),
  };
  if (hasImage) layout.imageTint = { color: bg, alpha: 0.18 };
  return layout;
}
