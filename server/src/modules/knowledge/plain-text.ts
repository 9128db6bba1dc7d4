// Bytes as text for the readers: the start of a file read up to a cap, decoded by its BOM, as UTF-8 when it
// is valid, else as Windows-1252, and tidied (line endings, runs of spaces and blank lines).
import { open } from "node:fs/promises";

export const tidy = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

// Windows-1252's 0x80–0x9F (ISO-8859-1 has control characters there). Node's TextDecoder decodes
// "windows-1252" as ISO-8859-1, so these are mapped here; 0 marks the five unassigned bytes.
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) {
    const mapped = byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] || byte : byte;
    out += String.fromCharCode(mapped);
  }
  return out;
}

/**
 * Bytes as text: a BOM decides, else UTF-8 when the bytes are valid UTF-8, else Windows-1252 (Latin-1's
 * superset). `cut`: the bytes are a file's start, so a character split at the end is dropped, not an error.
 */
export function decodeText(bytes: Uint8Array, cut = false): string {
  const decode = (encoding: string, from: number, fatal = false) =>
    new TextDecoder(encoding, { fatal }).decode(bytes.subarray(from), { stream: cut });
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode("utf-8", 3);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decode("utf-16le", 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decode("utf-16be", 2);
  try {
    return decode("utf-8", 0, true);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/** The first `maxBytes` of the file at `path`, and whether there was more. */
export async function readHead(path: string, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const bytes = Buffer.alloc(Math.min(size, maxBytes));
    const { bytesRead } = await file.read(bytes, 0, bytes.length, 0);
    return { bytes: bytes.subarray(0, bytesRead), cut: size > maxBytes };
  } finally {
    await file.close();
  }
}
