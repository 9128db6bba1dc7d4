// What an uploaded file really is: its type from its first bytes (a renamed .exe is not a PNG), its pixel
// size from its header (read with a few small positioned reads, before anything is decoded, so a huge or
// hostile image is refused without being expanded in memory), and whether it decodes at all (ffmpeg, in
// its own memory-limited process and its turn of the media pool, so a broken or bomb-like picture cannot
// take the server down with it), with a downscaled working copy made by the same run.
import { type FileHandle, open } from "node:fs/promises";
import type { BrandMediaType } from "@adgen/schema";
import { runLimited } from "../../media/limited-child.ts";
import { mediaChildMemoryBytes, mediaPool, type MediaOwner } from "../../media/media-work.ts";
import { locateFfmpeg } from "../render/ffmpeg.ts";

export interface ImageHeader {
  mime: BrandMediaType;
  width: number;
  height: number;
  /** Animated WebP (the studio shows still pictures). */
  animated: boolean;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function bytesAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function pngHeader(head: Buffer): ImageHeader | null {
  if (head.length < 24 || head.toString("latin1", 12, 16) !== "IHDR") return null;
  return { mime: "image/png", width: head.readUInt32BE(16), height: head.readUInt32BE(20), animated: false };
}

/** SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks the JPEG's segments (skipping EXIF, ICC profiles, …) to the first start-of-frame. */
async function jpegHeader(file: FileHandle, size: number): Promise<ImageHeader | null> {
  let position = 2;
  for (let segments = 0; segments < 1000 && position + 4 <= size; segments += 1) {
    const marker = await bytesAt(file, position, 4);
    if (marker[0] !== 0xff) return null;
    const code = marker[1]!;
    // Fill bytes and markers without a length (TEM, RSTn).
    if (code === 0xff) {
      position += 1;
      continue;
    }
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      position += 2;
      continue;
    }
    if (code === 0xd9 || code === 0xda) return null;
    if (isStartOfFrame(code)) {
      const frame = await bytesAt(file, position + 5, 4);
      if (frame.length < 4) return null;
      return { mime: "image/jpeg", height: frame.readUInt16BE(0), width: frame.readUInt16BE(2), animated: false };
    }
    position += 2 + marker.readUInt16BE(2);
  }
  return null;
}

function webpHeader(head: Buffer): ImageHeader | null {
  if (head.length < 30) return null;
  const chunk = head.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    // A key frame: start code 9d 01 2a, then 14-bit width and height.
    if (head[23] !== 0x9d || head[24] !== 0x01 || head[25] !== 0x2a) return null;
    return { mime: "image/webp", width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff, animated: false };
  }
  if (chunk === "VP8L") {
    if (head[20] !== 0x2f) return null;
    const bits = head.readUInt32LE(21);
    return { mime: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, animated: false };
  }
  if (chunk === "VP8X") {
    return {
      mime: "image/webp",
      width: head.readUIntLE(24, 3) + 1,
      height: head.readUIntLE(27, 3) + 1,
      animated: (head[20]! & 0x02) !== 0,
    };
  }
  return null;
}

/** The image's type and size from its content, or null when it is not a PNG, JPEG or WebP image. */
export async function readImageHeader(path: string): Promise<ImageHeader | null> {
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    const head = await bytesAt(file, 0, 32);
    if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return pngHeader(head);
    if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return await jpegHeader(file, size);
    if (head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP") return webpHeader(head);
    return null;
  } finally {
    await file.close();
  }
}

const DECODE_TIMEOUT_MS = 20_000;

export type PictureDecode = "ok" | "damaged" | "too-large";

/**
 * Decodes the whole picture in an ffmpeg child (memory-limited, in `owner`'s turn of the media pool): "ok"
 * when it decodes without an error, "damaged" when a valid header hides a truncated or corrupt body (not an
 * image an ad can show: ffmpeg stops at the first decoding error), "too-large" when decoding it needs more
 * memory than a media child may use. With `shrink`, the same run writes a copy whose long side is at most
 * `shrink.longSide` px (smaller ones keep their size) to `shrink.output` (PNG or JPEG, by its name's ending).
 */
export function decodePicture(path: string, owner: MediaOwner, shrink?: { output: string; longSide: number }): Promise<PictureDecode> {
  return mediaPool().run(owner, async () => {
    // Scaled only when larger, keeping the proportions (each side rounded, as a canvas would).
    const factor = `min(1,${shrink?.longSide}/max(iw,ih))`;
    const scale = `scale=w='max(1,round(iw*${factor}))':h='max(1,round(ih*${factor}))':flags=area`;
    const output = shrink
      ? ["-vf", scale, ...(/\.jpe?g$/i.test(shrink.output) ? ["-q:v", "2"] : []), "-y", shrink.output]
      : ["-f", "null", "-"];
    const args = [
      "-hide_banner",
      "-nostdin",
      "-v",
      "error",
      "-threads",
      "1",
      "-err_detect",
      "explode",
      "-xerror",
      "-i",
      path,
      "-frames:v",
      "1",
      ...output,
    ];
    const run = await runLimited(locateFfmpeg(), args, { memoryBytes: mediaChildMemoryBytes(), timeoutMs: DECODE_TIMEOUT_MS });
    if (run.outOfMemory) return "too-large";
    return run.code === 0 ? "ok" : "damaged";
  });
}

/** True when the whole picture decodes without an error (see decodePicture). */
export async function decodesCleanly(path: string, owner: MediaOwner = "pictures"): Promise<boolean> {
  return (await decodePicture(path, owner)) === "ok";
}
