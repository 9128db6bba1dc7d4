// ffprobe for tests: FFPROBE_PATH, then `ffprobe` on PATH, then the @ffprobe-installer/ffprobe binary.
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export interface ProbeResult {
  durationSec: number;
  width: number;
  height: number;
  videoCodec: string | undefined;
  audioCodec: string | undefined;
  pixFmt: string | undefined;
  /** e.g. "30/1" */
  frameRate: string | undefined;
  videoFrames: number | undefined;
}

export function locateFfprobe(): string {
  const fromEnv = process.env.FFPROBE_PATH?.trim();
  if (fromEnv) return fromEnv;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "ffprobe");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  const installer = require("@ffprobe-installer/ffprobe") as { path: string };
  if (!existsSync(installer.path)) throw new Error("No ffprobe found: set FFPROBE_PATH or install @ffprobe-installer/ffprobe");
  return installer.path;
}

interface FfprobeJson {
  streams?: {
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    r_frame_rate?: string;
    nb_frames?: string;
    duration?: string;
  }[];
  format?: { duration?: string };
}

export async function probe(path: string): Promise<ProbeResult> {
  const { stdout } = await run(locateFfprobe(), ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", path], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const json = JSON.parse(stdout) as FfprobeJson;
  const video = json.streams?.find((s) => s.codec_type === "video");
  const audio = json.streams?.find((s) => s.codec_type === "audio");
  const duration = Number(json.format?.duration ?? video?.duration ?? Number.NaN);
  return {
    durationSec: duration,
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    videoCodec: video?.codec_name,
    audioCodec: audio?.codec_name,
    pixFmt: video?.pix_fmt,
    frameRate: video?.r_frame_rate,
    videoFrames: video?.nb_frames ? Number(video.nb_frames) : undefined,
  };
}
