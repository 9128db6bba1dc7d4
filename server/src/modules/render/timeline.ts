// Where an ad's frames go: the frame size and rate of each tier, each scene's frames, its transitions and
// the fades at the ends, frame-exact at any rate.
import { type AspectRatio, FORMATS, TIER_VIDEO, tierFrameSize } from "@adgen/schema";
import { FPS } from "./graph.ts";
import type { RenderNarration, RenderRequest, Scene, Storyboard } from "./types.ts";
import { validateFormat } from "./validate.ts";

/**
 * The frame size of `format`: the format's full size (as previews are drawn) or, given a quality tier, the size
 * a video of that tier is rendered at (TIER_VIDEO: standard 720p, premium 1080p).
 */
export function frameSize(format: AspectRatio, quality?: RenderRequest["quality"]): { width: number; height: number } {
  validateFormat(format);
  if (quality) return tierFrameSize(format, quality);
  const spec = FORMATS.find((f) => f.ratio === format)!;
  return { width: spec.width, height: spec.height };
}

/** Frames per second of a video of `quality` (standard 30, premium 60). */
export const tierFps = (quality: RenderRequest["quality"] = "standard") => (TIER_VIDEO[quality] ?? TIER_VIDEO.standard).fps;

export interface Timeline {
  /** Frames each scene is on screen (nominal, without transition overlap); they sum to `totalFrames`. */
  frames: number[];
  /** Frame at which scene i starts (i ≥ 1: where the transition into it begins). */
  starts: number[];
  /** Transition length into scene i, in frames (0 for a cut; index 0 is the fade from black). */
  transitions: number[];
  endFade: number;
  totalFrames: number;
}

/**
 * Frame-exact scene boundaries: cumulative rounding keeps the total at round(sum of durations × fps). Fades and
 * transitions last as long at any frame rate (0.3 s and 0.5 s at most).
 */
export function planTimeline(scenes: Scene[], fps: number = FPS): Timeline {
  const k = fps / FPS;
  const frames: number[] = [];
  const starts: number[] = [];
  let elapsed = 0;
  let previous = 0;
  for (const scene of scenes) {
    elapsed += scene.durationSec;
    const boundary = Math.round(elapsed * fps);
    starts.push(previous);
    frames.push(boundary - previous);
    previous = boundary;
  }
  const transitions = scenes.map((scene, i) => {
    if (scene.transition === "none") return 0;
    if (i === 0) return Math.min(9 * k, Math.floor(frames[0]! / 4));
    return Math.min(15 * k, Math.floor(0.3 * Math.min(frames[i - 1]!, frames[i]!)));
  });
  // An ad cut on the beat (beat-grid.ts: every transition "none") ends on its downbeat, not in a fade.
  const endFade = scenes.at(-1)?.transition === "none" ? 0 : Math.min(9 * k, Math.floor(frames[frames.length - 1]! / 4));
  return { frames, starts, transitions, endFade, totalFrames: previous };
}

/**
 * The narration without the captions of the closing scene: its call to action is on the end card, and the
 * same words twice on screen would be two blocks of text at once. The voice still says them.
 */
export function closingCardUncaptioned(narration: RenderNarration, storyboard: Storyboard, fps: number): RenderNarration {
  const scenes = storyboard.scenes;
  if (scenes.length < 2) return narration;
  const timeline = planTimeline(scenes, fps);
  const closingStart = timeline.starts[scenes.length - 1]! / fps;
  return {
    ...narration,
    cues: narration.cues
      .filter((cue) => cue.startSec < closingStart)
      .map((cue) => ({ ...cue, endSec: Math.min(cue.endSec, closingStart) })),
  };
}
