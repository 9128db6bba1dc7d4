// A scene's copy, made to fit its text boxes as the renderer lays them out (its own font metrics and
// layout, in every format of the ad) at a readable size: the lines whole if they fit, else the supporting
// line shortened at a clause or left out, else the headline shortened at a clause; a scene whose headline
// cannot fit at all is left out rather than shown cut.
import { type AspectRatio, FORMATS } from "@adgen/schema";
import { locateFont } from "../../render/ffmpeg.ts";
import { type FontMetrics, fontMetrics } from "../../render/font-metrics.ts";
import { HEADLINE_LINES, layoutScene } from "../../render/layout.ts";
import type { BrandStyle, Scene } from "../../render/types.ts";
import { cleanLine, clauseCuts } from "./copy-lines.ts";

/** The smallest share of the base headline size a scene may shrink to and still read at a glance. */
export const READABLE_SCALE = 0.5;
/** Most lines a headline and a supporting line may wrap to: more is a wall of text, not an ad. */
export const MAX_LINES = { headline: HEADLINE_LINES, body: 4 };

let defaultMetrics: FontMetrics | undefined;
const metricsOf = (given?: FontMetrics) => {
  if (given) return given;
  defaultMetrics ??= fontMetrics(locateFont());
  return defaultMetrics;
};

/** True when the scene's text lays out whole (nothing dropped), at a readable size and in few lines, in every format. */
export function sceneFits(scene: Scene, brand: BrandStyle, formats: readonly AspectRatio[], metrics?: FontMetrics): boolean {
  const m = metricsOf(metrics);
  return formats.every((format) => {
    const size = FORMATS.find((f) => f.ratio === format);
    if (!size) return true;
    const layout = layoutScene({ scene, brand, format, width: size.width, height: size.height, metrics: m, hasImage: !!scene.imagePath });
    return (
      !layout.truncated &&
      layout.scale >= READABLE_SCALE &&
      layout.lineCounts.headline <= MAX_LINES.headline &&
      layout.lineCounts.body <= MAX_LINES.body
    );
  });
}

/**
 * The scene with lines that fit (each tidied: no ellipsis, the brand said once, a question's mark kept),
 * or null when even its shortest headline does not.
 */
export function fitScene(scene: Scene, brand: BrandStyle, formats: readonly AspectRatio[], metrics?: FontMetrics): Scene | null {
  const headlines = clauseCuts(cleanLine(scene.headline, brand.name));
  const bodies = scene.body ? clauseCuts(cleanLine(scene.body, brand.name)) : [];
  const { body: _body, ...bare } = scene;
  for (const headline of headlines) {
    for (const body of [...bodies, null]) {
      const candidate: Scene = { ...bare, headline, ...(body ? { body } : {}) };
      if (sceneFits(candidate, brand, formats, metrics)) return candidate;
    }
  }
  return null;
}
