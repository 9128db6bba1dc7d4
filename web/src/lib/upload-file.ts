// Uploading one file to a REST upload operation (multipart, part `file`) over XMLHttpRequest, the one
// browser API that reports upload progress. Same origin, so the session cookie goes along. The answer's
// envelope error is the message shown; `tooLarge` is said when the server answers 413 without one.
const NETWORK_MESSAGE = "Could not reach AdGen. Check your connection and try again.";

export function uploadFile<T>(
  path: string,
  file: File,
  onProgress: (fraction: number) => void,
  tooLarge?: string,
  /** Text parts sent before the file (an upload's options). */
  fields: Record<string, string> = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: { success?: boolean; data?: T; error?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status says what happened
      }
      if (xhr.status === 200 && body.data) resolve(body.data);
      else if (xhr.status === 413 && tooLarge) reject(new Error(body.error ?? tooLarge));
      else reject(new Error(body.error ?? `The upload failed (HTTP ${xhr.status}). Please try again.`));
    };
    xhr.onerror = () => reject(new Error(NETWORK_MESSAGE));
    xhr.onabort = () => reject(new Error("The upload was cancelled."));
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
