// A scene is the unit of rendering, so that a render encodes only the scenes that changed and several
// workers can share one: each scene of each format is encoded as its own segment,
// starting on a keyframe with the same encoder settings as every other, and the segments are joined
// without encoding again (the concat demuxer, stream copy) before the sound track is muxed. A segment's key
// is a hash of everything that decides its pixels: its filter graph (layout, text, motion, frames, size),
// the bytes of every file it reads (pictures, clips, logo, text), the encoder settings and the renderer's
// version. So an edit of one scene, a factory variant that differs only in its hook, or another format of
// the same pictures encodes only the segments whose keys changed; the others come from the cache.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";

/** Bumped whenever the renderer draws the same graph differently: every cached segment is then stale. */
export const RENDERER_VERSION = "motion-engine-1";

/** Where encoded segments are kept between renders, by key (null: encode every segment every time). */
export interface SegmentCache {
  /** The cached segment's file on this machine, or null. `uncounted`: a fetch after encoding, not a lookup. */
  get(key: string, options?: { uncounted?: boolean }): Promise<string | null>;
  /** Keeps a freshly encoded segment (the file may be moved). */
  put(key: string, file: string): Promise<void>;
}

/** One segment to encode: its composition, which a worker writes into a directory of its own and runs. */
export interface SegmentWork {
  key: string;
  args: string[];
  graph: string;
  files: { name: string; content: string | Uint8Array }[];
  /** Input files by the name the arguments give them, and where they are on this machine. */
  links: { name: string; target: string }[];
  frames: number;
  fps: number;
  /** Scene 0's segment also writes `thumb.jpg`, kept as `<key>.thumb`. */
  thumb: boolean;
}

/**
 * Spreads a render's segments over workers (render-farm in the workflows module): resolves once every one is
 * in the segment cache, encoded here by `encodeHere` or by any other worker sharing the database and store.
 */
export interface SegmentFarm {
  encode(input: {
    owner: { jobId: string };
    work: SegmentWork[];
    encodeHere: (work: SegmentWork) => Promise<void>;
    onDone: (key: string) => void;
    signal?: AbortSignal | undefined;
  }): Promise<void>;
}

export interface EncodeSettings {
  preset: string;
  /** Constant video bitrate, kb/s (studio-kit.ts ENCODE: at least VIDEO_BITRATE_FLOOR_KBPS). */
  kbps: number;
  x264?: string | undefined;
  fps: number;
  threads: number;
}

/**
 * The H.264 settings every video and segment is encoded with. Segments must share them exactly, start on
 * an IDR frame and close their GOPs, so that their streams can follow one another without re-encoding;
 * the track's timescale divides every frame length exactly (90 kHz: 3000 ticks at 30 fps, 1500 at 60).
 */
export function videoEncodeArgs(settings: EncodeSettings): string[] {
  const { preset, kbps, fps, threads } = settings;
  // CBR with HRD: x264 pads a quiet stretch with filler NAL units, so the stream never drops under the floor.
  const x264 = ["nal-hrd=cbr", settings.x264].filter(Boolean).join(":");
  const rate = `${kbps}k`;
  return [
    "-c:v",
    "libx264",
    "-preset",
    preset,
    "-b:v",
    rate,
    "-minrate",
    rate,
    "-maxrate",
    rate,
    "-bufsize",
    rate,
    "-x264-params",
    x264,
    "-profile:v",
    "high",
    "-pix_fmt",
    "yuv420p",
    "-r",
    String(fps),
    "-g",
    String(fps * 2),
    "-threads",
    String(threads),
  ];
}

/** One scene's segment: the video alone, closed GOPs, in an MP4 the concat demuxer can read. */
export function segmentVideoArgs(settings: EncodeSettings): string[] {
  const base = videoEncodeArgs(settings);
  const x264 = ["open-gop=0", "nal-hrd=cbr", settings.x264].filter(Boolean).join(":");
  const at = base.indexOf("-x264-params");
  if (at >= 0) base.splice(at, 2);
  return [...base, "-x264-params", x264, "-an", "-video_track_timescale", "90000", "-map_metadata", "-1", "-f", "mp4"];
}

/**
 * The concat demuxer's list of the segments, in order, each with its exact length: the demuxer would
 * otherwise take a file's length from its header, rounded to the millisecond, and shift every later frame.
 */
export function concatList(segments: readonly { file: string; frames: number }[], fps: number): string {
  const entries = segments.map(({ file, frames }) => `file '${file.replace(/'/g, "'\\''")}'\nduration ${(frames / fps).toFixed(6)}`);
  return `ffconcat version 1.0\n${entries.join("\n")}\n`;
}

/** Joins the segments (stream copy) and muxes the ad's sound track: no frame is encoded again. */
export function joinArgs(input: { list: string; audio: string; durationSec: number; title: string }): string[] {
  return [
    "-f",
    "concat",
    "-safe",
    "0",
    "-i",
    input.list,
    "-i",
    input.audio,
    "-map",
    "0:v",
    "-map",
    "1:a",
    "-c",
    "copy",
    ...finishedVideoArgs(input.durationSec, input.title),
  ];
}

/** An encoded segment's files on this machine, and the directory to remove after use (null: the store's). */
export interface EncodedSegment {
  video: string;
  thumb: string | null;
  dir: string | null;
}

export interface SegmentProgress {
  /** `fraction` of `work`'s frames are out. */
  at(work: { key: string; frames: number }, fraction: number): void;
}

/** The render's progress bar: each segment's share, as its frames come out, below 1 until the join. */
export function segmentProgress(totalFrames: number, onProgress?: (fraction: number) => void): SegmentProgress {
  const shares = new Map<string, number>();
  return {
    at(work, fraction) {
      shares.set(work.key, (fraction * work.frames) / totalFrames);
      onProgress?.(
        Math.min(
          0.99,
          [...shares.values()].reduce((sum, f) => sum + f, 0),
        ),
      );
    },
  };
}

/** The finished ad's file: cut at its length, its title the only metadata, playable while it downloads. */
export function finishedVideoArgs(durationSec: number, title: string): string[] {
  return [
    "-t",
    durationSec.toFixed(3),
    "-map_metadata",
    "-1",
    "-metadata",
    `title=${title}`,
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
    "-y",
    "video.mp4",
  ];
}

/** Files' content hashes, kept by path, size and modification time (a picture is hashed once per process). */
const fileHashes = new Map<string, { size: number; mtimeMs: number; hash: string }>();

export async function fileHash(path: string): Promise<string> {
  const info = await stat(path);
  const known = fileHashes.get(path);
  if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.hash;
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const digest = hash.digest("hex");
  if (fileHashes.size > 2000) fileHashes.clear();
  fileHashes.set(path, { size: info.size, mtimeMs: info.mtimeMs, hash: digest });
  return digest;
}

/**
 * The graph, arguments and names with every name the renderer chose numbered by first appearance: labels
 * (`[s3u0]`), text files (`s3-t0.txt`) and linked inputs (`img3.jpg`) carry the scene's index, which says
 * nothing about its pixels. So a scene keeps its key when a scene before it is removed or the scenes are
 * reordered; what the scene looks like (its layout, which may depend on its place) is in the graph itself.
 */
export function canonicalNames(input: { graph: string; args: readonly string[]; names: readonly string[] }): {
  graph: string;
  args: string[];
  rename: (name: string) => string;
} {
  const names = new Map<string, string>();
  const joinedArgs = input.args.join("\u0000");
  // Order names by where they first appear (arguments, then graph), so equal compositions number them alike.
  const firstSeen = (name: string) => {
    const inArgs = joinedArgs.indexOf(name);
    return inArgs >= 0 ? inArgs : joinedArgs.length + Math.max(0, input.graph.indexOf(name));
  };
  const ordered = [...input.names].sort((a, b) => firstSeen(a) - firstSeen(b) || a.localeCompare(b));
  for (const [i, name] of ordered.entries()) names.set(name, `n${i}${name.match(/\.[a-z0-9]{1,5}$/i)?.[0] ?? ""}`);
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = names.size
    ? new RegExp(
        `(?<![\\w.-])(${[...names.keys()]
          .sort((a, b) => b.length - a.length)
          .map(literal)
          .join("|")})(?![\\w.-])`,
        "g",
      )
    : null;
  const renameIn = (text: string) => (pattern ? text.replace(pattern, (m) => names.get(m) ?? m) : text);
  const labels = new Map<string, string>();
  const graph = renameIn(input.graph).replace(/\[([A-Za-z_][\w]*)\]/g, (_, label: string) => {
    if (!labels.has(label)) labels.set(label, `L${labels.size}`);
    return `[${labels.get(label)}]`;
  });
  return { graph, args: input.args.map(renameIn), rename: (name) => names.get(name) ?? name };
}

/** The key of a segment: its graph, the files it reads (by content), its encoder arguments, the renderer and ffmpeg. */
export async function segmentKey(input: {
  graph: string;
  args: readonly string[];
  files: readonly { name: string; content: string | Uint8Array }[];
  links: readonly { name: string; target: string }[];
  ffmpegVersion: string;
}): Promise<string> {
  const canonical = canonicalNames({ graph: input.graph, args: input.args, names: [...input.files, ...input.links].map((f) => f.name) });
  const hash = createHash("sha256");
  hash.update(`${RENDERER_VERSION}\n${input.ffmpegVersion}\n${canonical.graph}\n${canonical.args.join("\u0000")}\n`);
  const files = [...input.files]
    .map((f) => ({ name: canonical.rename(f.name), content: f.content }))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const file of files) hash.update(`${file.name}\n`).update(file.content).update("\n");
  const links = input.links.map((l) => ({ name: canonical.rename(l.name), target: l.target })).sort((a, b) => a.name.localeCompare(b.name));
  for (const link of links) hash.update(`${link.name}=${await fileHash(link.target)}\n`);
  return hash.digest("hex");
}
