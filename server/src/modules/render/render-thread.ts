// Canvas work off the service's event loop. Drawing with Skia (@napi-rs/canvas) is synchronous: a still ad
// decodes its picture and paints a 1080×1920 frame, and a motion scene paints hundreds of frames. Done on the
// main thread, three static ads from a large photo held /api/health for 2.3 s (the attack run's third
// finding). So every drawing task runs on a pool of worker threads (render-thread-entry.ts), one task per
// thread at a time, at most one thread per core; the main thread only waits for the answer.
//
// The thread is the bundle's render-thread.js when this code runs from the build (server/scripts/build.mjs),
// and the TypeScript source through tsx otherwise (tests, `tsx src/main.ts`).
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { FfmpegError, RenderAbortedError } from "./ffmpeg.ts";
import type { RenderTask, RenderTaskName, ThreadAnswer, ThreadError } from "./render-thread-types.ts";

export type { RenderTask, RenderTaskName };

/** A new render thread: the built one beside the bundle, or the source through tsx's loader. */
function startThread(): Worker {
  // The build rewrites `import.meta.url` to the source file's URL; read through a variable it is the
  // running file's, which tells the bundle (a .js beside render-thread.js) from the source.
  const running = import.meta;
  if (!running.url.endsWith(".ts")) return new Worker(fileURLToPath(new URL("./render-thread.js", running.url)));
  // `--import tsx` in a worker's execArgv does not reach its module loader on Node 20: the thread registers
  // tsx's ESM hooks itself, then loads the entry.
  const require = createRequire(import.meta.url);
  const tsxDir = dirname(require.resolve("tsx/package.json"));
  const api = pathToFileURL(join(tsxDir, require("tsx/package.json").exports["./esm/api"].import.default)).href;
  const entry = new URL("./render-thread-entry.ts", import.meta.url).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { eval: true });
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onProgress?: ((fraction: number) => void) | undefined;
}

interface Lane {
  worker: Worker;
  /** The task it runs now (one at a time). */
  running: { id: number; pending: Pending } | null;
}

interface Queued {
  id: number;
  task: RenderTask;
  pending: Pending;
  signal?: AbortSignal | undefined;
}

/** The error a thread reported, as the class the caller would have caught on its own thread. */
function revive(error: ThreadError): Error {
  if (error.name === "AbortError") return new RenderAbortedError(error.message);
  if (error.name === "FfmpegError") return new FfmpegError(error.message, error.exitCode ?? null, "");
  const revived = new Error(error.message);
  revived.name = error.name;
  if (error.stack) revived.stack = error.stack;
  return revived;
}

class RenderThreadPool {
  private readonly lanes: Lane[] = [];
  private readonly queue: Queued[] = [];
  private nextId = 1;

  constructor(private readonly size: number) {}

  run<T>(task: RenderTask, options: { signal?: AbortSignal | undefined; onProgress?: (fraction: number) => void } = {}): Promise<T> {
    if (options.signal?.aborted) return Promise.reject(new RenderAbortedError(options.signal.reason));
    return new Promise<T>((resolve, reject) => {
      const queued: Queued = {
        id: this.nextId++,
        task,
        signal: options.signal,
        pending: { resolve: resolve as (value: unknown) => void, reject, onProgress: options.onProgress },
      };
      this.queue.push(queued);
      options.signal?.addEventListener("abort", () => this.abort(queued), { once: true });
      this.dispatch();
    });
  }

  private abort(queued: Queued) {
    const waiting = this.queue.indexOf(queued);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      queued.pending.reject(new RenderAbortedError(queued.signal?.reason));
      return;
    }
    const lane = this.lanes.find((l) => l.running?.id === queued.id);
    lane?.worker.postMessage({ abort: queued.id });
  }

  private dispatch() {
    while (this.queue.length > 0) {
      const lane = this.lanes.find((l) => l.running === null) ?? (this.lanes.length < this.size ? this.open() : null);
      if (!lane) return;
      const next = this.queue.shift()!;
      lane.running = { id: next.id, pending: next.pending };
      lane.worker.ref();
      lane.worker.postMessage({ id: next.id, task: next.task });
    }
  }

  private open(): Lane {
    const worker = startThread();
    const lane: Lane = { worker, running: null };
    worker.on("message", (answer: ThreadAnswer) => {
      const running = lane.running;
      if (!running || running.id !== answer.id) return;
      if ("progress" in answer) return running.pending.onProgress?.(answer.progress);
      lane.running = null;
      // An idle thread does not keep the process alive.
      worker.unref();
      if ("error" in answer) running.pending.reject(revive(answer.error));
      else running.pending.resolve(answer.result);
      this.dispatch();
    });
    const lost = (error: Error) => {
      // "error" is followed by "exit": the lane is given up once.
      const at = this.lanes.indexOf(lane);
      if (at < 0) return;
      this.lanes.splice(at, 1);
      lane.running?.pending.reject(error);
      lane.running = null;
      this.dispatch();
    };
    worker.on("error", lost);
    worker.on("exit", (code) => lost(new Error(`a render thread stopped (exit code ${code}) before it answered`)));
    this.lanes.push(lane);
    return lane;
  }
}

let pool: RenderThreadPool | null = null;

/**
 * Runs a drawing task on a render thread and answers its result; `onProgress` hears the thread's progress,
 * and `signal` aborts it (the thread stops drawing and kills its encoder).
 */
export function runOnRenderThread<T>(
  task: RenderTask,
  options: { signal?: AbortSignal | undefined; onProgress?: (fraction: number) => void } = {},
): Promise<T> {
  pool ??= new RenderThreadPool(Math.max(1, Math.min(2, availableParallelism())));
  return pool.run<T>(task, options);
}

/** renderStaticAd (static-ad.ts), drawn on a render thread. */
export function drawStaticAd(...args: Args<"static-ad">): Promise<Awaited<ReturnType<typeof import("./static-ad.ts").renderStaticAd>>> {
  return runOnRenderThread({ name: "static-ad", args });
}

type Args<N extends RenderTask["name"]> = Extract<RenderTask, { name: N }>["args"];

/** playIntoEncoder (motion/player.ts) on a render thread: a motion scene's frames drawn and encoded. */
export function playSceneOffThread(
  args: Args<"motion-scene">,
  options: { signal?: AbortSignal | undefined; onProgress?: ((fraction: number) => void) | undefined } = {},
): Promise<void> {
  return runOnRenderThread({ name: "motion-scene", args }, { signal: options.signal, onProgress: options.onProgress ?? (() => {}) });
}

/** drawStill (motion/player.ts) on a render thread. */
export function drawStillOffThread(...args: Args<"motion-still">): Promise<void> {
  return runOnRenderThread({ name: "motion-still", args });
}
