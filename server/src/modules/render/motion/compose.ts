// One scene's segment as work for the encoder: the motion spec (the "graph" the segment's key hashes), the
// picture and logo it links, and ffmpeg's arguments reading the drawn frames from its standard input.
import { extname } from "node:path";
import type { AspectRatio } from "@adgen/schema";
import { fontFamily } from "../font-family.ts";
import type { ImageSize } from "../image-size.ts";
import { segmentVideoArgs } from "../scene-segments.ts";
import { ENCODE, type StudioKit, sceneLayout, thumbSize } from "../studio-kit.ts";
import { frameSize, planTimeline, tierFps } from "../timeline.ts";
import type { RenderRequest, Storyboard } from "../types.ts";
import { MOTION_SPEC, type MotionSpec, roleOf } from "./spec.ts";

export interface MotionSceneInput {
  storyboard: Storyboard;
  format: AspectRatio;
  quality: NonNullable<RenderRequest["quality"]>;
  logo: ImageSize | null;
  index: number;
  beat: number;
  /** Preview: the format's full size at 30 fps, files by their own paths. */
  preview?: boolean;
}

/** True when the motion engine draws this scene: every scene of an ad without narration or persona, but a clip's. */
export const drawnByMotion = (storyboard: Storyboard, index: number) => !storyboard.scenes[index]?.videoPath;

export function motionSpec(kit: StudioKit, input: MotionSceneInput): { spec: MotionSpec; links: { name: string; target: string }[] } {
  const { storyboard, format, quality, index, preview } = input;
  const scene = storyboard.scenes[index]!;
  const { width, height } = preview ? frameSize(format) : frameSize(format, quality);
  const fps = preview ? 30 : tierFps(quality);
  const timeline = planTimeline(storyboard.scenes, fps);
  const layout = sceneLayout(kit, storyboard, index, format, input.logo, preview ? undefined : quality);
  const links: { name: string; target: string }[] = [];
  const link = (path: string | undefined, stem: string) => {
    if (!path) return undefined;
    if (preview) return path;
    const name = `${stem}${extname(path).toLowerCase()}`;
    links.push({ name, target: path });
    return name;
  };
  const picture = link(scene.imagePath, "picture");
  const logo = layout.logo ? link(storyboard.brand.logoPath, "logo") : undefined;
  const family = fontFamily(kit.font());
  const encode = ENCODE[quality] ?? ENCODE.standard;
  const spec: MotionSpec = {
    kind: MOTION_SPEC,
    width,
    height,
    fps,
    frames: timeline.frames[index]!,
    style: storyboard.style ?? "panel",
    layout,
    scene: {
      first: index === 0,
      variant: variantOf(scene.headline),
      role: roleOf(scene, index, storyboard.scenes.length),
      ...(scene.tone ? { tone: scene.tone } : {}),
      ...(scene.motion ? { motion: scene.motion } : {}),
      ...(scene.emphasis ? { emphasis: scene.emphasis } : {}),
      stickers: scene.stickers ?? [],
      ...(scene.cta ? { cta: scene.cta } : {}),
    },
    beat: input.beat,
    brand: { primary: storyboard.brand.primary, secondary: storyboard.brand.secondary, accent: storyboard.brand.accent },
    fonts: { sans: family.path("sans"), serif: family.path("serif"), condensed: family.path("condensed") },
    ...(picture ? { picture } : {}),
    ...(logo ? { logo } : {}),
    premium: quality === "premium",
    ...(index === 0 && !preview ? { thumb: { ...sizeOf(thumbSize(format)), quality: 90 - 5 * encode.thumbnailQ } } : {}),
  };
  return { spec, links };
}

/** A small number from the scene's words: which entrance and light it gets, the same wherever it sits. */
const variantOf = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 997;

const sizeOf = (s: { w: number; h: number }) => ({ w: s.w, h: s.h });

/** The segment's composition: spec as graph, ffmpeg reading raw RGBA frames from its standard input. */
export function composeMotionScene(kit: StudioKit, input: MotionSceneInput) {
  const { spec, links } = motionSpec(kit, input);
  const encode = ENCODE[input.quality] ?? ENCODE.standard;
  const settings = { preset: kit.preset, kbps: encode.kbps, x264: encode.x264, fps: spec.fps, threads: kit.threads };
  const args = [
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgba",
    "-s",
    `${spec.width}x${spec.height}`,
    "-r",
    String(spec.fps),
    "-i",
    "pipe:0",
    ...segmentVideoArgs(settings),
    "-frames:v",
    String(spec.frames),
    "-y",
    "video.mp4",
  ];
  return { args, graph: JSON.stringify(spec), files: [], links, segmentFrames: spec.frames };
}
