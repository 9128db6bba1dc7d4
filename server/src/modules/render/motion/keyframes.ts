// Keyframed properties: every layer's position, scale, rotation, opacity, clip and blur is a track of keyframes
// in seconds (so the same motion at 30 and 60 fps) eased by d3-ease's curves or a damped spring. One helper
// interpolates them all.
import { easeBackOut, easeCubicInOut, easeCubicOut, easeExpOut, easeLinear, easeQuadOut, easeSinInOut } from "d3-ease";

export type Easing = "linear" | "out" | "in-out" | "sine" | "expo" | "back" | "quad" | "spring" | "step";

/** A critically under-damped spring from 0 to 1 (overshoots once, settles): a product landing, a badge popping. */
export function spring(t: number, stiffness = 170, damping = 14): number {
  if (t <= 0) return 0;
  if (t >= 1) return 1;
  // Time in seconds of a 0.6 s settle, so the curve's shape does not depend on the track's length.
  const s = t * 0.9;
  const w0 = Math.sqrt(stiffness);
  const zeta = damping / (2 * w0);
  const wd = w0 * Math.sqrt(1 - zeta * zeta);
  const v = 1 - Math.exp(-zeta * w0 * s) * (Math.cos(wd * s) + ((zeta * w0) / wd) * Math.sin(wd * s));
  // Pinned to exactly 1 at the end of the track.
  return v + (1 - v) * t ** 4;
}

const EASINGS: Record<Easing, (t: number) => number> = {
  linear: easeLinear,
  out: easeCubicOut,
  "in-out": easeCubicInOut,
  sine: easeSinInOut,
  expo: easeExpOut,
  back: easeBackOut.overshoot(1.6),
  quad: easeQuadOut,
  spring,
  step: (t) => (t < 1 ? 0 : 1),
};

export const ease = (name: Easing, t: number) => EASINGS[name](Math.min(1, Math.max(0, t)));

/** One keyframe: at `at` seconds the property is `value`; the curve into it is `ease` (default "out"). */
export interface Keyframe {
  at: number;
  value: number;
  ease?: Easing;
}

/** The value of a track at `t` seconds: held before the first keyframe and after the last. */
export function valueAt(track: readonly Keyframe[], t: number): number {
  if (!track.length) return 0;
  if (t <= track[0]!.at) return track[0]!.value;
  for (let i = 1; i < track.length; i++) {
    const b = track[i]!;
    if (t < b.at) {
      const a = track[i - 1]!;
      const p = (t - a.at) / Math.max(1e-6, b.at - a.at);
      return a.value + (b.value - a.value) * ease(b.ease ?? "out", p);
    }
  }
  return track[track.length - 1]!.value;
}

/** A layer's animated properties; a missing track holds the neutral value. */
export interface Tracks {
  x?: Keyframe[];
  y?: Keyframe[];
  scale?: Keyframe[];
  rotate?: Keyframe[];
  opacity?: Keyframe[];
  /** How much of the layer is revealed (0–1), through a mask from its baseline up or from its left edge. */
  reveal?: Keyframe[];
  blur?: Keyframe[];
}

export interface Pose {
  x: number;
  y: number;
  scale: number;
  rotate: number;
  opacity: number;
  reveal: number;
  blur: number;
}

export function poseAt(tracks: Tracks, t: number): Pose {
  const v = (track: Keyframe[] | undefined, neutral: number) => (track ? valueAt(track, t) : neutral);
  return {
    x: v(tracks.x, 0),
    y: v(tracks.y, 0),
    scale: v(tracks.scale, 1),
    rotate: v(tracks.rotate, 0),
    opacity: v(tracks.opacity, 1),
    reveal: v(tracks.reveal, 1),
    blur: v(tracks.blur, 0),
  };
}

/** A property arriving: `from` at `start`, `to` after `duration` seconds on `easing`. */
export const enter = (start: number, duration: number, from: number, to: number, easing: Easing = "out"): Keyframe[] => [
  { at: start, value: from },
  { at: start + duration, value: to, ease: easing },
];
