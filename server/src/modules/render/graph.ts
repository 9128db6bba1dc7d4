// Filtergraph text: escaping and the chains for one scene still, transitions, and the music bed.
import { ffColor } from "./color.ts";
import type { SceneLayout } from "./layout.ts";

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

/** Chains that produce exactly one frame of the finished scene (background, image, boxes, text) as `[label]`. */
export function stillChains(opts: StillOptions): string[] {
  const { layout, fontPath, textFiles, imageInput, label } = opts;
  const { width: W, height: H } = layout;
  const id = `${label.replace(/\W/g, "")}_`;
  const chains: string[] = [];
  // Diagonal gradient drawn by geq at quarter size and scaled up (smooth, ~20 ms); the `gradients` source is newer
  // than the static ffmpeg build.
  const { from, to } = layout.gradient;
  const channel = (k: 0 | 1 | 2) => `${Math.round(from[k])}+(${Math.round(to[k]) - Math.round(from[k])})*(X/W+Y/H)/2`;
  const steps: string[] = [
    filter("color", { c: "black", s: `${Math.ceil(W / 4)}x${Math.ceil(H / 4)}`, r: FPS }),
    filter("trim", { end_frame: 1 }),
    filter("format", { pix_fmts: "rgb24" }),
    filter("geq", { r: channel(0), g: channel(1), b: channel(2) }),
    filter("scale", { w: W, h: H, flags: "bilinear" }),
    filter("setsar", { r: 1 }),
    filter("format", { pix_fmts: "yuv420p" }),
  ];
  let head = "";
  if (imageInput) {
    chains.push(`${steps.join(",")}[${id}bg]`);
    chains.push(
      `[${imageInput}]${[
        filter("scale", { w: W, h: H, force_original_aspect_ratio: "increase" }),
        filter("crop", { w: W, h: H }),
        filter("setsar", { r: 1 }),
        filter("trim", { end_frame: 1 }),
        filter("setpts", { expr: "0" }),
      ].join(",")}[${id}img]`,
    );
    head = `[${id}bg][${id}img]`;
    steps.length = 0;
    steps.push(filter("overlay", { x: 0, y: 0, eof_action: "pass", format: "auto" }), filter("format", { pix_fmts: "yuv420p" }));
    if (layout.imageTint) {
      steps.push(filter("drawbox", { x: 0, y: 0, w: W, h: H, color: ffColor(layout.imageTint.color, layout.imageTint.alpha), t: "fill" }));
    }
  }
  for (const box of layout.boxes) {
    steps.push(filter("drawbox", { x: box.x, y: box.y, w: box.w, h: box.h, color: ffColor(box.color, box.alpha), t: "fill" }));
  }
  layout.texts.forEach((text, i) => {
    const offset = Math.max(1, Math.round(text.size * 0.04));
    steps.push(
      filter("drawtext", {
        fontfile: fontPath,
        textfile: textFiles[i],
        expansion: "none",
        fontsize: text.size,
        fontcolor: ffColor(text.color),
        x: `${Math.round(text.centerX)}-text_w/2`,
        y: `${Math.round(text.baseline)}-ascent`,
        ...(text.shadow ? { shadowcolor: "0x000000@0.45", shadowx: offset, shadowy: offset } : {}),
      }),
    );
  });
  steps.push(filter("trim", { end_frame: 1 }));
  chains.push(`${head}${steps.join(",")}[${label}]`);
  return chains;
}

/** Repeats a one-frame still for `frames` frames with clean 30 fps timestamps. */
export function holdFrames(frames: number): string {
  return [filter("loop", { loop: frames - 1, size: 1, start: 0 }), filter("setpts", { expr: `N/(${FPS}*TB)` })].join(",");
}

/** A quiet (about −25 dB mean, −15 dB peak) two-chord pad (C major ↔ A minor crossfading) with a soft pulse; continuous sines, so no clicks. */
export function musicBed(durationSec: number): string {
  const t = durationSec.toFixed(3);
  const chordA = [130.81, 164.81, 196.0, 261.63];
  const chordB = [110.0, 130.81, 164.81, 220.0];
  const voice = (freqs: number[]) => freqs.map((f, i) => `${(0.1 / (1 + i * 0.3)).toFixed(4)}*sin(2*PI*${f}*t)`).join("+");
  // w: 0 → 1 → 0 every 8 s; pulse: a gentle swell on every beat at 100 bpm.
  const expr = `(sin(PI*t/8)^2*(${voice(chordA)})+(1-sin(PI*t/8)^2)*(${voice(chordB)}))*(0.75+0.25*exp(-4*mod(t,0.6)))`;
  const fadeIn = Math.min(0.8, durationSec / 4);
  const fadeOut = Math.min(1.2, durationSec / 3);
  return [
    filter("aevalsrc", { exprs: expr, s: 44100, d: t }),
    filter("aformat", { channel_layouts: "stereo" }),
    filter("afade", { t: "in", st: 0, d: fadeIn.toFixed(3) }),
    filter("afade", { t: "out", st: (durationSec - fadeOut).toFixed(3), d: fadeOut.toFixed(3) }),
  ].join(",");
}
