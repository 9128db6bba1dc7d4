// Pictures as a render decodes them: never larger than WORKING_LONG_SIDE px. A library photo is already stored
// that small (brand-media-inspect.ts); a larger picture (a page image, a photo stored before that, a remote
// logo) is scaled by a memory-limited ffmpeg child in the media pool first, so the HTTP process never holds an
// 8000×8000 picture's 256 MB of pixels nor blocks its event loop decoding them.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Image } from "@napi-rs/canvas";
import { runMediaChild } from "../../media/media-work.ts";
import { locateFfmpeg } from "./ffmpeg.ts";
import { imageSize } from "./image-size.ts";

export const WORKING_LONG_SIDE = 2048;
const SCALE_TIMEOUT_MS = 30_000;

let scratch: Promise<string> | null = null;
const copies = new Map<string, Promise<string | null>>();

/** The file to decode for `path`: itself when small enough, else a scaled copy (null when none could be made). */
export function workingPicturePath(path: string): Promise<string | null> {
  let copy = copies.get(path);
  if (!copy) {
    copy = (async () => {
      const size = await imageSize(path);
      if (!size || Math.max(size.width, size.height) <= WORKING_LONG_SIDE) return path;
      scratch ??= mkdtemp(join(tmpdir(), "adgen-working-"));
      const output = join(await scratch, `${copies.size}.png`);
      const factor = `min(1,${WORKING_LONG_SIDE}/max(iw,ih))`;
      const scale = `scale=w='max(1,round(iw*${factor}))':h='max(1,round(ih*${factor}))':flags=area`;
      const args = ["-hide_banner", "-nostdin", "-v", "error", "-threads", "1", "-i", path, "-frames:v", "1", "-vf", scale, "-y", output];
      const run = await runMediaChild("renders", locateFfmpeg(), args, SCALE_TIMEOUT_MS);
      return run.code === 0 ? output : null;
    })();
    copies.set(path, copy);
  }
  return copy;
}

/** The picture at `path`, decoded at most WORKING_LONG_SIDE px on its long side (null when it cannot be). */
export async function loadWorkingPicture(path: string): Promise<Image | null> {
  const working = await workingPicturePath(path);
  if (!working) return null;
  const { loadImage } = await import("@napi-rs/canvas");
  return loadImage(working);
}
