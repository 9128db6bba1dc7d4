import type { AspectRatio } from "@adgen/schema";
import type { SegmentCache, SegmentFarm } from "./scene-segments.ts";

export type { AspectRatio };

/** Brand colours, each `#rrggbb`. */
export interface BrandStyle {
  name: string;
  primary: string;
  secondary: string;
  accent: string;
  text: string;
  /** The brand's logo, a local PNG/JPEG file: shown above the call to action of the last scene. */
  logoPath?: string;
  /** The logo as a media key (the pipeline resolves it to `logoPath` before rendering). */
  logoKey?: string;
}

/**
 * How the camera moves over a scene's picture: a slow pan across it or a push in/pull out. "static"
 * holds it. Only scenes with a picture move (a plain gradient shows no motion).
 */
export type SceneMotion = "push-in" | "pull-out" | "pan-left" | "pan-right" | "pan-up" | "pan-down" | "static";

/**
 * How a scene's text arrives once the transition into the scene is over (kinetic typography, by preset):
 * rises into place, slides in from the side, fades in, or is simply there.
 */
export type TextMotion = "rise" | "slide" | "fade" | "none";

/** The character of the music bed: tempo, harmony and pulse. */
export type MusicMood = "energetic" | "calm" | "luxurious" | "playful" | "warm";

/**
 * How a scene is entered: from the previous scene, or (for the first scene) from black.
 * "slide" and "wipe" become a dip through black when the ffmpeg binary has no `xfade` filter.
 */
export type Transition = "fade" | "slide" | "wipe" | "none";

/**
 * The layout system of an ad: each workflow type has its own type scale, placement, pacing and end card, so two
 * types never look alike. "panel" is the classic card over the picture; the others are described in layout.ts.
 */
export type AdStyle = "panel" | "cinematic" | "ugc" | "presenter" | "problem-solution" | "split" | "editorial" | "bold";

/** What a scene says in a problem → solution story: problem scenes are muted, solution scenes in brand colour. */
export type SceneTone = "problem" | "solution";

/**
 * What a scene does in the ad's story. The hook opens (on screen at t = 0), proof shows evidence (a rating, a
 * number, a fact), the cta closes; the motion engine gives each role its own entrance and pace.
 */
export type SceneRole = "hook" | "problem" | "solution" | "benefit" | "proof" | "cta";

/**
 * A badge drawn beside a scene's copy, never over the product. Each carries the exact words it shows, written
 * by the copywriter from a fact of the brief, the page or the knowledge base (never invented):
 * - rating: `stars` (0–5) and, when known, the review `count` ("4.8 ★ from 2,314 reviews");
 * - price / offer: "From $29", "20% off your first box";
 * - new: a launch ("New");
 * - fact: a knowledge fact shown as a short line (how narrated types show a fact the voice does not say).
 */
export type Sticker =
  | { kind: "rating"; stars: number; count?: number; text: string }
  | { kind: "price" | "offer" | "new" | "fact"; text: string };

export interface Scene {
  id: string;
  /** 0.5–60 s. */
  durationSec: number;
  headline: string;
  body?: string;
  cta?: string;
  /** `#rrggbb` */
  background: string;
  /** `#rrggbb` */
  accent: string;
  transition: Transition;
  /** Optional local image file shown cover-fit under the text. */
  imagePath?: string;
  /** The picture as a media key (the pipeline resolves it to `imagePath` before rendering). */
  imageKey?: string;
  /** The picture's pixel size (lets layout and score place text without opening the file). */
  imageSize?: { width: number; height: number };
  /**
   * Where the product is in the picture, as fractions of its width and height (subject-box.ts). Text is laid
   * out clear of it. Absent: the renderer finds it from the file, the score assumes the centre.
   */
  subject?: { x: number; y: number; w: number; h: number };
  /**
   * Optional local video clip (the user's own product footage) shown cover-fit under the text instead of the
   * picture; it plays from `videoStartSec` for the scene's duration (looped when shorter), without its sound.
   */
  videoPath?: string;
  /** The clip as a media key (the pipeline resolves it to `videoPath` before rendering). */
  videoKey?: string;
  /** Where in the clip the scene starts (default 0). */
  videoStartSec?: number;
  /** Problem or solution (problem-solution style only). */
  tone?: SceneTone;
  /** Default: "static". */
  motion?: SceneMotion;
  /** Default: "none". */
  textMotion?: TextMotion;
  /** What the scene does in the story (absent: the renderer infers it from its place and tone). */
  role?: SceneRole;
  /** The headline's key word or words (they occur in it verbatim): kinetic type highlights them. */
  emphasis?: string;
  /** Badges beside the copy (at most two a scene), in the order they appear. */
  stickers?: Sticker[];
}

export interface Storyboard {
  title: string;
  brand: BrandStyle;
  scenes: Scene[];
  /** The music bed's character (default "calm"). */
  mood?: MusicMood;
  /** The layout system (default "panel"). */
  style?: AdStyle;
}

export interface RenderRequest {
  storyboard: Storyboard;
  format: AspectRatio;
  /** Created if missing; the files appear here as `<fileStem>.mp4` and `<fileStem>.jpg` (replacing older ones). */
  outputDir: string;
  /** Letters, digits, `.`, `_`, `-`; no path separators. */
  fileStem: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /**
   * "standard" (default, cost-optimised): 720p (two thirds of the format's size) at 30 fps, CRF 21, 128 kbps
   * audio. "premium": the format's full 1080p size at 60 fps (smoother transitions, camera moves and type),
   * CRF 16 (cleaner gradients, images and small text), 192 kbps audio and a higher-quality thumbnail.
   * The sizes and rates are TIER_VIDEO in @adgen/schema.
   */
  quality?: "standard" | "premium";
  /** A voice-over for the whole ad: mixed over the music bed (which ducks under it), its cues burned in as captions. */
  narration?: RenderNarration;
  /** Who fronts the ad: a presenter (card and lower-third name bar) or a creator's selfie (handheld camera, tag). */
  persona?: Persona;
  /** The job this render is for: its segments may then be spread over the workers (StudioRendererOptions.segmentFarm). */
  segmentOwner?: { jobId: string };
}

export interface CaptionCue {
  /** Seconds from the start of the ad. */
  startSec: number;
  endSec: number;
  /** One short line. */
  text: string;
  /**
   * The line's words as spoken and when each is heard (seconds from the start of the ad): the caption marks
   * the word being said. Absent: the line is shown whole.
   */
  words?: { text: string; startSec: number; endSec: number }[];
}

export interface RenderNarration {
  /** A WAV heard from t = 0 (any rate, mono or stereo); padded with silence or cut to the video's length. */
  wavPath: string;
  cues: CaptionCue[];
}

export interface Persona {
  kind: "presenter" | "selfie";
  /** Presenter: the name on the lower third. Selfie: the creator's handle. */
  name: string;
  /** Presenter: the small line under the name (none when absent: never a placeholder). */
  label?: string;
  /**
   * The person in the presenter slot: a photo (given subtle motion) or a short video clip (played in the slot),
   * both local files. Without either, the ad has no presenter slot at all (never a stand-in silhouette).
   */
  photoPath?: string;
  videoPath?: string;
  /** The same as media keys (the pipeline resolves them to paths before rendering). */
  photoKey?: string;
  videoKey?: string;
}

export interface RenderResult {
  videoPath: string;
  thumbnailPath: string;
  width: number;
  height: number;
  durationSec: number;
  bytes: number;
  format: AspectRatio;
}

export interface VideoRenderer {
  readonly name: string;
  render(request: RenderRequest): Promise<RenderResult>;
  /** One still PNG of scene `sceneIndex` as it will look in `format` (used for human review previews). */
  previewFrame(storyboard: Storyboard, sceneIndex: number, format: AspectRatio, outPath: string): Promise<string>;
  /**
   * Runs one queued segment's encode (SegmentWork's arguments) in `dir`, which holds its graph, files and
   * inputs: how another worker takes its share of a job's segments. Absent: this renderer does not split.
   */
  encodeSegment?(input: { dir: string; args: string[]; durationSec: number; signal?: AbortSignal }): Promise<void>;
}

export interface StudioRendererOptions {
  /** Defaults to {@link locateFfmpeg}(). */
  ffmpegPath?: string;
  /** A TrueType/OpenType font file; defaults to {@link locateFont}() (DejaVu Sans Bold). */
  fontPath?: string;
  /** Encoder and filter threads; defaults to the number of available cores. */
  threads?: number;
  /** libx264 preset: "veryfast" (default) or "ultrafast" (≈40% less CPU, files ≈5× larger) for draft renders. */
  preset?: "ultrafast" | "superfast" | "veryfast" | "faster" | "fast" | "medium";
  /** Where encoded sound tracks are kept for the other formats of the same ad; defaults to the temp directory. */
  audioCacheDir?: string;
  /** Where encoded scene segments are kept for later renders (scene-segments.ts); none: every segment is encoded. */
  segmentCache?: SegmentCache;
  /** Spreads a job's segments over the workers (with `segmentCache`, for requests naming their job). */
  segmentFarm?: SegmentFarm;
  /** Render each format as one graph, without scene segments (the bench compares the two). */
  wholeGraph?: boolean;
}

/** What one ffmpeg binary can do (detected once per path and cached). */
export interface FfmpegCapabilities {
  path: string;
  version: string;
  xfade: boolean;
  drawtext: boolean;
  libx264: boolean;
  aac: boolean;
}
