import type { AspectRatio } from "@adgen/schema";

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
  /** Default: "static". */
  motion?: SceneMotion;
  /** Default: "none". */
  textMotion?: TextMotion;
}

export interface Storyboard {
  title: string;
  brand: BrandStyle;
  scenes: Scene[];
  /** The music bed's character (default "calm"). */
  mood?: MusicMood;
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
}

export interface CaptionCue {
  /** Seconds from the start of the ad. */
  startSec: number;
  endSec: number;
  /** One short line. */
  text: string;
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
  /** Presenter: the small line under the name (default "Presenter"). */
  label?: string;
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
