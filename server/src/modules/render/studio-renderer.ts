// The built-in "studio" renderer: a storyboard becomes an H.264/AAC MP4 plus a JPEG thumbnail, rendered scene by
// scene with ffmpeg (compose-video.ts draws, segment-render.ts encodes and joins), and a scene's still as a PNG.
import { drawStillOffThread } from "./render-thread.ts";
import { mkdir, mkdtemp, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { AspectRatio } from "@adgen/schema";
import { audioTrack, defaultAudioCacheDir, linkTrack } from "./audio-track.ts";
import { type Composed, composeVideo } from "./compose-video.ts";
import { RenderAbortedError, runFfmpeg } from "./ffmpeg.ts";
import { fontMetrics } from "./font-metrics.ts";
import { bedBeat, cutBeat, onTheBeat } from "./beat-grid.ts";
import { composeMotionScene, drawnByMotion, motionSpec } from "./motion/compose.ts";
import { bedSeed } from "./music-bed.ts";
import type { SegmentWindow } from "./persona.ts";
import { withPictureFacts } from "./picture-facts.ts";
import { encodeIn, renderBySegments, type SegmentDeps } from "./segment-render.ts";
import { readFile } from "node:fs/promises";
import {
  AUDIO_TRACK,
  type Composition,
  capabilities,
  checkImages,
  composeStill,
  createStudioKit,
  ENCODE,
  inputsOf,
  logoSize,
  prepare,
  type StudioKit,
} from "./studio-kit.ts";
import { closingCardUncaptioned, frameSize, planTimeline, tierFps } from "./timeline.ts";
import type { RenderRequest, RenderResult, Storyboard, StudioRendererOptions, VideoRenderer } from "./types.ts";
import { validateFileStem, validateFormat, validateStoryboard } from "./validate.ts";
import { voiceOver } from "./voice-over.ts";

export { frameSize, planTimeline, type Timeline, tierFps } from "./timeline.ts";

const throwIfAborted = (signal?: AbortSignal) => {
  if (signal?.aborted) throw new RenderAbortedError(signal.reason);
};

/**
 * The request checked and read: pictures' facts, the ffmpeg's capabilities, the logo's size, and a composer
 * for the whole video or one segment (or part) of it, each segment of a narrated ad dressed for its own frames.
 */
async function readRequest(kit: StudioKit, request: RenderRequest) {
  const { format, signal, quality } = request;
  validateStoryboard(request.storyboard);
  validateFileStem(request.fileStem);
  const { width, height } = frameSize(format, quality ?? "standard");
  const fps = tierFps(quality);
  throwIfAborted(signal);
  await checkImages(request.storyboard, request.storyboard.scenes);
  const dressed = !!(request.narration || request.persona);
  // Every cut on the music's beat (beat-grid.ts), before anything is laid out or timed.
  const storyboard = onTheBeat(await withPictureFacts(request.storyboard), fps, !!request.narration);
  const caps = await capabilities(kit);
  const logo = await logoSize(storyboard);
  throwIfAborted(signal);
  const narration = request.narration ? closingCardUncaptioned(request.narration, storyboard, fps) : undefined;
  const captioned = !!narration?.cues.length;
  const dressFor = (window?: SegmentWindow) =>
    voiceOver({
      storyboard,
      format,
      width,
      height,
      durationSec: planTimeline(storyboard.scenes, fps).totalFrames / fps,
      fps,
      fontPath: kit.font(),
      metrics: fontMetrics(kit.font()),
      narration,
      persona: request.persona,
      // The narration's inputs come first (composeVideo puts them there).
      firstInput: 0,
      ...(window ? { window } : {}),
    });
  if (request.narration) {
    const info = await stat(request.narration.wavPath).catch(() => undefined);
    if (!info?.isFile()) throw new Error(`narration.wavPath is not a readable file: ${request.narration.wavPath}`);
  }
  const base = { storyboard, format, caps, logo, quality, captioned };
  const whole = composeVideo(kit, { ...base, dress: dressed ? await dressFor() : null });
  // A narrated ad's camera, person and captions run across its cuts: each segment is dressed for its own
  // frames, in the ad's time.
  // A scene of an ad without voice or persona is drawn frame by frame by the motion engine (motion/); a clip's
  // scene, and a narrated ad (its camera, person and captions run across the cuts), by the ffmpeg graph.
  const beat = cutBeat(storyboard);
  const compose = async (only: number): Promise<Composed> => {
    if (!dressed && drawnByMotion(storyboard, only)) {
      const motion = composeMotionScene(kit, { storyboard, format, quality: quality ?? "standard", logo, index: only, beat });
      return { ...motion, timeline: whole.timeline, windows: whole.windows };
    }
    return composeVideo(kit, { ...base, dress: dressed ? await dressFor(whole.windows[only]) : null, only });
  };

  return { storyboard, width, height, fps, caps, whole, compose };
}

export function createStudioRenderer(options: StudioRendererOptions = {}): VideoRenderer {
  const kit = createStudioKit(options);
  const audioCacheDir = options.audioCacheDir ?? defaultAudioCacheDir();
  const segments: SegmentDeps = { kit, segmentCache: options.segmentCache ?? null, segmentFarm: options.segmentFarm };

  return {
    name: "studio",

    async encodeSegment({ dir, args, durationSec, signal }) {
      const graph = await readFile(join(dir, "graph.txt"), "utf8").catch(() => "");
      await encodeIn(kit.binary(), dir, { args, graph, frames: Math.round(durationSec * 1000), fps: 1000 }, signal);
    },

    async render(request: RenderRequest): Promise<RenderResult> {
      const { format, outputDir, fileStem, signal, onProgress, quality } = request;
      const ad = await readRequest(kit, request);
      const durationSec = ad.whole.timeline.totalFrames / ad.fps;
      const track = await audioTrack(
        kit.binary(),
        {
          durationSec,
          mood: ad.storyboard.mood,
          seed: bedSeed(ad.storyboard),
          beatSec: bedBeat(ad.storyboard),
          bitrate: (ENCODE[quality ?? "standard"] ?? ENCODE.standard).audioBitrate,
          ...(request.narration ? { narration: request.narration } : {}),
        },
        audioCacheDir,
        signal,
      );
      const outDir = resolve(outputDir);
      await mkdir(outDir, { recursive: true });
      // The work directory sits in outputDir so the finished files can be renamed into place atomically.
      const workDir = await mkdtemp(join(outDir, `.render-${fileStem}-`));
      try {
        await linkTrack(track, join(workDir, AUDIO_TRACK));
        if (options.wholeGraph) {
          await prepare(workDir, ad.whole);
          throwIfAborted(signal);
          await runFfmpeg(kit.binary(), ad.whole.args, { cwd: workDir, signal, durationSec, onProgress });
        } else {
          const { fps, caps, compose } = ad;
          const scenes = ad.storyboard.scenes.length;
          const title = ad.storyboard.title ?? "";
          await renderBySegments(segments, {
            workDir,
            scenes,
            compose,
            title,
            durationSec,
            fps,
            caps,
            owner: request.segmentOwner,
            signal,
            onProgress,
          });
        }
        throwIfAborted(signal);
        const videoPath = join(outDir, `${fileStem}.mp4`);
        const thumbnailPath = join(outDir, `${fileStem}.jpg`);
        const { size } = await stat(join(workDir, "video.mp4"));
        await rename(join(workDir, "thumb.jpg"), thumbnailPath);
        await rename(join(workDir, "video.mp4"), videoPath);
        return { videoPath, thumbnailPath, width: ad.width, height: ad.height, durationSec, bytes: size, format };
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    previewFrame: (given, sceneIndex, format, outPath) => previewFrame(kit, given, sceneIndex, format, outPath),
  };
}

/**
 * Scene `sceneIndex` of `given` as one PNG at `format`'s full size, written to `outPath`: exactly what the video
 * shows (the same motion engine, layout and choreography) at the scene's rest moment, when every word group and
 * sticker of the scene is in (for the hook scene about 0.5–1 s after its start; for the others the last word
 * group's entrance plus the sticker's, see motion/choreography.ts `restSec`). The scene starts where the video's
 * does: the storyboard's durations moved onto the music's beats (beat-grid.ts `onTheBeat`, `sceneStarts`). A
 * scene with a video clip is drawn as the clip's first frame under its layout.
 */
async function previewFrame(kit: StudioKit, given: Storyboard, sceneIndex: number, format: AspectRatio, outPath: string): Promise<string> {
  let storyboard = given;
  validateStoryboard(storyboard);
  validateFormat(format);
  if (!Number.isInteger(sceneIndex) || sceneIndex < 0 || sceneIndex >= storyboard.scenes.length) {
    throw new Error(`sceneIndex ${sceneIndex} is out of range (0–${storyboard.scenes.length - 1})`);
  }
  await checkImages(storyboard, [storyboard.scenes[sceneIndex]!]);
  storyboard = onTheBeat(await withPictureFacts(storyboard), 30, false);
  await capabilities(kit);
  const logo = await logoSize(storyboard);
  const target = resolve(outPath);
  if (drawnByMotion(storyboard, sceneIndex)) {
    const { spec } = motionSpec(kit, {
      storyboard,
      format,
      quality: "standard",
      logo,
      index: sceneIndex,
      beat: cutBeat(storyboard),
      preview: true,
    });
    await mkdir(dirname(target), { recursive: true });
    await drawStillOffThread(spec, dirname(target), target);
    return target;
  }
  const links: Composition["links"] = [];
  const inputs: string[] = [];
  const still = composeStill(kit, storyboard, sceneIndex, format, logo, inputsOf({ links }, inputs), "still");
  await mkdir(dirname(target), { recursive: true });
  const workDir = await mkdtemp(join(dirname(target), ".preview-"));
  try {
    await prepare(workDir, { graph: still.chains.join(";\n"), files: still.files, links });
    const args = [...inputs, "-filter_complex_script", "graph.txt", "-map", "[still]", "-frames:v", "1", "-update", "1"];
    await runFfmpeg(kit.binary(), [...args, "-f", "image2", "-c:v", "png", "-y", "preview.png"], { cwd: workDir });
    await rename(join(workDir, "preview.png"), target);
    return target;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
