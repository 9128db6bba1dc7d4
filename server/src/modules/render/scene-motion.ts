// Motion inside a scene: the camera moving over the picture (pans, push-in, pull-out) and the type
// arriving after the transition (kinetic typography). A moving scene is two one-frame stills, the picture
// layer and the type layer; each stretch of frames the video needs is made from them on demand as a
// function of the frame number, so nothing is buffered and the cost is one crop (pans) or one scale
// (zooms) plus one overlay per frame.
import { FPS, filter } from "./graph.ts";
import type { Scene, SceneMotion, TextMotion } from "./types.ts";

/** Frames the type takes to arrive (0.4 s) at 30 fps; see {@link entryFrames}. */
export const ENTRY_FRAMES = 12;
/** Frames the type takes to arrive (0.4 s) at `fps`. */
export const entryFrames = (fps: number) => Math.round((ENTRY_FRAMES * fps) / FPS);
/** Pixels a pan travels per 30 fps frame (60 px/s): even, so 4:2:0 chroma stays aligned and the motion is steady. */
const PAN_STEP = 2;
/** At most this share of the frame is travelled by one pan. */
const PAN_MAX = 0.35;
/** How far a push-in goes (1 → 1.08). */
const ZOOM = 0.08;

export interface MotionPlan {
  motion: SceneMotion;
  textMotion: TextMotion;
  /** Frames of the scene's clip, counted from the start of the transition into it to the end of the one out of it. */
  length: number;
  /** Frames of the transition into the scene: the type arrives after them. */
  into: number;
  width: number;
  height: number;
  /** The picture layer's canvas: larger than the frame along a pan. */
  canvas: { width: number; height: number };
  /** Pixels the pan travels over the whole clip. */
  travel: number;
  /** Frames per second of the video (30 standard, 60 premium): timestamps, and the type's entry in frames. */
  fps: number;
  entry: number;
}

const even = (n: number) => 2 * Math.floor(n / 2);

/**
 * How scene `scene` moves, or null when it holds still (no picture to move over and no type motion), in
 * which case it is rendered as a single held frame.
 */
export function planMotion(
  scene: Scene,
  length: number,
  into: number,
  width: number,
  height: number,
  fps: number = FPS,
): MotionPlan | null {
  const motion: SceneMotion = scene.imagePath ? (scene.motion ?? "static") : "static";
  const textMotion: TextMotion = scene.textMotion ?? "none";
  if (motion === "static" && textMotion === "none") return null;
  const horizontal = motion === "pan-left" || motion === "pan-right";
  const vertical = motion === "pan-up" || motion === "pan-down";
  const span = horizontal ? width : vertical ? height : 0;
  // The same speed at any frame rate: at 60 fps the position is recomputed twice as often.
  const travel = span ? Math.min(even((PAN_STEP * FPS * Math.max(1, length - 1)) / fps), even(span * PAN_MAX)) : 0;
  const canvas = { width: width + (horizontal ? travel : 0), height: height + (vertical ? travel : 0) };
  return { motion, textMotion, length, into, width, height, canvas, travel, fps, entry: entryFrames(fps) };
}

/** True when the picture layer does not move (only the type does): the scene settles into one held frame. */
export const pictureHolds = (plan: MotionPlan) => plan.motion === "static";

/** Frames [from, from + count) of the picture layer, from its one-frame still `[input]`. */
export function backgroundUse(plan: MotionPlan, input: string, from: number, count: number): string {
  const { width: W, height: H, travel, length } = plan;
  const last = Math.max(1, length - 1);
  const hold = [filter("loop", { loop: count - 1, size: 1, start: 0 }), filter("setpts", { expr: `N/(${plan.fps}*TB)` })];
  // The pan position at frame n of this stretch, an even number of pixels from 0 to `travel`.
  const along = `2*floor(${travel}*(n+${from})/${2 * last})`;
  switch (plan.motion) {
    case "pan-left":
      return `[${input}]${[...hold, filter("crop", { w: W, h: H, x: along, y: 0 })].join(",")}`;
    case "pan-right":
      return `[${input}]${[...hold, filter("crop", { w: W, h: H, x: `${travel}-${along}`, y: 0 })].join(",")}`;
    case "pan-up":
      return `[${input}]${[...hold, filter("crop", { w: W, h: H, x: 0, y: along })].join(",")}`;
    case "pan-down":
      return `[${input}]${[...hold, filter("crop", { w: W, h: H, x: 0, y: `${travel}-${along}` })].join(",")}`;
    case "push-in":
    case "pull-out": {
      // zoompan makes `count` frames from the one input frame; `on` counts them.
      const progress = `(on+${from})/${last}`;
      const zoom = plan.motion === "push-in" ? `1+${ZOOM}*${progress}` : `1+${ZOOM}*(1-${progress})`;
      return `[${input}]${[
        filter("zoompan", { z: zoom, x: "iw/2-(iw/zoom/2)", y: "ih/2-(ih/zoom/2)", d: count, s: `${W}x${H}`, fps: plan.fps }),
        filter("setsar", { r: 1 }),
        filter("setpts", { expr: `N/(${plan.fps}*TB)` }),
      ].join(",")}`;
    }
    default:
      return `[${input}]${hold.join(",")}`;
  }
}

/**
 * Frames [from, from + count) of the type layer from its one-frame still `[input]`, and where to lay it
 * over the picture: it rises into place, slides in from the right, fades in, or is simply there, starting
 * when the transition into the scene is over.
 */
export function foregroundUse(plan: MotionPlan, input: string, from: number, count: number): { chain: string; x: string; y: string } {
  const hold = [filter("loop", { loop: count - 1, size: 1, start: 0 }), filter("setpts", { expr: `N/(${plan.fps}*TB)` })];
  // 0 before the type starts to move, 1 once it has arrived.
  const arrived = `clip((n+${from - plan.into})/${plan.entry},0,1)`;
  const ease = `pow(1-${arrived},3)`;
  switch (plan.textMotion) {
    case "rise":
      return { chain: `[${input}]${hold.join(",")}`, x: "0", y: `${even(plan.height * 0.06)}*${ease}` };
    case "slide":
      return { chain: `[${input}]${hold.join(",")}`, x: `${even(plan.width * 0.2)}*${ease}`, y: "0" };
    case "fade": {
      const start = plan.into - from;
      if (start + plan.entry <= 0) return { chain: `[${input}]${hold.join(",")}`, x: "0", y: "0" };
      const fade = filter("fade", { t: "in", start_frame: Math.max(0, start), nb_frames: plan.entry + Math.min(0, start), alpha: 1 });
      return { chain: `[${input}]${[...hold, fade].join(",")}`, x: "0", y: "0" };
    }
    default:
      return { chain: `[${input}]${hold.join(",")}`, x: "0", y: "0" };
  }
}
