// Asking the assistant: type (Enter sends, Shift+Enter breaks the line) or record, within the length limit.
import { CHAT_MESSAGE_MAX } from "@adgen/schema";
import type { FormEvent } from "react";
import { MicButton } from "./mic-button.tsx";

interface QuestionFormProps {
  id: string;
  draft: string;
  setDraft: (text: string) => void;
  busy: false | "answering" | "listening";
  brandName: string | null;
  serverSpeechToText: boolean;
  ask: (message: string) => Promise<void>;
  speak: (audio: string, audioType: string) => Promise<void>;
}

export function QuestionForm({ id, draft, setDraft, busy, brandName, serverSpeechToText, ask, speak }: QuestionFormProps) {
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void ask(draft);
  };
  const tooLong = draft.length > CHAT_MESSAGE_MAX;
  return (
    <form className="assistant-form" onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        Your question
      </label>
      <textarea
        id={id}
        className="input"
        rows={3}
        value={draft}
        placeholder={`Ask me… e.g. “Launch a static ad about ${brandName ?? "our best seller"}”`}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            void ask(draft);
          }
        }}
        aria-invalid={tooLong}
        data-testid="assistant-input"
      />
      <div className="assistant-form-actions">
        <span className={tooLong ? "field-error" : "muted"}>
          {tooLong ? `Shorten your question to ${CHAT_MESSAGE_MAX} characters` : `${draft.length} / ${CHAT_MESSAGE_MAX}`}
        </span>
        <span className="assistant-mic">
          <MicButton
            serverSpeechToText={serverSpeechToText}
            onTranscript={(text) => setDraft(text)}
            onAudio={(audio, type) => void speak(audio, type)}
            disabled={Boolean(busy)}
          />
          <button
            type="submit"
            className="btn btn-primary"
            disabled={Boolean(busy) || !draft.trim() || tooLong}
            data-testid="assistant-send"
          >
            {busy === "answering" ? "Answering…" : "Send"}
          </button>
        </span>
      </div>
    </form>
  );
}
