// Frames of a rendered video as a viewer sees them: one frame at a time, scaled down, as RGB pixels.
import { execFile } from "node:child_process";
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
