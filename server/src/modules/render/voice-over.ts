// What a narrated ad adds to the studio render's picture: captions burned in under the words (the voice itself
// is mixed into the sound track by audio-track.ts), and the framing of its persona — a presenter (card with a
// presenter circle and a lower-third name bar) or a creator filming a selfie (handheld camera, creator tag).
// Shapes are drawn once with canvas into one transparent PNG; text is drawtext, as in the scene stills.
import type { AspectRatio } from "@adgen/schema";
import { ffColor } from "./color.ts";
import type { FontMetrics } from "./font-metrics.ts";
import { filter } from "./graph.ts";
import { SAFE_MARGINS } from "./layout.ts";
import type { Persona, RenderNarration, Storyboard } from "./types.ts";

/** How much larger than the frame a selfie scene is drawn, so the handheld camera has room to move. */
const HANDHELD_ZOOM = 1.08;

const even = (n: number) => 2 * Math.round(n / 2);

export interface VoiceOverInput {
  storyboard: Storyboard;
  format: AspectRatio;
  width: number;
  height: number;
  durationSec: number;
  fontPath: string;
  metrics: FontMetrics;
  narration?: RenderNarration;
  persona?: Persona;
  /** Index the first extra input (`-i`) will have. */
  firstInput: number;
}

export interface VoiceOver {
  /** Extra `-i` arguments, relative names in the work directory. */
  inputs: string[];
  links: { name: string; target: string }[];
  files: { name: string; content: string | Uint8Array }[];
  /** Chains to put before the scene stills' chains (the presenter card's input split per scene). */
  preChains: string[];
  /**
   * The head of the chain that holds scene `i`'s still `[label]`: the presenter card drawn onto it (once per
   * scene, so it costs nothing per frame), or for a selfie the still drawn larger for the handheld crop. Ends
   * with a comma or is just `[label]`.
   */
  stillHead(i: number, label: string): string;
  /** A filter for the thumbnail source, undoing `stillFilter`'s size. */
  thumbFilter: string | null;
  /** Chains from the joined video `[in]` to `[out]`: camera, persona overlay, captions. */
  video(inLabel: string, outLabel: string): string[];
}

function hexRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.replace("#", ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export async function voiceOver(input: VoiceOverInput): Promise<VoiceOver> {
  const { storyboard, format, width: W, height: H, durationSec, fontPath, metrics, narration, persona } = input;
  const inputs: string[] = [];
  const links: VoiceOver["links"] = [];
  const files: VoiceOver["files"] = [];
  let next = input.firstInput;
  const u = Math.min(W, H);
  const m = SAFE_MARGINS[format];
  const safe = { x: even(W * m.left), y: even(H * m.top), w: even(W * (1 - m.left - m.right)), h: even(H * (1 - m.top - m.bottom)) };
  const safeBottom = safe.y + safe.h;
  const brand = storyboard.brand;
  const selfie = persona?.kind === "selfie";
  const sceneCount = storyboard.scenes.length;

  const text = (name: string, content: string, opts: Record<string, string | number | undefined>) => {
    files.push({ name, content });
    return filter("drawtext", { fontfile: fontPath, textfile: name, expansion: "none", ...opts });
  };

  // ---- persona overlay: one transparent PNG (shapes), labels with drawtext ----
  const overlaySteps: string[] = [];
  let overlayInput: number | null = null;
  let overlayAt = { x: 0, y: 0 };
  let captionBottom = safeBottom - Math.round(0.02 * u);
  if (persona) {
    // A presenter card covers the frame (it is drawn once per scene); a selfie's tag is small (drawn per frame).
    const handle = persona.name.slice(0, 40);
    const tagSize = Math.round(0.032 * u);
    const pillH = even(tagSize * 1.9);
    const pillW = even(Math.min(safe.w, metrics.measure(handle, tagSize) + pillH * 1.6));
    // Loaded by the first persona overlay, not at start-up.
    const { createCanvas } = await import("@napi-rs/canvas");
    const canvas = persona.kind === "presenter" ? createCanvas(W, H) : createCanvas(pillW, pillH);
    const g = canvas.getContext("2d");
    const [pr, pg, pb] = hexRgb(brand.primary);
    const [ar, ag, ab] = hexRgb(brand.accent);
    const accent = `rgb(${ar},${ag},${ab})`;
    if (persona.kind === "presenter") {
      // Presenter circle at the bottom left of the safe area, the lower-third name bar running from it.
      const d = even(0.17 * u);
      const cx = safe.x + d / 2;
      const cy = safeBottom - d / 2;
      const barH = even(0.1 * u);
      const barX = cx;
      const barW = even(Math.min(safe.x + safe.w - barX, 0.62 * W));
      const barY = cy - barH / 2;
      g.fillStyle = "rgba(12,14,20,0.82)";
      g.beginPath();
      g.roundRect(barX, barY, barW, barH, barH / 2);
      g.fill();
      g.fillStyle = accent;
      g.fillRect(barX + d / 2 + 0.02 * u, barY + barH - 0.012 * u, barW - d / 2 - 0.06 * u, 0.008 * u);
      // The presenter: a lit disc with a head-and-shoulders silhouette, ringed in the accent colour.
      g.save();
      g.beginPath();
      g.arc(cx, cy, d / 2, 0, Math.PI * 2);
      g.closePath();
      g.clip();
      const grad = g.createLinearGradient(cx, cy - d / 2, cx, cy + d / 2);
      grad.addColorStop(0, `rgb(${Math.min(255, pr + 70)},${Math.min(255, pg + 70)},${Math.min(255, pb + 70)})`);
      grad.addColorStop(1, `rgb(${pr},${pg},${pb})`);
      g.fillStyle = grad;
      g.fillRect(cx - d / 2, cy - d / 2, d, d);
      g.fillStyle = "rgba(255,255,255,0.92)";
      g.beginPath();
      g.arc(cx, cy - d * 0.1, d * 0.18, 0, Math.PI * 2);
      g.fill();
      g.beginPath();
      g.ellipse(cx, cy + d * 0.42, d * 0.34, d * 0.3, 0, 0, Math.PI * 2);
      g.fill();
      g.restore();
      g.strokeStyle = accent;
      g.lineWidth = Math.max(4, d * 0.05);
      g.beginPath();
      g.arc(cx, cy, d / 2, 0, Math.PI * 2);
      g.stroke();
      const textX = Math.round(barX + d / 2 + 0.035 * u);
      const maxW = barX + barW - textX - 0.04 * u;
      const fit = (s: string, size: number) => {
        let z = size;
        while (z > 12 && metrics.measure(s, z) > maxW) z -= 1;
        return z;
      };
      const name = persona.name.slice(0, 60);
      const label = (persona.label ?? "Presenter").slice(0, 60).toUpperCase();
      const nameSize = fit(name, Math.round(0.042 * u));
      const labelSize = fit(label, Math.round(0.024 * u));
      overlaySteps.push(
        text("persona-name.txt", name, {
          fontsize: nameSize,
          fontcolor: "white",
          x: textX,
          y: Math.round(barY + barH * 0.47) - nameSize,
        }),
        text("persona-label.txt", label, {
          fontsize: labelSize,
          fontcolor: ffColor(hexRgb(brand.accent)),
          x: textX,
          y: Math.round(barY + barH * 0.58),
        }),
      );
      captionBottom = Math.round(safeBottom - d - 0.03 * u);
    } else {
      // The creator's tag at the top left, as a phone camera app shows it: a red recording dot and a handle.
      const size = tagSize;
      const pillX = safe.x;
      const pillY = even(Math.max(0.02 * H, safe.y * 0.3));
      overlayAt = { x: pillX, y: pillY };
      g.fillStyle = "rgba(0,0,0,0.55)";
      g.beginPath();
      g.roundRect(0, 0, pillW, pillH, pillH / 2);
      g.fill();
      g.fillStyle = "#ff3b30";
      g.beginPath();
      g.arc(pillH * 0.55, pillH / 2, pillH * 0.18, 0, Math.PI * 2);
      g.fill();
      overlaySteps.push(
        text("persona-name.txt", handle, {
          fontsize: size,
          fontcolor: "white",
          x: Math.round(pillX + pillH * 0.95),
          y: `${Math.round(pillY + pillH / 2)}-ascent/2-descent/2+descent/4`,
        }),
      );
      captionBottom = Math.round(H * 0.7);
    }
    files.push({ name: "persona.png", content: await canvas.encode("png") });
    inputs.push("-i", "persona.png");
    overlayInput = next++;
  }

  // ---- captions ----
  const captionSteps: string[] = [];
  if (narration?.cues.length) {
    const base = Math.round((selfie ? 0.058 : 0.046) * u);
    const maxW = safe.w - 2 * Math.round(0.03 * u);
    // Below the safe area when the margin there has room (clear of the scene's copy and the card), else above the card.
    const captionTop = (size: number, pad: number) => {
      const h = Math.round(size * (metrics.ascent + metrics.descent)) + 2 * pad;
      const room = H - safeBottom;
      if (room >= h + 0.03 * H) return Math.round(safeBottom + (room - h) * 0.35) + pad;
      return captionBottom - pad - Math.round(size * (metrics.ascent + metrics.descent));
    };
    narration.cues.forEach((cue, i) => {
      const line = cue.text.replace(/\s+/g, " ").trim();
      if (!line || cue.endSec <= cue.startSec) return;
      let size = base;
      while (size > 14 && metrics.measure(line, size) > maxW) size -= 1;
      const pad = Math.round(size * 0.32);
      const enable = `between(t,${cue.startSec.toFixed(3)},${Math.min(cue.endSec, durationSec).toFixed(3)})`;
      captionSteps.push(
        text(`cue-${i}.txt`, line, {
          fontsize: size,
          fontcolor: "white",
          x: "(w-text_w)/2",
          y: captionTop(size, pad),
          ...(selfie
            ? { borderw: Math.max(2, Math.round(size * 0.09)), bordercolor: "black", shadowcolor: "0x000000@0.5", shadowx: 2, shadowy: 3 }
            : { box: 1, boxcolor: "0x0b0d12@0.72", boxborderw: pad }),
          enable,
        }),
      );
    });
  }

  const SW = even(W * HANDHELD_ZOOM);
  const SH = even(H * HANDHELD_ZOOM);
  const mx = (SW - W) / 2;
  const my = (SH - H) / 2;
  // Two slow sines per axis at unrelated rates read as a hand holding the phone, not as a machine.
  const shake = (margin: number, f1: number, f2: number, phase: number) =>
    `${margin}+${(margin * 0.55).toFixed(2)}*sin(2*PI*floor(t*15)/15*${f1}+${phase})+${(margin * 0.3).toFixed(2)}*sin(2*PI*floor(t*15)/15*${f2})`;

  return {
    inputs,
    links,
    files,
    preChains:
      !selfie && overlayInput !== null
        ? [
            `[${overlayInput}:v]${filter("split", { outputs: sceneCount })}${Array.from({ length: sceneCount }, (_, k) => `[vo_card${k}]`).join("")}`,
          ]
        : [],
    stillHead(i, label) {
      if (selfie) return `[${label}]${filter("scale", { w: SW, h: SH, flags: "bicubic" })},${filter("setsar", { r: 1 })},`;
      if (overlayInput === null) return `[${label}]`;
      return `[${label}][vo_card${i}]${[filter("overlay", { x: 0, y: 0, format: "auto" }), filter("format", { pix_fmts: "yuv420p" }), ...overlaySteps].join(",")},`;
    },
    thumbFilter: selfie ? filter("crop", { w: W, h: H }) : null,
    video(inLabel, outLabel) {
      const chains: string[] = [];
      let current = inLabel;
      const step = (chain: string, label: string) => {
        chains.push(chain);
        current = label;
      };
      if (selfie) {
        step(
          `[${current}]${filter("crop", { w: W, h: H, x: shake(mx, 0.43, 1.21, 0.7), y: shake(my, 0.31, 0.97, 2.1) })}[vo_cam]`,
          "vo_cam",
        );
      }
      // The selfie's tag stays put while the camera moves; the presenter's card is already in the stills.
      if (selfie && overlayInput !== null) {
        step(`[${current}][${overlayInput}:v]${filter("overlay", { x: overlayAt.x, y: overlayAt.y, format: "auto" })}[vo_ov]`, "vo_ov");
      }
      const steps = [...(selfie ? overlaySteps : []), ...captionSteps, filter("format", { pix_fmts: "yuv420p" })];
      chains.push(`[${current}]${steps.join(",")}[${outLabel}]`);
      return chains;
    },
  };
}
