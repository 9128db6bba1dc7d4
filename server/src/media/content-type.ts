// The Content-Type of a stored media file, by its extension (the studio names every file it writes).
const TYPES: Record<string, string> = {
  mp4: "video/mp4",
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  zip: "application/zip",
  pdf: "application/pdf",
  vtt: "text/vtt; charset=utf-8",
  wav: "audio/wav",
};

/** Every media type a stored file is served as (without parameters), for documents that list them. */
export const STORED_MEDIA_TYPES: readonly string[] = [...new Set(Object.values(TYPES).map((type) => type.split(";")[0]!))];

export function mediaContentType(file: string): string {
  return TYPES[file.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}
