// The microphone, where the browser has one: the browser's own speech recognition fills the question
// box (no key needed); without it, a recording goes to the server's speech-to-text when it has one
// (POST /api/voice/elevenlabs with the audio), and the spoken reply plays. Otherwise no button.
import { useRef, useState } from "react";

interface Recognition {
  lang: string;
  interimResults: boolean;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}

type RecognitionCtor = new () => Recognition;

function recognitionCtor(): RecognitionCtor | null {
  const w = window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

const canRecord = () => typeof window !== "undefined" && "MediaRecorder" in window && Boolean(navigator.mediaDevices?.getUserMedia);

export function MicButton({
  serverSpeechToText,
  onTranscript,
  onAudio,
  disabled,
}: {
  serverSpeechToText: boolean;
  onTranscript: (text: string) => void;
  onAudio: (audioBase64: string, type: string) => void;
  disabled?: boolean;
}) {
  const [listening, setListening] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const stop = useRef<(() => void) | null>(null);
  const Ctor = typeof window === "undefined" ? null : recognitionCtor();
  if (!Ctor && !(serverSpeechToText && canRecord())) return null;

  const start = async () => {
    setProblem(null);
    if (Ctor) {
      const recognition = new Ctor();
      recognition.lang = navigator.language || "en-US";
      recognition.interimResults = false;
      recognition.onresult = (event) => onTranscript(event.results[0]?.[0]?.transcript ?? "");
      recognition.onerror = (event) =>
        setProblem(event.error === "not-allowed" ? "Allow the microphone to speak your question." : "I could not hear that; try again.");
      recognition.onend = () => setListening(false);
      stop.current = () => recognition.stop();
      recognition.start();
      setListening(true);
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const recorder = new MediaRecorder(stream);
      const chunks: Blob[] = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      recorder.onstop = async () => {
        for (const track of stream.getTracks()) track.stop();
        setListening(false);
        const blob = new Blob(chunks, { type: recorder.mimeType || "audio/webm" });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let binary = "";
        for (const byte of bytes) binary += String.fromCharCode(byte);
        onAudio(btoa(binary), blob.type);
      };
      stop.current = () => recorder.stop();
      recorder.start();
      setListening(true);
    } catch {
      setProblem("Allow the microphone to speak your question.");
    }
  };

  return (
    <span className="assistant-mic">
      <button
        type="button"
        className={`btn btn-ghost${listening ? " assistant-mic-live" : ""}`}
        onClick={() => (listening ? stop.current?.() : void start())}
        disabled={disabled}
        aria-pressed={listening}
        data-testid="assistant-mic"
      >
        {listening ? "Stop" : "Speak"}
      </button>
      {problem ? (
        <span className="field-error" role="alert">
          {problem}
        </span>
      ) : null}
    </span>
  );
}
