// voice.*: talking to the assistant (SPEC 4.7): the voice configuration, sessions bound to a chat thread,
// a spoken turn (transcript or audio in, the reply's text and speech URL out), and the speech itself.
import {
  SpeechFileInput,
  VoiceConfig,
  VoiceProviderInput,
  VoiceSessionCreate,
  VoiceSessionQuery,
  VoiceSessionView,
  VoiceTurn,
  VoiceTurnInput,
} from "@adgen/schema";
import { z } from "zod";
import { createVoiceSession, openSpeech, voiceConfig, voiceSessionState, voiceTurn } from "../modules/assistant/voice.ts";
import { assistantCaller } from "./assistant-caller.ts";
import { defineOperation, type FileResult } from "./operation.ts";
import { signedIn } from "./signed-in.ts";

const tag = "Assistant";
const SessionState = z.object({ session: VoiceSessionView.nullable() }).meta({ title: "VoiceSessionState" });
const CreatedSession = z.object({ session: VoiceSessionView }).meta({ title: "CreatedVoiceSession" });

export const voiceOperations = {
  config: defineOperation({
    summary: "Voice configuration: whether the natural voice and speech-to-text are configured, and the voices (the offline one always)",
    access: "user",
    kind: "query",
    input: VoiceProviderInput,
    output: VoiceConfig,
    rest: { method: "GET", path: "/voice/{voiceProvider}", tag },
    handler: (ctx, input) => voiceConfig(ctx.services, input.voiceProvider),
  }),
  turn: defineOperation({
    summary: "Say something to the assistant: a transcript or audio (base64) in; the reply's text and the URL of its speech out",
    access: "user",
    kind: "mutation",
    input: VoiceTurnInput,
    output: VoiceTurn,
    rest: { method: "POST", path: "/voice/{voiceProvider}", tag, errors: { 404: "Voice session not found" } },
    handler: (ctx, input, call) => voiceTurn(ctx.services, assistantCaller(ctx, call), input, call.signal),
  }),
  session: defineOperation({
    summary: "A voice session's state (by sessionId, else your latest; null when you have none)",
    access: "user",
    kind: "query",
    input: VoiceSessionQuery,
    output: SessionState,
    rest: { method: "GET", path: "/voice/{voiceProvider}/session", tag, errors: { 404: "Voice session not found" } },
    handler: (ctx, input) => voiceSessionState(ctx.services, signedIn(ctx), input.sessionId),
  }),
  createSession: defineOperation({
    summary: "Start a voice session on a chat thread (yours, by threadId; a new one when absent)",
    access: "user",
    kind: "mutation",
    input: VoiceSessionCreate,
    output: CreatedSession,
    rest: { method: "POST", path: "/voice/{voiceProvider}/session", tag, errors: { 404: "Thread not found" } },
    handler: (ctx, input) => createVoiceSession(ctx.services, signedIn(ctx), input),
  }),
  speech: defineOperation({
    summary: "The speech (WAV) of one of your voice replies (its audioUrl)",
    access: "user",
    kind: "download",
    input: SpeechFileInput,
    output: null,
    rest: { method: "GET", path: "/chat/speech/{file}", tag, produces: ["audio/wav"], errors: { 404: "Speech not found" } },
    trpc: { none: "audio bytes: players fetch them over REST" },
    graphql: { none: "audio bytes: players fetch them over REST" },
    handler: async (ctx, input): Promise<FileResult> => {
      const speech = await openSpeech(ctx.services, signedIn(ctx), input.file);
      return {
        kind: "file",
        filename: input.file,
        contentType: "audio/wav",
        body: "",
        disposition: "inline",
        ranged: { bytes: speech.bytes, modifiedAt: speech.modifiedAt, read: (range) => ctx.services.media.read(speech.key, range) },
      };
    },
  }),
};
