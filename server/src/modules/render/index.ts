export type {
  AspectRatio,
  BrandStyle,
  FfmpegCapabilities,
  RenderRequest,
  RenderResult,
  Scene,
  Storyboard,
  StudioRendererOptions,
  Transition,
  VideoRenderer,
} from "./types.ts";
export { createStudioRenderer, frameSize, planTimeline } from "./studio-renderer.ts";
export { detectCapabilities, FfmpegError, locateFfmpeg, locateFont, RenderAbortedError } from "./ffmpeg.ts";
export { LIMITS, StoryboardValidationError, validateStoryboard } from "./validate.ts";
export { layoutScene, SAFE_MARGINS } from "./layout.ts";
export { bedBeat, cutBeat, onTheBeat, sceneStarts } from "./beat-grid.ts";
export { VIDEO_BITRATE_FLOOR_KBPS } from "./studio-kit.ts";
