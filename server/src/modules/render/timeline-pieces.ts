// The pieces a video's filter graph is cut into (a fade, a transition, a held or moving stretch of a scene),
// which scene each belongs to, and which of them one segment, or one part of a segment, draws. A lone
// segment (a review edit of one scene) would leave one core idle, so it is encoded as two parts at once,
// cut inside a stretch that can start on any frame; a fade, whose filter counts from its first frame, is
// never cut.
import type { SegmentWindow } from "./persona.ts";

export interface TimelinePiece {
  /** The piece's output label in the graph. */
  label: string;
  /** The scene whose segment holds it (a transition belongs to the scene it ends). */
  owner: number;
  count: number;
  /** The piece's chain, from `skip` frames into it for `count` frames (only a cuttable piece is given a part). */
  make: (skip: number, count: number) => string;
  /** Whether the piece may start on any of its frames (a held or moving stretch; not a fade). */
  cuttable: boolean;
}

/** Where a segment may be cut: each part holds at least half a second. */
const MIN_PART_SECONDS = 0.5;

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
 * Where scene `owner`'s segment is cut into two parts, in frames from its start: the frame of a cuttable
 * piece nearest the middle that leaves each part at least half a second, or null when none does.
 */
export function segmentCut(pieces: readonly TimelinePiece[], owner: number, fps: number): number | null {
  const own = pieces.filter((piece) => piece.owner === owner);
  const total = own.reduce((sum, piece) => sum + piece.count, 0);
  const least = Math.ceil(MIN_PART_SECONDS * fps);
  const middle = Math.floor(total / 2);
  let best: number | null = null;
  let offset = 0;
  for (const piece of own) {
    const lo = Math.max(offset + 1, least);
    const hi = Math.min(offset + piece.count - 1, total - least);
    if (piece.cuttable && lo <= hi) {
      const cut = Math.min(hi, Math.max(lo, middle));
      if (best === null || Math.abs(cut - middle) < Math.abs(best - middle)) best = cut;
    }
    offset += piece.count;
  }
  return best;
}

/**
 * Draws the pieces one segment holds, in order, into `chains`: all of them (the whole video), one scene's, or
 * one part of one scene's (frames [from, to) of its segment). Each piece's chain follows the chains its
 * drawing added. Returns the pieces' labels and the frame count.
 */
export function drawPieces(
  pieces: readonly TimelinePiece[],
  chains: string[],
  only?: { scene: number; from: number; to: number },
): { labels: string[]; frames: number } {
  const drawn = { labels: [] as string[], frames: 0 };
  let offset = 0;
  for (const piece of pieces) {
    if (only && piece.owner !== only.scene) continue;
    const start = offset;
    offset += piece.count;
    const from = Math.max(start, only?.from ?? start);
    const to = Math.min(start + piece.count, only?.to ?? start + piece.count);
    if (to <= from) continue;
    if ((from > start || to < start + piece.count) && !piece.cuttable) throw new Error(`the piece ${piece.label} cannot be cut`);
    chains.push(piece.make(from - start, to - from));
    drawn.labels.push(piece.label);
    drawn.frames += to - from;
  }
  return drawn;
}

/** The frames a segment's part covers in the ad: the whole segment's window, or its frames before or from the cut. */
export function partWindow(window: SegmentWindow, cut: number | null, part?: 0 | 1): SegmentWindow {
  if (part === undefined || cut === null) return window;
  return part === 0 ? { start: window.start, frames: cut } : { start: window.start + cut, frames: window.frames - cut };
}
