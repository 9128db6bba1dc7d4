// Rendering an ad scene by scene (scene-segments.ts): each scene's segment comes from the cache or is encoded
// now, here or by any worker sharing the database and store (segment-farm.ts), then the segments are joined
// with the sound track without encoding again.
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Composed } from "./compose-video.ts";
import { RenderAbortedError, runFfmpeg } from "./ffmpeg.ts";
import { playSceneOffThread } from "./render-thread.ts";
import { isMotionSpec } from "./motion/spec.ts";
import {
  concatList,
  type EncodedSegment,
  joinArgs,
  type SegmentCache,
  type SegmentFarm,
  type SegmentProgress,
  type SegmentWork,
  segmentKey,
  segmentProgress,
} from "./scene-segments.ts";
import { AUDIO_TRACK, prepare, type StudioKit } from "./studio-kit.ts";
import type { FfmpegCapabilities } from "./types.ts";

/** Scene segments encoded at once by one render. */
const SEGMENTS_AT_ONCE = 2;

export interface SegmentRenderInput {
  workDir: string;
  scenes: number;
  compose: (only: number) => Promise<Composed>;
  title: string;
  durationSec: number;
  fps: number;
  caps: FfmpegCapabilities;
  owner?: { jobId: string } | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((fraction: number) => void) | undefined;
}

/** What rendering by segments uses: the renderer's tools, the segment cache and the farm (when there are). */
export interface SegmentDeps {
  kit: StudioKit;
  segmentCache: SegmentCache | null;
  segmentFarm?: SegmentFarm | undefined;
}

/**
 * Runs one prepared segment's encode in `dir`: a motion scene's frames drawn here and piped into ffmpeg, or an
 * ffmpeg graph (a clip scene, a narrated ad's dressed scenes).
 */
export async function encodeIn(
  ffmpeg: string,
  dir: string,
  work: Pick<SegmentWork, "args" | "graph" | "frames" | "fps">,
  signal?: AbortSignal,
  onProgress?: (f: number) => void,
): Promise<void> {
  if (isMotionSpec(work.graph)) {
    // On a render thread: hundreds of Skia frames never hold the service's event loop.
    await playSceneOffThread({ ffmpeg, dir, spec: JSON.parse(work.graph), args: work.args }, { signal, onProgress });
  } else {
    await runFfmpeg(ffmpeg, work.args, { cwd: dir, signal, durationSec: work.frames / work.fps, onProgress });
  }
}

/** Encodes one segment in a directory of its own and keeps it (and scene 0's thumbnail) in the cache. */
async function encodeHere(deps: SegmentDeps, work: SegmentWork, workDir: string, signal?: AbortSignal, onProgress?: (f: number) => void) {
  const dir = await mkdtemp(join(workDir, "scene-"));
  try {
    await prepare(dir, work);
    await encodeIn(deps.kit.binary(), dir, work, signal, onProgress);
    await deps.segmentCache?.put(work.key, join(dir, "video.mp4"));
    if (work.thumb) await deps.segmentCache?.put(`${work.key}.thumb`, join(dir, "thumb.jpg"));
    return { video: join(dir, "video.mp4"), thumb: work.thumb ? join(dir, "thumb.jpg") : null, dir };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A composed segment as work for an encoder: its key and frames. */
async function segmentWork(composition: Composed, thumb: boolean, caps: FfmpegCapabilities, fps: number): Promise<SegmentWork> {
  const key = await segmentKey({ ...composition, ffmpegVersion: caps.version });
  return { ...composition, key, frames: composition.segmentFrames ?? 0, fps, thumb };
}

/**
 * Encodes each work once (by key) and returns its files: with a farm and a job, spread over the workers
 * (those other workers encoded come from the store they share); otherwise here, two at once, one ffmpeg's
 * start (inputs decoded, graph built) overlapping the other's encoding.
 */
async function encodeWorks(
  deps: SegmentDeps,
  list: SegmentWork[],
  input: { workDir: string; owner?: { jobId: string } | undefined; signal?: AbortSignal | undefined; progress: SegmentProgress },
): Promise<Map<string, EncodedSegment>> {
  const unique = [...new Map(list.map((work) => [work.key, work])).values()];
  const made = new Map<string, EncodedSegment>();
  const encode = async (work: SegmentWork) => {
    made.set(work.key, await encodeHere(deps, work, input.workDir, input.signal, (f) => input.progress.at(work, f)));
  };
  if (deps.segmentFarm && deps.segmentCache && input.owner && unique.length) {
    await deps.segmentFarm.encode({
      owner: input.owner,
      work: unique,
      encodeHere: encode,
      onDone: (key) => input.progress.at(unique.find((work) => work.key === key)!, 1),
      signal: input.signal,
    });
    for (const work of unique.filter((w) => !made.has(w.key))) {
      const video = await deps.segmentCache.get(work.key, { uncounted: true });
      const thumb = work.thumb ? await deps.segmentCache.get(`${work.key}.thumb`, { uncounted: true }) : null;
      if (!video || (work.thumb && !thumb)) throw new Error(`segment ${work.key} was encoded but is not in the segment store`);
      made.set(work.key, { video, thumb, dir: null });
    }
  } else {
    let next = 0;
    const lane = async () => {
      while (next < unique.length) await encode(unique[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(SEGMENTS_AT_ONCE, unique.length) }, lane));
  }
  return made;
}

/**
 * Each scene's segment from the cache or encoded now (scene-segments.ts), then joined with the sound track
 * into `video.mp4` (and scene 0's segment brings `thumb.jpg`), in `workDir`.
 */
export async function renderBySegments(deps: SegmentDeps, input: SegmentRenderInput): Promise<void> {
  const { workDir, signal, fps, caps } = input;
  const works: SegmentWork[] = [];
  for (let i = 0; i < input.scenes; i++) {
    if (signal?.aborted) throw new RenderAbortedError(signal.reason);
    const composition = await input.compose(i);
    works.push(await segmentWork(composition, i === 0, caps, fps));
  }
  const progress = segmentProgress(Math.max(1, Math.round(input.durationSec * fps)), input.onProgress);
  const fileOf = (i: number) => `segment-${i + 1}.mp4`;
  const place = async (i: number, video: string, thumb: string | null) => {
    await copyFile(video, join(workDir, fileOf(i)));
    if (thumb) await copyFile(thumb, join(workDir, "thumb.jpg"));
    progress.at(works[i]!, 1);
  };
  const missing: number[] = [];
  for (const [i, work] of works.entries()) {
    const cached = await deps.segmentCache?.get(work.key);
    const thumb = work.thumb ? await deps.segmentCache?.get(`${work.key}.thumb`) : null;
    if (cached && (!work.thumb || thumb)) await place(i, cached, thumb ?? null);
    else missing.push(i);
  }
  const made = await encodeWorks(
    deps,
    missing.map((i) => works[i]!),
    {
      workDir,
      owner: input.owner,
      signal,
      progress,
    },
  );
  const dirs = [...made.values()].map((m) => m.dir);
  try {
    for (const i of missing) await place(i, made.get(works[i]!.key)!.video, made.get(works[i]!.key)!.thumb);
  } finally {
    for (const dir of dirs) if (dir) await rm(dir, { recursive: true, force: true });
  }
  const total = works.reduce((sum, work) => sum + work.frames, 0);
  const expected = Math.round(input.durationSec * fps);
  if (total !== expected) throw new Error(`the scene segments hold ${total} frames, the ad ${expected}`);
  const list = works.map((work, i) => ({ file: fileOf(i), frames: work.frames }));
  await writeFile(join(workDir, "segments.txt"), concatList(list, fps));
  await runFfmpeg(
    deps.kit.binary(),
    joinArgs({ list: "segments.txt", audio: AUDIO_TRACK, durationSec: input.durationSec, title: input.title }),
    {
      cwd: workDir,
      signal,
    },
  );
  input.onProgress?.(1);
}
