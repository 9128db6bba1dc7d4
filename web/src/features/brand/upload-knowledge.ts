// Uploading a document to the knowledge base (POST /api/user/brand/knowledge/files), with progress.
import type { KnowledgeItem } from "@adgen/schema";
import { uploadFile } from "../../lib/upload-file.ts";

export function uploadKnowledgeFile(file: File, onProgress: (fraction: number) => void): Promise<KnowledgeItem> {
  return uploadFile<KnowledgeItem>(
    "/api/user/brand/knowledge/files",
    file,
    onProgress,
    "This file is larger than 50 MB, the most a document may be.",
  );
}
