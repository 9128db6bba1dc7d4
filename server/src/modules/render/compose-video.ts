// One ffmpeg run's composition of an ad's video: the whole ad (the bench's one graph), one scene's segment, or
// one part of a segment. Each scene is composed once as a single frame (gradient, image, boxes, drawtext) and
// held for its duration, so drawing costs nothing per frame; only moving pictures, transitions and encoding
// scale with length.
import type { AspectRatio } from "@adgen/schema";
import { backgroundChains, coverSteps, filter, foregroundChains, holdFrames, pictureFillsFrame } from "./graph.ts";
import type { ImageSize } from "./image-size.ts";
import type { SceneLayout } from "./layout.ts";
import type { SegmentWindow } from "./persona.ts";
import { clipChains } from "./graph.ts";
import { finishedVideoArgs, segmentVideoArgs, videoEncodeArgs } from "./scene-segments.ts";
import { backgroundUse, entryFrames, foregroundUse, type MotionPlan, pictureHolds, planMotion } from "./scene-motion.ts";
import {
  AUDIO_TRACK,
  type Composition,
  composeStill,
  ENCODE,
  inputCount,
  inputsOf,
  type StudioKit,
  sceneLayout,
  thumbSize,
} from "./studio-kit.ts";
import { drawPieces, segmentWindows, type TimelinePiece } from "./timeline-pieces.ts";
import { frameSize, planTimeline, type Timeline, tierFps } from "./timeline.ts";
import type { FfmpegCapabilities, RenderRequest, Scene, Storyboard } from "./types.ts";
import type { VoiceOver } from "./voice-over.ts";

const XFADE_NAMES: Record<Exclude<Scene["transition"], "none">, string> = { fade: "fade", slide: "slideleft", wipe: "wipeleft" };

/** A composed video (or one scene's segment of it) and where each scene's segment lies in the ad. */
export interface Composed extends Composition {
  timeline: Timeline;
  /** Per scene, the frames its segment holds (a transition belongs to the scene it ends). */
  windows: SegmentWindow[];
  /** A segment's own frame count. */
  segmentFrames?: number;
}

export interface VideoRequest {
  storyboard: Storyboard;
  format: AspectRatio;
  caps: FfmpegCapabilities;
  logo: ImageSize | null;
  quality?: RenderRequest["quality"];
  /** A narrated ad's camera, person, captions and voice (null: music only). */
  dress?: VoiceOver | null;
  captioned?: boolean;
  /** One scene's segment only (scene-segments.ts): its frames, video alone; the thumbnail with scene 0. */
  only?: number | undefined;
}

/** What a composition gathers as it is built: its chains, the files it writes and the inputs it opens. */
interface Build {
  chains: string[];
  files: Composition["files"];
  links: Composition["links"];
  inputs: string[];
  addInput: ReturnType<typeof inputsOf>;
}

/** The scenes as the composition sees them: laid out, with their camera plans and the zones pictures move in. */
interface Stage {
  request: VideoRequest;
  scenes: Scene[];
  W: number;
  H: number;
  fps: number;
  entry: number;
  timeline: Timeline;
  layouts: SceneLayout[];
  plans: (MotionPlan | null)[];
  zones: (SceneLayout["safe"] | null)[];
  /** Per scene, the labels its still, page, type layer and picture are split into (one per use). */
  uses: string[][];
  bgUses: string[][];
  fgUses: string[][];
  picUses: string[][];
}

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

function stageOf(kit: StudioKit, request: VideoRequest): Stage {
  const { storyboard, format, logo, quality = "standard", dress = null, captioned = false } = request;
  const scenes = storyboard.scenes;
  const { width: W, height: H } = frameSize(format, quality);
  const fps = tierFps(quality);
  const timeline = planTimeline(scenes, fps);
  const { frames, transitions } = timeline;
  const layouts = scenes.map((_, i) => sceneLayout(kit, storyboard, i, format, logo, quality, captioned));
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
  const none = () => scenes.map((): string[] => []);
  return {
    request,
    scenes,
    W,
    H,
    fps,
    entry: entryFrames(fps),
    timeline,
    layouts,
    plans,
    zones,
    uses: none(),
    bgUses: none(),
    fgUses: none(),
    picUses: none(),
  };
}

/** A new label for one more use of scene i's still, page, type layer or picture. */
function take(list: string[][], kind: string, i: number): string {
  const label = `s${i}${kind}${list[i]!.length}`;
  list[i]!.push(label);
  return label;
}

/**
 * A chain head (no output label) making frames [from, from + count) of scene i, counted from its start. fade and
 * xfade cost about as much for a frame they pass through as for one they change (xfade in ffmpeg 5.1: ~2 ms per
 * 1080×1920 frame), so the video is a concat of short pieces: only the fade and transition frames go through
 * those filters; the long holds are one looped frame (moving scenes: made frame by frame).
 */
function chainHead(stage: Stage, build: Build, i: number, from: number, count: number): string {
  const { plans, scenes, layouts, fps, request } = stage;
  const { chains } = build;
  const plan = plans[i];
  const clip = scenes[i]!.videoPath;
  const overlay = (x: string | number, y: string | number) =>
    `${filter("overlay", { x, y, format: "yuv420" })},${filter("format", { pix_fmts: "yuv420p" })}`;
  if (clip && plan) {
    // The clip plays under the type layer: its own input each time, from where the scene has got to.
    const input = build.addInput(clip, `clip${i}`, true);
    const bg = `${take(stage.bgUses, "c", i)}`;
    const fg = take(stage.fgUses, "f", i);
    const layer = foregroundUse(plan, fg, from, count);
    const startSec = (scenes[i]!.videoStartSec ?? 0) + from / fps;
    chains.push(...clipChains({ layout: layouts[i]!, clipInput: input, startSec, frames: count, fps, label: `${bg}m` }));
    chains.push(`${layer.chain}[${fg}m]`);
    const tail = request.dress?.clipTail ? `,${request.dress.clipTail}` : "";
    return `[${bg}m][${fg}m]${overlay(layer.x, layer.y)}${tail}`;
  }
  if (!plan || (pictureHolds(plan) && from >= plan.into + stage.entry)) return `[${take(stage.uses, "u", i)}]${holdFrames(count, fps)}`;
  const zone = stage.zones[i];
  if (zone) {
    // The page held, the picture moving inside its zone, the type over both.
    const page = take(stage.bgUses, "b", i);
    const pic = take(stage.picUses, "p", i);
    const fg = take(stage.fgUses, "f", i);
    const layer = foregroundUse(plan, fg, from, count);
    chains.push(
      `[${page}]${holdFrames(count, fps)}[${page}m]`,
      `${backgroundUse(plan, pic, from, count)}[${pic}m]`,
      `[${page}m][${pic}m]${overlay(zone.x, zone.y)}[${page}z]`,
      `${layer.chain}[${fg}m]`,
    );
    return `[${page}z][${fg}m]${overlay(layer.x, layer.y)}`;
  }
  const bg = `${take(stage.bgUses, "b", i)}`;
  const fg = take(stage.fgUses, "f", i);
  const layer = foregroundUse(plan, fg, from, count);
  chains.push(`${backgroundUse(plan, bg, from, count)}[${bg}m]`, `${layer.chain}[${fg}m]`);
  return `[${bg}m][${fg}m]${overlay(layer.x, layer.y)}`;
}

/**
 * The timeline's pieces, each owned by the scene whose frames end in it (a transition belongs to the scene it
 * ends). Drawn lazily, so a one-scene segment builds only its own scene's chains.
 */
function timelinePieces(stage: Stage, build: Build): TimelinePiece[] {
  const { scenes, layouts, plans, fps, entry } = stage;
  const { frames, transitions, endFade } = stage.timeline;
  const use = (i: number, from: number, count: number) => chainHead(stage, build, i, from, count);
  const pieces: TimelinePiece[] = [];
  const piece = (label: string, owner: number, count: number, make: () => string) => {
    pieces.push({ label, owner, count, make });
  };
  scenes.forEach((scene, i) => {
    const into = transitions[i]!;
    if (i === 0 && into > 0) {
      piece("fadein", 0, into, () => `${use(0, 0, into)},${filter("fade", { t: "in", s: 0, n: into })}[fadein]`);
    } else if (i > 0 && into > 0) {
      const label = `tr${i}`;
      const tail = frames[i - 1]!;
      // Two scenes' text is never on screen at once: a scene with text leaves through black before the next
      // arrives; only scenes without text (a narrated ad's pictures) blend into each other.
      if (stage.request.caps.xfade && !layouts[i - 1]!.texts.length && !layouts[i]!.texts.length) {
        const kind = XFADE_NAMES[scene.transition as keyof typeof XFADE_NAMES];
        piece(label, i - 1, into, () => {
          build.chains.push(`${use(i - 1, tail, into)}[${label}a]`, `${use(i, 0, into)}[${label}b]`);
          return `[${label}a][${label}b]${filter("xfade", { transition: kind, duration: (into / fps).toFixed(4), offset: 0 })}[${label}]`;
        });
      } else {
        // Dip through black (fade out the old scene, fade in the new one).
        const out = Math.floor(into / 2);
        const inn = into - out;
        if (out > 0)
          piece(`${label}o`, i - 1, out, () => `${use(i - 1, tail, out)},${filter("fade", { t: "out", s: 0, n: out })}[${label}o]`);
        piece(`${label}i`, i, inn, () => `${use(i, out, inn)},${filter("fade", { t: "in", s: 0, n: inn })}[${label}i]`);
      }
    }
    const isLast = i === scenes.length - 1;
    const hold = frames[i]! - into - (isLast ? endFade : 0);
    const plan = plans[i];
    if (plan && pictureHolds(plan) && hold > entry) {
      // Only the type moves: it arrives over the held picture, then the scene is one held frame.
      piece(`hold${i}e`, i, entry, () => `${use(i, into, entry)}[hold${i}e]`);
      piece(`hold${i}`, i, hold - entry, () => `${use(i, into + entry, hold - entry)}[hold${i}]`);
    } else if (hold > 0) {
      piece(`hold${i}`, i, hold, () => `${use(i, into, hold)}[hold${i}]`);
    }
    if (isLast && endFade > 0) {
      piece(
        "fadeout",
        i,
        endFade,
        () => `${use(i, frames[i]! - endFade, endFade)},${filter("fade", { t: "out", s: 0, n: endFade })}[fadeout]`,
      );
    }
  });
  return pieces;
}

/** Scene i's sources, split into one copy per use: its still, or its page, picture and type layer. */
function sceneSources(kit: StudioKit, stage: Stage, build: Build, i: number): string[] {
  const { storyboard, format, logo, quality, dress, captioned } = stage.request;
  const scene = stage.scenes[i]!;
  const { uses, bgUses, fgUses, picUses } = stage;
  const split = (outputs: string[]) => `${filter("split", { outputs: outputs.length })}${outputs.map((u) => `[${u}]`).join("")}`;
  const stills: string[] = [];
  if (uses[i]!.length) {
    const still = composeStill(kit, storyboard, i, format, logo, build.addInput, `still${i}`, quality, captioned);
    stills.push(...still.chains, `${dress ? dress.stillHead(i, `still${i}`) : `[still${i}]`}${split(uses[i]!)}`);
    build.files.push(...still.files);
  }
  const plan = stage.plans[i];
  if (!plan || !(bgUses[i]!.length || fgUses[i]!.length)) return stills;
  const layout = stage.layouts[i]!;
  const textFiles = layout.texts.map((_, j) => `s${i}-t${j}.txt`);
  if (!uses[i]!.length) build.files.push(...layout.texts.map((t, j) => ({ name: textFiles[j]!, content: t.text })));
  const imageInput = scene.imagePath && !scene.videoPath ? build.addInput(scene.imagePath, `img${i}`) : undefined;
  const logoInput = layout.logo && storyboard.brand.logoPath ? build.addInput(storyboard.brand.logoPath, "logo") : undefined;
  // A clip scene's picture layer is the clip itself (made per use); a zone's picture is its own layer.
  const zone = stage.zones[i];
  if (zone && imageInput) {
    stills.push(
      ...backgroundChains({ layout, canvas: { width: stage.W, height: stage.H }, label: `bg${i}` }),
      `[bg${i}]${split(bgUses[i]!)}`,
      `[${imageInput}]${coverSteps(plan.canvas.width, plan.canvas.height, layout.picture?.focus, layout.picture?.mono)}[pic${i}]`,
      `[pic${i}]${split(picUses[i]!)}`,
    );
  } else if (!scene.videoPath)
    stills.push(...backgroundChains({ layout, imageInput, canvas: plan.canvas, label: `bg${i}` }), `[bg${i}]${split(bgUses[i]!)}`);
  stills.push(...foregroundChains({ layout, fontPath: kit.font(), textFiles, logoInput, label: `fg${i}` }), `[fg${i}]${split(fgUses[i]!)}`);
  return stills;
}

/** The drawn pieces joined into `[vout]`: dressed (camera, person, captions) in a narrated ad. */
function joinPieces(stage: Stage, build: Build, labels: string[]): void {
  const { dress, only } = stage.request;
  const joined = filter("concat", { n: labels.length, v: 1, a: 0 });
  const inputs = labels.map((l) => `[${l}]`).join("");
  if (!dress) {
    build.chains.push(`${inputs}${joined},${filter("format", { pix_fmts: "yuv420p" })}[vout]`);
    return;
  }
  // A segment's frames carry the ad's time while they are dressed (the camera, the person and the captions
  // are timed in it), and start at 0 again for their own file.
  build.chains.unshift(...dress.preChains(stage.scenes.flatMap((_, i) => (stage.uses[i]!.length ? [i] : []))));
  const shift = dress.startFrame ? `,setpts=PTS+${(dress.startFrame / stage.fps).toFixed(6)}/TB` : "";
  const dressed = only === undefined ? "vout" : "vdressed";
  build.chains.push(`${inputs}${joined}${shift}[vjoined]`, ...dress.video("vjoined", dressed));
  if (only !== undefined) build.chains.push("[vdressed]setpts=PTS-STARTPTS[vout]");
  build.files.push(...dress.files);
  build.links.push(...dress.links);
}

/** The ffmpeg arguments: one segment's video alone, or the whole ad with its sound track; the thumbnail with the first scene. */
function outputArgs(kit: StudioKit, stage: Stage, build: Build, frames: number, thumb: boolean): string[] {
  const { quality = "standard", storyboard, only } = stage.request;
  const encode = ENCODE[quality] ?? ENCODE.standard;
  const settings = { preset: kit.preset, kbps: encode.kbps, x264: encode.x264, fps: stage.fps, threads: kit.threads };
  // The thumbnail, from the first scene as composed (before any fade from black).
  const thumbnail = thumb
    ? ["-map", "[thumb]", "-frames:v", "1", "-q:v", String(encode.thumbnailQ), "-update", "1", "-f", "image2", "-y", "thumb.jpg"]
    : [];
  const graph = ["-filter_complex_threads", String(kit.threads), "-filter_complex_script", "graph.txt"];
  if (only !== undefined) {
    // Exactly its frames: the frame-rate conversion may hold the last one a frame longer.
    return [
      ...build.inputs,
      ...graph,
      "-map",
      "[vout]",
      ...segmentVideoArgs(settings),
      "-frames:v",
      String(frames),
      "-y",
      "video.mp4",
      ...thumbnail,
    ];
  }
  // The sound track, made once for all formats (audio-track.ts): its packets are copied, not encoded again.
  build.inputs.push("-i", AUDIO_TRACK);
  const audioMap = `${inputCount(build.inputs) - 1}:a`;
  const durationSec = stage.timeline.totalFrames / stage.fps;
  return [
    ...build.inputs,
    ...graph,
    "-map",
    "[vout]",
    "-map",
    audioMap,
    ...videoEncodeArgs(settings),
    "-c:a",
    "copy",
    ...finishedVideoArgs(durationSec, storyboard.title ?? ""),
    ...thumbnail,
  ];
}

export function composeVideo(kit: StudioKit, given: VideoRequest): Composed {
  const request = { ...given, quality: given.quality ?? "standard" };
  const { only, dress } = request;
  const links: Composition["links"] = [];
  // The narration's inputs (voice-over.ts numbers them from 0) come first, the scenes' after them.
  const inputs: string[] = dress ? [...dress.inputs] : [];
  const build: Build = { chains: [], files: [], links, inputs, addInput: inputsOf({ links }, inputs) };
  const stage = stageOf(kit, request);
  const pieces = timelinePieces(stage, build);
  const thumbSource = only === undefined || only === 0 ? take(stage.uses, "u", 0) : null;
  const windows = segmentWindows(pieces, stage.scenes.length);
  const drawn = drawPieces(pieces, build.chains, only);
  for (const i of stage.scenes.keys()) build.chains.unshift(...sceneSources(kit, stage, build, i));
  if (thumbSource) {
    const head = dress?.thumbFilter ? `${dress.thumbFilter},` : "";
    build.chains.push(`[${thumbSource}]${head}${filter("scale", thumbSize(request.format))}[thumb]`);
  }
  joinPieces(stage, build, drawn.labels);
  const args = outputArgs(kit, stage, build, drawn.frames, !!thumbSource);
  const composed = { args, graph: build.chains.join(";\n"), files: build.files, links, timeline: stage.timeline, windows };
  return only === undefined ? composed : { ...composed, segmentFrames: drawn.frames };
}
