// How large an uploaded picture or clip may be in pixels, read from its header before anything decodes it.
// Decoding costs memory by the pixel (a 16000×16000 frame is 384 MB as YUV, an 8000×8000 photo 256 MB as
// RGBA), so the file's size in bytes says nothing: a 185 KB clip can hold 16000×16000 frames.

export const CLIP_BOUNDS = {
  /** Longest side of an uploaded clip's frame (4K DCI is 4096 wide). */
  maxSide: 4096,
  /** Most pixels per frame: 4096×2304, a 16:9 frame at the widest side allowed. */
  maxPixels: 4096 * 2304,
} as const;

export const PHOTO_BOUNDS = {
  /** Most pixels in an uploaded photo: a 48-megapixel phone camera's 8000×6000 fits, 8000×8000 does not. */
  maxPixels: 50_000_000,
  /**
   * Longest side of the working copy kept of a larger photo: a 1920 px ad frame never needs more, and a
   * render decodes at most 2048×2048×4 bytes (16 MB) instead of the upload's hundreds.
   */
  workingLongSide: 2048,
} as const;

const megapixels = (pixels: number) => `${(pixels / 1_000_000).toFixed(1)} megapixels`;

/** Why a clip of this frame size is refused, or null when it is within bounds. */
export function clipSizeProblem(width: number, height: number): string | null {
  const { maxSide, maxPixels } = CLIP_BOUNDS;
  if (Math.max(width, height) > maxSide) {
    return `its frames are ${width}×${height} px; clips may be at most ${maxSide} px on a side, so export it at 4K (3840×2160) or smaller`;
  }
  if (width * height > maxPixels) {
    return `its frames are ${width}×${height} px (${megapixels(width * height)}); clips may have at most ${megapixels(maxPixels)} a frame (4096×2304), so export it smaller`;
  }
  return null;
}

/** Why a photo of this size is refused for its pixel count, or null. */
export function photoPixelsProblem(width: number, height: number): string | null {
  const { maxPixels } = PHOTO_BOUNDS;
  if (width * height <= maxPixels) return null;
  return `it is ${width}×${height} px (${megapixels(width * height)}); photos may have at most ${megapixels(maxPixels)} (e.g. 8000×6000 px), so scale it down first`;
}
