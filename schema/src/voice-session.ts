// Talking to the assistant (SPEC 4.7 voice): the voice configuration, sessions bound to a chat thread,
// and one spoken turn (a transcript or audio in; the reply's text and the URL of its speech out).
import { z } from "zod";
import { IsoDateTime } from "./common.ts";
import { CHAT_MESSAGE_MAX } from "./assistant.ts";

export const VOICE_PROVIDERS = ["elevenlabs"] as const;
export const VoiceProvider = z.enum(VOICE_PROVIDERS, { error: `The voice provider must be one of ${VOICE_PROVIDERS.join(", ")}` });

export const VoiceProviderInput = z.object({ voiceProvider: VoiceProvider });

export const VoiceOption = z
  .object({
    id: z.string(),
    name: z.string(),
    /** `builtin`: the offline synthesizer, always there; `natural`: the remote voice, with its key. */
    kind: z.enum(["builtin", "natural"]),
    available: z.boolean(),
  })
  .meta({ title: "VoiceOption" });

export const VoiceConfig = z
  .object({
    provider: VoiceProvider,
    configured: z.boolean(),
    /** Whether audio can be sent (speech-to-text needs the provider's key). */
    speechToText: z.boolean(),
    defaultVoice: z.string(),
    voices: z.array(VoiceOption),
  })
  .meta({ title: "VoiceConfig" });
export type VoiceConfig = z.infer<typeof VoiceConfig>;

export const VoiceSessionView = z
  .object({
    id: z.string(),
    provider: VoiceProvider,
    threadId: z.string(),
    voice: z.string(),
    turns: z.number().int(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ title: "VoiceSession" });
export type VoiceSessionView = z.infer<typeof VoiceSessionView>;

export const VoiceSessionQuery = VoiceProviderInput.extend({
  sessionId: z.string({ error: "sessionId must be the id of one of your voice sessions" }).trim().min(1).max(100).optional(),
});

export const VoiceSessionCreate = VoiceProviderInput.extend({
  /** Continue this chat thread; a new thread when absent. */
  threadId: z.string({ error: "threadId must be the id of one of your threads" }).trim().min(1).max(100).optional(),
  voice: z.string({ error: "voice must be one of the voices GET /api/voice/elevenlabs lists" }).trim().min(1).max(100).optional(),
});

/** About 45 s of 16-bit mono audio at 16 kHz, base64 (the API body limit is 1 MB). */
const AUDIO_BASE64_MAX = 900_000;

export const VoiceTurnInput = VoiceProviderInput.extend({
  sessionId: z.string({ error: "sessionId must be the id of one of your voice sessions" }).trim().min(1).max(100).optional(),
  transcript: z
    .string({ error: "transcript must be text" })
    .trim()
    .min(1, { error: "transcript must not be empty" })
    .max(CHAT_MESSAGE_MAX, { error: `transcript must be at most ${CHAT_MESSAGE_MAX} characters` })
    .optional(),
  /** Recorded speech, base64 (WAV, WebM, MP3 or OGG). */
  audio: z
    .string({ error: "audio must be base64 text" })
    .max(AUDIO_BASE64_MAX, { error: "audio is too long: send at most about 45 seconds" })
    .regex(/^[A-Za-z0-9+/=\s]+$/, { error: "audio must be base64" })
    .optional(),
  audioType: z.string().max(100).optional(),
}).refine((v) => Boolean(v.transcript) !== Boolean(v.audio), {
  error: "Send either a transcript or audio (one of them)",
  path: ["transcript"],
});

export const VoiceTurn = z
  .object({
    sessionId: z.string(),
    threadId: z.string(),
    transcript: z.string(),
    reply: z.string(),
    /** Where the reply's speech (WAV) is served to you. */
    audioUrl: z.string(),
    voice: z.string(),
    durationSec: z.number(),
  })
  .meta({ title: "VoiceTurn" });
export type VoiceTurn = z.infer<typeof VoiceTurn>;

/** A voice reply's speech file, as its `audioUrl` names it. */
export const SpeechFileInput = z.object({ file: z.string().min(1).max(100) });
