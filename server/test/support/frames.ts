// Frames of a rendered video as a viewer sees them: one frame at a time, scaled down, as RGB pixels.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { locateFfmpeg } from "../../src/modules/render/ffmpeg.ts";

const run = promisify(execFile);

export interface Frame {
  width: number;
  height: number;
  /** rgb24, row by row. */
  pixels: Buffer;
}

/** The frame shown at `atSec`, scaled to `width`×`height`. */
export async function frameAt(file: string, atSec: number, width: number, height: number): Promise<Frame> {
  const { stdout } = await run(
    locateFfmpeg(),
    [
      "-v",
      "error",
      "-ss",
      atSec.toFixed(3),
      "-i",
      file,
      "-frames:v",
      "1",
      "-vf",
      `scale=${width}:${height}`,
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "-",
    ],
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  if (stdout.length !== width * height * 3)
    throw new Error(`expected ${width * height * 3} bytes of frame at ${atSec}s, got ${stdout.length}`);
  return { width, height, pixels: stdout };
}

/** Mean absolute difference per channel (0–255) between two frames, over a region (fractions of the frame). */
export function difference(a: Frame, b: Frame, region = { x: 0, y: 0, w: 1, h: 1 }): number {
  let sum = 0;
  let n = 0;
  forEachPixel(a, region, (i) => {
    sum +=
      Math.abs(a.pixels[i]! - b.pixels[i]!) + Math.abs(a.pixels[i + 1]! - b.pixels[i + 1]!) + Math.abs(a.pixels[i + 2]! - b.pixels[i + 2]!);
    n += 3;
  });
  return sum / n;
}

/** Share (0–1) of the region's pixels for which `test(r, g, b)` holds. */
export function share(frame: Frame, test: (r: number, g: number, b: number) => boolean, region = { x: 0, y: 0, w: 1, h: 1 }): number {
  let hits = 0;
  let n = 0;
  forEachPixel(frame, region, (i) => {
    if (test(frame.pixels[i]!, frame.pixels[i + 1]!, frame.pixels[i + 2]!)) hits++;
    n++;
  });
  return hits / n;
}

function forEachPixel(frame: Frame, region: { x: number; y: number; w: number; h: number }, visit: (index: number) => void) {
  const x0 = Math.floor(region.x * frame.width);
  const y0 = Math.floor(region.y * frame.height);
  const x1 = Math.min(frame.width, Math.ceil((region.x + region.w) * frame.width));
  const y1 = Math.min(frame.height, Math.ceil((region.y + region.h) * frame.height));
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) visit((y * frame.width + x) * 3);
}

/**
 * Test pictures a viewer cannot mistake: a 1600×1200 product shot whose halves are green and magenta,
 * and a 400×160 pure blue logo, written into `dir` by ffmpeg.
 */
export async function writeTestPictures(dir: string): Promise<{ picture: string; logo: string }> {
  const picture = join(dir, "product.jpg");
  const logo = join(dir, "logo.png");
  const ffmpeg = locateFfmpeg();
  const still = (source: string, file: string, filter?: string) =>
    run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", source, ...(filter ? ["-vf", filter] : []), "-frames:v", "1", "-y", file]);
  await still("color=c=0x00c000:s=1600x1200", picture, "drawbox=x=800:y=0:w=800:h=1200:color=0xff00ff:t=fill");
  await still("color=c=0x0000ff:s=400x160", logo);
  return { picture, logo };
}

// Colours of the test pictures as they look on screen (the brand tint and 4:2:0 encoding dull them a little).
export const isGreen = (r: number, g: number, b: number) => g > 100 && g > r + 50 && g > b + 30;
export const isMagenta = (r: number, g: number, b: number) => r > 110 && b > 110 && g < r - 50;
export const isBlue = (r: number, g: number, b: number) => b > 170 && r < 60 && g < 60;
/** The band of a 9:16 frame above the text panel, where a scene's picture shows. */
export const PICTURE_BAND = { x: 0, y: 0.2, w: 1, h: 0.3 };
