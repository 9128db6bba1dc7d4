// Cuts on the music's beat: the studio makes its own bed (music-bed.ts), so it knows the beat grid, and moves
// every scene boundary onto it (within one frame) before anything is laid out. The ad then ends on a downbeat
// (a bar's first beat) and every scene is entered by a cut: the motion engine moves the frame itself.
import { beatSeconds, bedSeed } from "./music-bed.ts";
import type { Storyboard } from "./types.ts";

const BAR = 4;
/** No scene is shorter than this (the reader needs the time), nor than one beat. */
const MIN_SCENE_SEC = 1.2;
/** The end card of a silent ad is a close, not a second act (issue 44: 4.5 s of 15 on a dark card). */
const END_CARD_MAX_SEC = 2.6;

/** The beat the cuts land on: the bed's beat, doubled when it is faster than 0.4 s (cuts every half-second would strobe). */
export function cutBeat(storyboard: Storyboard): number {
  const beat = beatSeconds(storyboard.mood ?? "calm", bedSeed(storyboard));
  return beat < 0.4 ? beat * 2 : beat;
}

/**
 * The storyboard with every scene boundary moved to the nearest beat (frame-exact at `fps`), the end on a bar's
 * first beat, and every transition a cut. A narrated ad never ends earlier than its voice (its end is rounded
 * up); a silent ad's end card is held at most 2.6 s.
 */
export function onTheBeat(storyboard: Storyboard, fps: number, narrated: boolean): Storyboard {
  const beat = cutBeat(storyboard);
  const scenes = storyboard.scenes;
  const minBeats = Math.max(1, Math.ceil(MIN_SCENE_SEC / beat - 0.25));
  const beats: number[] = [];
  let elapsed = 0;
  let previous = 0;
  for (const [i, scene] of scenes.entries()) {
    elapsed += scene.durationSec;
    const isLast = i === scenes.length - 1;
    let at = Math.max(previous + minBeats, Math.round(elapsed / beat));
    if (isLast) {
      if (narrated) at = Math.max(at, Math.ceil(elapsed / beat - 1e-6));
      else if (scenes.length > 1) at = Math.min(at, previous + Math.max(minBeats, Math.floor(END_CARD_MAX_SEC / beat)));
      // The music ends on a downbeat.
      const bar = Math.ceil(at / BAR) * BAR;
      if (narrated || bar - at <= 2) at = bar;
    }
    beats.push(at);
    previous = at;
  }
  const frameAt = (b: number) => Math.round(b * beat * fps);
  let last = 0;
  const durations = beats.map((b) => {
    const frame = frameAt(b);
    const frames = frame - last;
    last = frame;
    return frames / fps;
  });
  return {
    ...storyboard,
    scenes: scenes.map((scene, i) => ({ ...scene, durationSec: Math.min(60, Math.max(0.5, durations[i]!)), transition: "none" })),
  };
}

/** Seconds from the start of the ad at which each scene begins (after {@link onTheBeat}). */
export function sceneStarts(storyboard: Storyboard): number[] {
  let at = 0;
  return storyboard.scenes.map((scene) => {
    const start = at;
    at += scene.durationSec;
    return start;
  });
}
