// Finding ffmpeg and the font, detecting what a binary can do, and running it (progress, abort, stderr tail).
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import type { FfmpegCapabilities } from "./types.ts";

const require = createRequire(import.meta.url);

const SYSTEM_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";

/** `FFMPEG_PATH`, then `ffmpeg` on `PATH`, then the `@ffmpeg-installer/ffmpeg` binary. */
export function locateFfmpeg(): string {
  const fromEnv = process.env.FFMPEG_PATH?.trim();
  if (fromEnv) return fromEnv;
  const onPath = findOnPath("ffmpeg");
  if (onPath) return onPath;
  try {
    const installer = require("@ffmpeg-installer/ffmpeg") as { path: string };
    if (installer.path && existsSync(installer.path)) return installer.path;
  } catch {
    // not installed for this platform
  }
  throw new Error("No ffmpeg found: set FFMPEG_PATH, put ffmpeg on PATH, or install @ffmpeg-installer/ffmpeg");
}

/** DejaVu Sans Bold from the system (`fonts-dejavu-core`), else from the `dejavu-fonts-ttf` npm package. */
export function locateFont(): string {
  if (existsSync(SYSTEM_FONT)) return SYSTEM_FONT;
  try {
    const file = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf", "DejaVuSans-Bold.ttf");
    if (existsSync(file)) return file;
  } catch {
    // fall through
  }
  throw new Error("DejaVuSans-Bold.ttf not found: install fonts-dejavu-core or the dejavu-fonts-ttf package");
}

export function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

const capabilityCache = new Map<string, Promise<FfmpegCapabilities>>();

/** Runs `ffmpeg -filters` and `-encoders` once per binary path; the result is cached for the process. */
export function detectCapabilities(ffmpegPath: string): Promise<FfmpegCapabilities> {
  let pending = capabilityCache.get(ffmpegPath);
  if (!pending) {
    pending = probeCapabilities(ffmpegPath);
    capabilityCache.set(ffmpegPath, pending);
    pending.catch(() => capabilityCache.delete(ffmpegPath));
  }
  return pending;
}

async function probeCapabilities(path: string): Promise<FfmpegCapabilities> {
  const [version, filters, encoders] = await Promise.all([
    capture(path, ["-hide_banner", "-version"]),
    capture(path, ["-hide_banner", "-filters"]),
    capture(path, ["-hide_banner", "-encoders"]),
  ]);
  const hasFilter = (name: string) => new RegExp(`^\\s*\\S+\\s+${name}\\s`, "m").test(filters);
  const hasEncoder = (name: string) => new RegExp(`^\\s*\\S+\\s+${name}\\s`, "m").test(encoders);
  return {
    path,
    version: /ffmpeg version (\S+)/.exec(version)?.[1] ?? "unknown",
    xfade: hasFilter("xfade"),
    drawtext: hasFilter("drawtext"),
    libx264: hasEncoder("libx264"),
    aac: hasEncoder("aac"),
  };
}

function capture(path: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.resume();
    child.on("error", (err) => reject(new Error(`Cannot run ffmpeg at ${path}: ${err.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString("utf8"));
      else reject(new Error(`${path} ${args.join(" ")} exited with code ${code}`));
    });
  });
}

/** Rejection for an aborted render; `name` is "AbortError" like the platform's own. */
export class RenderAbortedError extends Error {
  override readonly name = "AbortError";
  readonly code = "ABORT_ERR";
  constructor(reason?: unknown) {
    super("The render was aborted", reason === undefined ? undefined : { cause: reason });
  }
}

/** A failed ffmpeg run; the message ends with the last lines ffmpeg wrote to stderr. */
export class FfmpegError extends Error {
  override readonly name = "FfmpegError";
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
  ) {
    super(stderrTail ? `${message}\n${stderrTail}` : message);
  }
}

export interface RunOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Total output duration, for turning `out_time_ms` into a fraction. */
  durationSec?: number;
  onProgress?: (fraction: number) => void;
}

const STDERR_LINES = 20;

/** Spawns ffmpeg (no shell) with `-progress pipe:1`; resolves on exit code 0. */
export function runFfmpeg(ffmpegPath: string, args: string[], options: RunOptions): Promise<void> {
  const { signal, durationSec, onProgress } = options;
  if (signal?.aborted) return Promise.reject(new RenderAbortedError(signal.reason));
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath, ["-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-progress", "pipe:1", ...args], {
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      child.kill("SIGKILL");
    };
    signal?.addEventListener("abort", onAbort, { once: true });

    const tail: string[] = [];
    let partial = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      const lines = (partial + chunk).split(/\r?\n|\r/);
      partial = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) tail.push(line);
      if (tail.length > STDERR_LINES) tail.splice(0, tail.length - STDERR_LINES);
    });

    let last = -1;
    const report = (fraction: number) => {
      const f = Math.min(1, Math.max(0, fraction));
      if (!onProgress || f <= last) return;
      last = f;
      try {
        onProgress(f);
      } catch {
        // a throwing progress callback must not break the render
      }
    };
    let buffered = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (buffered + chunk).split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) {
        const [key, value] = line.trim().split("=", 2);
        // out_time_ms is in microseconds despite its name (out_time_us in newer builds carries the same value).
        if ((key === "out_time_ms" || key === "out_time_us") && value && durationSec) {
          const us = Number(value);
          if (Number.isFinite(us) && us >= 0) report(us / 1e6 / durationSec);
        }
      }
    });

    child.on("error", (err) => {
      signal?.removeEventListener("abort", onAbort);
      reject(new FfmpegError(`Cannot run ffmpeg at ${ffmpegPath}: ${err.message}`, null, ""));
    });
    child.on("close", (code, sig) => {
      signal?.removeEventListener("abort", onAbort);
      if (partial.trim()) tail.push(partial);
      if (aborted) reject(new RenderAbortedError(signal?.reason));
      else if (code === 0) {
        report(1);
        resolve();
      } else {
        const how = sig ? `was killed by ${sig}` : `exited with code ${code}`;
        reject(new FfmpegError(`ffmpeg ${how}`, code, tail.slice(-STDERR_LINES).join("\n")));
      }
    });
  });
}
