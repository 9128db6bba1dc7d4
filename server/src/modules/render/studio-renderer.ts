// The built-in "studio" renderer: one ffmpeg process per render turns a storyboard into an H.264/AAC MP4 plus a
// JPEG thumbnail. Each scene is composed once as a single frame (gradient, image, boxes, drawtext) and held for
// its duration, so drawing costs nothing per frame; only transitions and encoding scale with length.
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname, extname, join, resolve } from "node:path";
import { type AspectRatio, FORMATS, TIER_VIDEO, tierFrameSize } from "@adgen/schema";
import { detectCapabilities, locateFfmpeg, locateFont, RenderAbortedError, runFfmpeg } from "./ffmpeg.ts";
import { fontMetrics } from "./font-metrics.ts";
import { audioTrack, defaultAudioCacheDir, linkTrack } from "./audio-track.ts";
import { bedSeed } from "./music-bed.ts";
import { fontFamily } from "./font-family.ts";
import {
  backgroundChains,
  clipChains,
  coverSteps,
  FPS,
  filter,
  foregroundChains,
  holdFrames,
  pictureFillsFrame,
  stillChains,
} from "./graph.ts";
import { type ImageSize, imageSize } from "./image-size.ts";
import { layoutScene, type SceneLayout } from "./layout.ts";
import { backgroundUse, entryFrames, foregroundUse, pictureHolds, planMotion } from "./scene-motion.ts";
import { findSubjectBox } from "./subject-box.ts";
import type {
  FfmpegCapabilities,
  RenderNarration,
  RenderRequest,
  RenderResult,
  Scene,
  Storyboard,
  StudioRendererOptions,
  VideoRenderer,
} from "./types.ts";
import { validateFileStem, validateFormat, validateStoryboard } from "./validate.ts";
import {
  concatList,
  type EncodedSegment,
  finishedVideoArgs,
  joinArgs,
  partsJoinArgs,
  type SegmentProgress,
  type SegmentWork,
  segmentKey,
  segmentProgress,
  segmentVideoArgs,
  videoEncodeArgs,
} from "./scene-segments.ts";
import { type VoiceOver, voiceOver } from "./voice-over.ts";
import type { SegmentWindow } from "./persona.ts";
import { drawPieces, partWindow, segmentCut, segmentWindows, type TimelinePiece } from "./timeline-pieces.ts";

const PRESETS: readonly string[] = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium"];

/**
 * Encoder settings per quality tier (RenderRequest.quality): premium spends more bits on the same frames, and
 * the full sub-pixel motion search of the preset. Standard searches one step less (x264's subme=1): on the
 * bench ad that is a quarter less encoder time for the same SSIM (0.99723 against 0.99722) and a 5 % larger file.
 */
const ENCODE: Record<NonNullable<RenderRequest["quality"]>, { crf: number; audioBitrate: string; thumbnailQ: number; x264?: string }> = {
  standard: { crf: 21, audioBitrate: "128k", thumbnailQ: 3, x264: "subme=1" },
  premium: { crf: 16, audioBitrate: "192k", thumbnailQ: 2 },
};

/** The shared sound track's name in a render's work directory. */
const AUDIO_TRACK = "audio.m4a";
/** Scene segments encoded at once by one render. */
const SEGMENTS_AT_ONCE = 2;

/** The thumbnail: half the format's full size whatever the tier (540×960 for 9:16). */
const thumbSize = (format: AspectRatio) => {
  const { width, height } = frameSize(format);
  return { w: width / 2, h: height / 2 };
};

const XFADE_NAMES: Record<Exclude<Scene["transition"], "none">, string> = { fade: "fade", slide: "slideleft", wipe: "wipeleft" };

/**
 * The frame size of `format`: the format's full size (as previews are drawn) or, given a quality tier, the size
 * a video of that tier is rendered at (TIER_VIDEO: standard 720p, premium 1080p).
 */
export function frameSize(format: AspectRatio, quality?: RenderRequest["quality"]): { width: number; height: number } {
  validateFormat(format);
  if (quality) return tierFrameSize(format, quality);
  const spec = FORMATS.find((f) => f.ratio === format)!;
  return { width: spec.width, height: spec.height };
}

/** Frames per second of a video of `quality` (standard 30, premium 60). */
export const tierFps = (quality: RenderRequest["quality"] = "standard") => (TIER_VIDEO[quality] ?? TIER_VIDEO.standard).fps;

export interface Timeline {
  /** Frames each scene is on screen (nominal, without transition overlap); they sum to `totalFrames`. */
  frames: number[];
  /** Frame at which scene i starts (i ≥ 1: where the transition into it begins). */
  starts: number[];
  /** Transition length into scene i, in frames (0 for a cut; index 0 is the fade from black). */
  transitions: number[];
  endFade: number;
  totalFrames: number;
}

/**
 * Frame-exact scene boundaries: cumulative rounding keeps the total at round(sum of durations × fps). Fades and
 * transitions last as long at any frame rate (0.3 s and 0.5 s at most).
 */
export function planTimeline(scenes: Scene[], fps: number = FPS): Timeline {
  const k = fps / FPS;
  const frames: number[] = [];
  const starts: number[] = [];
  let elapsed = 0;
  let previous = 0;
  for (const scene of scenes) {
    elapsed += scene.durationSec;
    const boundary = Math.round(elapsed * fps);
    starts.push(previous);
    frames.push(boundary - previous);
    previous = boundary;
  }
  const transitions = scenes.map((scene, i) => {
    if (scene.transition === "none") return 0;
    if (i === 0) return Math.min(9 * k, Math.floor(frames[0]! / 4));
    return Math.min(15 * k, Math.floor(0.3 * Math.min(frames[i - 1]!, frames[i]!)));
  });
  const endFade = Math.min(9 * k, Math.floor(frames[frames.length - 1]! / 4));
  return { frames, starts, transitions, endFade, totalFrames: previous };
}

/** How many inputs (`-i`) an argument list opens. */
const inputCount = (inputs: string[]) => inputs.filter((a) => a === "-i").length;

/**
 * The scene's camera move, kept from carrying the product under the type: a picture that fills only part of the
 * frame is pushed in, not panned, and a styled layout's picture pans sideways rather than up or down (a vertical
 * pan rescales the picture and moves the product by a third of the frame).
 */
function steadyMotion(scene: Scene, layout: SceneLayout, W: number, H: number): Scene {
  const motion = scene.motion;
  if (!scene.imagePath || !motion || motion === "static") return scene;
  // An inset (a picture set smaller over its blurred backdrop) only zooms; a picture in a zone moves inside it.
  if (layout.picture?.inset) return { ...scene, motion: motion === "pull-out" ? "pull-out" : "push-in" };
  if (layout.style && layout.style !== "panel" && (motion === "pan-up" || motion === "pan-down") && H > W) {
    return { ...scene, motion: motion === "pan-up" ? "pan-left" : "pan-right" };
  }
  return scene;
}

/** The rectangle a scene's picture moves inside when the layout gives it part of the frame, else null. */
function pictureZone(scene: Scene, layout: SceneLayout): SceneLayout["safe"] | null {
  if (!scene.imagePath || scene.videoPath || !layout.picture || layout.picture.inset || pictureFillsFrame(layout)) return null;
  return layout.picture.rect;
}

/**
 * The narration without the captions of the closing scene: its call to action is on the end card, and the
 * same words twice on screen would be two blocks of text at once. The voice still says them.
 */
function closingCardUncaptioned(narration: RenderNarration, storyboard: Storyboard, fps: number): RenderNarration {
  const scenes = storyboard.scenes;
  if (scenes.length < 2) return narration;
  const timeline = planTimeline(scenes, fps);
  const closingStart = timeline.starts[scenes.length - 1]! / fps;
  return {
    ...narration,
    cues: narration.cues
      .filter((cue) => cue.startSec < closingStart)
      .map((cue) => ({ ...cue, endSec: Math.min(cue.endSec, closingStart) })),
  };
}

/** Each picture's size and the product's box in it, when the storyboard does not say (read once per file). */
async function withPictureFacts(storyboard: Storyboard): Promise<Storyboard> {
  const facts = new Map<string, Promise<Pick<Scene, "imageSize" | "subject">>>();
  const read = (path: string) => {
    let known = facts.get(path);
    if (!known) {
      known = (async () => {
        const size = await imageSize(path);
        if (!size) return {};
        try {
          const { loadImage } = await import("@napi-rs/canvas");
          const box = await findSubjectBox(await loadImage(path));
          return { imageSize: size, subject: { x: box.x, y: box.y, w: box.w, h: box.h } };
        } catch {
          return { imageSize: size };
        }
      })();
      facts.set(path, known);
    }
    return known;
  };
  const scenes = await Promise.all(
    storyboard.scenes.map(async (scene) => {
      if (!scene.imagePath || scene.videoPath || (scene.imageSize && scene.subject)) return scene;
      const found = await read(scene.imagePath);
      return { ...found, ...scene };
    }),
  );
  return { ...storyboard, scenes };
}

interface Composition {
  args: string[];
  graph: string;
  files: { name: string; content: string | Uint8Array }[];
  links: { name: string; target: string }[];
}

/** A composed video (or one scene's segment of it) and where each scene's segment lies in the ad. */
interface Composed extends Composition {
  timeline: Timeline;
  /** Per scene, the frames its segment holds (a transition belongs to the scene it ends). */
  windows: SegmentWindow[];
  /** Per scene, where its segment may be cut in two parts (frames from its start), or null. */
  cuts: (number | null)[];
  /** A segment's own frame count. */
  segmentFrames?: number;
}

export function createStudioRenderer(options: StudioRendererOptions = {}): VideoRenderer {
  let ffmpegPath = options.ffmpegPath;
  let fontPath = options.fontPath;
  const threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
  const preset = options.preset ?? "veryfast";
  const audioCacheDir = options.audioCacheDir ?? defaultAudioCacheDir();
  const segmentCache = options.segmentCache ?? null;
  if (!PRESETS.includes(preset)) throw new Error(`Unknown x264 preset ${JSON.stringify(preset)}; use one of ${PRESETS.join(", ")}`);
  const binary = () => (ffmpegPath ??= locateFfmpeg());
  const font = () => {
    fontPath ??= locateFont();
    if (!existsSync(fontPath)) throw new Error(`Font file not found: ${fontPath}`);
    return fontPath;
  };

  async function capabilities(): Promise<FfmpegCapabilities> {
    const caps = await detectCapabilities(binary());
    const missing = [
      !caps.drawtext && "the drawtext filter",
      !caps.libx264 && "the libx264 encoder",
      !caps.aac && "the aac encoder",
    ].filter(Boolean);
    if (missing.length) throw new Error(`ffmpeg at ${caps.path} (${caps.version}) lacks ${missing.join(", ")}`);
    return caps;
  }

  async function checkImages(storyboard: Pick<Storyboard, "brand">, scenes: Scene[]): Promise<void> {
    for (const [i, scene] of scenes.entries()) {
      if (!scene.imagePath) continue;
      const info = await stat(scene.imagePath).catch(() => undefined);
      if (!info?.isFile()) throw new Error(`scenes[${i}].imagePath is not a readable file: ${scene.imagePath}`);
    }
    const logo = storyboard.brand.logoPath;
    if (logo) {
      const info = await stat(logo).catch(() => undefined);
      if (!info?.isFile()) throw new Error(`brand.logoPath is not a readable file: ${logo}`);
    }
  }

  /** The logo's pixel size, read once per render (null without a logo or when its header is not an image). */
  async function logoSize(storyboard: Storyboard): Promise<ImageSize | null> {
    return storyboard.brand.logoPath ? imageSize(storyboard.brand.logoPath) : null;
  }

  /**
   * Files and ffmpeg inputs of one composition; a file used twice is linked once and opened as two inputs.
   * A clip (`loop`) is opened looping, so a scene longer than the clip plays it again.
   */
  function inputsOf(composition: Pick<Composition, "links">, inputs: string[]) {
    return (target: string, stem: string, loop = false) => {
      const ext = extname(target).toLowerCase();
      const name = `${stem}${/^\.[a-z0-9]{1,5}$/.test(ext) ? ext : ""}`;
      if (!composition.links.some((l) => l.name === name)) composition.links.push({ name, target: resolve(target) });
      inputs.push(...(loop ? ["-stream_loop", "-1"] : []), "-i", name);
      return `${inputCount(inputs) - 1}:v`;
    };
  }

  /**
   * Scene `index` laid out in `format` in the storyboard's style (the last scene carries the logo, when there is
   * one). `captioned`: a narrated ad, whose captions carry the words.
   */
  function sceneLayout(
    storyboard: Storyboard,
    index: number,
    format: AspectRatio,
    logo: ImageSize | null,
    quality?: RenderRequest["quality"],
    captioned = false,
  ) {
    const scene = storyboard.scenes[index]!;
    const { width, height } = frameSize(format, quality);
    const count = storyboard.scenes.length;
    const isLast = index === count - 1;
    return layoutScene({
      scene,
      brand: storyboard.brand,
      format,
      width,
      height,
      metrics: fontMetrics(font()),
      fonts: fontFamily(font()),
      hasImage: !!(scene.imagePath || scene.videoPath),
      ...(storyboard.style ? { style: storyboard.style } : {}),
      isLast: isLast && count > 1,
      position: { index, count },
      captioned,
      ...(logo && isLast ? { logo } : {}),
    });
  }

  /** The still of one scene as a whole (picture and type in one frame), as used by render and previewFrame. */
  function composeStill(
    storyboard: Storyboard,
    index: number,
    format: AspectRatio,
    logo: ImageSize | null,
    addInput: (target: string, stem: string) => string,
    label: string,
    quality?: RenderRequest["quality"],
    captioned = false,
  ) {
    const scene = storyboard.scenes[index]!;
    const layout = sceneLayout(storyboard, index, format, logo, quality, captioned);
    const files = layout.texts.map((t, j) => ({ name: `s${index}-t${j}.txt`, content: t.text }));
    // A clip's still is its first frame.
    const picture = scene.videoPath ?? scene.imagePath;
    const imageInput = picture ? addInput(picture, scene.videoPath ? `clip${index}` : `img${index}`) : undefined;
    const logoInput = layout.logo && storyboard.brand.logoPath ? addInput(storyboard.brand.logoPath, "logo") : undefined;
    const chains = stillChains({ layout, fontPath: font(), textFiles: files.map((f) => f.name), imageInput, logoInput, label });
    return { chains, files, layout };
  }

  function composeVideo(
    storyboard: Storyboard,
    format: AspectRatio,
    caps: FfmpegCapabilities,
    logo: ImageSize | null,
    quality: RenderRequest["quality"] = "standard",
    dress: VoiceOver | null = null,
    captioned = false,
    /** One scene's segment only (scene-segments.ts): its frames, video alone; the thumbnail with scene 0. */
    only?: number,
    /** One part of that segment (its frames before the cut, or from it): a lone segment is encoded in two. */
    part?: 0 | 1,
  ): Composed {
    const encode = ENCODE[quality] ?? ENCODE.standard;
    const scenes = storyboard.scenes;
    const { width: W, height: H } = frameSize(format, quality);
    const fps = tierFps(quality);
    const entry = entryFrames(fps);
    const timeline = planTimeline(scenes, fps);
    const { frames, transitions, endFade } = timeline;
    const chains: string[] = [];
    const files: Composition["files"] = [];
    const links: Composition["links"] = [];
    // The narration's inputs (voice-over.ts numbers them from 0) come first, the scenes' after them.
    const inputs: string[] = dress ? [...dress.inputs] : [];
    const addInput = inputsOf({ links }, inputs);
    const layouts = scenes.map((_, i) => sceneLayout(storyboard, i, format, logo, quality, captioned));
    // Narrated ads keep their scenes still (the presenter card and the handheld camera are their motion); a
    // scene with a clip moves with it.
    const plans = scenes.map((scene, i) => {
      const length = frames[i]! + (transitions[i + 1] ?? 0);
      if (scene.videoPath)
        return planMotion({ ...scene, motion: "static", textMotion: scene.textMotion ?? "fade" }, length, transitions[i]!, W, H, fps);
      if (dress) return null;
      // A picture in a zone of the frame moves inside its zone: the camera's frame is the zone.
      const zone = pictureZone(scene, layouts[i]!);
      return planMotion(steadyMotion(scene, layouts[i]!, W, H), length, transitions[i]!, zone?.w ?? W, zone?.h ?? H, fps);
    });
    const zones = scenes.map((scene, i) => (plans[i] && !pictureHolds(plans[i]!) ? pictureZone(scene, layouts[i]!) : null));
    // fade and xfade cost about as much for a frame they pass through as for one they change (xfade in ffmpeg 5.1:
    // ~2 ms per 1080×1920 frame), so the video is a concat of short segments: only the fade and transition frames
    // go through those filters; the long holds are one looped frame (moving scenes: made frame by frame).
    const uses: string[][] = scenes.map(() => []);
    const bgUses: string[][] = scenes.map(() => []);
    const fgUses: string[][] = scenes.map(() => []);
    const picUses: string[][] = scenes.map(() => []);
    const take = (list: string[][], kind: string, i: number) => {
      const label = `s${i}${kind}${list[i]!.length}`;
      list[i]!.push(label);
      return label;
    };
    /** A chain head (no output label) making frames [from, from + count) of scene i, counted from its start. */
    const use = (i: number, from: number, count: number): string => {
      const plan = plans[i];
      const clip = scenes[i]!.videoPath;
      if (clip && plan) {
        // The clip plays under the type layer: its own input each time, from where the scene has got to.
        const input = addInput(clip, `clip${i}`, true);
        const bg = `${take(bgUses, "c", i)}`;
        const fg = take(fgUses, "f", i);
        const layer = foregroundUse(plan, fg, from, count);
        const startSec = (scenes[i]!.videoStartSec ?? 0) + from / fps;
        chains.push(...clipChains({ layout: layouts[i]!, clipInput: input, startSec, frames: count, fps, label: `${bg}m` }));
        chains.push(`${layer.chain}[${fg}m]`);
        const tail = dress?.clipTail ? `,${dress.clipTail}` : "";
        return `[${bg}m][${fg}m]${filter("overlay", { x: layer.x, y: layer.y, format: "yuv420" })},${filter("format", { pix_fmts: "yuv420p" })}${tail}`;
      }
      if (!plan || (pictureHolds(plan) && from >= plan.into + entry)) return `[${take(uses, "u", i)}]${holdFrames(count, fps)}`;
      const zone = zones[i];
      if (zone) {
        // The page held, the picture moving inside its zone, the type over both.
        const page = take(bgUses, "b", i);
        const pic = take(picUses, "p", i);
        const fg = take(fgUses, "f", i);
        const layer = foregroundUse(plan, fg, from, count);
        chains.push(
          `[${page}]${holdFrames(count, fps)}[${page}m]`,
          `${backgroundUse(plan, pic, from, count)}[${pic}m]`,
          `[${page}m][${pic}m]${filter("overlay", { x: zone.x, y: zone.y, format: "yuv420" })},${filter("format", { pix_fmts: "yuv420p" })}[${page}z]`,
          `${layer.chain}[${fg}m]`,
        );
        return `[${page}z][${fg}m]${filter("overlay", { x: layer.x, y: layer.y, format: "yuv420" })},${filter("format", { pix_fmts: "yuv420p" })}`;
      }
      const bg = `${take(bgUses, "b", i)}`;
      const fg = take(fgUses, "f", i);
      const layer = foregroundUse(plan, fg, from, count);
      chains.push(`${backgroundUse(plan, bg, from, count)}[${bg}m]`, `${layer.chain}[${fg}m]`);
      return `[${bg}m][${fg}m]${filter("overlay", { x: layer.x, y: layer.y, format: "yuv420" })},${filter("format", { pix_fmts: "yuv420p" })}`;
    };
    /**
     * The timeline's pieces, each owned by the scene whose frames end in it (a transition belongs to the scene
     * it ends). Drawn lazily, so a one-scene segment builds only its own scene's chains.
     */
    const pieces: TimelinePiece[] = [];
    const segment = (label: string, owner: number, count: number, make: (skip: number, count: number) => string, cuttable = false) => {
      pieces.push({ label, owner, count, make, cuttable });
    };
    const thumbSource = only === undefined || (only === 0 && part !== 1) ? take(uses, "u", 0) : null;
    scenes.forEach((scene, i) => {
      const into = transitions[i]!;
      if (i === 0 && into > 0) {
        segment("fadein", 0, into, () => `${use(0, 0, into)},${filter("fade", { t: "in", s: 0, n: into })}[fadein]`);
      } else if (i > 0 && into > 0) {
        const label = `tr${i}`;
        const tail = frames[i - 1]!;
        // Two scenes' text is never on screen at once: a scene with text leaves through black before the next
        // arrives; only scenes without text (a narrated ad's pictures) blend into each other.
        if (caps.xfade && !layouts[i - 1]!.texts.length && !layouts[i]!.texts.length) {
          const kind = XFADE_NAMES[scene.transition as keyof typeof XFADE_NAMES];
          segment(label, i - 1, into, () => {
            chains.push(`${use(i - 1, tail, into)}[${label}a]`, `${use(i, 0, into)}[${label}b]`);
            return `[${label}a][${label}b]${filter("xfade", { transition: kind, duration: (into / fps).toFixed(4), offset: 0 })}[${label}]`;
          });
        } else {
          // Dip through black (fade out the old scene, fade in the new one).
          const out = Math.floor(into / 2);
          const inn = into - out;
          if (out > 0)
            segment(`${label}o`, i - 1, out, () => `${use(i - 1, tail, out)},${filter("fade", { t: "out", s: 0, n: out })}[${label}o]`);
          segment(`${label}i`, i, inn, () => `${use(i, out, inn)},${filter("fade", { t: "in", s: 0, n: inn })}[${label}i]`);
        }
      }
      const isLast = i === scenes.length - 1;
      const hold = frames[i]! - into - (isLast ? endFade : 0);
      const plan = plans[i];
      if (plan && pictureHolds(plan) && hold > entry) {
        // Only the type moves: it arrives over the held picture, then the scene is one held frame.
        segment(`hold${i}e`, i, entry, () => `${use(i, into, entry)}[hold${i}e]`);
        segment(`hold${i}`, i, hold - entry, (skip, n) => `${use(i, into + entry + skip, n)}[hold${i}]`, true);
      } else if (hold > 0) {
        segment(`hold${i}`, i, hold, (skip, n) => `${use(i, into + skip, n)}[hold${i}]`, true);
      }
      if (isLast && endFade > 0) {
        segment(
          "fadeout",
          i,
          endFade,
          () => `${use(i, frames[i]! - endFade, endFade)},${filter("fade", { t: "out", s: 0, n: endFade })}[fadeout]`,
        );
      }
    });
    const windows = segmentWindows(pieces, scenes.length);
    const cuts = scenes.map((_, i) => segmentCut(pieces, i, fps));
    if (part !== undefined && (only === undefined || cuts[only] === null)) throw new Error(`scene ${only}'s segment has no cut`);
    const range =
      only === undefined ? undefined : { scene: only, from: part === 1 ? cuts[only]! : 0, to: part === 0 ? cuts[only]! : Infinity };
    const drawn = drawPieces(pieces, chains, range);
    const segments = drawn.labels;
    const ownFrames = drawn.frames;
    scenes.forEach((scene, i) => {
      const split = (outputs: string[]) => `${filter("split", { outputs: outputs.length })}${outputs.map((u) => `[${u}]`).join("")}`;
      const stills: string[] = [];
      if (uses[i]!.length) {
        const still = composeStill(storyboard, i, format, logo, addInput, `still${i}`, quality, captioned);
        stills.push(...still.chains, `${dress ? dress.stillHead(i, `still${i}`) : `[still${i}]`}${split(uses[i]!)}`);
        files.push(...still.files);
      }
      const plan = plans[i];
      if (plan && (bgUses[i]!.length || fgUses[i]!.length)) {
        const layout = layouts[i]!;
        const textFiles = layout.texts.map((_, j) => `s${i}-t${j}.txt`);
        if (!uses[i]!.length) files.push(...layout.texts.map((t, j) => ({ name: textFiles[j]!, content: t.text })));
        const imageInput = scene.imagePath && !scene.videoPath ? addInput(scene.imagePath, `img${i}`) : undefined;
        const logoInput = layout.logo && storyboard.brand.logoPath ? addInput(storyboard.brand.logoPath, "logo") : undefined;
        // A clip scene's picture layer is the clip itself (made per use above); a zone's picture is its own layer.
        const zone = zones[i];
        if (zone && imageInput) {
          stills.push(
            ...backgroundChains({ layout, canvas: { width: W, height: H }, label: `bg${i}` }),
            `[bg${i}]${split(bgUses[i]!)}`,
            `[${imageInput}]${coverSteps(plan.canvas.width, plan.canvas.height, layout.picture?.focus, layout.picture?.mono)}[pic${i}]`,
            `[pic${i}]${split(picUses[i]!)}`,
          );
        } else if (!scene.videoPath)
          stills.push(...backgroundChains({ layout, imageInput, canvas: plan.canvas, label: `bg${i}` }), `[bg${i}]${split(bgUses[i]!)}`);
        stills.push(
          ...foregroundChains({ layout, fontPath: font(), textFiles, logoInput, label: `fg${i}` }),
          `[fg${i}]${split(fgUses[i]!)}`,
        );
      }
      chains.unshift(...stills);
    });
    if (thumbSource)
      chains.push(`[${thumbSource}]${dress?.thumbFilter ? `${dress.thumbFilter},` : ""}${filter("scale", thumbSize(format))}[thumb]`);
    const total = timeline.totalFrames;
    const joined = filter("concat", { n: segments.length, v: 1, a: 0 });
    if (dress) {
      // Narrated ads: camera, persona and captions over the joined scenes; the voice over the bed. A segment's
      // frames carry the ad's time while they are dressed (the camera, the person and the captions are timed
      // in it), and start at 0 again for their own file.
      chains.unshift(...dress.preChains(scenes.flatMap((_, i) => (uses[i]!.length ? [i] : []))));
      const shift = dress.startFrame ? `,setpts=PTS+${(dress.startFrame / fps).toFixed(6)}/TB` : "";
      const dressed = only === undefined ? "vout" : "vdressed";
      chains.push(`${segments.map((l) => `[${l}]`).join("")}${joined}${shift}[vjoined]`, ...dress.video("vjoined", dressed));
      if (only !== undefined) chains.push("[vdressed]setpts=PTS-STARTPTS[vout]");
      files.push(...dress.files);
      links.push(...dress.links);
    } else {
      chains.push(`${segments.map((l) => `[${l}]`).join("")}${joined},${filter("format", { pix_fmts: "yuv420p" })}[vout]`);
    }
    const thumbnail = [
      // The thumbnail, from the first scene as composed (before any fade from black).
      "-map",
      "[thumb]",
      "-frames:v",
      "1",
      "-q:v",
      String(encode.thumbnailQ),
      "-update",
      "1",
      "-f",
      "image2",
      "-y",
      "thumb.jpg",
    ];
    if (only !== undefined) {
      // One scene's segment: the video alone (the sound is muxed once when the segments are joined).
      const args = [...inputs, "-filter_complex_threads", String(threads), "-filter_complex_script", "graph.txt"];
      // Exactly its frames: the frame-rate conversion may hold the last one a frame longer.
      const video = segmentVideoArgs({ preset, crf: encode.crf, x264: encode.x264, fps, threads });
      args.push("-map", "[vout]", ...video, "-frames:v", String(ownFrames), "-y", "video.mp4");
      if (thumbSource) args.push(...thumbnail);
      return { args, graph: chains.join(";\n"), files, links, timeline, windows, cuts, segmentFrames: ownFrames };
    }
    // The sound track, made once for all formats (audio-track.ts): its packets are copied, not encoded again.
    inputs.push("-i", AUDIO_TRACK);
    const audioMap = `${inputCount(inputs) - 1}:a`;

    const durationSec = total / fps;
    const args = [
      ...inputs,
      "-filter_complex_threads",
      String(threads),
      "-filter_complex_script",
      "graph.txt",
      // Output 1: the video.
      "-map",
      "[vout]",
      "-map",
      audioMap,
      ...videoEncodeArgs({ preset, crf: encode.crf, x264: encode.x264, fps, threads }),
      "-c:a",
      "copy",
      ...finishedVideoArgs(durationSec, storyboard.title ?? ""),
      ...thumbnail,
    ];
    return { args, graph: chains.join(";\n"), files, links, timeline, windows, cuts };
  }

  async function prepare(workDir: string, composition: Pick<Composition, "graph" | "files" | "links">): Promise<void> {
    await writeFile(join(workDir, "graph.txt"), composition.graph);
    for (const f of composition.files) await writeFile(join(workDir, f.name), f.content);
    for (const link of composition.links) {
      await symlink(link.target, join(workDir, link.name)).catch(() => copyFile(link.target, join(workDir, link.name)));
    }
  }

  /** Encodes one segment in a directory of its own and keeps it (and scene 0's thumbnail) in the cache. */
  async function encodeHere(work: SegmentWork, workDir: string, signal?: AbortSignal, onProgress?: (f: number) => void) {
    const dir = await mkdtemp(join(workDir, "scene-"));
    try {
      await prepare(dir, work);
      await runFfmpeg(binary(), work.args, { cwd: dir, signal, durationSec: work.frames / work.fps, onProgress });
      await segmentCache?.put(work.key, join(dir, "video.mp4"));
      if (work.thumb) await segmentCache?.put(`${work.key}.thumb`, join(dir, "thumb.jpg"));
      return { video: join(dir, "video.mp4"), thumb: work.thumb ? join(dir, "thumb.jpg") : null, dir };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** A composed segment (or part of one) as work for an encoder: its key and frames. */
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
    list: SegmentWork[],
    input: { workDir: string; owner?: { jobId: string } | undefined; signal?: AbortSignal | undefined; progress: SegmentProgress },
  ): Promise<Map<string, EncodedSegment>> {
    const unique = [...new Map(list.map((work) => [work.key, work])).values()];
    const made = new Map<string, EncodedSegment>();
    const encode = async (work: SegmentWork) => {
      made.set(work.key, await encodeHere(work, input.workDir, input.signal, (f) => input.progress.at(work, f)));
    };
    if (options.segmentFarm && segmentCache && input.owner && unique.length) {
      await options.segmentFarm.encode({
        owner: input.owner,
        work: unique,
        encodeHere: encode,
        onDone: (key) => input.progress.at(unique.find((work) => work.key === key)!, 1),
        signal: input.signal,
      });
      for (const work of unique.filter((w) => !made.has(w.key))) {
        const video = await segmentCache.get(work.key, { uncounted: true });
        const thumb = work.thumb ? await segmentCache.get(`${work.key}.thumb`, { uncounted: true }) : null;
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

  /** Joins a segment's two parts (stream copy) into one segment, kept in the cache under the segment's key. */
  async function joinParts(
    work: SegmentWork,
    parts: { work: SegmentWork; made: EncodedSegment }[],
    workDir: string,
    signal?: AbortSignal,
  ): Promise<EncodedSegment> {
    const dir = await mkdtemp(join(workDir, "parts-"));
    const list = parts.map((part) => ({ file: part.made.video, frames: part.work.frames }));
    await writeFile(join(dir, "parts.txt"), concatList(list, work.fps));
    await runFfmpeg(binary(), partsJoinArgs("parts.txt"), { cwd: dir, signal });
    const thumb = parts[0]!.made.thumb;
    await segmentCache?.put(work.key, join(dir, "video.mp4"));
    if (work.thumb && thumb) await segmentCache?.put(`${work.key}.thumb`, thumb);
    return { video: join(dir, "video.mp4"), thumb, dir };
  }

  /**
   * Each scene's segment from the cache or encoded now (scene-segments.ts), then joined with the sound track
   * into `video.mp4` (and scene 0's segment brings `thumb.jpg`), in `workDir`. A lone missing segment (a
   * review edit of one scene) would leave one of the two encodes idle, so it is encoded as two parts at once
   * and joined.
   */
  async function renderBySegments(input: {
    workDir: string;
    scenes: number;
    compose: (only: number, part?: 0 | 1) => Promise<Composed>;
    title: string;
    durationSec: number;
    fps: number;
    caps: FfmpegCapabilities;
    owner?: { jobId: string } | undefined;
    signal?: AbortSignal | undefined;
    onProgress?: ((fraction: number) => void) | undefined;
  }): Promise<void> {
    const { workDir, signal, fps, caps } = input;
    const works: SegmentWork[] = [];
    let cuts: (number | null)[] = [];
    for (let i = 0; i < input.scenes; i++) {
      throwIfAborted(signal);
      const composition = await input.compose(i);
      cuts = composition.cuts;
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
      const cached = await segmentCache?.get(work.key);
      const thumb = work.thumb ? await segmentCache?.get(`${work.key}.thumb`) : null;
      if (cached && (!work.thumb || thumb)) await place(i, cached, thumb ?? null);
      else missing.push(i);
    }
    const lone = missing.length === 1 && cuts[missing[0]!] != null ? missing[0]! : null;
    const parts =
      lone === null
        ? []
        : await Promise.all(
            ([0, 1] as const).map(async (k) => segmentWork(await input.compose(lone, k), lone === 0 && k === 0, caps, fps)),
          );
    const made = await encodeWorks(lone === null ? missing.map((i) => works[i]!) : parts, {
      workDir,
      owner: input.owner,
      signal,
      progress,
    });
    const dirs = [...made.values()].map((m) => m.dir);
    try {
      if (lone !== null) {
        const joined = await joinParts(
          works[lone]!,
          parts.map((work) => ({ work, made: made.get(work.key)! })),
          workDir,
          signal,
        );
        dirs.push(joined.dir);
        await place(lone, joined.video, joined.thumb);
      } else {
        for (const i of missing) await place(i, made.get(works[i]!.key)!.video, made.get(works[i]!.key)!.thumb);
      }
    } finally {
      for (const dir of dirs) if (dir) await rm(dir, { recursive: true, force: true });
    }
    const total = works.reduce((sum, work) => sum + work.frames, 0);
    const expected = Math.round(input.durationSec * fps);
    if (total !== expected) throw new Error(`the scene segments hold ${total} frames, the ad ${expected}`);
    const list = works.map((work, i) => ({ file: fileOf(i), frames: work.frames }));
    await writeFile(join(workDir, "segments.txt"), concatList(list, fps));
    await runFfmpeg(binary(), joinArgs({ list: "segments.txt", audio: AUDIO_TRACK, durationSec: input.durationSec, title: input.title }), {
      cwd: workDir,
      signal,
    });
    input.onProgress?.(1);
  }

  const throwIfAborted = (signal?: AbortSignal) => {
    if (signal?.aborted) throw new RenderAbortedError(signal.reason);
  };

  return {
    name: "studio",

    async encodeSegment({ dir, args, durationSec, signal }) {
      await runFfmpeg(binary(), args, { cwd: dir, signal, durationSec });
    },

    async render(request: RenderRequest): Promise<RenderResult> {
      const { format, outputDir, fileStem, signal, onProgress, quality } = request;
      validateStoryboard(request.storyboard);
      validateFileStem(fileStem);
      const { width, height } = frameSize(format, quality ?? "standard");
      const fps = tierFps(quality);
      throwIfAborted(signal);
      await checkImages(request.storyboard, request.storyboard.scenes);
      const storyboard = await withPictureFacts(request.storyboard);
      const caps = await capabilities();
      const logo = await logoSize(storyboard);
      throwIfAborted(signal);
      const narration = request.narration ? closingCardUncaptioned(request.narration, storyboard, fps) : undefined;
      const captioned = !!narration?.cues.length;
      const dressed = !!(narration || request.persona);
      const dressFor = (window?: SegmentWindow) =>
        voiceOver({
          storyboard,
          format,
          width,
          height,
          durationSec: planTimeline(storyboard.scenes, fps).totalFrames / fps,
          fps,
          fontPath: font(),
          metrics: fontMetrics(font()),
          narration,
          persona: request.persona,
          // The narration's inputs come first (composeVideo puts them there).
          firstInput: 0,
          ...(window ? { window } : {}),
        });
      const dress = dressed ? await dressFor() : null;
      if (request.narration) {
        const info = await stat(request.narration.wavPath).catch(() => undefined);
        if (!info?.isFile()) throw new Error(`narration.wavPath is not a readable file: ${request.narration.wavPath}`);
      }
      const composition = composeVideo(storyboard, format, caps, logo, quality, dress, captioned);
      const durationSec = composition.timeline.totalFrames / fps;
      const track = await audioTrack(
        binary(),
        {
          durationSec,
          mood: storyboard.mood,
          seed: bedSeed(storyboard),
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
          await prepare(workDir, composition);
          throwIfAborted(signal);
          await runFfmpeg(binary(), composition.args, { cwd: workDir, signal, durationSec, onProgress });
        } else {
          // A narrated ad's camera, person and captions run across its cuts: each segment is dressed for its
          // own frames, in the ad's time.
          const compose = async (only: number, part?: 0 | 1) =>
            composeVideo(
              storyboard,
              format,
              caps,
              logo,
              quality,
              dressed ? await dressFor(partWindow(composition.windows[only]!, composition.cuts[only] ?? null, part)) : null,
              captioned,
              only,
              part,
            );
          await renderBySegments({
            workDir,
            scenes: storyboard.scenes.length,
            compose,
            title: storyboard.title ?? "",
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
        return { videoPath, thumbnailPath, width, height, durationSec, bytes: size, format };
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },

    async previewFrame(given: Storyboard, sceneIndex: number, format: AspectRatio, outPath: string): Promise<string> {
      let storyboard = given;
      validateStoryboard(storyboard);
      validateFormat(format);
      if (!Number.isInteger(sceneIndex) || sceneIndex < 0 || sceneIndex >= storyboard.scenes.length) {
        throw new Error(`sceneIndex ${sceneIndex} is out of range (0–${storyboard.scenes.length - 1})`);
      }
      await checkImages(storyboard, [storyboard.scenes[sceneIndex]!]);
      storyboard = await withPictureFacts(storyboard);
      await capabilities();
      const logo = await logoSize(storyboard);
      const target = resolve(outPath);
      const links: Composition["links"] = [];
      const inputs: string[] = [];
      const still = composeStill(storyboard, sceneIndex, format, logo, inputsOf({ links }, inputs), "still");
      await mkdir(dirname(target), { recursive: true });
      const workDir = await mkdtemp(join(dirname(target), ".preview-"));
      try {
        await prepare(workDir, { graph: still.chains.join(";\n"), files: still.files, links });
        const args = [
          ...inputs,
          "-filter_complex_script",
          "graph.txt",
          "-map",
          "[still]",
          "-frames:v",
          "1",
          "-update",
          "1",
          "-f",
          "image2",
          "-c:v",
          "png",
          "-y",
          "preview.png",
        ];
        await runFfmpeg(binary(), args, { cwd: workDir });
        await rename(join(workDir, "preview.png"), target);
        return target;
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
  };
}
