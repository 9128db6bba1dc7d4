// What every part of the studio renderer shares: the ffmpeg and font it found, its encoder's threads, preset
// and per-tier settings, and the steps every composition takes (inputs, scene layouts, a scene's still, the
// work directory's files).
import { existsSync } from "node:fs";
import { copyFile, stat, symlink, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { extname, join, resolve } from "node:path";
import type { AspectRatio } from "@adgen/schema";
import { detectCapabilities, locateFfmpeg, locateFont } from "./ffmpeg.ts";
import { fontFamily } from "./font-family.ts";
import { fontMetrics } from "./font-metrics.ts";
import { stillChains } from "./graph.ts";
import { type ImageSize, imageSize } from "./image-size.ts";
import { layoutScene } from "./layout.ts";
import { frameSize } from "./timeline.ts";
import type { FfmpegCapabilities, RenderRequest, Storyboard, Scene, StudioRendererOptions } from "./types.ts";

const PRESETS: readonly string[] = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium"];

/** The lowest video bitrate a file may have (TikTok's ad specification): static frames would otherwise compress below it. */
export const VIDEO_BITRATE_FLOOR_KBPS = 516;

/**
 * Encoder settings per quality tier (RenderRequest.quality). Every tier is encoded at a constant bitrate with
 * x264's HRD in CBR mode (VBV buffer = one second, filler data where a frame needs fewer bits), so no file falls
 * under {@link VIDEO_BITRATE_FLOOR_KBPS} however still its frames; premium spends three times the bits on its
 * 1080p60 frames and the full sub-pixel motion search. Standard searches one step less (subme=1).
 */
export const ENCODE: Record<
  NonNullable<RenderRequest["quality"]>,
  { kbps: number; audioBitrate: string; thumbnailQ: number; x264?: string }
> = {
  standard: { kbps: 1600, audioBitrate: "128k", thumbnailQ: 3, x264: "subme=1" },
  premium: { kbps: 5000, audioBitrate: "192k", thumbnailQ: 2 },
};

/** The shared sound track's name in a render's work directory. */
export const AUDIO_TRACK = "audio.m4a";

/** The thumbnail: half the format's full size whatever the tier (540×960 for 9:16). */
export const thumbSize = (format: AspectRatio) => {
  const { width, height } = frameSize(format);
  return { w: width / 2, h: height / 2 };
};

/** How many inputs (`-i`) an argument list opens. */
export const inputCount = (inputs: string[]) => inputs.filter((a) => a === "-i").length;

/** One ffmpeg run's composition: its arguments, filter graph, the files it writes and the inputs it links. */
export interface Composition {
  args: string[];
  graph: string;
  files: { name: string; content: string | Uint8Array }[];
  links: { name: string; target: string }[];
}

/** A renderer's tools: found lazily, once. */
export interface StudioKit {
  binary(): string;
  font(): string;
  threads: number;
  preset: string;
}

export function createStudioKit(options: StudioRendererOptions): StudioKit {
  let ffmpegPath = options.ffmpegPath;
  let fontPath = options.fontPath;
  const preset = options.preset ?? "veryfast";
  if (!PRESETS.includes(preset)) throw new Error(`Unknown x264 preset ${JSON.stringify(preset)}; use one of ${PRESETS.join(", ")}`);
  return {
    threads: Math.max(1, Math.floor(options.threads ?? availableParallelism())),
    preset,
    binary: () => (ffmpegPath ??= locateFfmpeg()),
    font: () => {
      fontPath ??= locateFont();
      if (!existsSync(fontPath)) throw new Error(`Font file not found: ${fontPath}`);
      return fontPath;
    },
  };
}

/** The ffmpeg's capabilities, refusing one that lacks what every render needs. */
export async function capabilities(kit: StudioKit): Promise<FfmpegCapabilities> {
  const caps = await detectCapabilities(kit.binary());
  const missing = [!caps.drawtext && "the drawtext filter", !caps.libx264 && "the libx264 encoder", !caps.aac && "the aac encoder"].filter(
    Boolean,
  );
  if (missing.length) throw new Error(`ffmpeg at ${caps.path} (${caps.version}) lacks ${missing.join(", ")}`);
  return caps;
}

/** Every picture and the logo the scenes name is a readable file. */
export async function checkImages(storyboard: Pick<Storyboard, "brand">, scenes: Scene[]): Promise<void> {
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
export async function logoSize(storyboard: Storyboard): Promise<ImageSize | null> {
  return storyboard.brand.logoPath ? imageSize(storyboard.brand.logoPath) : null;
}

/**
 * Files and ffmpeg inputs of one composition; a file used twice is linked once and opened as two inputs.
 * A clip (`loop`) is opened looping, so a scene longer than the clip plays it again.
 */
export function inputsOf(composition: Pick<Composition, "links">, inputs: string[]) {
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
export function sceneLayout(
  kit: StudioKit,
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
    metrics: fontMetrics(kit.font()),
    fonts: fontFamily(kit.font()),
    hasImage: !!(scene.imagePath || scene.videoPath),
    ...(storyboard.style ? { style: storyboard.style } : {}),
    isLast: isLast && count > 1,
    position: { index, count },
    captioned,
    ...(logo && isLast ? { logo } : {}),
  });
}

/** The still of one scene as a whole (picture and type in one frame), as used by render and previewFrame. */
export function composeStill(
  kit: StudioKit,
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
  const layout = sceneLayout(kit, storyboard, index, format, logo, quality, captioned);
  const files = layout.texts.map((t, j) => ({ name: `s${index}-t${j}.txt`, content: t.text }));
  // A clip's still is its first frame.
  const picture = scene.videoPath ?? scene.imagePath;
  const imageInput = picture ? addInput(picture, scene.videoPath ? `clip${index}` : `img${index}`) : undefined;
  const logoInput = layout.logo && storyboard.brand.logoPath ? addInput(storyboard.brand.logoPath, "logo") : undefined;
  const chains = stillChains({ layout, fontPath: kit.font(), textFiles: files.map((f) => f.name), imageInput, logoInput, label });
  return { chains, files, layout };
}

/** Writes a composition's graph and files into its work directory and links its inputs there. */
export async function prepare(workDir: string, composition: Pick<Composition, "graph" | "files" | "links">): Promise<void> {
  await writeFile(join(workDir, "graph.txt"), composition.graph);
  for (const f of composition.files) await writeFile(join(workDir, f.name), f.content);
  for (const link of composition.links) {
    await symlink(link.target, join(workDir, link.name)).catch(() => copyFile(link.target, join(workDir, link.name)));
  }
}
