export type { SpokenWord, SynthesisOptions, SynthesisResult, VoiceSynthesizer } from "./types.ts";
export { createEspeakSynthesizer, speakableText, VoiceError } from "./espeak.ts";
export {
  type CaptionCue,
  cueLine,
  defaultVoiceFor,
  type NarratedLine,
  type Narration,
  type NarrationStyle,
  narrate,
  narrationStyleFor,
  toWebVtt,
  writeScript,
} from "./narration.ts";
export { encodeWav, parseWav, rmsDb, speechSpan } from "./wav.ts";
