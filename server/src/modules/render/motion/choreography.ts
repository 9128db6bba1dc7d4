// How a scene moves, by style and role: the entrance at its cut (zoom-through, push, whip pan; a cut is the
// default, the frame itself moves), the camera over the picture (push, float, handheld, jitter), when each word
// group arrives (on the beat's subdivisions) and how (pop, slide, mask reveal, rise), when the stickers land and
// the punch-ins that keep a visual change at least every 2 s. Timed in seconds, so 30 and 60 fps move alike.
import { ease, spring } from "./keyframes.ts";
import type { MotionSpec } from "./spec.ts";

export type TextEntrance = "pop" | "slide" | "mask" | "rise";
export type SceneEntrance = "none" | "zoom" | "push" | "whip";

export interface Camera {
  /** Zoom over the plain cover fit (≥ 1). */
  z: number;
  dx: number;
  dy: number;
  /** Radians. */
  rot: number;
}

export interface Choreography {
  /** The scene's length, seconds. */
  T: number;
  hook: boolean;
  entrance: SceneEntrance;
  entranceSec: number;
  text: TextEntrance;
  /** Seconds a word takes to arrive, and between two words of a group. */
  textSec: number;
  wordDelay: number;
  groupStart(group: number): number;
  /** When every line and sticker is in: the moment previewFrame draws. */
  restSec: number;
  stickerAt: number;
  punches: number[];
  camera(t: number): Camera;
  /** The whole frame's offset during the entrance (the push or whip), in pixels. */
  frameShift(t: number): number;
  /** A small scale of the text block on each punch. */
  textBump(t: number): number;
  jitter: boolean;
}

/** A deterministic noise in [-1, 1] for step `n` (the problem scenes' jitter, the handheld shake). */
export const noise = (n: number, salt = 0) => {
  const s = Math.sin(n * 12.9898 + salt * 78.233) * 43758.5453;
  return 2 * (s - Math.floor(s)) - 1;
};

export function choreograph(spec: MotionSpec, lines: number): Choreography {
  const { style, scene, beat, width: W, premium } = spec;
  const T = spec.frames / spec.fps;
  const hook = scene.first;
  const problem = scene.role === "problem" || scene.tone === "problem";
  const slow = style === "cinematic";
  const fast = style === "ugc" || style === "bold";
  const text: TextEntrance = slow
    ? "mask"
    : style === "editorial" || style === "presenter"
      ? "slide"
      : style === "panel" || problem
        ? "rise"
        : "pop";
  const entrances: SceneEntrance[] = slow ? ["zoom"] : fast ? ["whip", "zoom", "push"] : ["push", "zoom", "whip"];
  const entrance: SceneEntrance = hook ? "none" : entrances[scene.variant % entrances.length]!;
  const entranceSec = slow ? 0.8 : entrance === "whip" ? 0.22 : 0.32;
  const textSec = slow ? 0.6 : fast ? 0.28 : 0.36;
  const wordDelay = slow ? 0.09 : fast ? 0.035 : 0.05;
  // Word groups land on the beat (half-beats when the beat is slow), the first just after the cut.
  const step = beat > 0.7 ? beat / 2 : beat;
  const first = slow ? 0.2 : 0.08;
  const groupStart = (g: number) => (hook ? 0 : first + g * step);
  const lastGroup = Math.max(0, lines - 1);
  const textIn = hook ? 0.4 : groupStart(lastGroup) + textSec + 6 * wordDelay;
  const nextBeat = (t: number) => Math.ceil(t / beat - 1e-6) * beat;
  const stickerAt = Math.min(Math.max(0, T - 0.6), hook ? Math.max(0.5, beat) : nextBeat(textIn + 0.1));
  const restSec = Math.min(Math.max(0, T - 1 / spec.fps), Math.max(textIn, stickerAt + 0.5) + 0.05);
  // A punch-in on a beat every ~1.6–2 s once the text is in: the frame never holds still longer than that.
  const punches: number[] = [];
  for (let t = nextBeat(Math.max(1.2, stickerAt + 0.6)); t < T - 0.4; t = nextBeat(t + 1.5)) punches.push(t);
  const drift = (slow ? 0.05 : 0.07) * (premium ? 1.15 : 1);
  const handheld = style === "ugc";
  const jitter = problem;
  const punchZ = (t: number) =>
    punches.reduce((z, p, k) => z + (t >= p ? 0.035 * ease("back", (t - p) / 0.22) * (k % 2 ? -0.6 : 1) : 0), 0);
  const camera = (t: number): Camera => {
    const u = Math.min(1, Math.max(0, t / Math.max(0.1, T)));
    // The director's camera move: a push in (default), a pull out, or a pan across a slightly enlarged picture.
    const move = scene.motion ?? "push-in";
    const pan = move.startsWith("pan-");
    const along = ease("sine", u) * 2 - 1;
    let z = (pan ? 1.1 : move === "pull-out" ? 1.02 + drift * (1 - ease("sine", u)) : 1.02 + drift * ease("sine", u)) + punchZ(t);
    let dx = move === "pan-left" ? -0.045 * W * along : move === "pan-right" ? 0.045 * W * along : 0;
    let dy = move === "pan-up" ? -0.03 * spec.height * along : move === "pan-down" ? 0.03 * spec.height * along : 0;
    let rot = 0;
    const e = (t - 0) / entranceSec;
    if (entrance === "zoom" && e < 1) z += (slow ? 0.1 : 0.22) * (1 - ease("expo", e));
    if (hook) z += 0.06 * (1 - spring(Math.min(1, t / 0.7)));
    if (handheld) {
      dx += W * (0.006 * Math.sin(2.1 * t) + 0.003 * Math.sin(5.3 * t + 1));
      dy += W * (0.005 * Math.sin(1.7 * t + 2) + 0.002 * Math.sin(6.1 * t));
      rot += 0.006 * Math.sin(1.3 * t);
      z += 0.03;
    }
    if (jitter) {
      const n = Math.floor(t * 15);
      dx += W * 0.006 * noise(n, 1);
      dy += W * 0.006 * noise(n, 2);
      rot += 0.006 * noise(n, 3);
      z += 0.03;
    }
    return { z, dx, dy, rot };
  };
  const frameShift = (t: number) => {
    const e = t / entranceSec;
    if (e >= 1) return 0;
    if (entrance === "push") return W * 0.18 * (1 - ease("expo", e));
    if (entrance === "whip") return -W * 0.45 * (1 - ease("expo", e));
    return 0;
  };
  const textBump = (t: number) =>
    1 + punches.reduce((s, p) => s + (t >= p && t < p + 0.5 ? 0.03 * Math.sin((Math.PI * (t - p)) / 0.5) : 0), 0);
  return {
    T,
    hook,
    entrance,
    entranceSec,
    text,
    textSec,
    wordDelay,
    groupStart,
    restSec,
    stickerAt,
    punches,
    camera,
    frameShift,
    textBump,
    jitter,
  };
}
