// Cuts on the music's beat: the studio makes its own bed (music-bed.ts), so it knows the beat grid. The bed's
// tempo is set (within a few per cent of its own) so that the ad's length is a whole number of bars, so the music
// ends on a downbeat at the close, and every scene boundary is moved to the nearest beat (within one frame)
// before anything is laid out or timed. Every scene is entered by a cut: the motion engine moves the frame itself.
import { beatSeconds, bedSeed } from "./music-bed.ts";
import type { Storyboard } from "./types.ts";

const BAR = 4;
/** The end card of a silent ad is a close, not a second act (issue 44: 4.5 s of 15 on a dark card). */
const END_CARD_MAX_SEC = 2.6;

const total = (storyboard: Storyboard) => storyboard.scenes.reduce((sum, scene) => sum + scene.durationSec, 0);

/** The ad's end card held at most 2.6 s when it has no voice to wait for. */
function shortEndCard(storyboard: Storyboard, narrated: boolean): Storyboard {
  const last = storyboard.scenes.at(-1);
  if (narrated || storyboard.scenes.length < 2 || !last || last.durationSec <= END_CARD_MAX_SEC) return storyboard;
  return { ...storyboard, scenes: [...storyboard.scenes.slice(0, -1), { ...last, durationSec: END_CARD_MAX_SEC }] };
}

/** Seconds per beat of the ad's bed: its own tempo, nudged so the ad lasts a whole number of bars. */
export function bedBeat(storyboard: Storyboard): number {
  const natural = beatSeconds(storyboard.mood ?? "calm", bedSeed(storyboard));
  const length = total(storyboard);
  const bars = Math.max(1, Math.round(length / (BAR * natural)));
  return length / (bars * BAR);
}

/** The beat the cuts land on: the bed's, doubled when it is faster than 0.4 s (cuts every half-second would strobe). */
export function cutBeat(storyboard: Storyboard): number {
  const beat = bedBeat(storyboard);
  return beat < 0.4 ? beat * 2 : beat;
}

/**
 * The storyboard with every scene boundary inside the ad moved to the nearest beat of {@link cutBeat} (frame-exact
 * at `fps`; a scene lasts at least one beat), its length kept (a silent ad's end card held at most 2.6 s), and
 * every transition a cut.
 */
export function onTheBeat(given: Storyboard, fps: number, narrated: boolean): Storyboard {
  const storyboard = shortEndCard(given, narrated);
  const scenes = storyboard.scenes;
  const end = Math.round(total(storyboard) * fps);
  const beat = cutBeat(storyboard);
  const lastBeat = Math.floor(end / fps / beat + 1e-6);
  const frames: number[] = [];
  let elapsed = 0;
  let previousBeat = 0;
  let previousFrame = 0;
  for (const [i, scene] of scenes.entries()) {
    elapsed += scene.durationSec;
    let frame = end;
    if (i < scenes.length - 1) {
      const left = scenes.length - 1 - i;
      const at = Math.min(Math.max(previousBeat + 1, Math.round(elapsed / beat)), lastBeat - left);
      frame = at > previousBeat ? Math.round(at * beat * fps) : Math.round(elapsed * fps);
      previousBeat = Math.max(previousBeat, at);
    }
    frames.push(Math.max(1, frame - previousFrame));
    previousFrame = frame;
  }
  return {
    ...storyboard,
    scenes: scenes.map((scene, i) => ({ ...scene, durationSec: Math.min(60, Math.max(0.5, frames[i]! / fps)), transition: "none" })),
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
