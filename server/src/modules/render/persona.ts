// Who fronts a narrated ad, as the picture shows it. A presenter slot holds a real person or nothing: the
// user's own clip (muted, looped, cover-fit) or photo (a slow push-in, 1.00 → 1.06 over the ad) in a rounded
// frame at the bottom left of the safe area, above a small lower-third name bar. Without a photo or clip
// there is no slot at all, only the name bar (never a stand-in silhouette). A creator's selfie keeps its
// handheld camera and handle chip; the creator's clip fills the frame for the hook (the first scene) and sits
// in the slot afterwards.
import { resolve } from "node:path";
import type { AspectRatio } from "@adgen/schema";
import type { CaptionArea } from "./captions.ts";
import { ffColor, parseHex } from "./color.ts";
import type { FontMetrics } from "./font-metrics.ts";
import { filter } from "./graph.ts";
import { SAFE_MARGINS } from "./layout.ts";
import type { Persona, Storyboard } from "./types.ts";

const even = (n: number) => 2 * Math.round(n / 2);

export interface PersonaInput {
  persona?: Persona;
  storyboard: Storyboard;
  format: AspectRatio;
  width: number;
  height: number;
  fps: number;
  durationSec: number;
  fontPath: string;
  metrics: FontMetrics;
  /** Index the first extra input (`-i`) will have. */
  firstInput: number;
  /**
   * Only these frames of the ad (one scene's segment, scene-segments.ts): the person's streams are made for
   * them alone, timed from the window's start as the segment's frames are (the ad's own time).
   */
  window?: SegmentWindow;
}

/** Frames [start, start + frames) of the ad. */
export interface SegmentWindow {
  start: number;
  frames: number;
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PersonaDress {
  inputs: string[];
  links: { name: string; target: string }[];
  files: { name: string; content: string | Uint8Array }[];
  /** Where the person is shown (null: no slot). */
  slot: Rect | null;
  /** Where captions may go without covering the slot, the name bar or the platform's interface. */
  captionArea: CaptionArea;
  /** The presenter's name bar, drawn onto each scene still: its input and the text steps after the overlay. */
  bar: { input: number; x: number; y: number; steps: string[] } | null;
  /** The creator's chip (selfie), drawn per frame over the moving camera. */
  chip: { input: number; x: number; y: number; steps: string[] } | null;
  /** Chains laying the person over the video `[in]`, ending in `[out]` (none: `[in]` is passed through). */
  video(inLabel: string, outLabel: string): string[];
}

/** What the person's parts are drawn with, and the inputs and files they add, in the order they add them. */
interface Dressing {
  input: PersonaInput;
  W: number;
  H: number;
  u: number;
  safe: Rect;
  inputs: string[];
  links: PersonaDress["links"];
  files: PersonaDress["files"];
  /** The index the next input (`-i`) will have. */
  next: number;
  text: (name: string, content: string, opts: Record<string, string | number | undefined>) => string;
  createCanvas: typeof import("@napi-rs/canvas").createCanvas;
}

/** The presenter's lower-third name bar, at the bottom left of the safe area. */
async function nameBar(d: Dressing, persona: Persona): Promise<NonNullable<PersonaDress["bar"]>> {
  const { u, safe, W } = d;
  const { metrics } = d.input;
  const accent = parseHex(d.input.storyboard.brand.accent);
  const name = persona.name.slice(0, 60);
  // The small line under the name only when one is given: never a placeholder word.
  const label = (persona.label ?? "").trim().slice(0, 60);
  const barH = even(0.075 * u);
  const nameSize = Math.round(0.032 * u);
  const labelSize = Math.round(0.02 * u);
  const padX = Math.round(0.03 * u);
  const maxW = Math.min(safe.w, 0.62 * W) - 2 * padX;
  const fit = (s: string, size: number) => {
    let z = size;
    while (z > 12 && metrics.measure(s, z) > maxW) z -= 1;
    return z;
  };
  const nz = fit(name, nameSize);
  const lz = fit(label, labelSize);
  const barW = even(Math.max(metrics.measure(name, nz), label ? metrics.measure(label, lz) : 0) + 2 * padX + 0.012 * u);
  const canvas = d.createCanvas(barW, barH);
  const g = canvas.getContext("2d");
  g.fillStyle = "rgba(12,14,20,0.82)";
  g.beginPath();
  g.roundRect(0, 0, barW, barH, Math.round(barH * 0.18));
  g.fill();
  g.fillStyle = `rgb(${accent.join(",")})`;
  g.fillRect(0, 0, Math.max(3, Math.round(0.008 * u)), barH);
  d.files.push({ name: "persona-bar.png", content: await canvas.encode("png") });
  d.inputs.push("-i", "persona-bar.png");
  const x = safe.x;
  const y = safe.y + safe.h - barH;
  const textX = Math.round(x + padX + 0.008 * u);
  return {
    input: d.next++,
    x,
    y,
    steps: label
      ? [
          d.text("persona-name.txt", name, { fontsize: nz, fontcolor: "white", x: textX, y: Math.round(y + barH * 0.5) - nz }),
          d.text("persona-label.txt", label, { fontsize: lz, fontcolor: ffColor(accent), x: textX, y: Math.round(y + barH * 0.6) }),
        ]
      : [d.text("persona-name.txt", name, { fontsize: nz, fontcolor: "white", x: textX, y: Math.round(y + (barH - nz) / 2) })],
  };
}

/** The creator's chip: a red recording dot and the handle, as a phone camera app shows it. */
async function creatorChip(d: Dressing, persona: Persona): Promise<NonNullable<PersonaDress["chip"]>> {
  const { safe, H } = d;
  const handle = persona.name.slice(0, 40);
  const size = Math.round(0.032 * d.u);
  const pillH = even(size * 1.9);
  const pillW = even(Math.min(safe.w, d.input.metrics.measure(handle, size) + pillH * 1.6));
  const canvas = d.createCanvas(pillW, pillH);
  const g = canvas.getContext("2d");
  g.fillStyle = "rgba(0,0,0,0.55)";
  g.beginPath();
  g.roundRect(0, 0, pillW, pillH, pillH / 2);
  g.fill();
  g.fillStyle = "#ff3b30";
  g.beginPath();
  g.arc(pillH * 0.55, pillH / 2, pillH * 0.18, 0, Math.PI * 2);
  g.fill();
  d.files.push({ name: "persona-chip.png", content: await canvas.encode("png") });
  d.inputs.push("-i", "persona-chip.png");
  const x = safe.x;
  const y = even(Math.max(0.02 * H, safe.y * 0.3));
  const name = d.text("persona-name.txt", handle, {
    fontsize: size,
    fontcolor: "white",
    x: Math.round(x + pillH * 0.95),
    y: `${Math.round(y + pillH / 2)}-ascent/2-descent/2+descent/4`,
  });
  return { input: d.next++, x, y, steps: [name] };
}

/** The slot's rounded corners: a grey mask made once and repeated, merged as the slot's alpha. */
async function slotMask(d: Dressing, w: number, h: number): Promise<number> {
  const mask = d.createCanvas(w, h);
  const mg = mask.getContext("2d");
  mg.fillStyle = "black";
  mg.fillRect(0, 0, w, h);
  mg.fillStyle = "white";
  mg.beginPath();
  mg.roundRect(0, 0, w, h, Math.round(0.08 * w));
  mg.fill();
  d.files.push({ name: "persona-mask.png", content: await mask.encode("png") });
  d.inputs.push("-i", "persona-mask.png");
  return d.next++;
}

const cover = (cw: number, ch: number) => [
  filter("scale", { w: cw, h: ch, force_original_aspect_ratio: "increase", flags: "bicubic" }),
  filter("crop", { w: cw, h: ch }),
  filter("setsar", { r: 1 }),
];

/**
 * The slot with the person's own clip or photo, above the name bar, and the chains laying it over the video.
 * A creator's clip fills the frame for the hook (the first scene) first.
 */
async function presenterSlot(d: Dressing, persona: Persona, media: "video" | "photo", barTop: number, hasBar: boolean) {
  const { W, H, u, safe, input } = d;
  const { fps, durationSec, storyboard } = input;
  const portrait = H > W;
  const w = even((portrait ? 0.4 : W > H ? 0.22 : 0.3) * W);
  const h = even(w * 1.25);
  const gap = Math.round(0.015 * u);
  const slot: Rect = { x: safe.x, y: barTop - (hasBar ? gap : 0) - h, w, h };
  const frames = Math.max(1, Math.round(durationSec * fps));
  const ext = (p: string) => (/\.[a-z0-9]{1,5}$/i.exec(p)?.[0] ?? "").toLowerCase();
  const path = media === "video" ? persona.videoPath! : persona.photoPath!;
  const name = `persona-${media === "video" ? "clip" : "photo"}${ext(path)}`;
  d.links.push({ name, target: resolve(path) });
  // A clip is looped by the demuxer (a clip shorter than the ad starts again), cut to the ad's length below.
  d.inputs.push(...(media === "video" ? ["-stream_loop", "-1"] : []), "-i", name);
  const source = d.next++;
  const maskInput = await slotMask(d, w, h);
  // A window's streams start at its first frame and carry the ad's own time, as the segment's frames do.
  const from = input.window?.start ?? 0;
  const count = input.window?.frames ?? frames;
  const fromSec = (from / fps).toFixed(6);
  const shifted = `setpts=PTS-STARTPTS+${fromSec}/TB`;
  const timed = [
    filter("trim", from ? { start: fromSec, duration: (count / fps).toFixed(6) } : { duration: durationSec.toFixed(3) }),
    shifted,
    filter("fps", { fps }),
  ];
  const hookSec = persona.kind === "selfie" && media === "video" && from === 0 ? (storyboard.scenes[0]?.durationSec ?? 0) : 0;
  const person =
    media === "video"
      ? [...timed, ...cover(w, h)]
      : // One decoded picture, pushed in by zoompan over every frame of the ad (drawn at twice the slot's size
        // first, so the slow move does not step pixel by pixel).
        [
          ...cover(2 * w, 2 * h),
          filter("zoompan", {
            z: `1+0.06*(on+${from})/${frames}`,
            x: "iw/2-iw/zoom/2",
            y: "ih/2-ih/zoom/2",
            d: count,
            s: `${w}x${h}`,
            fps,
          }),
          shifted,
        ];
  const chains: string[] = [];
  if (hookSec > 0) {
    const full = [filter("trim", { duration: hookSec.toFixed(3) }), "setpts=PTS-STARTPTS", filter("fps", { fps }), ...cover(W, H)];
    chains.push(`[${source}:v]${filter("split", { outputs: 2 })}[pv_a][pv_b]`, `[pv_b]${full.join(",")}[pv_full]`);
  }
  chains.push(
    `[${hookSec > 0 ? "pv_a" : `${source}:v`}]${[...person, filter("format", { pix_fmts: "yuva420p" })].join(",")}[pv_person]`,
    `[${maskInput}:v]${filter("format", { pix_fmts: "gray" })},${filter("loop", { loop: -1, size: 1 })},setpts=(N+${from})/${fps}/TB[pv_mask]`,
    `[pv_person][pv_mask]alphamerge[pv_slot]`,
  );
  const over = (current: string, out: string): string[] => {
    const steps: string[] = [];
    let at = current;
    if (hookSec > 0) {
      steps.push(`[${at}][pv_full]${filter("overlay", { x: 0, y: 0, eof_action: "pass", format: "auto" })}[pv_hook]`);
      at = "pv_hook";
    }
    const enable = hookSec > 0 ? { enable: `gte(t,${hookSec.toFixed(3)})` } : {};
    steps.push(`[${at}][pv_slot]${filter("overlay", { x: slot.x, y: slot.y, eof_action: "pass", format: "auto", ...enable })}[${out}]`);
    return steps;
  };
  return { slot, chains, over };
}

/** Where captions may go: clear of the slot, the name bar, the creator's camera and the platform's interface. */
function captionAreaFor(d: Dressing, slot: Rect | null, barTop: number | null): CaptionArea {
  const { safe, u, W, H } = d;
  const portrait = H > W;
  const safeBottom = safe.y + safe.h;
  const lift = Math.round(0.02 * u);
  if (slot && !portrait) {
    // Beside the slot in wide and square frames.
    const x = slot.x + slot.w + Math.round(0.03 * u);
    return { x, w: safe.x + safe.w - x, bottom: safeBottom - lift };
  }
  if (slot) return { x: safe.x, w: safe.w, bottom: slot.y - lift };
  if (barTop !== null) return { x: safe.x, w: safe.w, bottom: barTop - lift };
  if (d.input.persona?.kind === "selfie" && portrait)
    return { x: safe.x, w: safe.w, bottom: Math.min(safeBottom - lift, Math.round(H * 0.7)) };
  return { x: safe.x, w: safe.w, bottom: safeBottom - lift };
}

export async function personaDress(input: PersonaInput): Promise<PersonaDress> {
  const { persona, format, width: W, height: H, fontPath } = input;
  const u = Math.min(W, H);
  const m = SAFE_MARGINS[format];
  const safe = { x: even(W * m.left), y: even(H * m.top), w: even(W * (1 - m.left - m.right)), h: even(H * (1 - m.top - m.bottom)) };
  const files: PersonaDress["files"] = [];
  const { createCanvas } = await import("@napi-rs/canvas");
  const d: Dressing = {
    input,
    W,
    H,
    u,
    safe,
    inputs: [],
    links: [],
    files,
    next: input.firstInput,
    text: (name, content, opts) => {
      files.push({ name, content });
      return filter("drawtext", { fontfile: fontPath, textfile: name, expansion: "none", ...opts });
    },
    createCanvas,
  };
  const bar = persona?.kind === "presenter" ? await nameBar(d, persona) : null;
  const chip = persona?.kind === "selfie" ? await creatorChip(d, persona) : null;
  const barTop = bar ? bar.y : safe.y + safe.h;
  // The slot: the person's own clip or photo, or nothing.
  const media = persona?.videoPath ? "video" : persona?.photoPath ? "photo" : null;
  const slotted = media && persona ? await presenterSlot(d, persona, media, barTop, !!bar) : null;
  return {
    inputs: d.inputs,
    links: d.links,
    files,
    slot: slotted?.slot ?? null,
    captionArea: captionAreaFor(d, slotted?.slot ?? null, bar ? bar.y : null),
    bar,
    chip,
    video(inLabel, outLabel) {
      if (!slotted) return [`[${inLabel}]null[${outLabel}]`];
      return [...slotted.chains, ...slotted.over(inLabel, outLabel)];
    },
  };
}
