// Pixel size of a PNG, JPEG or WebP file from its header, without decoding it: the layout needs the
// logo's proportions before ffmpeg draws anything.
import { open } from "node:fs/promises";

export interface ImageSize {
  width: number;
  height: number;
}

/** The size read from the first bytes of an image, or null when they are not a PNG, JPEG or WebP header. */
export function imageSizeFromBytes(b: Uint8Array): ImageSize | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // PNG: signature, then the IHDR chunk's width and height.
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // WebP: RIFF....WEBP and a VP8 / VP8L / VP8X chunk.
  if (b.length >= 30 && String.fromCharCode(...b.subarray(0, 4)) === "RIFF" && String.fromCharCode(...b.subarray(8, 12)) === "WEBP") {
    const chunk = String.fromCharCode(...b.subarray(12, 16));
    if (chunk === "VP8 ") return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    if (chunk === "VP8L") {
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === "VP8X") {
      const w = 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16));
      const h = 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16));
      return { width: w, height: h };
    }
    return null;
  }
  // JPEG: walk the markers to the first start-of-frame.
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let at = 2;
    while (at + 9 < b.length) {
      if (b[at] !== 0xff) return null;
      const marker = b[at + 1]!;
      const length = view.getUint16(at + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
      at += 2 + length;
    }
  }
  return null;
}

/** The size of an image file (reads at most its first 64 KB). */
export async function imageSize(path: string): Promise<ImageSize | null> {
  const file = await open(path, "r");
  try {
    const buffer = new Uint8Array(65536);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return imageSizeFromBytes(buffer.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}
