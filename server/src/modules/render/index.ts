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
