// The checks a brand media upload passes before anything is stored, and the form it is stored in. Sizes come
// from headers first (a photo's own, a clip's container), so a file too large in pixels is refused before
// any decoder sees it; then the whole file is decoded in a memory-limited ffmpeg child, in the account's turn
// of the media pool. A clip is stored transcoded (≤ 1080 px), a photo larger than the working size as a
// downscaled working copy (≤ 2048 px), which is what every ad then reads: a render never decodes the upload.
import { extname, join } from "node:path";
import {
  BRAND_MEDIA_EXTENSIONS,
  BRAND_MEDIA_LIMITS,
  BRAND_MEDIA_ROLE_KINDS,
  BRAND_VIDEO_EXTENSIONS,
  BRAND_VIDEO_LIMITS,
  type BrandMediaRole,
  type BrandMediaType,
  type UploadedFile,
} from "@adgen/schema";
import { AppError } from "../../errors.ts";
import { decodePicture, readImageHeader } from "./image-probe.ts";
import { clipSizeProblem, PHOTO_BOUNDS, photoPixelsProblem } from "./media-bounds.ts";
import { readContainerFrameSize } from "./container-header.ts";
import { probeVideo, transcodeClip } from "./video-probe.ts";

const ACCEPTED = "a PNG, JPEG or WebP image";
const ACCEPTED_VIDEO = "an MP4, MOV or WebM video";
const MB = 1024 * 1024;

/** What each role is called in a message. */
const ROLE_NAME: Record<BrandMediaRole, string> = { product: "A product photo", presenter: "A presenter", footage: "Product footage" };

export const bad = (message: string) => new AppError("BAD_REQUEST", message, { fields: [{ field: "file", message }] });

export interface Inspected {
  kind: "image" | "video";
  mime: string;
  width: number;
  height: number;
  durationSec: number | null;
}

/** What is stored of an upload: a file (the upload, its working copy or its transcode), and a clip's poster. */
export interface Prepared {
  mime: string;
  path: string;
  width: number;
  height: number;
  durationSec: number | null;
  poster: string | null;
}

/** What a role accepts, in words, and the name endings that go with it. */
function acceptedFor(role: BrandMediaRole): { what: string; endings: readonly string[] } {
  const kinds = BRAND_MEDIA_ROLE_KINDS[role];
  const what = kinds.map((k) => (k === "image" ? ACCEPTED : ACCEPTED_VIDEO)).join(" or ");
  return { what, endings: kinds.flatMap((k) => (k === "image" ? BRAND_MEDIA_EXTENSIONS : BRAND_VIDEO_EXTENSIONS)) };
}

/** The kind its role takes, then the kind's own header checks: nothing here decodes the file. */
export async function inspect(file: UploadedFile, role: BrandMediaRole): Promise<Inspected> {
  const ending = extname(file.filename).toLowerCase();
  const accepted = acceptedFor(role);
  const named = file.filename ? `"${file.filename}"` : "The file has no name; it";
  const kind = (BRAND_MEDIA_EXTENSIONS as readonly string[]).includes(ending)
    ? "image"
    : (BRAND_VIDEO_EXTENSIONS as readonly string[]).includes(ending)
      ? "video"
      : null;
  if (!kind) throw bad(`${named} must be ${accepted.what} with a name ending in ${accepted.endings.join(", ")}`);
  if (!BRAND_MEDIA_ROLE_KINDS[role].includes(kind)) {
    const instead = kind === "video" ? "choose Product footage or Presenter for a clip" : "choose Product photo or Presenter for a photo";
    throw bad(`${ROLE_NAME[role]} must be ${accepted.what}; ${named} is a ${kind === "video" ? "video" : "photo"}: ${instead}`);
  }
  if (file.bytes === 0) throw bad(`"${file.filename}" is empty; upload ${accepted.what}`);
  if (kind === "video") return { kind, mime: "video/mp4", durationSec: null, ...(await inspectClipHeader(file)) };
  if (file.bytes > BRAND_MEDIA_LIMITS.maxBytes) {
    throw bad(
      `"${file.filename}" is ${(file.bytes / MB).toFixed(1)} MB; photos may be at most ${BRAND_MEDIA_LIMITS.maxBytes / MB} MB, so export a smaller one`,
    );
  }
  return { kind, durationSec: null, ...(await inspectImageHeader(file)) };
}

/** A clip's size in bytes, then its frame size from its container header. */
async function inspectClipHeader(file: UploadedFile): Promise<{ width: number; height: number }> {
  const { maxBytes } = BRAND_VIDEO_LIMITS;
  if (file.bytes > maxBytes) {
    throw bad(`"${file.filename}" is ${(file.bytes / MB).toFixed(1)} MB; clips may be at most ${maxBytes / MB} MB, so trim or compress it`);
  }
  const size = await readContainerFrameSize(file.path);
  if (!size) {
    throw bad(`"${file.filename}" is not ${ACCEPTED_VIDEO} (judged by its content, not its name); export it again as MP4 and upload that`);
  }
  const problem = clipSizeProblem(size.width, size.height);
  if (problem) throw bad(`"${file.filename}" cannot be used: ${problem}`);
  return size;
}

/** A photo's type and pixel size from its header. */
async function inspectImageHeader(file: UploadedFile): Promise<{ mime: BrandMediaType; width: number; height: number }> {
  const header = await readImageHeader(file.path);
  if (!header) throw bad(`"${file.filename}" is not ${ACCEPTED} (judged by its content, not its name); upload a PNG, JPEG or WebP photo`);
  if (header.animated) throw bad(`"${file.filename}" is an animated WebP; upload a still PNG, JPEG or WebP photo`);
  const { minSide, maxSide } = BRAND_MEDIA_LIMITS;
  const size = `${header.width}×${header.height} px`;
  if (Math.min(header.width, header.height) < minSide) {
    throw bad(`"${file.filename}" is ${size}; photos must be at least ${minSide} px on each side to look sharp in an ad`);
  }
  if (Math.max(header.width, header.height) > maxSide) {
    throw bad(`"${file.filename}" is ${size}; photos may be at most ${maxSide} px on a side, so scale it down first`);
  }
  const pixels = photoPixelsProblem(header.width, header.height);
  if (pixels) throw bad(`"${file.filename}" cannot be used: ${pixels}`);
  return header;
}

/** The stored form of an inspected upload, made in `scratch` (which the caller removes), in `owner`'s pool turns. */
export async function prepare(file: UploadedFile, item: Inspected, owner: string, scratch: string): Promise<Prepared> {
  return item.kind === "video" ? prepareClip(file, owner, scratch) : preparePhoto(file, item, owner, scratch);
}

/** A clip's length and decoded size (ffmpeg's report), then its transcode with a poster frame. */
async function prepareClip(file: UploadedFile, owner: string, scratch: string): Promise<Prepared> {
  const { minSeconds, maxSeconds, minSide } = BRAND_VIDEO_LIMITS;
  const header = await probeVideo(file.path, owner);
  if (!header) {
    throw bad(`"${file.filename}" is not ${ACCEPTED_VIDEO} (judged by its content, not its name); export it again as MP4 and upload that`);
  }
  // The decoder's size, in case the container's header understated it.
  const problem = clipSizeProblem(header.width, header.height);
  if (problem) throw bad(`"${file.filename}" cannot be used: ${problem}`);
  const length = `${header.durationSec.toFixed(1)} s`;
  if (header.durationSec < minSeconds) throw bad(`"${file.filename}" is ${length} long; clips must be at least ${minSeconds} s`);
  if (header.durationSec > maxSeconds)
    throw bad(`"${file.filename}" is ${length} long; clips may be at most ${maxSeconds} s, so trim it first`);
  if (Math.min(header.width, header.height) < minSide) {
    throw bad(
      `"${file.filename}" is ${header.width}×${header.height} px; clips must be at least ${minSide} px on each side to look sharp in an ad`,
    );
  }
  const output = join(scratch, "clip.mp4");
  const poster = join(scratch, "poster.jpg");
  try {
    const stored = await transcodeClip(file.path, output, poster, owner);
    const durationSec = Math.round(stored.durationSec * 100) / 100;
    return { mime: "video/mp4", path: output, width: stored.width, height: stored.height, durationSec, poster };
  } catch (error) {
    throw bad(`"${file.filename}" could not be converted (${(error as Error).message}); export it again as MP4 (H.264) and upload that`);
  }
}

/** A photo decoded whole; one larger than the working size is stored as its downscaled copy (JPEG stays JPEG, else PNG). */
async function preparePhoto(file: UploadedFile, item: Inspected, owner: string, scratch: string): Promise<Prepared> {
  const { workingLongSide } = PHOTO_BOUNDS;
  const shrink = Math.max(item.width, item.height) > workingLongSide;
  const mime: BrandMediaType = !shrink ? (item.mime as BrandMediaType) : item.mime === "image/jpeg" ? "image/jpeg" : "image/png";
  const output = join(scratch, mime === "image/jpeg" ? "working.jpg" : "working.png");
  const decoded = await decodePicture(file.path, owner, shrink ? { output, longSide: workingLongSide } : undefined);
  if (decoded === "too-large") {
    throw bad(
      `"${file.filename}" needs more memory to decode than a photo may use; scale it down (at most ${workingLongSide} px is plenty) and upload that`,
    );
  }
  if (decoded === "damaged") {
    throw bad(`"${file.filename}" could not be read as a picture (it is damaged or incomplete); export it again and upload the new file`);
  }
  if (!shrink) return { mime, path: file.path, width: item.width, height: item.height, durationSec: null, poster: null };
  const working = await readImageHeader(output);
  if (!working) throw new Error(`the working copy of "${file.filename}" could not be read back`);
  return { mime, path: output, width: working.width, height: working.height, durationSec: null, poster: null };
}
