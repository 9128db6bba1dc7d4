// A DOCX or XLSX is a ZIP: before a reader inflates it, every part's unpacked size is read from the central
// directory and checked against the caps (one part, all together), then each part is inflated here with
// its declared size as the ceiling, so a directory that understates a part is caught before a reader
// trusts it. A 1 MB file that unpacks to 1 GB is refused without ever holding the gigabyte.
import { readFile } from "node:fs/promises";
import { inflateRawSync } from "node:zlib";
import { count, EXTRACTION_CAPS } from "./extraction-caps.ts";
import { ExtractionError } from "./extraction-error.ts";

const MB = 1024 * 1024;
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_MARK = 0xffffffff;

interface Entry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  local: number;
}

/** Sizes and offset a ZIP64 extra field (id 1) gives in place of fields set to 0xFFFFFFFF. */
function zip64(entry: Entry, extra: Buffer): Entry {
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) {
    if (extra.readUInt16LE(at) !== 1) continue;
    let field = at + 4;
    const next = () => {
      const value = Number(extra.readBigUInt64LE(field));
      field += 8;
      return value;
    };
    const size = entry.size === ZIP64_MARK ? next() : entry.size;
    const compressed = entry.compressed === ZIP64_MARK ? next() : entry.compressed;
    const local = entry.local === ZIP64_MARK ? next() : entry.local;
    return { ...entry, size, compressed, local };
  }
  return entry;
}

function centralDirectory(zip: Buffer): Entry[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("no end of central directory");
  const entries: Entry[] = [];
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = zip.readUInt16LE(eocd + 10); n > 0; n--) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error("bad central directory entry");
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const entry = {
      name: zip.subarray(at + 46, at + 46 + nameLength).toString("utf8"),
      method: zip.readUInt16LE(at + 10),
      compressed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      local: zip.readUInt32LE(at + 42),
    };
    entries.push(zip64(entry, zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength)));
    at += 46 + nameLength + extraLength + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** Whether the part really unpacks to its declared size (an understated size is a forged file). */
function unpacksAsDeclared(zip: Buffer, entry: Entry): boolean {
  try {
    if (zip.readUInt32LE(entry.local) !== LOCAL) return false;
    const start = entry.local + 30 + zip.readUInt16LE(entry.local + 26) + zip.readUInt16LE(entry.local + 28);
    const raw = zip.subarray(start, start + entry.compressed);
    if (raw.length !== entry.compressed) return false;
    if (entry.method === 0) return entry.size === entry.compressed;
    if (entry.method !== 8) return false;
    // One byte past the declared size is enough to know it lies; inflating stops there.
    return inflateRawSync(raw, { maxOutputLength: entry.size + 1 }).length === entry.size;
  } catch {
    return false;
  }
}

/**
 * Refuses the ZIP at `path` when a part or the whole would unpack past the caps (or it is damaged):
 * `what` names the document in the message ("workbook", "Word document").
 */
export async function checkZipSizes(path: string, what: string, damaged: string): Promise<void> {
  const zip = await readFile(path);
  let entries: Entry[];
  try {
    entries = centralDirectory(zip);
  } catch {
    throw new ExtractionError(damaged);
  }
  const { maxZipEntryBytes, maxZipTotalBytes } = EXTRACTION_CAPS;
  const split = "split it into smaller files and upload those";
  let total = 0;
  for (const entry of entries) {
    if (entry.size > maxZipEntryBytes)
      throw new ExtractionError(
        `This ${what} unpacks to more than ${count(maxZipEntryBytes / MB)} MB in one part (${entry.name}); ${split}`,
      );
    total += entry.size;
    if (total > maxZipTotalBytes)
      throw new ExtractionError(`This ${what} unpacks to more than ${count(maxZipTotalBytes / MB)} MB; ${split}`);
  }
  for (const entry of entries) if (!unpacksAsDeclared(zip, entry)) throw new ExtractionError(damaged);
}
