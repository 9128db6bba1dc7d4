// The type families the ad styles set their copy in: DejaVu Sans Bold (the default), DejaVu Serif Bold
// (cinematic and editorial) and DejaVu Sans Condensed Bold (bold, problem-solution). They are looked up
// beside the main font file, so a renderer given another font keeps using it for every face.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { type FontMetrics, fontMetrics } from "./font-metrics.ts";

export type FontFace = "sans" | "serif" | "condensed";

const SIBLINGS: Record<Exclude<FontFace, "sans">, string> = {
  serif: "DejaVuSerif-Bold.ttf",
  condensed: "DejaVuSansCondensed-Bold.ttf",
};

export interface FontFamily {
  path(face: FontFace): string;
  metrics(face: FontFace): FontMetrics;
}

const families = new Map<string, FontFamily>();

/** The faces that sit beside `mainFont` (a face that is missing is drawn in the main font). */
export function fontFamily(mainFont: string): FontFamily {
  let family = families.get(mainFont);
  if (!family) {
    const paths: Record<FontFace, string> = { sans: mainFont, serif: mainFont, condensed: mainFont };
    if (/DejaVuSans-Bold\.ttf$/.test(mainFont)) {
      for (const face of ["serif", "condensed"] as const) {
        const candidate = join(dirname(mainFont), SIBLINGS[face]);
        if (existsSync(candidate)) paths[face] = candidate;
      }
    }
    family = { path: (face) => paths[face], metrics: (face) => fontMetrics(paths[face]) };
    families.set(mainFont, family);
  }
  return family;
}
