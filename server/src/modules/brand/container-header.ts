// A clip's frame size from its container's own header (MP4/MOV track boxes, Matroska/WebM track entries),
// read with a few positioned reads and no decoder. ffmpeg cannot be asked first: to report a stream it
// decodes frames, and a 16000×16000 frame alone took 600 MB and 12 s. So a clip is measured here, refused
// when too large, and only then shown to ffmpeg (whose child is memory-limited in case the header lied).
import { type FileHandle, open } from "node:fs/promises";

export interface FrameSize {
  width: number;
  height: number;
}

/** The largest header this reads whole (an MP4's moov of a 60 s clip is tens of KB). */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

async function bytesAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

interface Box {
  type: string;
  /** Where the box's content starts and ends (within the buffer or file it was read from). */
  start: number;
  end: number;
}

/** The boxes in `buffer` between `from` and `to` (an MP4 box: 32-bit size, type, and a 64-bit size when 1). */
function* boxes(buffer: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    let size = buffer.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return;
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) return;
    yield { type: buffer.toString("latin1", at + 4, at + 8), start: at + header, end: at + size };
    at += size;
  }
}

const child = (buffer: Buffer, parent: Box, type: string) => [...boxes(buffer, parent.start, parent.end)].find((b) => b.type === type);

/** The video tracks' sizes in an MP4/MOV moov box: the track header's display size and the sample entry's coded size. */
function moovSizes(moov: Buffer): FrameSize[] {
  const sizes: FrameSize[] = [];
  for (const trak of boxes(moov, 0, moov.length)) {
    if (trak.type !== "trak") continue;
    const mdia = child(moov, trak, "mdia");
    const hdlr = mdia && child(moov, mdia, "hdlr");
    if (!hdlr || moov.toString("latin1", hdlr.start + 8, hdlr.start + 12) !== "vide") continue;
    const tkhd = child(moov, trak, "tkhd");
    if (tkhd) {
      const at = tkhd.start + (moov[tkhd.start] === 1 ? 88 : 76);
      if (at + 8 <= tkhd.end) sizes.push({ width: moov.readUInt32BE(at) / 65536, height: moov.readUInt32BE(at + 4) / 65536 });
    }
    const minf = child(moov, mdia, "minf");
    const stbl = minf && child(moov, minf, "stbl");
    const stsd = stbl && child(moov, stbl, "stsd");
    // A full box (4), the entry count (4), then sample entries whose width and height sit 32 bytes in.
    if (stsd) {
      for (const entry of boxes(moov, stsd.start + 8, stsd.end)) {
        const at = entry.start - 8 + 32;
        if (at + 4 <= entry.end) sizes.push({ width: moov.readUInt16BE(at), height: moov.readUInt16BE(at + 2) });
      }
    }
  }
  return sizes;
}

async function mp4Sizes(file: FileHandle, fileSize: number): Promise<FrameSize[] | null> {
  let at = 0;
  while (at + 8 <= fileSize) {
    const head = await bytesAt(file, at, 16);
    if (head.length < 8) return null;
    let size = head.readUInt32BE(0);
    let header = 8;
    if (size === 1) {
      if (head.length < 16) return null;
      size = Number(head.readBigUInt64BE(8));
      header = 16;
    } else if (size === 0) size = fileSize - at;
    if (size < header) return null;
    if (head.toString("latin1", 4, 8) === "moov") {
      if (size - header > MAX_HEADER_BYTES) return null;
      return moovSizes(await bytesAt(file, at + header, size - header));
    }
    at += size;
  }
  return null;
}

/** A Matroska variable-length integer at `at`: its value (marker bit removed unless `keepMarker`) and length. */
function vint(buffer: Buffer, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  const first = buffer[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > buffer.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + buffer[at + i]!;
    if (buffer[at + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

const SEGMENT = 0x18538067;
const TRACKS = 0x1654ae6b;
const CLUSTER = 0x1f43b675;
const TRACK_ENTRY = 0xae;
const VIDEO = 0xe0;
const SIZE_IDS = { width: [0xb0, 0x54b0], height: [0xba, 0x54ba] };

interface Element {
  id: number;
  start: number;
  end: number;
}

function* elements(buffer: Buffer, from: number, to: number): Generator<Element> {
  let at = from;
  while (at < to) {
    const id = vint(buffer, at, true);
    const size = id && vint(buffer, at + id.length, false);
    if (!id || !size) return;
    const start = at + id.length + size.length;
    // An element of unknown size (a live stream's segment) runs to the end of what was read.
    const end = size.unknown ? to : Math.min(start + size.value, to);
    yield { id: id.value, start, end };
    at = end;
  }
}

const uintOf = (buffer: Buffer, e: Element) => (e.end - e.start <= 6 ? buffer.readUIntBE(e.start, e.end - e.start || 1) : 0);

function matroskaSizes(buffer: Buffer): FrameSize[] | null {
  const segment = [...elements(buffer, 0, buffer.length)].find((e) => e.id === SEGMENT);
  if (!segment) return null;
  for (const e of elements(buffer, segment.start, segment.end)) {
    // Frames come after the tracks: a cluster first means a header this does not understand.
    if (e.id === CLUSTER) return null;
    if (e.id !== TRACKS) continue;
    const sizes: FrameSize[] = [];
    for (const entry of elements(buffer, e.start, e.end)) {
      if (entry.id !== TRACK_ENTRY) continue;
      const video = [...elements(buffer, entry.start, entry.end)].find((v) => v.id === VIDEO);
      if (!video) continue;
      const size = { width: 0, height: 0 };
      for (const field of elements(buffer, video.start, video.end)) {
        if (SIZE_IDS.width.includes(field.id)) size.width = Math.max(size.width, uintOf(buffer, field));
        if (SIZE_IDS.height.includes(field.id)) size.height = Math.max(size.height, uintOf(buffer, field));
      }
      sizes.push(size);
    }
    return sizes;
  }
  return null;
}

/**
 * The largest frame any video track of an MP4, MOV, WebM or Matroska file declares (the larger of each side
 * over the track's sizes), or null when its header gives no video size.
 */
export async function readContainerFrameSize(path: string): Promise<FrameSize | null> {
  const file = await open(path, "r");
  try {
    const fileSize = (await file.stat()).size;
    const head = await bytesAt(file, 0, 12);
    let sizes: FrameSize[] | null = null;
    if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) {
      sizes = matroskaSizes(await bytesAt(file, 0, Math.min(fileSize, MAX_HEADER_BYTES)));
    } else if (head.length >= 8 && ["ftyp", "moov", "mdat", "wide", "free", "skip"].includes(head.toString("latin1", 4, 8))) {
      sizes = await mp4Sizes(file, fileSize);
    }
    const found = (sizes ?? []).filter((s) => s.width > 0 && s.height > 0);
    if (!found.length) return null;
    return { width: Math.max(...found.map((s) => s.width)), height: Math.max(...found.map((s) => s.height)) };
  } finally {
    await file.close();
  }
}
