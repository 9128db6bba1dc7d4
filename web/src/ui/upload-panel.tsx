// The row that adds files: a hidden file input opened by a button, and how many items are held beside it.
import { type ChangeEvent, useRef } from "react";

interface UploadPanelProps {
  /** The file input's id; the count's id is derived from it. */
  inputId: string;
  accept: string;
  /** The stem of the parts' test ids: `<stem>-file-input`, `<stem>-upload`, `<stem>-count`. */
  testId: string;
  label: string;
  /** What the count says, e.g. "3 of 20" (empty while the list loads). */
  count: string;
  sending: boolean;
  /** The list is still loading: nothing can be added yet. */
  loading: boolean;
  /** Nothing more can be added now (the list is full, or something else is missing first). */
  blocked: boolean;
  onFiles(event: ChangeEvent<HTMLInputElement>): void;
}

export function UploadPanel({ inputId, accept, testId, label, count, sending, loading, blocked, onFiles }: UploadPanelProps) {
  const input = useRef<HTMLInputElement>(null);
  const countId = `${inputId}-count`;
  return (
    <div className="media-upload">
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={accept}
        multiple
        className="visually-hidden"
        onChange={onFiles}
        disabled={sending || loading}
        data-testid={`${testId}-file-input`}
      />
      <button
        type="button"
        className="btn btn-primary btn-small"
        onClick={() => input.current?.click()}
        disabled={sending || loading || blocked}
        aria-describedby={countId}
        data-testid={`${testId}-upload`}
      >
        {sending ? "Uploading…" : label}
      </button>
      <span id={countId} className="muted media-count" data-testid={`${testId}-count`}>
        {count}
      </span>
    </div>
  );
}
