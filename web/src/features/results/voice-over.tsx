// A narrated ad's voice-over: who speaks it (the voice model), that its captions play with the video,
// and the narration on its own (its files are among the downloads).
import { useQuery } from "@tanstack/react-query";
import { mediaSrc } from "../../lib/workflow.ts";
import { useTRPC } from "../../trpc.ts";
import type { Asset } from "./types.ts";

interface VoiceOverProps {
  audio: Asset | undefined;
  captions: Asset | undefined;
  /** The voice model id that spoke it (result.models.voice). */
  voiceModel: string | undefined;
  hasVideo: boolean;
}

export function VoiceOver({ audio, captions, voiceModel, hasVideo }: VoiceOverProps) {
  const trpc = useTRPC();
  const studio = useQuery(trpc.public.studio.queryOptions(undefined, { staleTime: 10 * 60_000 }));
  if (!audio && !captions) return null;
  const voiceName = studio.data?.models.voice.find((m) => m.id === voiceModel)?.name ?? voiceModel;
  return (
    <section className="result-section voice-over" aria-labelledby="voice-over-title" data-testid="voice-over">
      <h3 id="voice-over-title" className="result-section-title">
        Voice-over
      </h3>
      <p className="muted">
        Narrated{voiceName ? ` by ${voiceName}` : ""}, mixed over the music.
        {captions && hasVideo
          ? " Captions are burned into the video; its captions track (CC) is there for players that hide them, off here."
          : ""}
      </p>
      {audio ? (
        // biome-ignore lint/a11y/useMediaCaption: the same narration's captions are the WebVTT file among the downloads and the video's track
        <audio className="voice-over-audio" controls preload="none" src={mediaSrc(audio.url)} data-testid="voice-over-audio" />
      ) : null}
    </section>
  );
}
