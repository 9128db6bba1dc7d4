// Uploading several chosen files one after another, each with its row: waiting, a progress bar, or the
// reason it was refused (by the browser's precheck or by the server), in plain words. Used by the brand
// media library and the knowledge base.
import { type ChangeEvent, useState } from "react";
import { errorMessage } from "../../lib/errors.ts";

export interface PendingUpload {
  key: string;
  name: string;
  /** 0..1 while sending; null while waiting or once refused (see `error`). */
  progress: number | null;
  error: string | null;
}

const MB = 1024 * 1024;
export const describeBytes = (bytes: number) =>
  bytes >= MB ? `${+(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export interface FileUploadsOptions {
  /** How many more files fit when a batch starts. */
  room: () => number;
  /** Why the browser already knows a file will be refused (name, size, room), or null. */
  precheck: (file: File, room: number) => string | null;
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<unknown>;
  /** After each file is stored (refresh the list). */
  onUploaded: () => Promise<unknown>;
}

export function useFileUploads({ room, precheck, upload, onUploaded }: FileUploadsOptions) {
  const [uploads, setUploads] = useState<PendingUpload[]>([]);
  const update = (key: string, patch: Partial<PendingUpload>) =>
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...patch } : u)));

  async function handleFiles(event: ChangeEvent<HTMLInputElement>) {
    const chosen = [...(event.target.files ?? [])];
    event.target.value = "";
    if (chosen.length === 0) return;
    const batch = chosen.map((file, i) => ({ file, key: `${Date.now()}-${i}-${file.name}` }));
    // Refused files from an earlier batch stay listed until a new batch starts.
    setUploads(batch.map(({ file, key }) => ({ key, name: file.name, progress: null, error: null })));
    let left = room();
    for (const { file, key } of batch) {
      const refused = precheck(file, left);
      if (refused) {
        update(key, { error: refused });
        continue;
      }
      update(key, { progress: 0 });
      try {
        await upload(file, (fraction) => update(key, { progress: fraction }));
        left -= 1;
        setUploads((all) => all.filter((u) => u.key !== key));
        await onUploaded();
      } catch (error) {
        update(key, { progress: null, error: errorMessage(error) });
      }
    }
  }

  return { uploads, sending: uploads.some((u) => u.progress !== null), handleFiles };
}

/** The rows of the files being uploaded; `testId` prefixes each row's test ids (`<testId>-upload-row`, …). */
export function UploadList({ uploads, testId }: { uploads: PendingUpload[]; testId: string }) {
  if (!uploads.length) return null;
  return (
    <ul className="media-uploads" aria-live="polite">
      {uploads.map((u) => (
        <li key={u.key} className={`media-upload-row${u.error ? " has-error" : ""}`} data-testid={`${testId}-upload-row`}>
          <span className="media-upload-name">{u.name}</span>
          {u.error ? (
            <span className="field-error" role="alert" data-testid={`${testId}-upload-error`}>
              {u.error}
            </span>
          ) : u.progress !== null ? (
            <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} data-testid={`${testId}-progress`} />
          ) : (
            <span className="muted">Waiting…</span>
          )}
        </li>
      ))}
    </ul>
  );
}
