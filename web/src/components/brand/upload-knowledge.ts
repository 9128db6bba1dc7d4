// Uploading a document to the knowledge base: multipart POST /api/user/brand/knowledge/files over
// XMLHttpRequest, the one browser API that reports upload progress. Same origin, so the session cookie
// goes along.
import type { KnowledgeItem } from "@adgen/schema";

const NETWORK_MESSAGE = "Could not reach AdGen. Check your connection and try again.";

export function uploadKnowledgeFile(file: File, onProgress: (fraction: number) => void): Promise<KnowledgeItem> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/user/brand/knowledge/files");
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: { success?: boolean; data?: KnowledgeItem; error?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: the status says what happened
      }
      if (xhr.status === 200 && body.data) resolve(body.data);
      else if (xhr.status === 413) reject(new Error(body.error ?? "This file is larger than 50 MB, the most a document may be."));
      else reject(new Error(body.error ?? `The upload failed (HTTP ${xhr.status}). Please try again.`));
    };
    xhr.onerror = () => reject(new Error(NETWORK_MESSAGE));
    xhr.onabort = () => reject(new Error("The upload was cancelled."));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
