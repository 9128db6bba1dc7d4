// Filtergraph text: escaping and the chains for one scene still and its layers.
import { ffColor } from "./color.ts";
import { fontFamily } from "./font-family.ts";
import type { SceneLayout } from "./layout-base.ts";

/**
 * Escapes a filter option value for both levels of ffmpeg's parser: first the option parser (`\ ' :`),
 * then the filtergraph parser (`\ ' [ ] , ;`). See "Notes on filtergraph escaping" in ffmpeg-filters(1).
 */
export function escapeValue(value: string | number): string {
  const level1 = String(value).replace(/[\\':]/g, (c) => `\\${c}`);
  return level1.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** `name=key=value:key=value` with every value escaped. */
export function filter(name: string, options: Record<string, string | number | undefined> = {}): string {
  const parts = Object.entries(options)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => `${k}=${escapeValue(v)}`);
  return parts.length ? `${name}=${parts.join(":")}` : name;
}

export const FPS = 30;

export interface StillOptions {
  layout: SceneLayout;
  fontPath: string;
  /** Relative names (ffmpeg runs in the work directory) of the text files, one per layout text line. */
  textFiles: string[];
  /** Input label of the scene image (e.g. `1:v`), if any. */
  imageInput?: string;
  label: string;
}

/** The gradient (drawn by geq at quarter size and scaled up: smooth, ~20 ms) as filter steps, w×h. */
function gradientSteps(layout: SceneLayout, w: number, h: number): string[] {
  // The `gradients` source is newer than the static ffmpeg build.
  const { from, to } = layout.gradient;
  const channel = (k: 0 | 1 | 2) => `${Math.round(from[k])}+(${Math.round(to[k]) - Math.round(from[k])})*(X/W+Y/H)/2`;
  return [
    filter("color", { c: "black", s: `${Math.ceil(w / 4)}x${Math.ceil(h / 4)}`, r: FPS }),
    filter("trim", { end_frame: 1 }),
    filter("format", { pix_fmts: "rgb24" }),
    filter("geq", { r: channel(0), g: channel(1), b: channel(2) }),
    filter("scale", { w, h, flags: "bilinear" }),
    filter("setsar", { r: 1 }),
    filter("format", { pix_fmts: "yuv420p" }),
  ];
}

/**
 * The picture cover-fitted to w×h and cropped round `focus` (fractions of the picture; the centre when absent),
 * in colour or desaturated; one frame unless `frames` is false (a clip keeps its frames).
 */
export function coverSteps(w: number, h: number, focus?: { x: number; y: number }, mono = false, oneFrame = true): string {
  const fx = (focus?.x ?? 0.5).toFixed(4);
  const fy = (focus?.y ?? 0.5).toFixed(4);
  return [
    filter("scale", { w, h, force_original_aspect_ratio: "increase" }),
    filter("crop", { w, h, x: `min(max(iw*${fx}-ow/2,0),iw-ow)`, y: `min(max(ih*${fy}-oh/2,0),ih-oh)` }),
    filter("setsar", { r: 1 }),
    ...(mono ? [filter("hue", { s: 0 })] : []),
    ...(oneFrame ? [filter("trim", { end_frame: 1 }), filter("setpts", { expr: "0" })] : []),
  ].join(",");
}

/** Where the picture goes in a frame of `w`×`h`: the layout's rectangle, or all of it. */
export const pictureRect = (layout: SceneLayout, w = layout.width, h = layout.height) => layout.picture?.rect ?? { x: 0, y: 0, w, h };

/** True when the layout draws the picture over the whole frame at cover size (so the camera may pan across it). */
export const pictureFillsFrame = (layout: SceneLayout) => {
  const r = pictureRect(layout);
  return !layout.picture?.inset && r.x === 0 && r.y === 0 && r.w === layout.width && r.h === layout.height;
};

/**
 * Chains that make the picture `[input]` into a `w`×`h` image `[label]` as the layout places it: cover-fitted,
 * or (an inset) set smaller over a blurred, dimmed copy of itself.
 */
export function pictureChains(input: string, layout: SceneLayout, w: number, h: number, label: string, oneFrame = true): string[] {
  const p = layout.picture;
  if (!p?.inset) return [`[${input}]${coverSteps(w, h, p?.focus, p?.mono, oneFrame)}[${label}]`];
  const id = `${label.replace(/\W/g, "")}_`;
  const { inset } = p;
  const once = oneFrame ? [filter("trim", { end_frame: 1 }), filter("setpts", { expr: "0" })] : [];
  const blur = Math.max(4, Math.min(Math.floor(Math.min(w, h) / 2) - 2, Math.round(Math.min(w, h) / 12)));
  return [
    `[${input}]${filter("split", { outputs: 2 })}[${id}a][${id}b]`,
    `[${id}a]${[
      ...(p.fill
        ? [
            filter("crop", {
              w: `iw*${p.fill.w.toFixed(4)}`,
              h: `ih*${p.fill.h.toFixed(4)}`,
              x: `iw*${p.fill.x.toFixed(4)}`,
              y: `ih*${p.fill.y.toFixed(4)}`,
            }),
          ]
        : []),
      coverSteps(w, h, undefined, p.mono, oneFrame),
      // In 4:2:0 the chroma planes are half size: half the radius blurs them as much, with no colour fringes.
      filter("format", { pix_fmts: "yuv420p" }),
      filter("boxblur", { luma_radius: blur, luma_power: 3, chroma_radius: Math.max(2, Math.floor(blur / 2)), chroma_power: 3 }),
    ].join(",")}[${id}bl]`,
    // A still's edges fade into the blur (a clip's stay sharp: the fade would cost a pass over every frame).
    `[${id}b]${[
      filter("scale", { w: inset.w, h: inset.h }),
      filter("setsar", { r: 1 }),
      ...(p.mono ? [filter("hue", { s: 0 })] : []),
      ...once,
      ...(oneFrame ? [filter("format", { pix_fmts: "rgba" }), filter("geq", { r: "r(X,Y)", g: "g(X,Y)", b: "b(X,Y)", a: FEATHER })] : []),
    ].join(",")}[${id}sh]`,
    `[${id}bl][${id}sh]${filter("overlay", { x: inset.x, y: inset.y, format: "auto" })},${filter("format", { pix_fmts: "yuv420p" })}[${label}]`,
  ];
}

/** Alpha of an inset picture: opaque inside, fading to nothing over the outer 9 % of each edge. */
const FEATHER = "255*min(1,min(X,W-1-X)/(0.09*W))*min(1,min(Y,H-1-Y)/(0.09*H))";

/** drawbox steps for boxes. */
const boxSteps = (boxes: SceneLayout["boxes"] | undefined) =>
  (boxes ?? []).map((box) =>
    filter("drawbox", { x: box.x, y: box.y, w: box.w, h: box.h, color: ffColor(box.color, box.alpha), t: "fill" }),
  );

const textSteps = (layout: SceneLayout, fontPath: string, textFiles: string[]) =>
  layout.texts.map((text, i) => {
    const offset = Math.max(1, Math.round(text.size * 0.04));
    return filter("drawtext", {
      fontfile: text.face ? fontFamily(fontPath).path(text.face) : fontPath,
      ...(text.outline ? { borderw: text.outline, bordercolor: "0x000000" } : {}),
      textfile: textFiles[i],
      expansion: "none",
      fontsize: text.size,
      fontcolor: ffColor(text.color),
      x: `${Math.round(text.centerX)}-text_w/2`,
      y: `${Math.round(text.baseline)}-ascent`,
      ...(text.shadow ? { shadowcolor: "0x000000@0.45", shadowx: offset, shadowy: offset } : {}),
    });
  });

/** The logo (any size, alpha kept) fitted into its layout box, one frame. */
const logoSteps = (box: NonNullable<SceneLayout["logo"]>) =>
  [
    filter("scale", { w: box.w, h: box.h, force_original_aspect_ratio: "decrease" }),
    filter("format", { pix_fmts: "rgba" }),
    filter("trim", { end_frame: 1 }),
    filter("setpts", { expr: "0" }),
  ].join(",");

/** Where the fitted logo lands: centred in its box. */
const logoAt = (box: NonNullable<SceneLayout["logo"]>) => ({ x: `${box.x}+(${box.w}-overlay_w)/2`, y: `${box.y}+(${box.h}-overlay_h)/2` });

export interface StillOptions {
  layout: SceneLayout;
  fontPath: string;
  /** Relative names (ffmpeg runs in the work directory) of the text files, one per layout text line. */
  textFiles: string[];
  /** Input label of the scene image (e.g. `1:v`), if any. */
  imageInput?: string;
  /** Input label of the brand logo, when the layout places it. */
  logoInput?: string;
  label: string;
}

/** Chains that produce exactly one frame of the finished scene (background, image, boxes, logo, text) as `[label]`. */
export function stillChains(opts: StillOptions): string[] {
  const { layout, fontPath, textFiles, imageInput, logoInput, label } = opts;
  const { width: W, height: H } = layout;
  const id = `${label.replace(/\W/g, "")}_`;
  const chains: string[] = [];
  const steps: string[] = gradientSteps(layout, W, H);
  let head = "";
  if (imageInput) {
    chains.push(`${[...steps, ...boxSteps(layout.backdrop)].join(",")}[${id}bg]`);
    const rect = pictureRect(layout);
    chains.push(...pictureChains(imageInput, layout, rect.w, rect.h, `${id}img`));
    head = `[${id}bg][${id}img]`;
    steps.length = 0;
    steps.push(filter("overlay", { x: rect.x, y: rect.y, eof_action: "pass", format: "auto" }), filter("format", { pix_fmts: "yuv420p" }));
    if (layout.imageTint) {
      steps.push(filter("drawbox", { x: 0, y: 0, w: W, h: H, color: ffColor(layout.imageTint.color, layout.imageTint.alpha), t: "fill" }));
    }
  }
  for (const box of layout.boxes) {
    steps.push(filter("drawbox", { x: box.x, y: box.y, w: box.w, h: box.h, color: ffColor(box.color, box.alpha), t: "fill" }));
  }
  if (layout.logo && logoInput) {
    const plate = layout.logo.plate;
    steps.push(filter("drawbox", { x: plate.x, y: plate.y, w: plate.w, h: plate.h, color: ffColor(plate.color, plate.alpha), t: "fill" }));
    chains.push(`${head}${steps.join(",")}[${id}base]`);
    chains.push(`[${logoInput}]${logoSteps(layout.logo)}[${id}logo]`);
    head = `[${id}base][${id}logo]`;
    steps.length = 0;
    steps.push(filter("overlay", { ...logoAt(layout.logo), format: "auto" }), filter("format", { pix_fmts: "yuv420p" }));
  }
  steps.push(...textSteps(layout, fontPath, textFiles));
  steps.push(filter("trim", { end_frame: 1 }));
  chains.push(`${head}${steps.join(",")}[${label}]`);
  return chains;
}

export interface BackgroundOptions {
  layout: SceneLayout;
  imageInput?: string;
  /** The canvas: the frame, or larger for a pan (the camera crops the frame out of it). */
  canvas: { width: number; height: number };
  label: string;
}

/** One frame of a scene's picture layer, without its type: gradient, picture cover-fitted, brand tint. */
export function backgroundChains(opts: BackgroundOptions): string[] {
  const { layout, imageInput, canvas, label } = opts;
  const id = `${label.replace(/\W/g, "")}_`;
  const gradient = gradientSteps(layout, canvas.width, canvas.height).join(",");
  const backdrop = boxSteps(layout.backdrop);
  if (!imageInput) return [`${[gradient, ...backdrop, filter("trim", { end_frame: 1 })].join(",")}[${label}]`];
  // A picture over the whole frame covers the canvas (larger along a pan); one in a part of it sits in its rectangle.
  const rect = pictureFillsFrame(layout) ? { x: 0, y: 0, w: canvas.width, h: canvas.height } : pictureRect(layout);
  const tint = layout.imageTint
    ? [
        filter("drawbox", {
          x: 0,
          y: 0,
          w: canvas.width,
          h: canvas.height,
          color: ffColor(layout.imageTint.color, layout.imageTint.alpha),
          t: "fill",
        }),
      ]
    : [];
  return [
    `${[gradient, ...backdrop].join(",")}[${id}grad]`,
    ...pictureChains(imageInput, layout, rect.w, rect.h, `${id}img`),
    `[${id}grad][${id}img]${[
      filter("overlay", { x: rect.x, y: rect.y, eof_action: "pass", format: "auto" }),
      filter("format", { pix_fmts: "yuv420p" }),
      ...tint,
      filter("trim", { end_frame: 1 }),
    ].join(",")}[${label}]`,
  ];
}

export interface ForegroundOptions {
  layout: SceneLayout;
  fontPath: string;
  textFiles: string[];
  logoInput?: string;
  label: string;
}

/**
 * One frame of a scene's type layer on a transparent canvas (yuva420p): panels, bars, the logo and the
 * text, laid over the moving picture layer. drawbox leaves the alpha plane alone, so each box is its own
 * translucent colour source overlaid in place; drawtext writes alpha itself.
 */
export function foregroundChains(opts: ForegroundOptions): string[] {
  const { layout, fontPath, textFiles, logoInput, label } = opts;
  const { width: W, height: H } = layout;
  const id = `${label.replace(/\W/g, "")}_`;
  const chains: string[] = [];
  const source = (c: string, w: number, h: number) =>
    [filter("color", { c, s: `${w}x${h}`, r: FPS }), filter("format", { pix_fmts: "yuva420p" }), filter("trim", { end_frame: 1 })].join(
      ",",
    );
  chains.push(`${source("black@0", W, H)}[${id}c0]`);
  let current = `${id}c0`;
  const boxes = [...layout.boxes, ...(layout.logo && logoInput ? [layout.logo.plate] : [])];
  boxes.forEach((box, k) => {
    chains.push(`${source(ffColor(box.color, box.alpha), box.w, box.h)}[${id}b${k}]`);
    chains.push(`[${current}][${id}b${k}]${filter("overlay", { x: box.x, y: box.y, format: "yuv420" })}[${id}c${k + 1}]`);
    current = `${id}c${k + 1}`;
  });
  if (layout.logo && logoInput) {
    chains.push(`[${logoInput}]${logoSteps(layout.logo)}[${id}logo]`);
    chains.push(`[${current}][${id}logo]${filter("overlay", { ...logoAt(layout.logo), format: "yuv420" })}[${id}withlogo]`);
    current = `${id}withlogo`;
  }
  chains.push(
    `[${current}]${[...textSteps(layout, fontPath, textFiles), filter("format", { pix_fmts: "yuva420p" }), filter("trim", { end_frame: 1 })].join(",")}[${label}]`,
  );
  return chains;
}

/** Repeats a one-frame still for `frames` frames with clean timestamps at `fps` (30 standard, 60 premium). */
export function holdFrames(frames: number, fps: number = FPS): string {
  return [filter("loop", { loop: frames - 1, size: 1, start: 0 }), filter("setpts", { expr: `N/(${fps}*TB)` })].join(",");
}

export interface ClipOptions {
  layout: SceneLayout;
  /** Input label of the (looping) clip, e.g. `3:v`. */
  clipInput: string;
  /** Where in the clip to start, and how many frames to make at `fps`. */
  startSec: number;
  frames: number;
  fps: number;
  label: string;
}

/**
 * A stretch of a product clip as a scene's picture layer: cut from `startSec`, at the video's frame rate,
 * cover-fitted into the layout's picture rectangle (over the scene's gradient when that is not the whole
 * frame), tinted like a picture.
 */
export function clipChains(opts: ClipOptions): string[] {
  const { layout, clipInput, startSec, frames, fps, label } = opts;
  const { width: W, height: H } = layout;
  const id = `${label.replace(/\W/g, "")}_`;
  const rect = pictureRect(layout);
  const cut = [
    filter("trim", { start: startSec.toFixed(4) }),
    filter("setpts", { expr: "PTS-STARTPTS" }),
    filter("fps", { fps }),
    filter("trim", { end_frame: frames }),
  ];
  const picture = pictureChains(`${id}cut`, layout, rect.w, rect.h, `${id}pic`, false);
  const tint = layout.imageTint
    ? [filter("drawbox", { x: 0, y: 0, w: W, h: H, color: ffColor(layout.imageTint.color, layout.imageTint.alpha), t: "fill" })]
    : [];
  const head = [`[${clipInput}]${cut.join(",")}[${id}cut]`, ...picture];
  if (pictureFillsFrame(layout)) return [...head, `[${id}pic]${[filter("format", { pix_fmts: "yuv420p" }), ...tint].join(",")}[${label}]`];
  return [
    `${[...gradientSteps(layout, W, H), ...boxSteps(layout.backdrop)].join(",")},${holdFrames(frames, fps)}[${id}grad]`,
    ...head,
    `[${id}grad][${id}pic]${[filter("overlay", { x: rect.x, y: rect.y, eof_action: "pass", format: "auto" }), filter("format", { pix_fmts: "yuv420p" }), ...tint].join(",")}[${label}]`,
  ];
}
