// Speech synthesis behind one interface: the built-in offline voice (eSpeak NG in WebAssembly) and, later, a
// remote voice provider fill the same contract, so the pipeline and the tests never know which one spoke.

/** One spoken word and when it is heard, in seconds from the start of the WAV. */
export interface SpokenWord {
  text: string;
  startSec: number;
  endSec: number;
}

export interface SynthesisOptions {
  /** A voice name the synthesizer knows (the built-in one: eSpeak NG names such as `en-us`, `en-us+f3`). */
  voice: string;
  /** Words per minute (80–450); the synthesizer's default when absent. */
  wordsPerMinute?: number;
  /** Where to write the WAV; a fresh file in the OS temporary folder when absent. */
  outPath?: string;
  signal?: AbortSignal;
}

export interface SynthesisResult {
  /** A 16-bit PCM mono WAV. */
  wavPath: string;
  /** Length of the WAV. */
  durationSec: number;
  /** Sample rate of the WAV. */
  sampleRate: number;
  /** When speech is heard inside the WAV (the WAV may carry a little silence around it). */
  speech: { startSec: number; endSec: number };
  /**
   * Each word of `text` in order, with when it is heard: eSpeak NG measures them from its own audio
   * (word-timing.ts); a synthesizer with no way to tell may estimate them inside the speech span.
   */
  words: SpokenWord[];
}

export interface VoiceSynthesizer {
  readonly name: string;
  synthesize(text: string, options: SynthesisOptions): Promise<SynthesisResult>;
  /** Releases engine resources (worker threads); safe to call more than once. */
  close?(): Promise<void>;
}
