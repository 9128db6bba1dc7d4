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

export function mediaContentType(file: string): string {
  return TYPES[file.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}
