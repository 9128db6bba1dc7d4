// Speech to text through ElevenLabs (https://elevenlabs.io/docs/api-reference/speech-to-text/convert):
// `POST https://api.elevenlabs.io/v1/speech-to-text` with `xi-api-key`, a multipart body with the audio
// as `file` and `model_id` scribe_v1, answering `{ text, language_code, … }`. Without the key there is
// no speech-to-text here: the caller is told to send a transcript instead.
import { z } from "zod";
import { AppError } from "../../errors.ts";

const URL_STT = "https://api.elevenlabs.io/v1/speech-to-text";
const Answer = z.object({ text: z.string() });

export async function transcribe(apiKey: string | null, audio: Uint8Array, contentType: string, signal?: AbortSignal): Promise<string> {
  if (!apiKey) {
    throw new AppError(
      "BAD_REQUEST",
      "Audio needs speech-to-text, which is not configured on this server (ELEVENLABS_API_KEY): send a transcript instead",
    );
  }
  if (audio.byteLength < 16) throw new AppError("BAD_REQUEST", "audio is empty: record something and send it again");
  const form = new FormData();
  form.append(
    "file",
    new Blob([audio as Uint8Array<ArrayBuffer>], { type: contentType }),
    `speech.${contentType.split("/")[1]?.split(";")[0] || "wav"}`,
  );
  form.append("model_id", "scribe_v1");
  const timeout = AbortSignal.timeout(60_000);
  let response: Response;
  try {
    response = await fetch(URL_STT, {
      method: "POST",
      headers: { "xi-api-key": apiKey },
      body: form,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch {
    throw new AppError("UNAVAILABLE", "The speech-to-text service could not be reached; try again, or send a transcript");
  }
  if (response.status === 400 || response.status === 422) {
    throw new AppError("BAD_REQUEST", "The speech-to-text service could not read this audio: send WAV, MP3, WebM or OGG speech");
  }
  if (!response.ok)
    throw new AppError("UNAVAILABLE", `The speech-to-text service answered ${response.status}; try again, or send a transcript`);
  const parsed = Answer.safeParse(await response.json().catch(() => null));
  if (!parsed.success)
    throw new AppError("UNAVAILABLE", "The speech-to-text service answered something unexpected; try again, or send a transcript");
  const text = parsed.data.text.trim();
  if (!text) throw new AppError("BAD_REQUEST", "No speech was heard in the audio: speak closer to the microphone and try again");
  return text;
}
