// 16-bit PCM WAV reading and writing, and where speech is inside a clip. Pure; no engine here.

export interface Pcm {
  sampleRate: number;
  /** Mono samples (a multi-channel file is mixed down). */
  samples: Int16Array;
}

/** Parses a RIFF/WAVE file with 16-bit PCM data (chunk by chunk; sizes written as 0 by streaming encoders are tolerated). */
export function parseWav(bytes: Uint8Array): Pcm {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 12 || buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE")
    throw new Error("not a WAV file");
  let offset = 12;
  let channels = 1;
  let sampleRate = 0;
  let bits = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString("ascii", offset, offset + 4);
    let size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      if (buf.readUInt16LE(body) !== 1) throw new Error("WAV is not PCM");
      channels = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bits = buf.readUInt16LE(body + 14);
    } else if (id === "data") {
      if (bits !== 16 || !sampleRate) throw new Error("WAV is not 16-bit PCM");
      if (size === 0 || body + size > buf.length) size = buf.length - body;
      const frames = Math.floor(size / (2 * channels));
      const samples = new Int16Array(frames);
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += buf.readInt16LE(body + 2 * (i * channels + c));
        samples[i] = Math.round(sum / channels);
      }
      return { sampleRate, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error("WAV has no data chunk");
}

export function encodeWav(pcm: Pcm): Buffer {
  const data = pcm.samples.length * 2;
  const buf = Buffer.alloc(44 + data);
  buf.write("RIFF", 0, "ascii");
  buf.writeUInt32LE(36 + data, 4);
  buf.write("WAVE", 8, "ascii");
  buf.write("fmt ", 12, "ascii");
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(pcm.sampleRate, 24);
  buf.writeUInt32LE(pcm.sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36, "ascii");
  buf.writeUInt32LE(data, 40);
  Buffer.from(pcm.samples.buffer, pcm.samples.byteOffset, data).copy(buf, 44);
  return buf;
}

/** First and last moment the clip is louder than about −35 dBFS (10 ms windows); null for silence. */
export function speechSpan(pcm: Pcm): { startSec: number; endSec: number } | null {
  const win = Math.max(1, Math.round(pcm.sampleRate / 100));
  const threshold = 32768 * 10 ** (-35 / 20);
  let first = -1;
  let last = -1;
  for (let start = 0; start < pcm.samples.length; start += win) {
    let sum = 0;
    const end = Math.min(pcm.samples.length, start + win);
    for (let i = start; i < end; i++) sum += pcm.samples[i]! * pcm.samples[i]!;
    if (Math.sqrt(sum / (end - start)) > threshold) {
      if (first < 0) first = start;
      last = end;
    }
  }
  return first < 0 ? null : { startSec: first / pcm.sampleRate, endSec: last / pcm.sampleRate };
}

/** Root-mean-square level of the clip in dBFS (−∞ for digital silence). */
export function rmsDb(pcm: Pcm): number {
  let sum = 0;
  for (const s of pcm.samples) sum += s * s;
  return 20 * Math.log10(Math.sqrt(sum / Math.max(1, pcm.samples.length)) / 32768);
}

/**
 * Spreads `words` over the speech span in proportion to how long each takes to say (letters, plus the pause
 * punctuation asks for). An estimate for engines that report no word timing.
 */
export function estimateWordTimings(words: string[], span: { startSec: number; endSec: number }) {
  const weight = (w: string) => {
    const letters = w.replace(/[^\p{L}\p{N}]/gu, "").length;
    const digits = w.replace(/[^\p{N}]/gu, "").length;
    const pause = /[.!?…]$/.test(w) ? 4 : /[,;:\u2013\u2014]$/.test(w) ? 2.5 : 0;
    return 1.5 + letters + 2 * digits + pause;
  };
  const weights = words.map(weight);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const length = Math.max(0, span.endSec - span.startSec);
  let at = span.startSec;
  return words.map((text, i) => {
    const share = (weights[i]! / total) * length;
    // The pause after punctuation belongs to the gap, not to the word.
    const pauseShare = /[.!?…]$/.test(text) ? (4 / weights[i]!) * share : /[,;:]$/.test(text) ? (2.5 / weights[i]!) * share : 0;
    const word = { text, startSec: at, endSec: at + share - pauseShare };
    at += share;
    return word;
  });
}
