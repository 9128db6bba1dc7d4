// What the main thread and a render thread (render-thread.ts, render-thread-entry.ts) say to each other.
import type { AspectRatio } from "@adgen/schema";
import type { MotionSpec } from "./motion/spec.ts";
import type { StaticVariant } from "./static-ad.ts";
import type { Storyboard } from "./types.ts";

/** A drawing task, by name, with the arguments of the function the thread calls for it. */
export type RenderTask =
  | { name: "static-ad"; args: [storyboard: Storyboard, variant: StaticVariant, format: AspectRatio, outPath: string] }
  /** A motion scene's frames, drawn and piped into ffmpeg `args` (playIntoEncoder in motion/player.ts). */
  | { name: "motion-scene"; args: { ffmpeg: string; dir: string; spec: MotionSpec; args: string[] } }
  /** One frame of a motion scene as a PNG (drawStill in motion/player.ts). */
  | { name: "motion-still"; args: [spec: MotionSpec, dir: string, outPath: string, t?: number] };
export type RenderTaskName = RenderTask["name"];

/** An error as it crosses threads: its class's name, its words and, for ffmpeg, the exit code. */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string | undefined;
  exitCode?: number | null | undefined;
}

/** From the main thread: a task to run, or the id of one to abort. */
export type ThreadRequest = { id: number; task: RenderTask } | { abort: number };

/** From a render thread: progress of a task, its result, or its error. */
export type ThreadAnswer = { id: number; progress: number } | { id: number; result: unknown } | { id: number; error: ThreadError };
