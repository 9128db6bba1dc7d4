// The pieces a video's filter graph is cut into (a fade, a transition, a held or moving stretch of a scene),
// which scene each belongs to, and which of them one segment draws.
import type { SegmentWindow } from "./persona.ts";

export interface TimelinePiece {
  /** The piece's output label in the graph. */
  label: string;
  /** The scene whose segment holds it (a transition belongs to the scene it ends). */
  owner: number;
  count: number;
  /** The piece's chain (drawn lazily: a one-scene segment builds only its own scene's chains). */
  make: () => string;
}

/** Where each scene's segment lies in the video. */
export function segmentWindows(pieces: readonly TimelinePiece[], scenes: number): SegmentWindow[] {
  const windows: SegmentWindow[] = Array.from({ length: scenes }, () => ({ start: -1, frames: 0 }));
  let at = 0;
  for (const piece of pieces) {
    const window = windows[piece.owner]!;
    if (window.start < 0) window.start = at;
    window.frames += piece.count;
    at += piece.count;
  }
  return windows;
}

/**
 * Draws the pieces one segment holds, in order, into `chains`: all of them (the whole video) or scene
 * `only`'s. Each piece's chain follows the chains its drawing added. Returns their labels and frame count.
 */
export function drawPieces(pieces: readonly TimelinePiece[], chains: string[], only?: number): { labels: string[]; frames: number } {
  const drawn = { labels: [] as string[], frames: 0 };
  for (const piece of pieces) {
    if (only !== undefined && piece.owner !== only) continue;
    chains.push(piece.make());
    drawn.labels.push(piece.label);
    drawn.frames += piece.count;
  }
  return drawn;
}
