// The music bed under every ad, synthesized in-process (so it is licence-free) as 16-bit stereo PCM.
// It used to be an ffmpeg `aevalsrc` expression: evaluating that per sample took 1.1 s of the render's
// single filter thread for 15 s of sound, longer than all the video filters together; here it takes a few ms.
// Each mood has several beds (progression, key, tempo, layers), and an ad's seed picks one, transposes it and
// nudges its tempo, so two ads of one mood do not share one file.
import type { MusicMood, Storyboard } from "./types.ts";

export const BED_SAMPLE_RATE = 44100;

interface BedStyle {
  /** The progression, as MIDI notes per chord (lowest first); each chord lasts `chordBeats` beats, crossfading into the next. */
  chords: number[][];
  chordBeats: number;
  bpm: number;
  /** How much the pulse swells each beat (0 = a steady pad), and how fast it decays. */
  pulse: number;
  decay: number;
  /** A plucked arpeggio over the pad: its level, 0 for none. */
  pluck: number;
  /** A soft low thump on every beat, its level. */
  thump: number;
  /** A bass note (the chord's root an octave down) on every other beat, its level. */
  bass: number;
  /** Each chord's root (MIDI), when the voicing does not start on it. */
  roots?: number[];
}

// Chord shapes in semitones over the root.
const MAJ = [0, 4, 7, 12];
const MIN = [0, 3, 7, 12];
const MAJ7 = [0, 7, 11, 16, 19];
const MIN9 = [0, 7, 14, 15, 19];
const SUS2 = [0, 7, 12, 14];
const at = (root: number, shape: number[]) => shape.map((s) => root + s);

/** Each mood's beds: the first is the mood's classic one; the seed picks among them. */
const BEDS: Record<MusicMood, BedStyle[]> = {
  calm: [
    // C major ↔ A minor, gentle swell at 100 bpm.
    { chords: [at(48, MAJ), at(45, MIN)], chordBeats: 13, bpm: 100, pulse: 0.25, decay: 4, pluck: 0, thump: 0, bass: 0 },
    // F – C – G – A minor, slower, with a soft bass.
    {
      chords: [at(41, MAJ), at(48, MAJ), at(43, MAJ), at(45, MIN)],
      chordBeats: 8,
      bpm: 88,
      pulse: 0.15,
      decay: 3,
      pluck: 0,
      thump: 0,
      bass: 0.05,
    },
    // D sus2 – B minor – G major, a sparse pluck.
    { chords: [at(50, SUS2), at(47, MIN), at(43, MAJ)], chordBeats: 8, bpm: 94, pulse: 0.2, decay: 5, pluck: 0.025, thump: 0, bass: 0 },
  ],
  energetic: [
    // G major ↔ E minor at 124 bpm, a strong pulse, a low thump and a bright arpeggio.
    { chords: [at(43, MAJ), at(40, MIN)], chordBeats: 8, bpm: 124, pulse: 0.55, decay: 7, pluck: 0.05, thump: 0.16, bass: 0 },
    // A – F♯ minor – D – E at 128 bpm, driving bass and thump.
    {
      chords: [at(45, MAJ), at(42, MIN), at(50, MAJ), at(52, MAJ)],
      chordBeats: 4,
      bpm: 128,
      pulse: 0.5,
      decay: 8,
      pluck: 0,
      thump: 0.14,
      bass: 0.08,
    },
    // C minor – A♭ – E♭ – B♭ at 120 bpm, arpeggio and bass.
    {
      chords: [at(48, MIN), at(44, MAJ), at(51, MAJ), at(46, MAJ)],
      chordBeats: 4,
      bpm: 120,
      pulse: 0.45,
      decay: 6,
      pluck: 0.05,
      thump: 0.1,
      bass: 0.06,
    },
  ],
  luxurious: [
    // D minor 9 ↔ B♭ major 7, slow and wide, no beat.
    { chords: [at(38, MIN9), at(34, MAJ7)], chordBeats: 10, bpm: 60, pulse: 0, decay: 1, pluck: 0, thump: 0, bass: 0 },
    // E♭ major 7 ↔ C minor 9, slower still.
    { chords: [at(39, MAJ7), at(36, MIN9)], chordBeats: 8, bpm: 54, pulse: 0.1, decay: 1, pluck: 0, thump: 0, bass: 0.04 },
    // A minor 9 – F major 7 – G sus2, a rare high pluck.
    { chords: [at(45, MIN9), at(41, MAJ7), at(43, SUS2)], chordBeats: 6, bpm: 66, pulse: 0.08, decay: 2, pluck: 0.02, thump: 0, bass: 0 },
  ],
  playful: [
    // F major ↔ D minor at 116 bpm with a bouncing arpeggio.
    { chords: [at(53, MAJ), at(50, MIN)], chordBeats: 8, bpm: 116, pulse: 0.4, decay: 9, pluck: 0.07, thump: 0, bass: 0 },
    // C – G – A minor – F at 120 bpm, arpeggio and bass.
    {
      chords: [at(48, MAJ), at(43, MAJ), at(45, MIN), at(41, MAJ)],
      chordBeats: 4,
      bpm: 120,
      pulse: 0.35,
      decay: 10,
      pluck: 0.06,
      thump: 0,
      bass: 0.05,
    },
    // B♭ – G minor – E♭ – F at 108 bpm, arpeggio and a light thump.
    {
      chords: [at(46, MAJ), at(43, MIN), at(51, MAJ), at(53, MAJ)],
      chordBeats: 4,
      bpm: 108,
      pulse: 0.4,
      decay: 8,
      pluck: 0.06,
      thump: 0.06,
      bass: 0,
    },
  ],
  warm: [
    // A major ↔ F♯ minor at 84 bpm, soft plucks like a guitar.
    { chords: [at(45, MAJ), at(42, MIN)], chordBeats: 11, bpm: 84, pulse: 0.2, decay: 3, pluck: 0.04, thump: 0, bass: 0 },
    // E – C♯ minor – A – B at 80 bpm with a bass.
    {
      chords: [at(40, MAJ), at(37, MIN), at(45, MAJ), at(47, MAJ)],
      chordBeats: 4,
      bpm: 80,
      pulse: 0.2,
      decay: 3,
      pluck: 0.03,
      thump: 0,
      bass: 0.05,
    },
    // D – B minor – G at 90 bpm, a steadier pad.
    { chords: [at(50, MAJ), at(47, MIN), at(43, MAJ)], chordBeats: 6, bpm: 90, pulse: 0.1, decay: 2, pluck: 0.035, thump: 0, bass: 0.03 },
  ],
};

/** How many beds a mood has (the seed picks one). */
export const bedVariants = (mood: MusicMood) => (BEDS[mood] ?? BEDS.calm).length;

/**
 * An ad's seed: its title (or, without one, its opening line) and brand, so two ads get different beds and
 * the formats of one ad share one. A reviewer's edit of a later scene's words keeps the ad's music, and its
 * sound track comes from the cache.
 */
export function bedSeed(storyboard: Storyboard): string {
  return [storyboard.title || storyboard.scenes[0]?.headline || "", storyboard.brand.name].join("\n");
}

/** FNV-1a over the seed, then murmur3's finaliser so every bit of the result depends on every character. */
function hash(seed: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The bed for `seed`: one of the mood's beds, moved by −3…+3 semitones, ±6 % in tempo, and in half of the
 * cases voiced with each chord's lowest note an octave up (a brighter, closer pad): 84 beds per mood.
 */
function pickBed(mood: MusicMood, seed: string): BedStyle {
  const beds = BEDS[mood] ?? BEDS.calm;
  if (!seed) return beds[0]!;
  const h = hash(seed);
  const bed = beds[h % beds.length]!;
  const shift = ((h >>> 8) % 7) - 3;
  const tempo = 1 + (((h >>> 16) % 9) - 4) * 0.015;
  const inverted = ((h >>> 24) & 1) === 1;
  const voice = (chord: number[]) => (inverted ? [...chord.slice(1), chord[0]! + 12] : chord).map((n) => n + shift);
  return { ...bed, chords: bed.chords.map(voice), roots: bed.chords.map((c) => c[0]! + shift), bpm: bed.bpm * tempo };
}

/** Seconds per beat of the bed `seed` picks for `mood`: the grid the motion engine cuts on. */
export function beatSeconds(mood: MusicMood = "calm", seed = ""): number {
  return 60 / pickBed(mood, seed).bpm;
}

const TAU = 2 * Math.PI;
const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);
const smooth = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x));

/**
 * The bed as samples: the progression's chords crossfading, a pulse on the beat, and for some beds a plucked
 * arpeggio (one note of the current chord per beat, two octaves up), a bass and a low thump. Continuous sines
 * with smooth envelopes, so no clicks; faded in and out. Quiet (about −25 dB mean): the mix is normalised later.
 * `seed` (e.g. a hash of the ad) picks the bed; "" gives the mood's classic one.
 */
export function bedSamples(
  durationSec: number,
  mood: MusicMood = "calm",
  seed = "",
  rate = BED_SAMPLE_RATE,
  beatSec?: number,
): Float32Array {
  const picked = pickBed(mood, seed);
  // The motion engine's grid (beat-grid.ts) may set the tempo, so the ad ends on a downbeat.
  const bed = beatSec ? { ...picked, bpm: 60 / beatSec } : picked;
  const count = Math.max(0, Math.round(durationSec * rate));
  const out = new Float32Array(count);
  const beat = 60 / bed.bpm;
  const chordSec = beat * bed.chordBeats;
  const chords = bed.chords.map((c) => ({ freqs: c.map(hz), gains: c.map((_, i) => 0.1 / (1 + i * 0.3)) }));
  const roots = (bed.roots ?? bed.chords.map((c) => c[0]!)).map(hz);
  // The thump is tuned to the key: the first chord's root, taken down into 40–80 Hz.
  let thumpHz = roots[0]!;
  while (thumpHz >= 80) thumpHz /= 2;
  const fadeIn = Math.min(0.8, durationSec / 4);
  const fadeOut = Math.min(1.2, durationSec / 3);
  const fadeOutStart = durationSec - fadeOut;
  // The last third of each chord blends into the next.
  const blend = Math.min(2.5, chordSec / 3);
  const pad = (index: number, t: number) => {
    const { freqs, gains } = chords[index % chords.length]!;
    let v = 0;
    for (let i = 0; i < freqs.length; i++) v += gains[i]! * Math.sin(TAU * freqs[i]! * t);
    return v;
  };
  for (let n = 0; n < count; n++) {
    const t = n / rate;
    const index = Math.floor(t / chordSec);
    const w = smooth((t - index * chordSec - (chordSec - blend)) / blend);
    const current = chords[index % chords.length]!.freqs;
    let v = (1 - w) * pad(index, t) + (w > 0 ? w * pad(index + 1, t) : 0);
    const inBeat = t % beat;
    const beatNo = Math.floor(t / beat);
    v *= 1 - bed.pulse + bed.pulse * Math.exp(-bed.decay * inBeat);
    if (bed.pluck > 0) {
      const freq = 2 * hz(bed.chords[index % chords.length]![beatNo % current.length]!);
      v += bed.pluck * Math.sin(TAU * freq * t) * Math.exp(-12 * inBeat) * Math.min(1, inBeat * 200);
    }
    if (bed.bass > 0 && beatNo % 2 === 0) {
      v += bed.bass * Math.sin(((TAU * roots[index % roots.length]!) / 2) * t) * Math.exp(-3 * inBeat) * Math.min(1, inBeat * 100);
    }
    if (bed.thump > 0) v += bed.thump * Math.sin(TAU * thumpHz * t) * Math.exp(-18 * inBeat) * Math.min(1, inBeat * 300);
    if (t < fadeIn) v *= t / fadeIn;
    if (t > fadeOutStart) v *= Math.max(0, (durationSec - t) / fadeOut);
    out[n] = v;
  }
  return out;
}

/** The bed as a 16-bit stereo WAV file's bytes. */
export function bedWav(durationSec: number, mood: MusicMood = "calm", seed = "", beatSec?: number): Buffer {
  const samples = bedSamples(durationSec, mood, seed, BED_SAMPLE_RATE, beatSec);
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
