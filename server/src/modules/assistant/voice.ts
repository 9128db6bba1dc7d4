// Talking to the assistant: the voice configuration, voice sessions (each bound to a chat thread), and a
// spoken turn: a transcript (or audio, through speech-to-text) goes to the assistant on the session's
// thread, and its reply is spoken by the built-in offline synthesizer or, when configured and chosen,
// the natural voice. The WAV is kept under media and served only to the session's owner.
import { randomUUID } from "node:crypto";
import { type VoiceConfig, type VoiceSessionView, type VoiceTurn, VoiceTurnInput } from "@adgen/schema";
import type { VoiceSession } from "@adgen/prisma";
import type { z } from "zod";
import type { Services } from "../../request-context.ts";
import type { AssistantAccount, AssistantUser } from "./assistant-user.ts";
import { AppError, Errors, parseInput } from "../../errors.ts";
import { speakableText } from "../voice/espeak.ts";
import { askAssistant } from "./agent.ts";
import { transcribe } from "./speech-to-text.ts";
import { createThread, findOwnThread } from "./threads.ts";

const BUILTIN_VOICES = [
  { id: "en-us", name: "Studio voice (offline)" },
  { id: "en-us+f3", name: "Studio voice, higher (offline)" },
];
const NATURAL_PREFIX = "natural-";
/** What is spoken of a long reply: its first sentences, up to this many characters (the text has it all). */
const SPOKEN_MAX = 700;

export function voiceConfig(services: Services, provider: "elevenlabs"): VoiceConfig {
  const configured = Boolean(services.config.providers.elevenLabsKey && services.providers.voice);
  return {
    provider,
    configured,
    speechToText: Boolean(services.config.providers.elevenLabsKey),
    defaultVoice: configured ? `${NATURAL_PREFIX}en-us` : "en-us",
    voices: [
      ...BUILTIN_VOICES.map((v) => ({ ...v, kind: "builtin" as const, available: true })),
      ...BUILTIN_VOICES.map((v) => ({
        id: `${NATURAL_PREFIX}${v.id}`,
        name: v.name.replace("Studio voice", "Natural voice").replace(" (offline)", ""),
        kind: "natural" as const,
        available: configured,
      })),
    ],
  };
}

const toView = (s: VoiceSession): VoiceSessionView => ({
  id: s.id,
  provider: "elevenlabs",
  threadId: s.threadId,
  voice: s.voice,
  turns: s.turns,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

async function findOwnSession(services: Services, user: AssistantAccount, sessionId: string): Promise<VoiceSession> {
  const session = await services.prisma.voiceSession.findUnique({ where: { id: sessionId } });
  if (!session || session.userId !== user.id) throw Errors.notFound("Voice session");
  return session;
}

/** A session's state; without an id, the account's latest session (null when it has none). */
export async function voiceSessionState(services: Services, user: AssistantAccount, sessionId: string | undefined) {
  if (sessionId) return { session: toView(await findOwnSession(services, user, sessionId)) };
  const latest = await services.prisma.voiceSession.findFirst({
    where: { userId: user.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return { session: latest ? toView(latest) : null };
}

export async function createVoiceSession(
  services: Services,
  user: AssistantAccount,
  input: { threadId?: string | undefined; voice?: string | undefined },
) {
  const config = voiceConfig(services, "elevenlabs");
  const voice = input.voice ?? config.defaultVoice;
  const option = config.voices.find((v) => v.id === voice);
  if (!option) throw new AppError("BAD_REQUEST", `voice must be one of ${config.voices.map((v) => v.id).join(", ")}`);
  if (!option.available)
    throw new AppError(
      "BAD_REQUEST",
      `The voice ${voice} needs ELEVENLABS_API_KEY on the server: choose one of ${BUILTIN_VOICES.map((v) => v.id).join(", ")}`,
    );
  const thread = input.threadId
    ? await findOwnThread(services, user, input.threadId)
    : await createThread(services, user, "Voice conversation");
  const session = await services.prisma.voiceSession.create({
    data: { userId: user.id, threadId: thread.id, provider: "elevenlabs", voice },
  });
  return { session: toView(session) };
}

/** The reply's first sentences, as much as is worth listening to. */
function spokenPart(reply: string): string {
  const text = speakableText(reply);
  if (text.length <= SPOKEN_MAX) return text;
  const cut = text.slice(0, SPOKEN_MAX);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("! "), cut.lastIndexOf("? "));
  return end > 100 ? cut.slice(0, end + 1) : `${cut.replace(/\s+\S*$/, "")}.`;
}

/** Each account's speech lives in its own folder, so a file name can only ever reach its owner's files. */
export const speechKey = (userId: string, file: string) => `voice/${userId}/${file}`;

export async function voiceTurn(
  services: Services,
  user: AssistantUser,
  input: z.input<typeof VoiceTurnInput>,
  signal: AbortSignal,
): Promise<VoiceTurn> {
  const request = parseInput(VoiceTurnInput, input);
  const session = request.sessionId ? await findOwnSession(services, user, request.sessionId) : await createVoiceSessionRow(services, user);
  const { providers, config } = services;
  const transcript = request.transcript
    ? request.transcript
    : await transcribe(config.providers.elevenLabsKey, Buffer.from(request.audio!, "base64"), request.audioType ?? "audio/wav", signal);
  const { reply, threadId } = await askAssistant(
    services,
    user,
    { message: transcript.slice(0, 2000), threadId: session.threadId },
    signal,
  );

  const natural = session.voice.startsWith(NATURAL_PREFIX);
  const synthesizer = natural && providers.voice ? providers.voice : services.voice;
  const voiceName = session.voice.replace(NATURAL_PREFIX, "");
  const speech = await synthesizer.synthesize(spokenPart(reply) || "I have nothing to say to that.", { voice: voiceName, signal });
  const file = `${randomUUID()}.wav`;
  await services.media.put(speechKey(session.userId, file), speech.wavPath);
  await services.prisma.voiceSession.update({ where: { id: session.id }, data: { turns: { increment: 1 } } });
  return {
    sessionId: session.id,
    threadId,
    transcript,
    reply,
    audioUrl: `/api/chat/speech/${file}`,
    voice: session.voice,
    durationSec: Math.round(speech.durationSec * 100) / 100,
  };
}

async function createVoiceSessionRow(services: Services, user: AssistantAccount): Promise<VoiceSession> {
  const { session } = await createVoiceSession(services, user, {});
  return services.prisma.voiceSession.findUniqueOrThrow({ where: { id: session.id } });
}

/** A reply's speech, to its owner only (anyone else: 404). */
export async function openSpeech(services: Services, user: AssistantAccount, file: string) {
  if (!/^[0-9a-f-]{36}\.wav$/.test(file)) throw Errors.notFound("Speech");
  const key = speechKey(user.id, file);
  const info = await services.media.stat(key);
  if (!info) throw Errors.notFound("Speech");
  return { key, ...info };
}
