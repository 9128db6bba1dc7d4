// What a narrated ad adds to the studio render's picture: its persona (persona.ts: the presenter's own clip or
// photo in a slot and a lower-third name bar, or a creator's handheld selfie with a handle chip) and captions
// burned in word by word (captions.ts). The voice itself is mixed into the sound track by audio-track.ts.
import type { AspectRatio } from "@adgen/schema";
import { captionFilters } from "./captions.ts";
import type { FontMetrics } from "./font-metrics.ts";
import { filter } from "./graph.ts";
import { personaDress, type SegmentWindow } from "./persona.ts";
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
  /** Frames per second of the video (default 30): the presenter's clip and photo motion are made at it. */
  fps?: number;
  fontPath: string;
  metrics: FontMetrics;
  narration?: RenderNarration;
  persona?: Persona;
  /** Index the first extra input (`-i`) will have. */
  firstInput: number;
  /** Only these frames of the ad: one scene's segment (persona.ts). */
  window?: SegmentWindow;
}

export interface VoiceOver {
  /** Extra input arguments (`-i name`, a clip's `-stream_loop -1` before its `-i`), relative names in the work directory. */
  inputs: string[];
  links: { name: string; target: string }[];
  files: { name: string; content: string | Uint8Array }[];
  /** Chains to put before the scene stills' chains: the presenter's name bar split for the scenes drawn. */
  preChains(scenes: readonly number[]): string[];
  /** The first frame this dress is made for (0, or its window's start): the frames it dresses carry the ad's time. */
  startFrame: number;
  /**
   * The head of the chain that holds scene `i`'s still `[label]`: the presenter's name bar drawn onto it (once
   * per scene, so it costs nothing per frame), or for a selfie the still drawn larger for the handheld crop.
   * Ends with a comma or is just `[label]`.
   */
  stillHead(i: number, label: string): string;
  /**
   * Filters to end a clip scene's frames with (they are made per frame, not from a still): a selfie's are
   * drawn larger for the handheld crop, as `stillHead` draws the stills. Null: nothing to add.
   */
  clipTail: string | null;
  /** A filter for the thumbnail source, undoing `stillHead`'s size. */
  thumbFilter: string | null;
  /** Chains from the joined video `[in]` to `[out]`: camera, the person, the chip, captions. */
  video(inLabel: string, outLabel: string): string[];
}

export async function voiceOver(input: VoiceOverInput): Promise<VoiceOver> {
  const { storyboard, width: W, height: H, durationSec, narration, persona } = input;
  const u = Math.min(W, H);
  const selfie = persona?.kind === "selfie";
  const fps = input.fps ?? 30;
  const dress = await personaDress({ ...input, fps });
  // A window draws the cues said during it (their times stay the ad's).
  const window = input.window;
  const captions = captionFilters({
    ...(window ? { within: { fromSec: window.start / fps, toSec: (window.start + window.frames) / fps } } : {}),
    cues: narration?.cues ?? [],
    area: dress.captionArea,
    fontSize: Math.round((selfie ? 0.058 : 0.05) * u),
    accent: storyboard.brand.accent,
    fontPath: input.fontPath,
    metrics: input.metrics,
    durationSec,
  });

  const SW = even(W * HANDHELD_ZOOM);
  const SH = even(H * HANDHELD_ZOOM);
  const mx = (SW - W) / 2;
  const my = (SH - H) / 2;
  // Two slow sines per axis at unrelated rates read as a hand holding the phone, not as a machine.
  const shake = (margin: number, f1: number, f2: number, phase: number) =>
    `${margin}+${(margin * 0.55).toFixed(2)}*sin(2*PI*floor(t*15)/15*${f1}+${phase})+${(margin * 0.3).toFixed(2)}*sin(2*PI*floor(t*15)/15*${f2})`;
  const bar = dress.bar;
  const chip = dress.chip;
  // A scene that plays a clip has no still to carry the name bar: then the bar is laid over every frame.
  const barPerFrame = !!bar && storyboard.scenes.some((scene) => scene.videoPath);
  const large = `${filter("scale", { w: SW, h: SH, flags: "bicubic" })},${filter("setsar", { r: 1 })}`;

  return {
    inputs: dress.inputs,
    links: dress.links,
    files: [...dress.files, ...captions.files],
    preChains(scenes) {
      if (!bar || barPerFrame || !scenes.length) return [];
      return [`[${bar.input}:v]${filter("split", { outputs: scenes.length })}${scenes.map((k) => `[vo_bar${k}]`).join("")}`];
    },
    startFrame: window?.start ?? 0,
    stillHead(i, label) {
      if (selfie) return `[${label}]${large},`;
      if (!bar || barPerFrame) return `[${label}]`;
      return `[${label}][vo_bar${i}]${[filter("overlay", { x: bar.x, y: bar.y, format: "auto" }), filter("format", { pix_fmts: "yuv420p" }), ...bar.steps].join(",")},`;
    },
    clipTail: selfie ? large : null,
    thumbFilter: selfie ? filter("crop", { w: W, h: H }) : null,
    video(inLabel, outLabel) {
      const chains: string[] = [];
      let current = inLabel;
      if (selfie) {
        chains.push(`[${current}]${filter("crop", { w: W, h: H, x: shake(mx, 0.43, 1.21, 0.7), y: shake(my, 0.31, 0.97, 2.1) })}[vo_cam]`);
        current = "vo_cam";
      }
      // The person and the chip stay put while the camera moves; the name bar is already in the stills.
      chains.push(...dress.video(current, "vo_person"));
      current = "vo_person";
      const steps: string[] = [];
      if (chip) {
        chains.push(`[${current}][${chip.input}:v]${filter("overlay", { x: chip.x, y: chip.y, format: "auto" })}[vo_chip]`);
        current = "vo_chip";
        steps.push(...chip.steps);
      }
      if (bar && barPerFrame) {
        chains.push(
          `[${current}][${bar.input}:v]${[filter("overlay", { x: bar.x, y: bar.y, format: "auto" }), ...bar.steps].join(",")}[vo_bar]`,
        );
        current = "vo_bar";
      }
      steps.push(...captions.steps, filter("format", { pix_fmts: "yuv420p" }));
      chains.push(`[${current}]${steps.join(",")}[${outLabel}]`);
      return chains;
    },
  };
}
