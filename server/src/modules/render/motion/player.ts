// Plays a scene's layers frame by frame on one canvas (Skia through @napi-rs/canvas) and pipes the raw frames
// into ffmpeg's encoder: the scene's segment. Expensive parts are sprites drawn once when the scene is set up;
// a frame is a few transformed blits.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { type Canvas, createCanvas, GlobalFonts, type Image, loadImage } from "@napi-rs/canvas";
import type { FontFace } from "../font-family.ts";
import { FfmpegError, RenderAbortedError } from "../ffmpeg.ts";
import "./background-sources.ts";
import { choreograph } from "./choreography.ts";
import { layerStack } from "./frame-source.ts";
import type { MotionSpec } from "./spec.ts";
import "./sticker-source.ts";
import "./type-sources.ts";

/** Bottom to top. */
const LAYERS = ["gradient", "backdrop", "picture", "light-leak", "type", "stickers", "logo"] as const;

const registered = new Map<string, string>();

/** The canvas family name of a font file, registered once per process. */
function family(path: string): string {
  let name = registered.get(path);
  if (!name) {
    name = `adgen-${registered.size}`;
    GlobalFonts.registerFromPath(path, name);
    registered.set(path, name);
  }
  return name;
}

export interface ScenePlayer {
  canvas: Canvas;
  /** Draws frame `n` of the scene onto `canvas`. */
  draw(n: number): void;
  /** The moment previewFrame shows: every line and sticker in (seconds into the scene). */
  restSec: number;
}

export async function openScene(spec: MotionSpec, dir: string): Promise<ScenePlayer> {
  const at = (name?: string) => (name ? (isAbsolute(name) ? name : join(dir, name)) : null);
  const load = async (name?: string): Promise<Image | null> => {
    const path = at(name);
    if (!path) return null;
    try {
      return await loadImage(await readFile(path));
    } catch (error) {
      throw new Error(`The picture ${name} cannot be decoded (${(error as Error).message}): use a PNG, JPEG or WebP file`);
    }
  };
  const [picture, logo] = await Promise.all([load(spec.picture), load(spec.logo)]);
  const choreo = choreograph(spec, spec.layout.texts.length);
  const faces = spec.fonts;
  const font = (face: FontFace, size: number) => `${Math.round(size * 100) / 100}px ${family(faces[face] ?? faces.sans)}`;
  const stack = layerStack(LAYERS, { spec, choreo, picture, logo, createCanvas, font });
  const canvas = createCanvas(spec.width, spec.height);
  const ctx = canvas.getContext("2d");
  const page = `rgb(${spec.layout.gradient.from.join(",")})`;
  return {
    canvas,
    restSec: choreo.restSec,
    draw(n) {
      const t = n / spec.fps;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = 1;
      ctx.globalCompositeOperation = "source-over";
      // The page's own colour under everything (never black where a moving layer leaves a sliver).
      ctx.fillStyle = page;
      ctx.fillRect(0, 0, spec.width, spec.height);
      for (const layer of stack) layer.readNextFrame(t, ctx);
    },
  };
}

/**
 * Draws the scene's frames and pipes them into `ffmpeg args` (which read raw RGBA from `pipe:0`), in `dir`;
 * scene 0 also writes `thumb.jpg` of its first frame (the hook).
 */
export async function playIntoEncoder(input: {
  ffmpeg: string;
  dir: string;
  spec: MotionSpec;
  args: string[];
  signal?: AbortSignal | undefined;
  onProgress?: ((fraction: number) => void) | undefined;
}): Promise<void> {
  const { spec, dir, signal } = input;
  if (signal?.aborted) throw new RenderAbortedError(signal.reason);
  const player = await openScene(spec, dir);
  const child = spawn(input.ffmpeg, ["-hide_banner", "-nostats", "-loglevel", "error", ...input.args], {
    cwd: dir,
    stdio: ["pipe", "ignore", "pipe"],
    windowsHide: true,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code));
  });
  const onAbort = () => child.kill("SIGKILL");
  signal?.addEventListener("abort", onAbort, { once: true });
  let broken = false;
  const stdinClosed = new Promise<void>((resolve) => {
    child.stdin.on("error", () => {
      broken = true;
      resolve();
    });
    child.stdin.on("close", () => resolve());
  });
  try {
    for (let n = 0; n < spec.frames && !broken; n++) {
      if (signal?.aborted) throw new RenderAbortedError(signal.reason);
      player.draw(n);
      if (n === 0 && spec.thumb) await writeThumb(player.canvas, spec.thumb, join(dir, "thumb.jpg"));
      // A killed encoder (an abort, a crash) never drains: wait for whichever comes first.
      if (!child.stdin.write(player.canvas.data())) await Promise.race([once(child.stdin, "drain").catch(() => {}), stdinClosed, exited]);
      if (n % 15 === 0) input.onProgress?.(n / spec.frames);
    }
    child.stdin.end();
    const code = await exited;
    if (signal?.aborted) throw new RenderAbortedError(signal.reason);
    if (code !== 0) throw new FfmpegError(`ffmpeg exited with code ${code}`, code, stderr.trim());
    input.onProgress?.(1);
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

async function writeThumb(frame: Canvas, size: NonNullable<MotionSpec["thumb"]>, path: string) {
  const thumb = createCanvas(size.w, size.h);
  thumb.getContext("2d").drawImage(frame, 0, 0, size.w, size.h);
  await writeFile(path, await thumb.encode("jpeg", size.quality));
}

/** One frame of the scene (at `t` seconds, default its rest moment) as a PNG file. */
export async function drawStill(spec: MotionSpec, dir: string, outPath: string, t?: number): Promise<void> {
  const player = await openScene(spec, dir);
  player.draw(Math.round((t ?? player.restSec) * spec.fps));
  await writeFile(outPath, await player.canvas.encode("png"));
}
