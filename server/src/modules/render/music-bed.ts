// The music bed under every ad, synthesized in-process (so it is licence-free) as 16-bit stereo PCM.
// It used to be an ffmpeg `aevalsrc` expression: evaluating that per sample took 1.1 s of the render's
// single filter thread for 15 s of sound, longer than all the video filters together; here it takes a few ms.
import type { MusicMood } from "./types.ts";

export const BED_SAMPLE_RATE = 44100;

interface BedStyle {
  /** Two chords (Hz) crossfading over `swapSec`. */
  chords: [number[], number[]];
  swapSec: number;
  bpm: number;
  /** How much the pulse swells each beat (0 = a steady pad), and how fast it decays. */
  pulse: number;
  decay: number;
  /** A plucked arpeggio over the pad (playful, energetic): its level, 0 for none. */
  pluck: number;
  /** A soft low thump on every beat (energetic), its level. */
  thump: number;
}

/** Each mood's harmony and rhythm. */
const BEDS: Record<MusicMood, BedStyle> = {
  // C major ↔ A minor, gentle swell at 100 bpm: the default.
  calm: {
    chords: [
      [130.81, 164.81, 196.0, 261.63],
      [110.0, 130.81, 164.81, 220.0],
    ],
    swapSec: 8,
    bpm: 100,
    pulse: 0.25,
    decay: 4,
    pluck: 0,
    thump: 0,
  },
  // G major ↔ E minor at 124 bpm, a strong pulse, a low thump and a bright arpeggio.
  energetic: {
    chords: [
      [98.0, 123.47, 146.83, 196.0],
      [82.41, 98.0, 123.47, 164.81],
    ],
    swapSec: 4,
    bpm: 124,
    pulse: 0.55,
    decay: 7,
    pluck: 0.05,
    thump: 0.16,
  },
  // D minor 9 ↔ B♭ major 7, slow and wide, no beat.
  luxurious: {
    chords: [
      [73.42, 146.83, 174.61, 220.0, 329.63],
      [58.27, 116.54, 146.83, 174.61, 220.0],
    ],
    swapSec: 10,
    bpm: 60,
    pulse: 0,
    decay: 1,
    pluck: 0,
    thump: 0,
  },
  // F major ↔ D minor at 116 bpm with a bouncing arpeggio.
  playful: {
    chords: [
      [174.61, 220.0, 261.63, 349.23],
      [146.83, 174.61, 220.0, 293.66],
    ],
    swapSec: 4,
    bpm: 116,
    pulse: 0.4,
    decay: 9,
    pluck: 0.07,
    thump: 0,
  },
  // A major ↔ F♯ minor at 84 bpm, soft plucks like a guitar.
  warm: {
    chords: [
      [110.0, 138.59, 164.81, 220.0],
      [92.5, 110.0, 138.59, 185.0],
    ],
    swapSec: 8,
    bpm: 84,
    pulse: 0.2,
    decay: 3,
    pluck: 0.04,
    thump: 0,
  },
};

const TAU = 2 * Math.PI;

/**
 * The bed as samples: two chords crossfading, a pulse on the beat, and for some moods a plucked arpeggio
 * (one note of the current chord per beat, two octaves up) and a low thump. Continuous sines with smooth
 * envelopes, so no clicks; faded in and out. Quiet: about −25 dB mean, −15 dB peak.
 */
export function bedSamples(durationSec: number, mood: MusicMood = "calm", rate = BED_SAMPLE_RATE): Float32Array {
  const bed = BEDS[mood] ?? BEDS.calm;
  const count = Math.max(0, Math.round(durationSec * rate));
  const out = new Float32Array(count);
  const beat = 60 / bed.bpm;
  const gains = (freqs: number[]) => freqs.map((_, i) => 0.1 / (1 + i * 0.3));
  const [first, second] = bed.chords;
  const firstGains = gains(first);
  const secondGains = gains(second);
  const fadeIn = Math.min(0.8, durationSec / 4);
  const fadeOut = Math.min(1.2, durationSec / 3);
  const fadeOutStart = durationSec - fadeOut;
  for (let n = 0; n < count; n++) {
    const t = n / rate;
    const w = Math.sin((Math.PI * t) / bed.swapSec) ** 2;
    let a = 0;
    for (let i = 0; i < first.length; i++) a += firstGains[i]! * Math.sin(TAU * first[i]! * t);
    let b = 0;
    for (let i = 0; i < second.length; i++) b += secondGains[i]! * Math.sin(TAU * second[i]! * t);
    const inBeat = t % beat;
    let v = (w * a + (1 - w) * b) * (1 - bed.pulse + bed.pulse * Math.exp(-bed.decay * inBeat));
    if (bed.pluck > 0) {
      const k = Math.floor(t / beat) % 4;
      const freq = 2 * (w < 0.5 ? second[k % second.length]! : first[k % first.length]!);
      v += bed.pluck * Math.sin(TAU * freq * t) * Math.exp(-12 * inBeat) * Math.min(1, inBeat * 200);
    }
    if (bed.thump > 0) v += bed.thump * Math.sin(TAU * 55 * t) * Math.exp(-18 * inBeat) * Math.min(1, inBeat * 300);
    if (t < fadeIn) v *= t / fadeIn;
    if (t > fadeOutStart) v *= Math.max(0, (durationSec - t) / fadeOut);
    out[n] = v;
  }
  return out;
}

/** The bed as a 16-bit stereo WAV file's bytes. */
export function bedWav(durationSec: number, mood: MusicMood = "calm"): Buffer {
  const samples = bedSamples(durationSec, mood);
  const channels = 2;
  const dataBytes = samples.length * channels * 2;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write("WAVEfmt ", 8, "ascii");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(BED_SAMPLE_RATE, 24);
  wav.writeUInt32LE(BED_SAMPLE_RATE * channels * 2, 28);
  wav.writeUInt16LE(channels * 2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(dataBytes, 40);
  let at = 44;
  for (const sample of samples) {
    const value = Math.round(Math.max(-1, Math.min(1, sample)) * 32767);
    wav.writeInt16LE(value, at);
    wav.writeInt16LE(value, at + 2);
    at += 4;
  }
  return wav;
}
