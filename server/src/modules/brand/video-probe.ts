// What an uploaded video really is (ffmpeg `-i` on it, in its own process, read from its report: the container,
// the first video stream's size and the duration), and its stored copy: H.264 MP4 without sound, at most
// BRAND_VIDEO_LIMITS.storedLongSide px on the long side at storedFps, plus a JPEG poster frame. Every run is a
// child process with a timeout and a memory limit, taking its turn in the media pool (media-work.ts), so a
// slow or hostile file cannot hold the server, the host's memory or other accounts' uploads for long; and
// a clip's frame size is read from its container header (container-header.ts) before ffmpeg decodes any.
import { BRAND_VIDEO_LIMITS } from "@adgen/schema";
import { runLimited } from "../../media/limited-child.ts";
import { mediaChildMemoryBytes, mediaPool, type MediaOwner } from "../../media/media-work.ts";
import { locateFfmpeg } from "../render/ffmpeg.ts";
import { readContainerFrameSize } from "./container-header.ts";
import { clipSizeProblem } from "./media-bounds.ts";

export interface VideoHeader {
  /** ffmpeg's demuxer names, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm". */
  container: string;
  /** The first video stream's codec, e.g. "h264", "vp9". */
  codec: string;
  width: number;
  height: number;
  durationSec: number;
}

/** The containers accepted: MP4 and MOV (ffmpeg's mov demuxer), WebM (its matroska demuxer). */
const VIDEO_CONTAINERS = [/^mov,mp4/, /^matroska,webm/];

const PROBE_TIMEOUT_MS = 15_000;
/** Transcoding a 60 s clip to 1080p with the veryfast preset takes seconds; this is the bound, not the norm. */
const TRANSCODE_TIMEOUT_MS = 180_000;
/** Threads per ffmpeg child: each costs buffers, so a fixed count keeps the memory a clip needs the same on any machine. */
const THREADS = ["-threads", "2"];

interface Run {
  code: number | null;
  stderr: string;
  timedOut: boolean;
  outOfMemory: boolean;
}

/** Runs ffmpeg (no shell) under the media memory limit, killed after `timeoutMs` (call it inside a pool turn). */
function runFfmpegFor(args: string[], timeoutMs: number): Promise<Run> {
  return runLimited(locateFfmpeg(), ["-hide_banner", "-nostdin", ...args], { memoryBytes: mediaChildMemoryBytes(), timeoutMs });
}

/** Reads ffmpeg's report on an input (`ffmpeg -i file`, which exits 1 for want of an output: expected). */
export function parseFfmpegReport(report: string): VideoHeader | null {
  const container = /^Input #0, ([^ ]+), from/m.exec(report)?.[1]?.replace(/,$/, "");
  const duration = /Duration: (\d+):(\d\d):(\d\d(?:\.\d+)?)/.exec(report);
  const stream = /Stream #0:\d+[^:]*: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})/.exec(report);
  if (!container || !duration || !stream) return null;
  const durationSec = Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]);
  let width = Number(stream[2]);
  let height = Number(stream[3]);
  // A phone's portrait clip is often stored landscape with a rotation; it plays (and is stored) upright.
  const rotation = /rotation of (-?\d+(?:\.\d+)?) degrees|rotate\s*:\s*(-?\d+)/.exec(report);
  const degrees = Math.abs(Number(rotation?.[1] ?? rotation?.[2] ?? 0)) % 180;
  if (degrees === 90) [width, height] = [height, width];
  return { container, codec: stream[1]!, width, height, durationSec };
}

/**
 * Why a clip may not be shown to a decoder, or null: its container header gives no video size, or a size
 * over the bounds. ffmpeg's own report comes from decoding frames, so this is read first.
 */
export async function clipHeaderProblem(path: string): Promise<string | null> {
  const size = await readContainerFrameSize(path);
  if (!size) return "its header gives no video frame size (it is not an MP4, MOV or WebM video)";
  return clipSizeProblem(size.width, size.height);
}

/** The header ffmpeg reports, run inside the caller's pool turn. */
async function probeInTurn(path: string): Promise<VideoHeader | null> {
  const run = await runFfmpegFor([...THREADS, "-i", path], PROBE_TIMEOUT_MS);
  if (run.timedOut || run.outOfMemory) return null;
  const header = parseFfmpegReport(run.stderr);
  if (!header || !VIDEO_CONTAINERS.some((c) => c.test(header.container))) return null;
  // Still pictures and animations that ffmpeg can also open are not clips.
  if (["png", "mjpeg", "gif", "webp", "bmp"].includes(header.codec)) return null;
  return header;
}

/**
 * The video's header, or null when ffmpeg finds no video in an accepted container (any other file). Call
 * `clipHeaderProblem` first: ffmpeg decodes frames to report on a file.
 */
export function probeVideo(path: string, owner: MediaOwner): Promise<VideoHeader | null> {
  return mediaPool().run(owner, () => probeInTurn(path));
}

const even = (expr: string) => `trunc(${expr}/2)*2`;

/**
 * Transcodes `input` to `output` (H.264 MP4, no sound, long side at most storedLongSide, storedFps, at most
 * maxSeconds) and writes its poster frame (JPEG) to `poster`, as one turn of `owner` in the media pool.
 * Throws when the clip's header is out of bounds, or ffmpeg fails, runs out of memory or takes too long.
 */
export async function transcodeClip(input: string, output: string, poster: string, owner: MediaOwner = "clips"): Promise<VideoHeader> {
  const problem = await clipHeaderProblem(input);
  if (problem) throw new Error(problem);
  return mediaPool().run(owner, () => transcodeInTurn(input, output, poster));
}

async function transcodeInTurn(input: string, output: string, poster: string): Promise<VideoHeader> {
  const { storedLongSide: side, storedFps, maxSeconds } = BRAND_VIDEO_LIMITS;
  const scale = `scale=w='${even(`if(gte(iw,ih),min(${side},iw),iw*min(${side},ih)/ih)`)}':h='${even(`if(gte(iw,ih),ih*min(${side},iw)/iw,min(${side},ih))`)}'`;
  const encode = await runFfmpegFor(
    [
      "-loglevel",
      "error",
      ...THREADS,
      "-y",
      "-i",
      input,
      "-map",
      "0:v:0",
      "-an",
      "-sn",
      "-dn",
      "-t",
      String(maxSeconds),
      "-vf",
      `${scale},fps=${storedFps},format=yuv420p`,
      "-c:v",
      "libx264",
      ...THREADS,
      "-preset",
      "veryfast",
      "-crf",
      "23",
      "-movflags",
      "+faststart",
      output,
    ],
    TRANSCODE_TIMEOUT_MS,
  );
  if (encode.code !== 0) {
    if (encode.outOfMemory) throw new Error("converting it needed more memory than a clip may use");
    throw new Error(encode.timedOut ? "converting it took too long" : `ffmpeg could not convert it: ${lastLine(encode.stderr)}`);
  }
  const stored = await probeInTurn(output);
  if (!stored) throw new Error("the converted clip could not be read back");
  // A frame a little way in: the very first is often black or mid-fade.
  const at = Math.min(1, stored.durationSec / 10).toFixed(2);
  const still = await runFfmpegFor(
    ["-loglevel", "error", ...THREADS, "-y", "-ss", at, "-i", output, "-frames:v", "1", "-q:v", "3", poster],
    PROBE_TIMEOUT_MS,
  );
  if (still.code !== 0) throw new Error(`its poster frame could not be made: ${lastLine(still.stderr)}`);
  return stored;
}

const lastLine = (text: string) => text.trim().split(/\r?\n/).pop() ?? "";
